package ai

import (
	"bytes"
	"fmt"
	"io/fs"
	"math"
	"regexp"
	"strconv"
	"strings"
	"sync"
	"unicode"
)

// Conditions and rules: what the engine derives from the maker's settings,
// material and printer, and the steps that quote the maker's own numbers.

// defaultNozzle is assumed when the nozzle size is unknown.
const defaultNozzle = 0.4

// referenceSpeed is the PLA speed (mm/s) of a stock bed-slinger that
// materials' maxSpeed values are written against; a printer with a higher
// maxSpeed scales them up.
const referenceSpeed = 150

// conditions lists every condition a mode may use in `when` and `signals`.
var conditions = map[string]func(f *facts) bool{
	"nozzle_temp_above_range": func(f *facts) bool { return f.mat != nil && f.num(f.req.NozzleTemp) > f.mat.Nozzle[1] },
	"nozzle_temp_below_range": func(f *facts) bool {
		return f.mat != nil && f.req.NozzleTemp != nil && *f.req.NozzleTemp > 0 && *f.req.NozzleTemp < f.mat.Nozzle[0]
	},
	"bed_temp_above_range": func(f *facts) bool { return f.mat != nil && f.num(f.req.BedTemp) > f.mat.Bed[1] },
	"bed_temp_below_range": func(f *facts) bool {
		return f.mat != nil && f.req.BedTemp != nil && *f.req.BedTemp < f.mat.Bed[0]
	},
	"bed_temp_zero":            func(f *facts) bool { return f.req.BedTemp != nil && *f.req.BedTemp == 0 },
	"layer_height_over_nozzle": func(f *facts) bool { return f.num(f.req.LayerHeight) > 0.8*f.nozzle+1e-9 },
	"layer_height_thin": func(f *facts) bool {
		return f.req.LayerHeight != nil && *f.req.LayerHeight > 0 && *f.req.LayerHeight < 0.25*f.nozzle-1e-9
	},
	"speed_high":               func(f *facts) bool { return f.num(f.req.PrintSpeed) > f.speedLimit() },
	"speed_low":                func(f *facts) bool { return f.req.PrintSpeed != nil && *f.req.PrintSpeed > 0 && *f.req.PrintSpeed < 20 },
	"infill_low":               func(f *facts) bool { return f.req.Infill != nil && *f.req.Infill < 10 },
	"infill_high":              func(f *facts) bool { return f.num(f.req.Infill) > 60 },
	"material_hygroscopic":     func(f *facts) bool { return f.mat != nil && f.mat.Hygroscopic },
	"material_flexible":        func(f *facts) bool { return f.mat != nil && f.mat.Flexible },
	"material_warps":           func(f *facts) bool { return f.mat != nil && f.mat.Warps },
	"material_needs_enclosure": func(f *facts) bool { return f.mat != nil && f.mat.Enclosure },
	"material_abrasive":        func(f *facts) bool { return f.mat != nil && f.mat.Abrasive },
	"bowden":                   func(f *facts) bool { return f.extruder == "bowden" },
	"direct_drive":             func(f *facts) bool { return f.extruder == "direct" },
	"bedslinger":               func(f *facts) bool { return f.motion == "bedslinger" || f.motion == "i3" },
	"corexy":                   func(f *facts) bool { return f.motion == "corexy" },
	"enclosed":                 func(f *facts) bool { return f.printer != nil && f.printer.Enclosed },
	"has_photos":               func(f *facts) bool { return len(f.req.Photos) > 0 },
	// From the sliced file.
	"retraction_short_bowden": func(f *facts) bool {
		l, ok := f.slicer(retractionLength)
		return ok && f.extruder == "bowden" && l < 2.5
	},
	"retraction_long_direct": func(f *facts) bool {
		l, ok := f.slicer(retractionLength)
		return ok && f.extruder == "direct" && l > 2.5
	},
	"fan_high_for_material": func(f *facts) bool {
		fan, ok := f.slicer(fanSpeed)
		return ok && f.mat != nil && f.mat.Warps && fan > 30
	},
}

func retractionLength(s *SlicerSettings) *float64 { return s.RetractionLength }
func fanSpeed(s *SlicerSettings) *float64         { return s.FanSpeed }

// slicer reads a setting of the sliced file; ok is false when there is no
// file or the file did not have the setting (a sliced file stores only the
// settings the maker changed), so an unknown setting never satisfies a
// comparison.
func (f *facts) slicer(get func(*SlicerSettings) *float64) (v float64, ok bool) {
	if f.req.Slicer == nil {
		return 0, false
	}
	if p := get(f.req.Slicer); p != nil {
		return *p, true
	}
	return 0, false
}

// knownCondition reports whether c (optionally prefixed with "!") is a condition.
func knownCondition(c string) bool {
	_, ok := conditions[strings.TrimPrefix(c, "!")]
	return ok
}

// facts is what the engine knows about one request beyond its text.
type facts struct {
	req      *Request
	mat      *material
	printer  *printer
	nozzle   float64 // mm
	extruder string  // "bowden", "direct" or ""
	motion   string  // "bedslinger", "i3", "corexy", "delta" or ""
}

func (f *facts) num(p *float64) float64 {
	if p == nil {
		return 0
	}
	return *p
}

// holds evaluates one condition; "!" negates, unknown inputs make it false
// (and its negation true).
func (f *facts) holds(c string) bool {
	if neg, ok := strings.CutPrefix(c, "!"); ok {
		return !f.holds(neg)
	}
	fn := conditions[c]
	return fn != nil && fn(f)
}

// all reports whether every condition holds.
func (f *facts) all(conds []string) bool {
	for _, c := range conds {
		if !f.holds(c) {
			return false
		}
	}
	return true
}

// severity (0–1) says how far off the setting behind a true condition is:
// 0.5 for conditions that are simply true or false, and for a condition that
// does not hold (its setting, material or printer unknown), so the
// arithmetic below only ever reads inputs its condition checked.
func (f *facts) severity(c string) float64 {
	if !f.holds(c) {
		return 0.5
	}
	return f.heldSeverity(c)
}

// heldSeverity is severity of a condition known to hold.
func (f *facts) heldSeverity(c string) float64 {
	r := f.req
	switch c {
	case "nozzle_temp_above_range":
		return clamp01((f.num(r.NozzleTemp) - f.mat.Nozzle[1]) / 20)
	case "nozzle_temp_below_range":
		return clamp01((f.mat.Nozzle[0] - f.num(r.NozzleTemp)) / 20)
	case "bed_temp_above_range":
		return clamp01((f.num(r.BedTemp) - f.mat.Bed[1]) / 15)
	case "bed_temp_below_range":
		return clamp01((f.mat.Bed[0] - f.num(r.BedTemp)) / 15)
	case "bed_temp_zero":
		return 1
	case "layer_height_over_nozzle":
		return clamp01((f.num(r.LayerHeight)/f.nozzle - 0.8) / 0.2)
	case "speed_high":
		return clamp01(f.num(r.PrintSpeed)/f.speedLimit() - 1)
	case "infill_low":
		return clamp01((10 - f.num(r.Infill)) / 10)
	}
	return 0.5
}

// speedLimit is the highest print speed (mm/s) that is usual for the
// material on this printer.
func (f *facts) speedLimit() float64 {
	limit := float64(referenceSpeed)
	if f.mat != nil {
		limit = f.mat.MaxSpeed
	}
	if f.printer != nil && f.printer.MaxSpeed > referenceSpeed {
		limit *= f.printer.MaxSpeed / referenceSpeed
	}
	return limit
}

func (m *material) label() string {
	if m.Label != "" {
		return m.Label
	}
	return strings.ToUpper(m.ID)
}

// printerName is the printer as the maker should read it.
func (f *facts) printerName() string { return printerName(f.printer) }

// printerName is p as the maker should read it; p may be nil.
func printerName(p *printer) string {
	if p != nil && p.Name != "" {
		return p.Name
	}
	return "your printer"
}

// PrinterMention says how the engine's texts may name the printer a maker
// entered as brand and model: the knowledge base's name for it and, for a
// model (not a whole brand), the other names makers use for it; none when
// it knows the printer not. brandIsMaker says whether brand alone is only a
// manufacturer's name that any guide may use ("Creality", "Prusa"), not a
// model or a name of the maker's own.
func PrinterMention(brand, model string) (names []string, brandIsMaker bool) {
	ps, err := kbPrinters()
	if err != nil {
		return nil, false
	}
	if p := findPrinter(ps, brand+" "+model); p != nil {
		names = append(names, p.Name)
		if !p.Generic {
			names = append(names, p.Names...)
		}
	}
	if c := compact(brand); c != "" {
		for _, p := range ps {
			if p.Generic && containsString(p.compactNames, c) {
				brandIsMaker = true
			}
		}
	}
	return names, brandIsMaker
}

// kbPrinters reads the embedded printer profiles once, for PrinterMention.
var kbPrinters = sync.OnceValues(func() ([]*printer, error) {
	sub, err := fs.Sub(kbFiles, "kb")
	if err != nil {
		return nil, err
	}
	var ps []*printer
	if err := decodeFile(sub, "printers.json", &ps); err != nil {
		return nil, err
	}
	for _, p := range ps {
		for _, n := range p.Names {
			p.compactNames = append(p.compactNames, compact(n))
		}
	}
	return ps, nil
})

// findMaterial returns the material whose longest name occurs as a word in
// text, or nil.
func findMaterial(mats []*material, text string) *material {
	text = strings.ToLower(text)
	var best *material
	bestLen := 0
	for _, m := range mats {
		for _, n := range m.Names {
			if len(n) > bestLen && containsWord(text, n) {
				best, bestLen = m, len(n)
			}
		}
	}
	return best
}

// findPrinter returns the printer with the longest name contained in text,
// comparing letters and digits only ("Ender-3 V2" matches "ender 3 v2").
// A model beats a generic brand entry whatever the lengths.
func findPrinter(printers []*printer, text string) *printer {
	c := compact(text)
	if c == "" {
		return nil
	}
	var best *printer
	bestLen := 0
	for _, p := range printers {
		for _, cn := range p.compactNames {
			l := len(cn)
			if !p.Generic {
				l += 1000
			}
			if l > bestLen && strings.Contains(c, cn) {
				best, bestLen = p, l
			}
		}
	}
	return best
}

// printerFinder finds what findPrinter finds in a compacted text.
func printerFinder(printers []*printer) *nameFinder {
	var names []foundName
	for pi, p := range printers {
		for _, cn := range p.compactNames {
			l := len(cn)
			if !p.Generic {
				l += 1000
			}
			names = append(names, foundName{name: cn, score: l, ref: pi})
		}
	}
	return newNameFinder(names, false)
}

// materialFinder finds what findMaterialInText finds in a lower-cased text.
func materialFinder(mats []*material) *nameFinder {
	return materialNameFinder(mats, func(n string) bool { return !ambiguousMaterialNames[n] })
}

// materialFieldFinder finds what findMaterial finds in a lower-cased text.
func materialFieldFinder(mats []*material) *nameFinder {
	return materialNameFinder(mats, func(string) bool { return true })
}

// materialNameFinder finds the material whose longest name that keep keeps
// stands as a word in a lower-cased text.
func materialNameFinder(mats []*material, keep func(string) bool) *nameFinder {
	var names []foundName
	for mi, m := range mats {
		for _, n := range m.Names {
			if keep(n) {
				names = append(names, foundName{name: n, score: len(n), ref: mi})
			}
		}
	}
	return newNameFinder(names, true)
}

// ambiguousMaterialNames are material names that are also ordinary words or
// too short to trust when found in a description rather than the material field.
var ambiguousMaterialNames = toSet("pa pc pp pet flex flexible wood silk glow 95a cheetah tpe")

// findMaterialInText looks for a material named in free text.
func findMaterialInText(mats []*material, text string) *material {
	text = strings.ToLower(text)
	var best *material
	bestLen := 0
	for _, m := range mats {
		for _, n := range m.Names {
			if len(n) > bestLen && !ambiguousMaterialNames[n] && containsWord(text, n) {
				best, bestLen = m, len(n)
			}
		}
	}
	return best
}

// ruleStep is a step built from the maker's own numbers. cond is the
// condition it answers (modes that signal it make it rank higher); severity
// (0–1) says how far off the setting is.
type ruleStep struct {
	cond     string // its concepts are ruleConcepts[cond]
	severity float64
	numeric  bool // the step quotes the maker's own numbers
	step     Step
	key      []string     // titleKey of the step's title when made at load; nil: not yet made
	opposes  fixDirection // mode fixes advising the opposite are dropped
}

// ruleRefs are the references of the rule steps (StepRefs), by condition.
var ruleRefs = func() map[string]string {
	m := make(map[string]string, len(conditions))
	for c := range conditions {
		m[c] = ruleRefPrefix + c
	}
	return m
}()

// ruleRef is the reference of the rule step that answers cond.
func ruleRef(cond string) string {
	if r, ok := ruleRefs[cond]; ok {
		return r
	}
	return ruleRefPrefix + cond
}

// fixDirection is a setting a fix title changes and which way.
type fixDirection struct {
	quantity string // "nozzle_temp", "bed_temp", "speed", "layer_height"
	up       bool
}

func fmtNum(v float64) string {
	var room [24]byte
	return string(appendNum(room[:0], v))
}

// appendNum appends v as fmtNum writes it: whole numbers without a
// decimal point, others with at most two decimals and no trailing zeros.
func appendNum(b []byte, v float64) []byte {
	if v == math.Trunc(v) {
		return strconv.AppendFloat(b, v, 'f', 0, 64)
	}
	start := len(b)
	b = strconv.AppendFloat(b, v, 'f', 2, 64)
	for len(b) > start && b[len(b)-1] == '0' {
		b = b[:len(b)-1]
	}
	if len(b) > start && b[len(b)-1] == '.' {
		b = b[:len(b)-1]
	}
	return b
}

func fmtRange(r []float64, unit string) string {
	return fmtNum(r[0]) + "–" + fmtNum(r[1]) + " " + unit
}

func clamp01(v float64) float64 {
	return math.Max(0, math.Min(1, v))
}

// dryStep is the step that dries a material that takes up water.
func dryStep(m *material) Step {
	dry := m.Dry
	if dry == "" {
		dry = "the maker's drying temperature for 4–8 h"
	}
	return Step{
		Title: fmt.Sprintf("Dry the %s filament", m.label()),
		Description: fmt.Sprintf("%s absorbs moisture from the air within days. Wet filament pops and hisses at the nozzle, strings, "+
			"foams and gives rough, weak parts. Dry it at %s (filament dryer or oven with a thermometer) and print from a dry box.", m.label(), dry),
	}
}

// ruleConcepts are, by the condition a rule step answers, the stems of fix
// titles that address the same setting.
var ruleConcepts = map[string][]string{
	"nozzle_temp_above_range":  {"temp", "hotter", "cooler"},
	"nozzle_temp_below_range":  {"temp", "hotter", "cooler"},
	"bed_temp_above_range":     {"bed"},
	"bed_temp_below_range":     {"bed"},
	"layer_height_over_nozzle": {"layer", "height"},
	"speed_high":               {"speed", "slow"},
	"material_hygroscopic":     {"dry", "moistur", "wet"},
	"material_flexible":        {"flexibl", "tpu", "slow"},
	"material_needs_enclosure": {"enclos", "draft"},
	"enclosed":                 {"creep", "chamber", "door", "lid"},
	"infill_low":               {"infill", "top"},
	"retraction_short_bowden":  {"retract"},
	"retraction_long_direct":   {"retract"},
	"fan_high_for_material":    {"fan", "cool"},
}

// ruleSteps returns the steps the request's own settings call for.
func (f *facts) ruleSteps() []ruleStep { return f.appendRuleSteps(nil) }

// appendRuleSteps appends ruleSteps to out.
func (f *facts) appendRuleSteps(out []ruleStep) []ruleStep {
	r := f.req
	if m := f.mat; m != nil && r.NozzleTemp != nil && *r.NozzleTemp > 0 {
		t := *r.NozzleTemp
		name, rng := m.label(), m.nozzleRange
		switch {
		case t > m.Nozzle[1]:
			out = append(out, ruleStep{
				cond: "nozzle_temp_above_range", severity: f.severity("nozzle_temp_above_range"), numeric: true,
				opposes: fixDirection{"nozzle_temp", true},
				step: Step{
					Title: fmt.Sprintf("Lower the nozzle temperature into the %s range (%s)", name, rng),
					Description: fmt.Sprintf("%s °C is above the usual %s range of %s. Too hot plastic oozes, strings and sags, "+
						"and can soften in the heat break. Print a temperature tower from %s °C down to %s °C in 5 °C steps and keep the coolest value that still bonds layers well.",
						fmtNum(t), name, rng, fmtNum(m.Nozzle[1]), fmtNum(m.Nozzle[0])),
				},
			})
		case t < m.Nozzle[0]:
			out = append(out, ruleStep{
				cond: "nozzle_temp_below_range", severity: f.severity("nozzle_temp_below_range"), numeric: true,
				opposes: fixDirection{"nozzle_temp", false},
				step: Step{
					Title: fmt.Sprintf("Raise the nozzle temperature into the %s range (%s)", name, rng),
					Description: fmt.Sprintf("%s °C is below the usual %s range of %s. Too cold plastic under-extrudes, grinds the filament "+
						"and gives weak layer bonding. Print a temperature tower from %s °C to %s °C in 5 °C steps; at high speed use the upper end.",
						fmtNum(t), name, rng, fmtNum(m.Nozzle[0]), fmtNum(m.Nozzle[1])),
				},
			})
		}
	}
	if m := f.mat; m != nil && r.BedTemp != nil {
		t := *r.BedTemp
		name, rng := m.label(), m.bedRange
		switch {
		case t > m.Bed[1]:
			out = append(out, ruleStep{
				cond: "bed_temp_above_range", severity: f.severity("bed_temp_above_range"), numeric: true,
				opposes: fixDirection{"bed_temp", true},
				step: Step{
					Title: fmt.Sprintf("Lower the bed temperature into the %s range (%s)", name, rng),
					Description: fmt.Sprintf("A %s °C bed is above the usual %s range of %s. A bed that is too hot keeps the first layers soft: "+
						"they bulge out (elephant's foot) and parts can stick or deform. Try %s °C.",
						fmtNum(t), name, rng, fmtNum((m.Bed[0]+m.Bed[1])/2)),
				},
			})
		case t < m.Bed[0]:
			out = append(out, ruleStep{
				cond: "bed_temp_below_range", severity: f.severity("bed_temp_below_range"), numeric: true,
				opposes: fixDirection{"bed_temp", false},
				step: Step{
					Title: fmt.Sprintf("Raise the bed temperature into the %s range (%s)", name, rng),
					Description: fmt.Sprintf("A %s °C bed is below the usual %s range of %s. A cold bed lets the first layer shrink and lift at the corners. "+
						"Set %s °C and let the bed soak for 5 minutes before printing.",
						fmtNum(t), name, rng, fmtNum((m.Bed[0]+m.Bed[1])/2)),
				},
			})
		}
	}
	if lh := f.num(r.LayerHeight); lh > 0.8*f.nozzle+1e-9 {
		maxLH := 0.8 * f.nozzle
		out = append(out, ruleStep{
			cond: "layer_height_over_nozzle", severity: f.severity("layer_height_over_nozzle"), numeric: true,
			opposes: fixDirection{"layer_height", true},
			step: Step{
				Title: fmt.Sprintf("Reduce the layer height to %s mm or less", fmtNum(math.Floor(maxLH*100)/100)),
				Description: fmt.Sprintf("%s mm layers are %.0f %% of the %s mm nozzle. Above about 80 %% of the nozzle diameter the nozzle can no longer "+
					"press each line onto the one below, so layers bond poorly and the hotend struggles to melt enough plastic. Use %s–%s mm layers with this nozzle, or fit a larger nozzle.",
					fmtNum(lh), 100*lh/f.nozzle, fmtNum(f.nozzle), fmtNum(math.Round(f.nozzle*25)/100), fmtNum(math.Floor(maxLH*100)/100)),
			},
		})
	}
	if s := f.num(r.PrintSpeed); s > 0 && s > f.speedLimit() {
		limit := f.speedLimit()
		mat := "this material"
		if f.mat != nil {
			mat = f.mat.label()
		}
		out = append(out, ruleStep{
			cond: "speed_high", severity: f.severity("speed_high"), numeric: true,
			opposes: fixDirection{"speed", true},
			step: Step{
				Title: fmt.Sprintf("Slow the print speed to %s mm/s or less", fmtNum(limit)),
				Description: fmt.Sprintf("%s mm/s is faster than %s usually prints on %s (up to about %s mm/s). The hotend cannot melt plastic that fast, "+
					"which shows as under-extrusion, weak layers and ringing. Print at %s mm/s, with outer walls at half that, and raise it again in 10 mm/s steps.",
					fmtNum(s), mat, f.printerName(), fmtNum(limit), fmtNum(math.Round(limit*0.8))),
			},
		})
	}
	if m := f.mat; m != nil && m.Hygroscopic {
		out = append(out, ruleStep{cond: "material_hygroscopic", severity: 0.3, step: m.dryStep, key: m.dryKey})
	}
	if m := f.mat; m != nil && m.Flexible && f.extruder == "bowden" {
		out = append(out, ruleStep{
			cond: "material_flexible", severity: 0.6,
			step: Step{
				Title: fmt.Sprintf("Print %s slowly on the Bowden extruder (15–25 mm/s)", m.label()),
				Description: fmt.Sprintf("%s has a Bowden extruder: soft %s compresses in the long tube, so it buckles, tangles at the extruder gear and strings. "+
					"Print at 15–25 mm/s, retract at most 1–2 mm slowly (20 mm/s) or not at all, and make sure the tube sits tight against the nozzle.",
					capitalize(f.printerName()), m.label()),
			},
		})
	}
	if m := f.mat; m != nil && m.Enclosure && !(f.printer != nil && f.printer.Enclosed) {
		out = append(out, ruleStep{
			cond: "material_needs_enclosure", severity: 0.5,
			step: Step{
				Title:       fmt.Sprintf("Enclose the printer for %s and stop drafts", m.label()),
				Description: fmt.Sprintf("%s shrinks a lot as it cools; on an open printer the upper layers cool fast, pull on the lower ones and crack or lift. Print inside an enclosure (a cardboard box or tent works) at 40–50 °C air, away from windows and fans, with the part fan at 0–20 %%.", m.label()),
			},
		})
	}
	if m := f.mat; m != nil && !m.Enclosure && m.Nozzle[1] <= 240 && f.printer != nil && f.printer.Enclosed {
		out = append(out, ruleStep{
			cond: "enclosed", severity: 0.5,
			step: Step{
				Title: fmt.Sprintf("Open the door or lid when printing %s", m.label()),
				Description: fmt.Sprintf("%s is enclosed: with the door and lid closed the chamber can pass 40 °C, which softens %s in the heat break "+
					"(heat creep, clogs) and keeps parts soft so they curl and sag. Print %s with the door open or the lid lifted a few centimetres.",
					capitalize(f.printerName()), m.label(), m.label()),
			},
		})
	}
	if r.Slicer != nil {
		out = append(out, f.slicerRules()...)
	}
	if inf := r.Infill; inf != nil && *inf < 10 {
		out = append(out, ruleStep{
			cond: "infill_low", severity: f.severity("infill_low"), numeric: true,
			step: Step{
				Title:       "Raise infill to 15–20 % and add top layers",
				Description: fmt.Sprintf("%s %% infill leaves long unsupported spans under the top surface, which sags and shows holes (pillowing). Use 15–20 %% infill and at least 5 top layers (about 1 mm of top shell).", fmtNum(*inf)),
			},
		})
	}
	return out
}

// slicerRules are the steps the sliced file's own settings call for.
func (f *facts) slicerRules() []ruleStep {
	var out []ruleStep
	l, _ := f.slicer(retractionLength)
	fan, _ := f.slicer(fanSpeed)
	if conditions["retraction_short_bowden"](f) {
		out = append(out, ruleStep{
			cond: "retraction_short_bowden", severity: clamp01((2.5 - l) / 2.5), numeric: true,
			step: Step{
				Title: fmt.Sprintf("Raise retraction to 4–6 mm for this Bowden extruder (the file has %s mm)", fmtNum(l)),
				Description: fmt.Sprintf("Your sliced file retracts %s mm, a direct-drive value. %s: the filament has to travel back through the Bowden tube, "+
					"so retraction usually needs 4–6 mm at 40–50 mm/s. Print a retraction tower from 3 to 7 mm in 1 mm steps and keep the shortest length without strings.",
					fmtNum(l), capitalize(f.printerName())),
			},
		})
	}
	if conditions["retraction_long_direct"](f) {
		out = append(out, ruleStep{
			cond: "retraction_long_direct", severity: clamp01((l - 2.5) / 3), numeric: true,
			step: Step{
				Title: fmt.Sprintf("Lower retraction to 0.5–2 mm for this direct-drive extruder (the file has %s mm)", fmtNum(l)),
				Description: fmt.Sprintf("Your sliced file retracts %s mm, a Bowden value. A direct-drive extruder needs 0.5–2 mm at 30–45 mm/s; "+
					"long retractions pull molten plastic into the cold zone, which causes clogs and gaps after travels.", fmtNum(l)),
			},
		})
	}
	if conditions["fan_high_for_material"](f) {
		out = append(out, ruleStep{
			cond: "fan_high_for_material", severity: clamp01((fan - 30) / 70), numeric: true,
			step: Step{
				Title: fmt.Sprintf("Lower the part fan to 0–20 %% for %s (the file has %s %%)", f.mat.label(), fmtNum(fan)),
				Description: fmt.Sprintf("%s shrinks as it cools: a part fan at %s %% pulls layers apart and lifts corners. Use 0–20 %% (up to 40 %% only for bridges) and keep drafts away.",
					f.mat.label(), fmtNum(fan)),
			},
		})
	}
	return out
}

// extruderNote says which extruder the printer has; "" when that is not
// known. A printer's notes are written at load.
func (f *facts) extruderNote() string {
	notes := &unknownPrinterNotes
	if f.printer != nil {
		notes = &f.printer.extruderNotes
	}
	switch f.extruder {
	case "bowden":
		return notes.bowden
	case "direct":
		return notes.direct
	}
	return ""
}

// extruderNotes are a printer's extruder notes, one per extruder type.
type extruderNotes struct{ bowden, direct string }

// unknownPrinterNotes are the extruder notes when the printer is unknown.
var unknownPrinterNotes = makeExtruderNotes(nil)

func makeExtruderNotes(p *printer) extruderNotes {
	name := capitalize(printerName(p))
	return extruderNotes{bowden: name + " has a Bowden extruder", direct: name + " has a direct-drive extruder"}
}

func capitalize(s string) string {
	if s == "" {
		return s
	}
	return strings.ToUpper(s[:1]) + s[1:]
}

// appendValueNotes appends to b, as parts of d, the parts of a fix's values
// map that apply to this request: the extruder type, motion system,
// enclosure and material.
func (f *facts) appendValueNotes(b []byte, d *description, values map[string]string) []byte {
	if len(values) == 0 {
		return b
	}
	switch f.extruder {
	case "direct":
		key := "direct_drive"
		if _, ok := values["direct"]; ok {
			key = "direct"
		}
		if v, ok := values[key]; ok {
			if f.printer != nil {
				b = d.note(b, v, "For the direct-drive extruder of ", f.printerName(), ": ")
			} else {
				b = d.note(b, v, "For a direct-drive extruder: ")
			}
		}
	case "bowden":
		if v, ok := values["bowden"]; ok {
			if f.printer != nil {
				b = d.note(b, v, "For the Bowden extruder of ", f.printerName(), ": ")
			} else {
				b = d.note(b, v, "For a Bowden extruder: ")
			}
		}
	}
	add := func(key, prefix string) {
		if v, ok := values[key]; ok {
			b = d.note(b, v, prefix)
		}
	}
	switch {
	case f.motion == "corexy":
		add("corexy", "On a CoreXY printer: ")
	case f.motion == "bedslinger" || f.motion == "i3":
		add("bedslinger", "On a bed-slinger: ")
	}
	if f.printer != nil {
		if f.printer.Enclosed {
			add("enclosed", "In an enclosed printer: ")
		} else {
			add("open", "On an open printer: ")
		}
	}
	if f.mat != nil {
		if v, ok := values[f.mat.ID]; ok {
			b = d.note(b, v, "For ", f.mat.label(), ": ")
		}
	}
	return b
}

// description is how a fix's description is written into a byte slice:
// parts joined by spaces. With the maker's own numbers (own.line, written
// first), a part after the first that gives the material's general range
// for the setting ("For PETG: … °C") goes, and every part says the maker's
// target where it repeated the title's amount.
type description struct {
	own   ownNumbers
	label string // the material's label; "" when none
	parts int    // parts kept, own.line not counted
	start int    // where the part being written starts
}

// begin starts a part at the end of b.
func (d *description) begin(b []byte) []byte {
	if d.parts > 0 || d.own.line != "" {
		b = append(b, ' ')
	}
	d.start = len(b)
	return b
}

// end finishes the part begun last, keeping the rules of the maker's own
// numbers.
func (d *description) end(b []byte) []byte {
	p := b[d.start:]
	if d.own.line != "" {
		if d.parts > 0 && d.label != "" && forLabel(p, d.label) && bytes.Contains(p, []byte(d.own.unit)) {
			return b[:d.start-1] // the part and its space go
		}
		if amount := d.own.amount; amount != "" && d.own.target != amount && bytes.Contains(p, []byte(amount)) {
			b = append(b[:d.start], strings.ReplaceAll(string(p), amount, d.own.target)...)
		}
	}
	d.parts++
	return b
}

// add appends the part made of pieces.
func (d *description) add(b []byte, pieces ...string) []byte {
	b = d.begin(b)
	for _, s := range pieces {
		b = append(b, s...)
	}
	return d.end(b)
}

// note appends the part that says value v after its opening (whose first
// piece starts with a letter), as a sentence: trailing space trimmed and a
// full stop added unless it ends in one of .!?
func (d *description) note(b []byte, v string, opening ...string) []byte {
	b = d.begin(b)
	for _, s := range opening {
		b = append(b, s...)
	}
	b = bytes.TrimRightFunc(append(b, v...), unicode.IsSpace)
	if !endsSentence(b[len(b)-1]) {
		b = append(b, '.')
	}
	return d.end(b)
}

// directionOf classifies a fix title that raises or lowers a setting.
func directionOf(title string) (fixDirection, bool) {
	t := strings.ToLower(title)
	var up bool
	switch {
	case hasAnyWord(t, "lower", "reduce", "decrease", "drop", "cut"):
		up = false
	case hasAnyWord(t, "raise", "increase", "higher", "hotter", "boost"):
		up = true
	default:
		return fixDirection{}, false
	}
	switch {
	case strings.Contains(t, "bed temp") || strings.Contains(t, "bed temperature"):
		return fixDirection{"bed_temp", up}, true
	case strings.Contains(t, "temp"):
		return fixDirection{"nozzle_temp", up}, true
	case strings.Contains(t, "layer height"):
		return fixDirection{"layer_height", up}, true
	case strings.Contains(t, "print speed"):
		return fixDirection{"speed", up}, true
	}
	return fixDirection{}, false
}

func hasAnyWord(text string, ws ...string) bool {
	for _, w := range ws {
		if containsWord(text, w) {
			return true
		}
	}
	return false
}

// ownSetting is a setting a knowledge-base fix changes and where the
// maker's form or sliced file gives its current value, so the step can
// start from that value instead of a general range.
type ownSetting struct {
	says  string   // how a step quotes the value, which follows: "You print at "
	unit  string   // the unit of the value and of the title's numbers
	words []string // the fix title names the setting by one of these…
	not   []string // …and by none of these
	value func(f *facts) *float64
	usual func(m *material) []float64 // the material's usual range; nil: none
}

var ownSettings = []ownSetting{
	{says: "Your bed is at ", unit: "°C", words: []string{"bed temperature"},
		value: func(f *facts) *float64 { return f.req.BedTemp }, usual: func(m *material) []float64 { return m.Bed }},
	{says: "You print at ", unit: "°C", words: []string{"nozzle temperature"}, not: []string{"first-layer", "first layer"},
		value: func(f *facts) *float64 { return f.req.NozzleTemp }, usual: func(m *material) []float64 { return m.Nozzle }},
	{says: "Your sliced file travels at ", unit: "mm/s", words: []string{"travel speed"},
		value: func(f *facts) *float64 {
			return slicerValue(f, func(s *SlicerSettings) *float64 { return s.TravelSpeed })
		}},
	{says: "Your sliced file prints outer walls at ", unit: "mm/s", words: []string{"outer wall"}, not: []string{"acceleration", "jerk"},
		value: func(f *facts) *float64 {
			return slicerValue(f, func(s *SlicerSettings) *float64 { return s.WallSpeed })
		}},
	{says: "Your sliced file prints the first layer at ", unit: "mm/s", words: []string{"slow the first layer to"},
		value: func(f *facts) *float64 {
			return slicerValue(f, func(s *SlicerSettings) *float64 { return s.FirstLayerSpeed })
		}},
	{says: "Your sliced file runs the part fan at ", unit: "%", words: []string{"part cooling", "part fan"}, not: []string{"bridge"},
		value: func(f *facts) *float64 { return slicerValue(f, fanSpeed) }},
	{says: "Your infill is ", unit: "%", words: []string{"infill"},
		value: func(f *facts) *float64 { return f.req.Infill }},
	{says: "Your sliced file accelerates at ", unit: "mm/s²", words: []string{"acceleration"}, not: []string{"print speed"},
		value: func(f *facts) *float64 {
			return slicerValue(f, func(s *SlicerSettings) *float64 { return s.Acceleration })
		}},
	{says: "You print at ", unit: "mm/s", words: []string{"print speed"},
		value: func(f *facts) *float64 { return f.req.PrintSpeed }},
}

// slicerValue is a setting of the sliced file as slicer reads it; nil when
// there is no file or the file did not have the setting.
func slicerValue(f *facts, get func(*SlicerSettings) *float64) *float64 {
	if f.req.Slicer == nil {
		return nil
	}
	return get(f.req.Slicer)
}

// ownNumbers is a fix as this request's own numbers make it.
type ownNumbers struct {
	title  string // the title with the maker's target: "Lower the nozzle temperature to 235–240 °C"
	line   string // the value and the target: "You print at 245 °C: try 235–240 °C."
	unit   string
	done   bool   // the setting already is where the fix would take it: no step
	amount string // the title's own amount the target replaces ("150–250 mm/s"); "" when none
	target string // the target ("200–250 mm/s")
}

var (
	titleAmount = regexp.MustCompile(`(?i)\b(?:(by|to)\s+)?(\d+(?:\.\d+)?)(?:\s*[–-]\s*(\d+(?:\.\d+)?))?\s*(°C|mm/s²|mm/s|%)`)
	downWords   = []string{"lower", "reduce", "decrease", "drop", "cut", "slow", "down", "off"}
	upWords     = []string{"raise", "increase", "higher", "hotter", "boost"}
)

// ownNumbers starts a fix that changes one of the maker's settings from the
// maker's own value: "Lower the nozzle temperature by 5–10 °C" at 245 °C
// becomes "…to 235–240 °C", quoted as "You print at 245 °C: try 235–240 °C."
// A fix that would set a value the maker already has (travel at 150 mm/s
// and "Increase travel speed to 150–250 mm/s" becomes 200–250 mm/s; travel
// at 250 mm/s: no step), or that would leave the material's usual range, is
// done. Other fixes come back as they are.
func (f *facts) ownNumbers(fix *kbFix) ownNumbers {
	title := fix.Title
	out := ownNumbers{title: title}
	r := f.ownRange(fix)
	if r.set == nil {
		return out
	}
	out.unit = r.set.unit
	// The line is written on the stack; the target is a part of it.
	var room [96]byte
	line := appendNum(append(room[:0], r.set.says...), r.cur)
	line = append(append(line, ' '), r.set.unit...)
	if r.done || r.m == nil {
		out.line = string(append(line, '.'))
		out.done = r.done
		return out
	}
	lo, hi, m := r.lo, r.hi, r.m
	line = append(line, ": try "...)
	from := len(line)
	line = appendNum(line, lo)
	if lo != hi {
		line = appendNum(append(line, "–"...), hi)
	}
	line = append(append(line, ' '), r.set.unit...)
	target := line[from:]
	out.line = string(append(line, '.'))
	if r.relative {
		out.title = title[:m[0]] + "to " + string(target) + title[m[1]:]
	} else if amount := title[m[4]:m[1]]; amount != string(target) {
		out.title = title[:m[4]] + string(target) + title[m[1]:]
		out.amount, out.target = amount, string(target)
	}
	return out
}

// ownRange is the arithmetic of ownNumbers, without its words.
type ownRange struct {
	set      *ownSetting // nil: the title changes none of the maker's values
	cur      float64     // the maker's value
	m        []int       // the title's amount (titleAmount's indexes); nil: none to move
	lo, hi   float64     // the target
	relative bool        // the title moves the value by its amount
	done     bool
}

// ownRange is ownRange of a fix; its title's shape is read when the
// knowledge base loads.
func (f *facts) ownRange(fix *kbFix) (r ownRange) {
	sh := fix.shape
	if sh.set < 0 {
		return r
	}
	set := &ownSettings[sh.set]
	p := set.value(f)
	if p == nil || *p < 0 || math.IsNaN(*p) || math.IsInf(*p, 0) {
		return r
	}
	cur := *p
	r.set, r.cur = set, cur
	if !sh.moves {
		return r
	}
	down, up, m := sh.down, sh.up, sh.amount
	lo, hi, relative := sh.lo, sh.hi, sh.relative
	switch {
	case relative && down:
		lo, hi = cur-hi, cur-lo
	case relative:
		lo, hi = cur+lo, cur+hi
	case up && cur >= hi, down && cur <= lo:
		r.done = true // already there, or past it
		return r
	case up && cur >= lo:
		lo = math.Min(hi, roundTo(cur+(hi-cur)/2, 5, true))
	case down && cur <= hi:
		hi = math.Max(lo, roundTo(cur-(cur-lo)/2, 5, false))
	}
	if set.usual != nil && f.mat != nil {
		usual := set.usual(f.mat)
		if down && hi < usual[0] || up && lo > usual[1] {
			r.done = true // the maker is at the edge of the material's range already
			return r
		}
		lo, hi = math.Max(lo, usual[0]), math.Min(hi, usual[1])
	}
	r.m, r.lo, r.hi, r.relative = m, lo, hi, relative
	return r
}

// titleShape is what ownNumbers reads from a fix title alone: which setting
// it changes, its direction and where its amount is. Each knowledge-base
// fix's title is read once, when the knowledge base loads (kbFix.shape).
type titleShape struct {
	set      int // index in ownSettings, -1 when the title changes none
	down, up bool
	amount   []int // titleAmount's submatch indexes, nil when none
	// moves: the title moves the setting one way by or to its amount,
	// in the setting's unit; lo and hi are the amount, relative says "by".
	moves    bool
	lo, hi   float64
	relative bool
}

func shapeOfTitle(title string) *titleShape {
	sh := &titleShape{set: -1}
	lower := strings.ToLower(title)
	for i := range ownSettings {
		s := &ownSettings[i]
		if containsAny(lower, s.words) && !containsAny(lower, s.not) {
			sh.set = i
			break
		}
	}
	if sh.set >= 0 {
		sh.down, sh.up = hasAnyWord(lower, downWords...), hasAnyWord(lower, upWords...)
		sh.amount = titleAmount.FindStringSubmatchIndex(title)
	}
	m := sh.amount
	if m == nil || sh.down == sh.up || title[m[8]:m[9]] != ownSettings[sh.set].unit {
		return sh
	}
	a, _ := strconv.ParseFloat(title[m[4]:m[5]], 64)
	b := a
	if m[6] >= 0 {
		b, _ = strconv.ParseFloat(title[m[6]:m[7]], 64)
	}
	sh.moves, sh.lo, sh.hi = true, math.Min(a, b), math.Max(a, b)
	sh.relative = m[2] >= 0 && strings.EqualFold(title[m[2]:m[3]], "by") || m[2] < 0 && ownSettings[sh.set].unit == "°C"
	return sh
}

// roundTo rounds v to a multiple of step, up or down.
func roundTo(v, step float64, up bool) float64 {
	if up {
		return math.Ceil(v/step) * step
	}
	return math.Floor(v/step) * step
}

// applies reports whether a knowledge-base fix is a step for this request:
// its conditions hold and the maker's own numbers do not already do it.
func (f *facts) applies(fix *kbFix) bool {
	if !f.all(fix.When) {
		return false
	}
	return !f.ownRange(fix).done
}

// forLabel reports whether p starts "For <label>:".
func forLabel(p []byte, label string) bool {
	rest, ok := bytes.CutPrefix(p, []byte("For "))
	return ok && len(rest) > len(label) && string(rest[:len(label)]) == label && rest[len(label)] == ':'
}
