package ai

import (
	"math/rand"
	"slices"
	"strings"
	"testing"
)

// appendCaseFeatures keeps each word and word pair once, in the order they
// first occur, both below and past the number it tells apart by a scan.
func TestCaseFeaturesAreDistinctInOrder(t *testing.T) {
	e := sharedEngine(t)
	rng := rand.New(rand.NewSource(5))
	vocab := strings.Fields("bed nozzle layer string warp clog fan petg pla hot cold the a of to 3 200 z x y")
	for round := 0; round < 300; round++ {
		var words []string
		for n := rng.Intn(120); len(words) < n; {
			words = append(words, vocab[rng.Intn(len(vocab))])
		}
		toks := e.spell.analyze(strings.Join(words, " "))
		var want []caseFeature
		seen := map[caseFeature]bool{}
		for i, t := range toks {
			if len(t.text) < 2 || isDigits(t.text) {
				continue
			}
			fs := []caseFeature{{a: t.text}}
			if i+1 < len(toks) && !toks[i+1].clause && len(toks[i+1].text) >= 2 && !isDigits(toks[i+1].text) {
				fs = append(fs, caseFeature{a: t.text, b: toks[i+1].text})
			}
			for _, f := range fs {
				if !seen[f] {
					seen[f] = true
					want = append(want, f)
				}
			}
		}
		prefix := []caseFeature{{a: "kept"}}
		got := appendCaseFeatures(prefix, toks, map[caseFeature]struct{}{})
		if !slices.Equal(got[1:], want) || got[0] != prefix[0] {
			t.Fatalf("round %d (%d words): features %v, want %v", round, len(words), got, want)
		}
	}
}
