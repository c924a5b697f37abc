package ai

import (
	"slices"
	"strings"
)

// nameFinder answers "which listed name, found in this text, is best" as a
// scan of the whole list with strings.Contains (or containsWord) would,
// looking only at the names that start with the bytes at each place of the
// text: the best score wins, ties go to the name listed first.
type nameFinder struct {
	byStart map[uint32][]foundName // names of two bytes or more by their first two (startKey), best first
	short   [256][]foundName       // names of one byte, by it, best first
	empty   []foundName            // names that are "" (found in any text), best first
	words   bool                   // a name must stand as a word (containsWord)
}

type foundName struct {
	name  string
	score int
	order int // position in the list; the earlier wins a tie
	ref   int // what the name names (an index the caller gives)
}

func (a *foundName) beats(b *foundName) bool {
	return a.score > b.score || a.score == b.score && a.order < b.order
}

// startKey is the key of byStart for a text whose first two bytes are a, b.
func startKey(a, b byte) uint32 { return uint32(a)<<8 | uint32(b) }

func newNameFinder(names []foundName, words bool) *nameFinder {
	nf := &nameFinder{byStart: map[uint32][]foundName{}, words: words}
	for i, n := range names {
		n.order = i
		switch len(n.name) {
		case 0:
			nf.empty = append(nf.empty, n)
		case 1:
			nf.short[n.name[0]] = append(nf.short[n.name[0]], n)
		default:
			k := startKey(n.name[0], n.name[1])
			nf.byStart[k] = append(nf.byStart[k], n)
		}
	}
	byBest := func(a, b foundName) int {
		if a.beats(&b) {
			return -1
		}
		if b.beats(&a) {
			return 1
		}
		return 0
	}
	for _, list := range nf.byStart {
		slices.SortFunc(list, byBest)
	}
	for i := range nf.short {
		slices.SortFunc(nf.short[i], byBest)
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
		// The best name here is the better of the best long and the best
		// short one.
		if i+1 < len(text) {
			if list, found := nf.byStart[startKey(text[i], text[i+1])]; found {
				best, ok = nf.bestAt(list, text, i, best, ok)
			}
		}
		if list := nf.short[text[i]]; list != nil {
			best, ok = nf.bestAt(list, text, i, best, ok)
		}
	}
	return best, ok
}

// bestAt returns the first of names (best first) that stands at text[i:]
// and beats best (ok: best is a name; otherwise best's score is the least
// that counts), or best.
func (nf *nameFinder) bestAt(names []foundName, text string, i int, best foundName, ok bool) (foundName, bool) {
	for j := range names {
		n := &names[j]
		if ok && !n.beats(&best) || !ok && n.score <= best.score {
			break // the rest are no better
		}
		if !strings.HasPrefix(text[i:], n.name) {
			continue
		}
		if end := i + len(n.name); nf.words && end < len(text) && isAlnum(text[end]) {
			continue
		}
		return *n, true
	}
	return best, ok
}
