package server

import (
	"bytes"
	"io"
	"log/slog"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"
	"time"

	"github.com/labstack/echo/v4"

	"github.com/layerfix/layerfix/store/storetest"
)

// One line per request, with the caller's address, at info; nothing at
// error level for a request that went well.
func TestRequestLogLine(t *testing.T) {
	for _, level := range []slog.Level{slog.LevelInfo, slog.LevelError} {
		var buf bytes.Buffer
		log := slog.New(slog.NewTextHandler(&buf, &slog.HandlerOptions{Level: level}))
		cfg := testConfig(t, nil)
		s, err := New(cfg, Deps{Store: storetest.Open(t), Analyzer: &fakeAnalyzer{}, Frontend: testFrontend, Logger: log})
		if err != nil {
			t.Fatal(err)
		}
		req := httptest.NewRequest(http.MethodGet, "/api/public-usage", nil)
		req.RemoteAddr = "198.51.100.7:40000"
		w := httptest.NewRecorder()
		s.Handler().ServeHTTP(w, req)
		line := ""
		for _, l := range strings.Split(buf.String(), "\n") {
			if strings.Contains(l, "msg=request") {
				line = l
			}
		}
		switch {
		case level == slog.LevelError && line != "":
			t.Errorf("error level logged a request that went well: %s", line)
		case level == slog.LevelInfo && (!strings.Contains(line, "ip=198.51.100.7") || !strings.Contains(line, "status=200") || !strings.Contains(line, "path=/api/public-usage")):
			t.Errorf("request line %q", line)
		}
	}
}

// deadlineWriter is a ResponseWriter that keeps nothing but its headers
// and takes read deadlines, as the server's own does.
type deadlineWriter struct{ discardWriter }

func (deadlineWriter) SetReadDeadline(time.Time) error { return nil }

// The edge every request passes (request id, log line, recoverer, security
// headers, body limit) costs it a few allocations, none it need not.
func TestEdgeAllocations(t *testing.T) {
	if raceDetector {
		t.Skip("allocations are not counted under the race detector")
	}
	log := slog.New(slog.NewTextHandler(io.Discard, &slog.HandlerOptions{Level: slog.LevelError}))
	s, err := New(testConfig(t, nil), Deps{Store: storetest.Open(t), Analyzer: &fakeAnalyzer{}, Frontend: testFrontend, Logger: log})
	if err != nil {
		t.Fatal(err)
	}
	s.e.POST("/api/edge-test", func(c echo.Context) error {
		_, err := io.Copy(io.Discard, c.Request().Body)
		return err
	})
	body := strings.NewReader("{}")
	rc := io.NopCloser(body)
	req := httptest.NewRequest(http.MethodPost, "/api/edge-test", nil)
	w := deadlineWriter{discardWriter{http.Header{}}}
	allocs := testing.AllocsPerRun(100, func() {
		clear(w.h)
		body.Reset("{}")
		req.Body, req.ContentLength = rc, 2
		s.Handler().ServeHTTP(w, req)
	})
	// The request id (its text, its header) and a function per middleware,
	// echo's way of chaining them; the body's limit and read deadline.
	if allocs > 10 {
		t.Errorf("%.0f allocations, want at most 10", allocs)
	}
}
