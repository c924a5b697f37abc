package server

import (
	"bytes"
	"log/slog"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"

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
