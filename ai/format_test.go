package ai

import (
	"fmt"
	"math"
	"math/rand"
	"strings"
	"testing"
)

// TestFmtNumLikeFmt: numbers are written as fmt's %.0f and %.2f write
// them, for whole and fractional values, halves, negative zero, huge
// values and infinities.
func TestFmtNumLikeFmt(t *testing.T) {
	want := func(v float64) string {
		if v == math.Trunc(v) {
			return fmt.Sprintf("%.0f", v)
		}
		return strings.TrimSuffix(strings.TrimRight(fmt.Sprintf("%.2f", v), "0"), ".")
	}
	values := []float64{0, math.Copysign(0, -1), 0.005, 0.015, 0.125, 1.005, 2.675, -0.004, 245, 1e21, -1e-9, math.MaxFloat64,
		math.SmallestNonzeroFloat64, math.Inf(1), math.Inf(-1), math.NaN()}
	rng := rand.New(rand.NewSource(1))
	for i := 0; i < 100000; i++ {
		values = append(values, math.Round(rng.NormFloat64()*30000)/1000, rng.NormFloat64()*math.Pow(10, float64(rng.Intn(30)-10)))
	}
	for _, v := range values {
		if got, w := fmtNum(v), want(v); got != w {
			t.Fatalf("fmtNum(%v) = %q, want %q", v, got, w)
		}
	}
}
