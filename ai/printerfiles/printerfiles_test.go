package printerfiles

import (
	"fmt"
	"strings"
	"testing"
)

// The content decides the kind; the name only breaks ties.
func TestDetectByContent(t *testing.T) {
	tests := []struct {
		name, text string
		want       Kind
	}{
		{"printer.cfg", klippyLogADC, KindKlippyLog},
		{"notes.txt", klipperEnder3S1, KindKlipperConfig},
		{"config.g", marlinM503Octoprint, KindMarlinM503},
		{"klippy.log", rrfConfigDuet3, KindRRFConfig},
		{"paste.txt", marlinConfigEnder3V2, KindMarlinConfig},
		{"M503.txt", prusaM503, KindPrusaM503},
		{"x", "=== Diagnostics ===\nRepRapFirmware for Duet 2 WiFi/Ethernet version 3.4.5 (2022-11-30) running on Duet WiFi 1.02 or later\n", KindRRFM122},
		{"printer.cfg", "hello\nworld\n", KindUnknown},
		{"empty.txt", "", KindUnknown},
		{"binary.bin", "\x00\x01\x02\xff\xfe", KindUnknown},
	}
	for _, tt := range tests {
		t.Run(tt.name+"/"+string(tt.want), func(t *testing.T) {
			rep := read(t, tt.name, tt.text)
			if k := rep.Files[0].Kind; k != tt.want {
				t.Errorf("kind %s, want %s", k, tt.want)
			}
		})
	}
}

// Several files: each is summarised, facts keep their file's name, names
// are made distinct, files past MaxFiles and text past MaxReadBytes are
// not read.
func TestReadSeveralFiles(t *testing.T) {
	files := []File{
		{"printer.cfg", klipperEnder3V2},
		{"printer.cfg", klipperTMC},
		{"klippy.log", klippyLogADC},
	}
	rep := Read(files)
	checkInvariants(t, files, rep)
	if rep.Files[1].Name != "printer.cfg (2)" {
		t.Errorf("second name %q", rep.Files[1].Name)
	}
	counts := map[string]int{}
	for _, f := range rep.Facts {
		counts[f.Source]++
	}
	for _, s := range rep.Files {
		if s.Facts == 0 || counts[s.Name] != s.Facts {
			t.Errorf("%s: summary says %d facts, report has %d", s.Name, s.Facts, counts[s.Name])
		}
	}

	many := make([]File, MaxFiles+3)
	for i := range many {
		many[i] = File{Name: fmt.Sprint("f", i), Text: klipperEnder3V2}
	}
	rep = Read(many)
	checkInvariants(t, many, rep)
	for i, s := range rep.Files {
		if read := s.Facts > 0; read != (i < MaxFiles) {
			t.Errorf("file %d: %d facts", i, s.Facts)
		}
	}

	big := strings.Repeat("# padding line of a config file\n", MaxReadBytes/32+1)
	files = []File{{"big.cfg", big}, {"printer.cfg", klipperEnder3V2}}
	rep = Read(files)
	checkInvariants(t, files, rep)
	if rep.Files[1].Facts != 0 {
		t.Errorf("a file past the read budget gave %d facts", rep.Files[1].Facts)
	}
}

// A report never holds more than MaxFacts facts, nor a file more than
// MaxFactsPerFile, and errors are kept first.
func TestFactBounds(t *testing.T) {
	var b strings.Builder
	for i := range 400 {
		fmt.Fprintf(&b, "[stepper_%d]\nstep_pin: PA%d\ndir_pin: !PB%d\nrotation_distance: 40\nmicrosteps: 16\n", i, i, i)
	}
	cfg := b.String()
	log := "Starting Klippy...\nMCU 'mcu' shutdown: Timer too close\n"
	files := []File{{"a.cfg", cfg}, {"b.cfg", cfg}, {"c.cfg", cfg}, {"klippy.log", log}}
	rep := Read(files)
	checkInvariants(t, files, rep)
	if len(rep.Facts) != MaxFacts {
		t.Errorf("%d facts, want the cap %d", len(rep.Facts), MaxFacts)
	}
	if _, ok := findFact(rep, "error.timer_too_close", "mcu"); !ok {
		t.Error("the error of the last file was dropped for settings")
	}
}

// A computed value beyond float64 is no fact: the report stays valid JSON.
func TestComputedOverflow(t *testing.T) {
	rep := read(t, "printer.cfg", "[extruder]\nmicrosteps: 1e300\nfull_steps_per_rotation: 1e300\nrotation_distance: 1e-300\n")
	expectNoFacts(t, rep, []want{{"extruder.steps_per_mm", "extruder", ""}})
	expectFacts(t, rep, []want{{"extruder.microsteps", "extruder", "1e300"}})
}

// Detect names the kind Read reports for a file it reads.
func TestDetectAgreesWithRead(t *testing.T) {
	for _, f := range []File{
		{"klippy.log", "Starting Klippy...\nGit version: 'v0.12.0-85-gd785b396'\n"},
		{"M503.txt", "echo:  M92 X80.00 Y80.00 Z400.00 E93.00\necho:  M203 X500.00 Y500.00 Z5.00 E25.00\necho:  M301 P21.73 I1.54 D76.55\n"},
		{"notes.txt", "the nozzle clicks on the first layer\n"},
		{"M503.txt", "echo:  M92 X80.00 Y80.00 Z400.00 E93.00\necho:  M301 P21.73 I1.54 D76.55\n"},
		{"config.g", "M550 P\"Ender3\"\nM584 X0 Y1 Z2 E3\nM558 P9 C\"^zprobe.in\" H5 F120 T6000\nG31 P500 X-44 Y-6 Z2.35\n"},
	} {
		want := Read([]File{f}).Files[0].Kind
		if got := Detect(f.Name, f.Text); got != want {
			t.Errorf("%s: Detect %s, Read %s", f.Name, got, want)
		}
	}
}

// A short settings dump named M503 is an M503 report, not a serial log.
func TestDetectShortM503ByName(t *testing.T) {
	text := "echo:  M92 X80.00 Y80.00 Z400.00 E93.00\necho:  M301 P21.73 I1.54 D76.55\n"
	if k := Detect("M503.txt", text); k != KindMarlinM503 {
		t.Errorf("M503.txt: %s", k)
	}
	if k := Detect("terminal.txt", text); k != KindMarlinSerial {
		t.Errorf("terminal.txt: %s", k)
	}
}

// TestUnifiedDiff: a maker's `git diff` of their changes is read on its new
// side; removed lines and headers give nothing.
func TestUnifiedDiff(t *testing.T) {
	text := "diff --git a/Marlin/Configuration.h b/Marlin/Configuration.h\nindex 3f2a1b0..8c9d7e4 100644\n" +
		"--- a/Marlin/Configuration.h\n+++ b/Marlin/Configuration.h\n@@ -1210,7 +1210,7 @@\n" +
		" #define DEFAULT_AXIS_STEPS_PER_UNIT   { 80, 80, 400, 93 }\n" +
		"-#define TEMP_SENSOR_0 1\n+#define TEMP_SENSOR_0 5\n"
	rep := readKind(t, "Configuration.h.diff", text, KindMarlinConfig)
	expectFacts(t, rep, []want{{"heater.sensor_type", "extruder", "5 (100k ATC Semitec 104GT-2/104NT-4)"}, {"extruder.steps_per_mm", "extruder", "~93"}})
}
