package server

import (
	"context"
	"encoding/json"
	"fmt"
	"log/slog"
	"net/http/httptest"
	"strings"
	"testing"
	"time"

	"github.com/layerfix/layerfix/ai"
	"github.com/layerfix/layerfix/config"
	"github.com/layerfix/layerfix/store"
)

// singleSlicerSettings are the requests a sliced file that stores only the
// settings the maker changed produces: one setting each, at 0, 1 and 300.
func singleSlicerSettings() []map[string]any {
	var out []map[string]any
	for _, r := range slicerRules {
		for _, v := range []float64{0, 1, 300} {
			out = append(out, map[string]any{"slicer": "Cura", r.name: v})
		}
	}
	return out
}

// TestSingleSlicerSettingNeverAnswers500: every sliced file with a single
// setting, for an Ender 3 V2 (a Bowden printer), is analysed by the real
// engine or refused with a 400 naming the setting; never a 500, on the
// anonymous and the signed-in form alike.
func TestSingleSlicerSettingNeverAnswers500(t *testing.T) {
	engine := sharedEngine(t)
	settings := singleSlicerSettings()
	if len(settings) != 30 {
		t.Fatalf("%d requests, want 10 settings × 3 values", len(settings))
	}
	ws := newWorkspace(t, engine, func(c *config.Config, _ *Deps) {
		c.AnonLimit, c.NetworkLimit = -1, -1
		c.TierLimits = config.TierLimits{"free": len(settings)}
	})
	ada := ws.user(t, "ada@example.com")
	pr := ws.addPrinter(t, ada, "Ender", "Creality Ender 3 V2")
	analysed := map[string]int{}
	for _, s := range settings {
		name := fmt.Sprint(s)
		anon := ws.do(t, "POST", "/api/troubleshoot", validTroubleshoot(func(m map[string]any) { m["slicerSettings"] = s }))
		signed := ws.do(t, "POST", "/api/issues", issueBody(t, pr.ID, func(m map[string]any) { m["slicerSettings"] = s }), ada...)
		for path, w := range map[string]int{"anonymous": anon.Code, "signed-in": signed.Code} {
			switch w {
			case 200, 201:
				analysed[path]++
			case 400:
			default:
				t.Errorf("%s %s: %d", path, name, w)
			}
		}
		if anon.Code == 400 {
			if e := decodeError(t, anon); len(e.Fields) != 1 {
				t.Errorf("%s refused without naming the setting: %+v", name, e)
			}
		}
	}
	// 17 of the 30 values are in range (retraction 0 and 1 included).
	if analysed["anonymous"] != 17 || analysed["signed-in"] != 17 {
		t.Fatalf("analysed %v, want 17 on each path", analysed)
	}
}

// panicAnalyzer stands in for an analyzer with a bug: it panics on every
// analysis, or with whenAnswered only when it narrows a result down (it
// then first answers with a question, so there is something to narrow).
type panicAnalyzer struct{ whenAnswered bool }

func (p panicAnalyzer) Analyze(_ context.Context, r ai.Request) (*ai.Result, error) {
	if !p.whenAnswered || len(r.Answers) > 0 {
		panic("boom secret")
	}
	return &ai.Result{Summary: "Stringing from retraction", Steps: []ai.Step{{Title: "Increase retraction", Description: "5 mm", Priority: "high"}},
		AdditionalTips: []string{}, Questions: []ai.Question{{ID: "q1", Text: "Does it string on travels only?"}}}, nil
}

func (panicAnalyzer) QuestionIDs() map[string]bool { return map[string]bool{"q1": true} }

// panicServer is a workspace whose analyzer and refiner are an, logging into
// the returned buffer, with the default allowances (3 anonymous analyses,
// 3 for a free account, 10 per network).
func panicServer(t *testing.T, an panicAnalyzer) (*workspace, *lockedBuffer) {
	logs := &lockedBuffer{}
	ws := newWorkspace(t, an, func(_ *config.Config, d *Deps) {
		d.Refiner = an
		d.Logger = slog.New(slog.NewTextHandler(logs, nil))
	})
	return ws, logs
}

// checkPanic500 asserts the answer to a request whose analysis panicked: a
// 500 in the one error shape that says no credit was used and leaks nothing,
// and exactly one stack in the log, the panic's.
func checkPanic500(t *testing.T, w *httptest.ResponseRecorder, logged string) {
	t.Helper()
	e := decodeError(t, w)
	if w.Code != 500 || e.Code != CodeAnalysisFailed || !strings.Contains(e.Message, "did not use a credit") || strings.Contains(w.Body.String(), "boom") {
		t.Fatalf("panic answered %d %s", w.Code, w.Body.String())
	}
	if n := strings.Count(logged, "stack="); n != 1 || !strings.Contains(logged, "panicAnalyzer.Analyze") || !strings.Contains(logged, "boom secret") {
		t.Fatalf("want the panic's stack logged once, got %d stacks in:\n%s", n, logged)
	}
}

// TestPanicCostsNoCredit: an analysis that panics gives back every credit
// it took (the address's and the network's; the account's and the
// network's), so five panics in a row leave a 3-credit allowance untouched,
// store nothing and log one stack each.
func TestPanicCostsNoCredit(t *testing.T) {
	const tries = 5 // more than any allowance
	t.Run("anonymous", func(t *testing.T) {
		ws, logs := panicServer(t, panicAnalyzer{})
		for range tries {
			mark := len(logs.String())
			w := ws.do(t, "POST", "/api/troubleshoot", validTroubleshoot(nil))
			checkPanic500(t, w, logs.String()[mark:])
		}
		for _, key := range []string{"192.0.2.1", networkKey("192.0.2.1")} {
			if n, err := ws.store.AnonymousUsage(t.Context(), key, ws.clock.now()); err != nil || n != 0 {
				t.Fatalf("%s: %d credits used after %d panics (%v)", key, n, tries, err)
			}
		}
		if w := ws.do(t, "GET", "/healthz", ""); w.Code != 200 {
			t.Fatal("server down after a panic")
		}
	})
	t.Run("signed-in", func(t *testing.T) {
		ws, logs := panicServer(t, panicAnalyzer{})
		ada := ws.user(t, "ada@example.com")
		pr := ws.addPrinter(t, ada, "Ender", "Creality Ender 3 V2")
		for range tries {
			mark := len(logs.String())
			w := ws.do(t, "POST", "/api/issues", issueBody(t, pr.ID, nil), ada...)
			checkPanic500(t, w, logs.String()[mark:])
		}
		if n := ws.usage(t, ada); n != 0 {
			t.Fatalf("%d account credits used after %d panics", n, tries)
		}
		if n, err := ws.store.AnonymousUsage(t.Context(), networkKey("192.0.2.1"), ws.clock.now()); err != nil || n != 0 {
			t.Fatalf("%d network credits used after %d panics (%v)", n, tries, err)
		}
		if list := ws.do(t, "GET", "/api/issues", "", ada...); strings.TrimSpace(list.Body.String()) != "[]" {
			t.Fatalf("a panicked analysis stored an issue: %s", list.Body.String())
		}
	})
}

// TestPanicWhileNarrowingDown: the refine calls take no credit, and a panic
// there is the same clear 500 with one stack; the analysis that was charged
// stays charged once.
func TestPanicWhileNarrowingDown(t *testing.T) {
	ws, logs := panicServer(t, panicAnalyzer{whenAnswered: true})
	w := ws.do(t, "POST", "/api/troubleshoot", validTroubleshoot(nil))
	var res resultJSON
	if err := json.Unmarshal(w.Body.Bytes(), &res); w.Code != 200 || err != nil || res.RefineToken == "" {
		t.Fatalf("analysis: %d %s", w.Code, w.Body.String())
	}
	w = ws.do(t, "POST", "/api/troubleshoot/refine", validTroubleshoot(func(m map[string]any) {
		m["answers"], m["refineToken"] = map[string]bool{"q1": true}, res.RefineToken
	}))
	checkPanic500(t, w, logs.String())
	if n, _ := ws.store.AnonymousUsage(t.Context(), "192.0.2.1", ws.clock.now()); n != 1 {
		t.Fatalf("%d anonymous credits used, want the analysis's 1", n)
	}

	ada := ws.user(t, "ada@example.com")
	pr := ws.addPrinter(t, ada, "Ender", "Creality Ender 3 V2")
	is := ws.submit(t, ada, issueBody(t, pr.ID, nil))
	mark := len(logs.String())
	w = ws.do(t, "POST", fmt.Sprintf("/api/issues/%d/refine", is.ID), `{"answers":{"q1":false}}`, ada...)
	checkPanic500(t, w, logs.String()[mark:])
	if n := ws.usage(t, ada); n != 1 {
		t.Fatalf("%d account credits used, want the analysis's 1", n)
	}
}

// confirmedFixesStub serves one confirmed fix to the learner.
type confirmedFixesStub struct{}

func (confirmedFixesStub) ConfirmedFixes(context.Context, int, int) ([]store.ConfirmedFix, error) {
	return []store.ConfirmedFix{{ID: 1, UserID: 1, Network: "n1", Category: "stringing",
		Description: "Strings between the towers", LearnedSteps: store.StringList{"stringing-retraction/tune retraction"}}}, nil
}

// panickingLearner is a case base whose indexing has a bug.
type panickingLearner struct{}

func (panickingLearner) SetLocalCases([]ai.Case) error { panic("index boom") }

func (panickingLearner) StepRefs(ai.Request, []string) []string { return nil }

// TestLearnerSurvivesAPanic: the learner runs in the background at every
// start, so a panic while indexing confirmed fixes is an error logged with
// its stack, not a server that stops (and stops again at the next start).
func TestLearnerSurvivesAPanic(t *testing.T) {
	logs := &lockedBuffer{}
	l := &learner{store: confirmedFixesStub{}, target: panickingLearner{}, log: slog.New(slog.NewTextHandler(logs, nil)),
		trigger: make(chan struct{}, 1)}
	ctx, cancel := context.WithCancel(t.Context())
	done := make(chan struct{})
	go func() {
		defer close(done)
		l.run(ctx)
	}()
	for !strings.Contains(logs.String(), "stack=") {
		time.Sleep(time.Millisecond)
	}
	cancel()
	<-done
	if out := logs.String(); strings.Count(out, "stack=") != 1 || !strings.Contains(out, "index boom") || !strings.Contains(out, "panickingLearner.SetLocalCases") {
		t.Fatalf("learner log:\n%s", out)
	}
}
