// Package printerfiles reads the text files a 3D printer and its host write —
// Klipper's printer.cfg, klippy.log and console, Marlin's M503 dump,
// Configuration.h and serial logs, RepRapFirmware's config.g, M122 report and
// console, Prusa firmware output and the settings comments of sliced G-code —
// and turns them into facts: one setting, event or error each, with the file
// line that shows it.
//
// Read is the whole API:
//
//	rep := printerfiles.Read([]printerfiles.File{{Name: "klippy.log", Text: text}})
//	for _, f := range rep.Facts {
//		// f.Key "error.adc_out_of_range", f.Subject "extruder", f.Quote the log line
//	}
//
// A file's kind is recognised from its content; the file name is only a hint
// used when the content is ambiguous. Facts use one vocabulary across
// firmwares: Marlin's "M92 E93" and Klipper's rotation_distance with its
// microsteps both give extruder.steps_per_mm; Marlin's "Thermal Runaway" and
// Prusa's "HOTEND THERMAL RUNAWAY" both give error.thermal_runaway. FACTS.md
// lists every key, its subjects and its sources.
//
// Every input is treated as hostile: Read looks at no more than MaxReadBytes
// of text in all, only the first MaxLineBytes of a line, keeps at most
// MaxFacts facts, never follows includes (an include is reported as a fact),
// and uses no regular expressions, so its time and memory grow linearly with
// the input and stay small.
package printerfiles

import (
	"slices"
	"strconv"
	"strings"
	"unicode/utf8"
)

// Bounds of one Read call.
const (
	MaxFiles        = 8         // files read; later ones are listed as unknown
	MaxReadBytes    = 256 << 10 // text read over all files; the rest is ignored
	MaxLineBytes    = 4096      // bytes of a line that are looked at
	MaxFacts        = 500       // facts in a Report
	MaxFactsPerFile = 250       // facts kept from one file
	MaxQuoteBytes   = 200       // bytes of a Fact.Quote
	MaxValueBytes   = 120       // bytes of a Fact.Value
	maxNameBytes    = 100       // bytes of a file name kept as Fact.Source
	maxIncludes     = 20        // include names reported from one config
	maxMacros       = 40        // Klipper macro names reported from one config
	maxSubjects     = 24        // per-subject accumulators (steppers, heaters, drivers)
	maxDefines      = 4096      // Marlin #define names remembered for #if evaluation
	maxIfDepth      = 64        // nesting of #if blocks that is evaluated
	minLine         = 4         // shorter log lines ("ok", "}") say nothing
)

// File is one attached text file.
type File struct {
	Name string
	Text string
}

// Kind is what a file was recognised as.
type Kind string

// The kinds of file Read recognises.
const (
	KindKlipperConfig  Kind = "klipper-config"  // printer.cfg and its includes
	KindKlippyLog      Kind = "klippy-log"      // klippy.log
	KindKlipperConsole Kind = "klipper-console" // Mainsail/Fluidd console output
	KindKlipperKconfig Kind = "klipper-kconfig" // the .config of "make menuconfig"
	KindMarlinM503     Kind = "marlin-m503"     // M503 settings report
	KindMarlinConfig   Kind = "marlin-config"   // Configuration.h, Configuration_adv.h
	KindMarlinSerial   Kind = "marlin-serial"   // serial/OctoPrint/Pronterface terminal log
	KindRRFConfig      Kind = "rrf-config"      // config.g, config-override.g
	KindRRFM122        Kind = "rrf-m122"        // M122 diagnostics report
	KindRRFConsole     Kind = "rrf-console"     // Duet Web Control console
	KindPrusaM503      Kind = "prusa-m503"      // Prusa firmware (MK3) M503 report
	KindPrusaSupport   Kind = "prusa-support"   // Prusa serial log, error screen or support text
	KindGcode          Kind = "gcode"           // sliced G-code (header and settings comments)
	KindUnknown        Kind = "unknown"
)

// Label is a short human name of the kind, for showing what was recognised.
func (k Kind) Label() string {
	switch k {
	case KindKlipperConfig:
		return "Klipper config"
	case KindKlippyLog:
		return "Klipper log"
	case KindKlipperConsole:
		return "Klipper console"
	case KindKlipperKconfig:
		return "Klipper firmware build config"
	case KindMarlinM503:
		return "Marlin M503 settings"
	case KindMarlinConfig:
		return "Marlin configuration"
	case KindMarlinSerial:
		return "Marlin serial log"
	case KindRRFConfig:
		return "RepRapFirmware config"
	case KindRRFM122:
		return "RepRapFirmware M122 report"
	case KindRRFConsole:
		return "RepRapFirmware console"
	case KindPrusaM503:
		return "Prusa M503 settings"
	case KindPrusaSupport:
		return "Prusa firmware messages"
	case KindGcode:
		return "Sliced G-code"
	}
	return "Not recognised"
}

// Fact is one thing a file shows: a setting, a measured value, an event or an
// error. Key is stable (see FACTS.md); Subject names the part it is about in
// Klipper's words where one exists ("extruder", "heater_bed", "x", "mcu").
type Fact struct {
	Key     string  `json:"key"`
	Subject string  `json:"subject,omitempty"`
	Value   string  `json:"value"`
	Num     float64 `json:"num,omitempty"`
	HasNum  bool    `json:"hasNum,omitempty"`
	Count   int     `json:"count,omitempty"` // times an event or error was seen
	Source  string  `json:"source"`          // the file's name
	Line    int     `json:"line"`            // 1-based line in the file
	Quote   string  `json:"quote"`           // that line, trimmed, at most MaxQuoteBytes
}

// IsError reports whether the fact is an error or warning the printer logged.
func (f Fact) IsError() bool {
	return strings.HasPrefix(f.Key, "error.") || strings.HasPrefix(f.Key, "warning.")
}

// FileSummary says what one file was recognised as.
type FileSummary struct {
	Name     string `json:"name"`
	Kind     Kind   `json:"kind"`
	Label    string `json:"label"`              // e.g. "Klipper log (v0.12.0-201-g8df829a0)"
	Firmware string `json:"firmware,omitempty"` // "Klipper", "Marlin", "RepRapFirmware", a slicer's name...
	Version  string `json:"version,omitempty"`
	Facts    int    `json:"facts"`
}

// Report is what Read found in a set of files.
type Report struct {
	Files []FileSummary `json:"files"`
	Facts []Fact        `json:"facts"`
}

// Find returns the first fact with the key and subject ("" matches any
// subject).
func (r Report) Find(key, subject string) (Fact, bool) {
	for _, f := range r.Facts {
		if f.Key == key && (subject == "" || f.Subject == subject) {
			return f, true
		}
	}
	return Fact{}, false
}

// parsed is one file after reading.
type parsed struct {
	summary FileSummary
	facts   []Fact
}

// shared is what one file's reading tells another's (a config.g's heater
// numbering for a console log of the same printer).
type shared struct {
	rrfHeaters map[int]string    // heater number to subject
	rrfDrivers map[string]string // driver id to subject
	// Marlin names defined (true) or commented out (false) by an earlier
	// Configuration.h, and the values of some of them.
	marlinDefs   map[string]bool
	marlinValues map[string]string
}

// Read recognises each file and reads its facts. It never fails: a file it
// cannot read is listed with KindUnknown and no facts.
func Read(files []File) Report {
	type job struct {
		File
		kind   Kind
		byName bool
		skip   bool
	}
	prepared := prepare(files)
	jobs := make([]job, len(prepared))
	for i, f := range prepared {
		jobs[i] = job{File: f, kind: KindUnknown, skip: i >= MaxFiles}
		if !jobs[i].skip {
			jobs[i].kind, jobs[i].byName = detect(f.Text, f.Name)
		}
	}

	// Configs first, so that a log can use what its config says.
	order := make([]int, len(jobs))
	for i := range order {
		order[i] = i
	}
	slices.SortStableFunc(order, func(a, b int) int { return rank(jobs[a].kind, jobs[a].Name) - rank(jobs[b].kind, jobs[b].Name) })

	sh := &shared{}
	out := make([]parsed, len(jobs))
	for _, i := range order {
		j := jobs[i]
		if j.skip {
			out[i] = parsed{summary: FileSummary{Name: j.Name, Kind: KindUnknown, Label: KindUnknown.Label()}}
			continue
		}
		if segs := fencedBlocks(j.Text); len(segs) >= 2 {
			out[i] = readSegments(j.Name, j.Text, segs, sh)
			continue
		}
		out[i] = readOne(j.Name, j.Text, j.kind, j.byName, sh)
	}
	return merge(out)
}

// segment is a part of a file read on its own: the bytes [start, end) of
// its text, whose first line is line first+1 of the file; hint is the
// text that names it (the line before the fence, the fence's info string).
type segment struct {
	start, end, first int
	hint              string
}

// maxSegments is how many fenced blocks of one file are read.
const maxSegments = 8

// fencedBlocks finds the Markdown code blocks of a pasted post ("```"
// or "~~~" lines around each): a maker who pastes a config and a log into
// one text fences each.
func fencedBlocks(text string) []segment {
	if !strings.Contains(text, "```") && !strings.Contains(text, "~~~") {
		return nil
	}
	var segs []segment
	m := pasteMargin(strings.TrimPrefix(text, "\uFEFF"))
	open := -1 // the byte after the opening fence line
	openLine := 0
	n := 0
	prev, hint := "", "" // the last non-blank line outside a block
	for pos := 0; pos < len(text) && len(segs) < maxSegments; {
		line := text[pos:]
		next := len(text)
		if end := strings.IndexByte(line, '\n'); end >= 0 {
			line, next = line[:end], pos+end+1
		}
		n++
		t := trimLeftSpace(m.strip(strings.TrimPrefix(strings.TrimSuffix(line, "\r"), "\uFEFF")))
		switch {
		case strings.HasPrefix(t, "```") || strings.HasPrefix(t, "~~~"):
			if open < 0 {
				open, openLine = next, n
				hint = cutUTF8(prev+" "+strings.Trim(t, "`~ "), maxNameBytes)
			} else {
				if pos > open {
					segs = append(segs, segment{start: open, end: pos, first: openLine, hint: hint})
				}
				open, prev = -1, ""
			}
		case open < 0 && strings.TrimSpace(t) != "":
			prev = strings.TrimSpace(t)
		}
		pos = next
	}
	return segs
}

// readSegments reads each fenced block of a file as a file of its own kind
// (configs first, so a log can use them) and reports the facts as the
// file's, at the file's line numbers.
func readSegments(name, text string, segs []segment, sh *shared) parsed {
	parts := make([]parsed, len(segs))
	kinds := make([]Kind, len(segs))
	order := make([]int, len(segs))
	byName := make([]bool, len(segs))
	for i, sg := range segs {
		kinds[i], byName[i] = detect(text[sg.start:sg.end], cleanName(sg.hint))
		order[i] = i
	}
	slices.SortStableFunc(order, func(a, b int) int { return rank(kinds[a], segs[a].hint) - rank(kinds[b], segs[b].hint) })
	for _, i := range order {
		parts[i] = readOne(name, text[segs[i].start:segs[i].end], kinds[i], byName[i], sh)
	}
	var facts []Fact
	seen := map[Fact]bool{} // a setting two blocks show alike (a config and its dump in a log) is one fact
	best, labels := -1, []string{}
	for i, p := range parts {
		if len(p.facts) == 0 {
			continue
		}
		if best < 0 || len(p.facts) > len(parts[best].facts) {
			best = i
		}
		if !slices.Contains(labels, p.summary.Label) {
			labels = append(labels, p.summary.Label)
		}
		for _, f := range p.facts {
			if f.Line > 0 {
				f.Line += segs[i].first
			}
			id := Fact{Key: f.Key, Subject: f.Subject, Value: f.Value}
			if !f.IsError() && seen[id] {
				continue
			}
			seen[id] = true
			facts = append(facts, f)
		}
	}
	if best < 0 {
		return parsed{summary: FileSummary{Name: name, Kind: KindUnknown, Label: KindUnknown.Label()}}
	}
	if len(facts) > MaxFactsPerFile {
		// errors first, then the rest in file order
		slices.SortStableFunc(facts, func(a, b Fact) int { return boolRank(b.IsError()) - boolRank(a.IsError()) })
		facts = facts[:MaxFactsPerFile]
		slices.SortStableFunc(facts, func(a, b Fact) int { return a.Line - b.Line })
	}
	sum := parts[best].summary
	sum.Label = clip(strings.Join(labels, " + "), 200)
	return parsed{summary: sum, facts: facts}
}

func boolRank(b bool) int {
	if b {
		return 1
	}
	return 0
}

// prepare gives each file a distinct clean name and the text Read looks at:
// within MaxReadBytes over all files (none for files past MaxFiles), valid
// UTF-8. A fact's Quote is a substring of that text.
func prepare(files []File) []File {
	out := make([]File, len(files))
	seen := make(map[string]bool, len(files))
	budget := MaxReadBytes
	for i, f := range files {
		out[i].Name = uniqueName(cleanName(f.Name), i, seen)
		if i >= MaxFiles {
			continue
		}
		text := f.Text
		if len(text) > budget {
			text = text[:budget]
		}
		budget -= len(text)
		if !utf8.ValidString(text) {
			text = strings.ToValidUTF8(text, "\uFFFD")
		}
		out[i].Text = text
	}
	return out
}

// rank orders configs before logs, and Configuration.h before
// Configuration_adv.h.
func rank(k Kind, name string) int {
	switch k {
	case KindMarlinConfig:
		if strings.Contains(strings.ToLower(name), "_adv") {
			return 1
		}
		return 0
	case KindRRFConfig, KindKlipperConfig, KindKlipperKconfig:
		return 0
	}
	return 2
}

// readOne reads one file of a known kind; a kind guessed from the name that
// yields nothing becomes unknown.
func readOne(name, text string, kind Kind, byName bool, sh *shared) parsed {
	c := newCollector(name)
	var info fwInfo
	switch kind {
	case KindKlipperConfig:
		info = readKlipperConfig(c, text)
	case KindKlippyLog, KindKlipperConsole:
		info = readKlippyLog(c, text)
	case KindKlipperKconfig:
		info = readKconfig(c, text)
	case KindMarlinM503, KindMarlinSerial, KindPrusaM503, KindPrusaSupport:
		info = readMarlinLog(c, text)
	case KindMarlinConfig:
		info = readMarlinConfig(c, text, sh)
	case KindRRFConfig:
		info = readRRFConfig(c, text, sh)
	case KindRRFM122, KindRRFConsole:
		info = readRRFLog(c, text, sh)
	case KindGcode:
		info = readGcode(c, text)
	}
	facts := c.result()
	if len(facts) == 0 && byName {
		kind, info = KindUnknown, fwInfo{}
	}
	info.firmware, info.version = clip(info.firmware, 40), clip(info.version, 40)
	return parsed{
		summary: FileSummary{
			Name: name, Kind: kind, Label: label(kind, info),
			Firmware: info.firmware, Version: info.version,
		},
		facts: facts,
	}
}

// fwInfo is the firmware (or slicer) a file names.
type fwInfo struct {
	firmware, version string
}

func label(k Kind, info fwInfo) string {
	l := k.Label()
	switch {
	case k == KindGcode && info.firmware != "":
		l = "G-code from " + info.firmware
		if info.version != "" {
			l += " " + info.version
		}
		return l
	case k == KindMarlinSerial && info.firmware != "" && info.firmware != "Marlin":
		l = info.firmware + " serial log"
	}
	if info.version != "" {
		l += " (" + info.version + ")"
	}
	return l
}

// merge keeps at most MaxFacts facts: errors first, then the rest in file
// order, and reports them in file order.
func merge(files []parsed) Report {
	total := 0
	for _, p := range files {
		total += len(p.facts)
	}
	keep := make([][]bool, len(files))
	left := MaxFacts
	for pass := range 2 {
		for i, p := range files {
			if keep[i] == nil {
				keep[i] = make([]bool, len(p.facts))
			}
			for j, f := range p.facts {
				if left == 0 {
					break
				}
				if (pass == 0) == f.IsError() && !keep[i][j] {
					keep[i][j] = true
					left--
				}
			}
		}
	}
	rep := Report{Files: make([]FileSummary, len(files)), Facts: make([]Fact, 0, min(total, MaxFacts))}
	for i, p := range files {
		s := p.summary
		for j, f := range p.facts {
			if keep[i][j] {
				rep.Facts = append(rep.Facts, f)
				s.Facts++
			}
		}
		rep.Files[i] = s
	}
	return rep
}

// uniqueName gives each file a distinct name, so that a fact's Source names
// one file.
func uniqueName(name string, i int, seen map[string]bool) string {
	if name == "" {
		name = "file " + strconv.Itoa(i+1)
	}
	base := cutUTF8(name, maxNameBytes-12)
	for k := 2; seen[name]; k++ {
		name = base + " (" + strconv.Itoa(k) + ")"
	}
	seen[name] = true
	return name
}

func cleanName(n string) string {
	if !utf8.ValidString(n) {
		n = strings.ToValidUTF8(n, "\uFFFD")
	}
	n = strings.Map(func(r rune) rune {
		if r < 0x20 || r == 0x7f {
			return -1
		}
		return r
	}, n)
	return cutUTF8(strings.TrimSpace(n), maxNameBytes)
}
