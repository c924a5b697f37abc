package ai

import (
	"math/rand"
	"strings"
	"testing"
)

// The engine's finders name the printer and material the whole-list scans
// name, for every text.
func TestNameFindersAreTheScans(t *testing.T) {
	e := sharedEngine(t)
	texts := []string{"", " ", "Creality Ender 3 V2", "ender3v2 neo", "Prusa MK4 and a Bambu Lab X1C", "pla+", "PETG-CF on a Voron", "my tpu and pla", "silk pla", "ABS, ASA or nylon?"}
	for _, r := range benchRequests() {
		texts = append(texts, r.Description, r.PrinterBrand, r.Material)
	}
	for _, f := range []string{"testdata/casebase/cases.json", "testdata/casebase/holdout.json", "testdata/attach/train.json"} {
		for _, c := range loadEvalCases(t, f) {
			texts = append(texts, c.Description, c.Printer, c.Material)
		}
	}
	var names []string
	for _, p := range e.kb.printers {
		names = append(names, p.Names...)
	}
	for _, m := range e.kb.materials {
		names = append(names, m.Names...)
	}
	rnd := rand.New(rand.NewSource(1))
	for i := 0; i < 3000; i++ {
		var b strings.Builder
		for j := rnd.Intn(4); j >= 0; j-- {
			n := names[rnd.Intn(len(names))]
			if rnd.Intn(3) == 0 {
				lo := rnd.Intn(len(n) + 1)
				n = n[lo : lo+rnd.Intn(len(n)-lo+1)]
			}
			b.WriteString([]string{" ", "", "-", "x", "3"}[rnd.Intn(5)] + n)
		}
		texts = append(texts, b.String())
	}
	for _, text := range texts {
		want := findPrinter(e.kb.printers, text)
		var got *printer
		if c := compact(text); c != "" {
			if n, ok := e.printerNames.find(c, 0); ok {
				got = e.kb.printers[n.ref]
			}
		}
		if got != want {
			t.Errorf("printer in %q: %v, the scan says %v", text, got, want)
		}
		wantMat := findMaterialInText(e.kb.materials, text)
		var gotMat *material
		if n, ok := e.materialNames.find(strings.ToLower(text), 0); ok {
			gotMat = e.kb.materials[n.ref]
		}
		if gotMat != wantMat {
			t.Errorf("material in %q: %v, the scan says %v", text, gotMat, wantMat)
		}
		wantField := findMaterial(e.kb.materials, text)
		gotField := (*material)(nil)
		if n, ok := e.materialField.find(strings.ToLower(text), 0); ok {
			gotField = e.kb.materials[n.ref]
		}
		if gotField != wantField {
			t.Errorf("material field %q: %v, the scan says %v", text, gotField, wantField)
		}
		var room [8]byte
		if got, want := string(appendCompact(appendCompact(room[:0], text), text+"Ä x")), compact(text+" "+text+"Ä x"); got != want {
			t.Errorf("compact of %q in two parts: %q, in one %q", text, got, want)
		}
	}
}

func BenchmarkFacts(b *testing.B) {
	e := sharedEngine(b)
	reqs := benchRequests()
	b.ReportAllocs()
	for i := 0; i < b.N; i++ {
		e.facts(&reqs[i%len(reqs)])
	}
}
