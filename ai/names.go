package ai

import (
	"slices"
	"strings"
)

// nameFinder answers "which listed name, found in this text, is best" as a
// scan of the whole list with strings.Contains (or containsWord) would,
// looking only at the names that start with a byte of the text: the best
// score wins, ties go to the name listed first.
type nameFinder struct {
	byFirst [256][]foundName // by first byte, best first
	empty   []foundName      // names that are "" (found in any text), best first
	words   bool             // a name must stand as a word (containsWord)
}

type foundName struct {
	name  string
	score int
	order int // position in the list; the earlier wins a tie
	ref   int // what the name names (an index the caller gives)
}

func (a foundName) beats(b foundName) bool {
	return a.score > b.score || a.score == b.score && a.order < b.order
}

func newNameFinder(names []foundName, words bool) *nameFinder {
	nf := &nameFinder{words: words}
	for i, n := range names {
		n.order = i
		if n.name == "" {
			nf.empty = append(nf.empty, n)
			continue
		}
		nf.byFirst[n.name[0]] = append(nf.byFirst[n.name[0]], n)
	}
	byBest := func(a, b foundName) int {
		if a.beats(b) {
			return -1
		}
		if b.beats(a) {
			return 1
		}
		return 0
	}
	for i := range nf.byFirst {
		slices.SortFunc(nf.byFirst[i], byBest)
	}
	slices.SortFunc(nf.empty, byBest)
	return nf
}

// find returns the best name in text and whether there is one; a name
// scores at least min to count (the scan's "better than nothing yet").
func (nf *nameFinder) find(text string, min int) (foundName, bool) {
	best, ok := foundName{score: min}, false
	if len(nf.empty) > 0 && nf.empty[0].score > min && !nf.words {
		best, ok = nf.empty[0], true
	}
	for i := 0; i < len(text); i++ {
		if nf.words && i > 0 && isAlnum(text[i-1]) {
			continue // a word starts after a letter or digit never
		}
		for _, n := range nf.byFirst[text[i]] {
			if ok && !n.beats(best) || !ok && n.score <= min {
				break // the rest are no better
			}
			if !strings.HasPrefix(text[i:], n.name) {
				continue
			}
			if end := i + len(n.name); nf.words && end < len(text) && isAlnum(text[end]) {
				continue
			}
			best, ok = n, true
			break
		}
	}
	return best, ok
}
