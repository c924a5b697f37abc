package ai

import (
	"context"
	"encoding/json"
	"errors"
	"io/fs"
	"os"
	"regexp"
	"testing"
)

// evalCase is one real troubleshooting case of testdata/cases.json (see
// testdata/README.md): what the maker wrote and patterns for the fix that
// worked.
type evalCase struct {
	ID          string   `json:"id"`
	Source      string   `json:"source"`
	Category    string   `json:"category"`
	Description string   `json:"description"`
	Printer     string   `json:"printer"`
	Material    string   `json:"material"`
	NozzleTemp  *float64 `json:"nozzleTemp"`
	BedTemp     *float64 `json:"bedTemp"`
	LayerHeight *float64 `json:"layerHeight"`
	PrintSpeed  *float64 `json:"printSpeed"`
	Infill      *float64 `json:"infill"`
	NozzleSize  *float64 `json:"nozzleSize"`
	Fix         string   `json:"fix"`
	Expect      []string `json:"expect"`
}

func (c evalCase) request() Request {
	return Request{
		Category: c.Category, Description: c.Description, Material: c.Material,
		NozzleTemp: c.NozzleTemp, BedTemp: c.BedTemp, LayerHeight: c.LayerHeight,
		PrintSpeed: c.PrintSpeed, Infill: c.Infill, PrinterBrand: c.Printer, NozzleSize: c.NozzleSize,
	}
}

// Floors of the evaluation: the issue asks for at least 85 % hit@3; hit@1
// measured 0.55 on 56 cases when this floor was set, with a margin for the
// knowledge base still changing.
const (
	hit1Floor = 0.45
	hit3Floor = 0.85
)

func loadCases(t testing.TB) []evalCase {
	t.Helper()
	data, err := os.ReadFile("testdata/cases.json")
	if errors.Is(err, fs.ErrNotExist) {
		t.Skip("testdata/cases.json does not exist yet")
	}
	if err != nil {
		t.Fatal(err)
	}
	var cases []evalCase
	if err := json.Unmarshal(data, &cases); err != nil {
		t.Fatalf("testdata/cases.json: %v", err)
	}
	return cases
}

// TestEval runs the engine over the real cases and reports hit@1 and hit@3:
// a case is a hit at k when one of the first k step titles matches one of
// its expect patterns. Run with `go test ./ai -run Eval -v` to see misses.
func TestEval(t *testing.T) {
	cases := loadCases(t)
	if len(cases) == 0 {
		t.Fatal("testdata/cases.json has no cases")
	}
	e, err := NewEngine()
	if err != nil {
		t.Fatal(err)
	}
	hit1, hit3 := 0, 0
	for _, c := range cases {
		var patterns []*regexp.Regexp
		for _, p := range c.Expect {
			re, err := regexp.Compile("(?i)" + p)
			if err != nil {
				t.Fatalf("case %s: pattern %q: %v", c.ID, p, err)
			}
			patterns = append(patterns, re)
		}
		if len(patterns) == 0 {
			t.Fatalf("case %s has no expect patterns", c.ID)
		}
		res, err := e.Analyze(context.Background(), c.request())
		if err != nil {
			t.Fatalf("case %s: %v", c.ID, err)
		}
		rank := 0
		for i, s := range res.Steps {
			if matchesAny(patterns, s.Title) {
				rank = i + 1
				break
			}
		}
		switch {
		case rank == 1:
			hit1++
			hit3++
		case rank > 0 && rank <= 3:
			hit3++
		}
		if rank != 1 {
			var titles []string
			for _, s := range res.Steps {
				titles = append(titles, s.Title)
			}
			t.Logf("case %s (%s): expected %q at rank %d; steps %q", c.ID, c.Category, c.Expect, rank, titles)
		}
	}
	n := float64(len(cases))
	r1, r3 := float64(hit1)/n, float64(hit3)/n
	t.Logf("evaluation over %d cases: hit@1 = %.3f (%d), hit@3 = %.3f (%d)", len(cases), r1, hit1, r3, hit3)
	if r1 < hit1Floor {
		t.Errorf("hit@1 = %.3f, below the floor %.2f", r1, hit1Floor)
	}
	if r3 < hit3Floor {
		t.Errorf("hit@3 = %.3f, below the floor %.2f", r3, hit3Floor)
	}
}

func matchesAny(patterns []*regexp.Regexp, s string) bool {
	for _, re := range patterns {
		if re.MatchString(s) {
			return true
		}
	}
	return false
}
