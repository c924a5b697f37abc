package ai

import (
	"slices"
	"sync"
)

// rankScratch is the working memory of one ranking, reused across requests
// so that a request allocates little more than its answer. Counters are
// zero between uses.
type rankScratch struct {
	ids     []int32   // per token, its word id; -1 for a word the engine does not know
	seen    []bool    // per word id: among words; false between uses
	words   []int32   // distinct known word ids, first occurrence first
	hits    []int32   // per phrase: distinct words of the request in it
	touched []int32   // phrases with hits
	best    []float64 // per mode: its best phrase score
	modes   []int     // modes with a best phrase score
	score   []scored  // per mode; score[i] is scored{mode: i} unless mode i is hit
	hit     []bool    // per mode: the request touched it
	hitList []int32   // the modes hit, in the order they were first touched
	held    []bool    // per condition of the engine's settings: it holds
	ord     []rankKey // modes, to be sorted
	tmp     []rankKey // room to merge ord
	matches []termMatch
	used    []modeSpan  // the spans of the terms a mode counted
	counted []termCount // how often each term counted
}

type modeSpan struct {
	mode int
	span span
}

type termCount struct {
	te *termEntry
	n  int
}

// overlapsInMode reports whether s overlaps a span mode mi counted.
func overlapsInMode(used []modeSpan, mi int, s span) bool {
	for _, u := range used {
		if u.mode == mi && s.start < u.span.end && u.span.start < s.end {
			return true
		}
	}
	return false
}

var rankScratchPool = sync.Pool{New: func() any { return &rankScratch{} }}

// rankScratch returns scratch sized for this engine's phrases and modes.
func (e *Engine) rankScratch() *rankScratch {
	sc := rankScratchPool.Get().(*rankScratch)
	if len(sc.hits) < len(e.phrases) {
		sc.hits = make([]int32, len(e.phrases))
	}
	if len(sc.seen) < len(e.byWord) {
		sc.seen = make([]bool, len(e.byWord))
	}
	n := len(e.kb.modes)
	if len(sc.best) < n {
		sc.best = make([]float64, n)
	}
	if len(sc.score) < n {
		sc.score = make([]scored, n)
		for i := range sc.score {
			sc.score[i] = scored{mode: i}
		}
		sc.hit = make([]bool, n)
	}
	return sc
}

func (e *Engine) releaseRankScratch(sc *rankScratch) {
	for _, mi := range sc.hitList {
		sc.score[mi] = scored{mode: int(mi)} // no evidence kept alive
		sc.hit[mi] = false
	}
	sc.hitList = sc.hitList[:0]
	sc.words = sc.words[:0]
	rankScratchPool.Put(sc)
}

// touch marks mode mi as one the request says something about: only those
// modes are scored one by one.
func (sc *rankScratch) touch(mi int) {
	if !sc.hit[mi] {
		sc.hit[mi] = true
		sc.hitList = append(sc.hitList, int32(mi))
	}
}

// wordIDs returns the word id of each token (-1: none); the slice is
// valid until the scratch is released.
func (sc *rankScratch) wordIDs(words map[string]int32, toks []token) []int32 {
	sc.ids = sc.ids[:0]
	for _, t := range toks {
		id, ok := words[t.text]
		if !ok {
			id = -1
		}
		sc.ids = append(sc.ids, id)
	}
	return sc.ids
}

// distinct returns the distinct known ids of ids in the order they first
// occur; the slice is valid until the scratch is released.
func (sc *rankScratch) distinct(ids []int32) []int32 {
	for _, id := range ids {
		if id >= 0 && !sc.seen[id] {
			sc.seen[id] = true
			sc.words = append(sc.words, id)
		}
	}
	for _, id := range sc.words {
		sc.seen[id] = false
	}
	return sc.words
}

// phraseScores adds to each mode's text score its best phrase: the share
// of a phrase's words the request has, when that is at least two words and
// 60 %.
func (e *Engine) phraseScores(sc *rankScratch, words []int32, scores []scored) {
	for _, id := range words {
		for _, pi := range e.byWord[id].phrases {
			if sc.hits[pi] == 0 {
				sc.touched = append(sc.touched, int32(pi))
			}
			sc.hits[pi]++
		}
	}
	for _, pi := range sc.touched {
		h := int(sc.hits[pi])
		sc.hits[pi] = 0
		p := e.phrases[pi]
		frac := float64(h) / float64(len(p.toks))
		if h >= 2 && frac >= 0.6 && frac*phraseWeight > sc.best[p.mode] {
			if sc.best[p.mode] == 0 {
				sc.modes = append(sc.modes, p.mode)
			}
			sc.best[p.mode] = frac * phraseWeight
		}
	}
	for _, mi := range sc.modes {
		sc.touch(mi)
		scores[mi].text += sc.best[mi]
		sc.best[mi] = 0
	}
	sc.touched, sc.modes = sc.touched[:0], sc.modes[:0]
}

// rankKey is a mode and its score, sorted best first.
type rankKey struct {
	total float64
	mode  int32
}

// rankOrder puts higher totals first, ties in mode order.
func rankOrder(a, b rankKey) int {
	switch {
	case a.total > b.total:
		return -1
	case a.total < b.total:
		return 1
	}
	return int(a.mode - b.mode)
}

// restingRank is how the modes a request says nothing about rank for one
// category: their totals come from the category prior and their place in
// their category alone, so their order is known before any request.
type restingRank struct {
	total []float64 // by mode
	order []rankKey // every mode, best first
}

// bestFirst writes into ranked (one entry per mode) the modes best first,
// ties in mode order: the modes the request hit with their scores, sorted,
// merged into rest's order of the others.
func (sc *rankScratch) bestFirst(scores []scored, rest *restingRank, ranked []scored) {
	entry := func(mi int32) scored {
		if sc.hit[mi] {
			return scores[mi]
		}
		return scored{mode: int(mi), total: rest.total[mi]}
	}
	keys := sc.ord[:0]
	nan := false
	for i := range rest.total {
		if sc.hit[i] {
			t := scores[i].total
			nan = nan || t != t
			keys = append(keys, rankKey{total: t, mode: int32(i)})
		}
	}
	if nan {
		// No order among NaNs: sort every mode exactly as the ranking
		// always has.
		keys = keys[:0]
		for i := range rest.total {
			keys = append(keys, rankKey{total: entry(int32(i)).total, mode: int32(i)})
		}
		slices.SortFunc(keys, rankOrder)
		for k, key := range keys {
			ranked[k] = entry(key.mode)
		}
		sc.ord = keys
		return
	}
	keys = sc.sortByTotal(keys)
	k, i := 0, 0
	for _, r := range rest.order {
		if sc.hit[r.mode] {
			continue
		}
		for ; i < len(keys) && rankOrder(keys[i], r) < 0; i++ {
			ranked[k] = scores[keys[i].mode]
			k++
		}
		ranked[k] = scored{mode: int(r.mode), total: r.total}
		k++
	}
	for ; i < len(keys); i++ {
		ranked[k] = scores[keys[i].mode]
		k++
	}
}

// sortByTotal sorts keys, given in mode order and free of NaNs, best first
// with ties in mode order. Totals and modes order the modes totally, so any
// sort gives that order: a stable merge sort on the totals keeps ties in
// mode order. The result is keys or the scratch's room to merge.
func (sc *rankScratch) sortByTotal(keys []rankKey) []rankKey {
	if cap(sc.tmp) < len(keys) {
		sc.tmp = make([]rankKey, len(keys))
	}
	src, dst := keys, sc.tmp[:len(keys)]
	const run = 8
	for lo := 0; lo < len(src); lo += run {
		hi := min(lo+run, len(src))
		for i := lo + 1; i < hi; i++ {
			for j := i; j > lo && src[j].total > src[j-1].total; j-- {
				src[j], src[j-1] = src[j-1], src[j]
			}
		}
	}
	for width := run; width < len(src); width *= 2 {
		for lo := 0; lo < len(src); lo += 2 * width {
			mid, hi := min(lo+width, len(src)), min(lo+2*width, len(src))
			i, j, k := lo, mid, lo
			for i < mid && j < hi {
				if src[j].total > src[i].total {
					dst[k] = src[j]
					j++
				} else {
					dst[k] = src[i]
					i++
				}
				k++
			}
			k += copy(dst[k:], src[i:mid])
			copy(dst[k:], src[j:hi])
		}
		src, dst = dst, src
	}
	sc.ord, sc.tmp = src, dst
	return src
}

// sortStable sorts list stably by less, deciding exactly as sort.SliceStable
// does with the same less: both run the same merge sort and ask only
// whether one element goes before another.
func sortStable[T any](list []T, less func(a, b T) bool) {
	slices.SortStableFunc(list, func(a, b T) int {
		if less(a, b) {
			return -1
		}
		return 0
	})
}

// sortUnstable sorts list by less, deciding exactly as sort.Slice does
// with the same less: both run the same pattern-defeating quicksort and
// ask only whether one element goes before another.
func sortUnstable[T any](list []T, less func(a, b T) bool) {
	slices.SortFunc(list, func(a, b T) int {
		if less(a, b) {
			return -1
		}
		return 0
	})
}

// rankedPool keeps the rankings of finished analyses for the next ones.
var rankedPool sync.Pool // *[]scored

// newRanked returns room for n scores, to be overwritten.
func newRanked(n int) []scored {
	if p, ok := rankedPool.Get().(*[]scored); ok && cap(*p) >= n {
		return (*p)[:n]
	}
	return make([]scored, n)
}

// releaseRanked hands back a ranking nothing refers to any more.
func releaseRanked(r []scored) {
	clear(r) // keep no request's evidence alive
	rankedPool.Put(&r)
}

var candidatePool = sync.Pool{New: func() any { s := make([]candidateStep, 0, 32); return &s }}

// candidateRoom is an empty list of candidate steps that a.release hands
// back.
func (a *analysis) candidateRoom() []candidateStep {
	if a.cands == nil {
		a.cands = (*candidatePool.Get().(*[]candidateStep))[:0]
	}
	return a.cands[:0]
}

// release hands back the analysis's ranking and candidate steps: a must
// not be used after.
func (a *analysis) release() {
	releaseRanked(a.ranked)
	if a.votes != nil {
		a.votes.release()
	}
	if c := a.cands; c != nil {
		clear(c[:cap(c)]) // keep no request's text alive
		candidatePool.Put(&c)
	}
	a.ranked, a.cands, a.votes = nil, nil, nil
}

// fixSet is a set of the knowledge base's fixes by mode and index, in
// reused memory.
type fixSet struct {
	base []int // Engine.fixBase
	in   *[]bool
}

var fixSetPool sync.Pool // *[]bool

func (e *Engine) newFixSet() fixSet {
	in, ok := fixSetPool.Get().(*[]bool)
	if !ok || len(*in) < e.fixCount {
		b := make([]bool, e.fixCount)
		in = &b
	}
	return fixSet{base: e.fixBase, in: in}
}

func (s fixSet) has(k [2]int) bool { return (*s.in)[s.base[k[0]]+k[1]] }

func (s fixSet) add(k [2]int) { (*s.in)[s.base[k[0]]+k[1]] = true }

// release empties the set and hands its memory back; s must not be used
// after.
func (s fixSet) release() {
	clear(*s.in)
	fixSetPool.Put(s.in)
}
