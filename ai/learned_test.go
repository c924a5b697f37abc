package ai

import (
	"context"
	"fmt"
	"strings"
	"testing"
)

// realEngine is the engine over the embedded knowledge base and cases.
func realEngine(t *testing.T) *Engine {
	t.Helper()
	e, err := NewEngine()
	if err != nil {
		t.Fatal(err)
	}
	return e
}

// StepRefs names the knowledge-base steps among a maker's titles: fixes of
// failure modes and steps built from the maker's own settings; anything
// else is not a step the engine knows and is not learned.
func TestStepRefsNameOnlyKnowledgeBaseSteps(t *testing.T) {
	e := sharedEngine(t)
	req := Request{Category: "stringing", Description: "Thin hairs between the towers after every print", Material: "PETG",
		NozzleTemp: num(235), PrinterBrand: "Creality Ender 3", Slicer: &SlicerSettings{RetractionLength: num(1.1)}}
	res, err := e.Analyze(context.Background(), req)
	if err != nil {
		t.Fatal(err)
	}
	var rule, fix string
	for _, s := range res.Steps {
		switch {
		case strings.Contains(s.Title, "the file has 1.1 mm"):
			rule = s.Title
		case s.Title == "Dry the filament":
			fix = s.Title
		}
	}
	if rule == "" || fix == "" {
		t.Fatalf("steps %v lack the retraction rule or drying", titles(res))
	}
	got := e.StepRefs(req, []string{"Buy the LayerMaster kit", rule, fix, "https://evil.example", fix, "dry the filament"})
	if want := "rule:retraction_short_bowden stringing-retraction/dry-the-filament"; strings.Join(got, " ") != want {
		t.Fatalf("StepRefs = %v, want %s", got, want)
	}
	// The same title under other settings is another maker's number: no step.
	other := req
	other.Slicer = &SlicerSettings{RetractionLength: num(0.6)}
	if got := e.StepRefs(other, []string{rule}); len(got) != 0 {
		t.Fatalf("StepRefs on other settings = %v", got)
	}
}

// learnedCase is a server case confirming refs, by maker.
func learnedCase(id int, maker, desc string, refs ...string) Case {
	return Case{ID: fmt.Sprintf("local-%d", id), Category: "stringing", Description: desc, Material: "PETG",
		Printer: "Creality Ender 3", Steps: refs, Maker: maker}
}

// Of one maker's cases only the closest votes, and a learned step never
// moves the knowledge base's own first steps, however many makers back it.
func TestLearnedStepsCountMakersAndKeepTheLead(t *testing.T) {
	const (
		desc = "Thin hairs between the towers after every print"
		ref  = "stringing-ooze-heatup/heat-the-nozzle-to-150-c-until-the-bed-is-ready"
	)
	e := realEngine(t)
	if _, ok := e.fixByRef[ref]; !ok {
		t.Fatalf("no fix %s in the knowledge base", ref)
	}
	req := Request{Category: "stringing", Description: desc, Material: "PETG", NozzleTemp: num(235), PrinterBrand: "Creality Ender 3"}
	base, _ := e.Analyze(context.Background(), req)
	defer e.SetLocalCases(nil)

	var one []Case
	for i := range 8 {
		one = append(one, learnedCase(i, "mallory", desc, ref))
	}
	var many []Case
	for i := range 20 {
		many = append(many, learnedCase(i, fmt.Sprint("maker-", i), desc, ref))
	}
	for _, tt := range []struct {
		name  string
		cases []Case
		note  string
	}{
		{"one maker, eight cases", one, "A maker on this server confirmed"},
		{"twenty makers", many, "6 makers on this server confirmed"}, // the nearest caseNeighbors makers
	} {
		t.Run(tt.name, func(t *testing.T) {
			if err := e.SetLocalCases(tt.cases); err != nil {
				t.Fatal(err)
			}
			res, _ := e.Analyze(context.Background(), req)
			r := -1
			for i, s := range res.Steps {
				if strings.HasPrefix(s.Title, "Heat the nozzle to 150") {
					r = i
				}
			}
			if r < kbLead || !strings.Contains(res.Steps[r].Description, tt.note) {
				t.Fatalf("learned step at %d in %v", r+1, res.Steps)
			}
			for i := range kbLead {
				if res.Steps[i] != base.Steps[i] {
					t.Fatalf("step %d changed: %+v, was %+v", i+1, res.Steps[i], base.Steps[i])
				}
			}
		})
	}
}
