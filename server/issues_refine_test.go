package server

import (
	"encoding/json"
	"fmt"
	"io"
	"log/slog"
	"testing"
	"time"

	"github.com/layerfix/layerfix/ai"
	"github.com/layerfix/layerfix/config"
	"github.com/layerfix/layerfix/store/storetest"
)

// ambiguous is a description whose likeliest causes are close, so the
// built-in engine asks a question.
const ambiguous = "The temperature reading jumps around and drops by 10 degrees during the print."

func engineServer(t *testing.T) (*testServer, *testClock) {
	t.Helper()
	engine := sharedEngine(t)
	cfg := testConfig(t, nil)
	st := storetest.Open(t)
	clock := &testClock{t: time.Date(2026, 3, 14, 10, 0, 0, 0, time.UTC)}
	s, err := New(cfg, Deps{Store: st, Analyzer: engine, Refiner: engine, Frontend: testFrontend,
		Logger: slog.New(slog.NewTextHandler(io.Discard, nil)), Now: clock.now})
	if err != nil {
		t.Fatal(err)
	}
	return &testServer{Server: s, store: st, cfg: cfg, h: checkContract(t, s.Handler())}, clock
}

type refinedResult struct {
	ai.Result
	RefineToken string `json:"refineToken"`
}

func TestRefineAnonymousResult(t *testing.T) {
	ts, clock := engineServer(t)
	body := func(mod func(m map[string]any)) string {
		return validTroubleshoot(func(m map[string]any) {
			m["category"], m["description"] = "heating-issues", ambiguous
			if mod != nil {
				mod(m)
			}
		})
	}
	w := ts.do(t, "POST", "/api/troubleshoot", body(nil))
	var first refinedResult
	json.Unmarshal(w.Body.Bytes(), &first)
	if w.Code != 200 || len(first.Questions) == 0 || first.RefineToken == "" {
		t.Fatalf("analysis: %d %s", w.Code, w.Body.String())
	}
	q := first.Questions[0]
	refine := func(mod func(m map[string]any)) (int, refinedResult) {
		t.Helper()
		w := ts.do(t, "POST", "/api/troubleshoot/refine", body(func(m map[string]any) {
			m["answers"], m["refineToken"] = map[string]string{q.ID: "yes"}, first.RefineToken
			if mod != nil {
				mod(m)
			}
		}))
		var out refinedResult
		json.Unmarshal(w.Body.Bytes(), &out)
		return w.Code, out
	}
	for i := 0; i < 4; i++ { // more often than the allowance: answering is free
		code, out := refine(nil)
		if code != 200 || out.Answers[q.ID] != ai.AnswerYes || out.RefineToken != first.RefineToken {
			t.Fatalf("refine %d: %d %+v", i, code, out)
		}
		if len(out.Questions) == 0 || out.Questions[0].ID != q.ID {
			t.Fatalf("the answered question is not shown first: %+v", out.Questions)
		}
	}
	if n, _ := ts.store.AnonymousUsage(t.Context(), "192.0.2.1", clock.now()); n != 1 {
		t.Fatalf("anonymous usage %d after one analysis and four answers, want 1", n)
	}
	for _, tc := range []struct {
		name string
		mod  func(m map[string]any)
		code int
	}{
		{"another description with the token", func(m map[string]any) { m["description"] = "Something else entirely went wrong here" }, 403},
		{"another printer with the token", func(m map[string]any) { m["printerBrand"] = "Prusa MK4" }, 403},
		{"no token", func(m map[string]any) { delete(m, "refineToken") }, 403},
		{"forged token", func(m map[string]any) { m["refineToken"] = "9999999999.AAAAAAAAAAAAAAAAAAAAAAAAAAA" }, 403},
		{"unknown question", func(m map[string]any) { m["answers"] = map[string]bool{"is-it-aliens": true} }, 400},
		{"no answer", func(m map[string]any) { m["answers"] = map[string]bool{} }, 400},
		{"not an answer", func(m map[string]any) { m["answers"] = map[string]any{q.ID: "maybe"} }, 400},
		{"a number", func(m map[string]any) { m["answers"] = map[string]any{q.ID: 3} }, 400},
		{"more answers than questions", func(m map[string]any) {
			m["answers"] = map[string]string{"same-height": "no", "one-spool": "no", "one-axis": "unsure"}
		}, 400},
		{"an answer from before 'not sure'", func(m map[string]any) { m["answers"] = map[string]bool{q.ID: false} }, 200},
	} {
		if code, _ := refine(tc.mod); code != tc.code {
			t.Errorf("%s: %d, want %d", tc.name, code, tc.code)
		}
	}
	// "Not sure" is an answer: kept with the result, the steps as they were.
	code, unsure := refine(func(m map[string]any) { m["answers"] = map[string]string{q.ID: "unsure"} })
	if code != 200 || unsure.Answers[q.ID] != ai.AnswerUnsure || len(unsure.Questions) > ai.MaxQuestions {
		t.Fatalf("not sure: %d %+v", code, unsure)
	}
	for i := range first.Steps {
		if unsure.Steps[i].Title != first.Steps[i].Title {
			t.Fatalf("not sure moved step %d: %q, was %q", i+1, unsure.Steps[i].Title, first.Steps[i].Title)
		}
	}
	clock.set(clock.now().Add(25 * time.Hour))
	if code, _ := refine(nil); code != 403 {
		t.Errorf("expired token: %d", code)
	}
}

func TestRefineSavedIssue(t *testing.T) {
	engine := sharedEngine(t)
	ws := newWorkspace(t, engine, func(c *config.Config, d *Deps) { d.Refiner = engine })
	ada, bob := ws.user(t, "ada@example.com"), ws.user(t, "bob@example.com")
	p := ws.addPrinter(t, ada, "Mk4", "Prusa MK4")
	is := ws.submit(t, ada, issueBody(t, p.ID, func(m map[string]any) {
		m["category"], m["description"] = "heating-issues", ambiguous
	}))
	if len(is.AIChecklist.Questions) == 0 {
		t.Fatalf("no question for an ambiguous issue: %+v", is.AIChecklist)
	}
	q := is.AIChecklist.Questions[0]
	path := fmt.Sprintf("/api/issues/%d/refine", is.ID)
	answer := mustJSON(t, map[string]any{"answers": map[string]string{q.ID: "unsure"}})
	if w := ws.do(t, "POST", path, answer, bob...); w.Code != 404 {
		t.Fatalf("another maker's issue: %d", w.Code)
	}
	w := ws.do(t, "POST", path, answer, ada...)
	var got issueOut
	json.Unmarshal(w.Body.Bytes(), &got)
	if w.Code != 200 || got.AIChecklist.Answers[q.ID] != ai.AnswerUnsure || len(got.AIChecklist.Answers) != 1 {
		t.Fatalf("refine: %d %s", w.Code, w.Body.String())
	}
	if ws.usage(t, ada) != 1 {
		t.Fatalf("answering took a credit: usage %d", ws.usage(t, ada))
	}
	// The saved issue keeps the narrowed-down steps.
	w = ws.do(t, "GET", fmt.Sprintf("/api/issues/%d", is.ID), "", ada...)
	var saved issueOut
	json.Unmarshal(w.Body.Bytes(), &saved)
	if saved.AIChecklist.Answers[q.ID] != ai.AnswerUnsure {
		t.Fatalf("saved issue lost the answer: %+v", saved.AIChecklist)
	}
	// A question this analysis did not ask, or an answer that is none, is a
	// 400 naming the answers.
	asked := map[string]bool{}
	for _, q := range saved.AIChecklist.Questions {
		asked[q.ID] = true
	}
	other := ""
	for id := range engine.QuestionIDs() {
		if !asked[id] {
			other = id
		}
	}
	for _, bad := range []any{map[string]string{other: "yes"}, map[string]string{q.ID: "perhaps"}} {
		w := ws.do(t, "POST", path, mustJSON(t, map[string]any{"answers": bad}), ada...)
		if w.Code != 400 || decodeError(t, w).Fields["answers"] == "" {
			t.Fatalf("refine with %v: %d %s", bad, w.Code, w.Body.String())
		}
	}
	w = ws.do(t, "POST", path, mustJSON(t, map[string]any{"answers": map[string]string{q.ID: "yes"}}), ada...)
	json.Unmarshal(w.Body.Bytes(), &got)
	if w.Code != 200 || got.AIChecklist.Answers[q.ID] != ai.AnswerYes || len(got.AIChecklist.Questions) > ai.MaxQuestions {
		t.Fatalf("change the answer: %d %s", w.Code, w.Body.String())
	}
	ws.do(t, "PATCH", fmt.Sprintf("/api/issues/%d/resolve", is.ID), `{"workingRecommendations":[]}`, ada...)
	if w := ws.do(t, "POST", path, answer, ada...); w.Code != 409 {
		t.Fatalf("refine a resolved issue: %d", w.Code)
	}
}

// A result without questions (Gemini's, or a clear case) cannot be refined.
func TestRefineNeedsQuestions(t *testing.T) {
	engine := sharedEngine(t)
	ws := newWorkspace(t, &fakeAnalyzer{}, func(c *config.Config, d *Deps) { d.Refiner = engine })
	ada := ws.user(t, "ada@example.com")
	p := ws.addPrinter(t, ada, "Mk4", "Prusa")
	is := ws.submit(t, ada, issueBody(t, p.ID, nil))
	w := ws.do(t, "POST", fmt.Sprintf("/api/issues/%d/refine", is.ID), `{"answers":{"same-height":true}}`, ada...)
	if w.Code != 409 || decodeError(t, w).Code != "NOTHING_TO_REFINE" {
		t.Fatalf("refine a result without questions: %d %s", w.Code, w.Body.String())
	}
}
