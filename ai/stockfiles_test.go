package ai

import (
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"strings"
	"testing"
)

// stockFilesDir holds configs as the firmware projects and printer vendors
// ship them (see its README.md).
const stockFilesDir = "printerfiles/testdata/stock"

// stockFaultExamples is how many files a failure names per rule.
const stockFaultExamples = 3

// stockRealFaults are faults a vendor really shipped, by file and the rule
// or fact that finds them; each says why the rule is right.
var stockRealFaults = map[string]string{
	// M563 P0 D0 H1 gives tool 0 no F, so fan 0 is its part fan, and
	// M106 P0 … H1 T45 makes that fan follow the hotend: the slicer's
	// M106 cannot turn it (FYSETC's MK3S sample makes all three fans
	// thermostatic).
	"rrf/FYSETC_FYSETC-Duet_sys-MK3S/config.g": "other-part-fan-control / ",
}

// stockAttachment is one set of stock files attached together, with the
// printer a maker would name for them ("" when the files are a board's or
// a feature's template).
type stockAttachment struct {
	name    string // what the failure message calls it
	printer string
	files   []Attachment
}

// stockAttachments lists every stock file alone, and each Marlin example's
// Configuration.h with its Configuration_adv.h.
func stockAttachments(t *testing.T) []stockAttachment {
	t.Helper()
	byDir := map[string][]Attachment{}
	err := filepath.WalkDir(stockFilesDir, func(path string, d fs.DirEntry, err error) error {
		if err != nil || d.IsDir() || d.Name() == "README.md" || strings.HasSuffix(d.Name(), ".go") {
			return err
		}
		text, err := os.ReadFile(path)
		if err != nil {
			return err
		}
		dir := filepath.Dir(path)
		byDir[dir] = append(byDir[dir], Attachment{Name: d.Name(), Text: string(text)})
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	year := regexp.MustCompile(`-(19|20)\d\d$`)
	var out []stockAttachment
	for _, dir := range slices.Sorted(func(yield func(string) bool) {
		for d := range byDir {
			if !yield(d) {
				return
			}
		}
	}) {
		rel, _ := filepath.Rel(stockFilesDir, dir)
		files := byDir[dir]
		for _, f := range files {
			printer := ""
			switch {
			case strings.HasPrefix(f.Name, "printer-"):
				printer = strings.ReplaceAll(year.ReplaceAllString(strings.TrimSuffix(strings.TrimPrefix(f.Name, "printer-"), ".cfg"), ""), "-", " ")
			case strings.HasPrefix(rel, "marlin"+string(filepath.Separator)):
				printer = strings.ReplaceAll(filepath.Base(dir), "_", " ")
			}
			out = append(out, stockAttachment{name: filepath.Join(rel, f.Name), printer: printer, files: []Attachment{f}})
		}
		if len(files) > 1 && strings.HasPrefix(rel, "marlin") {
			out = append(out, stockAttachment{name: rel + " (both files)", printer: strings.ReplaceAll(filepath.Base(dir), "_", " "), files: files})
		}
	}
	return out
}

// ruleName names a fact rule for a failure message: the mode, the fix and
// the condition.
func (e *Engine) ruleName(r factRule) string {
	m := e.kb.modes[r.mode]
	where := m.ID
	if r.fix >= 0 {
		where += " / " + m.Fixes[r.fix].Title
	}
	cond := r.Key
	if r.Subject != "" {
		cond += "[" + r.Subject + "]"
	}
	switch {
	case r.Below != nil:
		cond += fmt.Sprintf(" below %g", *r.Below)
	case r.Above != nil:
		cond += fmt.Sprintf(" above %g", *r.Above)
	case len(r.Equals) > 0:
		cond += " equals " + strings.Join(r.Equals, "|")
	case r.DiffersFromStock != nil:
		cond += " differs from stock"
	case r.Unlike != "":
		cond += " unlike " + r.Unlike
	case r.Absent:
		cond += " absent"
	}
	return fmt.Sprintf("%s: %s (weight %g)", where, cond, r.Weight)
}

// Configs as the vendors ship them hold no fault. Each stock file, attached
// alone to a description that says nothing, must read into no error,
// warning or derived fault, and make no rule hold that asserts an anomaly:
// a rule of weight 2 or more, which brings its mode and step forward
// whatever the maker wrote. A rule that only reads the setting a fix
// changes (weight 1) or rules a cause out (negative) may hold. Each file is
// attached once without a printer and once with the printer its name
// gives, so that it is also compared with its own example. Fact rules do
// not depend on the category, so one neutral category stands for all.
func TestStockFilesAssertNoFault(t *testing.T) {
	e := sharedEngine(t)
	sets := stockAttachments(t)
	if len(sets) < 250 {
		t.Fatalf("only %d stock attachments in %s", len(sets), stockFilesDir)
	}
	faults := map[string][]string{} // what holds -> the files it holds on
	realSeen := map[string]bool{}
	checked := 0
	for _, s := range sets {
		printers := []string{""}
		if s.printer != "" {
			printers = append(printers, s.printer)
		}
		checked++
		seen := map[string]bool{}
		for _, printer := range printers {
			req := Request{Category: "other", Description: "The print came out with defects.", PrinterBrand: printer, Attachments: s.files}
			a := e.prepare(&req)
			if a.ev == nil {
				continue
			}
			add := func(what, line string) {
				if real, ok := stockRealFaults[s.name]; ok && strings.HasPrefix(what, real) {
					realSeen[s.name] = true
					return
				}
				if !seen[what] {
					seen[what] = true
					faults[what] = append(faults[what], s.name+": “"+line+"”")
				}
			}
			for _, fa := range a.ev.files.rep.Facts {
				if fa.IsError() || strings.HasPrefix(fa.Key, "derived.") {
					add("fact "+fa.Key, cleanQuote(fa.Quote, fa.Subject))
				}
			}
			for _, r := range e.factRules {
				if r.Weight < decisiveWeight {
					continue
				}
				if m, ok := a.ev.files.match(r, a.facts); ok {
					add(e.ruleName(r), cleanQuote(m.fact.Quote, m.fact.Subject))
				}
			}
		}
	}
	t.Logf("%d stock attachments checked", checked)
	for name := range stockRealFaults {
		if !realSeen[name] {
			t.Errorf("%s: the real fault listed in stockRealFaults is no longer found", name)
		}
	}
	if len(faults) == 0 {
		return
	}
	var names []string
	files := map[string]bool{}
	for what, on := range faults {
		names = append(names, what)
		for _, f := range on {
			name, _, _ := strings.Cut(f, ": “")
			files[name] = true
		}
	}
	slices.Sort(names)
	for _, what := range names {
		on := faults[what]
		t.Errorf("%s holds on %d stock files, e.g. %s", what, len(on), strings.Join(on[:min(len(on), stockFaultExamples)], "; "))
	}
	t.Errorf("%d of %d stock attachments read as faulty by %d rules", len(files), checked, len(names))
}
