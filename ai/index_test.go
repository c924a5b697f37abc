package ai

import (
	"regexp"
	"testing"
)

// TestFixTitlesMatchLikeTheirPatterns: skipping the titles a pattern's
// requirement rules out never changes which titles match. Every pattern of
// the case base, and patterns built to trip a literal filter (case
// folding outside ASCII, anchors, classes, empty branches), against every
// knowledge-base title and titles built to trip it.
func TestFixTitlesMatchLikeTheirPatterns(t *testing.T) {
	e := sharedEngine(t)
	cases, err := EmbeddedCases()
	if err != nil {
		t.Fatal(err)
	}
	patterns := []string{
		"ſcrew", "\u212aeep", "(?-i)Tighten", "^tighten", "belt$", "a|", "x*", "(bed)+ level", "(nozzle){2,}",
		`\bfw\b`, "[^a-z]tension", "e.?steps", "c(able|heck)", "(re)?flash", "(a|b)(c|d)(e|f)(g|h)(i|j)",
		"z.{0,5}offset", "(?s)bed.level", "µ", "(x|)y", "caf\u00e9", "sp(eed|ool)|", `\x{212a}`,
	}
	// Cases share patterns; each distinct one is checked once.
	seen := map[string]bool{}
	for _, c := range cases {
		for _, p := range c.Expect {
			if !seen[p] {
				seen[p] = true
				patterns = append(patterns, p)
			}
		}
	}
	titles := []*kbMode{{Fixes: []kbFix{
		{Title: "Tighten the \u212aeep screw"}, {Title: "Re-ſcrew the bed"}, {Title: "RE-FLASH the firmware"},
		{Title: "Check the CABLE"}, {Title: "Calibrate E-STEPS"}, {Title: "bed\nlevel"}, {Title: "Z  OFFSET"},
		{Title: "Set 10 µsteps"}, {Title: "Visit the café"}, {Title: "y"}, {Title: ""},
	}}}
	titles = append(titles, e.kb.modes...)
	ft := newFixTitles(titles)
	for _, p := range patterns {
		re := regexp.MustCompile("(?i)" + p)
		want := map[[2]int]bool{}
		for i, title := range ft.raw {
			if re.MatchString(title) {
				want[ft.refs[i]] = true
			}
		}
		got := map[[2]int]bool{}
		if err := ft.matching([]string{p}, func(mode, fix int) { got[[2]int{mode, fix}] = true }); err != nil {
			t.Fatal(err)
		}
		if len(got) != len(want) {
			t.Errorf("%q: %d titles match, the filtered search found %d", p, len(want), len(got))
			continue
		}
		for k := range want {
			if !got[k] {
				t.Errorf("%q: title %q missed", p, ft.raw[indexOf(ft.refs, k)])
			}
		}
	}
}

func indexOf(refs [][2]int, k [2]int) int {
	for i, r := range refs {
		if r == k {
			return i
		}
	}
	return -1
}
