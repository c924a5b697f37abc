package ai

import (
	"reflect"
	"testing"
)

func TestTokensFoldVariants(t *testing.T) {
	// Each group must normalise to the same tokens.
	groups := [][]string{
		{"won't stick", "wont stick", "doesn't stick", "does not stick", "never sticks"},
		{"won't extrude", "neither extrudes", "nor extruding"},
		{"stringing", "strings", "stringy", "string"},
		{"clogged nozzle", "clogging nozzles", "clogs nozzle"},
		{"layer shifting", "layers shifted", "layer shifts"},
		{"retraction", "retracting", "retracted"},
		{"calibration", "calibrating", "calibrate", "calibrated"},
		{"bed leveling", "bed levelling", "bed levelled"},
		{"oozing", "ooze", "oozes"},
		{"dried", "drying", "dry", "dries"},
		{"speed", "speeds"},
		{"hairy", "hairs", "hair"},
	}
	for _, g := range groups {
		want := tokens(g[0])
		for _, s := range g[1:] {
			if got := tokens(s); !reflect.DeepEqual(got, want) {
				t.Errorf("tokens(%q) = %q, want %q like %q", s, got, want, g[0])
			}
		}
	}
	// And these must stay apart.
	apart := [][2]string{{"under extrusion", "over extrusion"}, {"too hot", "too cold"}, {"abs", "ab"}, {"runny", "running"}}
	for _, p := range apart {
		if reflect.DeepEqual(tokens(p[0]), tokens(p[1])) {
			t.Errorf("%q and %q normalise to the same tokens %q", p[0], p[1], tokens(p[0]))
		}
	}
}

func TestClausesLimitTermMatches(t *testing.T) {
	got := clauses("supports, 1,75 mm filament (PLA): fine")
	want := []string{"supports", " 1,75 mm filament ", "PLA", "", " fine"}
	if !reflect.DeepEqual(got, want) {
		t.Fatalf("clauses = %q, want %q", got, want)
	}
	s := newSpeller(nil)
	seq := tokens("bed loose")
	for text, want := range map[string]bool{
		"the bed came loose":                 true,
		"the bed is loose":                   true,
		"they dont stick to the bed, loose":  false,
		"stuck on the bed (it is loose now)": false,
	} {
		toks := s.analyze(text)
		matched := false
		for i := range toks {
			if _, _, ok := matchSeq(toks, i, seq); ok && toks[i].text == seq[0] {
				matched = true
			}
		}
		if matched != want {
			t.Errorf("%q matches %q: %v, want %v", text, "bed loose", matched, want)
		}
	}
}

func TestWordsKeepsDecimals(t *testing.T) {
	got := words("Layer 0.28mm, nozzle 0.4. It's at 245°C!")
	want := []string{"layer", "0.28mm", "nozzle", "0.4", "its", "at", "245", "c"}
	if !reflect.DeepEqual(got, want) {
		t.Errorf("words = %q, want %q", got, want)
	}
}

func TestReleaseNumbersAreOneToken(t *testing.T) {
	got := tokens("Prusa firmware 3.7.0-RC1, Cura v5.3 and Marlin 2.0.9.1 with a 0.4 nozzle and 1.75 filament")
	want := []string{"prusa", "firmwar", versionToken, "rc1", "cura", versionToken, "marlin", versionToken, "0.4", "nozzl", "1.75", "fila"}
	if !reflect.DeepEqual(got, want) {
		t.Errorf("tokens = %q, want %q", got, want)
	}
}

func TestSentencesAndTriedContext(t *testing.T) {
	got := sentences("Nozzle is 0.4 mm. I already dried it twice! Still popping")
	if len(got) != 3 || got[0] != "Nozzle is 0.4 mm" {
		t.Fatalf("sentences = %q", got)
	}
	s := newSpeller(nil)
	toks := s.analyze("I already dried it twice. Still popping")
	tried := map[string]bool{}
	for _, tk := range toks {
		tried[tk.text] = tk.tried
	}
	if !tried["dry"] || tried["pop"] {
		t.Errorf("tried flags %v: want dry in a tried sentence and pop not", tried)
	}
}

func TestEditDistance(t *testing.T) {
	tests := []struct {
		a, b string
		want int
	}{
		{"spagetti", "spaghetti", 1}, {"teh", "the", 1}, {"elefant", "elephant", 2},
		{"warp", "warp", 0}, {"", "abc", 3}, {"stringing", "strining", 1},
	}
	for _, tt := range tests {
		if got := editDistance(tt.a, tt.b); got != tt.want {
			t.Errorf("editDistance(%q, %q) = %d, want %d", tt.a, tt.b, got, tt.want)
		}
	}
}

func TestSpellerCorrectsOnlyMisspellings(t *testing.T) {
	english, err := englishWords()
	if err != nil {
		t.Fatal(err)
	}
	s := newSpeller(english)
	for _, term := range []string{"spaghetti", "stringing", "elephant foot", "warping", "delamination", "wobble"} {
		for _, tok := range tokens(term) {
			s.add(tok)
		}
	}
	tests := []struct {
		word, want string // want "" = left alone
	}{
		{"spagetti", "spaghetti"},
		{"spaggeti", "spaghetti"},
		{"elefant", "elephant"},
		{"strining", "string"},
		{"delamnation", "delaminat"},
		{"wobbel", "wobbl"},
		{"warning", ""},  // a real word one letter from "warping"
		{"prince", ""},   // too short to trust and a real word
		{"spot", ""},     // short words are never corrected
		{"zzzzzzzz", ""}, // nothing close
	}
	for _, tt := range tests {
		toks := s.analyze(tt.word)
		if len(toks) != 1 {
			t.Fatalf("analyze(%q) = %v", tt.word, toks)
		}
		got := ""
		if toks[0].fuzzy {
			got = toks[0].text
		}
		if got != tt.want {
			t.Errorf("correct(%q) = %q, want %q", tt.word, got, tt.want)
		}
	}
}

func TestContainsWordAndCompact(t *testing.T) {
	if !containsWord("esun pla+ black", "pla+") || containsWord("display", "pla") || !containsWord("pla", "pla") {
		t.Error("containsWord boundaries wrong")
	}
	if got := compact("Ender-3 V2 (Neo)"); got != "ender3v2neo" {
		t.Errorf("compact = %q", got)
	}
}

// TestKnownWordsAreNormalizedAtLoad: the words of the knowledge base's
// terms and phrases, the stop words and the negations have their tokens
// and vocabulary membership worked out at load, the same as on demand.
func TestKnownWordsAreNormalizedAtLoad(t *testing.T) {
	e := sharedEngine(t)
	s := e.spell
	if len(s.known) < len(fixedWords) {
		t.Fatalf("%d known words", len(s.known))
	}
	for _, w := range []string{"strings", "stringing", "the", "dont", "warping"} {
		if _, ok := s.known[w]; !ok {
			t.Errorf("%q is not known", w)
		}
	}
	for w, k := range s.known {
		if want := normWord(w); k.token != want || k.inVocab != s.vocab[want] {
			t.Errorf("%q: known as %+v, normWord %q (in the vocabulary: %v)", w, k, want, s.vocab[want])
		}
	}
	for _, w := range []string{"zzqx", "strings"} {
		tok, in := s.normalize(w)
		if want := normWord(w); tok != want || in != s.vocab[want] {
			t.Errorf("normalize(%q) = %q, %v", w, tok, in)
		}
	}
}
