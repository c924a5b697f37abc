package server

import (
	"bufio"
	"bytes"
	"errors"
	"fmt"
	"io"
	"log/slog"
	"net"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"
	"time"

	"github.com/labstack/echo/v4"

	"github.com/layerfix/layerfix/ai"
	"github.com/layerfix/layerfix/store/storetest"
)

// TestHSTSOnlyFromTrustedProxies: a client cannot turn on HSTS with a forged
// X-Forwarded-Proto; the configured proxy can.
func TestHSTSOnlyFromTrustedProxies(t *testing.T) {
	ts := newTestServer(t, map[string]string{"LAYERFIX_TRUSTED_PROXIES": "10.0.0.0/8"}, nil)
	w := ts.do(t, "GET", "/", "", "X-Forwarded-Proto", "https", "RemoteAddr", "203.0.113.9:1")
	if w.Header().Get("Strict-Transport-Security") != "" {
		t.Fatal("HSTS from a forged X-Forwarded-Proto")
	}
	w = ts.do(t, "GET", "/", "", "X-Forwarded-Proto", "https", "RemoteAddr", "10.1.2.3:1")
	if w.Header().Get("Strict-Transport-Security") == "" {
		t.Fatal("no HSTS behind the trusted proxy")
	}
}

// shortDeadlineServer is a test server on loopback whose small-body read
// deadline is 300 ms.
func shortDeadlineServer(t *testing.T) *httptest.Server {
	old := smallBodyReadTime
	smallBodyReadTime = 300 * time.Millisecond
	t.Cleanup(func() { smallBodyReadTime = old })
	srv := httptest.NewServer(newTestServer(t, nil, nil).h)
	t.Cleanup(srv.Close)
	return srv
}

// TestTrickledBodyCut: a body sent a byte at a time to a small JSON route is
// cut off after the short deadline, not the server's two minutes.
func TestTrickledBodyCut(t *testing.T) {
	srv := shortDeadlineServer(t)
	conn, err := net.Dial("tcp", srv.Listener.Addr().String())
	if err != nil {
		t.Fatal(err)
	}
	defer conn.Close()
	body := `{"email":"a@example.com","password":"` + strings.Repeat("x", 40) + `"}`
	fmt.Fprintf(conn, "POST /api/auth/login HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\nContent-Length: %d\r\n\r\n", len(body))
	start := time.Now()
	closed := make(chan time.Duration, 1)
	go func() {
		r := bufio.NewReader(conn)
		for {
			if _, err := r.ReadByte(); err != nil {
				closed <- time.Since(start)
				return
			}
		}
	}()
	for i := 0; i < len(body); i++ {
		select {
		case d := <-closed:
			if d > 3*time.Second {
				t.Fatalf("connection held %v", d)
			}
			return
		default:
		}
		conn.SetWriteDeadline(time.Now().Add(time.Second))
		if _, err := conn.Write([]byte{body[i]}); err != nil {
			return // the server hung up: good
		}
		time.Sleep(200 * time.Millisecond)
	}
	t.Fatalf("the whole trickled body was read over %v", time.Since(start))
}

// TestHealthzReportsAFullDisk: with every write about to fail, /healthz says
// so with the reason instead of 200.
func TestHealthzReportsAFullDisk(t *testing.T) {
	old := diskProblemOf
	diskProblemOf = func(string) string { return "disk full: 3 MB free in /data" }
	t.Cleanup(func() { diskProblemOf = old })
	ts := newTestServer(t, nil, nil)
	w := ts.do(t, "GET", "/healthz", "")
	if w.Code != 503 || !strings.Contains(w.Body.String(), "disk full") {
		t.Fatalf("healthz on a full disk: %d %s", w.Code, w.Body.String())
	}
}

// TestExpectedRefusalsNotErrors: a refusal the server means to give (billing
// off, a provider down, a wrong method, a body too large) is logged once, at
// info, so visitors cannot fill the error log; a real fault still logs at
// error with its cause.
func TestExpectedRefusalsNotErrors(t *testing.T) {
	an := &fakeAnalyzer{}
	var logs bytes.Buffer
	cfg := testConfig(t, nil)
	s, err := New(cfg, Deps{Store: storetest.Open(t), Analyzer: an, Frontend: testFrontend,
		Logger: slog.New(slog.NewTextHandler(&logs, &slog.HandlerOptions{Level: slog.LevelDebug}))})
	if err != nil {
		t.Fatal(err)
	}
	ts := &testServer{Server: s, cfg: cfg, h: checkContract(t, s.Handler())}
	tok := signup(t, ts, "maker@example.com", "gears-and-layers").Token
	an.err = ai.ErrUnavailable
	for _, r := range []struct {
		method, path, body string
		status             int
	}{
		{"POST", "/api/create-subscription", `{"tier":"pro"}`, 503},
		{"POST", "/api/cancel-subscription", ``, 503},
		{"POST", "/api/troubleshoot", validTroubleshoot(nil), 503},
		{"DELETE", "/healthz", ``, 405},
		{"POST", "/api/printers", `{"name":"` + strings.Repeat("a", 70<<10) + `"}`, 413},
	} {
		logs.Reset()
		if w := ts.do(t, r.method, r.path, r.body, bearer(tok)...); w.Code != r.status {
			t.Fatalf("%s %s: %d %s", r.method, r.path, w.Code, w.Body.String())
		}
		if strings.Contains(logs.String(), "level=ERROR") || strings.Count(logs.String(), "\n") != 1 {
			t.Errorf("%s %s (%d) logged as an error or more than once:\n%s", r.method, r.path, r.status, logs.String())
		}
	}
	logs.Reset()
	an.err = errors.New("disk on fire")
	if w := ts.do(t, "POST", "/api/troubleshoot", validTroubleshoot(nil), "RemoteAddr", "192.0.2.9:1"); w.Code != 500 {
		t.Fatalf("a fault: %d", w.Code)
	}
	if !strings.Contains(logs.String(), "level=ERROR") || !strings.Contains(logs.String(), "disk on fire") {
		t.Errorf("a real fault is not an error with its cause:\n%s", logs.String())
	}
}

// TestEarlyRefusalClosesTheConnection: a body declared larger than its
// route takes is refused with 413 at once and the connection closed, even
// when the client sends the body slowly or not at all; a body nobody reads
// (a page of the app) is held no longer than a small form's deadline.
func TestEarlyRefusalClosesTheConnection(t *testing.T) {
	srv := shortDeadlineServer(t)
	for _, c := range []struct {
		method, path string
		length       int
		status       string
	}{
		{"POST", "/api/auth/login", 100 << 10, "413"},
		{"POST", "/api/printers", 200 << 10, "413"},
		{"POST", "/api/share-results", (1 << 20) + 1, "413"},
		{"POST", "/", 100 << 10, "413"},
		{"GET", "/dashboard", 10 << 10, ""},
	} {
		conn, err := net.Dial("tcp", srv.Listener.Addr().String())
		if err != nil {
			t.Fatal(err)
		}
		fmt.Fprintf(conn, "%s %s HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\nContent-Length: %d\r\n\r\n{\"a\":", c.method, c.path, c.length)
		start := time.Now()
		conn.SetReadDeadline(start.Add(3 * time.Second))
		reply, err := io.ReadAll(conn) // ends when the server closes the connection
		conn.Close()
		if err != nil {
			t.Errorf("%s %s with %d bytes declared: connection held over %v (%v), answer %q", c.method, c.path, c.length, time.Since(start).Round(time.Millisecond), err, firstLine(reply))
			continue
		}
		if c.status != "" && !strings.HasPrefix(string(reply), "HTTP/1.1 "+c.status) {
			t.Errorf("%s %s: answer %q, want %s", c.method, c.path, firstLine(reply), c.status)
		}
	}
}

func firstLine(b []byte) string {
	s, _, _ := strings.Cut(string(b), "\r\n")
	return s
}

// TestReadDeadlineOnlyWhileReading: the short body deadline bounds reading
// the body, not the answer: a request without a body, or whose body has
// arrived, keeps its context however long the answer takes (a streamed
// issue log of a farm).
func TestReadDeadlineOnlyWhileReading(t *testing.T) {
	old := smallBodyReadTime
	smallBodyReadTime = 200 * time.Millisecond
	t.Cleanup(func() { smallBodyReadTime = old })
	e := echo.New()
	e.Use(routeBodyLimit(nil, ""))
	slow := func(c echo.Context) error {
		io.Copy(io.Discard, c.Request().Body)
		select {
		case <-c.Request().Context().Done():
			return c.String(http.StatusServiceUnavailable, "cancelled")
		case <-time.After(4 * smallBodyReadTime):
			return c.String(http.StatusOK, "done")
		}
	}
	e.GET("/slow", slow)
	e.POST("/slow", slow)
	srv := httptest.NewServer(e)
	defer srv.Close()
	for _, c := range []struct{ method, body string }{{"GET", ""}, {"POST", `{"a":1}`}} {
		req, _ := http.NewRequest(c.method, srv.URL+"/slow", strings.NewReader(c.body))
		r, err := http.DefaultClient.Do(req)
		if err != nil {
			t.Fatal(err)
		}
		got, _ := io.ReadAll(r.Body)
		r.Body.Close()
		if string(got) != "done" {
			t.Errorf("%s with %q: the request was cancelled by the body deadline: %d %s", c.method, c.body, r.StatusCode, got)
		}
	}
}
