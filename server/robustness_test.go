package server

import (
	"net/http"
	"strings"
	"testing"
)

// Every API route, signed out and signed in, answers any malformed input
// with a 4xx (or a deliberate 503 such as billing off), never a 500.
func TestNoClientInputCausesA500(t *testing.T) {
	ts := newTestServer(t, nil, nil)
	s := signup(t, ts, "fuzz@example.com", "spaghetti-monster")
	bodies := []string{"", "null", "[]", "{}", `"text"`, "12", "true", `{"a":1}`, "{", "\x00\xff\xfe",
		`{"name":123,"brand":[],"nozzleSize":"big","printerId":"x","category":{},"description":null,"images":[1,2],"photoUrls":"x","tier":5,"newTier":null,"setupIntentId":7,"email":1,"password":{},"title":[],"troubleshootingData":"x","workingRecommendations":"x","resolutionNotes":5,"oobCode":1}`,
		`{"printerId":-1,"category":"other","description":"valid description here","photoUrls":["/etc/passwd","../../x","http://evil/x.jpg"]}`,
		`{"printerId":99999999999999999999}`,
		strings.Repeat("[", 10000) + strings.Repeat("]", 10000),
		`{"name":"` + strings.Repeat("ü", 5000) + `"}`,
	}
	ids := []string{"1", "0", "-1", "abc", "99999999999999999999", "1.5", "%00", "..%2F..%2Fetc"}
	routes := ts.e.Routes()
	if len(routes) < 20 {
		t.Fatalf("only %d routes registered", len(routes))
	}
	checked := 0
	for _, r := range routes {
		// Logging out would end the session the signed-in pass needs.
		if !strings.HasPrefix(r.Path, "/api/") || strings.HasSuffix(r.Path, "/*") || r.Method == "echo_route_any" || r.Path == "/api/auth/logout" {
			continue
		}
		for _, id := range ids {
			path := r.Path
			for _, p := range []string{":id", ":shareId", ":name"} {
				path = strings.ReplaceAll(path, p, id)
			}
			for _, body := range bodies {
				for _, auth := range [][]string{nil, bearer(s.Token)} {
					hdr := append([]string{"Content-Type", "application/json"}, auth...)
					w := ts.do(t, r.Method, path, body, hdr...)
					checked++
					if w.Code >= 500 && w.Code != http.StatusServiceUnavailable {
						t.Errorf("%s %s body %.40q auth=%v: %d %s", r.Method, path, body, auth != nil, w.Code, w.Body.String())
					}
				}
			}
			if !strings.Contains(r.Path, ":") {
				break
			}
		}
	}
	if w := ts.do(t, "GET", "/api/user/profile", "", bearer(s.Token)...); w.Code != 200 {
		t.Fatalf("the signed-in pass lost its session: %d", w.Code)
	}
	t.Logf("%d requests over %d routes", checked, len(routes))
}
