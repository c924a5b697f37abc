package printerfiles

import (
	"encoding/json"
	"fmt"
	"os"
	"slices"
	"strconv"
	"strings"
	"testing"
)

// The format matrix: every attachment of the tuning sets is read as given,
// then again after it is handed over another way a maker really hands it
// over (another host's terminal, a forum post, a Windows editor, a rotated
// log, the same settings split over an include), and the same facts must
// come out.

// matrixCase is one case's attachments.
type matrixCase struct {
	ID          string `json:"id"`
	Attachments []File `json:"attachments"`
}

func loadMatrixCases(t *testing.T) []matrixCase {
	t.Helper()
	var all []matrixCase
	for _, name := range []string{"../testdata/attach/train.json", "../testdata/attach/dev.json", "../testdata/attach/train2.json"} {
		b, err := os.ReadFile(name)
		if err != nil {
			t.Fatal(err)
		}
		var cs []matrixCase
		if err := json.Unmarshal(b, &cs); err != nil {
			t.Fatalf("%s: %v", name, err)
		}
		all = append(all, cs...)
	}
	if len(all) == 0 {
		t.Fatal("no cases")
	}
	return all
}

// family groups the kinds by how their text can be handed over.
type family int

const (
	famOther        family = iota
	famHost                // a printer's serial output through a host (Marlin, Prusa)
	famKlipperLog          // klippy.log
	famKlipperCons         // a Mainsail/Fluidd console copy
	famKlipperCfg          // printer.cfg
	famRRFConfig           // config.g
	famRRFReport           // M122 report and DWC console
	famMarlinConfig        // Configuration.h
	famGcode               // sliced G-code
)

func familyOf(k Kind) family {
	switch k {
	case KindMarlinM503, KindMarlinSerial, KindPrusaM503, KindPrusaSupport:
		return famHost
	case KindKlippyLog:
		return famKlipperLog
	case KindKlipperConsole:
		return famKlipperCons
	case KindKlipperConfig:
		return famKlipperCfg
	case KindRRFConfig:
		return famRRFConfig
	case KindRRFM122, KindRRFConsole:
		return famRRFReport
	case KindMarlinConfig:
		return famMarlinConfig
	case KindGcode:
		return famGcode
	}
	return famOther
}

// transform hands one file over another way: the files it becomes (one,
// or a config and its include), or nil when it does not apply.
type transform struct {
	name     string
	families []family // nil: every family
	apply    func(f File) []File
	// extra are facts the new form may add (a line it adds that the
	// printer printed too), as the text that gives them
	extra string
	// split: the form spreads one file over two, so a setting written in
	// both is reported from each
	split bool
}

// lines splits a text into lines without their ends.
func splitLines(s string) []string {
	s = strings.TrimSuffix(strings.ReplaceAll(s, "\r\n", "\n"), "\n")
	return strings.Split(s, "\n")
}

func joinLines(ls []string) string { return strings.Join(ls, "\n") + "\n" }

// mapLines rewrites every line.
func mapLines(f File, fn func(string) string) []File {
	ls := splitLines(f.Text)
	for i, l := range ls {
		ls[i] = fn(l)
	}
	return []File{{Name: f.Name, Text: joinLines(ls)}}
}

// hostEvent is one line of a host session: what the host sent, what the
// printer answered, or the host's own message.
type hostEvent struct {
	dir  byte // 's' sent, 'r' received, 'h' the host's own line
	text string
}

// hostSession takes a session apart as the test's own reading of each
// host's layout (OctoPrint's serial.log and terminal, Pronterface,
// Repetier-Host, a bare serial monitor).
func hostSession(text string) []hostEvent {
	var out []hostEvent
	ls := splitLines(text)
	prefixed := false
	for _, l := range ls {
		if strings.Contains(l, "Recv: ") || strings.Contains(l, "Send: ") {
			prefixed = true
		}
	}
	for _, l := range ls {
		body := l
		if len(l) > 26 && l[4] == '-' && l[23:26] == " - " {
			body = l[26:] // OctoPrint serial.log
		} else if len(l) > 15 && l[2] == ':' && l[12:15] == " : " {
			body = l[15:] // Repetier-Host
			if len(body) > 1 && body[0] == 'N' && strings.Contains(body, "*") {
				_, cmd, _ := strings.Cut(body, " ")
				out = append(out, hostEvent{'s', cmd[:strings.LastIndexByte(cmd, '*')]})
				continue
			}
		}
		switch {
		case strings.HasPrefix(body, "Send: "):
			cmd := body[len("Send: "):]
			if cmd != "" && cmd[0] == 'N' {
				if _, c, ok := strings.Cut(cmd, " "); ok {
					cmd = c
				}
				if i := strings.LastIndexByte(cmd, '*'); i > 0 {
					cmd = cmd[:i]
				}
			}
			out = append(out, hostEvent{'s', cmd})
		case strings.HasPrefix(body, "Recv: "):
			out = append(out, hostEvent{'r', body[len("Recv: "):]})
		case strings.HasPrefix(body, ">>> "):
			out = append(out, hostEvent{'s', body[4:]})
		case strings.HasPrefix(body, "SENDING:"):
			// Pronterface prints the command twice: as typed and as sent
		case strings.HasPrefix(body, "[ERROR] "), prefixed:
			out = append(out, hostEvent{'h', body})
		default:
			out = append(out, hostEvent{'r', body})
		}
	}
	return out
}

// checksum is the XOR checksum of a numbered line, as hosts send it.
func checksum(s string) int {
	c := 0
	for i := 0; i < len(s); i++ {
		c ^= int(s[i])
	}
	return c
}

// renderHost writes a session the way one host shows it.
func renderHost(evs []hostEvent, host string) string {
	var b strings.Builder
	n := 0
	clock := func(i int) string { return fmt.Sprintf("10:%02d:%02d", i/60%60, i%60) }
	for i, e := range evs {
		switch host {
		case "octoprint-log":
			stamp := "2024-05-01 " + clock(i) + ",123 - "
			switch e.dir {
			case 's':
				n++
				cmd := "N" + strconv.Itoa(n) + " " + e.text
				fmt.Fprintf(&b, "%sSend: %s*%d\n", stamp, cmd, checksum(cmd))
			case 'r':
				b.WriteString(stamp + "Recv: " + e.text + "\n")
			default:
				b.WriteString(stamp + e.text + "\n")
			}
		case "octoprint-terminal":
			switch e.dir {
			case 's':
				b.WriteString("Send: " + e.text + "\n")
			case 'r':
				b.WriteString("Recv: " + e.text + "\n")
			default:
				b.WriteString(e.text + "\n")
			}
		case "pronterface":
			if e.dir == 's' {
				b.WriteString(">>> " + e.text + "\nSENDING:" + strings.ToUpper(e.text) + "\n")
				continue
			}
			b.WriteString(e.text + "\n")
		case "repetier":
			stamp := clock(i) + ".312 : "
			if e.dir == 's' {
				n++
				cmd := "N" + strconv.Itoa(n) + " " + e.text
				fmt.Fprintf(&b, "%s%s*%d\n", stamp, cmd, checksum(cmd))
				continue
			}
			b.WriteString(stamp + e.text + "\n")
		case "serial-monitor":
			// the printer's lines alone, as a bare serial monitor shows them
			if e.dir != 's' {
				b.WriteString(e.text + "\n")
			}
		}
	}
	return b.String()
}

func hostRender(host string) func(File) []File {
	return func(f File) []File {
		return []File{{Name: f.Name, Text: renderHost(hostSession(f.Text), host)}}
	}
}

// m503Setting reports whether a printer's line (after "echo:") is a line
// of an M503 report: a setting or a heading.
func m503Setting(s string) bool {
	t := strings.TrimLeft(s, " ")
	return isM503Line(t) || strings.HasPrefix(t, "G21") || strings.HasPrefix(t, "; ")
}

// toggleEcho writes M503 lines without "echo:" when they have it and with
// it when they do not: Marlin builds and hosts differ.
func toggleEcho(f File) []File {
	evs := hostSession(f.Text)
	changed := false
	for i, e := range evs {
		if e.dir != 'r' {
			continue
		}
		if rest, ok := strings.CutPrefix(e.text, "echo:"); ok && m503Setting(rest) {
			evs[i].text, changed = rest, true
		} else if m503Setting(e.text) {
			evs[i].text, changed = "echo:"+e.text, true
		}
	}
	if !changed {
		return nil
	}
	return []File{{Name: f.Name, Text: renderHost(evs, "octoprint-terminal")}}
}

// interleaveOK puts the "ok", busy and temperature lines a printer prints
// between the lines of its answers.
const interleaved = "ok T:210.0 /210.0 B:60.0 /60.0 @:0 B@:0"

func interleaveOK(f File) []File {
	evs := hostSession(f.Text)
	// a log with temperature reports of its own gets no others: they
	// would be other readings, not another form of the same
	temps := !strings.Contains(f.Text, "T:")
	var out []hostEvent
	for i, e := range evs {
		out = append(out, e)
		if e.dir == 'r' && i%3 == 0 {
			out = append(out, hostEvent{'r', "ok"}, hostEvent{'r', "echo:busy: processing"}, hostEvent{'r', "wait"})
			if temps {
				out = append(out, hostEvent{'r', interleaved})
			}
		}
	}
	return []File{{Name: f.Name, Text: renderHost(out, "octoprint-terminal")}}
}

// asQueries writes the driver, linear advance, probe and leveling lines of
// an M503 report as the answers Marlin gives when each command is sent
// without values (M906, M913, M914, M569, M900, M851, M420).
func asQueries(f File) []File {
	evs := hostSession(f.Text)
	var out []hostEvent
	changed := false
	for _, e := range evs {
		body := strings.TrimLeft(strings.TrimPrefix(e.text, "echo:"), " ")
		code, rest, ok := mcode(body)
		if e.dir != 'r' || !ok {
			out = append(out, e)
			continue
		}
		if i := strings.IndexByte(rest, ';'); i >= 0 {
			rest = rest[:i]
		}
		ps := map[byte]string{}
		var axes []byte
		for _, p := range strings.Fields(rest) {
			ps[p[0]] = p[1:]
			if strings.IndexByte("XYZE", p[0]) >= 0 {
				axes = append(axes, p[0])
			}
		}
		label := func(a byte) string {
			switch {
			case a == 'E' && ps['T'] != "" && ps['T'] != "0":
				return "E" + ps['T']
			case a != 'E' && ps['I'] != "" && ps['I'] != "0":
				i, _ := strconv.Atoi(ps['I'])
				return string(a) + strconv.Itoa(i+1)
			}
			return string(a)
		}
		var answers []string
		switch code {
		case 906, 913, 914:
			text := map[int]string{906: " driver current: ", 913: " stealthChop max speed: ", 914: " homing sensitivity: "}[code]
			for _, a := range axes {
				answers = append(answers, label(a)+text+ps[a])
			}
		case 569:
			mode := "stealthChop"
			if ps['S'] == "0" {
				mode = "spreadCycle"
			}
			for _, a := range axes {
				answers = append(answers, label(a)+" driver mode:\t"+mode)
			}
		case 900:
			if ps['T'] == "" {
				answers = append(answers, "echo:Advance K="+ps['K'])
			}
		case 851:
			if _, ok := ps['X']; ok {
				answers = append(answers, "echo:Probe Offset X"+ps['X']+" Y"+ps['Y']+" Z"+ps['Z'])
			} else {
				answers = append(answers, "echo:Probe Z Offset: "+ps['Z'])
			}
		case 420:
			on := map[string]string{"1": "ON", "0": "OFF"}[ps['S']]
			if on != "" {
				answers = append(answers, "echo:Bed Leveling "+on)
			}
			if z, ok := ps['Z']; ok {
				answers = append(answers, "echo:Fade Height "+z)
			}
		}
		if answers == nil {
			out = append(out, e)
			continue
		}
		changed = true
		out = append(out, hostEvent{'s', "M" + strconv.Itoa(code)})
		for _, a := range answers {
			out = append(out, hostEvent{'r', a})
		}
		out = append(out, hostEvent{'r', "ok"})
	}
	if !changed {
		return nil
	}
	return []File{{Name: f.Name, Text: renderHost(out, "octoprint-terminal")}}
}

// marlinLayout writes an M503 report in another Marlin release's layout:
// "1.1" drops 2.x's "; " before headings and the unit comments, "2.1" adds
// them; "distinct-e" reports the extruder's steps, speed and acceleration on
// lines of their own ("M92 T0 E93.00", DISTINCT_E_FACTORS).
func marlinLayout(layout string) func(File) []File {
	return func(f File) []File {
		evs := hostSession(f.Text)
		var out []hostEvent
		changed := false
		for _, e := range evs {
			if e.dir != 'r' {
				out = append(out, e)
				continue
			}
			pre, body := "", e.text
			if rest, ok := strings.CutPrefix(body, "echo:"); ok {
				pre, body = "echo:", rest
			}
			trimmed := strings.TrimLeft(body, " ")
			ind := body[:len(body)-len(trimmed)]
			code, _, isCode := mcode(trimmed)
			switch {
			case layout == "1.1" && strings.HasPrefix(trimmed, "; ") && strings.HasSuffix(trimmed, ":"):
				out = append(out, hostEvent{'r', pre + trimmed[2:]})
				changed = true
				continue
			case layout == "1.1" && isCode && strings.Contains(trimmed, " ;"):
				out = append(out, hostEvent{'r', pre + ind + trimmed[:strings.Index(trimmed, " ;")]})
				changed = true
				continue
			case layout == "2.1" && pre == "echo:" && !isCode && strings.HasSuffix(trimmed, ":") && !strings.HasPrefix(trimmed, ";") && !strings.Contains(trimmed, "  "):
				out = append(out, hostEvent{'r', pre + "; " + trimmed})
				changed = true
				continue
			case layout == "2.1" && isCode && !strings.Contains(trimmed, ";") && (code == 851 || code == 92):
				out = append(out, hostEvent{'r', pre + ind + trimmed + " ; (mm)"})
				changed = true
				continue
			case layout == "distinct-e" && isCode && (code == 92 || code == 203 || code == 201) && !strings.Contains(trimmed, " T"):
				var axes, ext []string
				for _, p := range strings.Fields(trimmed)[1:] {
					if p[0] == 'E' {
						ext = append(ext, p)
					} else {
						axes = append(axes, p)
					}
				}
				if len(ext) == 1 && len(axes) > 0 {
					m := "M" + strconv.Itoa(code)
					out = append(out, hostEvent{'r', pre + ind + m + " " + strings.Join(axes, " ")},
						hostEvent{'r', pre + ind + m + " T0 " + ext[0]})
					changed = true
					continue
				}
			}
			out = append(out, e)
		}
		if !changed {
			return nil
		}
		return []File{{Name: f.Name, Text: renderHost(out, "octoprint-terminal")}}
	}
}

// klipperConsole takes a Mainsail/Fluidd console copy apart into its
// clock and message.
func klipperConsole(text string) (clocks, msgs []string) {
	for _, l := range splitLines(text) {
		if len(l) > 9 && l[2] == ':' && l[5] == ':' && l[8] == ' ' {
			clocks = append(clocks, l[:8])
			msgs = append(msgs, strings.TrimLeft(l[8:], " "))
			continue
		}
		clocks = append(clocks, "")
		msgs = append(msgs, l)
	}
	return clocks, msgs
}

// renderConsole writes a console: "block" as a copy of Mainsail's table,
// whose clock and message are separate blocks; "nbsp" as Fluidd's, a
// clock then a no-break space; "bare" as the messages alone.
func renderConsole(layout string) func(File) []File {
	return func(f File) []File {
		clocks, msgs := klipperConsole(f.Text)
		var b strings.Builder
		for i, m := range msgs {
			switch {
			case clocks[i] == "" && layout == "octoprint":
				b.WriteString("Recv: " + m + "\n")
			case clocks[i] == "" || layout == "bare":
				b.WriteString(m + "\n")
			case layout == "block":
				b.WriteString(clocks[i] + "\n" + m + "\n")
			case layout == "nbsp":
				b.WriteString(clocks[i] + "\u00a0" + m + "\n")
			case layout == "bracket":
				b.WriteString("[" + clocks[i] + "] " + m + "\n")
			case layout == "octoprint":
				// Klipper through OctoPrint: commands sent, the rest received
				if cmd, ok := strings.CutPrefix(m, "$ "); ok {
					b.WriteString("Send: " + cmd + "\n")
				} else {
					b.WriteString("Recv: " + m + "\n")
				}
			}
		}
		return []File{{Name: f.Name, Text: b.String()}}
	}
}

// newestOnTop writes a console as Mainsail shows it with the newest entry
// on top: the entries (a line with a clock and the lines without one that
// follow it) in reverse order. A console whose clocks never change tells
// no order and is left out.
func newestOnTop(f File) []File {
	clocks, msgs := klipperConsole(f.Text)
	var entries [][]string
	changes := map[string]bool{}
	for i, m := range msgs {
		l := m
		if clocks[i] != "" {
			l = clocks[i] + "  " + m
			changes[clocks[i]] = true
		}
		if clocks[i] != "" || len(entries) == 0 {
			entries = append(entries, nil)
		}
		entries[len(entries)-1] = append(entries[len(entries)-1], l)
	}
	if len(changes) < 2 {
		return nil
	}
	slices.Reverse(entries)
	return []File{{Name: f.Name, Text: joinLines(slices.Concat(entries...))}}
}

// klippyRollover writes the log as Klipper's logger starts it after a
// midnight rotation: what was logged at start-up for the rotated files
// (the config dump, the versions, the MCUs: klippy/queuelogger.py,
// rollover_info sorted by name) then the rollover line, then the rest.
func klippyRollover(f File) []File {
	ls := splitLines(f.Text)
	start, end := -1, -1
	for i, l := range ls {
		if strings.HasPrefix(l, "===== Config file =====") {
			start = i
		}
		if start >= 0 && strings.HasPrefix(l, "=======================") {
			end = i
			break
		}
	}
	if start < 0 || end < 0 {
		return nil
	}
	out := slices.Concat(ls[start:end+1], ls[:start],
		[]string{"=============== Log rollover at Wed May  1 00:00:02 2024 ==============="}, ls[end+1:])
	return []File{{Name: f.Name, Text: joinLines(out)}}
}

// savedOptions are the options SAVE_CONFIG writes.
var savedOptions = map[string]bool{
	"control": true, "pid_kp": true, "pid_ki": true, "pid_kd": true, "z_offset": true,
	"position_endstop": true, "shaper_type_x": true, "shaper_freq_x": true,
}

// saveConfig moves the options SAVE_CONFIG writes into its block at the
// end, commenting out the originals as Klipper does.
func saveConfig(f File) []File {
	ls := splitLines(f.Text)
	for _, l := range ls {
		if strings.HasPrefix(l, "#*#") {
			return nil
		}
	}
	type moved struct{ sec, kv string }
	var saved []moved
	sec := ""
	for i, l := range ls {
		if strings.HasPrefix(l, "[") {
			sec = l
			continue
		}
		k, v, ok := klipperKV(l)
		if !ok || !savedOptions[strings.ToLower(k)] || strings.ContainsAny(v, "#;") {
			continue
		}
		saved = append(saved, moved{sec, strings.ToLower(k) + " = " + v})
		ls[i] = "#" + l
	}
	if len(saved) == 0 {
		return nil
	}
	ls = append(ls, "", "#*# <---------------------- SAVE_CONFIG ---------------------->",
		"#*# DO NOT EDIT THIS BLOCK OR BELOW. The contents are auto-generated.", "#*#")
	last := ""
	for _, m := range saved {
		if m.sec != last {
			if last != "" {
				ls = append(ls, "#*#")
			}
			ls = append(ls, "#*# "+m.sec)
			last = m.sec
		}
		ls = append(ls, "#*# "+m.kv)
	}
	return []File{{Name: f.Name, Text: joinLines(ls)}}
}

// includeSplit moves the second half of the sections into a file the
// config includes, attached beside it.
func includeSplit(f File) []File {
	ls := splitLines(f.Text)
	var starts []int
	for i, l := range ls {
		if strings.HasPrefix(l, "[") && !strings.HasPrefix(l, "[include") {
			starts = append(starts, i)
		}
	}
	if len(starts) < 4 {
		return nil
	}
	cut := starts[len(starts)/2]
	main := append([]string{"[include steppers.cfg]"}, ls[:cut]...)
	return []File{{Name: f.Name, Text: joinLines(main)}, {Name: "steppers.cfg", Text: joinLines(ls[cut:])}}
}

const dumpVersion = "v0.12.0-85-gd785b396"

// inKlippyLog writes the config as klippy.log's config dump.
func inKlippyLog(f File) []File {
	return []File{{Name: "klippy.log", Text: "Starting Klippy...\nArgs: ['/home/pi/klipper/klippy/klippy.py', '/home/pi/printer_data/config/printer.cfg']\n" +
		"Git version: '" + dumpVersion + "'\n===== Config file =====\n" + strings.TrimSuffix(f.Text, "\n") +
		"\n=======================\nExtruder max_extrude_ratio=0.266081\nmcu 'mcu': Starting serial connect\n"}}
}

// equalsSigns writes "key = value" for "key: value".
func equalsSigns(f File) []File {
	return mapLines(f, func(l string) string {
		if k, v, ok := klipperKV(l); ok && !strings.HasPrefix(l, "[") && strings.Contains(l, ":") && l[len(k)] == ':' {
			return k + " = " + v
		}
		return l
	})
}

// rrfConditional puts the config's commands after the first ten lines
// inside a conditional block, as RRF 3 configs may.
func rrfConditional(f File) []File {
	ls := splitLines(f.Text)
	if len(ls) < 12 {
		return nil
	}
	out := append([]string{}, ls[:10]...)
	out = append(out, "var board = boards[0].shortName ; set in RRF 3.5", `if var.board == "2WiFi" || var.board == "2Ethernet"`)
	for _, l := range ls[10:] {
		out = append(out, "  "+l)
	}
	out = append(out, "else", `  echo "unknown board"`)
	return []File{{Name: f.Name, Text: joinLines(out)}}
}

// defineTabs separates Marlin's defines from their values by tabs.
func defineTabs(f File) []File {
	return mapLines(f, func(l string) string {
		t := strings.TrimLeft(l, " ")
		ind := strings.Repeat("\t", (len(l)-len(t)+1)/2)
		for _, p := range []string{"#define ", "//#define "} {
			if rest, ok := strings.CutPrefix(t, p); ok {
				name, val, ok := strings.Cut(rest, " ")
				if !ok {
					return ind + t
				}
				return ind + p[:len(p)-1] + "\t" + name + "\t" + strings.TrimLeft(val, " ")
			}
		}
		return ind + t
	})
}

// dwcM122 writes an M122 report as Duet Web Control's console shows it:
// the command's line stamped, the report below it.
func dwcM122(f File) []File {
	ls := splitLines(f.Text)
	if ls[0] == "M122" {
		ls[0] = "3/2/2024, 4:02:11 PM\tM122"
	} else if strings.HasPrefix(ls[0], "=== Diagnostics") {
		ls = append([]string{"3/2/2024, 4:02:11 PM\tM122"}, ls...)
	} else {
		return nil
	}
	return []File{{Name: f.Name, Text: joinLines(ls)}}
}

// rrfThroughOctoPrint writes a Duet's answers as OctoPrint's terminal shows
// them: the commands DWC stamped as sent, every other line received.
func rrfThroughOctoPrint(f File) []File {
	return mapLines(f, func(l string) string {
		if stamp, msg, ok := strings.Cut(l, "\t"); ok && strings.Contains(stamp, ", ") && strings.Contains(stamp, "M") {
			l = msg
			if len(msg) > 1 && (msg[0] == 'M' || msg[0] == 'G') && msg[1] >= '0' && msg[1] <= '9' {
				return "Send: " + msg
			}
		}
		if l == "M122" {
			return "Send: M122"
		}
		return "Recv: " + l
	})
}

// expandTabs turns a line's tabs into spaces to the next multiple of w,
// as editors and some forums do.
func expandTabs(l string, w int) string {
	var b strings.Builder
	for _, r := range l {
		if r == '\t' {
			b.WriteByte(' ')
			for b.Len()%w != 0 {
				b.WriteByte(' ')
			}
			continue
		}
		b.WriteRune(r)
	}
	return b.String()
}

// rrf35Layout writes an M122 report of RepRapFirmware 3.3/3.4 in 3.5's
// layout (Move::Diagnostics): the Move section reads "Segments created 3,
// maxWait 0ms, bed comp in use: mesh, height map offset 0.000, hiccups added
// 12/0 (0.00/0.00ms), max steps late 0, ...", the rings no longer count
// hiccups.
func rrf35Layout(f File) []File {
	ls := splitLines(f.Text)
	hiccups, move := "0", -1
	for i, l := range ls {
		if strings.HasPrefix(l, "Scheduled moves ") {
			var kept []string
			for _, item := range strings.Split(l, ", ") {
				if h, ok := strings.CutPrefix(item, "hiccups "); ok {
					hiccups = h
					continue
				}
				kept = append(kept, item)
			}
			ls[i] = strings.Join(kept, ", ")
		}
		if strings.Contains(l, "bed compensation in use: ") {
			move = i
		}
	}
	if move < 0 {
		return nil
	}
	comp, _ := after(ls[move], "bed compensation in use: ")
	comp, _, _ = strings.Cut(comp, ",")
	ls[move] = "Segments created 3, maxWait 0ms, bed comp in use: " + comp + ", height map offset 0.000, hiccups added " +
		hiccups + "/0 (0.00/0.00ms), max steps late 0, ebfmin 0.00, ebfmax 0.00"
	return []File{{Name: f.Name, Text: joinLines(ls)}}
}

// unifiedDiff writes the file as a maker's `git diff` of their changes:
// every fourth line changed from another value, the rest context; the new
// side is the file.
func unifiedDiff(f File) []File {
	ls := splitLines(f.Text)
	out := []string{"diff --git a/" + f.Name + " b/" + f.Name, "index 3f2a1b0..8c9d7e4 100644",
		"--- a/" + f.Name, "+++ b/" + f.Name, fmt.Sprintf("@@ -1,%d +1,%d @@", len(ls), len(ls))}
	for i, l := range ls {
		if i%4 == 1 && strings.TrimSpace(l) != "" {
			out = append(out, "-"+l+"0", "+"+l)
			continue
		}
		out = append(out, " "+l)
	}
	return []File{{Name: f.Name, Text: joinLines(out)}}
}

// forum forms: how a file looks pasted into a forum or chat.
func fence(lang string) func(File) []File {
	return func(f File) []File {
		return []File{{Name: f.Name, Text: "Here is my file:\n\n```" + lang + "\n" + strings.TrimSuffix(f.Text, "\n") + "\n```\n\nThanks for any help!\n"}}
	}
}

func prefixAll(p string) func(File) []File {
	return func(f File) []File {
		return mapLines(f, func(l string) string { return strings.TrimRight(p+l, " ") })
	}
}

var transforms = []transform{
	{name: "crlf", apply: func(f File) []File {
		return []File{{Name: f.Name, Text: strings.ReplaceAll(strings.ReplaceAll(f.Text, "\r\n", "\n"), "\n", "\r\n")}}
	}},
	{name: "bom", apply: func(f File) []File { return []File{{Name: f.Name, Text: "\uFEFF" + f.Text}} }},
	{name: "bom+crlf", apply: func(f File) []File {
		return []File{{Name: f.Name, Text: "\uFEFF" + strings.ReplaceAll(f.Text, "\n", "\r\n")}}
	}},
	{name: "fence", apply: fence("")},
	{name: "fence-lang", apply: fence("text")},
	{name: "quote", apply: prefixAll("> ")},
	{name: "indent4", apply: prefixAll("    ")},
	{name: "trailing-space", apply: func(f File) []File { return mapLines(f, func(l string) string { return l + "  " }) }},
	{name: "tabs", families: []family{famHost, famRRFConfig, famRRFReport, famMarlinConfig}, apply: func(f File) []File {
		return mapLines(f, func(l string) string {
			t := strings.TrimLeft(l, " ")
			if len(t) == len(l) {
				// "echo:  M92 ..." indents after the prefix
				if p, rest, ok := strings.Cut(l, "echo:"); ok && strings.HasPrefix(rest, "  ") {
					return p + "echo:\t" + strings.TrimLeft(rest, " ")
				}
				return l
			}
			return "\t" + t
		})
	}},
	{name: "terminal-stamps", families: []family{famHost, famRRFReport}, apply: func(f File) []File {
		// a serial terminal's log (tio -t, CuteCom): each line stamped; a
		// DWC console has its own stamps and is left out
		if strings.Contains(f.Text, "M\t") {
			return nil
		}
		if !strings.Contains(f.Text, "=== Diagnostics ===") {
			f.Text = renderHost(hostSession(f.Text), "serial-monitor") // what the printer sent
		}
		return mapLines(f, func(l string) string {
			if l == "" {
				return l
			}
			return "[2024-05-01 10:00:00.123] " + l
		})
	}},
	{name: "octoprint-log", families: []family{famHost}, apply: hostRender("octoprint-log")},
	{name: "octoprint-terminal", families: []family{famHost}, apply: hostRender("octoprint-terminal")},
	{name: "pronterface", families: []family{famHost}, apply: hostRender("pronterface")},
	{name: "repetier", families: []family{famHost}, apply: hostRender("repetier")},
	{name: "serial-monitor", families: []family{famHost}, apply: hostRender("serial-monitor")},
	{name: "echo-toggle", families: []family{famHost}, apply: toggleEcho},
	{name: "echo-spacing", families: []family{famHost}, apply: func(f File) []File {
		// builds and forks differ in the spaces after "echo:"
		evs := hostSession(f.Text)
		for i, e := range evs {
			if rest, ok := strings.CutPrefix(e.text, "echo:"); ok && e.dir == 'r' {
				evs[i].text = "echo:" + strings.Repeat(" ", i%4) + strings.TrimLeft(rest, " ")
			}
		}
		return []File{{Name: f.Name, Text: renderHost(evs, "octoprint-terminal")}}
	}},
	{name: "ok-interleaved", families: []family{famHost}, apply: interleaveOK, extra: interleaved + "\n" + interleaved + "\n"},
	{name: "tabs-expanded", families: []family{famHost}, apply: func(f File) []File {
		if !strings.Contains(f.Text, "\t") {
			return nil
		}
		return mapLines(f, func(l string) string { return expandTabs(l, 8) })
	}},
	{name: "marlin-1.1-layout", families: []family{famHost}, apply: marlinLayout("1.1")},
	{name: "marlin-2.1-layout", families: []family{famHost}, apply: marlinLayout("2.1")},
	{name: "distinct-e-factors", families: []family{famHost}, apply: marlinLayout("distinct-e")},
	{name: "query-answers", families: []family{famHost}, apply: asQueries},
	{name: "console-block", families: []family{famKlipperCons}, apply: renderConsole("block")},
	{name: "console-nbsp", families: []family{famKlipperCons}, apply: renderConsole("nbsp")},
	{name: "console-bracket", families: []family{famKlipperCons}, apply: renderConsole("bracket")},
	{name: "console-bare", families: []family{famKlipperCons}, apply: renderConsole("bare")},
	{name: "console-newest-first", families: []family{famKlipperCons}, apply: newestOnTop},
	{name: "console-octoprint", families: []family{famKlipperCons}, apply: renderConsole("octoprint")},
	{name: "klippy-rollover", families: []family{famKlipperLog}, apply: klippyRollover},
	{name: "save-config", families: []family{famKlipperCfg}, apply: saveConfig},
	{name: "include-split", families: []family{famKlipperCfg}, apply: includeSplit, split: true},
	{name: "klippy-dump", families: []family{famKlipperCfg}, apply: inKlippyLog, extra: "Starting Klippy...\nGit version: '" + dumpVersion + "'\n"},
	{name: "equals", families: []family{famKlipperCfg}, apply: equalsSigns},
	{name: "option-case", families: []family{famKlipperCfg}, apply: func(f File) []File {
		// Klipper reads option names case-insensitively ("pid_Kp", "Rotation_Distance")
		return mapLines(f, func(l string) string {
			if k, _, ok := klipperKV(l); ok && !strings.HasPrefix(l, "[") && strings.HasPrefix(l, k) && len(k) > 1 {
				return strings.ToUpper(k[:1]) + k[1:] + l[len(k):]
			}
			return l
		})
	}},
	{name: "spaced-colon", families: []family{famKlipperCfg}, apply: func(f File) []File {
		return mapLines(f, func(l string) string {
			if k, v, ok := klipperKV(l); ok && !strings.HasPrefix(l, "[") && strings.HasPrefix(l, k+":") {
				return k + " : " + v
			}
			return l
		})
	}},
	{name: "unified-diff", families: []family{famKlipperCfg, famMarlinConfig, famRRFConfig}, apply: unifiedDiff},
	{name: "rrf-lowercase", families: []family{famRRFConfig}, apply: func(f File) []File {
		// RepRapFirmware reads command and parameter letters in either case
		return mapLines(f, func(l string) string {
			code, comment, _ := strings.Cut(l, ";")
			var b strings.Builder
			quoted := false
			for _, r := range code {
				if r == '"' {
					quoted = !quoted
				}
				if !quoted && r >= 'A' && r <= 'Z' {
					r += 'a' - 'A'
				}
				b.WriteRune(r)
			}
			if strings.Contains(l, ";") {
				return b.String() + ";" + comment
			}
			return b.String()
		})
	}},
	{name: "rrf-conditional", families: []family{famRRFConfig}, apply: rrfConditional},
	{name: "define-tabs", families: []family{famMarlinConfig}, apply: defineTabs},
	{name: "dwc-m122", families: []family{famRRFReport}, apply: dwcM122},
	{name: "octoprint-m122", families: []family{famRRFReport}, apply: rrfThroughOctoPrint},
	{name: "rrf-3.5-m122", families: []family{famRRFReport}, apply: rrf35Layout},
	{name: "dwc-24h-locale", families: []family{famRRFReport}, apply: func(f File) []File {
		// Duet Web Control in a browser set to a day-first, 24-hour locale
		return mapLines(f, func(l string) string {
			if stamp, msg, ok := strings.Cut(l, "\t"); ok && strings.Contains(stamp, ", ") && strings.HasSuffix(stamp, "M") {
				return "16.03.2024, 20:41:55\t" + msg
			}
			return l
		})
	}},
}

// factSet is a report's facts by key, subject and value: what the engine
// uses, whatever the line or source.
func factSet(rep Report) map[string]bool {
	m := make(map[string]bool, len(rep.Facts))
	for _, f := range rep.Facts {
		if f.Key == "klipper.include" {
			continue // an include is how the files were split, not a fact of the printer
		}
		m[f.Key+" ["+f.Subject+"] = "+f.Value] = true
	}
	return m
}

// TestFormatMatrix reads each attachment of the tuning sets in every form
// it can arrive in and checks that the facts do not change.
func TestFormatMatrix(t *testing.T) {
	cases := loadMatrixCases(t)
	lost := map[string]int{}
	gained := map[string]int{}
	applied := map[string]int{}
	for _, c := range cases {
		base := Read(c.Attachments)
		want := factSet(base)
		for ai, a := range c.Attachments {
			fam := familyOf(base.Files[ai].Kind)
			for _, tr := range transforms {
				if tr.families != nil && !slices.Contains(tr.families, fam) {
					continue
				}
				repl := tr.apply(a)
				if repl == nil {
					continue
				}
				applied[tr.name]++
				files := slices.Concat(c.Attachments[:ai], repl, c.Attachments[ai+1:])
				rep := Read(files)
				checkInvariants(t, files, rep)
				got := factSet(rep)
				allowed := map[string]bool{}
				if tr.extra != "" {
					allowed = factSet(Read([]File{{Name: "serial.log", Text: tr.extra}}))
				}
				var missing, extra []string
				for k := range want {
					if !got[k] {
						missing = append(missing, k)
					}
				}
				for k := range got {
					if !want[k] && !allowed[k] && !(tr.split && sameSetting(want, k)) {
						extra = append(extra, k)
					}
				}
				slices.Sort(missing)
				slices.Sort(extra)
				lost[tr.name] += len(missing)
				gained[tr.name] += len(extra)
				if len(missing)+len(extra) > 0 {
					t.Errorf("%s / %s (%s) as %s: %d facts lost %v; %d facts added %v", c.ID, a.Name, base.Files[ai].Kind, tr.name,
						len(missing), clipList(missing), len(extra), clipList(extra))
				}
			}
		}
	}
	// every file of a case pasted into one post, each in a fenced block
	// under its name
	for _, c := range cases {
		if len(c.Attachments) < 2 {
			continue
		}
		var b strings.Builder
		for _, a := range c.Attachments {
			fmt.Fprintf(&b, "Here is my %s:\n\n```\n%s\n```\n\n", a.Name, strings.TrimSuffix(a.Text, "\n"))
		}
		files := []File{{Name: "post.txt", Text: b.String()}}
		rep := Read(files)
		checkInvariants(t, files, rep)
		want, got := factSet(Read(c.Attachments)), factSet(rep)
		var missing []string
		for k := range want {
			if !got[k] {
				missing = append(missing, k)
			}
		}
		slices.Sort(missing)
		applied["one-post"]++
		lost["one-post"] += len(missing)
		if len(missing) > 0 {
			t.Errorf("%s as one post: %d facts lost %v", c.ID, len(missing), clipList(missing))
		}
	}
	for _, tr := range append(transforms, transform{name: "one-post"}) {
		t.Logf("%-20s applied to %3d files: %4d facts lost, %3d added", tr.name, applied[tr.name], lost[tr.name], gained[tr.name])
	}
}

// sameSetting reports whether a fact "key [subject] = value" has the key
// and subject of one in set.
func sameSetting(set map[string]bool, fact string) bool {
	ks, _, _ := strings.Cut(fact, " = ")
	for k := range set {
		if strings.HasPrefix(k, ks+" = ") {
			return true
		}
	}
	return false
}

func clipList(l []string) []string {
	if len(l) > 6 {
		return append(l[:6:6], "…")
	}
	return l
}
