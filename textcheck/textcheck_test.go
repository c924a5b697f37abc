package textcheck

import (
	"strings"
	"testing"
	"unicode"
)

// invalidCharEveryRune is InvalidChar without its ASCII shortcut: every
// character judged.
func invalidCharEveryRune(s string, multiline bool) string {
	for i, r := range s {
		if why := judge(s, i, r, multiline); why != "" {
			return why
		}
	}
	return ""
}

// Every character, alone and inside text, is judged as a check of every
// character judges it; accents are counted the same way.
func TestShortcutsJudgeAsBefore(t *testing.T) {
	for r := rune(0); r <= unicode.MaxRune; r++ {
		for _, s := range []string{string(r), "ab" + string(r) + "cd"} {
			for _, multi := range []bool{false, true} {
				if got, want := InvalidChar(s, multi), invalidCharEveryRune(s, multi); got != want {
					t.Fatalf("U+%04X multiline=%v: %q, want %q", r, multi, got, want)
				}
			}
		}
	}
	for _, s := range []string{"\xff", "a\xc3", "e\u0301\u0301\u0301\u0301", "e" + strings.Repeat("\u0301", maxMarks+1), "e" + strings.Repeat("\u0301", maxMarks) + "a\u0301"} {
		if got, want := InvalidChar(s, false), invalidCharEveryRune(s, false); got != want {
			t.Errorf("%q: %q, want %q", s, got, want)
		}
	}
	if stackedMarks("e" + strings.Repeat("\u0301", maxMarks) + "a" + strings.Repeat("\u0301", maxMarks)) {
		t.Error("marks on two letters counted as one run")
	}
	if !stackedMarks("e" + strings.Repeat("\u0301", maxMarks+1)) {
		t.Error("too many marks on one letter not found")
	}
}

func BenchmarkProblem(b *testing.B) {
	s := "Lots of thin strings between the two towers, PETG on my Ender 3. Printing at 245 °C with 0.4 mm nozzle."
	b.ReportAllocs()
	for i := 0; i < b.N; i++ {
		if Problem("Description", s, true) != "" {
			b.Fatal("refused")
		}
	}
}
