package server

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"image"
	"image/png"
	"io"
	"log/slog"
	"mime/multipart"
	"net/http/httptest"
	"path/filepath"
	"slices"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/layerfix/layerfix/ai"
	"github.com/layerfix/layerfix/config"
	"github.com/layerfix/layerfix/store"
	"github.com/layerfix/layerfix/store/blob"
	"github.com/layerfix/layerfix/store/storetest"
)

// testClock is an adjustable clock for the workspace tests.
type testClock struct {
	mu sync.Mutex
	t  time.Time
}

func (c *testClock) now() time.Time {
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.t
}

func (c *testClock) set(t time.Time) {
	c.mu.Lock()
	c.t = t
	c.mu.Unlock()
}

// workspace is a test server with a photo dir and a clock of its own.
type workspace struct {
	*testServer
	photoDir string
	clock    *testClock
}

// newWorkspace starts a workspace server; opts adjust its configuration and
// collaborators before it is built.
func newWorkspace(t *testing.T, an ai.Analyzer, opts ...func(*config.Config, *Deps)) *workspace {
	t.Helper()
	dir := t.TempDir()
	cfg := testConfig(t, map[string]string{"LAYERFIX_DATA_DIR": dir})
	st := storetest.Open(t)
	if an == nil {
		an = &fakeAnalyzer{}
	}
	clock := &testClock{t: time.Date(2026, 3, 14, 10, 0, 0, 0, time.UTC)}
	st.Now = clock.now // rows the store stamps itself follow the same clock
	photoDir := filepath.Join(dir, "photos")
	d := Deps{Store: st, Analyzer: an, Frontend: testFrontend, Photos: blob.NewDisk(photoDir),
		Logger: slog.New(slog.NewTextHandler(io.Discard, nil)), Now: clock.now}
	for _, o := range opts {
		o(cfg, &d)
	}
	s, err := New(cfg, d)
	if err != nil {
		t.Fatal(err)
	}
	return &workspace{testServer: &testServer{Server: s, store: st, cfg: cfg, h: checkContract(t, s.Handler())}, photoDir: photoDir, clock: clock}
}

// user signs up a maker and returns the bearer header pair.
func (ws *workspace) user(t *testing.T, email string) []string {
	t.Helper()
	return bearer(signup(t, ws.testServer, email, "gears-and-layers").Token)
}

func (ws *workspace) addPrinter(t *testing.T, auth []string, name, brand string) store.Printer {
	t.Helper()
	w := ws.do(t, "POST", "/api/printers", mustJSON(t, map[string]any{"name": name, "brand": brand}), auth...)
	if w.Code != 201 {
		t.Fatalf("add printer: %d %s", w.Code, w.Body.String())
	}
	var p store.Printer
	json.Unmarshal(w.Body.Bytes(), &p)
	return p
}

// multipartImages builds an upload body with one "images" part per file.
func multipartImages(t *testing.T, files map[string][]byte, order ...string) (string, *bytes.Buffer) {
	t.Helper()
	var buf bytes.Buffer
	mw := multipart.NewWriter(&buf)
	for _, name := range order {
		fw, err := mw.CreateFormFile("images", name)
		if err != nil {
			t.Fatal(err)
		}
		fw.Write(files[name])
	}
	mw.Close()
	return mw.FormDataContentType(), &buf
}

func (ts *testServer) upload(t *testing.T, auth []string, ct string, body io.Reader) *httptest.ResponseRecorder {
	t.Helper()
	req := httptest.NewRequest("POST", "/api/upload-images", body)
	req.RemoteAddr = "192.0.2.1:40000"
	req.Header.Set("Content-Type", ct)
	for i := 0; i+1 < len(auth); i += 2 {
		req.Header.Set(auth[i], auth[i+1])
	}
	w := httptest.NewRecorder()
	ts.h.ServeHTTP(w, req)
	return w
}

// uploadPNG uploads one w×h PNG and returns its URL.
func (ts *testServer) uploadPNG(t *testing.T, auth []string, w, h int) string {
	t.Helper()
	ct, body := multipartImages(t, map[string][]byte{"p.png": pngImage(t, w, h)}, "p.png")
	rec := ts.upload(t, auth, ct, body)
	if rec.Code != 200 {
		t.Fatalf("upload: %d %s", rec.Code, rec.Body.String())
	}
	var out struct{ Images []struct{ URL string } }
	json.Unmarshal(rec.Body.Bytes(), &out)
	if len(out.Images) != 1 {
		t.Fatalf("upload answer %s", rec.Body.String())
	}
	return out.Images[0].URL
}

func pngImage(t *testing.T, w, h int) []byte {
	t.Helper()
	img := image.NewRGBA(image.Rect(0, 0, w, h))
	for i := 0; i < len(img.Pix); i += 4 {
		p := i / 4
		img.Pix[i], img.Pix[i+1], img.Pix[i+2], img.Pix[i+3] = uint8(p%w), uint8(p/w), 120, 255
	}
	var buf bytes.Buffer
	if err := (&png.Encoder{CompressionLevel: png.BestSpeed}).Encode(&buf, img); err != nil {
		t.Fatal(err)
	}
	return buf.Bytes()
}

func issueBody(t *testing.T, printerID int64, mod func(m map[string]any)) string {
	m := map[string]any{
		"printerId": printerID, "category": "stringing", "description": "Thin hairs between the towers after every print",
		"material": "PETG", "nozzleTemp": 235, "bedTemp": nil, "layerHeight": 0.2, "printSpeed": nil, "infill": nil,
		"photoUrls": []string{},
	}
	if mod != nil {
		mod(m)
	}
	return mustJSON(t, m)
}

type issueOut struct {
	store.Issue
	AIChecklist ai.Result   `json:"aiChecklist"`
	Printer     *printerRef `json:"printer"`
}

func (ws *workspace) submit(t *testing.T, auth []string, body string) issueOut {
	t.Helper()
	w := ws.do(t, "POST", "/api/issues", body, auth...)
	if w.Code != 201 {
		t.Fatalf("submit issue: %d %s", w.Code, w.Body.String())
	}
	var out issueOut
	if err := json.Unmarshal(w.Body.Bytes(), &out); err != nil {
		t.Fatal(err)
	}
	return out
}

func (ws *workspace) usage(t *testing.T, auth []string) int {
	t.Helper()
	w := ws.do(t, "GET", "/api/user/profile", "", auth...)
	var p profile
	json.Unmarshal(w.Body.Bytes(), &p)
	return p.MonthlyUsage
}

func TestSubmitIssueWithPrinterProfileAndPhotos(t *testing.T) {
	an := &fakeAnalyzer{}
	ws := newWorkspace(t, an)
	ada := ws.user(t, "ada@example.com")
	w := ws.do(t, "POST", "/api/printers", `{"name":"Ender 3 V2","brand":"Creality","nozzleSize":0.6,"filamentDiameter":2.85,"buildVolume":"220×220×250"}`, ada...)
	if w.Code != 201 {
		t.Fatalf("printer: %d %s", w.Code, w.Body.String())
	}
	var pr store.Printer
	json.Unmarshal(w.Body.Bytes(), &pr)
	photo := ws.uploadPNG(t, ada, 64, 48)

	body := issueBody(t, pr.ID, func(m map[string]any) {
		m["photoUrls"] = []string{photo}
		m["userId"], m["status"], m["monthlyUsage"] = 999, "resolved", -50
	})
	got := ws.submit(t, ada, body)
	if got.Status != "pending" || got.Printer == nil || got.Printer.Name != "Ender 3 V2" || got.Printer.Brand != "Creality" {
		t.Fatalf("issue %+v", got)
	}
	if got.AIChecklist.Summary != "Stringing from retraction" || len(got.AIChecklist.Steps) != 3 {
		t.Fatalf("aiChecklist %+v", got.AIChecklist)
	}
	if len(got.PhotoURLs) != 1 || !strings.Contains(got.PhotoURLs[0], "sig=") {
		t.Fatalf("photoUrls %v", got.PhotoURLs)
	}
	if ws.usage(t, ada) != 1 {
		t.Fatalf("usage = %d, want 1 (monthlyUsage in the body is ignored)", ws.usage(t, ada))
	}
	last := an.last
	if last.PrinterBrand != "Creality" || last.PrinterModel != "Ender 3 V2" || *last.NozzleSize != 0.6 || *last.FilamentDiameter != 2.85 {
		t.Fatalf("printer profile not passed: %+v", last)
	}
	if len(last.Photos) != 1 || last.Photos[0].MIMEType != "image/jpeg" || !bytes.HasPrefix(last.Photos[0].Data, []byte{0xFF, 0xD8}) {
		t.Fatalf("photos not passed to the analyzer")
	}
	if last.Material != "PETG" || *last.NozzleTemp != 235 || last.BedTemp != nil {
		t.Fatalf("fields not passed: %+v", last)
	}

	ws.clock.set(ws.clock.now().Add(time.Hour))
	second := ws.submit(t, ada, issueBody(t, pr.ID, nil))
	w = ws.do(t, "GET", "/api/issues", "", ada...)
	var list []issueOut
	json.Unmarshal(w.Body.Bytes(), &list)
	if w.Code != 200 || len(list) != 2 || list[0].ID != second.ID || list[1].ID != got.ID || list[0].Printer.Name != "Ender 3 V2" {
		t.Fatalf("list: %d %s", w.Code, w.Body.String())
	}
	w = ws.do(t, "GET", fmt.Sprintf("/api/issues/%d", got.ID), "", ada...)
	if w.Code != 200 || !strings.Contains(w.Body.String(), `"summary":"Stringing from retraction"`) {
		t.Fatalf("get: %d %s", w.Code, w.Body.String())
	}
	// Deleting the printer keeps its issues, with no printer.
	if w := ws.do(t, "DELETE", fmt.Sprintf("/api/printers/%d", pr.ID), "", ada...); w.Code != 200 {
		t.Fatalf("delete printer: %d", w.Code)
	}
	w = ws.do(t, "GET", "/api/issues", "", ada...)
	list = nil
	json.Unmarshal(w.Body.Bytes(), &list)
	if len(list) != 2 || list[0].Printer != nil || list[0].PrinterID != nil || !strings.Contains(w.Body.String(), `"printer":null`) {
		t.Fatalf("after printer delete: %s", w.Body.String())
	}
}

func TestSubmitIssueValidation(t *testing.T) {
	ws := newWorkspace(t, nil)
	ada := ws.user(t, "ada@example.com")
	pr := ws.addPrinter(t, ada, "Mk4", "Prusa")
	cases := []struct {
		name   string
		mod    func(m map[string]any)
		status int
		field  string
		msg    string
	}{
		{"no printer", func(m map[string]any) { delete(m, "printerId") }, 400, "printerId", "Please select a printer"},
		{"null printer", func(m map[string]any) { m["printerId"] = nil }, 400, "printerId", "Please select a printer"},
		{"printer as text", func(m map[string]any) { m["printerId"] = "1" }, 400, "printerId", "Must be a number"},
		{"unknown printer", func(m map[string]any) { m["printerId"] = pr.ID + 100 }, 404, "", "Printer not found"},
		{"no category", func(m map[string]any) { m["category"] = "" }, 400, "category", "Please select an issue category"},
		{"short description", func(m map[string]any) { m["description"] = "too short" }, 400, "description", "Please provide a detailed description (at least 10 characters)"},
		{"bad material", func(m map[string]any) { m["material"] = "PLA\ufeff" }, 400, "material", "Material contains invalid characters: an invisible formatting character (U+FEFF). Remove it and try again."},
		{"hot nozzle", func(m map[string]any) { m["nozzleTemp"] = 501 }, 400, "nozzleTemp", "Nozzle temperature must be between 0 and 500 °C"},
		{"foreign url", func(m map[string]any) { m["photoUrls"] = []string{"https://evil.example/x.jpg"} }, 400, "photoUrls", "Photo 1 is not an uploaded photo: upload it through /api/upload-images first"},
		{"traversal url", func(m map[string]any) { m["photoUrls"] = []string{"/api/photos/../../layerfix.db"} }, 400, "photoUrls", "Photo 1 is not an uploaded photo: upload it through /api/upload-images first"},
		{"unknown photo", func(m map[string]any) { m["photoUrls"] = []string{"/api/photos/0123456789abcdef0123456789abcdef.jpg"} }, 404, "", "Photo not found"},
		{"six photos", func(m map[string]any) { m["photoUrls"] = make([]string, 6) }, 400, "photoUrls", "You can attach at most 5 photos"},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			w := ws.do(t, "POST", "/api/issues", issueBody(t, pr.ID, tc.mod), ada...)
			if w.Code != tc.status {
				t.Fatalf("status %d, want %d: %s", w.Code, tc.status, w.Body.String())
			}
			e := decodeError(t, w)
			if tc.field != "" && e.Fields[tc.field] != tc.msg {
				t.Fatalf("fields %v, want %s=%q", e.Fields, tc.field, tc.msg)
			}
			if tc.field == "" && e.Message != tc.msg {
				t.Fatalf("message %q, want %q", e.Message, tc.msg)
			}
		})
	}
	if n := ws.usage(t, ada); n != 0 {
		t.Fatalf("refused submissions cost %d credits", n)
	}
}

func TestAllowanceOverHTTP(t *testing.T) {
	ws := newWorkspace(t, nil)
	ada := ws.user(t, "ada@example.com")
	pr := ws.addPrinter(t, ada, "Mk4", "Prusa")
	for i := 1; i <= 3; i++ {
		ws.submit(t, ada, issueBody(t, pr.ID, nil))
	}
	w := ws.do(t, "POST", "/api/issues", issueBody(t, pr.ID, nil), ada...)
	if w.Code != 429 {
		t.Fatalf("4th submission on free: %d %s", w.Code, w.Body.String())
	}
	e := decodeError(t, w)
	if e.Code != "USAGE_LIMIT_EXCEEDED" || !strings.Contains(e.Message, "April 1, 2026") || !strings.Contains(e.Message, "Free plan") {
		t.Fatalf("429 body %+v", e)
	}
	var n int64
	list := ws.do(t, "GET", "/api/issues", "", ada...)
	n = int64(strings.Count(list.Body.String(), `"aiChecklist"`))
	if n != 3 {
		t.Fatalf("%d issues stored, want 3", n)
	}
	// A new calendar month resets the allowance.
	ws.clock.set(time.Date(2026, 4, 1, 0, 0, 1, 0, time.UTC))
	if got := ws.usage(t, ada); got != 0 {
		t.Fatalf("usage in April = %d", got)
	}
	ws.submit(t, ada, issueBody(t, pr.ID, nil))
	if got := ws.usage(t, ada); got != 1 {
		t.Fatalf("usage after the first April submission = %d, want 1", got)
	}
}

func TestAllowanceConcurrentSubmissions(t *testing.T) {
	ws := newWorkspace(t, &fakeAnalyzer{delay: 5 * time.Millisecond})
	ada := ws.user(t, "ada@example.com")
	pr := ws.addPrinter(t, ada, "Mk4", "Prusa")
	u, err := ws.store.UserByEmail(context.Background(), "ada@example.com")
	if err != nil {
		t.Fatal(err)
	}
	// A hobby subscriber with 17 of 20 used: 3 credits left.
	reset := ws.clock.now()
	if err := ws.store.UpdateUser(context.Background(), u.ID, map[string]any{"subscription_status": "active", "subscription_tier": "hobby",
		"monthly_usage": 17, "last_usage_reset": reset}); err != nil {
		t.Fatal(err)
	}
	body := issueBody(t, pr.ID, nil)
	got := concurrently(20, func(int) int { return ws.do(t, "POST", "/api/issues", body, ada...).Code })
	if got[201] != 3 || got[429] != 17 {
		t.Fatalf("status counts %v, want 3×201 and 17×429", got)
	}
	if n := ws.usage(t, ada); n != 20 {
		t.Fatalf("usage %d, want 20", n)
	}
}

func TestFailedAnalysisStoresNothingAndCostsNothing(t *testing.T) {
	for _, tc := range []struct {
		name   string
		err    error
		status int
	}{
		{"provider down", fmt.Errorf("gemini: %w", ai.ErrUnavailable), 503},
		{"analyzer bug", errors.New("boom"), 500},
	} {
		t.Run(tc.name, func(t *testing.T) {
			an := &fakeAnalyzer{err: tc.err}
			ws := newWorkspace(t, an)
			ada := ws.user(t, "ada@example.com")
			pr := ws.addPrinter(t, ada, "Mk4", "Prusa")
			w := ws.do(t, "POST", "/api/issues", issueBody(t, pr.ID, nil), ada...)
			if w.Code != tc.status || an.calls != 1 {
				t.Fatalf("status %d (calls %d), want %d", w.Code, an.calls, tc.status)
			}
			if tc.status == 503 && !strings.Contains(decodeError(t, w).Message, "AI analysis service is currently unavailable") {
				t.Fatalf("503 message %s", w.Body.String())
			}
			if n := ws.usage(t, ada); n != 0 {
				t.Fatalf("failed analysis cost %d credits", n)
			}
			if list := ws.do(t, "GET", "/api/issues", "", ada...); strings.TrimSpace(list.Body.String()) != "[]" {
				t.Fatalf("failed analysis stored an issue: %s", list.Body.String())
			}
		})
	}
}

func TestResolveAndProgress(t *testing.T) {
	ws := newWorkspace(t, nil)
	ada := ws.user(t, "ada@example.com")
	pr := ws.addPrinter(t, ada, "Mk4", "Prusa")
	is := ws.submit(t, ada, issueBody(t, pr.ID, nil))
	path := fmt.Sprintf("/api/issues/%d", is.ID)

	w := ws.do(t, "PATCH", path+"/progress", "", ada...)
	if w.Code != 200 || !strings.Contains(w.Body.String(), `"status":"in-progress"`) {
		t.Fatalf("progress: %d %s", w.Code, w.Body.String())
	}
	if w := ws.do(t, "PATCH", path+"/progress", "", ada...); w.Code != 200 {
		t.Fatalf("progress again: %d", w.Code)
	}
	bad := []struct {
		body, field, msg string
	}{
		{mustJSON(t, map[string]any{"resolutionNotes": strings.Repeat("n", 1001)}), "resolutionNotes", "Resolution notes must be less than 1000 characters"},
		{mustJSON(t, map[string]any{"workingRecommendations": make([]string, 21)}), "workingRecommendations", "You can select at most 20 working recommendations"},
		{mustJSON(t, map[string]any{"workingRecommendations": []string{strings.Repeat("s", 201)}}), "workingRecommendations", "Each working recommendation must be less than 200 characters"},
	}
	for _, b := range bad {
		w := ws.do(t, "PATCH", path+"/resolve", b.body, ada...)
		if w.Code != 400 || decodeError(t, w).Fields[b.field] != b.msg {
			t.Fatalf("resolve %s: %d %s", b.field, w.Code, w.Body.String())
		}
	}
	ws.clock.set(time.Date(2026, 3, 20, 9, 0, 0, 0, time.UTC))
	w = ws.do(t, "PATCH", path+"/resolve", `{"workingRecommendations":["Increase retraction"," Dry the filament ","Increase retraction"],"resolutionNotes":"  Retraction 6 mm did it.  ","status":"pending"}`, ada...)
	if w.Code != 200 {
		t.Fatalf("resolve: %d %s", w.Code, w.Body.String())
	}
	var got issueOut
	json.Unmarshal(w.Body.Bytes(), &got)
	if got.Status != "resolved" || got.ResolvedAt == nil || !got.ResolvedAt.Equal(ws.clock.now()) || got.ResolutionNotes == nil ||
		*got.ResolutionNotes != "Retraction 6 mm did it." || strings.Join(got.WorkingRecommendations, "|") != "Increase retraction|Dry the filament" {
		t.Fatalf("resolved issue %+v", got)
	}
	w = ws.do(t, "PATCH", path+"/resolve", `{"workingRecommendations":[]}`, ada...)
	if w.Code != 409 || !strings.Contains(decodeError(t, w).Message, "already resolved") {
		t.Fatalf("second resolve: %d %s", w.Code, w.Body.String())
	}
	if w := ws.do(t, "PATCH", path+"/progress", "", ada...); w.Code != 409 {
		t.Fatalf("progress on a resolved issue: %d", w.Code)
	}
	if w := ws.do(t, "PATCH", "/api/issues/abc/resolve", `{}`, ada...); w.Code != 404 {
		t.Fatalf("bad id: %d", w.Code)
	}
}

// TestResolvedFixRankedFirst runs the real offline engine: a fix the maker
// marked as working comes first on the next similar issue of that printer.
func TestResolvedFixRankedFirst(t *testing.T) {
	engine := sharedEngine(t)
	ws := newWorkspace(t, engine)
	ada := ws.user(t, "ada@example.com")
	u, _ := ws.store.UserByEmail(context.Background(), "ada@example.com")
	ws.store.UpdateUser(context.Background(), u.ID, map[string]any{"subscription_status": "active", "subscription_tier": "pro"})
	mk4 := ws.addPrinter(t, ada, "Mk4", "Prusa")
	other := ws.addPrinter(t, ada, "Ender 3", "Creality")

	first := ws.submit(t, ada, issueBody(t, mk4.ID, func(m map[string]any) {
		m["description"] = "Fine strings and wisps between the two towers, PETG"
	}))
	fix := "Wiped the nozzle and replaced the worn PTFE tube"
	w := ws.do(t, "PATCH", fmt.Sprintf("/api/issues/%d/resolve", first.ID), mustJSON(t, map[string]any{"workingRecommendations": []string{fix}}), ada...)
	if w.Code != 200 {
		t.Fatalf("resolve: %d %s", w.Code, w.Body.String())
	}
	if first.AIChecklist.Steps[0].Title == fix {
		t.Fatal("the fix was first before it was learned: the test proves nothing")
	}

	ws.clock.set(ws.clock.now().Add(48 * time.Hour))
	next := ws.submit(t, ada, issueBody(t, mk4.ID, func(m map[string]any) {
		m["description"] = "Strings between the towers again on this print"
	}))
	top := next.AIChecklist.Steps[0]
	if top.Title != fix || !strings.Contains(top.Description, "This fixed a similar problem on this printer on 14 March") {
		t.Fatalf("first step %+v, want the learned fix", top)
	}
	// Another printer has no such history.
	elsewhere := ws.submit(t, ada, issueBody(t, other.ID, func(m map[string]any) {
		m["description"] = "Strings between the towers again on this print"
	}))
	for _, s := range elsewhere.AIChecklist.Steps {
		if s.Title == fix {
			t.Fatalf("another printer got this printer's fix: %+v", elsewhere.AIChecklist.Steps)
		}
	}
}

func TestExportIssues(t *testing.T) {
	ws := newWorkspace(t, nil)
	ada := ws.user(t, "ada@example.com")
	pr := ws.addPrinter(t, ada, "Mk4", "Prusa")
	is := ws.submit(t, ada, issueBody(t, pr.ID, func(m map[string]any) {
		m["description"] = "-2-3 looks like a formula, strings everywhere"
		m["material"] = "+PLA"
	}))
	ws.do(t, "PATCH", fmt.Sprintf("/api/issues/%d/resolve", is.ID), `{"workingRecommendations":["@SUM(A1)"],"resolutionNotes":"=HYPERLINK(\"http://evil\")"}`, ada...)

	w := ws.do(t, "GET", "/api/issues/export?format=csv", "", ada...)
	if w.Code != 200 || !strings.HasPrefix(w.Header().Get("Content-Type"), "text/csv") ||
		!strings.HasPrefix(w.Header().Get("Content-Disposition"), `attachment; filename="layerfix-issues-2026-03-14.csv"`) {
		t.Fatalf("csv: %d %v", w.Code, w.Header())
	}
	body := w.Body.String()
	for _, want := range []string{"'-2-3 looks like a formula", "'+PLA", "'@SUM(A1)", `"'=HYPERLINK(""http://evil"")"`, "Stringing & Oozing", "Prusa"} {
		if !strings.Contains(body, want) {
			t.Fatalf("csv lacks %q:\n%s", want, body)
		}
	}
	for _, bad := range []string{",-2-3", ",+PLA", ",=HYPERLINK", ",@SUM"} {
		if strings.Contains(body, bad) {
			t.Fatalf("csv has an unescaped formula %q", bad)
		}
	}
	w = ws.do(t, "GET", "/api/issues/export?format=json", "", ada...)
	var out []exportedIssue
	if err := json.Unmarshal(w.Body.Bytes(), &out); err != nil || len(out) != 1 || out[0].Printer.Name != "Mk4" || out[0].Status != "resolved" {
		t.Fatalf("json export: %d %s", w.Code, w.Body.String())
	}
	if strings.Contains(w.Body.String(), "userId") {
		t.Fatal("export carries user ids")
	}
	if w := ws.do(t, "GET", "/api/issues/export?format=xls", "", ada...); w.Code != 400 {
		t.Fatalf("unknown format: %d", w.Code)
	}
}

// TestCheckedStepsOnTheServer: ticks of a saved issue live with the issue, so
// another device sees them; only the issue's own steps can be ticked, only by
// its owner, and the first tick starts the issue.
func TestCheckedStepsOnTheServer(t *testing.T) {
	ws := newWorkspace(t, nil)
	ada, bob := ws.user(t, "ada@example.com"), ws.user(t, "bob@example.com")
	p := ws.addPrinter(t, ada, "Mk4", "Prusa")
	is := ws.submit(t, ada, issueBody(t, p.ID, nil))
	path := fmt.Sprintf("/api/issues/%d/checked-steps", is.ID)
	put := func(auth []string, titles ...string) *httptest.ResponseRecorder {
		return ws.do(t, "PUT", path, mustJSON(t, map[string]any{"checkedSteps": titles}), auth...)
	}

	if w := put(ada, "Dry the filament", "Dry the filament"); w.Code != 200 {
		t.Fatalf("tick: %d %s", w.Code, w.Body.String())
	}
	// The desktop loads the issue: the phone's tick is there and the issue is started.
	var got issueOut
	w := ws.do(t, "GET", fmt.Sprintf("/api/issues/%d", is.ID), "", ada...)
	json.Unmarshal(w.Body.Bytes(), &got)
	if got.Status != "in-progress" || len(got.CheckedSteps) != 1 || got.CheckedSteps[0] != "Dry the filament" {
		t.Fatalf("after a tick: status %q, checked %q", got.Status, got.CheckedSteps)
	}
	for _, tc := range []struct {
		name   string
		auth   []string
		titles []string
		code   int
	}{
		{"a title that is not a step", ada, []string{"<script>alert(1)</script>"}, 400},
		{"another maker's issue", bob, []string{"Dry the filament"}, 404},
		{"too many", ada, slices.Repeat([]string{"Dry the filament"}, 21), 400},
	} {
		if w := put(tc.auth, tc.titles...); w.Code != tc.code {
			t.Errorf("%s: %d %s", tc.name, w.Code, w.Body.String())
		}
	}
	if w := put(ada); w.Code != 200 || !strings.Contains(w.Body.String(), `"checkedSteps":[]`) || !strings.Contains(w.Body.String(), `"status":"in-progress"`) {
		t.Fatalf("untick all: %d %s", w.Code, w.Body.String())
	}
}

// An issue left on "Other" is saved with the category the engine diagnosed;
// the issue list filters by it, the printer's statistics count it, and the
// maker's own choice still wins where they made one.
func TestDiagnosedCategoryOfIssues(t *testing.T) {
	engine := sharedEngine(t)
	ws := newWorkspace(t, engine, func(c *config.Config, d *Deps) { d.Refiner = engine })
	ada := ws.user(t, "ada@example.com")
	p := ws.addPrinter(t, ada, "Mk4", "Prusa MK4")
	clogDesc := "The nozzle is clogged: nothing comes out and the extruder clicks."
	clog := ws.submit(t, ada, issueBody(t, p.ID, func(m map[string]any) { m["category"], m["description"] = "other", clogDesc }))
	chosen := ws.submit(t, ada, issueBody(t, p.ID, func(m map[string]any) { m["category"], m["description"] = "stringing", clogDesc }))
	if clog.Category != "other" || clog.DiagnosedCategory == nil || *clog.DiagnosedCategory != "extrusion-issues" {
		t.Fatalf("created: category %q, diagnosed %v", clog.Category, clog.DiagnosedCategory)
	}
	if chosen.Category != "stringing" || chosen.DiagnosedCategory == nil || *chosen.DiagnosedCategory != "extrusion-issues" {
		t.Fatalf("chosen: category %q, diagnosed %v", chosen.Category, chosen.DiagnosedCategory)
	}
	var page struct {
		Items []issueOut `json:"items"`
		Total int        `json:"total"`
	}
	w := ws.do(t, "GET", "/api/issues?category=extrusion-issues", "", ada...)
	json.Unmarshal(w.Body.Bytes(), &page)
	if w.Code != 200 || page.Total != 1 || page.Items[0].ID != clog.ID {
		t.Fatalf("filter by the diagnosed category: %d %s", w.Code, w.Body.String())
	}
	var stats printerStats
	w = ws.do(t, "GET", fmt.Sprintf("/api/printers/%d/stats", p.ID), "", ada...)
	json.Unmarshal(w.Body.Bytes(), &stats)
	got := map[string]int{}
	for _, c := range stats.TopCategories {
		got[c.Category] = c.Count
	}
	if w.Code != 200 || got["extrusion-issues"] != 1 || got["stringing"] != 1 || got["other"] != 0 {
		t.Fatalf("printer stats by category: %v (%s)", got, w.Body.String())
	}
	// The JSON and CSV exports carry both.
	w = ws.do(t, "GET", "/api/issues/export?format=csv", "", ada...)
	if !strings.Contains(w.Body.String(), "category,diagnosedCategory,status") || !strings.Contains(w.Body.String(), "Other / I Don't Know,Extrusion Issues,pending") {
		t.Fatalf("csv export: %s", w.Body.String())
	}
}
