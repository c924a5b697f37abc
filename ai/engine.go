package ai

import (
	"bytes"
	"context"
	"fmt"
	"io/fs"
	"math"
	"slices"
	"sort"
	"strconv"
	"strings"
	"unicode/utf8"
)

// Engine is the built-in offline analyzer. It ranks the knowledge base's
// failure modes by how well the description matches their terms (with
// stemming and misspelling correction), uses the chosen category as a prior
// and the print settings as signals, and turns the best modes' fixes plus
// rules on the maker's own numbers into prioritized steps. It is safe for
// concurrent use.
type Engine struct {
	kb    *knowledge
	spell *speller

	words   map[string]int32 // every word of the terms, phrases and mode texts -> its id
	byWord  []wordPostings   // by word id
	phrases []*phraseEntry
	idf     map[string]float64
	rank    []int // position of each mode within its category

	resting  map[string]*restingRank // by category, "" for none: the modes a request leaves alone
	settings []signalModes           // the signals' conditions, each with its modes

	cases     *caseIndex        // the embedded case base
	local     localCases        // this server's confirmed steps
	fixByRef  map[string][2]int // fixRef -> mode and fix index
	titles    *fixTitles        // fix titles, for the cases' patterns
	factRules []factRule        // every rule on the facts of attached files
	factKeys  map[string]bool   // the keys those rules use

	printerNames  *nameFinder // findPrinter on the knowledge's printers
	materialNames *nameFinder // findMaterialInText on its materials
	materialField *nameFinder // findMaterial on its materials
	fixBase       []int       // per mode, the number of fixes of the modes before it
	fixCount      int         // fixes of all modes

	ruleRel map[string][]float64 // relevance of each rule condition's step, per mode
}

type termEntry struct {
	mode     int
	seq      []string
	text     string
	weight   float64
	negative bool
	weak     bool
}

// wordPostings is what one word of a description can match.
type wordPostings struct {
	terms   []*termEntry // terms starting with the word
	phrases []int        // phrases containing it
	doc     []docPosting // modes whose texts have it
}

type phraseEntry struct {
	mode int
	toks []string
}

type docPosting struct {
	mode   int
	weight float64
}

var (
	_ Analyzer = (*Engine)(nil)
	_ Grounder = (*Engine)(nil)
)

// Scoring weights. Description evidence dominates; the category is a prior
// that decides between modes with similar evidence.
const (
	categoryPrior = 0.7
	// emptyPriorFactor scales the prior of a chosen-category mode without
	// description evidence.
	emptyPriorFactor = 1.0
	signalScale      = 0.4
	negativeWeight   = 0.8
	weakTermFactor   = 0.35 // a mode's weakTerms: hints, not symptoms
	phraseWeight     = 1.2
	docWeight        = 0.12
	fuzzyFactor      = 0.85
	triedFactor      = 0.9 // evidence from a sentence about what the maker already tried
	triedFixFactor   = 0.9
	repeatBonus      = 0.3
	maxSteps         = 7
	minSteps         = 3
	maxTips          = 6
	maxGap           = 1 // words allowed inside a multi-word term
	rankedModes      = 4 // modes whose fixes become steps
	maxSummaryRune   = 900
	maxDescRune      = 1000
)

// fixDecay weights a mode's fixes in the order the knowledge base lists them.
var fixDecay = []float64{1, 0.78, 0.62, 0.5, 0.42}

// CategoryLabels are the display labels of Categories.
var CategoryLabels = map[string]string{
	"first-layer":         "First Layer Problems",
	"bed-adhesion":        "Bed Adhesion & Warping",
	"stringing":           "Stringing & Oozing",
	"layer-quality":       "Layer Quality & Surface",
	"support-issues":      "Support & Bridging",
	"extrusion-issues":    "Extrusion Issues",
	"mechanical-problems": "Mechanical Problems",
	"heating-issues":      "Temperature & Heating",
	"calibration":         "Calibration & Setup",
	"other":               "Other / I Don't Know",
}

// NewEngine loads and validates the embedded knowledge base.
func NewEngine() (*Engine, error) {
	sub, err := fs.Sub(kbFiles, "kb")
	if err != nil {
		return nil, fmt.Errorf("open embedded kb: %w", err)
	}
	cases, err := fs.Sub(caseFiles, "testdata/casebase")
	if err != nil {
		return nil, fmt.Errorf("open embedded case base: %w", err)
	}
	return newEngineFS(sub, cases)
}

// newEngineFS builds an engine from a knowledge base laid out as in ai/kb
// and a case base of JSON files (nil: no cases).
func newEngineFS(fsys, caseFS fs.FS) (*Engine, error) {
	kb, err := loadKnowledge(fsys)
	if err != nil {
		return nil, err
	}
	english, err := englishWords()
	if err != nil {
		return nil, err
	}
	e := &Engine{
		kb:       kb,
		spell:    newSpeller(english),
		words:    map[string]int32{},
		idf:      map[string]float64{},
		rank:     make([]int, len(kb.modes)),
		fixByRef: map[string][2]int{},
	}
	for _, p := range kb.printers {
		for _, n := range p.Names {
			p.compactNames = append(p.compactNames, compact(n))
		}
		if p.Notes != "" {
			p.tip = p.Name + ": " + p.Notes
		}
		p.extruderNotes = makeExtruderNotes(p)
	}
	for _, m := range kb.materials {
		m.tip = materialTip(m)
		m.nozzleRange, m.bedRange = fmtRange(m.Nozzle, "°C"), fmtRange(m.Bed, "°C")
		if m.Hygroscopic {
			m.dryStep = dryStep(m)
			m.dryKey = titleKey(m.dryStep.Title)
		}
	}
	e.printerNames, e.materialNames = printerFinder(kb.printers), materialFinder(kb.materials)
	e.materialField = materialFieldFinder(kb.materials)
	for _, m := range kb.modes {
		e.fixBase = append(e.fixBase, e.fixCount)
		e.fixCount += len(m.Fixes)
	}
	for mi, m := range kb.modes {
		m.lowerName = lowerFirst(m.Name)
		m.head = "This looks most like " + m.lowerName + " (" + CategoryLabels[m.Category] + "). " + sentence(m.Summary)
		for i := range m.Signals {
			sig := &m.Signals[i]
			sig.cond, sig.negate = strings.CutPrefix(sig.When, "!")
			sig.eval = conditions[sig.cond]
		}
		for i := range m.Fixes {
			m.Fixes[i].key = titleKey(m.Fixes[i].Title)
			m.Fixes[i].titleToks = tokens(m.Fixes[i].Title)
			m.Fixes[i].ref = fixRef(m.ID, m.Fixes[i].Title)
			m.Fixes[i].retract = strings.Contains(strings.ToLower(m.Fixes[i].Title), "retract")
			m.Fixes[i].shape = shapeOfTitle(m.Fixes[i].Title)
			m.Fixes[i].direction, _ = directionOf(m.Fixes[i].Title)
			e.fixByRef[m.Fixes[i].ref] = [2]int{mi, i}
		}
	}
	e.ruleRel = make(map[string][]float64, len(ruleConcepts))
	for cond := range ruleConcepts {
		rel := make([]float64, len(kb.modes))
		for mi := range kb.modes {
			rel[mi] = e.relevance(mi, cond)
		}
		e.ruleRel[cond] = rel
	}
	e.index()
	e.indexResting()
	e.compileFactRules()
	e.titles = newFixTitles(kb.modes)
	var cases []Case
	if caseFS != nil {
		if cases, err = loadCases(caseFS); err != nil {
			return nil, err
		}
	}
	if e.cases, err = e.buildCaseIndex(cases, nil); err != nil {
		return nil, err
	}
	return e, nil
}

// index precomputes everything a request needs: term postings with their
// specificity, phrase postings, the spelling vocabulary and a bag of words
// per mode.
func (e *Engine) index() {
	type key struct {
		mode int
		seq  string
	}
	seen := map[key]bool{}
	df := map[string]int{}                // modes listing a term
	dfCat := map[string]map[string]bool{} // categories listing a term
	var entries []*termEntry
	var texts []string // the terms and phrases, whose words the speller knows
	perCategory := map[string]int{}
	for mi, m := range e.kb.modes {
		if m.FilesOnly {
			e.rank[mi] = math.MaxInt32
			continue
		}
		e.rank[mi] = perCategory[m.Category]
		perCategory[m.Category]++
		add := func(text string, negative, weak bool) {
			texts = append(texts, text)
			seq := tokens(text)
			if len(seq) == 0 {
				return
			}
			k := key{mi, strings.Join(seq, " ")}
			if negative {
				k.seq = "!" + k.seq
			}
			if seen[k] {
				return
			}
			seen[k] = true
			if !negative {
				df[k.seq]++
				if dfCat[k.seq] == nil {
					dfCat[k.seq] = map[string]bool{}
				}
				dfCat[k.seq][m.Category] = true
			}
			entries = append(entries, &termEntry{mode: mi, seq: seq, text: text, negative: negative, weak: weak})
			for _, t := range seq {
				e.spell.add(t)
			}
		}
		for _, t := range m.Terms {
			add(t, false, false)
		}
		for _, t := range m.WeakTerms {
			add(t, false, true)
		}
		for _, t := range m.Negative {
			add(t, true, false)
		}
		for _, p := range m.Phrases {
			texts = append(texts, p)
			toks := uniq(tokens(p))
			if len(toks) < 2 {
				continue // nothing but stop words and one word: too vague
			}
			pi := len(e.phrases)
			e.phrases = append(e.phrases, &phraseEntry{mode: mi, toks: toks})
			for _, t := range toks {
				w := e.word(t)
				w.phrases = append(w.phrases, pi)
				e.spell.add(t)
			}
		}
	}
	e.spell.learnWords(texts)
	// A term's weight grows with its length and shrinks with the number of
	// categories and, more gently, modes that list it: "stringing" in five
	// stringing modes still says "stringing" loudly.
	for _, te := range entries {
		base := math.Min(1+0.6*float64(len(te.seq)-1), 2.5)
		k := strings.Join(te.seq, " ")
		d, dc := max(df[k], 1), max(len(dfCat[k]), 1)
		if te.negative {
			d, dc = 1, 1
		}
		te.weight = base / math.Sqrt(float64(dc)) / math.Pow(float64(d), 0.25)
		if len(te.seq) == 1 && len(words(te.text)) > 1 {
			// "more than it should" is left with "more": too vague to count fully.
			te.weight *= 0.3
		}
		if te.weak {
			te.weight *= weakTermFactor
		}
		w := e.word(te.seq[0])
		w.terms = append(w.terms, te)
	}

	// Bag of words over each mode's name, summary, causes and fix titles:
	// weak evidence for descriptions that use none of the listed terms.
	docs := make([]map[string]bool, len(e.kb.modes))
	docDF := map[string]int{}
	wordModes := 0
	for mi, m := range e.kb.modes {
		if m.FilesOnly {
			continue
		}
		wordModes++
		text := []string{m.Name, m.Summary}
		text = append(text, m.Causes...)
		text = append(text, m.Terms...)
		for _, f := range m.Fixes {
			text = append(text, f.Title)
		}
		set := map[string]bool{}
		for _, t := range tokens(strings.Join(text, " . ")) {
			if len(t) < 3 || isDigits(t) {
				continue
			}
			set[t] = true
		}
		docs[mi] = set
		for t := range set {
			docDF[t]++
		}
	}
	n := float64(wordModes)
	for t, d := range docDF {
		e.idf[t] = math.Log(1 + n/float64(d))
	}
	for mi, set := range docs {
		norm := math.Sqrt(float64(len(set)))
		for t := range set {
			w := e.word(t)
			w.doc = append(w.doc, docPosting{mode: mi, weight: e.idf[t] / norm})
		}
	}
}

// word returns the postings of word t, adding it when new.
func (e *Engine) word(t string) *wordPostings {
	id, ok := e.words[t]
	if !ok {
		id = int32(len(e.byWord))
		e.words[t] = id
		e.byWord = append(e.byWord, wordPostings{})
	}
	return &e.byWord[id]
}

func uniq(list []string) []string {
	out := make([]string, 0, len(list))
	if len(list) <= 16 { // a few words: a scan costs less than a map
		for _, s := range list {
			if !slices.Contains(out, s) {
				out = append(out, s)
			}
		}
		return out
	}
	seen := make(map[string]bool, len(list))
	for _, s := range list {
		if !seen[s] {
			seen[s] = true
			out = append(out, s)
		}
	}
	return out
}

// scored is one failure mode's score for a request.
type scored struct {
	mode     int
	text     float64  // description evidence from terms and phrases
	weak     float64  // bag-of-words evidence
	total    float64  // everything
	evidence []string // the maker's words that matched
}

type span struct{ start, end int }

type termMatch struct {
	te   *termEntry
	span span
	w    float64
}

// analysis is the state of one request. Finished analyses are reused
// (release), with the room their facts, tokens and candidate steps took.
type analysis struct {
	e      *Engine
	req    *Request
	facts  *facts
	toks   []token
	ranked []scored        // best first
	votes  *caseVote       // what the nearest solved cases say; nil: none close
	ev     *evidence       // what the attached files show; nil: none
	cands  []candidateStep // room for the candidate steps, reused

	factRoom facts   // what facts points to
	reqRoom  Request // what req points to
}

// prepare resolves the material and printer and ranks the modes of a copy
// of the request, which the attached files complete.
func (e *Engine) prepare(in *Request) *analysis {
	a := newAnalysis(e, in)
	req := a.req
	files := readFiles(req) // also fills settings the maker did not type
	e.fillFacts(&a.factRoom, req)
	a.facts = &a.factRoom
	a.ev = e.evaluate(files, a.facts)
	a.toks = e.spell.appendTokens(a.toks, req.Description)
	a.votes = e.vote(req, a.toks, a.facts.printer)
	var boost []float64
	if a.votes != nil {
		boost = a.votes.mode
	}
	a.ranked = e.rankModes(req, a.toks, a.facts, boost)
	a.ev.applyToModes(a.ranked)
	a.ranked = e.dropUnrevealed(a.ranked)
	return a
}

// dropUnrevealed removes from ranked the modes only files reveal that no
// fact of the files lifted, keeping the order (slices.DeleteFunc without a
// call and a copy per mode).
func (e *Engine) dropUnrevealed(ranked []scored) []scored {
	gone := func(s *scored) bool { return s.total <= 0 && e.kb.modes[s.mode].FilesOnly }
	i := 0
	for i < len(ranked) && !gone(&ranked[i]) {
		i++
	}
	if i == len(ranked) {
		return ranked
	}
	j := i
	for k := i + 1; k < len(ranked); k++ {
		if !gone(&ranked[k]) {
			ranked[j] = ranked[k]
			j++
		}
	}
	clear(ranked[j:])
	return ranked[:j]
}

func (e *Engine) facts(req *Request) *facts {
	f := new(facts)
	e.fillFacts(f, req)
	return f
}

// fillFacts sets f to the facts of req.
func (e *Engine) fillFacts(f *facts, req *Request) {
	*f = facts{req: req, nozzle: defaultNozzle}
	if req.NozzleSize != nil && *req.NozzleSize > 0 {
		f.nozzle = *req.NozzleSize
	}
	if n, ok := e.materialField.find(strings.ToLower(req.Material), 0); ok {
		f.mat = e.kb.materials[n.ref]
	}
	if f.mat == nil && strings.TrimSpace(req.Material) == "" {
		if n, ok := e.materialNames.find(strings.ToLower(req.Description), 0); ok {
			f.mat = e.kb.materials[n.ref]
		}
	}
	// The printer is found in compact(brand + " " + model), made on the stack.
	var room [64]byte
	if c := appendCompact(appendCompact(room[:0], req.PrinterBrand), req.PrinterModel); len(c) > 0 {
		if n, ok := e.printerNames.find(string(c), 0); ok {
			f.printer = e.kb.printers[n.ref]
		}
	}
	if f.printer != nil {
		if f.printer.Extruder != "unknown" {
			f.extruder = f.printer.Extruder
		}
		if f.printer.Motion != "unknown" {
			f.motion = f.printer.Motion
		}
	}
	if f.extruder == "" {
		desc := strings.ToLower(req.Description + " " + req.PrinterBrand + " " + req.PrinterModel)
		switch {
		case strings.Contains(desc, "direct drive") || strings.Contains(desc, "direct-drive"):
			f.extruder = "direct"
		case strings.Contains(desc, "bowden"):
			f.extruder = "bowden"
		}
	}
}

// rankModes scores every mode and returns them best first; boost adds the
// votes of similar solved cases per mode.
func (e *Engine) rankModes(req *Request, toks []token, f *facts, boost []float64) []scored {
	sc := e.rankScratch()
	defer e.releaseRankScratch(sc)
	e.scoreModes(sc, req, toks, f, boost)
	ranked := newRanked(len(e.kb.modes))
	sc.bestFirst(sc.score, e.restingRank(req.Category), ranked)
	return ranked
}

// restingRank is the order of the modes a request in category leaves alone.
func (e *Engine) restingRank(category string) *restingRank {
	if rest, ok := e.resting[category]; ok {
		return rest
	}
	return e.resting[""]
}

// scoreModes scores into sc the modes the request touches (sc.hit): the
// others keep the totals their category gives them.
func (e *Engine) scoreModes(sc *rankScratch, req *Request, toks []token, f *facts, boost []float64) {
	scores := sc.score

	// Terms: every occurrence, then per mode the strongest non-overlapping set.
	matches := sc.matches[:0]
	defer func() { sc.matches = matches }()
	ids := sc.wordIDs(e.words, toks)
	for i, t := range toks {
		if ids[i] < 0 {
			continue // a word no term, phrase or mode text has
		}
		for _, te := range e.byWord[ids[i]].terms {
			end, fuzzy, ok := matchSeq(toks, i, te.seq)
			if !ok || negated(toks, i, te) {
				continue
			}
			w := te.weight
			if fuzzy {
				w *= fuzzyFactor
			}
			if t.tried {
				w *= triedFactor
			}
			matches = append(matches, termMatch{te: te, span: span{i, end}, w: w})
		}
	}
	sortStable(matches, func(a, b termMatch) bool {
		la, lb := a.span.end-a.span.start, b.span.end-b.span.start
		if la != lb {
			return la > lb
		}
		return a.w > b.w
	})
	// A term counts once, with a small bonus when the maker repeats it.
	used, counted := sc.used[:0], sc.counted[:0]
	defer func() { sc.used, sc.counted = used, counted }()
	for _, m := range matches {
		mi := m.te.mode
		c := slices.IndexFunc(counted, func(c termCount) bool { return c.te == m.te })
		if (c >= 0 && counted[c].n > 1) || overlapsInMode(used, mi, m.span) {
			continue
		}
		if c < 0 {
			c = len(counted)
			counted = append(counted, termCount{te: m.te})
		}
		counted[c].n++
		used = append(used, modeSpan{mode: mi, span: m.span})
		sc.touch(mi)
		if m.te.negative {
			if counted[c].n == 1 {
				scores[mi].total -= negativeWeight
			}
			continue
		}
		if counted[c].n == 2 {
			scores[mi].text += repeatBonus * m.w
			continue
		}
		scores[mi].text += m.w
		ev := m.te.text // a match with a gap quotes the term
		if m.span.end-m.span.start == len(m.te.seq) {
			ev = rawSpan(toks, m.span) // the maker's own words, misspellings included
		}
		scores[mi].evidence = append(scores[mi].evidence, ev)
	}

	distinct := sc.distinct(ids)
	// Phrases: loose bag-of-words match, the best phrase of a mode counts.
	e.phraseScores(sc, distinct, scores)

	// Bag of words: weak evidence from names, summaries and causes.
	for _, id := range distinct {
		for _, p := range e.byWord[id].doc {
			sc.touch(p.mode)
			scores[p.mode].weak += docWeight * p.weight
		}
	}
	e.touchBySettings(sc, req, f, boost)

	for _, mi := range sc.hitList {
		e.settle(int(mi), &scores[mi], req, f, sc.held, boost)
	}
}

// settle turns mode i's evidence in s into its total: the description's
// evidence, the category prior, the signals of the settings (held: which
// conditions of e.settings hold for f; nil when none), the similar cases'
// votes (boost, nil for none), the answers, and last the mode's place in
// its category, which breaks ties.
func (e *Engine) settle(i int, s *scored, req *Request, f *facts, held []bool, boost []float64) {
	m := e.kb.modes[i]
	if m.FilesOnly {
		return // ranked by the files' facts alone
	}
	s.total += s.text + s.weak
	inCategory := req.Category != "" && req.Category != "other" && m.Category == req.Category
	if inCategory {
		s.total += categoryPrior
	}
	// Settings make a mode more likely, but without a word of the
	// description behind it they only break ties.
	scale := signalScale
	if s.text == 0 {
		scale = signalScale / 3
	}
	for k := range m.Signals {
		sig := &m.Signals[k]
		if held != nil && held[sig.held] != sig.negate {
			sev := 0.5 // a negated condition has no degree
			if !sig.negate {
				sev = f.heldSeverity(sig.When)
			}
			s.total += scale * sig.Weight * (0.5 + sev)
		}
	}
	vote := 0.0
	if boost != nil {
		vote = boost[i]
	}
	s.total += caseModeWeight * vote
	for _, q := range e.kb.questions {
		if len(req.Answers) == 0 {
			break
		}
		if ans, ok := req.Answers[q.ID]; ok && s.total > 0 {
			s.total *= q.factor(ans, i)
		}
	}
	// Ties go to the mode listed first in its category.
	s.total -= 0.001 * float64(e.rank[i])
}

// signalModes is one condition of the settings with the modes whose
// signals it moves: on when it holds, off (negated signals) when not.
type signalModes struct {
	cond    string
	eval    func(*facts) bool
	on, off []int32
}

// touchBySettings marks the modes the settings, the similar cases and the
// answers move: a signal that holds, a vote, an answer's factor.
func (e *Engine) touchBySettings(sc *rankScratch, req *Request, f *facts, boost []float64) {
	sc.held = sc.held[:0]
	for _, c := range e.settings {
		held := c.eval(f)
		sc.held = append(sc.held, held)
		moved := c.off
		if held {
			moved = c.on
		}
		for _, mi := range moved {
			sc.touch(int(mi))
		}
	}
	for mi, v := range boost {
		if v != 0 {
			sc.touch(mi)
		}
	}
	for _, q := range e.kb.questions {
		if len(req.Answers) == 0 {
			break
		}
		ans, ok := req.Answers[q.ID]
		if !ok {
			continue
		}
		for _, effect := range q.effect {
			for mi := range effect {
				if q.factor(ans, mi) != 1 {
					sc.touch(mi)
				}
			}
		}
	}
}

// indexResting ranks, for every category and for none, the modes a request
// leaves alone (no evidence, no signal, no vote, no answer), and groups
// the modes by the conditions of their signals.
func (e *Engine) indexResting() {
	e.resting = map[string]*restingRank{}
	cats := []string{""}
	for _, m := range e.kb.modes {
		if m.Category != "" && m.Category != "other" && !slices.Contains(cats, m.Category) {
			cats = append(cats, m.Category)
		}
	}
	for _, c := range cats {
		req := &Request{Category: c}
		rest := &restingRank{total: make([]float64, len(e.kb.modes))}
		for i := range e.kb.modes {
			s := scored{mode: i}
			e.settle(i, &s, req, nil, nil, nil)
			rest.total[i] = s.total
			rest.order = append(rest.order, rankKey{total: s.total, mode: int32(i)})
		}
		slices.SortFunc(rest.order, rankOrder)
		e.resting[c] = rest
	}
	byCond := map[string]int{}
	for mi, m := range e.kb.modes {
		for k := range m.Signals {
			sig := &m.Signals[k]
			ci, ok := byCond[sig.cond]
			if !ok {
				ci = len(e.settings)
				byCond[sig.cond] = ci
				e.settings = append(e.settings, signalModes{cond: sig.cond, eval: sig.eval})
			}
			sig.held = ci
			c := &e.settings[ci]
			switch {
			case m.FilesOnly: // never ranked by its signals
			case sig.negate:
				c.off = append(c.off, int32(mi))
			default:
				c.on = append(c.on, int32(mi))
			}
		}
	}
}

// matchSeq matches a term's token sequence at toks[i], allowing maxGap extra
// words inside it and never reaching into the next clause ("the bed, then it
// came loose" is not "bed loose"). It returns the end of the match
// (exclusive).
func matchSeq(toks []token, i int, seq []string) (end int, fuzzy bool, ok bool) {
	fuzzy = toks[i].fuzzy
	if len(seq) == 1 {
		return i + 1, fuzzy, true
	}
	j := i + 1
	gaps := 0
	for _, want := range seq[1:] {
		found := false
		for j < len(toks) && !toks[j].clause {
			if toks[j].text == want {
				fuzzy = fuzzy || toks[j].fuzzy
				j++
				found = true
				break
			}
			if gaps == maxGap {
				break
			}
			gaps++
			j++
		}
		if !found {
			return 0, false, false
		}
	}
	return j, fuzzy, true
}

// negator reports whether w denies the term right after it: "no stringing",
// "not clogged", "without supports".
func negator(w string) bool {
	switch w {
	case "not", "no", "without":
		return true
	}
	return false
}

// negated reports whether the term matched at toks[i] is denied by the word
// before it in the same clause ("the belt is not loose" does not say "loose").
// Terms that carry their own negation ("not sticking") are never negated.
func negated(toks []token, i int, te *termEntry) bool {
	if i == 0 || toks[i].clause || negator(te.seq[0]) {
		return false
	}
	return negator(toks[i-1].text)
}

func rawSpan(toks []token, s span) string {
	if s.end-s.start == 1 {
		return toks[s.start].raw
	}
	n := s.end - s.start - 1
	for _, t := range toks[s.start:s.end] {
		n += len(t.raw)
	}
	var b strings.Builder
	b.Grow(n)
	for i, t := range toks[s.start:s.end] {
		if i > 0 {
			b.WriteByte(' ')
		}
		b.WriteString(t.raw)
	}
	return b.String()
}

// candidateStep is a step with the score that orders it.
type candidateStep struct {
	step    Step
	key     []string // titleKey of the title
	fix     *kbFix   // the mode fix, whose description is filled in when picked
	ref     string   // the knowledge-base step it is (StepRefs); "" for history
	score   float64
	mode    int // -1 for rule and history steps
	history bool
	makers  int // makers of this server who confirmed it for similar problems
}

// Analyze implements Analyzer.
func (e *Engine) Analyze(ctx context.Context, req Request) (*Result, error) {
	if err := ctx.Err(); err != nil {
		return nil, err
	}
	a := e.prepare(&req)
	defer a.release()
	steps, rules := a.steps()
	return &Result{
		Summary:        a.summary(rules),
		Steps:          steps,
		AdditionalTips: a.tips(),
		Questions:      a.questions(),
		Answers:        answered(req.Answers, e.kb.questions),
		Engine:         EngineBuiltIn,
	}, nil
}

// Candidates implements Grounder: the n most likely modes with their fixes,
// the request's own numbers filled in.
func (e *Engine) Candidates(req Request, n int) []Candidate {
	a := e.prepare(&req)
	defer a.release()
	if n > len(a.ranked) {
		n = len(a.ranked)
	}
	out := make([]Candidate, 0, n)
	for _, s := range a.ranked[:n] {
		m := e.kb.modes[s.mode]
		c := Candidate{
			ID: m.ID, Category: m.Category, Name: m.Name, Summary: m.Summary,
			Causes: append([]string(nil), m.Causes...),
			Score:  math.Round(s.total*100) / 100,
		}
		for _, f := range a.modeFixes(s.mode) {
			own := a.facts.ownNumbers(&f)
			c.Fixes = append(c.Fixes, Step{Title: own.title, Description: a.fixDescription(&f, own), Priority: PriorityMedium})
		}
		out = append(out, c)
	}
	return out
}

// modeFixes are a mode's fixes whose conditions hold.
func (a *analysis) modeFixes(mi int) []kbFix {
	m := a.e.kb.modes[mi]
	out := make([]kbFix, 0, len(m.Fixes))
	for i := range m.Fixes {
		if a.facts.applies(&m.Fixes[i]) {
			out = append(out, m.Fixes[i])
		}
	}
	return out
}

// fixDescription is a fix's description with the notes that apply to this
// printer and material, written into room on the stack and copied out once.
func (a *analysis) fixDescription(f *kbFix, own ownNumbers) string {
	var room [maxDescRune + 24]byte // most descriptions fit
	b := room[:0]
	d := description{own: own}
	if a.facts.mat != nil {
		d.label = a.facts.mat.label()
	}
	if own.line != "" {
		b = append(b, own.line...)
	}
	note := a.ev.note(f)
	if note != "" {
		b = d.add(b, note)
	}
	b = d.add(b, f.Description)
	before := d.parts
	b = a.facts.appendValueNotes(b, &d, f.Values)
	if d.parts == before && f.retract {
		switch a.facts.extruder {
		case "bowden":
			b = d.add(b, a.facts.extruderNote(), ": Bowden retraction usually works at 4–6 mm and 40–50 mm/s.")
		case "direct":
			b = d.add(b, a.facts.extruderNote(), ": direct-drive retraction usually works at 0.5–2 mm and 30–45 mm/s.")
		}
	}
	if d.parts == 1 && own.line == "" && note == "" {
		return truncateRunes(f.Description, maxDescRune) // as the knowledge base says it
	}
	return truncateRunes(string(b), maxDescRune)
}

// sentence is s trimmed, with a full stop unless it ends one already.
func sentence(s string) string {
	s = strings.TrimSpace(s)
	if s != "" && !endsSentence(s[len(s)-1]) {
		s += "."
	}
	return s
}

// appendSentence appends sentence(s) to b.
func appendSentence(b []byte, s string) []byte {
	s = strings.TrimSpace(s)
	b = append(b, s...)
	if s != "" && !endsSentence(s[len(s)-1]) {
		b = append(b, '.')
	}
	return b
}

// endsSentence reports whether a text ending in c ends a sentence.
func endsSentence(c byte) bool { return c == '.' || c == '!' || c == '?' }

// steps builds the ordered steps and returns the rule steps that made it in.
func (a *analysis) steps() ([]Step, []ruleStep) {
	top := 0.0
	if len(a.ranked) > 0 {
		top = math.Max(a.ranked[0].total, 0)
	}
	if top == 0 {
		top = 1
	}
	cands := a.candidateRoom()
	added := a.e.newFixSet()
	defer added.release()
	// The best modes' fixes, and more modes while there are too few steps.
	for r := 0; r < len(a.ranked); r++ {
		s := a.ranked[r]
		enough := len(cands) >= minSteps+1
		if enough && (r >= rankedModes || s.total <= 0) {
			break
		}
		base := math.Max(s.total, 0.01) / float64(1+r/rankedModes)
		j := 0
		fixes := a.e.kb.modes[s.mode].Fixes
		for fi := range fixes {
			f := &fixes[fi]
			if !a.facts.applies(f) {
				continue
			}
			d := fixDecay[min(j, len(fixDecay)-1)]
			j++
			if a.alreadyTried(f) {
				d *= triedFixFactor
			}
			cands = append(cands, candidateStep{
				step:  Step{Title: f.Title},
				fix:   f,
				key:   f.key,
				ref:   f.ref,
				score: a.ev.fixScore(s.mode, fi, base*d, top) + a.fixVote(s.mode, fi, top),
				mode:  s.mode,
			})
			added.add([2]int{s.mode, fi})
		}
	}
	cands = append(cands, a.caseSteps(added, top)...)
	cands = append(cands, a.factSteps(added, top)...)

	var ruleRoom [8]ruleStep
	rules := a.facts.appendRuleSteps(ruleRoom[:0])
	var covered []fixDirection
	for _, r := range rules {
		covered = append(covered, r.opposes)
		score := a.ruleScore(r, top)
		cands = append(cands, candidateStep{step: r.step, key: r.key, ref: ruleRef(r.cond), score: score, mode: -1})
	}
	if h := a.historyStep(); h != nil {
		cands = append(cands, *h)
	}
	a.cands = cands // the room as it grew, for the next analysis

	sortCandidates(cands)
	var room [maxSteps]candidateStep
	chosen, best := pick(room[:0], cands, covered)
	if learned := a.withLearned(cands, chosen, added, top); learned != nil {
		chosen, best = pick(room[:0], learned, covered)
	}
	return a.render(chosen, best, rules)
}

// sortCandidates orders cands history first, then by score, ties in list
// order. It sorts their indexes and moves each step once (a step is large:
// moving it at every comparison cost more than the comparisons).
func sortCandidates(cands []candidateStep) {
	var room [64]int32
	ord := room[:0]
	for i := range cands {
		ord = append(ord, int32(i))
	}
	sortStable(ord, func(a, b int32) bool {
		ca, cb := &cands[a], &cands[b]
		if ca.history != cb.history {
			return ca.history
		}
		return ca.score > cb.score
	})
	permute(cands, ord)
}

// permute puts list[ord[i]] at i for every i, following the cycles of ord
// (which it leaves as the identity).
func permute[T any](list []T, ord []int32) {
	for i := range ord {
		if int(ord[i]) == i {
			continue
		}
		tmp := list[i]
		j := i
		for {
			k := int(ord[j])
			ord[j] = int32(j)
			if k == i {
				list[j] = tmp
				break
			}
			list[j] = list[k]
			j = k
		}
	}
}

// pick appends to out (empty) the steps it takes from cands in their order:
// at most maxSteps, no mode fix a rule step already covers, no title that
// repeats a kept one, and past minSteps none far below the best. best is the
// score of the first step that is not history.
func pick(out, cands []candidateStep, covered []fixDirection) (_ []candidateStep, best float64) {
	var room [maxSteps][]string
	keptKeys := room[:0]
	for i := range cands {
		c := &cands[i]
		if len(out) >= maxSteps {
			break
		}
		if c.mode >= 0 && coveredByRule(c.fix, covered) {
			continue
		}
		if !c.history && best == 0 {
			best = c.score
		}
		if len(out) >= minSteps && c.score < 0.3*best {
			break
		}
		key := c.key
		if key == nil {
			key = titleKey(c.step.Title)
		}
		if duplicateTitle(key, keptKeys) {
			continue
		}
		keptKeys = append(keptKeys, key)
		out = append(out, *c)
	}
	return out, best
}

// render writes out the chosen steps: mode fixes with this request's notes,
// confirmed steps saying how many makers confirmed them, priorities that
// never rise down the list. It returns the rule steps among them. It writes
// over chosen.
func (a *analysis) render(chosen []candidateStep, best float64, rules []ruleStep) ([]Step, []ruleStep) {
	out := make([]Step, 0, len(chosen))
	var keptRules []ruleStep
	prev := math.Inf(1)
	for i := range chosen {
		c := &chosen[i] // written over: chosen is not used after
		if c.mode < 0 && !c.history {
			for j := range rules {
				if rules[j].step.Title == c.step.Title {
					keptRules = append(keptRules, rules[j])
				}
			}
		}
		if c.mode >= 0 {
			own := a.facts.ownNumbers(c.fix)
			c.step.Title = own.title
			c.step.Description = a.fixDescription(c.fix, own)
		}
		if c.makers > 0 {
			c.step.Description = truncateRunes(c.step.Description+" "+confirmedNote(c.makers), maxDescRune)
		}
		score := c.score
		if !c.history {
			score = math.Min(score, prev)
			prev = score
		}
		c.step.Priority = priority(len(out), score, best, c.history)
		c.step.Title = truncateRunes(c.step.Title, maxTitleLen)
		out = append(out, c.step)
	}
	return out, keptRules
}

// alreadyTried reports whether the maker says they already did what a fix
// title says: its verb and one more of its words appear in a "tried" sentence.
func (a *analysis) alreadyTried(f *kbFix) bool {
	if len(f.titleToks) < 2 {
		return false
	}
	verb, hits := false, 0
	for _, t := range a.toks {
		if !t.tried {
			continue
		}
		if t.text == f.titleToks[0] {
			verb = true
		} else if containsString(f.titleToks[1:], t.text) {
			hits++
		}
	}
	return verb && hits > 0
}

// ruleScore ranks a rule step by how much the likely modes care about the
// setting it fixes: a mode that lists the rule's condition as a signal or a
// fix condition, or whose fixes talk about the same setting, lifts it.
func (a *analysis) ruleScore(r ruleStep, top float64) float64 {
	best := 0.0
	for i := 0; i < len(a.ranked) && i < rankedModes; i++ {
		s := a.ranked[i]
		if s.total <= 0 {
			break
		}
		best = math.Max(best, s.total*a.e.ruleRelevance(s.mode, r.cond))
	}
	score := best * (0.8 + 0.5*r.severity)
	floor := top * (0.15 + 0.2*r.severity)
	return math.Max(score, floor)
}

// ruleRelevance is relevance(mi, cond), worked out at load for the
// conditions of the rule steps.
func (e *Engine) ruleRelevance(mi int, cond string) float64 {
	if rel, ok := e.ruleRel[cond]; ok {
		return rel[mi]
	}
	return e.relevance(mi, cond)
}

// relevance (0–1) of the rule step answering cond to a mode.
func (e *Engine) relevance(mi int, cond string) float64 {
	m := e.kb.modes[mi]
	rel := 0.0
	for _, s := range m.Signals {
		if s.When == cond && s.Weight > 0 {
			rel = math.Max(rel, math.Min(1, s.Weight/1.5))
		}
	}
	for _, f := range m.Fixes {
		for _, w := range f.When {
			if w == cond {
				rel = math.Max(rel, 0.9)
			}
		}
		if rel < 0.5 {
			for _, t := range f.titleToks {
				for _, c := range ruleConcepts[cond] {
					if strings.HasPrefix(t, c) {
						rel = 0.5
					}
				}
			}
		}
	}
	return rel
}

// coveredByRule reports whether a mode fix changes a setting that a rule step
// already sets from the maker's own numbers: the same advice is a duplicate
// and the opposite advice is wrong for this request. The setting a fix
// changes is read from its title at load (f.direction).
func coveredByRule(f *kbFix, covered []fixDirection) bool {
	d := f.direction
	if d.quantity == "" {
		return false
	}
	for _, o := range covered {
		if o.quantity != "" && o.quantity == d.quantity {
			return true
		}
	}
	return false
}

// titleSynonyms fold verbs that mean the same action in step titles; verbs
// mapped to "" say nothing about the action and are left out.
var titleSynonyms = map[string]string{
	"wash": "clean", "wip": "clean", "degreas": "clean", "tighten": "tension",
	"re": "", "run": "", "us": "", "set": "", "check": "", "mak": "", "add": "", "try": "", "keep": "",
}

// titleKey is the set of content stems of a title, numbers and generic verbs
// left out.
func titleKey(title string) []string {
	var room, stems [24]string // a title's words and stems, on the stack
	out := stems[:0]
	for _, w := range appendWords(room[:0], title) {
		t := normWord(w)
		if t == "" {
			continue
		}
		if s, ok := titleSynonyms[t]; ok {
			t = s
		}
		if t == "" || strings.ContainsAny(t, "0123456789") || t == "mm" || t == "c" {
			continue
		}
		out = append(out, t)
	}
	key := uniq(out) // its own copy, off the stack
	sort.Strings(key)
	return key
}

// duplicateTitle reports whether key says nearly the same as a kept title:
// they share at least two words and most of the words of the shorter one.
func duplicateTitle(key []string, kept [][]string) bool {
	for _, k := range kept {
		inter := 0
		for _, t := range key {
			if containsString(k, t) {
				inter++
			}
		}
		if len(key) == 0 || len(k) == 0 {
			if len(key) == len(k) {
				return true
			}
			continue
		}
		union := len(key) + len(k) - inter
		shorter := min(len(key), len(k))
		if inter >= 2 && (float64(inter)/float64(union) >= 0.6 || float64(inter)/float64(shorter) >= 0.75) {
			return true
		}
		if inter == shorter && shorter == 1 && len(key) == len(k) {
			return true
		}
	}
	return false
}

func containsString(list []string, s string) bool {
	for _, v := range list {
		if v == s {
			return true
		}
	}
	return false
}

func priority(pos int, score, best float64, history bool) string {
	if pos == 0 || history {
		return PriorityHigh
	}
	rel := score / best
	switch {
	case rel >= 0.7:
		return PriorityHigh
	case rel >= 0.4:
		return PriorityMedium
	}
	return PriorityLow
}

// historyStep is the fix that worked on this printer for a similar problem.
func (a *analysis) historyStep() *candidateStep {
	if len(a.req.History) == 0 {
		return nil
	}
	topMode := -1
	if len(a.ranked) > 0 && a.ranked[0].text > 0 {
		topMode = a.ranked[0].mode
	}
	mine := map[string]bool{}
	for _, t := range a.toks {
		mine[t.text] = true
	}
	bestSim, best := 0.0, -1
	for i, h := range a.req.History {
		if i >= 20 {
			break
		}
		if len(h.StepTitles) == 0 || strings.TrimSpace(h.StepTitles[0]) == "" {
			continue
		}
		sim := 0.0
		if h.Category != "" && h.Category != "other" && h.Category == a.req.Category {
			sim += 1
		}
		past := a.e.spell.analyze(h.Description)
		overlap := 0.0
		counted := map[string]bool{}
		for _, t := range past {
			if mine[t.text] && !counted[t.text] {
				counted[t.text] = true
				overlap += math.Min(a.e.idf[t.text], 2)
			}
		}
		if overlap >= 2 {
			sim += overlap / 2
		}
		if topMode >= 0 && sim < 1 {
			pastReq := Request{Category: h.Category, Description: h.Description}
			pr := a.e.rankModes(&pastReq, past, a.e.facts(&pastReq), nil)
			if len(pr) > 0 && pr[0].mode == topMode && pr[0].text > 0 {
				sim += 1.5
			}
			releaseRanked(pr)
		}
		if sim >= 1 && sim > bestSim {
			bestSim, best = sim, i
		}
	}
	if best < 0 {
		return nil
	}
	h := a.req.History[best]
	when := strings.TrimSpace(h.ResolvedAt)
	if when == "" {
		when = "an earlier date"
	}
	desc := fmt.Sprintf("This fixed a similar problem on this printer on %s", when)
	if d := strings.TrimSpace(h.Description); d != "" {
		desc += fmt.Sprintf(" (%q)", truncateRunes(d, 160))
	}
	desc += "."
	if len(h.StepTitles) > 1 {
		desc += " You also ticked: " + strings.Join(h.StepTitles[1:min(len(h.StepTitles), 4)], "; ") + "."
	}
	desc += " Check that it is still in place before changing anything else."
	return &candidateStep{
		step:    Step{Title: strings.TrimSpace(h.StepTitles[0]), Description: truncateRunes(desc, maxDescRune)},
		score:   math.Inf(1),
		mode:    -1,
		history: true,
	}
}

// summary says what the engine believes is happening and why. It is
// written into room on the stack and copied out once.
func (a *analysis) summary(rules []ruleStep) string {
	var room [maxSummaryRune + 124]byte
	b := room[:0]
	f := a.facts
	if len(a.ranked) == 0 {
		b = append(b, "The knowledge base is empty, so these are general checks."...)
	} else {
		top := a.ranked[0]
		m := a.e.kb.modes[top.mode]
		note := a.ev.summaryNote(top.mode) // the file line that decided it
		if top.text > 0 || note != "" {
			b = append(b, m.head...)
			if len(top.evidence) > 0 {
				b = append(b, " Your description mentions "...)
				b = appendQuoteList(b, top.evidence, 4)
				b = append(b, '.')
			}
			if note != "" {
				b = append(append(b, ' '), note...)
			}
		} else {
			label := CategoryLabels[a.req.Category]
			if label == "" || a.req.Category == "other" {
				label = "your settings"
			}
			b = append(b, "The description did not clearly match one failure mode, so the steps start with the most common causes for "...)
			b = append(b, label...)
			b = append(b, "; the most likely is "...)
			b = append(b, m.lowerName...)
			b = append(b, '.')
		}
	}
	quoted := 0
	for _, r := range rules {
		if !r.numeric || quoted == 2 {
			continue
		}
		quoted++
		first, _, _ := strings.Cut(r.step.Description, ". ")
		b = appendSentence(append(b, ' '), first)
	}
	if note := f.extruderNote(); note != "" && f.printer != nil {
		b = appendSentence(append(b, ' '), note)
	}
	if len(a.ranked) > 0 {
		topScore := a.ranked[0].total
		alts := 0
		for _, s := range a.ranked[1:min(len(a.ranked), 3)] {
			if s.text > 0 && s.total >= 0.5*topScore {
				if alts == 0 {
					b = append(b, " Also possible: "...)
				} else {
					b = append(b, "; "...)
				}
				b = append(b, a.e.kb.modes[s.mode].lowerName...)
				alts++
			}
		}
		if alts > 0 {
			b = append(b, '.')
		}
	}
	if n := len(a.req.Photos); n > 0 {
		if n == 1 {
			b = append(b, " The attached photo was not analysed"...)
		} else {
			b = append(b, " The "...)
			b = strconv.AppendInt(b, int64(n), 10)
			b = append(b, " attached photos were not analysed"...)
		}
		b = append(b, ": the offline engine works from your description and settings only."...)
	}
	return truncateRunes(string(bytes.TrimSpace(b)), maxSummaryRune)
}

// materialTip is a material's usual settings, as the tips say them.
func materialTip(mat *material) string {
	tip := fmt.Sprintf("%s usually prints at %s on the nozzle and %s on the bed", mat.label(), fmtRange(mat.Nozzle, "°C"), fmtRange(mat.Bed, "°C"))
	if mat.Fan != "" {
		tip += ", part fan " + mat.Fan
	}
	tip += "."
	if mat.Dry != "" && mat.Hygroscopic {
		tip += " Dry it at " + mat.Dry + " before printing."
	}
	return tip
}

// tips collects material, mode and printer tips.
func (a *analysis) tips() []string {
	out := make([]string, 0, maxTips)
	add := func(s string) {
		s = strings.TrimSpace(s)
		if s == "" || len(out) >= maxTips {
			return
		}
		for _, o := range out {
			if strings.EqualFold(o, s) {
				return
			}
		}
		out = append(out, truncateRunes(s, maxTipLen))
	}
	if len(a.ranked) > 0 {
		m := a.e.kb.modes[a.ranked[0].mode]
		for i, t := range m.Tips {
			if i < 2 {
				add(t)
			}
		}
	}
	if mat := a.facts.mat; mat != nil {
		add(mat.tip)
		add(mat.Notes)
	}
	if len(a.ranked) > 1 && a.ranked[1].text > 0 {
		m := a.e.kb.modes[a.ranked[1].mode]
		if len(m.Tips) > 0 {
			add(m.Tips[0])
		}
	}
	if p := a.facts.printer; p != nil {
		add(p.tip)
	}
	add("Change one setting at a time and print a small test piece after each change, so you know which change fixed it.")
	add("Write down the settings that worked (slicer profile name, temperatures, retraction) so the fix survives the next slicer update.")
	return out
}

func lowerFirst(s string) string {
	if len(s) < 2 || (s[1] >= 'A' && s[1] <= 'Z') {
		return s // keep acronyms such as "PID" or "PTFE"
	}
	return strings.ToLower(s[:1]) + s[1:]
}

// appendQuoteList appends the first max distinct words of list to b, each
// quoted as %q quotes it, separated by ", ".
func appendQuoteList(b []byte, list []string, max int) []byte {
	var room [8]string
	shown := room[:0]
	for _, s := range list {
		if len(shown) == max {
			break
		}
		if containsString(shown, s) {
			continue
		}
		if len(shown) > 0 {
			b = append(b, ", "...)
		}
		b = strconv.AppendQuote(b, s)
		shown = append(shown, s)
	}
	return b
}

func truncateRunes(s string, n int) string {
	if len(s) <= n || utf8.RuneCountInString(s) <= n {
		return s
	}
	r := []rune(s)
	cut := string(r[:n-1])
	if i := strings.LastIndexByte(cut, ' '); i > n/2 {
		cut = cut[:i]
	}
	return strings.TrimRight(cut, " ,;:") + "…"
}
