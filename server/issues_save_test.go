package server

import (
	"encoding/json"
	"strings"
	"testing"

	"github.com/layerfix/layerfix/config"
	"github.com/layerfix/layerfix/store"
)

// anonymousAnalysis runs an anonymous analysis and returns the body that
// saves it: the inputs it was made from, the result, its signature and its
// token.
func anonymousAnalysis(t *testing.T, ts *testServer, ip string, mod func(m map[string]any)) map[string]any {
	t.Helper()
	w := ts.do(t, "POST", "/api/troubleshoot", validTroubleshoot(mod), "RemoteAddr", ip)
	if w.Code != 200 {
		t.Fatalf("anonymous analysis: %d %s", w.Code, w.Body.String())
	}
	var out map[string]any
	json.Unmarshal(w.Body.Bytes(), &out)
	var in map[string]any
	json.Unmarshal([]byte(validTroubleshoot(mod)), &in)
	delete(in, "images")
	in["signature"], in["refineToken"] = out["signature"], out["refineToken"]
	delete(out, "signature")
	delete(out, "refineToken")
	in["result"] = out
	return in
}

// TestSaveAnalysisAfterSignUp: "Sign Up to Save Results" keeps its promise:
// the anonymous analysis becomes an issue of the new account, with the form's
// printer, without a new analysis or a credit, once.
func TestSaveAnalysisAfterSignUp(t *testing.T) {
	an := &fakeAnalyzer{}
	ws := newWorkspace(t, an)
	const ip = "198.51.100.20:5000"
	save := anonymousAnalysis(t, ws.testServer, ip, func(m map[string]any) {
		m["attachments"] = []map[string]string{{"name": "printer.cfg", "text": "[extruder]\nrotation_distance: 22.6\n"}}
		m["slicerSettings"] = map[string]any{"slicer": "PrusaSlicer", "travelSpeed": 150}
	})
	ada := ws.user(t, "ada@example.com")
	ws.do(t, "POST", "/api/transfer-usage", "", append(ada, "RemoteAddr", ip)...)
	photo := ws.uploadPNG(t, ada, 40, 30)
	save["photoUrls"] = []string{photo}
	calls, used := an.calls, ws.usage(t, ada)

	w := ws.do(t, "POST", "/api/issues/from-analysis", mustJSON(t, save), ada...)
	if w.Code != 201 {
		t.Fatalf("save: %d %s", w.Code, w.Body.String())
	}
	var saved issueJSON
	json.Unmarshal(w.Body.Bytes(), &saved)
	if saved.Printer == nil || saved.Printer.Name != "Ender 3 V2" || saved.Printer.Brand != "Creality" || saved.Description != "Thin hairs between the towers after every print" ||
		len(saved.PhotoURLs) != 1 || len(saved.Attachments) != 1 || saved.Status != store.StatusPending || !strings.Contains(string(saved.AIChecklist), "Stringing from retraction") {
		t.Fatalf("saved issue %s", w.Body.String())
	}
	if an.calls != calls || ws.usage(t, ada) != used {
		t.Fatalf("saving analysed again (%d calls) or took a credit (%d → %d)", an.calls-calls, used, ws.usage(t, ada))
	}
	list := ws.do(t, "GET", "/api/issues/summary", "", ada...)
	if !strings.Contains(list.Body.String(), "Thin hairs between the towers") {
		t.Fatalf("the dashboard does not show the saved issue: %s", list.Body.String())
	}
	// Once only.
	if w := ws.do(t, "POST", "/api/issues/from-analysis", mustJSON(t, save), ada...); w.Code != 409 || decodeError(t, w).Code != "ANALYSIS_ALREADY_SAVED" {
		t.Fatalf("second save: %d %s", w.Code, w.Body.String())
	}
	// A second analysis on the same printer reuses it.
	again := anonymousAnalysis(t, ws.testServer, ip, func(m map[string]any) { m["printerBrand"] = "creality ender-3 v2" })
	if w := ws.do(t, "POST", "/api/issues/from-analysis", mustJSON(t, again), ada...); w.Code != 201 {
		t.Fatalf("save again: %d %s", w.Code, w.Body.String())
	}
	if w := ws.do(t, "GET", "/api/printers", "", ada...); strings.Count(w.Body.String(), `"id"`) != 1 {
		t.Fatalf("printers: %s", w.Body.String())
	}
}

func TestSaveAnalysisRefusals(t *testing.T) {
	ws := newWorkspace(t, nil)
	const ip = "198.51.100.21:5000"
	ada := ws.user(t, "ada@example.com")
	bob := ws.user(t, "bob@example.com")
	adaPhoto := ws.uploadPNG(t, ada, 40, 30)
	adaPrinter := ws.addPrinter(t, ada, "Ender 3 V2", "Creality")
	base := anonymousAnalysis(t, ws.testServer, ip, nil)
	with := func(mod func(m map[string]any)) string {
		m := map[string]any{}
		b, _ := json.Marshal(base)
		json.Unmarshal(b, &m)
		mod(m)
		return mustJSON(t, m)
	}
	cases := []struct {
		name   string
		auth   []string
		body   string
		status int
		code   string
		field  string
	}{
		{"signed out", nil, with(func(m map[string]any) {}), 401, "", ""},
		{"no result", bob, with(func(m map[string]any) { delete(m, "result") }), 400, "VALIDATION", "result"},
		{"not a result", bob, with(func(m map[string]any) { m["result"] = "hello" }), 400, "VALIDATION", "result"},
		{"short description", bob, with(func(m map[string]any) { m["description"] = "short" }), 400, "VALIDATION", "description"},
		{"images instead of uploads", bob, with(func(m map[string]any) { m["images"] = []string{"AAAA"} }), 400, "VALIDATION", "images"},
		{"bad photo url", bob, with(func(m map[string]any) { m["photoUrls"] = []string{"https://evil.example/x.jpg"} }), 400, "VALIDATION", "photoUrls"},
		{"changed result", bob, with(func(m map[string]any) { m["result"].(map[string]any)["summary"] = "Something I wrote" }), 400, "NOT_OUR_RESULT", ""},
		{"other inputs", bob, with(func(m map[string]any) { m["description"] = "A different problem than the one analysed" }), 403, "ANALYSIS_TOKEN_INVALID", ""},
		{"no token", bob, with(func(m map[string]any) { delete(m, "refineToken") }), 403, "ANALYSIS_TOKEN_INVALID", ""},
		{"another maker's photo", bob, with(func(m map[string]any) { m["photoUrls"] = []string{adaPhoto} }), 404, "NOT_FOUND", ""},
	}
	for _, c := range cases {
		w := ws.do(t, "POST", "/api/issues/from-analysis", c.body, c.auth...)
		if w.Code != c.status {
			t.Errorf("%s: %d %s", c.name, w.Code, w.Body.String())
			continue
		}
		if c.code == "" {
			continue
		}
		e := decodeError(t, w)
		if e.Code != c.code || (c.field != "" && e.Fields[c.field] == "") {
			t.Errorf("%s: %+v", c.name, e)
		}
	}
	// None of the refusals stored anything or spent the analysis.
	if w := ws.do(t, "GET", "/api/issues", "", bob...); strings.TrimSpace(w.Body.String()) != "[]" {
		t.Fatalf("refusals stored issues: %s", w.Body.String())
	}
	w := ws.do(t, "POST", "/api/issues/from-analysis", mustJSON(t, base), bob...)
	if w.Code != 201 {
		t.Fatalf("the analysis after the refusals: %d %s", w.Code, w.Body.String())
	}
	// The printer is one of the caller's own, never another maker's of the same name.
	var saved issueJSON
	json.Unmarshal(w.Body.Bytes(), &saved)
	if saved.PrinterID == nil || *saved.PrinterID == adaPrinter.ID {
		t.Fatalf("bob's saved issue took ada's printer: %s", w.Body.String())
	}
	// Saved once: not again by anyone.
	if w := ws.do(t, "POST", "/api/issues/from-analysis", mustJSON(t, base), ada...); w.Code != 409 {
		t.Fatalf("ada saving bob's saved analysis: %d %s", w.Code, w.Body.String())
	}
	if w := ws.do(t, "GET", "/api/issues", "", ada...); strings.TrimSpace(w.Body.String()) != "[]" {
		t.Fatalf("ada's log: %s", w.Body.String())
	}
}

// TestTopTierLimitMessage: a Print Farm account at its limit is told when
// credits return and whom to ask, never to upgrade; lower plans may upgrade.
func TestTopTierLimitMessage(t *testing.T) {
	ws := newWorkspace(t, nil, func(c *config.Config, d *Deps) {
		c.TierLimits = config.TierLimits{"free": 3, "hobby": 20, "pro": 50, "farm": 1}
		c.OperatorName, c.ContactEmail = "Ada's Print Lab", "ops@example.com"
	})
	farm := ws.user(t, "farm@example.com")
	u, _ := ws.store.UserByEmail(t.Context(), "farm@example.com")
	ws.store.UpdateUser(t.Context(), u.ID, map[string]any{"subscription_status": "active", "subscription_tier": "farm"})
	pr := ws.addPrinter(t, farm, "Bay 1", "Prusa MK4")
	ws.submit(t, farm, issueBody(t, pr.ID, nil))
	w := ws.do(t, "POST", "/api/issues", issueBody(t, pr.ID, nil), farm...)
	e := decodeError(t, w)
	want := "You've used all 1 AI troubleshooting sessions of your Print Farm plan for March 2026. Your credits reset on April 1, 2026 (UTC). " +
		"Print Farm is the largest plan: for more sessions before then, ask Ada's Print Lab, who runs this server, at ops@example.com."
	if w.Code != 429 || e.Code != codeUsageLimit || e.Message != want {
		t.Fatalf("farm at its limit: %d %q", w.Code, e.Message)
	}
	if got := usageLimitMessage("pro", 50, ws.clock.now(), "", ""); !strings.HasSuffix(got, "Upgrade your plan for more sessions.") {
		t.Fatalf("pro at its limit: %q", got)
	}
	if got := usageLimitMessage("farm", 175, ws.clock.now(), "", ""); !strings.HasSuffix(got, "ask the operator of this server.") {
		t.Fatalf("farm without a contact: %q", got)
	}
}
