package ai

import (
	"context"
	"encoding/json"
	"os"
	"regexp"
	"strings"
	"testing"
	"testing/fstest"
)

func TestQuestionsLoadAndValidate(t *testing.T) {
	e := sharedEngine(t)
	if len(e.kb.questions) < 10 {
		t.Fatalf("%d questions", len(e.kb.questions))
	}
	bad := []struct{ name, file, want string }{
		{"unknown mode", `[{"id":"q","text":"Is it?","yes":{"no-such-mode":2}}]`, `unknown mode "no-such-mode"`},
		{"factor out of range", `[{"id":"q","text":"Is it?","yes":{"fx-stringing":5}}]`, "must be within (0, 3]"},
		{"not a question", `[{"id":"q","text":"It is","yes":{"fx-stringing":2}}]`, "must be a question"},
		{"no effect", `[{"id":"q","text":"Is it?"}]`, "name no mode"},
		{"unknown field", `[{"id":"q","text":"Is it?","maybe":{}}]`, "maybe"},
	}
	for _, tc := range bad {
		t.Run(tc.name, func(t *testing.T) {
			fsys := realTables(t)
			data, err := os.ReadFile("testdata/fixture/modes/fixture.json")
			if err != nil {
				t.Fatal(err)
			}
			fsys["modes/fixture.json"] = &fstest.MapFile{Data: data}
			fsys["questions.json"] = &fstest.MapFile{Data: []byte(tc.file)}
			_, err = newEngineFS(fsys, nil)
			if err == nil || !strings.Contains(err.Error(), tc.want) {
				t.Fatalf("err = %v, want %q", err, tc.want)
			}
		})
	}
}

// TestNarrowItDown: look-alike causes get a question, and each answer puts
// the cause it supports first.
func TestNarrowItDown(t *testing.T) {
	e := sharedEngine(t)
	req := Request{Category: "heating-issues", Description: "The temperature reading jumps around and drops by 10 degrees during the print."}
	res, err := e.Analyze(context.Background(), req)
	if err != nil {
		t.Fatal(err)
	}
	if len(res.Questions) == 0 || len(res.Questions) > maxQuestions || len(res.Answers) != 0 {
		t.Fatalf("questions %+v", res.Questions)
	}
	var q Question
	for _, c := range res.Questions {
		if c.ID == "temp-jumps-when-moved" || c.ID == "fan-drops-temp" {
			q = c
		}
	}
	if q.ID == "" {
		t.Fatalf("no question separating wiring from cooling: %+v", res.Questions)
	}
	want := regexp.MustCompile("(?i)" + map[string]string{
		"temp-jumps-when-moved": "wir|connector|terminal", "fan-drops-temp": "sock|duct|fan"}[q.ID])
	// rank is the position of the first step the answer "yes" supports.
	rank := func(ans Answer) int {
		r := req
		r.Answers = map[string]Answer{q.ID: ans}
		out, err := e.Analyze(context.Background(), r)
		if err != nil {
			t.Fatal(err)
		}
		// The answered question stays, with its answer; new ones are other questions.
		if len(out.Questions) == 0 || out.Questions[0].ID != q.ID || out.Answers[q.ID] != ans {
			t.Fatalf("answered question %s: questions %+v, answers %v", q.ID, out.Questions, out.Answers)
		}
		for _, asked := range out.Questions[1:] {
			if asked.ID == q.ID {
				t.Fatalf("answered question %s asked again", q.ID)
			}
		}
		for i, s := range out.Steps {
			if want.MatchString(s.Title) {
				return i + 1
			}
		}
		return len(out.Steps) + 1
	}
	yes, no := rank(AnswerYes), rank(AnswerNo)
	if yes > 2 || yes >= no {
		t.Fatalf("%q: the cause it supports is step %d after yes and %d after no", q.Text, yes, no)
	}
}

// A clear description gets no question.
func TestNoQuestionWhenClear(t *testing.T) {
	e := sharedEngine(t)
	res, _ := e.Analyze(context.Background(), Request{Category: "first-layer", Description: "Elephant foot: the bottom layers bulge outwards on every print, the rest is perfect."})
	if len(res.Questions) != 0 {
		t.Fatalf("questions for a clear case: %+v", res.Questions)
	}
}

// Questions are about the problem at hand: under a warping report every
// question names a bed-adhesion cause, never only a hotend or extruder one.
func TestQuestionsStayOnTopic(t *testing.T) {
	e := sharedEngine(t)
	category := map[string]string{}
	for _, m := range e.kb.modes {
		category[m.ID] = m.Category
	}
	byID := map[string]*kbQuestion{}
	for _, q := range e.kb.questions {
		byID[q.ID] = q
	}
	for _, desc := range []string{
		"Warping on the corners of large parts. The heater seems weak.",
		"The corners of my print warp up off the bed. I updated the firmware recently.",
		"My prints warp and lift at the corners. I updated the firmware recently.",
		"The corners of my print warp up off the bed.",
		"The edges curl up and the part lifts off the bed.",
	} {
		res, err := e.Analyze(context.Background(), Request{Category: "bed-adhesion", Description: desc})
		if err != nil {
			t.Fatal(err)
		}
		for _, q := range res.Questions {
			about := false
			for _, effects := range []map[string]float64{byID[q.ID].Yes, byID[q.ID].No} {
				for id := range effects {
					about = about || category[id] == "bed-adhesion"
				}
			}
			if !about {
				t.Errorf("%q: off-topic question %q", desc, q.Text)
			}
		}
	}
}

// "Not sure" is an answer: the question stays answered, the order of the
// steps does not change, and no third question comes in its place.
func TestNotSure(t *testing.T) {
	e := sharedEngine(t)
	req := Request{Category: "heating-issues", Description: "The temperature reading jumps around and drops by 10 degrees during the print."}
	first, err := e.Analyze(context.Background(), req)
	if err != nil {
		t.Fatal(err)
	}
	if len(first.Questions) == 0 {
		t.Fatal("no question")
	}
	q := first.Questions[0]
	req.Answers = map[string]Answer{q.ID: AnswerUnsure}
	out, err := e.Analyze(context.Background(), req)
	if err != nil {
		t.Fatal(err)
	}
	if out.Answers[q.ID] != AnswerUnsure || out.Questions[0].ID != q.ID {
		t.Fatalf("answers %v, questions %+v", out.Answers, out.Questions)
	}
	if len(out.Questions) > MaxQuestions {
		t.Fatalf("%d questions after one answer: %+v", len(out.Questions), out.Questions)
	}
	for i := range first.Steps {
		if out.Steps[i].Title != first.Steps[i].Title {
			t.Fatalf("step %d: %q after not sure, %q before", i+1, out.Steps[i].Title, first.Steps[i].Title)
		}
	}
}

// At most two questions are asked for one analysis, however many are
// answered: answering one never brings two new ones.
func TestAtMostTwoQuestions(t *testing.T) {
	e := sharedEngine(t)
	asked := 0
	for _, c := range loadEvalCases(t, "testdata/casebase/holdout.json") {
		req := c.Request()
		req.Answers = nil
		res, err := e.Analyze(context.Background(), req)
		if err != nil {
			t.Fatal(err)
		}
		for _, q := range res.Questions {
			for _, ans := range []Answer{AnswerYes, AnswerNo, AnswerUnsure} {
				req.Answers = map[string]Answer{q.ID: ans}
				out, err := e.Analyze(context.Background(), req)
				if err != nil {
					t.Fatal(err)
				}
				asked++
				if len(out.Questions) > MaxQuestions {
					t.Fatalf("%s: %d questions after answering %s %s: %+v", c.ID, len(out.Questions), q.ID, ans, out.Questions)
				}
			}
		}
	}
	if asked == 0 {
		t.Fatal("no case got a question")
	}
}

// Results saved before "not sure" existed hold true and false.
func TestAnswerJSON(t *testing.T) {
	var r Result
	if err := json.Unmarshal([]byte(`{"answers":{"a":true,"b":false,"c":"unsure","d":"yes"}}`), &r); err != nil {
		t.Fatal(err)
	}
	want := map[string]Answer{"a": AnswerYes, "b": AnswerNo, "c": AnswerUnsure, "d": AnswerYes}
	for k, v := range want {
		if r.Answers[k] != v {
			t.Fatalf("answers %v, want %v", r.Answers, want)
		}
	}
	b, _ := json.Marshal(Result{Answers: map[string]Answer{"a": AnswerUnsure}})
	if !strings.Contains(string(b), `"answers":{"a":"unsure"}`) {
		t.Fatalf("%s", b)
	}
	if err := json.Unmarshal([]byte(`{"answers":{"a":3}}`), &r); err != nil || r.Answers["a"].Valid() {
		t.Fatalf("a number reads as %q, %v", r.Answers["a"], err)
	}
	if Answer("maybe").Valid() || !AnswerUnsure.Valid() {
		t.Fatal("Valid")
	}
}
