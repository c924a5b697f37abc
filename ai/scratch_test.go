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
