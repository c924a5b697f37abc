package ai

import (
	"context"
	"os"
	"regexp"
	"strings"
	"testing"
	"testing/fstest"
)

func TestQuestionsLoadAndValidate(t *testing.T) {
	e, err := NewEngine()
	if err != nil {
		t.Fatal(err)
	}
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
	e, err := NewEngine()
	if err != nil {
		t.Fatal(err)
	}
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
	rank := func(ans bool) int {
		r := req
		r.Answers = map[string]bool{q.ID: ans}
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
	yes, no := rank(true), rank(false)
	if yes > 2 || yes >= no {
		t.Fatalf("%q: the cause it supports is step %d after yes and %d after no", q.Text, yes, no)
	}
}

// A clear description gets no question.
func TestNoQuestionWhenClear(t *testing.T) {
	e, err := NewEngine()
	if err != nil {
		t.Fatal(err)
	}
	res, _ := e.Analyze(context.Background(), Request{Category: "first-layer", Description: "Elephant foot: the bottom layers bulge outwards on every print, the rest is perfect."})
	if len(res.Questions) != 0 {
		t.Fatalf("questions for a clear case: %+v", res.Questions)
	}
}
