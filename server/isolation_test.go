package server

import (
	"fmt"
	"strings"
	"testing"

	"github.com/layerfix/layerfix/config"
)

// TestOtherUsersIDsAre404 walks every workspace route as Bob against Ada's
// printer, issue and photo: each answers 404 and Ada's data is unchanged.
// A new workspace route with an id in its path fails this test until it
// is added to the table.
func TestOtherUsersIDsAre404(t *testing.T) {
	engine := sharedEngine(t)
	ws := newWorkspace(t, nil, func(c *config.Config, d *Deps) { d.Refiner = engine; c.PrinterLink = true })
	ada := ws.user(t, "ada@example.com")
	bob := ws.user(t, "bob@example.com")
	printer := ws.addPrinter(t, ada, "Mk4", "Prusa")
	photo := ws.uploadPNG(t, ada, 40, 30)
	issue := ws.submit(t, ada, issueBody(t, printer.ID, func(m map[string]any) {
		m["photoUrls"] = []string{photo}
		m["attachments"] = []map[string]string{{"name": "printer.cfg", "text": "# Prusa MK4 with a Klipper board\n[printer]\nkinematics: cartesian\n"}}
	}))
	bobPrinter := ws.addPrinter(t, bob, "Mini", "Prusa")
	photoPath, _, _ := strings.Cut(photo, "?")

	snapshot := func() string {
		var b strings.Builder
		for _, p := range []string{"/api/printers", "/api/issues", fmt.Sprintf("/api/issues/%d", issue.ID), "/api/printers/stats", "/api/user/profile"} {
			w := ws.do(t, "GET", p, "", ada...)
			b.WriteString(w.Body.String())
		}
		b.WriteString(fmt.Sprint(ws.do(t, "GET", photoPath, "", ada...).Code))
		return b.String()
	}
	before := snapshot()

	printerPath := fmt.Sprintf("/api/printers/%d", printer.ID)
	issuePath := fmt.Sprintf("/api/issues/%d", issue.ID)
	routes := []struct {
		route, method, path, body string
	}{
		{"PUT /api/printers/:id", "PUT", printerPath, `{"name":"Hacked","brand":"Hacked"}`},
		{"DELETE /api/printers/:id", "DELETE", printerPath, ""},
		{"GET /api/printers/:id/stats", "GET", printerPath + "/stats", ""},
		{"GET /api/issues/:id", "GET", issuePath, ""},
		{"GET /api/issues/:id/attachments/:n", "GET", issuePath + "/attachments/0", ""},
		{"PATCH /api/issues/:id/resolve", "PATCH", issuePath + "/resolve", `{"workingRecommendations":["x"],"resolutionNotes":"mine now"}`},
		{"PATCH /api/issues/:id/progress", "PATCH", issuePath + "/progress", ""},
		{"PUT /api/issues/:id/checked-steps", "PUT", issuePath + "/checked-steps", `{"checkedSteps":["Dry the filament"]}`},
		{"POST /api/issues/:id/refine", "POST", issuePath + "/refine", `{"answers":{"same-height":true}}`},
		{"POST /api/printers/:id/pull", "POST", printerPath + "/pull", ""},
		{"GET /api/photos/:name", "GET", photoPath, ""},
		{"HEAD /api/photos/:name", "HEAD", photoPath, ""},
		{"POST /api/issues", "POST", "/api/issues", issueBody(t, printer.ID, nil)},
		{"POST /api/issues", "POST", "/api/issues", issueBody(t, bobPrinter.ID, func(m map[string]any) { m["photoUrls"] = []string{photo} })},
		{"POST /api/issues/from-analysis", "POST", "/api/issues/from-analysis", func() string {
			m := anonymousAnalysis(t, ws.testServer, "198.51.100.30:1", nil)
			m["photoUrls"] = []string{photo}
			return mustJSON(t, m)
		}()},
	}
	covered := map[string]bool{}
	for _, r := range routes {
		covered[r.route] = true
		w := ws.do(t, r.method, r.path, r.body, bob...)
		if w.Code != 404 {
			t.Errorf("%s %s as another user: %d %s", r.method, r.path, w.Code, w.Body.String())
		}
		if r.method != "HEAD" && strings.Contains(w.Body.String(), "Prusa") {
			t.Errorf("%s %s leaks the owner's data: %s", r.method, r.path, w.Body.String())
		}
	}
	// Bob's own lists, stats and export hold nothing of Ada's.
	for _, p := range []string{"/api/issues", "/api/issues?limit=5&q=hairs", "/api/issues/summary", "/api/printers", "/api/printers/stats", "/api/issues/export?format=json", "/api/issues/export?format=csv"} {
		covered["GET "+strings.Split(p, "?")[0]] = true
		w := ws.do(t, "GET", p, "", bob...)
		if w.Code != 200 || strings.Contains(w.Body.String(), "Mk4") || strings.Contains(w.Body.String(), "Thin hairs") {
			t.Errorf("GET %s as Bob: %d %s", p, w.Code, w.Body.String())
		}
	}
	covered["POST /api/printers"] = true      // creates Bob's own printer (above)
	covered["POST /api/upload-images"] = true // stores Bob's own photos only
	if n := ws.usage(t, bob); n != 0 {
		t.Errorf("refused submissions cost Bob %d credits", n)
	}
	if after := snapshot(); after != before {
		t.Errorf("Ada's data changed:\nbefore %s\nafter  %s", before, after)
	}
	seen := 0
	for _, r := range ws.e.Routes() {
		p := r.Path
		if !strings.HasPrefix(p, "/api/printers") && !strings.HasPrefix(p, "/api/issues") && !strings.HasPrefix(p, "/api/photos") && !strings.HasPrefix(p, "/api/upload-images") {
			continue
		}
		seen++
		if !covered[r.Method+" "+p] {
			t.Errorf("route %s %s is not covered by the isolation walk", r.Method, p)
		}
	}
	if seen < 15 {
		t.Fatalf("only %d workspace routes found: the walk is not looking at the router", seen)
	}
}
