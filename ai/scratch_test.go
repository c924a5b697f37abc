package ai

import (
	"math"
	"math/rand"
	"slices"
	"testing"
)

// TestBestFirstSortsLikeTheComparator: merging the modes a request hit,
// sorted, into the resting order of the others puts every mode in the
// order rankOrder (total descending, then mode) gives over all of them,
// for many ties (also between hit and resting modes), zeros of both
// signs, infinities and NaNs, at every length around the merge runs.
func TestBestFirstSortsLikeTheComparator(t *testing.T) {
	rng := rand.New(rand.NewSource(1))
	values := []float64{0, math.Copysign(0, -1), 1, -1, 0.5, -0.001, -0.002, 2.25, math.Inf(1), math.Inf(-1)}
	pick := func() float64 {
		if rng.Intn(3) == 0 {
			return rng.NormFloat64()
		}
		return values[rng.Intn(len(values))]
	}
	for round := 0; round < 3000; round++ {
		n := rng.Intn(140)
		sc := &rankScratch{hit: make([]bool, n)}
		rest := &restingRank{total: make([]float64, n)}
		scores := make([]scored, n)
		for i := range scores {
			scores[i].mode = i
			rest.total[i] = pick()
			rest.order = append(rest.order, rankKey{total: rest.total[i], mode: int32(i)})
			if rng.Intn(1+round%4) == 0 {
				sc.touch(i)
				scores[i].total = pick()
				if rng.Intn(4) == 0 {
					scores[i].total = rest.total[i] // as if left alone
				}
				if round%10 == 0 && rng.Intn(20) == 0 {
					scores[i].total = math.NaN()
				}
			}
		}
		slices.SortFunc(rest.order, rankOrder)
		want := make([]rankKey, n)
		for i := range want {
			want[i] = rankKey{total: rest.total[i], mode: int32(i)}
			if sc.hit[i] {
				want[i].total = scores[i].total
			}
		}
		slices.SortFunc(want, rankOrder)
		got := make([]scored, n)
		sc.bestFirst(scores, rest, got)
		for i := range want {
			g := got[i]
			if g.mode != int(want[i].mode) || !sameFloat(g.total, want[i].total) {
				t.Fatalf("round %d, n %d: position %d has mode %d (%v), want %d (%v)", round, n, i, g.mode, g.total, want[i].mode, want[i].total)
			}
		}
	}
}

func sameFloat(a, b float64) bool { return a == b || a != a && b != b }

// dropUnrevealed is slices.DeleteFunc with its rule: the modes only files
// reveal go when their total is not above zero, the rest keep their order.
func TestDropUnrevealedIsDeleteFunc(t *testing.T) {
	rng := rand.New(rand.NewSource(2))
	for round := 0; round < 2000; round++ {
		n := rng.Intn(40)
		e := &Engine{kb: &knowledge{}}
		for i := 0; i < n; i++ {
			e.kb.modes = append(e.kb.modes, &kbMode{FilesOnly: rng.Intn(3) == 0})
		}
		ranked := make([]scored, n)
		for i := range ranked {
			ranked[i] = scored{mode: rng.Intn(max(n, 1)), total: float64(rng.Intn(5) - 2), evidence: []string{"x"}}
		}
		want := slices.DeleteFunc(slices.Clone(ranked), func(s scored) bool { return e.kb.modes[s.mode].FilesOnly && s.total <= 0 })
		got := e.dropUnrevealed(ranked)
		if len(got) != len(want) {
			t.Fatalf("round %d: %d kept, want %d", round, len(got), len(want))
		}
		for i := range want {
			if got[i].mode != want[i].mode || got[i].total != want[i].total {
				t.Fatalf("round %d: position %d is %+v, want %+v", round, i, got[i], want[i])
			}
		}
		for _, s := range ranked[len(got):] {
			if s.evidence != nil {
				t.Fatalf("round %d: a dropped mode's evidence is still held", round)
			}
		}
	}
}

// sortCandidates orders the steps exactly as sorting the steps themselves
// with its rule does (history first, then score, ties and NaNs in list
// order), at lengths below and above its room on the stack.
func TestSortCandidatesIsTheStableSort(t *testing.T) {
	rng := rand.New(rand.NewSource(3))
	scores := []float64{0, 1, 1, 2.5, -1, math.NaN(), math.Inf(1)}
	for round := 0; round < 2000; round++ {
		n := rng.Intn(90)
		cands := make([]candidateStep, n)
		for i := range cands {
			cands[i] = candidateStep{step: Step{Title: string(rune('a' + i%26))}, mode: i, history: rng.Intn(6) == 0, score: scores[rng.Intn(len(scores))]}
			if rng.Intn(2) == 0 {
				cands[i].score = rng.Float64()
			}
		}
		want := slices.Clone(cands)
		sortStable(want, func(a, b candidateStep) bool {
			if a.history != b.history {
				return a.history
			}
			return a.score > b.score
		})
		sortCandidates(cands)
		for i := range want {
			if cands[i].mode != want[i].mode {
				t.Fatalf("round %d, n %d: position %d holds step %d, want %d", round, n, i, cands[i].mode, want[i].mode)
			}
		}
	}
}

// TestRestingModesAreLeftAlone: on real requests (their settings, the votes
// of similar cases, answers to the questions, every category), each mode
// the ranking does not score one by one has exactly the total scoring it
// would give it, so ranking only the touched modes changes no order.
func TestRestingModesAreLeftAlone(t *testing.T) {
	e := sharedEngine(t)
	var reqs []Request
	for _, f := range []string{"testdata/attach/train.json", "testdata/attach/dev.json", "testdata/casebase/holdout.json",
		"testdata/casebase/train3.json", "testdata/casebase/train4.json"} {
		for _, c := range loadEvalCases(t, f) {
			reqs = append(reqs, c.Request())
		}
	}
	reqs = append(reqs, benchRequests()...)
	rng := rand.New(rand.NewSource(4))
	answers := []Answer{AnswerYes, AnswerNo, AnswerUnsure}
	categories := append([]string{"", "other", "no-such-category"}, Categories...)
	for _, m := range e.kb.modes {
		for _, sig := range m.Signals {
			if e.settings[sig.held].cond != sig.cond {
				t.Fatalf("mode %s: signal %q is counted under condition %q", m.ID, sig.When, e.settings[sig.held].cond)
			}
		}
	}
	for i, req := range reqs {
		variant := req
		variant.Category = categories[rng.Intn(len(categories))]
		variant.Answers = map[string]Answer{}
		for _, q := range e.kb.questions {
			if rng.Intn(3) == 0 {
				variant.Answers[q.ID] = answers[rng.Intn(len(answers))]
			}
		}
		for _, r := range []Request{req, variant} {
			readFiles(&r)
			f := e.facts(&r)
			toks := e.spell.analyze(r.Description)
			var boost []float64
			if v := e.vote(&r, toks, f.printer); v != nil {
				boost = v.mode
			}
			held := make([]bool, len(e.settings))
			for ci, c := range e.settings {
				held[ci] = conditions[c.cond](f)
			}
			sc := e.rankScratch()
			e.scoreModes(sc, &r, toks, f, boost)
			rest := e.restingRank(r.Category)
			for mi := range e.kb.modes {
				if sc.hit[mi] {
					continue
				}
				s := scored{mode: mi}
				e.settle(mi, &s, &r, f, held, boost)
				if s.total != rest.total[mi] || math.Signbit(s.total) != math.Signbit(rest.total[mi]) {
					t.Errorf("request %d (%q, category %q): mode %s was left alone at %v, scoring it gives %v",
						i, r.Description, r.Category, e.kb.modes[mi].ID, rest.total[mi], s.total)
				}
			}
			e.releaseRankScratch(sc)
		}
	}
}
