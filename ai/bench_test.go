package ai

import (
	"context"
	"testing"
)

// benchRequests is a mix of realistic requests: short and long descriptions,
// slang, settings, printers and history.
func benchRequests() []Request {
	return []Request{
		{Category: "stringing", Description: "Lots of thin strings and hairs between the two towers, like a spider web.", Material: "PETG", NozzleTemp: num(250), PrinterBrand: "Creality Ender 3 V2"},
		{Category: "other", Description: "woke up to a spagetti mess, the print came loose after 3 hours", Material: "PLA", BedTemp: num(55), PrinterBrand: "Bambu Lab A1"},
		{Category: "bed-adhesion", Description: "ABS corners keep lifting off the bed and the part warps, even with a brim. Bed at 100, nozzle 245.", Material: "ABS", NozzleTemp: num(245), BedTemp: num(100), PrinterBrand: "Prusa MK4"},
		{Category: "layer-quality", Description: "Layers shifted to the right about halfway through, I heard a clicking noise from the X motor. Printing at 250 mm/s.", PrintSpeed: num(250), PrinterBrand: "Ender 5 Pro"},
		{Category: "extrusion-issues", Description: "The extruder clicks and the nozzle stops extruding after 20 minutes, then nothing comes out. I did a cold pull but it came back.", Material: "PLA", NozzleTemp: num(200), PrinterBrand: "Sovol SV06"},
		{Category: "first-layer", Description: "first layer lines dont touch, gaps between lines, elefant foot on the other side", LayerHeight: num(0.28), NozzleSize: num(0.4)},
		{Category: "heating-issues", Description: "Thermal runaway error when the part fan turns on at layer 2, temperature drops 10 degrees", PrinterBrand: "Artillery Sidewinder X2"},
		{Category: "calibration", Description: "Calibration cube measures 19.6 mm instead of 20 mm in X and Y, holes are too small", Material: "PLA+"},
		{Category: "support-issues", Description: "supports are impossible to remove and leave a rough surface under the overhang", Material: "PETG", LayerHeight: num(0.12)},
		{Category: "mechanical-problems", Description: "wobbly lines on the walls, z wobble and banding every few mm", PrinterBrand: "Anycubic i3 Mega",
			History: []PastFix{{Category: "mechanical-problems", Description: "banding on the walls", StepTitles: []string{"Loosened the Z coupler"}, ResolvedAt: "3 May"}}},
		{Category: "other", Description: "TPU keeps tangling in the extruder and the filament buckles", Material: "TPU", PrintSpeed: num(60), PrinterBrand: "Ender 3 Pro"},
		{Category: "layer-quality", Description: "zits and blobs on the outer walls at the seam, also some ghosting around the letters", Material: "PLA", PrintSpeed: num(80), Photos: []Photo{{MIMEType: "image/jpeg"}}},
	}
}

func BenchmarkAnalyze(b *testing.B) {
	e, err := NewEngine()
	if err != nil {
		b.Fatal(err)
	}
	reqs := benchRequests()
	ctx := context.Background()
	b.ReportAllocs()
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		if _, err := e.Analyze(ctx, reqs[i%len(reqs)]); err != nil {
			b.Fatal(err)
		}
	}
}

func BenchmarkNewEngine(b *testing.B) {
	for i := 0; i < b.N; i++ {
		if _, err := NewEngine(); err != nil {
			b.Fatal(err)
		}
	}
}

// attachmentBenchRequest is a request with a realistic klippy.log (about
// 19 KB: config dump, Stats lines, a shutdown) and an M503 dump from the
// training set of attachment cases.
func attachmentBenchRequest(b *testing.B) Request {
	b.Helper()
	cases := loadEvalCases(b, "testdata/attach/train.json")
	var log, m503 Attachment
	for _, c := range cases {
		switch c.ID {
		case "a-ender3pro-extruder-max-power-limited":
			log = c.Attachments[0]
		case "a-m-ender3v2-bltouch-probe-offset-positive":
			m503 = c.Attachments[0]
		}
	}
	if log.Text == "" || m503.Text == "" {
		b.Fatal("training cases not found")
	}
	return Request{Category: "heating-issues", PrinterBrand: "Creality Ender 3 Pro",
		Description: "PLA works but the nozzle takes long to heat; PETG at 240 stalls a bit over 200 and the printer shuts down with a heating error.",
		Attachments: []Attachment{log, m503}}
}

func BenchmarkAnalyzeAttachments(b *testing.B) {
	e, err := NewEngine()
	if err != nil {
		b.Fatal(err)
	}
	req := attachmentBenchRequest(b)
	b.SetBytes(int64(len(req.Attachments[0].Text) + len(req.Attachments[1].Text)))
	ctx := context.Background()
	if _, err := e.Analyze(ctx, req); err != nil { // loads the example configs once
		b.Fatal(err)
	}
	b.ReportAllocs()
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		if _, err := e.Analyze(ctx, req); err != nil {
			b.Fatal(err)
		}
	}
}
