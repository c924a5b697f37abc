package server

import (
	"encoding/json"
	"fmt"
	"net/http"
	"net/http/httptest"
	"os"
	"runtime"
	"strconv"
	"testing"
	"time"

	"github.com/layerfix/layerfix/store"
)

// BenchmarkFarm seeds one print farm with FARM_ISSUES issues (default
// 100,000) on SQLite and times what its screens ask for: the dashboard
// summary, the first issues page, a filtered page, a page deep in the log,
// and the CSV export of everything, with the heap growth of the export.
// make bench-farm runs it.
func BenchmarkFarm(b *testing.B) {
	n := 100_000
	if v, err := strconv.Atoi(os.Getenv("FARM_ISSUES")); err == nil && v > 0 {
		n = v
	}
	ws := newWorkspace(&testing.T{}, nil)
	auth := ws.user(&testing.T{}, "farm@example.com")
	var prof struct{ ID int64 }
	decode(ws.do(&testing.T{}, "GET", "/api/user/profile", "", auth...), &prof)
	printers := make([]int64, 20)
	for i := range printers {
		printers[i] = ws.addPrinter(&testing.T{}, auth, fmt.Sprintf("Farm %02d", i), "Prusa").ID
	}
	start := time.Now()
	base := ws.clock.now()
	batch := make([]store.Issue, 0, 1000)
	checklist := store.JSON(`{"summary":"Stringing from retraction","steps":[{"title":"Increase retraction","description":"5 mm","priority":"high"}],"additionalTips":[]}`)
	for i := 0; i < n; i++ {
		pid := printers[i%len(printers)]
		status := store.StatusResolved
		switch i % 10 {
		case 0:
			status = store.StatusPending
		case 1:
			status = store.StatusInProgress
		}
		batch = append(batch, store.Issue{UserID: prof.ID, PrinterID: &pid, Category: "stringing", Status: status,
			Description: fmt.Sprintf("Issue %d: thin strings between parts on plate %d", i, i%7), AIChecklist: checklist,
			CreatedAt: base.Add(-time.Duration(i) * time.Minute)})
		if len(batch) == cap(batch) || i == n-1 {
			if err := ws.store.CreateIssues(b.Context(), batch); err != nil {
				b.Fatal(err)
			}
			batch = batch[:0]
		}
	}
	b.Logf("seeded %d issues in %s", n, time.Since(start).Round(time.Millisecond))

	timeGet := func(name, path string) {
		var worst, total time.Duration
		const rounds = 20
		for r := 0; r < rounds; r++ {
			t0 := time.Now()
			w := ws.do(&testing.T{}, "GET", path, "", auth...)
			d := time.Since(t0)
			if w.Code != http.StatusOK {
				b.Fatalf("%s: %d %s", path, w.Code, w.Body.String())
			}
			total += d
			worst = max(worst, d)
		}
		b.Logf("%-34s mean %6.1f ms, worst %6.1f ms", name, float64(total.Microseconds())/rounds/1000, float64(worst.Microseconds())/1000)
	}
	timeGet("dashboard summary", "/api/issues/summary")
	timeGet("first issues page (50)", "/api/issues?limit=50")
	timeGet("open issues of one printer", "/api/issues?limit=50&status=open&printer=Farm%2007")
	timeGet("text search", "/api/issues?limit=50&q=plate%203")
	timeGet("printer stats", "/api/printers/stats")

	var before, after runtime.MemStats
	runtime.GC()
	runtime.ReadMemStats(&before)
	t0 := time.Now()
	rec := httptest.NewRecorder()
	req := httptest.NewRequest("GET", "/api/issues/export?format=csv", nil)
	req.Header.Set(auth[0], auth[1])
	req.RemoteAddr = "192.0.2.1:40000"
	ws.h.ServeHTTP(discardBody{rec}, req)
	d := time.Since(t0)
	runtime.ReadMemStats(&after)
	b.Logf("%-34s %6.2f s, %d bytes, heap in use %+.1f MiB", "CSV export of all issues", d.Seconds(), written, float64(int64(after.HeapInuse)-int64(before.HeapInuse))/(1<<20))
}

var written int64

// discardBody counts the export's bytes instead of keeping them, as a
// client reading the stream would.
type discardBody struct{ *httptest.ResponseRecorder }

func (d discardBody) Write(p []byte) (int, error) { written += int64(len(p)); return len(p), nil }
func (d discardBody) Flush()                      {}

func decode(w *httptest.ResponseRecorder, v any) {
	_ = json.Unmarshal(w.Body.Bytes(), v)
}
