package server

import (
	"bytes"
	"context"
	"encoding/json"
	"io"
	"log/slog"
	"net/http"
	"net/http/httptest"
	"strings"
	"sync"
	"testing"
	"testing/fstest"
	"time"

	"github.com/layerfix/layerfix/ai"
	"github.com/layerfix/layerfix/config"
	"github.com/layerfix/layerfix/store"
	"github.com/layerfix/layerfix/store/storetest"
)

var testFrontend = fstest.MapFS{
	"index.html":              {Data: []byte("<!doctype html><html><head><!--layerfix:head--><title>Layerfix</title></head><body><div id=root></div></body></html>")},
	"assets/index-abc123.js":  {Data: []byte("console.log('app')")},
	"assets/vendor-def456.js": {Data: bytes.Repeat([]byte("export const layerfix = 'fix every print';\n"), 200)},
	"assets/index-abc123.css": {Data: []byte("body{}")},
	"favicon.svg":             {Data: []byte("<svg/>")},
}

var buildSharedEngine = sync.OnceValues(ai.NewEngine)

// sharedEngine is the real engine, built once for the tests that only read
// it (building it takes seconds of CPU under -race); a test that gives it
// to the server as its Learner builds its own.
func sharedEngine(t testing.TB) *ai.Engine {
	t.Helper()
	e, err := buildSharedEngine()
	if err != nil {
		t.Fatal(err)
	}
	return e
}

// fakeAnalyzer answers with a fixed result or error and counts calls.
type fakeAnalyzer struct {
	mu    sync.Mutex
	err   error
	calls int
	last  ai.Request
	delay time.Duration
}

func (f *fakeAnalyzer) Analyze(ctx context.Context, r ai.Request) (*ai.Result, error) {
	f.mu.Lock()
	f.calls++
	f.last = r
	f.mu.Unlock()
	if f.delay > 0 {
		time.Sleep(f.delay)
	}
	if f.err != nil {
		return nil, f.err
	}
	return &ai.Result{Summary: "Stringing from retraction", Steps: []ai.Step{
		{Title: "Increase retraction", Description: "5 mm", Priority: "high"},
		{Title: "Dry the filament", Description: "50 °C 6 h", Priority: "medium"},
		{Title: "Lower the temperature", Description: "200 °C", Priority: "low"},
	}, AdditionalTips: []string{"Keep filament dry"}}, nil
}

type testServer struct {
	*Server
	store *store.Store
	cfg   *config.Config
	h     http.Handler
}

func testConfig(t testing.TB, env map[string]string) *config.Config {
	t.Helper()
	cfg, err := config.Load(nil, func(k string) string { return env[k] })
	if err != nil {
		t.Fatalf("config: %v", err)
	}
	return cfg
}

func newTestServer(t testing.TB, env map[string]string, an ai.Analyzer) *testServer {
	t.Helper()
	cfg := testConfig(t, env)
	st := storetest.Open(t)
	if an == nil {
		an = &fakeAnalyzer{}
	}
	s, err := New(cfg, Deps{Store: st, Analyzer: an, Frontend: testFrontend, Logger: slog.New(slog.NewTextHandler(io.Discard, nil))})
	if err != nil {
		t.Fatal(err)
	}
	return &testServer{Server: s, store: st, cfg: cfg, h: checkContract(t, s.Handler())}
}

// do sends a request from remote address ip (default 192.0.2.1).
func (ts *testServer) do(t *testing.T, method, path, body string, hdr ...string) *httptest.ResponseRecorder {
	t.Helper()
	var r io.Reader
	if body != "" {
		r = strings.NewReader(body)
	}
	req := httptest.NewRequest(method, path, r)
	req.RemoteAddr = "192.0.2.1:40000"
	if body != "" {
		req.Header.Set("Content-Type", "application/json")
	}
	for i := 0; i+1 < len(hdr); i += 2 {
		if hdr[i] == "RemoteAddr" {
			req.RemoteAddr = hdr[i+1]
			continue
		}
		req.Header.Set(hdr[i], hdr[i+1])
	}
	w := httptest.NewRecorder()
	ts.h.ServeHTTP(w, req)
	return w
}

type errorBody struct {
	Error APIError `json:"error"`
}

func decodeError(t *testing.T, w *httptest.ResponseRecorder) APIError {
	t.Helper()
	var b errorBody
	if err := json.Unmarshal(w.Body.Bytes(), &b); err != nil {
		t.Fatalf("error body is not the JSON error shape: %q", w.Body.String())
	}
	if b.Error.Code == "" || b.Error.Message == "" {
		t.Fatalf("error body lacks code or message: %q", w.Body.String())
	}
	return b.Error
}

func mustJSON(t *testing.T, v any) string {
	t.Helper()
	var buf bytes.Buffer
	if err := json.NewEncoder(&buf).Encode(v); err != nil {
		t.Fatal(err)
	}
	return buf.String()
}

// concurrently runs n requests at once (req(i) answers a status code) and
// counts the answers by status.
func concurrently(n int, req func(i int) int) map[int]int {
	var wg sync.WaitGroup
	codes := make(chan int, n)
	for i := range n {
		wg.Add(1)
		go func() {
			defer wg.Done()
			codes <- req(i)
		}()
	}
	wg.Wait()
	close(codes)
	count := map[int]int{}
	for c := range codes {
		count[c]++
	}
	return count
}
