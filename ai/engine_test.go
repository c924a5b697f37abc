package ai

import (
	"context"
	"os"
	"path/filepath"
	"reflect"
	"regexp"
	"slices"
	"strings"
	"testing"
	"testing/fstest"
)

// fixtureEngine is an engine over the small modes of testdata/fixture and
// the real materials and printers, so behaviour tests do not depend on the
// knowledge base that is still being written.
func fixtureEngine(t *testing.T) *Engine {
	t.Helper()
	fsys := realTables(t)
	files, err := filepath.Glob("testdata/fixture/modes/*.json")
	if err != nil || len(files) == 0 {
		t.Fatalf("no fixture modes: %v", err)
	}
	for _, f := range files {
		data, err := os.ReadFile(f)
		if err != nil {
			t.Fatal(err)
		}
		fsys["modes/"+filepath.Base(f)] = &fstest.MapFile{Data: data}
	}
	e, err := newEngineFS(fsys, nil)
	if err != nil {
		t.Fatalf("fixture engine: %v", err)
	}
	return e
}

func num(v float64) *float64 { return &v }

func analyze(t *testing.T, e *Engine, req Request) *Result {
	t.Helper()
	res, err := e.Analyze(context.Background(), req)
	if err != nil {
		t.Fatalf("Analyze: %v", err)
	}
	checkShape(t, res)
	return res
}

// checkShape asserts the contract of a result: 3–8 steps, most likely first
// and high, short unique titles, known priorities, 2–6 tips.
func checkShape(t *testing.T, res *Result) {
	t.Helper()
	if strings.TrimSpace(res.Summary) == "" {
		t.Error("empty summary")
	}
	if n := len(res.Steps); n < 3 || n > 8 {
		t.Errorf("%d steps, want 3–8", n)
	}
	seen := map[string]bool{}
	for i, s := range res.Steps {
		if s.Title == "" || len([]rune(s.Title)) > 80 {
			t.Errorf("step %d title %q: empty or longer than 80", i, s.Title)
		}
		if seen[strings.ToLower(s.Title)] {
			t.Errorf("duplicate step title %q", s.Title)
		}
		seen[strings.ToLower(s.Title)] = true
		if s.Description == "" {
			t.Errorf("step %q has no description", s.Title)
		}
		if s.Priority != PriorityHigh && s.Priority != PriorityMedium && s.Priority != PriorityLow {
			t.Errorf("step %q priority %q", s.Title, s.Priority)
		}
	}
	if len(res.Steps) > 0 && res.Steps[0].Priority != PriorityHigh {
		t.Errorf("first step priority %q, want high", res.Steps[0].Priority)
	}
	if n := len(res.AdditionalTips); n < 2 || n > 6 {
		t.Errorf("%d tips, want 2–6", n)
	}
}

func topMode(t *testing.T, e *Engine, req Request) string {
	t.Helper()
	c := e.Candidates(req, 1)
	if len(c) == 0 {
		t.Fatal("no candidates")
	}
	return c[0].ID
}

func TestSlangAndMisspellings(t *testing.T) {
	e := fixtureEngine(t)
	tests := []struct {
		desc string
		want string
	}{
		{"woke up to a huge spagetti mess on the bed", "fx-spaghetti"},
		{"my prints wont stick to the bed at all", "fx-not-sticking"},
		{"my prints won't stick to the glass", "fx-not-sticking"},
		{"it doesn't stick, the nozzle drags it around", "fx-not-sticking"},
		{"every part has an elefant foot at the bottom", "fx-elephant-foot"},
		{"small zits all over the outer wall", "fx-blobs"},
		{"lots of strining and the print looks hairy", "fx-stringing"},
		{"the layers shiftd sideways halfway up", "fx-layer-shift"},
		{"the filament is poping and crackeling at the nozzle", "fx-wet"},
	}
	for _, tt := range tests {
		t.Run(tt.desc, func(t *testing.T) {
			if got := topMode(t, e, Request{Category: "other", Description: tt.desc}); got != tt.want {
				t.Errorf("top mode %s, want %s", got, tt.want)
			}
		})
	}
}

func TestDescriptionBeatsWrongCategory(t *testing.T) {
	e := fixtureEngine(t)
	for _, category := range []string{"other", "first-layer", "mechanical-problems", "heating-issues", ""} {
		req := Request{Category: category, Description: "thin strings and hairs between the towers of my print"}
		if got := topMode(t, e, req); got != "fx-stringing" {
			t.Errorf("category %q: top mode %s, want fx-stringing", category, got)
		}
		res := analyze(t, e, req)
		if !strings.Contains(res.Steps[0].Title, "retraction") {
			t.Errorf("category %q: first step %q, want the retraction fix", category, res.Steps[0].Title)
		}
	}
}

func TestCategoryDecidesWithoutEvidence(t *testing.T) {
	e := fixtureEngine(t)
	for _, category := range []string{"mechanical-problems", "first-layer", "layer-quality"} {
		req := Request{Category: category, Description: "the print failed again and I do not know why"}
		c := e.Candidates(req, 1)
		if c[0].Category != category {
			t.Errorf("category %s: top mode %s in %s", category, c[0].ID, c[0].Category)
		}
		res := analyze(t, e, req)
		if !strings.Contains(res.Summary, "did not clearly match") {
			t.Errorf("summary %q does not say the description matched nothing", res.Summary)
		}
	}
}

func TestRuleStepsQuoteTheMakersNumbers(t *testing.T) {
	e := fixtureEngine(t)
	tests := []struct {
		name    string
		req     Request
		title   string // regexp a step title must match
		desc    string // text that step's description must contain
		maxRank int    // the step must be among the first maxRank steps
	}{
		{"PLA far too hot for stringing",
			Request{Description: "strings everywhere", Material: "PLA", NozzleTemp: num(245)},
			`(?i)lower the nozzle temperature`, "245 °C is above the usual PLA range of 190–220 °C", 1},
		{"PLA slightly too hot",
			Request{Description: "strings everywhere", Material: "PLA", NozzleTemp: num(225)},
			`(?i)lower the nozzle temperature`, "225 °C is above the usual PLA range of 190–220 °C", 3},
		{"PETG too cold",
			Request{Description: "weak layers that split apart", Material: "PETG", NozzleTemp: num(200)},
			`(?i)raise the nozzle temperature into the PETG range`, "200 °C is below the usual PETG range of 220–250 °C", 2},
		{"layer height over 80 % of the nozzle",
			Request{Description: "layer separation on tall parts", Material: "PLA", LayerHeight: num(0.36), NozzleSize: num(0.4)},
			`(?i)reduce the layer height to 0\.32 mm`, "0.36 mm layers are 90 % of the 0.4 mm nozzle", 2},
		{"ABS on a cold bed",
			Request{Description: "prints wont stick", Material: "ABS", BedTemp: num(60)},
			`(?i)raise the bed temperature into the ABS range`, "A 60 °C bed is below the usual ABS range of 90–110 °C", 2},
		{"PLA bed too hot with elephant foot",
			Request{Description: "elephant foot on every print", Material: "PLA", BedTemp: num(85)},
			`(?i)lower the bed temperature`, "A 85 °C bed is above the usual PLA range of 50–65 °C", 2},
		{"too fast on a bed-slinger",
			Request{Description: "layers shifted halfway", Material: "PLA", PrintSpeed: num(300), PrinterBrand: "Creality Ender 3"},
			`(?i)slow the print speed to 150 mm/s`, "300 mm/s is faster than PLA usually prints on Creality Ender 3", 2},
		{"wet nylon",
			Request{Description: "popping noises and bubbles", Material: "Nylon"},
			`(?i)dry the (nylon )?filament`, "", 1},
		{"infill too low",
			Request{Description: "holes in the top surface", Material: "PLA", Infill: num(5)},
			`(?i)raise infill`, "5 % infill", 8},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			res := analyze(t, e, tt.req)
			re := regexp.MustCompile(tt.title)
			for i, s := range res.Steps {
				if !re.MatchString(s.Title) {
					continue
				}
				if i >= tt.maxRank {
					t.Errorf("step %q at rank %d, want within %d; steps %v", s.Title, i+1, tt.maxRank, titles(res))
				}
				if !strings.Contains(s.Description, tt.desc) {
					t.Errorf("step %q description %q does not contain %q", s.Title, s.Description, tt.desc)
				}
				return
			}
			t.Errorf("no step matches %s; steps %v", tt.title, titles(res))
		})
	}
}

func TestNoRuleStepWithinRange(t *testing.T) {
	e := fixtureEngine(t)
	res := analyze(t, e, Request{Description: "strings everywhere", Material: "PLA", NozzleTemp: num(205), BedTemp: num(60), LayerHeight: num(0.2)})
	for _, s := range res.Steps {
		if strings.Contains(s.Description, "usual PLA range") || strings.Contains(s.Title, "layer height") {
			t.Errorf("unexpected rule step %q for settings within range", s.Title)
		}
	}
	if strings.Contains(res.Summary, "°C is") {
		t.Errorf("summary quotes a temperature problem that does not exist: %q", res.Summary)
	}
}

func TestConflictingModeFixDropped(t *testing.T) {
	e := fixtureEngine(t)
	// A PLA nozzle at 180 °C is too cold: the stringing mode's "lower the
	// temperature" fix must give way to the rule that raises it.
	res := analyze(t, e, Request{Description: "strings everywhere", Material: "PLA", NozzleTemp: num(180)})
	for _, s := range res.Steps {
		if strings.HasPrefix(s.Title, "Lower the nozzle temperature") {
			t.Errorf("step %q contradicts the 180 °C PLA rule; steps %v", s.Title, titles(res))
		}
	}
}

func TestRetractionAdviceFollowsExtruder(t *testing.T) {
	e := fixtureEngine(t)
	tests := []struct {
		printer, want, notWant string
	}{
		{"Creality Ender 3 V2", "Bowden extruder of Creality Ender 3 V2: 4–6 mm at 45 mm/s", "0.5–2 mm"},
		{"Prusa MK4", "direct-drive extruder of Original Prusa MK4: 0.5–2 mm at 35 mm/s", "4–6 mm"},
		{"Bambu Lab P1S", "direct-drive extruder of Bambu Lab P1S", "4–6 mm"},
		{"Prusa Mini+", "Bowden extruder of Original Prusa MINI+", "0.5–2 mm"},
	}
	for _, tt := range tests {
		t.Run(tt.printer, func(t *testing.T) {
			res := analyze(t, e, Request{Description: "stringing between parts", PrinterBrand: tt.printer})
			for _, s := range res.Steps {
				if strings.Contains(s.Title, "retraction") {
					if !strings.Contains(s.Description, tt.want) || strings.Contains(s.Description, tt.notWant) {
						t.Errorf("description %q: want %q and not %q", s.Description, tt.want, tt.notWant)
					}
					return
				}
			}
			t.Errorf("no retraction step in %v", titles(res))
		})
	}
}

func TestPrinterAndMaterialLookup(t *testing.T) {
	e := fixtureEngine(t)
	printers := map[string]string{
		"Creality Ender 3 V2": "ender-3-v2", "ender-3": "ender-3", "Ender3 S1 Pro": "ender-3-s1",
		"Prusa i3 MK3S+": "prusa-mk3", "Prusa": "prusa-generic", "Bambu Lab A1 mini": "bambu-a1-mini",
		"Bambu A1": "bambu-a1", "Voron 2.4r2": "voron-2-4", "Sovol SV06": "sovol-sv06", "Qidi X-Plus 3": "qidi",
		"Anycubic Kobra 2 Neo": "kobra", "Elegoo Neptune 4 Pro": "neptune-4", "Artillery Sidewinder X2": "artillery-sidewinder",
	}
	for text, want := range printers {
		p := findPrinter(e.kb.printers, text)
		if p == nil || p.ID != want {
			t.Errorf("printer %q: got %v, want %s", text, p, want)
		}
	}
	if p := findPrinter(e.kb.printers, "my homemade thing"); p != nil {
		t.Errorf("unknown printer matched %s", p.ID)
	}
	materials := map[string]string{
		"PLA": "pla", "pla+": "pla-plus", "eSun PLA+": "pla-plus", "PETG": "petg", "Silk PLA": "silk-pla",
		"TPU 95A": "tpu", "PA6-CF": "nylon", "ABS": "abs", "PLA-CF": "pla-cf",
	}
	for text, want := range materials {
		m := findMaterial(e.kb.materials, text)
		if m == nil || m.ID != want {
			t.Errorf("material %q: got %v, want %s", text, m, want)
		}
	}
	if m := findMaterialInText(e.kb.materials, "the gantry has some flex and my pc crashed"); m != nil {
		t.Errorf("ordinary words matched material %s", m.ID)
	}
}

func TestPhotosNoteInSummary(t *testing.T) {
	e := fixtureEngine(t)
	req := Request{Description: "strings everywhere on my print"}
	if res := analyze(t, e, req); strings.Contains(res.Summary, "not analysed") {
		t.Errorf("summary mentions photos without photos: %q", res.Summary)
	}
	req.Photos = []Photo{{MIMEType: "image/jpeg", Data: []byte{1}}, {MIMEType: "image/png", Data: []byte{2}}}
	res := analyze(t, e, req)
	if !strings.Contains(res.Summary, "2 attached photos were not analysed") {
		t.Errorf("summary %q does not say the photos were not analysed", res.Summary)
	}
}

func TestSummaryExplainsTheDiagnosis(t *testing.T) {
	e := fixtureEngine(t)
	res := analyze(t, e, Request{Description: "hairy print with wisps", Material: "PLA", NozzleTemp: num(240), PrinterBrand: "Ender 3"})
	for _, want := range []string{"stringing between parts", `"hairy"`, `"wisps"`, "240 °C is above the usual PLA range", "Bowden extruder"} {
		if !strings.Contains(res.Summary, want) {
			t.Errorf("summary %q does not contain %q", res.Summary, want)
		}
	}
}

func TestHistoryFixFirst(t *testing.T) {
	e := fixtureEngine(t)
	past := PastFix{
		Category:    "stringing",
		Description: "strings between the parts after changing the spool",
		StepTitles:  []string{"Dried the spool for 6 hours", "Lowered the temperature"},
		ResolvedAt:  "12 March",
	}
	unrelated := PastFix{
		Category:    "mechanical-problems",
		Description: "grinding noise from the Z axis",
		StepTitles:  []string{"Greased the lead screw"},
		ResolvedAt:  "2 February",
	}
	tests := []struct {
		name    string
		req     Request
		wantHit bool
	}{
		{"same category", Request{Category: "stringing", Description: "fine wisps between the parts", History: []PastFix{unrelated, past}}, true},
		{"overlapping words, other category", Request{Category: "other", Description: "strings between the parts again", History: []PastFix{past}}, true},
		{"unrelated history", Request{Category: "stringing", Description: "fine wisps everywhere", History: []PastFix{unrelated}}, false},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			res := analyze(t, e, tt.req)
			first := res.Steps[0]
			hit := first.Title == "Dried the spool for 6 hours"
			if hit != tt.wantHit {
				t.Fatalf("first step %q, want history first = %v", first.Title, tt.wantHit)
			}
			if hit && !strings.Contains(first.Description, "This fixed a similar problem on this printer on 12 March") {
				t.Errorf("history step description %q", first.Description)
			}
			for _, s := range res.Steps[1:] {
				if s.Title == "Greased the lead screw" {
					t.Error("unrelated history step included")
				}
			}
		})
	}
}

func TestCandidates(t *testing.T) {
	e := fixtureEngine(t)
	req := Request{Description: "strings and hairs", PrinterBrand: "Ender 3", Material: "PLA", NozzleTemp: num(230)}
	c := e.Candidates(req, 3)
	if len(c) != 3 {
		t.Fatalf("%d candidates, want 3", len(c))
	}
	if c[0].ID != "fx-stringing" || len(c[0].Fixes) == 0 || len(c[0].Causes) == 0 {
		t.Fatalf("first candidate %+v", c[0])
	}
	for i := 1; i < len(c); i++ {
		if c[i].Score > c[i-1].Score {
			t.Errorf("candidates not ordered by score: %v", c)
		}
	}
	if !strings.Contains(c[0].Fixes[0].Description, "Bowden extruder of Creality Ender 3") {
		t.Errorf("candidate fix not filled in for the printer: %q", c[0].Fixes[0].Description)
	}
	if n := len(e.Candidates(req, 100)); n != len(e.kb.modes) {
		t.Errorf("Candidates(100) = %d, want all %d modes", n, len(e.kb.modes))
	}
}

func TestAnalyzeHonoursContext(t *testing.T) {
	e := fixtureEngine(t)
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	if _, err := e.Analyze(ctx, Request{Description: "strings"}); err == nil {
		t.Error("no error for a cancelled context")
	}
}

// TestRealKnowledgeBaseShapes runs the real engine over varied requests and
// checks every result keeps the contract.
func TestRealKnowledgeBaseShapes(t *testing.T) {
	e := sharedEngine(t)
	for _, req := range benchRequests() {
		res := analyze(t, e, req)
		if t.Failed() {
			t.Fatalf("request %+v gave %+v", req, res)
		}
	}
	for _, c := range Categories {
		analyze(t, e, Request{Category: c, Description: "it does not work"})
	}
	for _, d := range []string{"", "??? !!!", strings.Repeat("strings ", 250), "ñandú 🙂 ü", "0.2 0.4 210 60"} {
		analyze(t, e, Request{Category: "other", Description: d})
	}
}

// TestThreeStepsFromTwoFixModes: modes with only two fixes still give three steps.
func TestThreeStepsFromTwoFixModes(t *testing.T) {
	e := fixtureEngine(t)
	for _, c := range Categories {
		res := analyze(t, e, Request{Category: c, Description: "zzzz qqqq"})
		if len(res.Steps) < 3 {
			t.Errorf("category %s: %d steps", c, len(res.Steps))
		}
	}
}

func titles(res *Result) []string {
	var out []string
	for _, s := range res.Steps {
		out = append(out, s.Title)
	}
	return out
}

// TestConcurrentAnalyze: analyses, candidates and step references made at
// once (sharing the engine's reused working memory) are exactly those made
// one at a time.
func TestConcurrentAnalyze(t *testing.T) {
	e := sharedEngine(t)
	reqs := benchRequests()
	want := make([]*Result, len(reqs))
	wantCands := make([][]Candidate, len(reqs))
	wantRefs := make([][]string, len(reqs))
	for i, r := range reqs {
		want[i] = analyze(t, e, r)
		wantCands[i] = e.Candidates(r, 5)
		wantRefs[i] = e.StepRefs(r, titles(want[i]))
	}
	done := make(chan struct{})
	for g := 0; g < 4; g++ {
		go func() {
			defer func() { done <- struct{}{} }()
			for round := 0; round < 5; round++ {
				for i, r := range reqs {
					got, err := e.Analyze(context.Background(), r)
					if err != nil || !reflect.DeepEqual(got, want[i]) ||
						!reflect.DeepEqual(e.Candidates(r, 5), wantCands[i]) || !slices.Equal(e.StepRefs(r, titles(want[i])), wantRefs[i]) {
						t.Errorf("request %d: concurrent result differs", i)
						return
					}
				}
			}
		}()
	}
	for g := 0; g < 4; g++ {
		<-done
	}
}

// TestSlicedFileSettingsChangeTheAnswer: a 0.8 mm retraction read from the
// sliced file of a Bowden printer that strings puts the retraction fix,
// quoting the file's number, at the top; without the file it is not there.
func TestSlicedFileSettingsChangeTheAnswer(t *testing.T) {
	e := sharedEngine(t)
	req := Request{Category: "stringing", Description: "Fine strings and hairs between the towers on every print", Material: "PLA",
		NozzleTemp: num(205), PrinterBrand: "Creality Ender 3 V2"}
	without := analyze(t, e, req)
	req.Slicer = &SlicerSettings{Slicer: "OrcaSlicer", RetractionLength: num(0.8), RetractionSpeed: num(40)}
	with := analyze(t, e, req)
	if strings.Contains(without.Steps[0].Title, "the file has") {
		t.Fatalf("without a file: %q", without.Steps[0].Title)
	}
	top := with.Steps[0]
	if !strings.Contains(top.Title, "Raise retraction to 4–6 mm") || !strings.Contains(top.Title, "0.8 mm") {
		t.Fatalf("with the file's 0.8 mm retraction the first step is %q", top.Title)
	}
	// On a direct-drive printer 0.8 mm is right: no such step.
	req.PrinterBrand = "Prusa MK4"
	for _, s := range analyze(t, e, req).Steps {
		if strings.Contains(s.Title, "the file has") {
			t.Fatalf("direct drive got %q", s.Title)
		}
	}
}

// TestReleaseKeepsNoRequest: a finished analysis, kept for the next one,
// holds nothing of its request (no request, facts, ranking or text in the
// room of its tokens and candidate steps), and no room a long
// description's tokens took.
func TestReleaseKeepsNoRequest(t *testing.T) {
	e := sharedEngine(t)
	for _, desc := range []string{"Lots of thin strings between the two towers, PETG on my Ender 3", strings.Repeat("strings and blobs ", 100)} {
		req := Request{Category: "stringing", Description: desc, Material: "PETG", NozzleTemp: num(245), PrinterBrand: "Creality Ender 3 V2"}
		a := e.prepare(&req)
		a.steps()
		if len(a.toks) == 0 || len(a.cands) == 0 {
			t.Fatalf("%d tokens, %d candidate steps: the analysis used no room", len(a.toks), len(a.cands))
		}
		a.release()
		if a.req != nil || a.facts != nil || a.ranked != nil || a.e != nil || a.factRoom.req != nil {
			t.Errorf("a released analysis keeps its request: %+v", a)
		}
		for _, tok := range a.toks[:cap(a.toks)] {
			if tok != (token{}) {
				t.Fatalf("a released analysis keeps token %+v", tok)
			}
		}
		for _, c := range a.cands[:cap(a.cands)] {
			if c.step != (Step{}) || c.fix != nil || c.key != nil {
				t.Fatalf("a released analysis keeps candidate step %+v", c.step)
			}
		}
		if cap(a.toks) > maxKeptTokens {
			t.Errorf("a released analysis keeps room for %d tokens", cap(a.toks))
		}
	}
}

// TestRuleRelevanceIsMadeAtLoad: every rule step answers a condition with
// concepts, and the relevance of each such step to each mode, worked out
// at load, is the one worked out on demand.
func TestRuleRelevanceIsMadeAtLoad(t *testing.T) {
	e := sharedEngine(t)
	reqs := []Request{
		{Material: "PETG", NozzleTemp: num(270), BedTemp: num(110), LayerHeight: num(0.4), PrintSpeed: num(400), Infill: num(5), PrinterBrand: "Creality Ender 3 V2"},
		{Material: "PLA", NozzleTemp: num(170), BedTemp: num(20), PrinterBrand: "Bambu Lab X1 Carbon"},
		{Material: "TPU", PrinterBrand: "Creality Ender 3 V2", Slicer: &SlicerSettings{RetractionLength: num(0.8)}},
		{Material: "ABS", PrinterBrand: "Prusa MK4", Slicer: &SlicerSettings{RetractionLength: num(6), FanSpeed: num(100)}},
	}
	seen := map[string]bool{}
	for _, r := range reqs {
		for _, rs := range e.facts(&r).ruleSteps() {
			if ruleConcepts[rs.cond] == nil {
				t.Errorf("rule step %q answers %q, which has no concepts", rs.step.Title, rs.cond)
			}
			seen[rs.cond] = true
		}
	}
	for cond := range ruleConcepts {
		if !seen[cond] {
			t.Errorf("no request made the rule step for %q", cond)
		}
		for mi := range e.kb.modes {
			if got, want := e.ruleRelevance(mi, cond), e.relevance(mi, cond); got != want {
				t.Errorf("relevance of %q to mode %d: %v at load, %v on demand", cond, mi, got, want)
			}
		}
	}
}
