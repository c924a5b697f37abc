package ai

import (
	"context"
	"encoding/json"
	"errors"
	"io/fs"
	"os"
	"path/filepath"
	"regexp"
	"strings"
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

// evalSet is one file of real cases with its floors. cases.json is the set
// the knowledge base was tuned against; holdout.json was collected later,
// before looking at engine output, and is never tuned against (see
// testdata/README.md), so it estimates how the engine does on new cases.
type evalSet struct {
	file       string
	hit1, hit3 float64 // floors
}

// Floors of the evaluation: the issue asks for at least 85 % hit@3 on the
// in-repo cases. The holdout and train2 floors are the measured values when
// they were set minus a margin of about 0.05, for the knowledge base still
// changing. train2.json (first measured at hit@1 0.30, hit@3 0.53) has since
// been studied to widen the knowledge base, so like cases.json it is a
// training set now; holdout2.json is the independent judge: collected by
// someone who never saw the engine, and never tuned against (hit@1 0.267,
// hit@3 0.444 when added; its floors have a wider margin).
var evalSets = []evalSet{
	{file: "testdata/cases.json", hit1: 0.45, hit3: 0.85},
	{file: "testdata/holdout.json", hit1: 0.45, hit3: 0.63},
	{file: "testdata/holdout2.json", hit1: 0.2, hit3: 0.38},
	{file: "testdata/train2.json", hit1: 0.42, hit3: 0.75},
}

func loadCases(t testing.TB, file string) []evalCase {
	t.Helper()
	data, err := os.ReadFile(file)
	if errors.Is(err, fs.ErrNotExist) {
		t.Skipf("%s does not exist yet", file)
	}
	if err != nil {
		t.Fatal(err)
	}
	var cases []evalCase
	if err := json.Unmarshal(data, &cases); err != nil {
		t.Fatalf("%s: %v", file, err)
	}
	if len(cases) == 0 {
		t.Fatalf("%s has no cases", file)
	}
	return cases
}

// TestEval runs the engine over each file of real cases and reports hit@1
// and hit@3: a case is a hit at k when one of the first k step titles
// matches one of its expect patterns. Run with `go test ./ai -run Eval -v`
// to see misses.
func TestEval(t *testing.T) {
	e, err := NewEngine()
	if err != nil {
		t.Fatal(err)
	}
	for _, set := range evalSets {
		t.Run(strings.TrimSuffix(filepath.Base(set.file), ".json"), func(t *testing.T) {
			cases := loadCases(t, set.file)
			r1, r3 := evalHits(t, e, cases)
			t.Logf("%s: %d cases, hit@1 = %.3f, hit@3 = %.3f", set.file, len(cases), r1, r3)
			if r1 < set.hit1 {
				t.Errorf("hit@1 = %.3f, below the floor %.2f", r1, set.hit1)
			}
			if r3 < set.hit3 {
				t.Errorf("hit@3 = %.3f, below the floor %.2f", r3, set.hit3)
			}
		})
	}
}

// evalHits returns the share of cases hit at 1 and at 3 and logs every case
// not hit at 1.
func evalHits(t *testing.T, e *Engine, cases []evalCase) (hit1, hit3 float64) {
	t.Helper()
	ids := map[string]bool{}
	n1, n3 := 0, 0
	for _, c := range cases {
		if ids[c.ID] {
			t.Fatalf("duplicate case id %s", c.ID)
		}
		ids[c.ID] = true
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
			n1++
			n3++
		case rank > 0 && rank <= 3:
			n3++
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
	return float64(n1) / n, float64(n3) / n
}

func matchesAny(patterns []*regexp.Regexp, s string) bool {
	for _, re := range patterns {
		if re.MatchString(s) {
			return true
		}
	}
	return false
}
