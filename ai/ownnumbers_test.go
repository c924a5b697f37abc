package ai

import (
	"context"
	"math"
	"math/rand"
	"slices"
	"strconv"
	"strings"
	"testing"
)

// Steps start from the maker's own numbers, and never suggest a value the
// form or the sliced file already has.
func TestOwnNumbers(t *testing.T) {
	e := sharedEngine(t)
	cases := []struct {
		name  string
		req   Request
		title string
		want  ownNumbers
	}{
		{"nozzle lowered from the maker's 245 °C", Request{Material: "PETG", NozzleTemp: num(245)}, "Lower the nozzle temperature by 5–10 °C",
			ownNumbers{title: "Lower the nozzle temperature to 235–240 °C", line: "You print at 245 °C: try 235–240 °C.", unit: "°C"}},
		{"the fix's own words after the numbers stay", Request{Material: "PLA", NozzleTemp: num(205)}, "Lower the nozzle temperature by 5–10 °C for slow prints",
			ownNumbers{title: "Lower the nozzle temperature to 195–200 °C for slow prints", line: "You print at 205 °C: try 195–200 °C.", unit: "°C"}},
		{"raised, kept inside the material's range", Request{Material: "PLA", NozzleTemp: num(215)}, "Raise the nozzle temperature by 5–10 °C",
			ownNumbers{title: "Raise the nozzle temperature to 220 °C", line: "You print at 215 °C: try 220 °C.", unit: "°C"}},
		{"at the bottom of the range: not lower", Request{Material: "PLA", NozzleTemp: num(190)}, "Lower the nozzle temperature by 5–10 °C",
			ownNumbers{title: "Lower the nozzle temperature by 5–10 °C", line: "You print at 190 °C.", unit: "°C", done: true}},
		{"bed", Request{Material: "PLA", BedTemp: num(65)}, "Lower the bed temperature by 5–10 °C",
			ownNumbers{title: "Lower the bed temperature to 55–60 °C", line: "Your bed is at 65 °C: try 55–60 °C.", unit: "°C"}},
		{"travel already at the range's start", Request{Slicer: &SlicerSettings{TravelSpeed: num(150)}}, "Increase travel speed to 150–250 mm/s",
			ownNumbers{title: "Increase travel speed to 200–250 mm/s", line: "Your sliced file travels at 150 mm/s: try 200–250 mm/s.", unit: "mm/s"}},
		{"travel below the range", Request{Slicer: &SlicerSettings{TravelSpeed: num(100)}}, "Increase travel speed to 150–250 mm/s",
			ownNumbers{title: "Increase travel speed to 150–250 mm/s", line: "Your sliced file travels at 100 mm/s: try 150–250 mm/s.", unit: "mm/s"}},
		{"travel already fast", Request{Slicer: &SlicerSettings{TravelSpeed: num(250)}}, "Increase travel speed to 150–250 mm/s",
			ownNumbers{title: "Increase travel speed to 150–250 mm/s", line: "Your sliced file travels at 250 mm/s.", unit: "mm/s", done: true}},
		{"outer walls inside the range", Request{Slicer: &SlicerSettings{WallSpeed: num(70)}}, "Slow the outer walls to 40–80 mm/s",
			ownNumbers{title: "Slow the outer walls to 40–55 mm/s", line: "Your sliced file prints outer walls at 70 mm/s: try 40–55 mm/s.", unit: "mm/s"}},
		{"outer walls already slow", Request{Slicer: &SlicerSettings{WallSpeed: num(35)}}, "Slow down the outer walls to 40–60 mm/s",
			ownNumbers{title: "Slow down the outer walls to 40–60 mm/s", line: "Your sliced file prints outer walls at 35 mm/s.", unit: "mm/s", done: true}},
		{"part fan already full", Request{Material: "PLA", Slicer: &SlicerSettings{FanSpeed: num(100)}}, "Increase part cooling to 100 % for PLA",
			ownNumbers{title: "Increase part cooling to 100 % for PLA", line: "Your sliced file runs the part fan at 100 %.", unit: "%", done: true}},
		{"part fan half", Request{Material: "PLA", Slicer: &SlicerSettings{FanSpeed: num(50)}}, "Increase part cooling (fan 100 % for PLA)",
			ownNumbers{title: "Increase part cooling (fan 100 % for PLA)", line: "Your sliced file runs the part fan at 50 %: try 100 %.", unit: "%"}},
		{"infill", Request{Infill: num(25)}, "Raise infill to 15–20 %",
			ownNumbers{title: "Raise infill to 15–20 %", line: "Your infill is 25 %.", unit: "%", done: true}},
		{"no target: the value is quoted", Request{PrintSpeed: num(120)}, "Reduce print speed and acceleration",
			ownNumbers{title: "Reduce print speed and acceleration", line: "You print at 120 mm/s.", unit: "mm/s"}},
		{"no value: the fix as it is", Request{Material: "PLA"}, "Lower the nozzle temperature by 5–10 °C",
			ownNumbers{title: "Lower the nozzle temperature by 5–10 °C"}},
		{"another setting", Request{NozzleTemp: num(245)}, "Increase travel speed to 150–250 mm/s",
			ownNumbers{title: "Increase travel speed to 150–250 mm/s"}},
		{"first-layer temperatures are not the print temperature", Request{NozzleTemp: num(200)}, "Raise first-layer temperatures by 5 °C",
			ownNumbers{title: "Raise first-layer temperatures by 5 °C"}},
	}
	for _, c := range cases {
		a := e.prepare(&c.req)
		got := a.facts.ownNumbers(&kbFix{Title: c.title, shape: shapeOfTitle(c.title)})
		got.amount, got.target = "", ""
		if got != c.want {
			t.Errorf("%s:\n got %+v\nwant %+v", c.name, got, c.want)
		}
		// Whether a fix applies is read from the numbers alone.
		for _, m := range e.kb.modes {
			for _, f := range m.Fixes {
				if own, r := a.facts.ownNumbers(&f), a.facts.ownRange(&f); own.done != r.done {
					t.Errorf("%s: %q is done %v by its numbers, %v by its words", c.name, f.Title, r.done, own.done)
				}
			}
		}
		a.release()
	}
}

// The whole analysis: a stringing report with the sliced file's travel at
// 150 mm/s and a 245 °C PETG print.
func TestStepsQuoteOwnNumbers(t *testing.T) {
	e := sharedEngine(t)
	req := Request{Category: "stringing", Description: "Long thin strings and wisps between the towers on every print",
		Material: "PETG", NozzleTemp: num(245), Slicer: &SlicerSettings{TravelSpeed: num(150)}}
	res, err := e.Analyze(context.Background(), req)
	if err != nil {
		t.Fatal(err)
	}
	var temp, travel bool
	for _, s := range res.Steps {
		text := s.Title + " " + s.Description
		if strings.Contains(text, "150–250") || strings.Contains(s.Title, "travel speed to 150") {
			t.Errorf("step suggests the file's own travel speed: %+v", s)
		}
		if strings.Contains(s.Title, "nozzle temperature") {
			temp = true
			if !strings.HasPrefix(s.Description, "You print at 245 °C: try 235–240 °C.") || strings.Contains(s.Description, "For PETG: try") {
				t.Errorf("temperature step does not start from 245 °C: %+v", s)
			}
		}
		if strings.Contains(s.Title, "travel speed") {
			travel = true
			if s.Title != "Increase travel speed to 200–250 mm/s" || !strings.HasPrefix(s.Description, "Your sliced file travels at 150 mm/s: try 200–250 mm/s. Set travel speed to 200–250 mm/s") {
				t.Errorf("travel step: %+v", s)
			}
		}
	}
	if !temp || !travel {
		t.Fatalf("the temperature and travel steps are expected here: %+v", res.Steps)
	}
}

// TestTitleShapesReadAtLoad: every fix of the knowledge base carries the
// shape of its title and the setting it raises or lowers, read when the
// engine loads.
func TestTitleShapesReadAtLoad(t *testing.T) {
	if sh := shapeOfTitle("Lower the nozzle temperature by 5–10 °C"); sh.set < 0 || !sh.down || sh.up || sh.amount == nil {
		t.Fatalf("a temperature title read as %+v", sh)
	}
	e := sharedEngine(t)
	n, directed := 0, 0
	for _, m := range e.kb.modes {
		for _, f := range m.Fixes {
			want := shapeOfTitle(f.Title)
			if f.shape == nil || f.shape.set != want.set || f.shape.down != want.down || f.shape.up != want.up || !slices.Equal(f.shape.amount, want.amount) ||
				f.shape.moves != want.moves || f.shape.lo != want.lo || f.shape.hi != want.hi || f.shape.relative != want.relative {
				t.Errorf("%q: shape %+v, its title reads %+v", f.Title, f.shape, want)
			}
			if want.set >= 0 {
				n++
			}
			if d, ok := directionOf(f.Title); f.direction != d || ok != (f.direction.quantity != "") {
				t.Errorf("%q: direction %+v, its title reads %+v", f.Title, f.direction, d)
			} else if ok {
				directed++
			}
		}
	}
	if n == 0 || directed == 0 {
		t.Fatalf("%d fix titles change one of the maker's settings, %d raise or lower one", n, directed)
	}
}

// The shortcuts of a fix's notes say what the plain forms say: a note
// written from its opening pieces and value is sentence(opening+v), and
// forLabel(p, l) is HasPrefix(p, "For "+l+":"), for values with and
// without end marks and with trailing (also non-ASCII) space.
func TestNoteShortcutsAreThePlainForms(t *testing.T) {
	prefixes := []string{"For PETG: ", "On a CoreXY printer: ", "For the Bowden extruder of Creality Ender 3 V2: "}
	values := []string{"4–6 mm", "4–6 mm.", "Try 5 mm!", "Really?", "ends in space  ", "ends in nbsp\u00a0", "tab\t", "", "   ", "x", "…"}
	for _, p := range prefixes {
		for _, v := range values {
			for _, split := range []int{0, 3, len(p)} {
				opening := []string{p[:split], p[split:]}
				if split == 3 {
					opening = []string{p[:1], p[1:3], p[3:]}
				}
				d := description{parts: 1}
				got := string(d.note([]byte("Before."), v, opening...))
				if want := "Before. " + sentence(p+v); got != want {
					t.Errorf("note(%q, %q) = %q, sentence gives %q", v, opening, got, want)
				}
			}
		}
	}
	for _, p := range []string{"For PETG: dry it", "For PETG dry it", "For PET: x", "For PETG:", "Fo", "For ", "For PETG-CF: x", ""} {
		for _, l := range []string{"PETG", "PET", ""} {
			if got, want := forLabel([]byte(p), l), strings.HasPrefix(p, "For "+l+":"); got != want {
				t.Errorf("forLabel(%q, %q) = %v, want %v", p, l, got, want)
			}
		}
	}
}

// A fix's description (with its notes and the maker's own numbers) and the
// summary are written in room on the stack and copied out once: one
// allocation each.
func TestStepTextIsCopiedOutOnce(t *testing.T) {
	if testing.CoverMode() != "" {
		t.Skip("coverage counters change what allocates")
	}
	e := sharedEngine(t)
	req := Request{Category: "stringing", Description: "Lots of thin strings between the two towers, PETG on my Ender 3",
		Material: "PETG", NozzleTemp: num(245), PrinterBrand: "Creality Ender 3 V2"}
	a := e.prepare(&req)
	defer a.release()
	own, notes := 0, 0
	for _, s := range a.ranked[:min(len(a.ranked), rankedModes)] {
		fixes := e.kb.modes[s.mode].Fixes
		for i := range fixes {
			f := &fixes[i]
			on := a.facts.ownNumbers(f)
			if on.line != "" {
				own++
			}
			if len(f.Values) > 0 {
				notes++
			}
			if n := testing.AllocsPerRun(20, func() { a.fixDescription(f, on) }); n > 1 {
				t.Errorf("the description of %q: %v allocations, want 1", f.Title, n)
			}
			if n := testing.AllocsPerRun(20, func() { a.facts.ownNumbers(f) }); n > 2 {
				t.Errorf("the own numbers of %q: %v allocations, want at most 2 (the line and the title)", f.Title, n)
			}
		}
	}
	if own == 0 || notes == 0 {
		t.Fatalf("%d fixes with the maker's own numbers, %d with notes: the request tests neither", own, notes)
	}
	_, rules := a.steps()
	if n := testing.AllocsPerRun(20, func() { a.summary(rules) }); n > 1 {
		t.Errorf("the summary: %v allocations, want 1", n)
	}
}

// fmtNum writes a number as the plain form does: whole numbers without a
// decimal point, others rounded to two decimals without trailing zeros.
func TestFmtNumIsThePlainForm(t *testing.T) {
	plain := func(v float64) string {
		if v == math.Trunc(v) {
			return strconv.FormatFloat(v, 'f', 0, 64)
		}
		s := strings.TrimRight(strconv.FormatFloat(v, 'f', 2, 64), "0")
		return strings.TrimSuffix(s, ".")
	}
	values := []float64{0, 1, -1, 0.5, 0.05, 0.005, 0.004, 0.001, 99.999, 99.995, 100.1, 1.75, 0.28, -0.001, 1e21, 1e-9,
		math.Inf(1), math.Inf(-1), math.NaN(), math.MaxFloat64, math.SmallestNonzeroFloat64}
	rnd := rand.New(rand.NewSource(1))
	for i := 0; i < 2000; i++ {
		values = append(values, math.Round(rnd.Float64()*100000)/1000, rnd.NormFloat64()*300)
	}
	for _, v := range values {
		if got, want := fmtNum(v), plain(v); got != want {
			t.Errorf("fmtNum(%v) = %q, want %q", v, got, want)
		}
	}
}

// The rule steps of settings inside the material's range, and a known
// printer's extruder note, are made without allocating: the ranges and
// notes they quote are written at load.
func TestRuleStepsAndNotesAreMadeAtLoad(t *testing.T) {
	if testing.CoverMode() != "" {
		t.Skip("coverage counters change what allocates")
	}
	e := sharedEngine(t)
	req := Request{Category: "stringing", Description: "Lots of thin strings between the two towers, PETG on my Ender 3",
		Material: "PETG", NozzleTemp: num(245), BedTemp: num(80), PrinterBrand: "Creality Ender 3 V2"}
	f := e.facts(&req)
	var room [8]ruleStep
	if rules := f.appendRuleSteps(room[:0]); len(rules) == 0 {
		t.Fatal("no rule step: the request tests nothing")
	}
	if n := testing.AllocsPerRun(20, func() { f.appendRuleSteps(room[:0]) }); n != 0 {
		t.Errorf("the rule steps: %v allocations, want 0", n)
	}
	for _, ext := range []string{"bowden", "direct"} {
		want := "Creality Ender 3 V2 has a " + map[string]string{"bowden": "Bowden", "direct": "direct-drive"}[ext] + " extruder"
		if got := (&facts{printer: f.printer, extruder: ext}).extruderNote(); got != want {
			t.Errorf("extruder note %q, want %q", got, want)
		}
		if n := testing.AllocsPerRun(20, func() {
			g := facts{printer: f.printer, extruder: ext}
			_ = g.extruderNote()
		}); n != 0 {
			t.Errorf("the %s extruder note: %v allocations, want 0", ext, n)
		}
	}
	if got := (&facts{extruder: "direct"}).extruderNote(); got != "Your printer has a direct-drive extruder" {
		t.Errorf("extruder note of an unknown printer %q", got)
	}
}
