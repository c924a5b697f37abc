package server

import (
	"strings"
	"testing"

	"github.com/layerfix/layerfix/ai"
)

// With LAYERFIX_METRICS=on, /metrics reports requests by route template,
// analyses by engine, allowance refusals, database pools and the Go
// runtime; with metrics off there is no /metrics.
func TestMetrics(t *testing.T) {
	engine, err := ai.NewEngine()
	if err != nil {
		t.Fatal(err)
	}
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
	if strings.Contains(body, "12345") {
		t.Error("an id reached a label")
	}

	off := newTestServer(t, nil, engine)
	if w := off.do(t, "GET", "/metrics", ""); w.Code != 404 || strings.Contains(w.Body.String(), "layerfix_http_requests_total") {
		t.Fatalf("metrics off: %d %q", w.Code, w.Body.String())
	}
}
