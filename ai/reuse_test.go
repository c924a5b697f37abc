package ai

import (
	"context"
	"encoding/json"
	"fmt"
	"math/rand/v2"
	"strings"
	"sync"
	"testing"
)

// reuseRequests are requests of every kind the engine sees: plain ones,
// with history and photos, and the evaluation sets' requests with their
// attached files and sliced-file settings.
func reuseRequests(t *testing.T) []Request {
	reqs := benchRequests()
	for _, f := range []string{"testdata/attach/train.json", "testdata/attach/dev.json", "testdata/casebase/holdout.json"} {
		for _, c := range loadEvalCases(t, f) {
			reqs = append(reqs, c.Request())
		}
	}
	return reqs
}

// answer is everything the engine says about a request: the analysis,
// the candidates and the step references.
type answer struct {
	R *Result
	C []Candidate
	S []string
}

func (a answer) json(t *testing.T) string {
	t.Helper()
	data, err := json.Marshal(a)
	if err != nil {
		t.Fatal(err)
	}
	return string(data)
}

func answerOf(t *testing.T, e *Engine, req Request) answer {
	t.Helper()
	res, err := e.Analyze(context.Background(), req)
	if err != nil {
		t.Fatalf("Analyze: %v", err)
	}
	return answer{res, e.Candidates(req, 4), e.StepRefs(req, titles(res))}
}

// TestReusedMemoryKeepsAnswersApart: many different requests analysed at
// once on one engine that knows confirmed cases of its server (sharing its
// reused analyses, rankings, votes and scratch) get exactly a fresh
// engine's answers, and no answer changes after later requests reuse the
// memory of the analysis that made it.
func TestReusedMemoryKeepsAnswersApart(t *testing.T) {
	reqs := reuseRequests(t)
	if testing.Short() {
		reqs = reqs[:min(len(reqs), 100)]
	}
	fresh, err := NewEngine()
	if err != nil {
		t.Fatal(err)
	}
	e, err := NewEngine()
	if err != nil {
		t.Fatal(err)
	}
	// Both engines know the same confirmed cases of this server, so that
	// learned steps and their makers vote too.
	var local []Case
	for i := 0; i < len(reqs); i += 3 {
		r := reqs[i]
		res := answerOf(t, fresh, r)
		local = append(local, Case{ID: fmt.Sprint("local-", i), Category: r.Category, Description: r.Description, Material: r.Material,
			Printer: r.PrinterBrand, Steps: res.S[:min(len(res.S), 2)], Maker: fmt.Sprint("maker-", i%5)})
	}
	for _, en := range []*Engine{fresh, e} {
		if err := en.SetLocalCases(local); err != nil {
			t.Fatal(err)
		}
	}
	want := make([]string, len(reqs))
	learned := 0
	for i, r := range reqs {
		want[i] = answerOf(t, fresh, r).json(t)
		if strings.Contains(want[i], "on this server confirmed") {
			learned++
		}
	}
	if learned == 0 {
		t.Fatal("no answer has a learned step")
	}
	const workers = 4
	kept := make([]map[int]answer, workers) // by worker, by request
	var wg sync.WaitGroup
	for w := range workers {
		kept[w] = map[int]answer{}
		wg.Add(1)
		go func() {
			defer wg.Done()
			for _, i := range rand.New(rand.NewPCG(uint64(w), 1)).Perm(len(reqs)) { // each worker in its own order
				a := answerOf(t, e, reqs[i])
				if got := a.json(t); got != want[i] {
					t.Errorf("request %d analysed among others:\n got  %s\n want %s", i, got, want[i])
					return
				}
				kept[w][i] = a
			}
		}()
	}
	wg.Wait()
	for _, answers := range kept {
		for i, a := range answers {
			if a.json(t) != want[i] {
				t.Fatalf("request %d: its answer changed after later requests", i)
			}
		}
	}
}
