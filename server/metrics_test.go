package server

import (
	"math/rand/v2"
	"net/http/httptest"
	"regexp"
	"strings"
	"testing"
)

// With LAYERFIX_METRICS=on, /metrics reports requests by route template,
// analyses by engine, allowance refusals, database pools and the Go
// runtime; with metrics off there is no /metrics.
func TestMetrics(t *testing.T) {
	engine := sharedEngine(t)
	ts := newTestServer(t, map[string]string{"LAYERFIX_METRICS": "on"}, engine)
	for i := 0; i < 4; i++ { // the fourth is over the anonymous allowance
		ts.do(t, "POST", "/api/troubleshoot", validTroubleshoot(nil))
	}
	ts.do(t, "GET", "/api/issues/12345", "")
	w := ts.do(t, "GET", "/metrics", "")
	if w.Code != 200 {
		t.Fatalf("/metrics: %d", w.Code)
	}
	body := w.Body.String()
	for _, want := range []string{
		`layerfix_http_requests_total{method="POST",route="/api/troubleshoot",status="200"} 3`,
		`layerfix_http_requests_total{method="POST",route="/api/troubleshoot",status="429"} 1`,
		`layerfix_http_requests_total{method="GET",route="/api/issues/:id",status="401"} 1`, // a template, not the id
		`layerfix_http_request_duration_seconds_bucket{method="POST",route="/api/troubleshoot",le="+Inf"} 4`,
		`layerfix_analyses_total{engine="built-in",outcome="ok"} 3`,
		`layerfix_quota_refusals_total{code="PUBLIC_USAGE_LIMIT_EXCEEDED"} 1`,
		`go_sql_open_connections{db_name="writer"}`,
		`go_goroutines `,
		`layerfix_gemini_retries_total 0`,
		`layerfix_photo_bytes_stored_total 0`,
	} {
		if !strings.Contains(body, want) {
			t.Errorf("/metrics lacks %q", want)
		}
	}
	// The path, not the bare digits: a sample's value may hold them.
	if strings.Contains(body, "/api/issues/12345") {
		t.Error("an id reached a label")
	}

	off := newTestServer(t, nil, engine)
	if w := off.do(t, "GET", "/metrics", ""); w.Code != 404 || strings.Contains(w.Body.String(), "layerfix_http_requests_total") {
		t.Fatalf("metrics off: %d %q", w.Code, w.Body.String())
	}
}

// TestMetricsLabelsBounded: request methods and paths are the client's
// choice, so every label they reach is one of a fixed set: methods outside
// HTTP's own are "other", and a path no route serves counts under its
// fallback route, never as itself. The same holds when /metrics is served
// on a private LAYERFIX_METRICS_ADDR.
func TestMetricsLabelsBounded(t *testing.T) {
	for _, env := range []map[string]string{
		{"LAYERFIX_METRICS": "on", "LAYERFIX_BASE_PATH": "/lf"},
		{"LAYERFIX_METRICS_ADDR": "127.0.0.1:0"},
	} {
		ts := newTestServer(t, env, nil)
		rng := rand.New(rand.NewPCG(1, 2))
		word := func() string {
			b := make([]byte, 4+rng.IntN(8))
			for i := range b {
				b[i] = byte('A' + rng.IntN(26))
			}
			return string(b)
		}
		flood := func(n int) string {
			for range n {
				ts.do(t, word(), "/api/"+word(), "")
				ts.do(t, word(), "/lf/"+word()+"/"+word(), "")
				ts.do(t, "get", "/"+word(), "")
				ts.do(t, "GET", "/healthz/"+word(), "")
			}
			w := httptest.NewRecorder()
			ts.metrics.handler().ServeHTTP(w, httptest.NewRequest("GET", "/metrics", nil))
			return w.Body.String()
		}
		first := flood(100)
		routes := map[string]bool{"spa": true, "other": true}
		for _, r := range ts.e.Routes() {
			routes[strings.TrimPrefix(r.Path, ts.cfg.BasePath)] = true
		}
		methods := map[string]bool{"GET": true, "HEAD": true, "POST": true, "PUT": true, "PATCH": true, "DELETE": true,
			"OPTIONS": true, "CONNECT": true, "TRACE": true, "other": true}
		label := regexp.MustCompile(`(\w+)="([^"]*)"`)
		for _, line := range strings.Split(first, "\n") {
			if !strings.HasPrefix(line, "layerfix_http_") {
				continue
			}
			for _, m := range label.FindAllStringSubmatch(line, -1) {
				switch m[1] {
				case "method":
					if !methods[m[2]] {
						t.Fatalf("%v: method label %q from the client: %s", env, m[2], line)
					}
				case "route":
					if !routes[m[2]] {
						t.Fatalf("%v: route label %q is no route: %s", env, m[2], line)
					}
				}
			}
		}
		if second := flood(400); len(second) > len(first)+len(first)/10 {
			t.Fatalf("%v: /metrics grew from %d to %d bytes with more random requests", env, len(first), len(second))
		}
	}
}
