package ai

import (
	"context"
	"encoding/json"
	"os"
	"testing"
)

func TestScratch(t *testing.T) {
	e, err := NewEngine()
	if err != nil {
		t.Fatal(err)
	}
	f := func(v float64) *float64 { return &v }
	reqs := []Request{
		{Category: "other", Description: "lots of hairs and strings between the towers", Material: "PLA", NozzleTemp: f(245), PrinterBrand: "Creality Ender 3 V2"},
		{Category: "first-layer", Description: "print turned into a spagetti mess halfway", Material: "PETG"},
		{Category: "other", Description: "my prints wont stick to the bed, corners lift", Material: "ABS", BedTemp: f(60), PrinterBrand: "Prusa MK4"},
		{Category: "stringing", Description: "the bottom layers bulge out, elefant foot", Photos: []Photo{{}}},
		{Category: "other", Description: "small zits and blobs all over the surface"},
	}
	for _, r := range reqs {
		res, _ := e.Analyze(context.Background(), r)
		b, _ := json.MarshalIndent(res, "", " ")
		os.Stdout.Write(b)
		os.Stdout.WriteString("\n")
		for _, c := range e.Candidates(r, 4) {
			t.Logf("%s %.2f", c.ID, c.Score)
		}
	}
}
