package server

import (
	"context"
	"encoding/json"
	"fmt"
	"strings"
	"sync"
	"testing"

	"github.com/layerfix/layerfix/ai"
	"github.com/layerfix/layerfix/config"
)

// rankOf is the 1-based position of title among the steps, 0 when absent.
func rankOf(steps []ai.Step, title string) int {
	for i, s := range steps {
		if s.Title == title {
			return i + 1
		}
	}
	return 0
}

func stepTitles(steps []ai.Step) []string {
	out := make([]string, len(steps))
	for i, s := range steps {
		out[i] = s.Title
	}
	return out
}

var buildLearningEngine = sync.OnceValues(ai.NewEngine)

// learningWorkspace runs the real engine with learning on (unless env says
// LAYERFIX_LEARN=off) and no anonymous quota; env adds settings. The
// learning tests share one engine apart from the read-only tests' one:
// learning changes only its server case base, emptied before and after each
// test, which leaves it as a fresh build is.
func learningWorkspace(t *testing.T, env map[string]string) (*workspace, *ai.Engine) {
	t.Helper()
	engine, err := buildLearningEngine()
	if err != nil {
		t.Fatal(err)
	}
	forget := func() {
		if err := engine.SetLocalCases(nil); err != nil {
			t.Fatal(err)
		}
	}
	forget()
	t.Cleanup(forget)
	ws := newWorkspace(t, engine, func(c *config.Config, d *Deps) {
		all := map[string]string{"LAYERFIX_DATA_DIR": c.DataDir, "LAYERFIX_ANON_MONTHLY_LIMIT": "unlimited"}
		for k, v := range env {
			all[k] = v
		}
		*c = *testConfig(t, all)
		d.Learner = engine
	})
	return ws, engine
}

// verifiedMaker signs up a maker with a verified email and an Ender 3.
func (ws *workspace) verifiedMaker(t *testing.T, email string) (auth []string, printerID int64) {
	t.Helper()
	auth = ws.user(t, email)
	u, err := ws.store.UserByEmail(context.Background(), email)
	if err != nil {
		t.Fatal(err)
	}
	if err := ws.store.UpdateUser(context.Background(), u.ID, map[string]any{"email_verified": true}); err != nil {
		t.Fatal(err)
	}
	return auth, ws.addPrinter(t, auth, "Ender", "Creality Ender 3").ID
}

// confirmFix submits an issue and resolves it from the address remote with
// the titles pick chooses among its steps; it returns the resolved issue.
func (ws *workspace) confirmFix(t *testing.T, auth []string, printerID int64, remote string, fields map[string]any, pick func(steps []ai.Step) []string) issueOut {
	t.Helper()
	is := ws.submit(t, auth, issueBody(t, printerID, func(m map[string]any) {
		for k, v := range fields {
			m[k] = v
		}
	}))
	working := pick(is.AIChecklist.Steps)
	w := ws.do(t, "PATCH", fmt.Sprintf("/api/issues/%d/resolve", is.ID), mustJSON(t, map[string]any{"workingRecommendations": working}),
		append(append([]string(nil), auth...), "RemoteAddr", remote)...)
	if w.Code != 200 {
		t.Fatalf("resolve: %d %s", w.Code, w.Body.String())
	}
	var out issueOut
	json.Unmarshal(w.Body.Bytes(), &out)
	return out
}

// relearn reloads the confirmed fixes into the engine, as the server does
// after each resolve.
func (ws *workspace) relearn(t *testing.T) {
	t.Helper()
	if ws.learn == nil {
		return
	}
	if err := ws.learn.refresh(context.Background()); err != nil {
		t.Fatal(err)
	}
}

// visitor asks anonymously on an Ender 3 and returns the whole answer.
func (ws *workspace) visitor(t *testing.T, fields map[string]any) ai.Result {
	t.Helper()
	w := ws.do(t, "POST", "/api/troubleshoot", validTroubleshoot(func(m map[string]any) {
		m["printerBrand"], m["material"], m["nozzleTemp"], m["bedTemp"], m["printSpeed"], m["infill"] = "Creality Ender 3", "PETG", 235, nil, nil, nil
		for k, v := range fields {
			m[k] = v
		}
	}), "RemoteAddr", "198.51.100.200:5000")
	if w.Code != 200 {
		t.Fatalf("troubleshoot: %d %s", w.Code, w.Body.String())
	}
	var res ai.Result
	if err := json.Unmarshal(w.Body.Bytes(), &res); err != nil {
		t.Fatal(err)
	}
	return res
}

const (
	visitorDesc = "Thin hairs between the towers after every print"
	makerDesc   = "Strings between the towers on every print, and the nozzle oozes a blob while the bed heats"
	kbStep      = "Heat the nozzle to 150 °C until the bed is ready" // offered to the makers, not to the visitor
)

// One account resolving one issue with titles the engine never offered
// changes nothing for anyone else, even when a single account is enough to
// teach the engine: only offered steps are learned.
func TestLearningIgnoresTitlesTheEngineNeverOffered(t *testing.T) {
	ws, _ := learningWorkspace(t, map[string]string{"LAYERFIX_LEARN_MIN_MAKERS": "1", "LAYERFIX_LEARN_MIN_NETWORKS": "1"})
	before := ws.visitor(t, map[string]any{"description": visitorDesc})
	invented := []string{"Buy the LayerMaster nozzle kit", "Switch to SuperFil PETG"}
	mallory, printer := ws.verifiedMaker(t, "mallory@example.com")
	done := ws.confirmFix(t, mallory, printer, "203.0.113.9:4000", map[string]any{"description": visitorDesc}, func([]ai.Step) []string { return invented })
	if strings.Join(done.WorkingRecommendations, "|") != strings.Join(invented, "|") {
		t.Fatalf("the maker's own record lost their words: %v", done.WorkingRecommendations)
	}
	ws.relearn(t)
	after := ws.visitor(t, map[string]any{"description": visitorDesc})
	if got, want := mustJSON(t, after.Steps), mustJSON(t, before.Steps); got != want {
		t.Fatalf("an invented title changed a visitor's answer:\nbefore %v\nafter  %v", stepTitles(before.Steps), stepTitles(after.Steps))
	}
}

// No address or domain a maker types reaches another maker's answer, not
// even beside a step the engine did offer.
func TestLearnedStepsCarryNoLinks(t *testing.T) {
	ws, _ := learningWorkspace(t, map[string]string{"LAYERFIX_LEARN_MIN_MAKERS": "1", "LAYERFIX_LEARN_MIN_NETWORKS": "1"})
	for i, email := range []string{"ada@example.com", "bob@example.com", "cy@example.com"} {
		auth, printer := ws.verifiedMaker(t, email)
		ws.confirmFix(t, auth, printer, fmt.Sprintf("203.0.%d.9:4000", 113+i), map[string]any{"description": makerDesc}, func(steps []ai.Step) []string {
			return []string{"Flash the fixed firmware from evil.example", "https://evil.example/fix", "see www.evil-mirror.net/petg", kbStep}
		})
	}
	ws.relearn(t)
	res := ws.visitor(t, map[string]any{"description": makerDesc})
	if b := mustJSON(t, res); strings.Contains(b, "evil") {
		t.Fatalf("a maker's link reached a visitor: %s", b)
	}
}

// A confirmed step counts only once enough distinct verified makers from
// enough networks agree; one account confirming again and again is one
// maker. When it counts, it never outranks the knowledge base's own first
// steps for a visitor, while the confirming maker's own history still comes
// first for that maker.
func TestLearningNeedsMakersOnSeveralNetworks(t *testing.T) {
	tests := []struct {
		name    string
		env     map[string]string
		makers  []string // one confirmation each; the same name is the same account
		remotes []string
		votes   bool
	}{
		{"three makers, one network", nil, []string{"ada", "bob", "cy"}, []string{"203.0.113.7", "203.0.113.8", "203.0.113.9"}, false},
		{"one account three times and another elsewhere", nil, []string{"ada", "ada", "ada", "bob"}, []string{"203.0.113.7", "198.51.100.7", "192.0.2.77", "192.0.2.8"}, false},
		{"unverified makers", nil, []string{"ada", "bob", "cy"}, []string{"203.0.113.7", "198.51.100.7", "192.0.2.77"}, false},
		{"learning off", map[string]string{"LAYERFIX_LEARN": "off"}, []string{"ada", "bob", "cy"}, []string{"203.0.113.7", "203.0.113.8", "192.0.2.77"}, false},
		{"three makers, two networks", nil, []string{"ada", "bob", "cy"}, []string{"203.0.113.7", "203.0.113.8", "[2001:db8:1:2::9]"}, true},
		{"a higher bar", map[string]string{"LAYERFIX_LEARN_MIN_MAKERS": "4"}, []string{"ada", "bob", "cy"}, []string{"203.0.113.7", "198.51.100.7", "192.0.2.77"}, false},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			ws, _ := learningWorkspace(t, tt.env)
			before := ws.visitor(t, map[string]any{"description": visitorDesc})
			if rankOf(before.Steps, kbStep) != 0 || len(before.Steps) < 3 {
				t.Fatalf("the visitor already gets %q: the test proves nothing: %v", kbStep, stepTitles(before.Steps))
			}
			type maker struct {
				auth    []string
				printer int64
			}
			accounts := map[string]maker{}
			for i, name := range tt.makers {
				m, ok := accounts[name]
				if !ok {
					email := name + "@example.com"
					if tt.name == "unverified makers" {
						m.auth = ws.user(t, email)
						m.printer = ws.addPrinter(t, m.auth, "Ender", "Creality Ender 3").ID
					} else {
						m.auth, m.printer = ws.verifiedMaker(t, email)
					}
					accounts[name] = m
				}
				ws.confirmFix(t, m.auth, m.printer, tt.remotes[i]+":4000", map[string]any{"description": makerDesc}, func(steps []ai.Step) []string {
					if rankOf(steps, kbStep) == 0 {
						t.Fatalf("the engine did not offer %q to the maker: %v", kbStep, stepTitles(steps))
					}
					return []string{kbStep}
				})
			}
			ws.relearn(t)
			after := ws.visitor(t, map[string]any{"description": visitorDesc})
			if !tt.votes {
				if got, want := mustJSON(t, after.Steps), mustJSON(t, before.Steps); got != want {
					t.Fatalf("the confirmations changed a visitor's answer:\nbefore %v\nafter  %v", stepTitles(before.Steps), stepTitles(after.Steps))
				}
				return
			}
			r := rankOf(after.Steps, kbStep)
			if r == 0 {
				t.Fatalf("three makers on two networks confirmed %q, yet the visitor does not get it: %v", kbStep, stepTitles(after.Steps))
			}
			for i := 0; i < 3; i++ {
				if after.Steps[i].Title != before.Steps[i].Title || after.Steps[i].Priority != before.Steps[i].Priority {
					t.Fatalf("a learned step moved the knowledge base's first steps:\nbefore %v\nafter  %v", stepTitles(before.Steps), stepTitles(after.Steps))
				}
			}
			got := after.Steps[r-1]
			if !strings.Contains(got.Description, "3 makers on this server confirmed") || got.Priority == ai.PriorityHigh && after.Steps[r-2].Priority != ai.PriorityHigh {
				t.Fatalf("learned step %+v after %+v", got, after.Steps[r-2])
			}
			// The confirming maker's own history still leads for that maker.
			ada := accounts["ada"]
			again := ws.submit(t, ada.auth, issueBody(t, ada.printer, func(m map[string]any) { m["description"] = visitorDesc }))
			if top := again.AIChecklist.Steps[0]; top.Title != kbStep || !strings.Contains(top.Description, "This fixed a similar problem on this printer") {
				t.Fatalf("the maker's own history is not first: %+v", again.AIChecklist.Steps)
			}
		})
	}
}

// A learned step built from a maker's settings is written from the current
// maker's settings: a maker without a sliced file never reads another
// maker's retraction, and one with a file reads their own.
func TestLearnedStepsQuoteTheCurrentMakersNumbers(t *testing.T) {
	ws, _ := learningWorkspace(t, nil)
	sliced := func(retraction float64) map[string]any {
		return map[string]any{"description": visitorDesc, "slicerSettings": map[string]any{"slicer": "Cura", "retractionLength": retraction}}
	}
	for i, email := range []string{"ada@example.com", "bob@example.com", "cy@example.com"} {
		auth, printer := ws.verifiedMaker(t, email)
		ws.confirmFix(t, auth, printer, fmt.Sprintf("203.0.%d.9:4000", 113+i), sliced(1.1), func(steps []ai.Step) []string {
			if !strings.Contains(steps[0].Title, "(the file has 1.1 mm)") {
				t.Fatalf("no retraction step from the sliced file: %v", stepTitles(steps))
			}
			return []string{steps[0].Title}
		})
	}
	ws.relearn(t)
	for _, tt := range []struct {
		name   string
		fields map[string]any
		want   string
	}{
		{"no sliced file", map[string]any{"description": visitorDesc}, ""},
		{"own sliced file", sliced(1.5), "(the file has 1.5 mm)"},
	} {
		t.Run(tt.name, func(t *testing.T) {
			res := ws.visitor(t, tt.fields)
			for _, s := range res.Steps {
				if strings.Contains(s.Title+s.Description, "1.1 mm") {
					t.Fatalf("another maker's number reached this maker: %+v", s)
				}
			}
			if tt.want == "" {
				return
			}
			for _, s := range res.Steps {
				if strings.Contains(s.Title, tt.want) {
					if !strings.Contains(s.Description, "retracts 1.5 mm") || !strings.Contains(s.Description, "3 makers on this server confirmed") {
						t.Fatalf("step %+v: want this maker's retraction, confirmed by 3 makers", s)
					}
					return
				}
			}
			t.Fatalf("no step quotes this maker's retraction: %v", stepTitles(res.Steps))
		})
	}
}
