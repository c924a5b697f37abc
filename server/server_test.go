package server

import (
	"bytes"
	"compress/gzip"
	"context"
	"encoding/json"
	"errors"
	"io"
	"io/fs"
	"log/slog"
	"net"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"
	"time"

	"github.com/layerfix/layerfix/config"

	"github.com/andybalholm/brotli"

	"github.com/layerfix/layerfix/store/storetest"
)

// Every screen route of the app (public, signed-in and legal) is served.
var specRoutes = []string{"/", "/preview", "/features", "/pricing", "/privacy-policy", "/terms-of-service",
	"/dashboard", "/login", "/login?mode=signup", "/report-issue", "/issues", "/troubleshooting-results",
	"/subscribe", "/share/abcdefghijklmnopqrstuv", "/some/unknown/page"}

func TestSPARoutesAndRuntimeConfig(t *testing.T) {
	ts := newTestServer(t, map[string]string{"LAYERFIX_OPERATOR_NAME": "Ada's </script> Lab"}, nil)
	for _, p := range specRoutes {
		w := ts.do(t, "GET", p, "")
		want := 200
		if strings.HasPrefix(p, "/share/") {
			want = 404 // no such guide: the app says so, and so does the status
		}
		if w.Code != want || !strings.Contains(w.Body.String(), `<div id=root>`) {
			t.Fatalf("GET %s: %d %q", p, w.Code, w.Body.String())
		}
		if cc := w.Header().Get("Cache-Control"); cc != "no-cache" {
			t.Errorf("GET %s: Cache-Control %q, want no-cache", p, cc)
		}
	}
	body := ts.do(t, "GET", "/", "").Body.String()
	if !strings.Contains(body, `<base href="/">`) || !strings.Contains(body, `"anonMonthlyLimit":3`) {
		t.Fatalf("runtime config not injected: %s", body)
	}
	if strings.Contains(body, "</script> Lab") {
		t.Fatal("configuration text can close the config script tag")
	}
	if strings.Contains(body, "layerfix:head") {
		t.Fatal("marker left in index.html")
	}
	// Photos are promised as analysed only when Gemini analyses them.
	if !strings.Contains(body, `"imageAnalysis":false`) {
		t.Fatalf("a server without Gemini must say it does not analyse photos: %s", body)
	}
	gem := newTestServer(t, map[string]string{"LAYERFIX_GEMINI_API_KEY": "test-key"}, nil)
	if body := gem.do(t, "GET", "/features", "").Body.String(); !strings.Contains(body, `"imageAnalysis":true`) || strings.Contains(body, "test-key") {
		t.Fatalf("Gemini server config: %s", body)
	}
}

func TestStaticAssets(t *testing.T) {
	ts := newTestServer(t, nil, nil)
	w := ts.do(t, "GET", "/assets/index-abc123.js", "")
	if w.Code != 200 || w.Header().Get("Cache-Control") != "public, max-age=31536000, immutable" || !strings.Contains(w.Header().Get("Content-Type"), "javascript") {
		t.Fatalf("asset: %d %v", w.Code, w.Header())
	}
	for _, p := range []string{"/assets/missing.js", "/nope.png", "/assets/../../etc/passwd.txt"} {
		if w := ts.do(t, "GET", p, ""); w.Code != 404 {
			t.Errorf("GET %s: %d, want 404", p, w.Code)
		}
	}
}

// TestAssetsPrecompressed: JavaScript goes as brotli or gzip as the browser
// accepts, with an ETag per encoding and 304 for a cached copy.
func TestAssetsPrecompressed(t *testing.T) {
	ts := newTestServer(t, nil, nil)
	want, _ := fs.ReadFile(testFrontend, "assets/vendor-def456.js")
	get := func(accept string, hdr ...string) *httptest.ResponseRecorder {
		return ts.do(t, "GET", "/assets/vendor-def456.js", "", append([]string{"Accept-Encoding", accept}, hdr...)...)
	}
	br := get("gzip, deflate, br")
	if br.Header().Get("Content-Encoding") != "br" || br.Header().Get("Vary") != "Accept-Encoding" || br.Body.Len() >= len(want) {
		t.Fatalf("brotli: %v, %d bytes", br.Header(), br.Body.Len())
	}
	if got, _ := io.ReadAll(brotli.NewReader(br.Body)); !bytes.Equal(got, want) {
		t.Fatal("brotli body does not decode to the file")
	}
	gz := get("gzip")
	zr, err := gzip.NewReader(gz.Body)
	if err != nil || gz.Header().Get("Content-Encoding") != "gzip" {
		t.Fatalf("gzip: %v %v", gz.Header(), err)
	}
	if got, _ := io.ReadAll(zr); !bytes.Equal(got, want) {
		t.Fatal("gzip body does not decode to the file")
	}
	plain := get("identity")
	if plain.Header().Get("Content-Encoding") != "" || !bytes.Equal(plain.Body.Bytes(), want) {
		t.Fatalf("identity: %v", plain.Header())
	}
	if get("gzip, br;q=0").Header().Get("Content-Encoding") != "gzip" {
		t.Fatal("br;q=0 was sent brotli")
	}
	etags := map[string]bool{br.Header().Get("ETag"): true, gz.Header().Get("ETag"): true, plain.Header().Get("ETag"): true}
	if len(etags) != 3 {
		t.Fatalf("the encodings share an ETag: %v", etags)
	}
	if w := get("br", "If-None-Match", br.Header().Get("ETag")); w.Code != 304 || w.Body.Len() != 0 {
		t.Fatalf("If-None-Match: %d", w.Code)
	}
}

func TestAPINotFoundIsJSON(t *testing.T) {
	ts := newTestServer(t, nil, nil)
	for _, m := range []string{"GET", "POST", "DELETE"} {
		w := ts.do(t, m, "/api/no-such-thing", "")
		if w.Code != 404 || !strings.HasPrefix(w.Header().Get("Content-Type"), "application/json") {
			t.Fatalf("%s /api/no-such-thing: %d %s", m, w.Code, w.Header().Get("Content-Type"))
		}
		if e := decodeError(t, w); e.Code != CodeNotFound {
			t.Fatalf("code %q", e.Code)
		}
	}
	if w := ts.do(t, "GET", "/api", ""); w.Code != 404 {
		t.Fatalf("GET /api: %d", w.Code)
	}
}

func TestSecurityHeaders(t *testing.T) {
	ts := newTestServer(t, map[string]string{"LAYERFIX_GA_MEASUREMENT_ID": "G-TEST1234"}, nil)
	for _, p := range []string{"/", "/api/pricing", "/api/nope", "/assets/index-abc123.js", "/apidocs"} {
		w := ts.do(t, "GET", p, "")
		csp := w.Header().Get("Content-Security-Policy")
		if api := strings.HasPrefix(p, "/api/"); api {
			// Data, never a page: it loads nothing, nobody frames it.
			if csp != "default-src 'none'; frame-ancestors 'none'" || w.Header().Get("Referrer-Policy") != "no-referrer" ||
				w.Header().Get("Permissions-Policy") != "" || w.Header().Get("X-Frame-Options") != "DENY" {
				t.Errorf("GET %s: headers %v", p, w.Header())
			}
		} else {
			for _, want := range []string{"object-src 'none'", "base-uri 'self'", "frame-ancestors 'none'", "https://www.googletagmanager.com"} {
				if !strings.Contains(csp, want) {
					t.Errorf("GET %s: CSP %q lacks %q", p, csp, want)
				}
			}
			if w.Header().Get("Referrer-Policy") == "" || w.Header().Get("Permissions-Policy") == "" {
				t.Errorf("GET %s: headers %v", p, w.Header())
			}
		}
		if w.Header().Get("X-Content-Type-Options") != "nosniff" {
			t.Errorf("GET %s: headers %v", p, w.Header())
		}
		if w.Header().Get("Strict-Transport-Security") != "" {
			t.Errorf("HSTS over plain HTTP")
		}
	}
	// Under a base path, the API is what lies under base/api/.
	based := newTestServer(t, map[string]string{"LAYERFIX_BASE_PATH": "/lf"}, nil)
	for p, want := range map[string]bool{"/lf/api/pricing": true, "/lf/": false, "/lf/apidocs": false} {
		if csp := based.do(t, "GET", p, "").Header().Get("Content-Security-Policy"); (csp == apiCSP) != want {
			t.Errorf("GET %s (base path /lf): CSP %q", p, csp)
		}
	}
	w := ts.do(t, "GET", "/", "", "X-Forwarded-Proto", "https")
	if w.Header().Get("Strict-Transport-Security") != "" {
		t.Error("HSTS set for a forged X-Forwarded-Proto from an untrusted peer")
	}
	plain := newTestServer(t, nil, nil)
	if csp := plain.do(t, "GET", "/", "").Header().Get("Content-Security-Policy"); strings.Contains(csp, "google") {
		t.Errorf("analytics hosts allowed with analytics off: %s", csp)
	}
}

func TestBodyLimit(t *testing.T) {
	ts := newTestServer(t, nil, nil)
	big := `{"description":"` + strings.Repeat("a", 30<<20) + `"}`
	w := ts.do(t, "POST", "/api/troubleshoot", big)
	if w.Code != http.StatusRequestEntityTooLarge {
		t.Fatalf("30 MB body: %d", w.Code)
	}
	if e := decodeError(t, w); !strings.Contains(e.Message, "request entity too large") {
		t.Fatalf("message %q", e.Message)
	}
}

// countingReader counts what the server reads of a body.
type countingReader struct {
	r interface{ Read([]byte) (int, error) }
	n int64
}

func (c *countingReader) Read(p []byte) (int, error) {
	n, err := c.r.Read(p)
	c.n += int64(n)
	return n, err
}

// A 30 MB body of unknown length (chunked) is cut at the limit: the server
// reads no more than the limit before refusing.
func TestBodyLimitChunked(t *testing.T) {
	ts := newTestServer(t, nil, nil)
	for _, path := range []string{"/api/share-results", "/api/troubleshoot"} {
		body := &countingReader{r: strings.NewReader(`{"title":"` + strings.Repeat("a", 30<<20) + `"}`)}
		req := httptest.NewRequest("POST", path, body)
		req.ContentLength = -1
		req.Header.Set("Content-Type", "application/json")
		w := httptest.NewRecorder()
		ts.h.ServeHTTP(w, req)
		if w.Code != 413 {
			t.Fatalf("%s chunked 30 MB body: %d %s", path, w.Code, w.Body.String())
		}
		if limit := bodyLimits(routeTable(&handlers{}))["POST "+path]; body.n > limit+64<<10 {
			t.Fatalf("%s: server read %d bytes before refusing (limit %d)", path, body.n, limit)
		}
	}
}

func TestHealthz(t *testing.T) {
	ts := newTestServer(t, nil, nil)
	if w := ts.do(t, "GET", "/healthz", ""); w.Code != 200 {
		t.Fatalf("healthz %d", w.Code)
	}
	ts.store.Close()
	w := ts.do(t, "GET", "/healthz", "")
	if w.Code != http.StatusServiceUnavailable {
		t.Fatalf("healthz with a closed database: %d", w.Code)
	}
}

func TestBasePath(t *testing.T) {
	ts := newTestServer(t, map[string]string{"LAYERFIX_BASE_PATH": "/layerfix/"}, nil)
	if w := ts.do(t, "GET", "/layerfix/api/pricing", ""); w.Code != 200 {
		t.Fatalf("api under base path: %d", w.Code)
	}
	w := ts.do(t, "GET", "/layerfix/features", "")
	if w.Code != 200 || !strings.Contains(w.Body.String(), `<base href="/layerfix/">`) || !strings.Contains(w.Body.String(), `"basePath":"/layerfix"`) {
		t.Fatalf("app under base path: %d %s", w.Code, w.Body.String())
	}
	if w := ts.do(t, "GET", "/layerfix/assets/index-abc123.js", ""); w.Code != 200 {
		t.Fatalf("asset under base path: %d", w.Code)
	}
	if w := ts.do(t, "GET", "/", ""); w.Code != http.StatusFound || w.Header().Get("Location") != "/layerfix/" {
		t.Fatalf("root redirect: %d %s", w.Code, w.Header().Get("Location"))
	}
	if w := ts.do(t, "GET", "/layerfix/api/nope", ""); w.Code != 404 {
		t.Fatalf("unknown api under base: %d", w.Code)
	}
}

func TestPricingAndLimits(t *testing.T) {
	ts := newTestServer(t, map[string]string{"LAYERFIX_TIER_LIMITS": "free=5,hobby=20,pro=60"}, nil)
	var prices []PriceEntry
	json.Unmarshal(ts.do(t, "GET", "/api/pricing", "").Body.Bytes(), &prices)
	if len(prices) != 4 || prices[1].Tier != "hobby" || prices[1].Amount != 3.99 || prices[3].Amount != 19.99 {
		t.Fatalf("pricing %+v", prices)
	}
	var limits map[string]planLimit
	json.Unmarshal(ts.do(t, "GET", "/api/usage-limits", "").Body.Bytes(), &limits)
	if limits["free"].Limit != 5 || limits["pro"].Limit != 60 || limits["farm"].Limit != config.DefaultTierLimit || limits["farm"].Name != "Print Farm" {
		t.Fatalf("limits %+v", limits)
	}
}

func TestClientIPAndTrustedProxies(t *testing.T) {
	// Untrusted peer: a forged X-Forwarded-For changes nothing.
	ts := newTestServer(t, nil, nil)
	for i := 0; i < 3; i++ {
		w := ts.do(t, "POST", "/api/troubleshoot", validTroubleshoot(nil), "X-Forwarded-For", "198.51.100."+string(rune('1'+i)), "X-Real-Ip", "198.51.100.99")
		if w.Code != 200 {
			t.Fatalf("use %d: %d %s", i, w.Code, w.Body.String())
		}
	}
	if w := ts.do(t, "POST", "/api/troubleshoot", validTroubleshoot(nil), "X-Forwarded-For", "203.0.113.50"); w.Code != 429 {
		t.Fatalf("forged XFF escaped the quota: %d", w.Code)
	}
	// Trusted proxy: the forwarded client is counted.
	tp := newTestServer(t, map[string]string{"LAYERFIX_TRUSTED_PROXIES": "10.0.0.0/8"}, nil)
	for i := 0; i < 3; i++ {
		tp.do(t, "POST", "/api/troubleshoot", validTroubleshoot(nil), "RemoteAddr", "10.1.2.3:5555", "X-Forwarded-For", "203.0.113.7")
	}
	w := tp.do(t, "GET", "/api/public-usage", "", "RemoteAddr", "10.1.2.3:5555", "X-Forwarded-For", "203.0.113.8")
	if !strings.Contains(w.Body.String(), `"currentUsage":0`) {
		t.Fatalf("another forwarded client shares the count: %s", w.Body.String())
	}
	w = tp.do(t, "GET", "/api/public-usage", "", "RemoteAddr", "10.1.2.3:5555", "X-Forwarded-For", "203.0.113.7")
	if !strings.Contains(w.Body.String(), `"currentUsage":3`) {
		t.Fatalf("forwarded client count: %s", w.Body.String())
	}
}

func TestServeGracefulShutdown(t *testing.T) {
	ts := newTestServer(t, nil, &fakeAnalyzer{delay: 300 * time.Millisecond})
	l, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithCancel(context.Background())
	done := make(chan error, 1)
	go func() { done <- ts.Serve(ctx, l) }()
	resc := make(chan int, 1)
	go func() {
		resp, err := http.Post("http://"+l.Addr().String()+"/api/troubleshoot", "application/json", strings.NewReader(validTroubleshoot(nil)))
		if err != nil {
			resc <- 0
			return
		}
		resp.Body.Close()
		resc <- resp.StatusCode
	}()
	time.Sleep(100 * time.Millisecond)
	cancel()
	if code := <-resc; code != 200 {
		t.Fatalf("in-flight request during shutdown: %d", code)
	}
	if err := <-done; err != nil && !errors.Is(err, http.ErrServerClosed) {
		t.Fatalf("serve: %v", err)
	}
}

// TestHealthzQuietAtInfo: probes log at debug, so the log at info shows
// real traffic; /healthz reports the version.
func TestHealthzQuietAtInfo(t *testing.T) {
	for _, level := range []slog.Level{slog.LevelInfo, slog.LevelDebug} {
		var logs bytes.Buffer
		cfg := testConfig(t, nil)
		cfg.Version = "v9.9.9"
		s, err := New(cfg, Deps{Store: storetest.Open(t), Analyzer: &fakeAnalyzer{}, Frontend: testFrontend,
			Logger: slog.New(slog.NewTextHandler(&logs, &slog.HandlerOptions{Level: level}))})
		if err != nil {
			t.Fatal(err)
		}
		ts := &testServer{Server: s, cfg: cfg, h: checkContract(t, s.Handler())}
		w := ts.do(t, "GET", "/healthz", "")
		if w.Code != 200 || !strings.Contains(w.Body.String(), `"version":"v9.9.9"`) {
			t.Fatalf("healthz: %d %s", w.Code, w.Body.String())
		}
		logged := strings.Contains(logs.String(), "path=/healthz")
		if logged != (level == slog.LevelDebug) {
			t.Errorf("at %v the probe was logged: %v\n%s", level, logged, logs.String())
		}
	}
}
