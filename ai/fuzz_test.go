package ai

import (
	"context"
	"encoding/binary"
	"math"
	"strings"
	"testing"
	"unicode/utf8"
)

// optionalNumber is one optional number of a request: a setting the maker
// typed, a fact of the printer profile or a setting of the sliced file.
type optionalNumber struct {
	name    string
	typical float64 // the value when the fuzz input gives none
	set     func(r *Request, v *float64)
}

// optionalNumbers lists every optional number of a Request; the fuzz mask
// has one bit per entry.
var optionalNumbers = []optionalNumber{
	{"nozzleTemp", 215, func(r *Request, v *float64) { r.NozzleTemp = v }},
	{"bedTemp", 60, func(r *Request, v *float64) { r.BedTemp = v }},
	{"layerHeight", 0.2, func(r *Request, v *float64) { r.LayerHeight = v }},
	{"printSpeed", 60, func(r *Request, v *float64) { r.PrintSpeed = v }},
	{"infill", 20, func(r *Request, v *float64) { r.Infill = v }},
	{"nozzleSize", 0.4, func(r *Request, v *float64) { r.NozzleSize = v }},
	{"filamentDiameter", 1.75, func(r *Request, v *float64) { r.FilamentDiameter = v }},
	{"slicer.nozzleDiameter", 0.4, func(r *Request, v *float64) { r.Slicer.NozzleDiameter = v }},
	{"slicer.retractionLength", 0.8, func(r *Request, v *float64) { r.Slicer.RetractionLength = v }},
	{"slicer.retractionSpeed", 40, func(r *Request, v *float64) { r.Slicer.RetractionSpeed = v }},
	{"slicer.firstLayerHeight", 0.2, func(r *Request, v *float64) { r.Slicer.FirstLayerHeight = v }},
	{"slicer.firstLayerSpeed", 20, func(r *Request, v *float64) { r.Slicer.FirstLayerSpeed = v }},
	{"slicer.fanSpeed", 70, func(r *Request, v *float64) { r.Slicer.FanSpeed = v }},
	{"slicer.pressureAdvance", 0.04, func(r *Request, v *float64) { r.Slicer.PressureAdvance = v }},
	{"slicer.wallSpeed", 40, func(r *Request, v *float64) { r.Slicer.WallSpeed = v }},
	{"slicer.travelSpeed", 150, func(r *Request, v *float64) { r.Slicer.TravelSpeed = v }},
	{"slicer.acceleration", 500, func(r *Request, v *float64) { r.Slicer.Acceleration = v }},
}

// The mask's bits after the numbers: whether the request has a sliced file,
// a printer model, photos and a history. A slicer setting without the
// sliced file's bit stays absent.
var (
	bitSlicer  = uint32(1) << len(optionalNumbers)
	bitModel   = bitSlicer << 1
	bitPhotos  = bitSlicer << 2
	bitHistory = bitSlicer << 3
)

// fuzzAnswer is yes for true, else no or (with the mask's lowest bit) not sure.
func fuzzAnswer(yes bool, mask uint32) Answer {
	switch {
	case yes:
		return AnswerYes
	case mask&1 != 0:
		return AnswerUnsure
	}
	return AnswerNo
}

// fuzzRequest builds a request whose optional parts are present where mask
// has their bit. Number i is read from values[2i:2i+2] as tenths (-3276.8 to
// 3276.7), its typical value when values is shorter; wild replaces number
// wildAt, so NaN, infinities and huge values reach every field.
func fuzzRequest(category, desc, material, printer, model, question string, answer bool, history string,
	mask uint32, values []byte, wild float64, wildAt uint8) Request {
	req := Request{Category: category, Description: desc, Material: material, PrinterBrand: printer,
		Answers: map[string]Answer{question: fuzzAnswer(answer, mask)}}
	if mask&bitSlicer != 0 {
		req.Slicer = &SlicerSettings{Slicer: "Cura"}
	}
	for i, n := range optionalNumbers {
		if mask&(1<<i) == 0 || (req.Slicer == nil && strings.HasPrefix(n.name, "slicer.")) {
			continue
		}
		v := n.typical
		if len(values) >= 2*i+2 {
			v = float64(int16(binary.LittleEndian.Uint16(values[2*i:]))) / 10
		}
		if int(wildAt) == i {
			v = wild
		}
		n.set(&req, &v)
	}
	if mask&bitModel != 0 {
		req.PrinterModel = model
	}
	if mask&bitPhotos != 0 {
		req.Photos = []Photo{{MIMEType: "image/jpeg", Data: []byte{0xff, 0xd8}}}
	}
	if mask&bitHistory != 0 {
		var titles []string
		if history != "" {
			titles = strings.Split(history, "\n")
		}
		req.History = []PastFix{{Category: category, Description: desc, StepTitles: titles, ResolvedAt: "3 May"}}
	}
	return req
}

// FuzzAnalyze feeds the engine arbitrary descriptions, categories,
// materials, printers and answers, and every combination of present and
// absent settings, printer facts and sliced-file settings with any value: a
// maker's input is untrusted and a sliced file stores only the settings the
// maker changed. The engine must never panic and must always answer with
// steps whose titles fit the limits.
func FuzzAnalyze(f *testing.F) {
	const none = 255 // wildAt beyond every field
	for _, r := range benchRequests() {
		f.Add(r.Category, r.Description, r.Material, r.PrinterBrand, "", "same-height", true, "", uint32(0), []byte(nil), 0.0, uint8(none))
	}
	f.Add("other", "ÿ\x00\u202e\u0301\u0301\u0301 1,75mm ; : ( ) 210°C 20% ×", "pla", "ender-3", "v2", "one-axis", false, "Dried\n", ^uint32(0), []byte{1, 2, 3}, math.NaN(), uint8(3))
	f.Add("", strings.Repeat("strings ", 300), "", "", "", "", false, "", uint32(0), []byte(nil), 0.0, uint8(none))
	// Every field alone and every field missing, on a Bowden printer with a
	// material that warps, at typical values and at 0, 0.1 and 300.
	all := bitSlicer<<4 - 1
	for i := range len(optionalNumbers) + 4 {
		for _, v := range []float64{0, 0.1, 300} {
			for _, mask := range []uint32{1 << i, bitSlicer | 1<<i, all &^ (1 << i)} {
				f.Add("stringing", "strings and blobs between the towers", "ABS", "Creality Ender 3 V2", "Ender", "same-height", true,
					"Raised retraction", mask, []byte(nil), v, uint8(i))
			}
		}
		f.Add("stringing", "strings and blobs between the towers", "PLA", "Prusa MK4", "", "", false, "", bitSlicer|1<<i, []byte(nil), 0.0, uint8(none))
	}
	e := sharedEngine(f)
	f.Fuzz(func(t *testing.T, category, desc, material, printer, model, question string, answer bool, history string,
		mask uint32, values []byte, wild float64, wildAt uint8) {
		if len(desc) > 4000 {
			desc = desc[:4000]
		}
		if len(history) > 4000 {
			history = history[:4000]
		}
		req := fuzzRequest(category, desc, material, printer, model, question, answer, history, mask, values, wild, wildAt)
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
		if len(res.Questions) > max(maxQuestions, len(res.Answers)) {
			t.Fatalf("%d questions", len(res.Questions))
		}
		if got := e.Candidates(req, 5); len(got) != 5 {
			t.Fatalf("%d candidates, want 5", len(got))
		}
	})
}
