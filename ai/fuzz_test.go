package ai

import (
	"context"
	"strings"
	"testing"
	"unicode/utf8"
)

// FuzzAnalyze feeds the engine arbitrary descriptions, categories,
// materials, printers and answers: a maker's text is untrusted input. The
// engine must never panic and must always answer with steps whose titles
// fit the limits.
func FuzzAnalyze(f *testing.F) {
	for _, r := range benchRequests() {
		f.Add(r.Category, r.Description, r.Material, r.PrinterBrand, "same-height", true)
	}
	f.Add("other", "ÿ\x00\u202e\u0301\u0301\u0301 1,75mm ; : ( ) 210°C 20% ×", "pla", "ender-3", "one-axis", false)
	f.Add("", strings.Repeat("strings ", 300), "", "", "", false)
	e, err := NewEngine()
	if err != nil {
		f.Fatal(err)
	}
	f.Fuzz(func(t *testing.T, category, desc, material, printer, question string, answer bool) {
		if len(desc) > 4000 {
			desc = desc[:4000]
		}
		req := Request{Category: category, Description: desc, Material: material, PrinterBrand: printer,
			Answers: map[string]bool{question: answer}}
		res, err := e.Analyze(context.Background(), req)
		if err != nil {
			t.Fatal(err)
		}
		if len(res.Steps) == 0 || len(res.Steps) > maxSteps {
			t.Fatalf("%d steps", len(res.Steps))
		}
		for _, s := range res.Steps {
			if s.Title == "" || utf8.RuneCountInString(s.Title) > maxTitleLen {
				t.Fatalf("bad title %q", s.Title)
			}
		}
		if len(res.Questions) > maxQuestions+len(res.Answers) {
			t.Fatalf("%d questions", len(res.Questions))
		}
	})
}
