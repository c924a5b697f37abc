package ai

import (
	"io/fs"
	"strings"
	"testing"
	"testing/fstest"
)

// TestRealKnowledgeBaseLoads is the feedback loop for the knowledge-base
// writers: every embedded file must pass validation.
func TestRealKnowledgeBaseLoads(t *testing.T) {
	e := sharedEngine(t)
	if len(e.kb.materials) < 10 || len(e.kb.printers) < 30 {
		t.Errorf("materials %d, printers %d: want at least 10 and 30", len(e.kb.materials), len(e.kb.printers))
	}
	t.Logf("knowledge base: %d modes, %d materials, %d printers", len(e.kb.modes), len(e.kb.materials), len(e.kb.printers))
}

// TestRealKnowledgeBaseCoverage checks the minimum: 60 modes over all
// ten categories.
func TestRealKnowledgeBaseCoverage(t *testing.T) {
	e := sharedEngine(t)
	perCategory := map[string]int{}
	for _, m := range e.kb.modes {
		perCategory[m.Category]++
	}
	for _, c := range Categories {
		if perCategory[c] == 0 {
			t.Errorf("category %s has no failure modes", c)
		}
	}
	if len(e.kb.modes) < 60 {
		t.Errorf("%d failure modes, want at least 60", len(e.kb.modes))
	}
}

// realTables returns the embedded materials.json and printers.json, so
// fixture knowledge bases only need their own modes.
func realTables(t *testing.T) fstest.MapFS {
	t.Helper()
	m := fstest.MapFS{}
	for _, name := range []string{"materials.json", "printers.json"} {
		data, err := fs.ReadFile(kbFiles, "kb/"+name)
		if err != nil {
			t.Fatal(err)
		}
		m[name] = &fstest.MapFile{Data: data}
	}
	return m
}

const validMode = `{"id": "%s", "category": "stringing", "name": "Stringing", "summary": "Strings between parts.",
 "terms": ["stringing", "strings", "hairs", "wisps"], "causes": ["Too little retraction"],
 "fixes": [{"title": "Tune retraction", "description": "Test 0.5–2 mm."}, {"title": "Lower the temperature", "description": "By 5–10 °C."}],
 "sources": [{"title": "Guide", "url": "https://example.com/guide"}]}`

func TestKnowledgeBaseValidation(t *testing.T) {
	good := strings.Replace(validMode, "%s", "good-mode", 1)
	tests := []struct {
		name  string
		files map[string]string
		want  []string // all must appear in the error
	}{
		{"valid", map[string]string{"modes/stringing.json": "[" + good + "]"}, nil},
		{"duplicate id across files", map[string]string{
			"modes/a.json": "[" + good + "]",
			"modes/b.json": "[" + good + "]",
		}, []string{"modes/b.json", `"good-mode"`, "duplicate id", "modes/a.json"}},
		{"unknown category", map[string]string{"modes/x.json": "[" + strings.Replace(good, `"stringing", "name"`, `"strings", "name"`, 1) + "]"},
			[]string{"modes/x.json", `"good-mode"`, `unknown category "strings"`}},
		{"unknown condition", map[string]string{"modes/x.json": "[" + strings.Replace(good, `"description": "By 5–10 °C."`, `"description": "By 5–10 °C.", "when": ["nozzle_too_hot"]`, 1) + "]"},
			[]string{`"good-mode"`, `unknown condition "nozzle_too_hot"`}},
		{"unknown signal", map[string]string{"modes/x.json": "[" + strings.Replace(good, `"causes"`, `"signals": [{"when": "!bowdenn", "weight": 1}], "causes"`, 1) + "]"},
			[]string{`unknown condition "!bowdenn"`}},
		{"no sources", map[string]string{"modes/x.json": "[" + strings.Replace(good, `"sources": [{"title": "Guide", "url": "https://example.com/guide"}]`, `"sources": []`, 1) + "]"},
			[]string{`"good-mode"`, "at least one source"}},
		{"too few fixes", map[string]string{"modes/x.json": "[" + strings.Replace(good, `, {"title": "Lower the temperature", "description": "By 5–10 °C."}`, "", 1) + "]"},
			[]string{"needs 2–5 fixes, has 1"}},
		{"long title", map[string]string{"modes/x.json": "[" + strings.Replace(good, `"Tune retraction"`, `"`+strings.Repeat("x", 81)+`"`, 1) + "]"},
			[]string{"fix 0 title is longer than 80 characters"}},
		{"link in a title", map[string]string{"modes/x.json": "[" + strings.Replace(good, `"Tune retraction"`, `"Get the profile at www.example.com"`, 1) + "]"},
			[]string{"fix 0", "names an address or a domain"}},
		{"domain in a title", map[string]string{"modes/x.json": "[" + strings.Replace(good, `"Tune retraction"`, `"Flash the firmware from evil.example"`, 1) + "]"},
			[]string{"fix 0", "names an address or a domain"}},
		{"titles with one reference", map[string]string{"modes/x.json": "[" + strings.Replace(good, `"Lower the temperature"`, `"Tune retraction!"`, 1) + "]"},
			[]string{"fix 1: duplicate title"}},
		{"unknown field", map[string]string{"modes/x.json": "[" + strings.Replace(good, `"causes"`, `"fix": [], "causes"`, 1) + "]"},
			[]string{"modes/x.json", `unknown field "fix"`}},
		{"syntax error", map[string]string{"modes/x.json": "[\n" + good + ",\n]"},
			[]string{"modes/x.json", "line 6"}},
		{"few terms", map[string]string{"modes/x.json": "[" + strings.Replace(good, `"stringing", "strings", "hairs", "wisps"`, `"stringing"`, 1) + "]"},
			[]string{"at least 4 terms, has 1"}},
		{"weak term of stop words", map[string]string{"modes/x.json": "[" + strings.Replace(good, `"causes"`, `"weakTerms": ["the and"], "causes"`, 1) + "]"},
			[]string{`"good-mode"`, `weak term "the and" has only stop words`}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			fsys := realTables(t)
			for name, data := range tt.files {
				fsys[name] = &fstest.MapFile{Data: []byte(data)}
			}
			expectLoadError(t, fsys, tt.want)
		})
	}
}

// expectLoadError loads a knowledge base and checks that it fails with an
// error naming every want, or loads when want is nil.
func expectLoadError(t *testing.T, fsys fstest.MapFS, want []string) {
	t.Helper()
	_, err := newEngineFS(fsys, nil)
	if want == nil {
		if err != nil {
			t.Fatalf("unexpected error: %v", err)
		}
		return
	}
	if err == nil {
		t.Fatal("no error for a bad knowledge base")
	}
	for _, w := range want {
		if !strings.Contains(err.Error(), w) {
			t.Errorf("error %q does not mention %q", err, w)
		}
	}
}

func TestBadTablesRejected(t *testing.T) {
	fsys := realTables(t)
	fsys["printers.json"] = &fstest.MapFile{Data: []byte(`[{"id": "p", "names": ["p"], "extruder": "bowdn", "motion": "corexy"}]`)}
	fsys["materials.json"] = &fstest.MapFile{Data: []byte(`[{"id": "pla", "names": ["pla"], "nozzle": [230, 200], "bed": [60, 60], "maxSpeed": 100}]`)}
	_, err := newEngineFS(fsys, nil)
	if err == nil {
		t.Fatal("no error for bad printers and materials")
	}
	for _, w := range []string{`printers.json: printer "p"`, `extruder "bowdn"`, `materials.json: material "pla"`, "nozzle must be"} {
		if !strings.Contains(err.Error(), w) {
			t.Errorf("error %q does not mention %q", err, w)
		}
	}
}

// The hardware, electrical, firmware and host causes have first-class modes:
// a maker's own description of such a fault ranks that mode first, whatever
// tile was picked.
func TestHardwareAndFirmwareModes(t *testing.T) {
	e := sharedEngine(t)
	tests := []struct {
		category, desc, want string
	}{
		{"layer-quality", "Printing through OctoPrint on a Raspberry Pi the head hesitates on curves and leaves zits; the same file printed from the SD card is smooth.", "layer-host-stutter"},
		{"heating-issues", "Since I fitted a Revo hotend the display shows 100 degrees while the printer is cold, and an external thermometer says the nozzle is far hotter than the reading.", "heating-thermistor-type-config"},
		{"calibration", "The BLTouch deploys and retracts in mid air without ever touching the bed, then the printer reports probing failed.", "calibration-probe-fault"},
		{"mechanical-problems", "The Y motor hums and vibrates but does not turn, and when I swapped its cable with the X motor the fault moved to X.", "mechanical-motor-wiring"},
		{"heating-issues", "My printer lives in a cold garage and every morning in winter it stops with a MINTEMP error before it even heats.", "heating-cold-room"},
		{"extrusion-issues", "Since flashing the newest release of the firmware the extruder skips; nothing else changed and the previous firmware was fine.", "other-firmware-update-regression"},
		{"mechanical-problems", "Prints are fine at first, then the X axis shifts later in the print; the stepper drivers are very hot to the touch and the board fan does not spin.", "mechanical-electronics-overheat"},
		{"extrusion-issues", "After fitting a geared extruder it runs backwards: when it should feed filament it pulls it back out.", "extrusion-motor-direction"},
		{"other", "The filament runout sensor never pauses the print; the spool ran out and the printer carried on printing without filament.", "other-filament-sensor"},
		{"first-layer", "The start G-code runs and then the whole first layer is laid down in mid air, far above the bed.", "first-layer-prints-in-air"},
		{"other", "On firmware 3.1.1 the printer stops with a fan error on layer 2 every time; others on the same release see it too, it looks like a known bug.", "other-firmware-known-bug"},
		{"stringing", "Two colour print on my dual extruder: after every tool change there are hairs and blobs of the other colour all over the part.", "stringing-multimaterial-ooze"},
	}
	for _, tt := range tests {
		t.Run(tt.want, func(t *testing.T) {
			if got := topMode(t, e, Request{Category: tt.category, Description: tt.desc}); got != tt.want {
				t.Errorf("top mode %s, want %s", got, tt.want)
			}
			if got := topMode(t, e, Request{Category: "other", Description: tt.desc}); got != tt.want {
				t.Errorf("with the Other tile: top mode %s, want %s", got, tt.want)
			}
		})
	}
}

// A release number is a hint, not a symptom: a maker who names the firmware
// they run still gets the causes of the symptom they describe first.
func TestReleaseNumberDoesNotOutweighTheSymptom(t *testing.T) {
	e := sharedEngine(t)
	desc := "Thermal runaway on my MK4S on firmware 6.1.2, a fluke? It happened a second time while preheating. On the sensors page the hotend read -23 C, then 170, then -23 again, jumping around."
	for _, cat := range []string{"heating-issues", "other"} {
		if got := topMode(t, e, Request{Category: cat, Description: desc}); strings.HasPrefix(got, "other-firmware") {
			t.Errorf("%s: top mode %s for a temperature reading that jumps", cat, got)
		}
	}
}

func TestFixRef(t *testing.T) {
	for _, tt := range []struct{ mode, title, want string }{
		{"stringing-retraction", "Tune retraction distance and speed", "stringing-retraction/tune-retraction-distance-and-speed"},
		{"m", "Heat the nozzle to 150 °C until the bed is ready", "m/heat-the-nozzle-to-150-c-until-the-bed-is-ready"},
		{"m", "  Level the bed (tram the corners)!", "m/level-the-bed-tram-the-corners"},
		{"m", "Raise infill to 15–20 % and add top layers", "m/raise-infill-to-15-20-and-add-top-layers"},
	} {
		if got := fixRef(tt.mode, tt.title); got != tt.want {
			t.Errorf("fixRef(%q, %q) = %q, want %q", tt.mode, tt.title, got, tt.want)
		}
	}
}
