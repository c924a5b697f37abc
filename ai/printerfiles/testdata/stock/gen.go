//go:build ignore

// gen writes the stock printer files of this directory: configs the
// firmware projects and printer vendors ship, cut down to the lines the
// readers look at. A cut file must read into the same facts as the
// original (same keys, subjects and values); gen fails otherwise. A file
// whose comments change the kind it is read as is kept whole.
//
//	go run gen.go -klipper <git dir of Klipper3d/klipper> \
//	    -marlin <git dir of MarlinFirmware/Configurations> \
//	    -rrf Caribou3d/CaribouDuet-SD-Card=<git dir> -rrf ...
//
// Every file is read from the git directory's HEAD; README.md names the
// commits.
package main

import (
	"flag"
	"fmt"
	"log"
	"maps"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"

	"github.com/layerfix/layerfix/ai/printerfiles"
)

// marlinExamples are the Marlin example configurations kept, with whether
// their Configuration_adv.h is kept too (the whole set would pass 1.5 MB).
var marlinExamples = []struct {
	dir string
	adv bool
}{
	{"Creality/Ender-3 V2/CrealityV422/CrealityUI", true},
	{"Creality/Ender-3 Pro/CrealityV427", true},
	{"Creality/Ender-3/BigTreeTech SKR Mini E3 3.0", true},
	{"Creality/Ender-5 Pro/CrealityV422", false},
	{"Creality/CR-10 S5/CrealityV1", false},
	{"Creality/Ender-3 S1/STM32F1", true},
	{"Creality/CR-6 SE", false},
	{"Prusa/MK3", true},
	{"AnyCubic/i3 Mega/Trigorilla AVR", false},
	{"AnyCubic/Vyper", false},
	{"Artillery/Sidewinder X1/V1", true},
	{"Anet/A8", false},
	{"Elegoo/Neptune 2", false},
	{"Sovol/SV-06", true},
	{"Geeetech/A10", false},
	{"Tronxy/X5SA", false},
	{"delta/FLSUN/QQS-Pro", true},
	{"delta/Anycubic/Kossel", false},
	{"Two Trees/Sapphire Pro", false},
	{"Kingroon/KP3S", true},
}

// rrfFiles are the RepRapFirmware config.g files kept, by repository.
var rrfFiles = map[string][]string{
	"Caribou3d/CaribouDuet-SD-Card":                    {"sys/config.g"},
	"HartSmart-Products/HSP1-I-SD-Image":               {"sys/config.g"},
	"e3donline/RepRapFirmware-SD":                      {"rrf3.x/sys/config.g", "rrf2.x/sys/config.g"},
	"HydraResearchLLC/Nautilus-Configuration-Firmware": {"sys/config.g"},
	"diabase/H-Series-Configuration":                   {"config.g"},
	"Mellow-3D/FLY-RRF-E3":                             {"Initial configuration/sys/config.g"},
	"FYSETC/FYSETC-Duet":                               {"sys/config.g", "sys-MK3S/config.g"},
}

type repeated []string

func (r *repeated) String() string     { return strings.Join(*r, ",") }
func (r *repeated) Set(v string) error { *r = append(*r, v); return nil }

func main() {
	klipper := flag.String("klipper", "", "git directory of Klipper3d/klipper")
	marlin := flag.String("marlin", "", "git directory of MarlinFirmware/Configurations")
	var rrf repeated
	flag.Var(&rrf, "rrf", "owner/name=<git directory> of a repository in the RepRapFirmware list (repeated)")
	flag.Parse()
	if *klipper != "" {
		for _, path := range lsTree(*klipper, "config/") {
			base := filepath.Base(path)
			if !strings.HasSuffix(base, ".cfg") {
				continue
			}
			text := show(*klipper, path)
			write(filepath.Join("klipper", base), text, cutKlipper(text))
		}
	}
	if *marlin != "" {
		for _, ex := range marlinExamples {
			dir := strings.NewReplacer(" ", "_", "/", "_").Replace(ex.dir)
			names := []string{"Configuration.h"}
			if ex.adv {
				names = append(names, "Configuration_adv.h")
			}
			for _, name := range names {
				text := show(*marlin, "config/examples/"+ex.dir+"/"+name)
				write(filepath.Join("marlin", dir, name), text, cutMarlin(text, name))
			}
		}
	}
	for _, spec := range rrf {
		repo, gitDir, ok := strings.Cut(spec, "=")
		paths, known := rrfFiles[repo]
		if !ok || !known {
			log.Fatalf("-rrf %q: want owner/name=<git dir> of %v", spec, slices.Sorted(maps.Keys(rrfFiles)))
		}
		for _, path := range paths {
			name := strings.ReplaceAll(repo, "/", "_")
			if dir := filepath.Dir(path); dir != "." && dir != "sys" {
				name += "_" + strings.NewReplacer(" ", "_", "/", "_").Replace(dir)
			}
			text := show(gitDir, path)
			write(filepath.Join("rrf", name, "config.g"), text, cutRRF(text))
		}
	}
}

func lsTree(gitDir, dir string) []string {
	out, err := exec.Command("git", "--git-dir="+gitDir, "ls-tree", "--name-only", "HEAD", dir).Output()
	if err != nil {
		log.Fatalf("ls-tree %s: %v", dir, err)
	}
	return strings.Fields(string(out))
}

func show(gitDir, path string) string {
	out, err := exec.Command("git", "--git-dir="+gitDir, "show", "HEAD:"+path).Output()
	if err != nil {
		log.Fatalf("show %s: %v", path, err)
	}
	return strings.ReplaceAll(string(out), "\r\n", "\n")
}

// write saves cut as path after checking that it reads like the original.
func write(path, original, cut string) {
	name := filepath.Base(path)
	a := printerfiles.Read([]printerfiles.File{{Name: name, Text: original}})
	b := printerfiles.Read([]printerfiles.File{{Name: name, Text: cut}})
	if a.Files[0].Kind != b.Files[0].Kind {
		// the comments decide how the file is read: keep them
		fmt.Printf("%-70s kept whole: read as %s, cut as %s\n", path, a.Files[0].Kind, b.Files[0].Kind)
		cut, b = original, a
	}
	if a.Files[0].Kind == printerfiles.KindUnknown {
		fmt.Printf("%-70s skipped: not a printer file\n", path)
		return
	}
	if fa, fb := factSet(a), factSet(b); !slices.Equal(fa, fb) {
		log.Fatalf("%s: the cut file reads differently:\n only in the original: %v\n only in the cut: %v", path, minus(fa, fb), minus(fb, fa))
	}
	if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
		log.Fatal(err)
	}
	if err := os.WriteFile(path, []byte(cut), 0o644); err != nil {
		log.Fatal(err)
	}
	fmt.Printf("%-70s %7d -> %6d bytes, %d facts\n", path, len(original), len(cut), len(b.Facts))
}

func factSet(r printerfiles.Report) []string {
	var out []string
	for _, f := range r.Facts {
		out = append(out, f.Key+" ["+f.Subject+"] "+f.Value)
	}
	slices.Sort(out)
	return out
}

func minus(a, b []string) []string {
	var out []string
	for _, s := range a {
		if !slices.Contains(b, s) {
			out = append(out, s)
		}
	}
	return out
}

// cutKlipper drops comment lines (but not SAVE_CONFIG's "#*#" block) and
// blank lines.
func cutKlipper(text string) string {
	var b strings.Builder
	for line := range strings.Lines(text) {
		t := strings.TrimSpace(line)
		if t == "" || (t[0] == '#' || t[0] == ';') && !strings.HasPrefix(t, "#*#") {
			continue
		}
		b.WriteString(line)
	}
	return b.String()
}

// cutMarlin keeps the preprocessor lines (with their continuations) and
// the commented-out #defines the reader reports, and drops the comments.
func cutMarlin(text, name string) string {
	quoted := map[int]bool{}
	for _, f := range printerfiles.Read([]printerfiles.File{{Name: name, Text: text}}).Facts {
		quoted[f.Line] = true
	}
	// a name commented out is still known to the reader's #if evaluation
	tested := map[string]bool{}
	for line := range strings.Lines(text) {
		if t := strings.TrimSpace(line); strings.HasPrefix(t, "#if") || strings.HasPrefix(t, "#elif") {
			for _, w := range strings.FieldsFunc(t, func(r rune) bool { return !(r == '_' || r >= 'A' && r <= 'Z' || r >= '0' && r <= '9') }) {
				tested[w] = true
			}
		}
	}
	var b strings.Builder
	inBlock, continued := false, false
	n := 0
	for line := range strings.Lines(text) {
		n++
		t := strings.TrimSpace(line)
		if continued {
			b.WriteString(line)
			continued = strings.HasSuffix(t, "\\")
			continue
		}
		if inBlock {
			end := strings.Index(t, "*/")
			if end < 0 {
				continue
			}
			inBlock = false
			t = strings.TrimSpace(t[end+2:])
		}
		if strings.HasPrefix(t, "/*") && !strings.Contains(t, "*/") {
			inBlock = true
			continue
		}
		switch {
		case strings.HasPrefix(t, "#"):
			b.WriteString(dropComment(t) + "\n")
			continued = strings.HasSuffix(t, "\\")
		case strings.HasPrefix(t, "//") && (quoted[n] || tested[disabledName(t)]):
			b.WriteString("//" + dropComment(strings.TrimSpace(strings.TrimPrefix(t, "//"))) + "\n")
		}
	}
	return b.String()
}

// dropComment cuts a trailing // comment outside quotes.
func dropComment(line string) string {
	inQuote := false
	for i := 0; i+1 < len(line); i++ {
		switch {
		case line[i] == '"':
			inQuote = !inQuote
		case !inQuote && line[i] == '/' && line[i+1] == '/':
			return strings.TrimRight(line[:i], " \t")
		}
	}
	return line
}

// disabledName is NAME of a "//#define NAME ..." line, or "".
func disabledName(line string) string {
	rest, ok := strings.CutPrefix(strings.TrimSpace(strings.TrimPrefix(line, "//")), "#define")
	if !ok {
		return ""
	}
	if f := strings.Fields(rest); len(f) > 0 {
		return f[0]
	}
	return ""
}

// cutRRF drops the network passwords (M551, M587) some vendors left in
// their samples, commented out or not.
func cutRRF(text string) string {
	var b strings.Builder
	for line := range strings.Lines(text) {
		t := strings.TrimLeft(line, " \t;")
		if strings.HasPrefix(t, "M551") || strings.HasPrefix(t, "M587") {
			continue
		}
		b.WriteString(line)
	}
	return b.String()
}
