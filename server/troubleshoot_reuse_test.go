package server

import (
	"fmt"
	"io"
	"log/slog"
	"net/http"
	"net/http/httptest"
	"regexp"
	"strings"
	"sync"
	"testing"

	"github.com/layerfix/layerfix/store/storetest"
)

// refineTokenField is the part of an answer that depends on the second it
// was made.
var refineTokenField = regexp.MustCompile(`"refineToken":"[^"]*"`)

// TestTroubleshootAnswersKeptApart: different analyses posted at once
// (sharing the decoder's, the engine's and the encoder's reused memory)
// are answered exactly as each one alone.
func TestTroubleshootAnswersKeptApart(t *testing.T) {
	engine := sharedEngine(t)
	cfg := testConfig(t, map[string]string{"LAYERFIX_ANON_MONTHLY_LIMIT": "unlimited", "LAYERFIX_NETWORK_MONTHLY_LIMIT": "unlimited"})
	log := slog.New(slog.NewTextHandler(io.Discard, &slog.HandlerOptions{Level: slog.LevelError}))
	s, err := New(cfg, Deps{Store: storetest.Open(t), Analyzer: engine, Refiner: engine, Learner: engine, Frontend: testFrontend, Logger: log})
	if err != nil {
		t.Fatal(err)
	}
	h := s.Handler()
	var bodies []string
	descs := []string{
		"Lots of thin strings between the two towers, PETG on my Ender 3",
		"ABS corners keep lifting off the bed and the part warps, even with a brim",
		"Layers shifted to the right about halfway through, clicking from the X motor",
		"first layer lines dont touch, gaps between lines, elefant foot",
		strings.Repeat("zits and blobs on the outer walls at the seam, ghosting around the letters. ", 20),
		"The extruder clicks and \\\"nothing\\\" comes out \\u00e9 after 20 minutes",
	}
	for i, d := range descs {
		for j, m := range []string{"PETG", "PLA", "ABS", "TPU"} {
			bodies = append(bodies,
				fmt.Sprintf(`{"category":"other","description":"%s","material":"%s","nozzleTemp":%d,"printerBrand":"Prusa MK4","images":[]}`, d, m, 190+10*i+5*j),
				fmt.Sprintf(`{"category":"stringing","description":"%s","material":"%s","bedTemp":%d,"printerBrand":"Creality Ender 3 V2","slicerSettings":{"retractionLength":0.8}}`, d, m, 50+5*j),
			)
		}
	}
	bodies = append(bodies, `{"category":"nope","description":"x"}`, `{"description":`, `{"nozzleTemp":"hot","description":"strings everywhere on the print"}`)
	post := func(body string) string {
		req := httptest.NewRequest(http.MethodPost, "/api/troubleshoot", strings.NewReader(body))
		req.RemoteAddr = "192.0.2.1:40000"
		req.Header.Set("Content-Type", "application/json")
		w := httptest.NewRecorder()
		h.ServeHTTP(w, req)
		return fmt.Sprint(w.Code, " ", refineTokenField.ReplaceAllString(w.Body.String(), `"refineToken":"…"`))
	}
	want := make([]string, len(bodies))
	ok := 0
	for i, b := range bodies {
		want[i] = post(b)
		if strings.HasPrefix(want[i], "200 ") {
			ok++
		}
	}
	if ok < len(bodies)/2 {
		t.Fatalf("%d of %d bodies analysed; the first answer: %s", ok, len(bodies), want[0])
	}
	const workers = 4
	var wg sync.WaitGroup
	for w := range workers {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for round := 0; round < 2; round++ {
				for k := range bodies {
					i := (k + w*len(bodies)/workers) % len(bodies)
					got := post(bodies[i])
					if got != want[i] {
						t.Errorf("body %d posted among others:\n got  %s\n want %s", i, got, want[i])
						return
					}
				}
			}
		}()
	}
	wg.Wait()
}
