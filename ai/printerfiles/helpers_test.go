package printerfiles

import (
	"encoding/json"
	"math"
	"strings"
	"testing"
	"unicode/utf8"
)

// want is a fact a test expects: Value is compared as written, or Num when
// Value starts with "~" ("~93.007").
type want struct {
	key, subject, value string
}

// expectFacts checks that each wanted fact is in the report.
func expectFacts(t *testing.T, rep Report, wants []want) {
	t.Helper()
	for _, w := range wants {
		f, ok := findFact(rep, w.key, w.subject)
		if !ok {
			t.Errorf("no fact %s [%s]", w.key, w.subject)
			continue
		}
		if num, ok := strings.CutPrefix(w.value, "~"); ok {
			v, _ := parseNum(num)
			if !f.HasNum || f.Num < v-0.001 || f.Num > v+0.001 {
				t.Errorf("%s [%s] = %q (num %v), want %s", w.key, w.subject, f.Value, f.Num, num)
			}
			continue
		}
		if f.Value != w.value {
			t.Errorf("%s [%s] = %q, want %q (line %d %q)", w.key, w.subject, f.Value, w.value, f.Line, f.Quote)
		}
	}
}

// expectNoFacts checks that none of the keys (with subject) are in the report.
func expectNoFacts(t *testing.T, rep Report, absent []want) {
	t.Helper()
	for _, w := range absent {
		if f, ok := findFact(rep, w.key, w.subject); ok {
			t.Errorf("unexpected fact %s [%s] = %q (line %d %q)", w.key, w.subject, f.Value, f.Line, f.Quote)
		}
	}
}

func findFact(rep Report, key, subject string) (Fact, bool) {
	for _, f := range rep.Facts {
		if f.Key == key && f.Subject == subject {
			return f, true
		}
	}
	return Fact{}, false
}

// checkInvariants checks what every Report must satisfy whatever the input.
func checkInvariants(t *testing.T, files []File, rep Report) {
	t.Helper()
	if _, err := json.Marshal(rep); err != nil {
		t.Fatalf("report does not encode: %v", err)
	}
	if len(rep.Facts) > MaxFacts {
		t.Fatalf("%d facts, more than %d", len(rep.Facts), MaxFacts)
	}
	if len(rep.Files) != len(files) {
		t.Fatalf("%d summaries for %d files", len(rep.Files), len(files))
	}
	texts := map[string]string{}
	for i, f := range prepare(files) {
		s := rep.Files[i]
		if s.Label == "" || s.Name != f.Name || !utf8.ValidString(s.Label) || !utf8.ValidString(s.Name) || !utf8.ValidString(s.Version) {
			t.Fatalf("bad summary %+v", s)
		}
		if !utf8.ValidString(f.Text) || !strings.HasPrefix(files[i].Text, f.Text) && utf8.ValidString(files[i].Text) {
			t.Fatalf("prepared text of %q is not the start of the file", f.Name)
		}
		texts[s.Name] = f.Text
	}
	perFile := map[string]int{}
	for _, f := range rep.Facts {
		perFile[f.Source]++
		for _, s := range []string{f.Key, f.Subject, f.Value, f.Quote, f.Source} {
			if !utf8.ValidString(s) {
				t.Fatalf("invalid UTF-8 in %+v", f)
			}
		}
		if f.Key == "" || len(f.Quote) > MaxQuoteBytes || len(f.Value) > MaxValueBytes || math.IsInf(f.Num, 0) || math.IsNaN(f.Num) {
			t.Fatalf("bad fact %+v", f)
		}
		text, ok := texts[f.Source]
		if !ok {
			t.Fatalf("fact from unknown source %q", f.Source)
		}
		lines := strings.Count(text, "\n") + 1
		if f.Line < 0 || f.Line > lines {
			t.Fatalf("line %d outside 1..%d: %+v", f.Line, lines, f)
		}
		if !strings.Contains(text, f.Quote) {
			t.Fatalf("quote %q is not in the file", f.Quote)
		}
		if f.Line == 0 && f.Quote != "" {
			t.Fatalf("a whole-file fact has a quote: %+v", f)
		}
	}
	for name, n := range perFile {
		if n > MaxFactsPerFile {
			t.Fatalf("%s: %d facts, more than %d", name, n, MaxFactsPerFile)
		}
	}
}

// read reads one file and checks the invariants.
func read(t *testing.T, name, text string) Report {
	t.Helper()
	files := []File{{Name: name, Text: text}}
	rep := Read(files)
	checkInvariants(t, files, rep)
	return rep
}

// lineCase is one log line and the fact it gives.
type lineCase struct {
	line string
	want want
}

// expectLines reads each line, after a first line that makes the kind of
// file plain, and checks its fact.
func expectLines(t *testing.T, file, first string, cases []lineCase) {
	t.Helper()
	for _, tt := range cases {
		t.Run(tt.line, func(t *testing.T) {
			rep := read(t, file, first+"\n"+tt.line+"\n")
			expectFacts(t, rep, []want{tt.want})
		})
	}
}

// readKind reads one file and checks that it is recognised as kind.
func readKind(t *testing.T, name, text string, kind Kind) Report {
	t.Helper()
	rep := read(t, name, text)
	if k := rep.Files[0].Kind; k != kind {
		t.Fatalf("kind %s, want %s", k, kind)
	}
	return rep
}
