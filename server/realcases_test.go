package server

import (
	"encoding/json"
	"os"
	"testing"

	"github.com/layerfix/layerfix/ai"
)

// Every real maker description the engine is measured on (the embedded case
// base and the locked test set: degree and percent signs, quotes, units,
// model names) passes the form's validation: a maker's own wording never
// stops the analysis.
func TestRealDescriptionsAreAccepted(t *testing.T) {
	cases, err := ai.EmbeddedCases()
	if err != nil {
		t.Fatal(err)
	}
	data, err := os.ReadFile("../ai/testdata/locked.json")
	if err != nil {
		t.Fatal(err)
	}
	var locked []ai.Case
	if err := json.Unmarshal(data, &locked); err != nil {
		t.Fatal(err)
	}
	cases = append(cases, locked...)
	if len(cases) < 300 {
		t.Fatalf("only %d real cases", len(cases))
	}
	for _, c := range cases {
		f := issueFields{Category: c.Category, Description: c.Description}
		if c.Material != "" {
			f.Material = &c.Material
		}
		fields := map[string]string{}
		f.normalize(fields)
		for _, k := range []string{"category", "description", "material"} {
			if msg, bad := fields[k]; bad {
				t.Errorf("case %s: %s refused: %s", c.ID, k, msg)
			}
		}
	}
}
