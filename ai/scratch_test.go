package ai

import (
	"math"
	"math/rand"
	"slices"
	"testing"
)

// TestBestFirstSortsLikeTheComparator: the ranking's merge sort puts the
// modes in the order rankOrder (total descending, then mode) gives,
// for many ties, zeros of both signs, infinities and NaNs, at every length
// around the merge runs.
func TestBestFirstSortsLikeTheComparator(t *testing.T) {
	rng := rand.New(rand.NewSource(1))
	values := []float64{0, math.Copysign(0, -1), 1, -1, 0.5, -0.001, -0.002, 2.25, math.Inf(1), math.Inf(-1)}
	sc := &rankScratch{}
	for round := 0; round < 3000; round++ {
		n := rng.Intn(140)
		scores := make([]scored, n)
		for i := range scores {
			scores[i].mode = i
			if rng.Intn(3) == 0 {
				scores[i].total = rng.NormFloat64()
			} else {
				scores[i].total = values[rng.Intn(len(values))]
			}
			if round%10 == 0 && rng.Intn(20) == 0 {
				scores[i].total = math.NaN()
			}
		}
		want := make([]rankKey, n)
		for i := range want {
			want[i] = rankKey{total: scores[i].total, mode: int32(i)}
		}
		slices.SortFunc(want, rankOrder)
		got := sc.bestFirst(scores)
		for i := range want {
			if got[i].mode != want[i].mode {
				t.Fatalf("round %d, n %d: position %d has mode %d, want %d", round, n, i, got[i].mode, want[i].mode)
			}
		}
	}
}

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
