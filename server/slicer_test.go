package server

import (
	"encoding/json"
	"strings"
	"testing"

	"github.com/layerfix/layerfix/ai"
)

// TestSlicerSettingsReachTheEngine: a setting only the sliced file carried
// (a 0.8 mm retraction on a Bowden printer) changes the answer; bad values
// are refused by name; a saved issue keeps the settings.
func TestSlicerSettingsReachTheEngine(t *testing.T) {
	engine := sharedEngine(t)
	ts := newTestServer(t, map[string]string{"LAYERFIX_ANON_MONTHLY_LIMIT": "unlimited"}, engine)
	first := func(mod func(m map[string]any)) string {
		w := ts.do(t, "POST", "/api/troubleshoot", validTroubleshoot(mod))
		if w.Code != 200 {
			t.Fatalf("analysis: %d %s", w.Code, w.Body.String())
		}
		var res ai.Result
		json.Unmarshal(w.Body.Bytes(), &res)
		return res.Steps[0].Title
	}
	without := first(nil)
	with := first(func(m map[string]any) {
		m["slicerSettings"] = map[string]any{"slicer": "OrcaSlicer", "retractionLength": 0.8, "retractionSpeed": 40}
	})
	if with == without || !strings.Contains(with, "0.8 mm") {
		t.Fatalf("the file's retraction changed nothing: %q then %q", without, with)
	}
	w := ts.do(t, "POST", "/api/troubleshoot", validTroubleshoot(func(m map[string]any) {
		m["slicerSettings"] = map[string]any{"retractionLength": 99, "fanSpeed": -3}
	}))
	if e := decodeError(t, w); w.Code != 400 || e.Fields["slicerSettings.retractionLength"] == "" || e.Fields["slicerSettings.fanSpeed"] == "" {
		t.Fatalf("bad settings: %d %+v", w.Code, e)
	}

	ws := newWorkspace(t, engine)
	ada := ws.user(t, "ada@example.com")
	p := ws.addPrinter(t, ada, "Ender", "Creality Ender 3 V2")
	is := ws.submit(t, ada, issueBody(t, p.ID, func(m map[string]any) {
		m["material"], m["nozzleTemp"] = "PLA", 205
		m["slicerSettings"] = map[string]any{"slicer": "Cura", "retractionLength": 0.8}
	}))
	if !strings.Contains(string(is.SlicerSettings), `"retractionLength":0.8`) || !strings.Contains(is.AIChecklist.Steps[0].Title, "0.8 mm") {
		t.Fatalf("saved issue: settings %s, first step %q", is.SlicerSettings, is.AIChecklist.Steps[0].Title)
	}
}
