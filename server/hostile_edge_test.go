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
	"os"
	"strings"
	"testing"
	"time"

	"github.com/labstack/echo/v4"

	"github.com/layerfix/layerfix/ai"
	"github.com/layerfix/layerfix/store/storetest"
)

// TestSecretsMaskedInTheStartupLog: passwords in the userinfo and in query
// parameters of every URL setting (database, mail, Gemini and Stripe bases,
// public URL) never reach the log; what the operator needs to check stays.
func TestSecretsMaskedInTheStartupLog(t *testing.T) {
	cfg := testConfig(t, map[string]string{
		"LAYERFIX_DATABASE_URL":    "postgres://app:db-pass-1@db.internal:5432/layerfix?sslmode=require&password=db-pass-2&sslpassword=db-pass-3",
		"LAYERFIX_SMTP_URL":        "smtp://mailer:smtp-pass-1@mail.example.com:587?token=smtp-pass-2&auth=smtp-pass-3",
		"LAYERFIX_MAIL_FROM":       "no-reply@example.com",
		"LAYERFIX_GEMINI_BASE_URL": "http://gw:gem-pass-1@gw.internal:8443/v1?key=gem-pass-2&alt=sse&X-Goog-Signature=gem-pass-3",
		"LAYERFIX_STRIPE_API_BASE": "http://stripe-user:stripe-pass-1@stripe.internal:12111/?access_token=stripe-pass-2",
		"LAYERFIX_PUBLIC_URL":      "https://admin:public-pass-1@layerfix.example.com",
		"LAYERFIX_BLOB_URL":        "s3://photos/layerfix?endpoint=minio.internal:9000&region=eu-1",
	})
	printed := fmt.Sprint(cfg.Printable()...)
	for _, secret := range []string{"db-pass-1", "db-pass-2", "db-pass-3", "smtp-pass-1", "smtp-pass-2", "smtp-pass-3",
		"gem-pass-1", "gem-pass-2", "gem-pass-3", "stripe-pass-1", "stripe-pass-2", "public-pass-1"} {
		if strings.Contains(printed, secret) {
			t.Errorf("%s in the start-up log: %s", secret, printed)
		}
	}
	for _, kept := range []string{"db.internal", "sslmode=require", "mail.example.com", "no-reply@example.com",
		"gw.internal:8443/v1", "alt=sse", "stripe.internal:12111", "layerfix.example.com",
		"s3://photos/layerfix?endpoint=minio.internal:9000&region=eu-1"} {
		if !strings.Contains(printed, kept) {
			t.Errorf("%s hidden: the operator cannot check the setting: %s", kept, printed)
		}
	}
	if got := mask("host=db user=app password=kv-secret"); strings.Contains(got, "kv-secret") {
		t.Errorf("key=value DSN printed: %s", got)
	}
}

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

// TestSecretsFromFiles: every secret setting also reads LAYERFIX_X_FILE.
func TestSecretsFromFiles(t *testing.T) {
	dir := t.TempDir()
	file := dir + "/gemini"
	if err := os.WriteFile(file, []byte("key-from-a-file\n"), 0o600); err != nil {
		t.Fatal(err)
	}
	cfg, err := LoadConfig(nil, func(k string) string {
		return map[string]string{"LAYERFIX_GEMINI_API_KEY_FILE": file}[k]
	})
	if err != nil || cfg.GeminiAPIKey != "key-from-a-file" {
		t.Fatalf("cfg %q, err %v", cfg.GeminiAPIKey, err)
	}
	if _, err := LoadConfig(nil, func(k string) string {
		return map[string]string{"LAYERFIX_STRIPE_WEBHOOK_SECRET_FILE": dir + "/missing"}[k]
	}); err == nil || !strings.Contains(err.Error(), "LAYERFIX_STRIPE_WEBHOOK_SECRET_FILE") {
		t.Fatalf("a missing secret file: %v", err)
	}
	// Only secrets read files: a public setting's _FILE is not a thing.
	cfg, _ = LoadConfig(nil, func(k string) string { return map[string]string{"LAYERFIX_ADDR_FILE": file}[k] })
	if cfg.Addr != ":8080" {
		t.Fatalf("LAYERFIX_ADDR_FILE was read: %q", cfg.Addr)
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

// TestURLSettingErrorsRedacted: a URL-typed setting's error names the
// variable but hides what the start-up log hides.
func TestURLSettingErrorsRedacted(t *testing.T) {
	if got := RedactURL("https://token-pass-1@gw.example.com/?session=token-pass-2"); strings.Contains(got, "token-pass") {
		t.Errorf("a lone user name or a session parameter printed: %s", got)
	}
	for env, v := range map[string]string{
		"LAYERFIX_GEMINI_BASE_URL": "ftp://gw:bad-pass-1@gw.internal/?key=bad-pass-2",
		"LAYERFIX_STRIPE_API_BASE": "stripe.internal/?api_key=bad-pass-3",
		"LAYERFIX_PUBLIC_URL":      "https://admin:bad-pass-4@layerfix.example.com/app?token=bad-pass-5",
		"LAYERFIX_BLOB_URL":        "s3://photos?endpoint=minio.internal:9000&secret=bad-pass-6",
		"LAYERFIX_DATABASE_URL":    "mysql://app:bad-pass-7@db.internal/layerfix",
	} {
		_, err := LoadConfig(nil, func(k string) string { return map[string]string{env: v}[k] })
		if err == nil {
			t.Fatalf("%s=%s accepted", env, v)
		}
		if strings.Contains(err.Error(), "bad-pass") || !strings.Contains(err.Error(), env) {
			t.Errorf("%s: the error shows a secret or hides the variable: %v", env, err)
		}
	}
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
