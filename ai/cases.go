package ai

import (
	"embed"
	"encoding/json"
	"fmt"
	"io/fs"
	"math"
	"slices"
	"sort"
	"strings"
	"sync"
	"sync/atomic"
)

// Case is one solved troubleshooting case: what a maker saw and what fixed
// it. The engine's case base is made of them: the embedded cases under
// ai/testdata/casebase (real public threads, paraphrased, each with its
// source) and the fixes this server's own makers confirmed.
type Case struct {
	ID          string   `json:"id"`
	Source      string   `json:"source"`
	Category    string   `json:"category"`
	Description string   `json:"description"`
	Printer     string   `json:"printer"`
	Material    string   `json:"material"`
	NozzleTemp  *float64 `json:"nozzleTemp"`
	BedTemp     *float64 `json:"bedTemp"`
	LayerHeight *float64 `json:"layerHeight"`
	PrintSpeed  *float64 `json:"printSpeed"`
	Infill      *float64 `json:"infill"`
	NozzleSize  *float64 `json:"nozzleSize"`
	Fix         string   `json:"fix"`
	// Expect are patterns (Go RE2, case-insensitive) for the idea of the
	// confirmed fix; the knowledge-base fixes whose titles match them are the
	// fixes this case votes for.
	Expect []string `json:"expect"`
	// Steps are the knowledge-base steps makers of this server confirmed
	// (server cases), by StepRefs reference; never their wording.
	Steps []string `json:"steps,omitempty"`
	// Maker names the account that confirmed a server case, opaquely: the
	// nearest cases count each maker once.
	Maker string `json:"-"`
	// Observations are yes/no facts the thread established ("happens at the
	// same height on every print"); see questions.json.
	Observations []string `json:"observations,omitempty"`
	// Answers are the narrow-it-down questions the thread answers, by id.
	Answers map[string]Answer `json:"answers,omitempty"`
	// Attachments are the printer's files the maker attached (evaluation
	// cases where a log or config decides the fix).
	Attachments []Attachment `json:"attachments,omitempty"`
}

// Request returns the request a maker would have sent for c.
func (c Case) Request() Request {
	return Request{
		Category: c.Category, Description: c.Description, Material: c.Material,
		NozzleTemp: c.NozzleTemp, BedTemp: c.BedTemp, LayerHeight: c.LayerHeight,
		PrintSpeed: c.PrintSpeed, Infill: c.Infill, PrinterBrand: c.Printer, NozzleSize: c.NozzleSize,
		Answers: c.Answers, Attachments: c.Attachments,
	}
}

// The embedded case base: every JSON array of cases in testdata/casebase.
// Adding a case is adding an entry to one of those files (or a new file).
//
//go:embed testdata/casebase
var caseFiles embed.FS

// Case-base weights, set by leave-one-out runs over the case base (see
// testdata/README.md): the nearest cases add to the score of the modes and
// the fixes they confirm.
//
// Leave-one-out over the 182 embedded cases (see testdata/README.md): mode
// votes help a little (hit@3 0.720 → 0.725, a right fix anywhere 0.813 →
// 0.824) and the embedded cases' fix votes did not help at any weight, so
// only this server's confirmed fixes vote for fixes directly. Measured again
// over the 228 training cases once train3.json joined (2026-11-25): fix
// votes at 0.2 change nothing, at 0.4 to 1.0 hit@3 falls from 0.588 to 0.570.
// With the modes added for them, mode votes at 0.2 instead of 0.4 raise the
// training sets' hit@3 from 0.662 to 0.667 (0 gives the same hit@3 and
// loses a right fix anywhere: 0.746 → 0.741).
const (
	caseNeighbors   = 6    // nearest cases that vote
	caseMinSim      = 0.10 // cosine similarity below which a case does not vote
	caseModeWeight  = 0.2  // mode score per unit of vote
	caseFixWeight   = 0.0  // embedded cases: fix score per unit of vote, relative to the top mode
	localFixWeight  = 0.9  // this server's confirmed steps: the same
	caseCategoryFit = 1.2  // similarity factor when the category matches
	casePrinterFit  = 1.1  // similarity factor for the same printer
	maxCaseVotes    = 6    // fixes one case votes for at full weight
	localCaseWeight = 1.3  // this server's confirmed steps count a bit more
)

// caseIndex is an inverted index of cases over the engine's normalised
// words and word pairs, weighted by inverse document frequency.
type caseIndex struct {
	cases []indexedCase
	norms []float64              // per case, the length of its feature vector
	post  map[string]casePosting // feature -> its weight and the cases having it
	idf   map[string]float64     // shared by the server's cases with the embedded ones
	// ownIDF: idf has exactly the features of post, so a feature post lacks
	// is unseen.
	ownIDF bool
	unseen float64   // the weight of a feature idf lacks
	n      int       // cases
	pool   sync.Pool // *nearScratch
}

// casePosting is a feature's weight and the cases that have it.
type casePosting struct {
	w     float64
	cases []int32
}

// nearScratch is one search's dot products, one per case, zero between
// searches, and the cases it touched.
type nearScratch struct {
	dot     []float64
	touched []int32
	key     []byte     // a feature as the index spells it
	near    []neighbor // the cases close enough, before the nearest are kept
}

func (ix *caseIndex) scratch() *nearScratch {
	if sc, ok := ix.pool.Get().(*nearScratch); ok {
		return sc
	}
	return &nearScratch{dot: make([]float64, len(ix.cases))}
}

func (ix *caseIndex) release(sc *nearScratch) { ix.pool.Put(sc) }

type indexedCase struct {
	id, source string
	category   string
	printer    *printer
	votes      []fixVote
	maker      string   // server cases: who confirmed them
	steps      []string // server cases: the confirmed steps the engine knows
	stepWeight float64  // each confirmed step's share of the case's vote
}

// fixVote is a knowledge-base fix a case confirms.
type fixVote struct {
	mode, fix int
	w         float64
}

// caseFeatures are the distinct words and adjacent word pairs of a
// description, normalised like the knowledge base (stems, misspellings).
func caseFeatures(toks []token) []string {
	var out []string
	for _, f := range appendCaseFeatures(nil, toks, map[caseFeature]struct{}{}) {
		out = append(out, f.String())
	}
	return out
}

// caseFeature is a word (b empty) or a pair of adjacent words "a b".
type caseFeature struct{ a, b string }

func (f caseFeature) String() string {
	if f.b == "" {
		return f.a
	}
	return f.a + " " + f.b
}

// appendKey appends the feature as the index spells it.
func (f caseFeature) appendKey(buf []byte) []byte {
	buf = append(buf, f.a...)
	if f.b != "" {
		buf = append(append(buf, ' '), f.b...)
	}
	return buf
}

// scanFeatures is how many features are told apart by a scan of those
// already found; past it, a set does (a short description has a few dozen).
const scanFeatures = 32

// appendCaseFeatures appends the distinct features of toks in the order
// they first occur; seen (empty) holds them once they are too many to scan.
func appendCaseFeatures(out []caseFeature, toks []token, seen map[caseFeature]struct{}) []caseFeature {
	start := len(out)
	add := func(f caseFeature) {
		if len(out)-start < scanFeatures {
			if !slices.Contains(out[start:], f) {
				out = append(out, f)
			}
			return
		}
		if len(seen) == 0 {
			for _, g := range out[start:] {
				seen[g] = struct{}{}
			}
		}
		if _, ok := seen[f]; !ok {
			seen[f] = struct{}{}
			out = append(out, f)
		}
	}
	for i, t := range toks {
		if len(t.text) < 2 || isDigits(t.text) {
			continue
		}
		add(caseFeature{a: t.text})
		if i+1 < len(toks) && !toks[i+1].clause && len(toks[i+1].text) >= 2 && !isDigits(toks[i+1].text) {
			add(caseFeature{a: t.text, b: toks[i+1].text})
		}
	}
	return out
}

// loadCases reads every *.json file of fsys as an array of cases.
func loadCases(fsys fs.FS) ([]Case, error) {
	files, err := fs.Glob(fsys, "*.json")
	if err != nil {
		return nil, err
	}
	sort.Strings(files)
	var all []Case
	ids := map[string]string{}
	for _, f := range files {
		var cs []Case
		if err := decodeFile(fsys, f, &cs); err != nil {
			return nil, err
		}
		for _, c := range cs {
			if c.ID == "" || strings.TrimSpace(c.Description) == "" {
				return nil, fmt.Errorf("case base %s: a case without id or description", f)
			}
			if prev, dup := ids[c.ID]; dup {
				return nil, fmt.Errorf("case base %s: case %s is also in %s", f, c.ID, prev)
			}
			ids[c.ID] = f
			all = append(all, c)
		}
	}
	return all, nil
}

// buildCaseIndex indexes cases; idf is shared with an existing index (the
// embedded one) so that server cases are weighted the same way, or computed
// from cases when nil.
func (e *Engine) buildCaseIndex(cases []Case, idf map[string]float64) (*caseIndex, error) {
	ix := &caseIndex{post: map[string]casePosting{}, idf: idf, ownIDF: idf == nil, n: len(cases)}
	ix.unseen = math.Log(1 + float64(max(ix.n, 1))) // words no case has are as rare as can be
	feats := make([][]string, len(cases))
	df := map[string]int{}
	for i, c := range cases {
		feats[i] = caseFeatures(e.spell.analyze(c.Description))
		for _, f := range feats[i] {
			df[f]++
		}
	}
	if ix.idf == nil {
		ix.idf = make(map[string]float64, len(df))
		n := float64(len(cases))
		for f, d := range df {
			ix.idf[f] = math.Log(1 + n/float64(d))
		}
	}
	for i, c := range cases {
		ic := indexedCase{id: c.ID, source: c.Source, category: c.Category}
		ic.printer = findPrinter(e.kb.printers, c.Printer)
		norm := 0.0
		for _, f := range feats[i] {
			w := ix.weight(f)
			norm += w * w
			p := ix.post[f]
			p.w, p.cases = w, append(p.cases, int32(i))
			ix.post[f] = p
		}
		ix.norms = append(ix.norms, math.Sqrt(norm))
		votes, err := e.caseVotes(c)
		if err != nil {
			return nil, fmt.Errorf("case %s: %w", c.ID, err)
		}
		ic.votes, ic.maker = votes, c.Maker
		ic.steps, ic.stepWeight = e.knownSteps(c.Steps)
		ix.cases = append(ix.cases, ic)
	}
	return ix, nil
}

// weight is the idf of a feature.
func (ix *caseIndex) weight(f string) float64 {
	if w, ok := ix.idf[f]; ok {
		return w
	}
	return ix.unseen
}

// caseVotes finds the knowledge-base fixes a case confirms: those whose
// title matches one of its patterns.
func (e *Engine) caseVotes(c Case) ([]fixVote, error) {
	var votes []fixVote
	err := e.titles.matching(c.Expect, func(mode, fix int) {
		votes = append(votes, fixVote{mode: mode, fix: fix, w: 1})
	})
	if err != nil {
		return nil, err
	}
	if w := voteShare(len(votes)); w < 1 {
		for i := range votes {
			votes[i].w = w
		}
	}
	return votes, nil
}

// voteShare is the weight of each of n votes of one case: full up to
// maxCaseVotes, then shrinking so that a case confirming everything says
// little about each.
func voteShare(n int) float64 {
	if n <= maxCaseVotes {
		return 1
	}
	return math.Sqrt(float64(maxCaseVotes) / float64(n))
}

// neighbor is a case close to a request.
type neighbor struct {
	c   *indexedCase
	sim float64
}

// nearest appends to kept the k cases most similar to the request's words;
// of a maker's cases only the closest counts, so one account weighs as one.
func (ix *caseIndex) nearest(kept []neighbor, feats []caseFeature, req *Request, p *printer, k int) []neighbor {
	if ix == nil || len(ix.cases) == 0 || len(feats) == 0 {
		return kept
	}
	sc := ix.scratch()
	defer ix.release(sc)
	dot, touched := sc.dot, sc.touched[:0]
	qnorm := 0.0
	for _, f := range feats {
		sc.key = f.appendKey(sc.key[:0])
		p, ok := ix.post[string(sc.key)]
		w := p.w
		if !ok {
			w = ix.unseen
			if !ix.ownIDF {
				w = ix.weight(string(sc.key))
			}
		}
		qnorm += w * w
		for _, ci := range p.cases {
			if dot[ci] == 0 { // every weight is positive
				touched = append(touched, ci)
			}
			dot[ci] += w * w
		}
	}
	qnorm = math.Sqrt(qnorm)
	inCategory := req.Category != "" && req.Category != "other"
	out := sc.near[:0]
	for _, ci := range touched {
		d := dot[ci]
		dot[ci] = 0
		norm := ix.norms[ci]
		if norm == 0 {
			continue
		}
		sim := d / (qnorm * norm)
		if sim*caseCategoryFit*casePrinterFit < caseMinSim {
			continue // no fit lifts it to a vote
		}
		c := &ix.cases[ci]
		if req.exclude != "" && (c.id == req.exclude || c.source == req.exclude) {
			continue
		}
		if inCategory && req.Category == c.category {
			sim *= caseCategoryFit
		}
		if p != nil && c.printer == p {
			sim *= casePrinterFit
		}
		if sim >= caseMinSim {
			out = append(out, neighbor{c: c, sim: sim})
		}
	}
	sc.touched, sc.near = touched, out
	sortUnstable(out, func(a, b neighbor) bool {
		if a.sim != b.sim {
			return a.sim > b.sim
		}
		return a.c.id < b.c.id
	})
	var makers map[string]bool
	start := len(kept)
	for _, n := range out {
		if len(kept)-start == k {
			break
		}
		if m := n.c.maker; m != "" {
			if makers[m] {
				continue
			}
			if makers == nil {
				makers = map[string]bool{}
			}
			makers[m] = true
		}
		kept = append(kept, n)
	}
	return kept
}

// caseVote is what the nearest cases say about a request.
type caseVote struct {
	mode []float64          // by mode
	fix  map[[2]int]float64 // nil when the embedded cases do not vote for fixes
	// learned are the steps this server's makers confirmed for similar
	// problems, by reference, and makers how many distinct makers did.
	learned map[string]float64
	makers  map[string]int
}

var caseVotePool sync.Pool // *caseVote, empty

// newCaseVote returns an empty vote over n modes.
func newCaseVote(n int) *caseVote {
	v, ok := caseVotePool.Get().(*caseVote)
	if !ok || len(v.mode) != n {
		return &caseVote{mode: make([]float64, n)}
	}
	return v
}

// release empties v and hands it back; v must not be used after.
func (v *caseVote) release() {
	clear(v.mode)
	v.fix, v.learned, v.makers = nil, nil, nil
	caseVotePool.Put(v)
}

// vote gathers the nearest embedded and server cases of a request. Only
// the embedded cases vote for modes: what this server's makers confirmed
// never changes which failure modes lead.
func (e *Engine) vote(req *Request, toks []token, p *printer) *caseVote {
	fs := featureScratchPool.Get().(*featureScratch)
	defer fs.release()
	feats := appendCaseFeatures(fs.feats[:0], toks, fs.seen)
	fs.feats = feats
	near := e.cases.nearest(fs.near[:0], feats, req, p, caseNeighbors)
	mine := fs.mine[:0]
	if local := e.local.Load(); local != nil {
		mine = local.nearest(mine, feats, req, p, caseNeighbors)
	}
	fs.near, fs.mine = near, mine
	if len(near) == 0 && len(mine) == 0 {
		return nil
	}
	v := newCaseVote(len(e.kb.modes))
	if caseFixWeight > 0 {
		v.fix = map[[2]int]float64{}
	}
	if len(mine) > 0 {
		v.learned, v.makers = map[string]float64{}, map[string]int{}
	}
	for _, n := range near {
		// A case counts once per mode, with its strongest vote for it.
		modes := fs.modes[:0]
		for _, fv := range n.c.votes {
			if caseFixWeight > 0 {
				v.fix[[2]int{fv.mode, fv.fix}] += caseFixWeight * n.sim * fv.w
			}
			w := n.sim * fv.w
			if i := slices.IndexFunc(modes, func(m modeVote) bool { return m.mode == fv.mode }); i >= 0 {
				modes[i].w = math.Max(modes[i].w, w)
			} else {
				modes = append(modes, modeVote{mode: fv.mode, w: math.Max(0, w)})
			}
		}
		for _, m := range modes {
			v.mode[m.mode] += m.w
		}
		fs.modes = modes
	}
	for _, n := range mine {
		for _, ref := range n.c.steps {
			v.learned[ref] += localFixWeight * localCaseWeight * n.sim * n.c.stepWeight
			v.makers[ref]++
		}
	}
	return v
}

// SetLocalCases replaces the server's own case base: steps its makers
// confirmed (Case.Steps, Case.Maker). It is safe to call while the engine
// analyses.
func (e *Engine) SetLocalCases(cases []Case) error {
	if len(cases) == 0 {
		e.local.Store(nil)
		return nil
	}
	ix, err := e.buildCaseIndex(cases, e.cases.idf)
	if err != nil {
		return err
	}
	e.local.Store(ix)
	return nil
}

// featureScratch holds a request's case features while it is scored.
type featureScratch struct {
	feats []caseFeature
	seen  map[caseFeature]struct{}
	modes []modeVote // one neighbour's strongest vote per mode
	near  []neighbor // the nearest embedded cases
	mine  []neighbor // the nearest of this server's cases
}

type modeVote struct {
	mode int
	w    float64
}

var featureScratchPool = sync.Pool{New: func() any { return &featureScratch{seen: map[caseFeature]struct{}{}} }}

func (fs *featureScratch) release() {
	clear(fs.seen)
	clear(fs.feats) // keep no description alive
	clear(fs.near)
	clear(fs.mine)
	featureScratchPool.Put(fs)
}

// localCases is the engine's server case base (nil when empty).
type localCases = atomic.Pointer[caseIndex]

// EmbeddedCases returns the cases compiled into the binary.
func EmbeddedCases() ([]Case, error) {
	sub, err := fs.Sub(caseFiles, "testdata/casebase")
	if err != nil {
		return nil, err
	}
	return loadCases(sub)
}

// decodeCases parses one JSON array of cases (for tools and tests).
func decodeCases(data []byte) ([]Case, error) {
	var cs []Case
	err := json.Unmarshal(data, &cs)
	return cs, err
}

// fixVote is the score the nearest cases add to a knowledge-base fix.
func (a *analysis) fixVote(mode, fix int, top float64) float64 {
	if a.votes == nil {
		return 0
	}
	return top * a.votes.fix[[2]int{mode, fix}]
}

// caseSteps are the fixes the nearest embedded cases confirm that the
// ranked modes did not bring: knowledge-base fixes of other modes.
func (a *analysis) caseSteps(added fixSet, top float64) []candidateStep {
	if a.votes == nil {
		return nil
	}
	var out []candidateStep
	for k, w := range a.votes.fix {
		if c, ok := a.otherFix(k, added, top*w); ok {
			out = append(out, c)
		}
	}
	sortByScore(out)
	return out
}

// otherFix is fix k as a candidate scored score, unless the ranked modes
// already brought it or its conditions do not hold for this request.
func (a *analysis) otherFix(k [2]int, added fixSet, score float64) (candidateStep, bool) {
	if added.has(k) {
		return candidateStep{}, false
	}
	f := &a.e.kb.modes[k[0]].Fixes[k[1]]
	if !a.facts.applies(f) {
		return candidateStep{}, false
	}
	return candidateStep{step: Step{Title: f.Title}, fix: f, key: f.key, ref: f.ref, score: score, mode: k[0]}, true
}

// sortByScore orders candidates best first; map order must not decide ties.
func sortByScore(cands []candidateStep) {
	sort.SliceStable(cands, func(i, j int) bool {
		if cands[i].score != cands[j].score {
			return cands[i].score > cands[j].score
		}
		return cands[i].step.Title < cands[j].step.Title
	})
}
