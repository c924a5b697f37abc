package ai

import (
	"math/rand"
	"slices"
	"strings"
	"testing"
	"unicode"
)

// wordsOneRuneAtATime is words written the plain way: every word built
// rune by rune. words must split exactly as it does.
func wordsOneRuneAtATime(s string) []string {
	var out []string
	var b strings.Builder
	flush := func() {
		if b.Len() > 0 {
			out = append(out, b.String())
			b.Reset()
		}
	}
	rs := []rune(s)
	for i, r := range rs {
		switch {
		case unicode.IsLetter(r) || unicode.IsDigit(r):
			b.WriteRune(unicode.ToLower(r))
		case r == '\'' || r == '’' || r == '`':
		case r == '.' && b.Len() > 0 && i+1 < len(rs) && unicode.IsDigit(rs[i+1]) && isNumberLike(b.String()):
			b.WriteRune(r)
		default:
			flush()
		}
	}
	flush()
	return out
}

// TestWordsSplitLikeRuneByRune: the words of every case description, of
// hand-made edge cases and of random text mixing cases, apostrophes,
// numbers, dots, non-ASCII letters and invalid UTF-8.
func TestWordsSplitLikeRuneByRune(t *testing.T) {
	inputs := []string{
		"", "won't stick", "WON'T Stick", "v2.1 and 3.7.0 and 0.28mm", "Ender-3 V2", "İstanbul ÇAĞ straße ǅemal",
		"1,75 mm.", "x.5", ".5", "v.2", "V2.1", "2..3", "a'b'c", "don't(t)", "µm and ΜM", "\xff\xfeab\xffcd",
		"ABC'DEF.1", "ab’cd`ef", "KELVIN \u212a", "ſhort",
	}
	cases, err := EmbeddedCases()
	if err != nil {
		t.Fatal(err)
	}
	for _, c := range cases {
		inputs = append(inputs, c.Description)
	}
	alphabet := []string{"a", "B", "z", "0", "7", ".", "'", "’", "`", " ", ",", "v", "V", "İ", "ß", "µ", "\xff", "é", "É", "-", "\u212a"}
	rng := rand.New(rand.NewSource(1))
	for i := 0; i < 20000; i++ {
		var b strings.Builder
		for n := rng.Intn(16); n > 0; n-- {
			b.WriteString(alphabet[rng.Intn(len(alphabet))])
		}
		inputs = append(inputs, b.String())
	}
	for _, in := range inputs {
		if got, want := words(in), wordsOneRuneAtATime(in); !slices.Equal(got, want) {
			t.Fatalf("words(%q) = %q, want %q", in, got, want)
		}
	}
}
