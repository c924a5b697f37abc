package ai

import (
	"fmt"
	"math"
	"slices"
	"strconv"
	"strings"
	"unicode/utf8"

	"github.com/layerfix/layerfix/ai/printerfiles"
)

// The printer's own files (klippy.log, printer.cfg, an M503 dump,
// Configuration.h, config.g...) are read once per analysis into facts
// (package printerfiles). Facts are evidence like the maker's words:
// knowledge-base rules on modes and fixes (`facts`, see kb/SCHEMA.md) raise
// or lower them when a fact matches, and a step a fact supports quotes the
// line that shows it.

// Fact scoring weights.
const (
	// factModeScale is the mode score one unit of rule weight adds: a
	// decisive log line (weight 3–5) outweighs most descriptions.
	factModeScale = 1.5
	// factFixScale is the step score one unit of a fix rule's weight adds,
	// relative to the best mode's score: weight 1 lifts a fix of the top
	// mode to the front of its mode.
	factFixScale = 0.5
	// factModeShare: a fix rule of weight w also raises its mode by
	// w − factModeShare (relevance rules of weight 1 only order fixes).
	factModeShare = 1.0
	// decisiveWeight is the rule weight from which a fact is named in the
	// summary.
	decisiveWeight = 2.0
	maxQuoteRunes  = 120
)

// kbFactCond is one condition on the facts: a fact with Key (and Subject,
// when given) whose value passes every test given.
type kbFactCond struct {
	Key string `json:"key"`
	// Subject "" matches any; one ending in "*" matches the subjects it
	// starts ("heater_fan*": every [heater_fan NAME]); in a rule's And,
	// sameSubject ("$") is the subject of the rule's own fact.
	Subject string `json:"subject"`
	// Equals and Contains compare the value as text, ignoring case; a
	// fact passes when one of the entries matches.
	Equals      []string `json:"equals"`
	Contains    []string `json:"contains"`
	NotContains []string `json:"notContains"`
	Below       *float64 `json:"below"`
	Above       *float64 `json:"above"`
	// VersionBelow holds when the value is a release older than it
	// ("v0.9.1-12-g4b7da7c9" is below "0.10").
	VersionBelow string `json:"versionBelow"`
	// Unlike holds when the value differs from the one most other
	// subjects of the key share: "all" compares with every other subject
	// (one stepper's enable pin not inverted while the others are),
	// "siblings" only with subjects of the same name and another number
	// (z1 against z, z2 and z3).
	Unlike string `json:"unlike"`
	// Absent holds when no fact has the key (and subject).
	Absent bool `json:"absent"`
	// DiffersFromStock holds when the value differs from the Klipper
	// example config the maker's config comes from (numbers by more than
	// this share of the example's value; 0: any difference).
	DiffersFromStock *float64 `json:"differsFromStock"`
	// AboveStock holds when the number is above the example config's by
	// more than this share of it (a speed limit raised past what the
	// printer was built for; a lower one is no fault).
	AboveStock *float64 `json:"aboveStock"`
}

// kbFactRule is a condition with its weight: positive raises the mode or
// fix, negative lowers it (a fact that rules the cause out).
type kbFactRule struct {
	kbFactCond
	And      []kbFactCond `json:"and"`      // more conditions that must all hold
	When     []string     `json:"when"`     // request conditions (see Conditions)
	Mentions []string     `json:"mentions"` // one of these words ("skip*": any word it starts) must be in the description or printer
	Weight   float64      `json:"weight"`
	// Says is what the fact means, shown before the step's description;
	// {source}, {quote}, {value} and {subject} are filled in.
	Says string `json:"says"`
}

// sameSubject in an And condition stands for the subject of the rule's own
// fact ("the endstop that is still triggered is inverted").
const sameSubject = "$"

// derivedKeys are facts the engine computes from several facts of the
// files; rules use them like the keys of FACTS.md.
var derivedKeys = map[string]bool{
	"derived.probe_off_bed_at_z_home":     true,
	"derived.hotend_fan_not_thermostatic": true,
	"derived.sensor_pin_mismatch":         true,
	"derived.baud_mismatch":               true,
	"derived.nozzle_mismatch":             true,
	"derived.eeprom_overrides_config":     true,
	"derived.temp_above_max":              true,
	"derived.xy_steps_differ":             true,
	"derived.comm_mismatch":               true,
	"derived.uart_address_conflict":       true,
	"derived.esteps_unlike_extruder":      true,
	"derived.move_below_position_min":     true,
	"derived.macro_params_mismatch":       true,
	"derived.config_option_overridden":    true,
}

func knownFactKey(k string) bool {
	return derivedKeys[k] || printerfiles.KnownKey(k)
}

// placeholders a rule's Says may use.
var saysFields = []string{"{source}", "{quote}", "{value}", "{subject}", "{stock}", "{stockName}"}

// validate checks a rule of mode m; where names the mode or fix.
func (r *kbFactRule) validate(where string) []string {
	var errs []string
	bad := func(format string, a ...any) { errs = append(errs, where+": "+fmt.Sprintf(format, a...)) }
	for i, c := range append([]kbFactCond{r.kbFactCond}, r.And...) {
		what := "fact rule"
		if i > 0 {
			what = fmt.Sprintf("fact rule's and #%d", i)
		}
		if !knownFactKey(c.Key) {
			bad("%s: unknown fact key %q (see ai/printerfiles/FACTS.md)", what, c.Key)
		}
		tests := len(c.Equals) + len(c.Contains) + len(c.NotContains)
		if c.Below != nil {
			tests++
		}
		if c.Above != nil {
			tests++
		}
		if c.VersionBelow != "" {
			tests++
			if _, ok := parseVersion(c.VersionBelow); !ok {
				bad("%s %q: versionBelow %q is not a release number", what, c.Key, c.VersionBelow)
			}
		}
		switch c.Unlike {
		case "":
		case "all", "siblings":
			tests++
		default:
			bad("%s %q: unlike must be \"all\" or \"siblings\"", what, c.Key)
		}
		for name, share := range map[string]*float64{"differsFromStock": c.DiffersFromStock, "aboveStock": c.AboveStock} {
			if share != nil {
				tests++
				if *share < 0 {
					bad("%s %q: %s must not be negative", what, c.Key, name)
				}
			}
		}
		if c.Absent && tests > 0 {
			bad("%s %q: absent takes no value test", what, c.Key)
		}
	}
	if r.Weight == 0 || r.Weight < -5 || r.Weight > 5 {
		bad("fact rule %q: weight must be non-zero within -5..5", r.Key)
	}
	if r.Absent && r.Says == "" {
		bad("fact rule %q: a rule on an absent fact needs says", r.Key)
	}
	for _, w := range r.When {
		if !knownCondition(w) {
			bad("fact rule %q: unknown condition %q", r.Key, w)
		}
	}
	for _, m := range r.Mentions {
		if m == "" || m != strings.ToLower(m) {
			bad("fact rule %q: mention %q must be non-empty lower case", r.Key, m)
		}
		if stem, ok := strings.CutSuffix(m, "*"); ok && len(stem) < 3 {
			bad("fact rule %q: mention %q: a prefix needs at least 3 letters", r.Key, m)
		}
	}
	if len([]rune(r.Says)) > maxCauseLen {
		bad("fact rule %q: says is longer than %d characters", r.Key, maxCauseLen)
	}
	rest := r.Says
	for _, f := range saysFields {
		rest = strings.ReplaceAll(rest, f, "")
	}
	if strings.ContainsAny(rest, "{}") {
		bad("fact rule %q: says may only use %s", r.Key, strings.Join(saysFields, ", "))
	}
	if !r.onStock() && (strings.Contains(r.Says, "{stock}") || strings.Contains(r.Says, "{stockName}")) {
		bad("fact rule %q: {stock} and {stockName} need differsFromStock or aboveStock", r.Key)
	}
	return errs
}

// onStock reports whether a condition compares the value with the example
// config's.
func (c *kbFactCond) onStock() bool { return c.DiffersFromStock != nil || c.AboveStock != nil }

// factRule is a knowledge-base rule with what it belongs to.
type factRule struct {
	*kbFactRule
	mode, fix int // fix is -1 for a rule of the mode itself
}

// compileFactRules lists every rule of the knowledge base and the keys
// they use.
func (e *Engine) compileFactRules() {
	defer func() {
		e.factKeys = make(map[string]bool, len(e.factRules))
		for _, r := range e.factRules {
			e.factKeys[r.Key] = true
			for _, c := range r.And {
				e.factKeys[c.Key] = true
			}
		}
	}()
	for mi, m := range e.kb.modes {
		for i := range m.Facts {
			e.factRules = append(e.factRules, factRule{&m.Facts[i], mi, -1})
		}
		for fi := range m.Fixes {
			for i := range m.Fixes[fi].Facts {
				e.factRules = append(e.factRules, factRule{&m.Fixes[fi].Facts[i], mi, fi})
			}
		}
	}
}

// FactKeys are the fact keys the knowledge base's rules use: the facts
// worth showing another analyzer.
func (e *Engine) FactKeys() map[string]bool { return e.factKeys }

// fileFacts are the facts of one request's attachments.
type fileFacts struct {
	rep   printerfiles.Report
	byKey map[string][]int // key -> indices of rep.Facts
	text  string           // description and printer, lower case, for Mentions
	stock *stockMatch      // the Klipper example config the files come from; nil: none
}

// factMatch is a rule that holds, with the fact that shows it (none for a
// rule on an absent fact).
type factMatch struct {
	rule  factRule
	fact  printerfiles.Fact
	has   bool
	stock string // the example config's value, for a rule on it
	from  string // the example config's name
}

// fixKey names a mode's fix.
type fixKey [2]int

// evidence is what the facts of one request do to modes and fixes.
type evidence struct {
	files    *fileFacts
	mode     []float64             // score added to each mode
	fixUp    map[fixKey]float64    // best positive weight of a fix's rules
	fixDown  map[fixKey]float64    // sum of a fix's negative weights
	quote    map[string]*factMatch // fix ref -> the fact its step quotes
	decisive []*factMatch          // per mode: its strongest positive match
}

// readFiles reads the request's attachments once, adds the derived facts
// and fills the settings the maker did not type from them; nil when there
// is nothing to read.
func readFiles(req *Request) *fileFacts {
	if len(req.Attachments) == 0 {
		return nil
	}
	files := make([]printerfiles.File, len(req.Attachments))
	for i, a := range req.Attachments {
		files[i] = printerfiles.File{Name: a.Name, Text: a.Text}
	}
	ff := &fileFacts{rep: printerfiles.Read(files)}
	ff.rep.Facts = append(ff.rep.Facts, derive(ff.rep)...)
	text := strings.ToLower(req.Description + " " + req.PrinterBrand + " " + req.PrinterModel)
	if f, ok := extruderMismatch(ff.rep, text); ok {
		ff.rep.Facts = append(ff.rep.Facts, f)
	}
	if len(ff.rep.Facts) == 0 {
		return nil
	}
	fillFromFacts(req, ff.rep)
	ff.byKey = make(map[string][]int, len(ff.rep.Facts))
	for i, fa := range ff.rep.Facts {
		ff.byKey[fa.Key] = append(ff.byKey[fa.Key], i)
	}
	ff.text = text
	switch klipper, marlin := ff.firmwareFiles(); {
	case klipper:
		if set, err := loadStock(); err == nil {
			ff.stock = matchStock(set, ff.rep, req.PrinterBrand+" "+req.PrinterModel+" "+req.Description)
		}
	case marlin:
		if set, err := loadStock(); err == nil {
			ff.stock = matchMarlin(set, ff.rep, req.PrinterBrand+" "+req.PrinterModel+" "+req.Description)
		}
	}
	return ff
}

// firmwareFiles reports whether the files hold a Klipper config and
// whether they hold Marlin settings (Configuration.h or an M503 report).
func (ff *fileFacts) firmwareFiles() (klipper, marlin bool) {
	for _, f := range ff.rep.Files {
		switch f.Kind {
		case printerfiles.KindKlipperConfig, printerfiles.KindKlippyLog, printerfiles.KindKlipperKconfig:
			klipper = true
		case printerfiles.KindMarlinConfig, printerfiles.KindMarlinM503:
			marlin = true
		}
	}
	return klipper, marlin
}

// evaluate runs every rule of the knowledge base against the files' facts.
func (e *Engine) evaluate(ff *fileFacts, f *facts) *evidence {
	if ff == nil {
		return nil
	}
	ev := &evidence{
		files:    ff,
		mode:     make([]float64, len(e.kb.modes)),
		fixUp:    map[fixKey]float64{},
		fixDown:  map[fixKey]float64{},
		quote:    map[string]*factMatch{},
		decisive: make([]*factMatch, len(e.kb.modes)),
	}
	modeQuote := map[int]*factMatch{}
	fixBest := map[fixKey]*factMatch{}
	for _, r := range e.factRules {
		m, ok := ff.match(r, f)
		if !ok {
			continue
		}
		w := r.Weight
		if d := ev.decisive[r.mode]; w > 0 && (d == nil || w > d.rule.Weight) {
			ev.decisive[r.mode] = m
		}
		if r.fix < 0 {
			ev.mode[r.mode] += w
			if q := modeQuote[r.mode]; w > 0 && (q == nil || w > q.rule.Weight) {
				modeQuote[r.mode] = m
			}
			continue
		}
		k := fixKey{r.mode, r.fix}
		if w < 0 {
			ev.fixDown[k] += w
			continue
		}
		if w > ev.fixUp[k] {
			ev.fixUp[k] = w
			fixBest[k] = m
		}
	}
	// A fix rule raises its mode too, by its weight beyond a relevance
	// rule's; the mode counts its strongest fix once.
	best := map[int]float64{}
	for k, w := range ev.fixUp {
		best[k[0]] = math.Max(best[k[0]], w-factModeShare)
	}
	for mi, w := range best {
		ev.mode[mi] += w
	}
	for k, m := range fixBest {
		ev.quote[e.kb.modes[k[0]].Fixes[k[1]].ref] = m
	}
	// A mode rule's fact is quoted by the mode's first fix that applies
	// and quotes nothing else.
	for mi, m := range modeQuote {
		for _, fx := range e.kb.modes[mi].Fixes {
			if f.all(fx.When) {
				if ev.quote[fx.ref] == nil {
					ev.quote[fx.ref] = m
				}
				break
			}
		}
	}
	return ev
}

// match evaluates a rule.
func (ff *fileFacts) match(r factRule, f *facts) (*factMatch, bool) {
	fa, has, ok := ff.find(&r.kbFactCond)
	if !ok {
		return nil, false
	}
	for i := range r.And {
		c := r.And[i]
		if c.Subject == sameSubject {
			c.Subject = fa.Subject // the subject of the rule's own fact
		}
		afa, ahas, ok := ff.find(&c)
		if !ok {
			return nil, false
		}
		if !has && ahas {
			fa, has = afa, true // a rule on an absent fact quotes the first fact it needs
		}
	}
	if !f.all(r.When) {
		return nil, false
	}
	if r.Weight > factModeShare && ff.shipsWithPrinter(r, fa) {
		return nil, false
	}
	if len(r.Mentions) > 0 && !slices.ContainsFunc(r.Mentions, func(m string) bool { return mentioned(ff.text, m) }) {
		return nil, false
	}
	m := &factMatch{rule: r, fact: fa, has: has}
	if r.onStock() && ff.stock != nil {
		m.stock, _ = ff.stockDiffers(fa, 0)
		m.from = ff.stock.title()
	}
	return m, true
}

// mentioned reports whether text has the word m, or for an m ending in
// "*" a word starting with the rest ("skip*": skip, skips, skipping).
func mentioned(text, m string) bool {
	stem, prefix := strings.CutSuffix(m, "*")
	if !prefix {
		return containsWord(text, m)
	}
	for from := 0; from <= len(text)-len(stem); {
		i := strings.Index(text[from:], stem)
		if i < 0 {
			return false
		}
		i += from
		if i == 0 || !isAlnum(text[i-1]) {
			return true
		}
		from = i + 1
	}
	return false
}

// subjectMatches reports whether a fact's subject is the one a condition
// names: any for "", the subjects a name ending in "*" starts, else the
// same name ignoring case.
func subjectMatches(subject, want string) bool {
	if prefix, ok := strings.CutSuffix(want, "*"); ok {
		return len(subject) >= len(prefix) && strings.EqualFold(subject[:len(prefix)], prefix)
	}
	return want == "" || strings.EqualFold(subject, want)
}

// find returns the first fact that meets c; has is false for a condition
// on an absent fact, which holds without one.
func (ff *fileFacts) find(c *kbFactCond) (fa printerfiles.Fact, has, ok bool) {
	for _, i := range ff.byKey[c.Key] {
		fa := ff.rep.Facts[i]
		if !subjectMatches(fa.Subject, c.Subject) {
			continue
		}
		if c.Absent {
			return printerfiles.Fact{}, false, false
		}
		if ff.passes(c, fa) {
			return fa, true, true
		}
	}
	return printerfiles.Fact{}, false, c.Absent
}

// passes reports whether a fact's value passes every test of c.
func (ff *fileFacts) passes(c *kbFactCond, fa printerfiles.Fact) bool {
	v := strings.ToLower(strings.TrimSpace(fa.Value))
	if len(c.Equals) > 0 && !slices.ContainsFunc(c.Equals, func(s string) bool { return strings.EqualFold(v, s) }) {
		return false
	}
	if len(c.Contains) > 0 && !slices.ContainsFunc(c.Contains, func(s string) bool { return strings.Contains(v, strings.ToLower(s)) }) {
		return false
	}
	if slices.ContainsFunc(c.NotContains, func(s string) bool { return strings.Contains(v, strings.ToLower(s)) }) {
		return false
	}
	if (c.Below != nil || c.Above != nil) && !fa.HasNum {
		return false
	}
	if c.Below != nil && fa.Num >= *c.Below {
		return false
	}
	if c.Above != nil && fa.Num <= *c.Above {
		return false
	}
	if c.VersionBelow != "" {
		have, ok1 := parseVersion(v)
		limit, ok2 := parseVersion(c.VersionBelow)
		if !ok1 || !ok2 || compareVersions(have, limit) >= 0 {
			return false
		}
	}
	if c.Unlike != "" && !ff.unlike(fa, c.Unlike == "siblings") {
		return false
	}
	if c.DiffersFromStock != nil {
		if _, differs := ff.stockDiffers(fa, *c.DiffersFromStock); !differs {
			return false
		}
	}
	if c.AboveStock != nil && !ff.stock.above(fa, *c.AboveStock) {
		return false
	}
	return true
}

// unlike reports whether fa's value differs from a value that at least two
// other subjects of its key share and that most of them have; with
// siblings only subjects of the same stem count ("z1" against "z", "z2").
func (ff *fileFacts) unlike(fa printerfiles.Fact, siblings bool) bool {
	counts := map[string]int{}
	others := 0
	stem := strings.TrimRight(fa.Subject, "0123456789")
	if siblings && stem == "" {
		return false // numbered steppers ([stepper_1], [stepper_2]) name no axis to share
	}
	for _, i := range ff.byKey[fa.Key] {
		o := ff.rep.Facts[i]
		if o.Subject == fa.Subject || siblings && strings.TrimRight(o.Subject, "0123456789") != stem {
			continue
		}
		others++
		counts[strings.ToLower(o.Value)]++
	}
	own := strings.ToLower(fa.Value)
	for v, n := range counts {
		if v != own && n >= 2 && 2*n > others {
			return true
		}
	}
	return false
}

// parseVersion reads the release numbers at the start of a version string
// ("v0.12.0-85-g…" is [0 12 0], "2.1.2.1" is [2 1 2 1]).
func parseVersion(s string) ([]int, bool) {
	s = strings.TrimPrefix(strings.TrimSpace(strings.ToLower(s)), "v")
	var out []int
	for part := range strings.SplitSeq(s, ".") {
		end := 0
		for end < len(part) && part[end] >= '0' && part[end] <= '9' {
			end++
		}
		if end == 0 {
			break
		}
		n, err := strconv.Atoi(part[:end])
		if err != nil {
			return nil, false
		}
		out = append(out, n)
		if end < len(part) || len(out) == 4 {
			break
		}
	}
	return out, len(out) > 0
}

func compareVersions(a, b []int) int {
	for i := range max(len(a), len(b)) {
		var x, y int
		if i < len(a) {
			x = a[i]
		}
		if i < len(b) {
			y = b[i]
		}
		if x != y {
			return x - y
		}
	}
	return 0
}

// fixScore adjusts the score of fix fi of mode mi: a fix rule that holds
// adds its weight relative to the best mode's score, a rule-out halves it
// per unit of weight.
func (ev *evidence) fixScore(mi, fi int, score, top float64) float64 {
	if ev == nil {
		return score
	}
	k := fixKey{mi, fi}
	score += top * factFixScale * ev.fixUp[k]
	if d := ev.fixDown[k]; d < 0 {
		score *= math.Pow(0.5, -d)
	}
	return score
}

// applyToModes adds the facts' scores to the ranked modes and sorts them
// again, best first.
func (ev *evidence) applyToModes(ranked []scored) {
	if ev == nil {
		return
	}
	for i := range ranked {
		ranked[i].total += factModeScale * ev.mode[ranked[i].mode]
	}
	slices.SortStableFunc(ranked, func(a, b scored) int {
		switch {
		case a.total > b.total:
			return -1
		case a.total < b.total:
			return 1
		}
		return 0
	})
}

// factSteps are the fixes a strong fact supports whose modes the ranking
// left out.
func (a *analysis) factSteps(added fixSet, top float64) []candidateStep {
	ev := a.ev
	if ev == nil {
		return nil
	}
	var out []candidateStep
	for k, w := range ev.fixUp {
		if w < decisiveWeight || added.has([2]int(k)) {
			continue
		}
		f := &a.e.kb.modes[k[0]].Fixes[k[1]]
		if !a.facts.all(f.When) {
			continue
		}
		score := ev.fixScore(k[0], k[1], math.Max(ev.mode[k[0]], 0.01), top)
		out = append(out, candidateStep{step: Step{Title: f.Title}, fix: f, key: f.key, ref: f.ref, score: score, mode: k[0]})
	}
	sortByScore(out)
	return out
}

// note is what the fact behind a step says, to put before its description;
// "" when no fact supports the fix.
func (ev *evidence) note(f *kbFix) string {
	if ev == nil {
		return ""
	}
	m := ev.quote[f.ref]
	if m == nil {
		return ""
	}
	return m.say()
}

// say fills the rule's Says (or the default "Your file shows “line”.").
func (m *factMatch) say() string {
	says := m.rule.Says
	if says == "" {
		if !m.has {
			return ""
		}
		says = "Your {source} shows “{quote}”."
	}
	quote := cleanQuote(m.fact.Quote, m.fact.Subject)
	source := m.fact.Source
	if source == "" {
		source = "file"
	}
	r := strings.NewReplacer("{source}", source, "{quote}", quote,
		"{value}", truncateRunes(oneLine(m.fact.Value), 60), "{subject}", subjectName(m.fact.Subject),
		"{stock}", truncateRunes(oneLine(m.stock), 60), "{stockName}", m.from)
	return sentence(r.Replace(says))
}

// summaryNote names the fact that decided the top mode, or "".
func (ev *evidence) summaryNote(mi int) string {
	if ev == nil || ev.decisive[mi] == nil || !ev.decisive[mi].has || ev.decisive[mi].rule.Weight < decisiveWeight {
		return ""
	}
	m := ev.decisive[mi]
	return fmt.Sprintf("Your %s shows “%s”.", m.fact.Source, cleanQuote(m.fact.Quote, m.fact.Subject))
}

// subjectName is a fact's subject as a maker reads it.
func subjectName(s string) string {
	switch s {
	case "extruder":
		return "hotend"
	case "heater_bed":
		return "bed"
	case "x", "y", "z", "z1", "z2", "z3":
		return strings.ToUpper(s) + " axis"
	case "mcu":
		return "printer board"
	case "":
		return "printer"
	}
	return strings.ReplaceAll(s, "_", " ")
}

// cleanQuote is a file line as a step quotes it: host and console
// prefixes (time stamps, "Recv:", "echo:", "!!") dropped, a long Stats line
// cut to the part about the subject, whitespace folded, at most
// maxQuoteRunes.
func cleanQuote(q, subject string) string {
	if i := strings.Index(q, "Recv: "); i >= 0 {
		q = q[i+len("Recv: "):]
	}
	if i := strings.Index(q, "!! "); i >= 0 && i < 24 {
		q = q[i+len("!! "):]
	} else if i := strings.IndexAny(q, "\t"); i > 0 && i < 32 && q[0] >= '0' && q[0] <= '9' {
		q = q[i+1:] // a console's date and time, not a config.g command before its comment
	} else if i := strings.Index(q, "  "); i > 0 && i < 12 && strings.Trim(q[:i], "0123456789:") == "" {
		q = q[i+2:]
	}
	q = oneLine(q)
	q = strings.TrimSpace(strings.TrimPrefix(strings.TrimSpace(q), "echo:"))
	if strings.HasPrefix(q, "Stats ") && subject != "" {
		if i := strings.Index(q, " "+subject+": "); i >= 0 {
			fields := strings.Fields(q[i+1:])
			q = strings.Join(fields[:min(len(fields), 4)], " ")
		}
	}
	q = strings.Join(strings.Fields(q), " ")
	return truncateRunes(q, maxQuoteRunes)
}

// oneLine drops control characters and invalid UTF-8.
func oneLine(s string) string {
	if !utf8.ValidString(s) {
		s = strings.ToValidUTF8(s, "")
	}
	return strings.Map(func(r rune) rune {
		if r < 0x20 || r == 0x7f {
			return ' '
		}
		return r
	}, s)
}

// shipsWithPrinter reports whether a rule that reads a fault into a
// setting (weight above a relevance rule's) meets the very value the
// example config for the maker's own printer ships: what the vendor built
// the printer with is not the fault (a Prusa MINI's hotend fan at
// fan_speed 0.5, a delta's max_z_velocity of 200). A rule that also needs
// an error or warning from a log, or the maker's words or printer (a
// geared extruder fitted where the stock one turned the other way), still
// holds. A board's own example counts for what the board fixes: the sense
// resistors of its built-in drivers (a Duet 3 Mini's 0.056 Ω).
func (ff *fileFacts) shipsWithPrinter(r factRule, fa printerfiles.Fact) bool {
	if ff.stock == nil || !ff.stock.printer && !boardValues[fa.Key] || r.onStock() || fa.IsError() || len(r.Mentions) > 0 || len(r.When) > 0 {
		return false
	}
	for _, c := range r.And {
		if strings.HasPrefix(c.Key, "error.") || strings.HasPrefix(c.Key, "warning.") {
			return false
		}
	}
	sv, known := ff.stock.value(factSlot{fa.Key, fa.Subject})
	if !known {
		return false
	}
	if n, err := strconv.ParseFloat(strings.TrimSpace(sv), 64); err == nil && fa.HasNum {
		return math.Abs(fa.Num-n) <= 1e-6*math.Max(math.Abs(n), 1)
	}
	if pinKeys[fa.Key] {
		return normPin(fa.Value) == normPin(sv)
	}
	return sameText(fa.Value, sv)
}

// boardValues are the settings a board example fixes for every config on
// that board, beyond its pins and firmware build.
var boardValues = map[string]bool{"driver.sense_resistor": true}

// stockDiffers compares fa with the stock example. A board example may ask
// for a crystal per micro-controller ("12MHz crystal" for an STM32F446,
// "8MHz" for an STM32F429): the maker's chip picks it.
func (ff *fileFacts) stockDiffers(fa printerfiles.Fact, tol float64) (string, bool) {
	if fa.Key == "mcu.crystal" {
		if chip, ok := ff.rep.Find("mcu.chip", fa.Subject); ok {
			if sv, ok := ff.stock.chipValue(fa.Key, chip.Value); ok {
				n, err := strconv.ParseFloat(sv, 64)
				return sv, err == nil && fa.HasNum && math.Abs(fa.Num-n) > tol*math.Max(math.Abs(n), 1e-9)
			}
		}
	}
	return ff.stock.differs(fa, tol)
}
