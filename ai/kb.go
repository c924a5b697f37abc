package ai

import (
	"bytes"
	"embed"
	"encoding/json"
	"errors"
	"fmt"
	"io/fs"
	"regexp"
	"sort"
	"strings"
)

// The knowledge base is data: failure modes, materials and printers as JSON
// files under ai/kb (see ai/kb/SCHEMA.md), embedded into the binary.
//
//go:embed kb
var kbFiles embed.FS

// Length caps of the knowledge base, checked at load.
const (
	maxTitleLen    = 80
	maxFixLen      = 600
	maxNameLen     = 120
	maxSummaryLen  = 400
	maxTermLen     = 60
	maxPhraseLen   = 200
	maxCauseLen    = 300
	maxTipLen      = 300
	maxQuestionLen = 120
	minTerms       = 4
	minFixes       = 2
	maxFixes       = 5
)

type kbMode struct {
	ID       string   `json:"id"`
	Category string   `json:"category"`
	Name     string   `json:"name"`
	Summary  string   `json:"summary"`
	Terms    []string `json:"terms"`
	// WeakTerms are hints rather than symptoms ("firmware 1.0.0": a maker
	// naming the release they run); they count weakTermFactor of a term.
	WeakTerms []string   `json:"weakTerms"`
	Phrases   []string   `json:"phrases"`
	Negative  []string   `json:"negative"`
	Causes    []string   `json:"causes"`
	Fixes     []kbFix    `json:"fixes"`
	Signals   []kbSignal `json:"signals"`
	// Facts are rules on the facts of the maker's files that make the
	// mode more (or less) likely.
	Facts   []kbFactRule `json:"facts"`
	Tips    []string     `json:"tips"`
	Sources []kbSource   `json:"sources"`
	// FilesOnly marks a mode only an attached file can reveal (an MMU error
	// code, a command the firmware removed): its words and fix titles stay
	// out of the word index and the case base, so it is ranked only when a
	// fact of the maker's files supports it, and an analysis without files
	// is the same as if the mode did not exist.
	FilesOnly bool `json:"filesOnly"`

	file string // where the mode was read from, for error messages
	// head opens a summary that finds this mode most likely; set at load.
	head string
}

type kbFix struct {
	Title       string            `json:"title"`
	Description string            `json:"description"`
	Values      map[string]string `json:"values"`
	When        []string          `json:"when"`
	// Facts are rules on the facts of the maker's files that make this fix
	// more (or less) likely; the step quotes the fact that holds.
	Facts []kbFactRule `json:"facts"`

	key       []string    // titleKey of Title, set at load
	titleToks []string    // tokens of Title, set at load
	ref       string      // fixRef of the fix, set at load
	retract   bool        // the title talks about retraction, set at load
	shape     *titleShape // the setting the title changes, set at load
}

type kbSignal struct {
	When   string  `json:"when"`
	Weight float64 `json:"weight"`

	cond   string            // When without "!", set at load
	negate bool              // When starts with "!"
	eval   func(*facts) bool // the condition, set at load
	held   int               // its condition among the engine's settings, set at build
}

type kbSource struct {
	Title string `json:"title"`
	URL   string `json:"url"`
}

type material struct {
	ID          string     `json:"id"`
	Label       string     `json:"label"` // display name, e.g. "PETG"; defaults to the upper-cased id
	Names       []string   `json:"names"`
	Nozzle      []float64  `json:"nozzle"`
	Bed         []float64  `json:"bed"`
	MaxSpeed    float64    `json:"maxSpeed"`
	Fan         string     `json:"fan"`
	Dry         string     `json:"dry"`
	Hygroscopic bool       `json:"hygroscopic"`
	Flexible    bool       `json:"flexible"`
	Warps       bool       `json:"warps"`
	Enclosure   bool       `json:"enclosure"`
	Abrasive    bool       `json:"abrasive"`
	Notes       string     `json:"notes"`
	Sources     []kbSource `json:"sources"`

	tip     string // the usual settings, as the tips say them; set at load
	dryStep Step   // the step that dries it, when it takes up water; set at load
}

type printer struct {
	ID       string   `json:"id"`
	Name     string   `json:"name"` // display name, e.g. "Creality Ender 3 V2"
	Brand    string   `json:"brand"`
	Names    []string `json:"names"`
	Extruder string   `json:"extruder"`
	Motion   string   `json:"motion"`
	Enclosed bool     `json:"enclosed"`
	Probe    string   `json:"probe"`
	MaxSpeed float64  `json:"maxSpeed"` // typical top speed for PLA, mm/s; 0 = a stock bed-slinger
	Generic  bool     `json:"generic"`  // a whole brand: any model entry that matches wins over it
	Notes    string   `json:"notes"`

	compactNames []string // Names with only letters and digits, set at load
	tip          string   // "Name: notes", set at load when there are notes
}

type knowledge struct {
	modes     []*kbMode
	materials []*material
	printers  []*printer
	questions []*kbQuestion
}

// kbQuestion is a yes/no question that separates look-alike failure modes:
// each answer multiplies the scores of the modes it names ("not sure" leaves
// them as they are).
type kbQuestion struct {
	ID   string             `json:"id"`
	Text string             `json:"text"`
	Yes  map[string]float64 `json:"yes"`
	No   map[string]float64 `json:"no"`

	effect [2]map[int]float64 // no, yes: mode index -> factor, set at load
}

// factor is what answer does to mode mi's score; "not sure" does nothing.
func (q *kbQuestion) factor(answer Answer, mi int) float64 {
	i := 0
	switch answer {
	case AnswerYes:
		i = 1
	case AnswerNo:
	default:
		return 1
	}
	if f, ok := q.effect[i][mi]; ok {
		return f
	}
	return 1
}

var (
	kebabRe = regexp.MustCompile(`^[a-z0-9]+(-[a-z0-9]+)*$`)
	urlRe   = regexp.MustCompile(`^https?://[^\s]+$`)
	// linkRe finds an address or a domain name in text: a step title never
	// sends a maker anywhere.
	linkRe = regexp.MustCompile(`(?i)[a-z][a-z0-9+.-]*://|\bwww\.|\b[a-z0-9-]+(\.[a-z0-9-]+)*\.[a-z]{2,}\b`)
)

// loadKnowledge reads and validates every knowledge-base file of fsys:
// modes/*.json, materials.json and printers.json. All problems are reported
// together, each naming its file and id.
func loadKnowledge(fsys fs.FS) (*knowledge, error) {
	kb := &knowledge{}
	var errs []error
	if err := decodeFile(fsys, "materials.json", &kb.materials); err != nil {
		errs = append(errs, err)
	}
	if err := decodeFile(fsys, "printers.json", &kb.printers); err != nil {
		errs = append(errs, err)
	}
	files, err := fs.Glob(fsys, "modes/*.json")
	if err != nil {
		return nil, fmt.Errorf("list kb modes: %w", err)
	}
	sort.Strings(files)
	for _, f := range files {
		var modes []*kbMode
		if err := decodeFile(fsys, f, &modes); err != nil {
			errs = append(errs, err)
			continue
		}
		for _, m := range modes {
			if m == nil {
				errs = append(errs, fmt.Errorf("kb %s: null mode", f))
				continue
			}
			m.file = f
			kb.modes = append(kb.modes, m)
		}
	}
	if _, err := fs.Stat(fsys, "questions.json"); err == nil {
		if err := decodeFile(fsys, "questions.json", &kb.questions); err != nil {
			errs = append(errs, err)
		}
	}
	errs = append(errs, kb.validate()...)
	if len(errs) > 0 {
		return nil, errors.Join(errs...)
	}
	return kb, nil
}

func decodeFile(fsys fs.FS, name string, v any) error {
	data, err := fs.ReadFile(fsys, name)
	if err != nil {
		return fmt.Errorf("kb %s: %w", name, err)
	}
	dec := json.NewDecoder(bytes.NewReader(data))
	dec.DisallowUnknownFields()
	if err := dec.Decode(v); err != nil {
		return fmt.Errorf("kb %s: %w", name, describeJSONError(data, err))
	}
	if dec.More() {
		return fmt.Errorf("kb %s: trailing data after the JSON array", name)
	}
	return nil
}

// describeJSONError adds the line number to a JSON syntax error.
func describeJSONError(data []byte, err error) error {
	var syn *json.SyntaxError
	var typ *json.UnmarshalTypeError
	var off int64
	switch {
	case errors.As(err, &syn):
		off = syn.Offset
	case errors.As(err, &typ):
		off = typ.Offset
	default:
		return err
	}
	line := 1 + bytes.Count(data[:min(int(off), len(data))], []byte("\n"))
	return fmt.Errorf("line %d: %w", line, err)
}

func (kb *knowledge) validate() []error {
	var errs []error
	materialIDs := map[string]bool{}
	for i, m := range kb.materials {
		bad := func(format string, a ...any) {
			errs = append(errs, fmt.Errorf("kb materials.json: material %q (#%d): %s", m.ID, i, fmt.Sprintf(format, a...)))
		}
		switch {
		case !kebabRe.MatchString(m.ID):
			bad("id must be kebab-case")
		case materialIDs[m.ID]:
			bad("duplicate id")
		}
		materialIDs[m.ID] = true
		if len(m.Names) == 0 {
			bad("names must not be empty")
		}
		for _, n := range m.Names {
			if n == "" || n != strings.ToLower(n) {
				bad("name %q must be non-empty lower case", n)
			}
		}
		if len(m.Nozzle) != 2 || m.Nozzle[0] < 150 || m.Nozzle[1] > 450 || m.Nozzle[0] >= m.Nozzle[1] {
			bad("nozzle must be [low, high] °C within 150–450")
		}
		if len(m.Bed) != 2 || m.Bed[0] < 0 || m.Bed[1] > 150 || m.Bed[0] > m.Bed[1] {
			bad("bed must be [low, high] °C within 0–150")
		}
		if m.MaxSpeed <= 0 || m.MaxSpeed > 1000 {
			bad("maxSpeed must be within 1–1000 mm/s")
		}
	}
	printerIDs := map[string]bool{}
	for i, p := range kb.printers {
		bad := func(format string, a ...any) {
			errs = append(errs, fmt.Errorf("kb printers.json: printer %q (#%d): %s", p.ID, i, fmt.Sprintf(format, a...)))
		}
		switch {
		case !kebabRe.MatchString(p.ID):
			bad("id must be kebab-case")
		case printerIDs[p.ID]:
			bad("duplicate id")
		}
		printerIDs[p.ID] = true
		if len(p.Names) == 0 {
			bad("names must not be empty")
		}
		for _, n := range p.Names {
			if compact(n) == "" || n != strings.ToLower(n) {
				bad("name %q must be non-empty lower case", n)
			}
		}
		if !oneOf(p.Extruder, "bowden", "direct", "unknown") {
			bad("extruder %q must be bowden, direct or unknown", p.Extruder)
		}
		if !oneOf(p.Motion, "bedslinger", "i3", "corexy", "cartesian", "delta", "unknown") {
			bad("motion %q must be bedslinger, i3, corexy, cartesian, delta or unknown", p.Motion)
		}
	}
	modeIDs := map[string]string{}
	for i, m := range kb.modes {
		errs = append(errs, m.validate(i, modeIDs)...)
	}
	index := map[string]int{}
	for i, m := range kb.modes {
		index[m.ID] = i
	}
	questionIDs := map[string]bool{}
	for i, q := range kb.questions {
		bad := func(format string, a ...any) {
			errs = append(errs, fmt.Errorf("kb questions.json: question %q (#%d): %s", q.ID, i, fmt.Sprintf(format, a...)))
		}
		switch {
		case !kebabRe.MatchString(q.ID):
			bad("id must be kebab-case")
		case questionIDs[q.ID]:
			bad("duplicate id")
		}
		questionIDs[q.ID] = true
		if q.Text == "" || len([]rune(q.Text)) > maxQuestionLen || !strings.HasSuffix(q.Text, "?") {
			bad("text must be a question of at most %d characters", maxQuestionLen)
		}
		if len(q.Yes)+len(q.No) == 0 {
			bad("yes and no name no mode")
		}
		for a, effects := range []map[string]float64{q.No, q.Yes} {
			q.effect[a] = map[int]float64{}
			for id, f := range effects {
				mi, ok := index[id]
				if !ok {
					bad("unknown mode %q", id)
					continue
				}
				if f <= 0 || f > 3 {
					bad("factor %v for %q must be within (0, 3]", f, id)
				}
				q.effect[a][mi] = f
			}
		}
	}
	return errs
}

func (m *kbMode) validate(i int, seen map[string]string) []error {
	var errs []error
	bad := func(format string, a ...any) {
		errs = append(errs, fmt.Errorf("kb %s: mode %q (#%d): %s", m.file, m.ID, i, fmt.Sprintf(format, a...)))
	}
	switch {
	case !kebabRe.MatchString(m.ID):
		bad("id must be kebab-case")
	case seen[m.ID] != "":
		bad("duplicate id (also in %s)", seen[m.ID])
	}
	seen[m.ID] = m.file
	if !ValidCategory(m.Category) {
		bad("unknown category %q", m.Category)
	}
	checkText := func(field, s string, max int) {
		switch {
		case strings.TrimSpace(s) == "":
			bad("%s must not be empty", field)
		case len([]rune(s)) > max:
			bad("%s is longer than %d characters", field, max)
		}
	}
	checkText("name", m.Name, maxNameLen)
	checkText("summary", m.Summary, maxSummaryLen)
	if len(m.Terms) < minTerms {
		bad("needs at least %d terms, has %d", minTerms, len(m.Terms))
	}
	for _, list := range []struct {
		what  string
		terms []string
	}{{"term", m.Terms}, {"weak term", m.WeakTerms}} {
		for _, t := range list.terms {
			checkText(list.what, t, maxTermLen)
			if t != "" && len(tokens(t)) == 0 {
				bad("%s %q has only stop words", list.what, t)
			}
		}
	}
	for _, p := range m.Phrases {
		checkText("phrase", p, maxPhraseLen)
	}
	for _, n := range m.Negative {
		checkText("negative term", n, maxTermLen)
	}
	if len(m.Causes) == 0 {
		bad("needs at least one cause")
	}
	for _, c := range m.Causes {
		checkText("cause", c, maxCauseLen)
	}
	if len(m.Fixes) < minFixes || len(m.Fixes) > maxFixes {
		bad("needs %d–%d fixes, has %d", minFixes, maxFixes, len(m.Fixes))
	}
	titles := map[string]bool{}
	for j, f := range m.Fixes {
		checkText(fmt.Sprintf("fix %d title", j), f.Title, maxTitleLen)
		checkText(fmt.Sprintf("fix %d description", j), f.Description, maxFixLen)
		if linkRe.MatchString(f.Title) {
			bad("fix %d: title %q names an address or a domain", j, f.Title)
		}
		key := fixRef(m.ID, f.Title)
		if titles[key] {
			bad("fix %d: duplicate title %q", j, f.Title)
		}
		titles[key] = true
		for _, w := range f.When {
			if !knownCondition(w) {
				bad("fix %d: unknown condition %q", j, w)
			}
		}
		for k, v := range f.Values {
			checkText(fmt.Sprintf("fix %d value %q", j, k), v, maxTipLen)
		}
		for _, r := range f.Facts {
			for _, e := range r.validate(fmt.Sprintf("fix %d", j)) {
				bad("%s", e)
			}
		}
	}
	for _, r := range m.Facts {
		for _, e := range r.validate("mode") {
			bad("%s", e)
		}
	}
	for _, s := range m.Signals {
		if !knownCondition(s.When) {
			bad("signal: unknown condition %q", s.When)
		}
		if s.Weight == 0 || s.Weight < -5 || s.Weight > 5 {
			bad("signal %q: weight must be non-zero within -5..5", s.When)
		}
	}
	for _, t := range m.Tips {
		checkText("tip", t, maxTipLen)
	}
	if len(m.Sources) == 0 {
		bad("needs at least one source")
	}
	for _, s := range m.Sources {
		checkText("source title", s.Title, maxNameLen*2)
		if !urlRe.MatchString(s.URL) {
			bad("source %q: url %q must start with https://", s.Title, s.URL)
		}
	}
	return errs
}

// fixRef names a mode's fix by the mode and its title folded to lower-case
// letters and digits ("adhesion-not-sticking/level-the-bed-and-set-...").
func fixRef(modeID, title string) string {
	var b strings.Builder
	b.WriteString(modeID)
	b.WriteByte('/')
	gap, started := false, false
	for _, r := range strings.ToLower(title) {
		if (r < 'a' || r > 'z') && (r < '0' || r > '9') {
			gap = true
			continue
		}
		if gap && started {
			b.WriteByte('-')
		}
		b.WriteRune(r)
		gap, started = false, true
	}
	return b.String()
}

func oneOf(v string, options ...string) bool {
	for _, o := range options {
		if v == o {
			return true
		}
	}
	return false
}
