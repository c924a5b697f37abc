package ai

import (
	"strings"
	"sync"
	"testing"
	"testing/fstest"

	"github.com/layerfix/layerfix/ai/printerfiles"
)

// klippyADC is a klippy.log tail in the format Klipper writes: the config
// dump, then a shutdown on an extruder reading below min_temp.
const klippyADC = `Starting Klippy...
Git version: 'v0.12.0-85-gd785b396'
===== Config file =====
[extruder]
step_pin = PB3
dir_pin = !PB4
enable_pin = !PD2
microsteps = 16
rotation_distance = 34.406
nozzle_diameter = 0.400
filament_diameter = 1.750
heater_pin = PC8
sensor_type = EPCOS 100K B57560G104F
sensor_pin = PA0
control = pid
pid_kp = 21.527
pid_ki = 1.063
pid_kd = 108.982
min_temp = 0
max_temp = 250
=======================
Stats 2931.0: gcodein=0  mcu: mcu_awake=0.021 mcu_task_avg=0.000021 mcu_task_stddev=0.000014 bytes_write=1414398 bytes_read=360000 bytes_retransmit=9 bytes_invalid=0 send_seq=44400 receive_seq=44400 retransmit_seq=2 srtt=0.001 rttvar=0.000 rto=0.025 ready_bytes=0 upcoming_bytes=0 freq=72000521 extruder: target=205 temp=205.4 pwm=0.412 sysload=0.21 cputime=31.2 memavail=712000 print_time=2930.1 buffer_time=1.8 print_stall=0
Stats 2947.0: gcodein=0  mcu: mcu_awake=0.003 mcu_task_avg=0.000011 mcu_task_stddev=0.000009 bytes_write=1420648 bytes_read=361329 bytes_retransmit=9 bytes_invalid=0 send_seq=44501 receive_seq=44501 retransmit_seq=2 srtt=0.001 rttvar=0.000 rto=0.025 ready_bytes=0 upcoming_bytes=0 freq=72000521 extruder: target=205 temp=-14.1 pwm=1.000 sysload=0.20 cputime=31.4 memavail=712000 print_time=2946.0 buffer_time=1.8 print_stall=0
MCU 'mcu' shutdown: ADC out of range
Transition to shutdown state: MCU shutdown
`

// A description that fits a dozen causes: the log decides.
const stoppedMidPrint = "Three hours into a long print the printer just stopped: motors off, heaters off, and the screen says it is shut down. After a restart it prints again like nothing happened."

var (
	sharedOnce sync.Once
	shared     *Engine
	sharedErr  error
)

// sharedEngine is the real engine, built once for the tests that only read it
// (building it is most of a test's time under -race); a test that changes it
// (SetLocalCases) builds its own.
func sharedEngine(t testing.TB) *Engine {
	t.Helper()
	sharedOnce.Do(func() { shared, sharedErr = NewEngine() })
	if sharedErr != nil {
		t.Fatal(sharedErr)
	}
	return shared
}

func topSteps(t *testing.T, e *Engine, req Request) *Result {
	t.Helper()
	return analyze(t, e, req)
}

// A klippy.log with "ADC out of range" on the extruder makes the thermistor
// wiring the first step, quoting the log, and the summary names the line.
func TestAttachmentFactDecidesTheStep(t *testing.T) {
	e := sharedEngine(t)
	bare := Request{Category: "other", Description: stoppedMidPrint, PrinterBrand: "Creality Ender 3 V2"}
	before := topSteps(t, e, bare)
	withLog := bare
	withLog.Attachments = []Attachment{{Name: "klippy.log", Text: klippyADC}}
	res := topSteps(t, e, withLog)
	first := res.Steps[0]
	if !strings.Contains(strings.ToLower(first.Title), "thermistor") {
		t.Fatalf("first step %q, want the thermistor step (without the log: %q)", first.Title, before.Steps[0].Title)
	}
	if strings.Contains(strings.ToLower(before.Steps[0].Title), "thermistor") {
		t.Errorf("without the log the first step is already %q: the test proves nothing", before.Steps[0].Title)
	}
	if !strings.HasPrefix(first.Description, "Your klippy.log shows “") || !strings.Contains(first.Description, "ADC out of range") {
		t.Errorf("first step does not quote the log: %q", first.Description)
	}
	if !strings.Contains(res.Summary, "Your klippy.log shows “") {
		t.Errorf("summary does not name the deciding line: %q", res.Summary)
	}
}

// m503 returns an M503 report with the given M301 line.
func m503(m301 string) string {
	return `echo:; Steps per unit:
echo:  M92 X80.00 Y80.00 Z400.00 E93.00
echo:; Maximum feedrates (units/s):
echo:  M203 X500.00 Y500.00 Z5.00 E25.00
echo:; Hotend PID:
echo:  ` + m301 + `
echo:; Z-Probe Offset (mm):
echo:  M851 X-44.00 Y-7.00 Z-2.15 ; (mm)
ok
`
}

// stepRank is the 1-based position of the first step whose title contains
// part, 0 when none does.
func stepRank(res *Result, part string) int {
	for i, s := range res.Steps {
		if strings.Contains(strings.ToLower(s.Title), strings.ToLower(part)) {
			return i + 1
		}
	}
	return 0
}

// A tuned PID in the M503 report rules out "run a PID autotune"; the stock
// values keep it.
func TestAttachmentFactRulesOut(t *testing.T) {
	e := sharedEngine(t)
	req := Request{Category: "heating-issues", Description: "The nozzle temperature swings up and down by 5 degrees around the target and never settles.", PrinterBrand: "Creality Ender 3 V2"}
	stock, tuned := req, req
	stock.Attachments = []Attachment{{Name: "M503.txt", Text: m503("M301 P28.72 I2.62 D78.81")}}
	tuned.Attachments = []Attachment{{Name: "M503.txt", Text: m503("M301 P24.31 I1.89 D78.12")}}
	rs := stepRank(topSteps(t, e, stock), "PID autotune for the hotend")
	rt := stepRank(topSteps(t, e, tuned), "PID autotune for the hotend")
	if rs != 1 {
		t.Errorf("stock PID: autotune at rank %d, want 1", rs)
	}
	if rt != 0 && rt <= rs {
		t.Errorf("tuned PID: autotune at rank %d, want it lower than %d", rt, rs)
	}
}

// The e-steps step quotes the M503 value when extrusion is the problem.
func TestAttachmentQuotesTheSetting(t *testing.T) {
	e := sharedEngine(t)
	req := Request{Category: "extrusion-issues", Description: "Every print is too fat: blobs on the walls and rough tops, as if it pushes too much plastic.", PrinterBrand: "Creality Ender 3 V2",
		Attachments: []Attachment{{Name: "M503.txt", Text: m503("M301 P28.72 I2.62 D78.81")}}}
	res := topSteps(t, e, req)
	r := stepRank(res, "e-steps")
	if r == 0 || r > 3 {
		t.Fatalf("e-steps step at rank %d: %q", r, res.Steps)
	}
	if d := res.Steps[r-1].Description; !strings.Contains(d, "Your M503.txt") || !strings.Contains(d, "M92 X80.00 Y80.00 Z400.00 E93.00") {
		t.Errorf("e-steps step does not quote the M92 line: %q", d)
	}
}

// A sliced file attached as text fills the settings the maker did not type:
// its nozzle and retraction feed the engine's rules. The engine completes a
// copy of the request, never the caller's.
func TestAttachmentFillsSettings(t *testing.T) {
	e := sharedEngine(t)
	gcode := "; generated by PrusaSlicer 2.7.2 on 2024-03-01\nG28\nM104 S240\nM109 S240\nG1 X10 Y10 E5\n" +
		"; nozzle_diameter = 0.6\n; retraction_length = 6\n; filament_type = PETG\n; temperature = 240\n"
	req := Request{Category: "stringing", Description: "Lots of thin strings between the towers.", PrinterBrand: "Prusa MK4",
		Attachments: []Attachment{{Name: "towers.gcode", Text: gcode}}}
	a := e.prepare(&req)
	if req.NozzleSize != nil || req.Slicer != nil {
		t.Errorf("the caller's request changed: nozzle size %v, slicer settings %+v", req.NozzleSize, req.Slicer)
	}
	if r := a.req; r.NozzleSize == nil || *r.NozzleSize != 0.6 {
		t.Errorf("nozzle size %v, want 0.6 from the file", r.NozzleSize)
	}
	if r := a.req; r.Slicer == nil || r.Slicer.RetractionLength == nil || *r.Slicer.RetractionLength != 6 {
		t.Fatalf("slicer settings %+v, want retraction 6 from the file", r.Slicer)
	}
	if !a.facts.holds("retraction_long_direct") {
		t.Error("a 6 mm retraction on the MK4's direct drive does not hold retraction_long_direct")
	}
}

func TestCleanQuote(t *testing.T) {
	tests := []struct{ quote, subject, want string }{
		{"2024-04-06 14:56:34,266 - Recv: echo:Unknown command: \"G29\"", "", "Unknown command: \"G29\""},
		{"10:17:55  !! Extrude below minimum temp", "extruder", "Extrude below minimum temp"},
		{"16:58:47  Unknown command:\"M600\"", "", "Unknown command:\"M600\""},
		{"3/16/2024, 8:41:55 PM\tError: short-to-ground reported by driver(s) 3", "", "Error: short-to-ground reported by driver(s) 3"},
		{"Stats 2947.0: gcodein=0  mcu: mcu_awake=0.003 bytes_write=1 extruder: target=205 temp=-14.1 pwm=1.000 sysload=0.20", "extruder", "extruder: target=205 temp=-14.1 pwm=1.000"},
		{"echo:  M92 X80.00\x07 Y80.00", "", "M92 X80.00 Y80.00"},
		{"M106 P0 C\"Left Tool Fan\" H1 T45\t\t\t; set fan 0 value", "fan0", "M106 P0 C\"Left Tool Fan\" H1 T45 ; set fan 0 value"},
		{strings.Repeat("long ", 60), "", strings.TrimSpace(truncateRunes(strings.Repeat("long ", 60), maxQuoteRunes))},
	}
	for _, tt := range tests {
		if got := cleanQuote(tt.quote, tt.subject); got != tt.want {
			t.Errorf("cleanQuote(%q) = %q, want %q", tt.quote, got, tt.want)
		}
		if n := len([]rune(cleanQuote(tt.quote, tt.subject))); n > maxQuoteRunes {
			t.Errorf("cleanQuote(%q) has %d runes", tt.quote, n)
		}
	}
}

func TestVersions(t *testing.T) {
	tests := []struct {
		v, limit string
		below    bool
	}{
		{"v0.9.1-12-g4b7da7c9", "0.10", true},
		{"v0.12.0-85-gd785b396", "0.10", false},
		{"2.1.2.1", "2.1.3", true},
		{"2.1.3", "2.1.3", false},
		{"3.3", "2.0", false},
	}
	for _, tt := range tests {
		ff := &fileFacts{}
		c := &kbFactCond{VersionBelow: tt.limit}
		if got := ff.passes(c, printerfiles.Fact{Value: tt.v}); got != tt.below {
			t.Errorf("%s below %s = %v, want %v", tt.v, tt.limit, got, tt.below)
		}
	}
	if _, ok := parseVersion("release"); ok {
		t.Error("parseVersion(\"release\") ok")
	}
}

// derived.* facts come from facts read together.
func TestDerivedFacts(t *testing.T) {
	cfg := `[stepper_z]
endstop_pin: probe:z_virtual_endstop
[stepper_x]
position_min: 0
position_max: 235
[stepper_y]
position_min: 0
position_max: 235
[bltouch]
sensor_pin: ^PB1
control_pin: PB0
x_offset: -44
y_offset: -6
z_offset: 2.1
[safe_z_home]
home_xy_position: 10, 10
`
	config := `M950 H1 C"e0heat" T1
M308 S1 P"e1temp" Y"thermistor" T100000 B4138
M92 X80 Y160 Z400 E93
`
	tests := []struct {
		name  string
		files []printerfiles.File
		key   string
	}{
		{"probe off the bed when Z homes", []printerfiles.File{{Name: "printer.cfg", Text: cfg}}, "derived.probe_off_bed_at_z_home"},
		{"sensor on another header", []printerfiles.File{{Name: "config.g", Text: config}}, "derived.sensor_pin_mismatch"},
		{"X and Y steps differ", []printerfiles.File{{Name: "config.g", Text: config}}, "derived.xy_steps_differ"},
		{"start macro called with names it does not read", []printerfiles.File{
			{Name: "printer.cfg", Text: "[gcode_macro PRINT_START]\ngcode:\n    M190 S{params.BED_TEMP|default(60)}\n    M109 S{params.EXTRUDER_TEMP|default(200)}\n"},
			{Name: "part.gcode", Text: "; generated by OrcaSlicer 2.1.1\nPRINT_START BED=80 EXTRUDER=240\nG1 X10 Y10 E2\n"},
		}, "derived.macro_params_mismatch"},
		{"an option set again in an included config", []printerfiles.File{
			{Name: "printer.cfg", Text: "[extruder]\nstep_pin: PB4\nrotation_distance: 21.772\n\n[include bmg_extruder.cfg]\n"},
			{Name: "bmg_extruder.cfg", Text: "[extruder]\nrotation_distance: 22.6789511\nmicrosteps: 16\n"},
		}, "derived.config_option_overridden"},
		{"a move below Z position_min", []printerfiles.File{
			{Name: "printer.cfg", Text: cfg},
			{Name: "console.txt", Text: "16:27:02  !! Move out of range: 64.382 36.905 -0.017 [3.118]\n"},
		}, "derived.move_below_position_min"},
		{"baud rates differ", []printerfiles.File{
			{Name: "Configuration.h", Text: "#define MOTHERBOARD BOARD_CREALITY_V4\n#define BAUDRATE 115200\n"},
			{Name: "serial.log", Text: "2024-08-17 20:01:09,400 - Connecting to port /dev/ttyUSB0, baudrate 250000\n2024-08-17 20:01:11,447 - Recv: \ufffd\ufffdx\ufffd\n"},
		}, "derived.baud_mismatch"},
		{"EEPROM overrides the build", []printerfiles.File{
			{Name: "Configuration.h", Text: "#define DEFAULT_AXIS_STEPS_PER_UNIT { 80, 80, 400, 415 }\n"},
			{Name: "M503.txt", Text: m503("M301 P28.72 I2.62 D78.81")},
		}, "derived.eeprom_overrides_config"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			rep := printerfiles.Read(tt.files)
			for _, f := range derive(rep) {
				if f.Key == tt.key {
					if f.Source == "" || f.Quote == "" {
						t.Errorf("%s has no source line: %+v", tt.key, f)
					}
					return
				}
			}
			t.Errorf("no %s in %+v", tt.key, derive(rep))
		})
	}
}

// Rules on the facts are validated at load: unknown keys (not in FACTS.md
// nor derived), bad tests and placeholders are refused.
func TestFactRuleValidation(t *testing.T) {
	good := strings.Replace(validMode, "%s", "fact-mode", 1)
	withRule := func(rule string) string {
		return "[" + strings.Replace(good, `"description": "By 5–10 °C."`, `"description": "By 5–10 °C.", "facts": [`+rule+`]`, 1) + "]"
	}
	tests := []struct {
		name, rule string
		want       []string
	}{
		{"valid", `{"key": "error.adc_out_of_range", "weight": 3, "says": "Your {source} shows “{quote}”."}`, nil},
		{"valid derived", `{"key": "derived.baud_mismatch", "weight": 3}`, nil},
		{"unknown key", `{"key": "error.adc_outofrange", "weight": 3}`, []string{`"fact-mode"`, `unknown fact key "error.adc_outofrange"`}},
		{"unknown key in and", `{"key": "error.mintemp", "and": [{"key": "heater.tmp_min"}], "weight": 3}`, []string{`unknown fact key "heater.tmp_min"`}},
		{"zero weight", `{"key": "error.mintemp", "weight": 0}`, []string{"weight must be non-zero"}},
		{"bad unlike", `{"key": "stepper.enable_inverted", "unlike": "some", "weight": 1}`, []string{"unlike must be"}},
		{"absent with a test", `{"key": "mcu.serial", "absent": true, "equals": ["x"], "weight": 1, "says": "x"}`, []string{"absent takes no value test"}},
		{"absent without says", `{"key": "mcu.serial", "absent": true, "weight": 1}`, []string{"needs says"}},
		{"bad placeholder", `{"key": "mcu.serial", "weight": 1, "says": "Your {file} says so"}`, []string{"says may only use"}},
		{"bad version", `{"key": "firmware.version", "versionBelow": "new", "weight": 1}`, []string{"not a release number"}},
		{"upper-case mention", `{"key": "mcu.serial", "mentions": ["BLTouch"], "weight": 1}`, []string{"must be non-empty lower case"}},
		{"short prefix mention", `{"key": "mcu.serial", "mentions": ["sk*"], "weight": 1}`, []string{"a prefix needs at least 3 letters"}},
		{"unknown field", `{"key": "mcu.serial", "weigth": 1}`, []string{`unknown field "weigth"`}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			fsys := realTables(t)
			fsys["modes/stringing.json"] = &fstest.MapFile{Data: []byte(withRule(tt.rule))}
			expectLoadError(t, fsys, tt.want)
		})
	}
}

// Every rule of the real knowledge base names a key the readers produce
// (FACTS.md) or a derived one, and says only what its placeholders fill.
func TestRealFactRules(t *testing.T) {
	e := sharedEngine(t)
	if len(e.factRules) < 100 {
		t.Errorf("%d fact rules, want at least 100", len(e.factRules))
	}
	for _, r := range e.factRules {
		for _, c := range append([]kbFactCond{r.kbFactCond}, r.And...) {
			if !knownFactKey(c.Key) {
				t.Errorf("mode %s: unknown key %q", e.kb.modes[r.mode].ID, c.Key)
			}
		}
	}
}

// ender3V2Pins is the pin part of Klipper's printer-creality-ender3-v2-2020.cfg
// with the hotend and bed heater pins swapped.
const ender3V2Swapped = `[stepper_x]
step_pin: PC2
dir_pin: PB9
enable_pin: !PC3
rotation_distance: 40
endstop_pin: ^PA5
[stepper_y]
step_pin: PB8
dir_pin: PB7
enable_pin: !PC3
rotation_distance: 40
endstop_pin: ^PA6
[stepper_z]
step_pin: PB6
dir_pin: !PB5
enable_pin: !PC3
rotation_distance: 8
endstop_pin: ^PA7
[extruder]
step_pin: PB4
dir_pin: PB3
enable_pin: !PC3
rotation_distance: 34.406
heater_pin: PA2
sensor_type: EPCOS 100K B57560G104F
sensor_pin: PC5
[heater_bed]
heater_pin: PA1
sensor_type: EPCOS 100K B57560G104F
sensor_pin: PC4
`

// A config that differs from Klipper's example for the same printer in one
// pin: the step names the pin and the example.
func TestStockComparison(t *testing.T) {
	e := sharedEngine(t)
	req := Request{Category: "heating-issues", Description: "When I heat the nozzle the bed gets warm instead, and the nozzle temperature never rises.",
		PrinterBrand: "Creality Ender 3 V2", Attachments: []Attachment{{Name: "printer.cfg", Text: ender3V2Swapped}}}
	res := topSteps(t, e, req)
	r := stepRank(res, "heater and sensor pins")
	if r == 0 || r > 2 {
		t.Fatalf("pin step at rank %d: %q", r, res.Steps)
	}
	d := res.Steps[r-1].Description
	if !strings.Contains(d, "printer-creality-ender3-v2-2020.cfg") || !strings.Contains(d, "heater_pin: PA2") {
		t.Errorf("pin step does not name the line and the example: %q", d)
	}
	// The same config for another printer is compared with nothing.
	req.PrinterBrand = "Voron 2.4"
	req.Description = "The nozzle temperature never rises."
	a := e.prepare(&req)
	if a.ev.files.stock != nil && a.ev.files.stock.printer {
		t.Errorf("matched %s as the printer's own example", a.ev.files.stock.name)
	}
}

func TestModelNames(t *testing.T) {
	names := modelNames("Creality Ender-3 V2 (BLTouch), Orbiter 2.0")
	for _, want := range []string{"ender3v2", "ender3", "crealityender3v2"} {
		if !names[want] {
			t.Errorf("no %q in %v", want, names)
		}
	}
	for _, not := range []string{"er20", "v2bltouchorbiter20", "nder3"} {
		if names[not] {
			t.Errorf("%q found inside words", not)
		}
	}
}

// The embedded example configs load and name only known keys.
func TestStockLoads(t *testing.T) {
	set, err := loadStock()
	if err != nil {
		t.Fatal(err)
	}
	if len(set.configs) < 150 {
		t.Errorf("%d example configs, want at least 150", len(set.configs))
	}
	if len(set.marlin) < 300 || len(set.marlinModel["ender3v2"]) == 0 {
		t.Errorf("%d Marlin example configurations (%d for the Ender-3 V2), want at least 300", len(set.marlin), len(set.marlinModel["ender3v2"]))
	}
	for k := range set.marlinKeys {
		if !knownFactKey(k) {
			t.Errorf("Marlin examples: unknown key %q", k)
		}
	}
	for _, sc := range set.configs {
		for slot := range sc.values {
			if !knownFactKey(slot.key) {
				t.Errorf("%s: unknown key %q", sc.name, slot.key)
			}
		}
	}
	if _, err := parseStock([]byte(`{"keys": ["mcu.chip"], "configs": [{"name": "x.cfg", "facts": [[3, "mcu", "stm32"]]}]}`)); err == nil {
		t.Error("a fact with a key index out of range was accepted")
	}
}

// A subject ending in "*" matches every subject it starts.
func TestSubjectMatches(t *testing.T) {
	tests := []struct {
		subject, want string
		ok            bool
	}{
		{"heater_fan hotend_fan", "heater_fan*", true},
		{"Heater_Fan nozzle", "heater_fan*", true},
		{"fan", "heater_fan*", false},
		{"extruder", "", true},
		{"extruder", "Extruder", true},
		{"extruder1", "extruder", false},
	}
	for _, tt := range tests {
		if got := subjectMatches(tt.subject, tt.want); got != tt.ok {
			t.Errorf("subjectMatches(%q, %q) = %v, want %v", tt.subject, tt.want, got, tt.ok)
		}
	}
}

// A hotend fan the config runs below half speed decides a heat-creep
// complaint, whatever the [heater_fan] is called; the speeds vendors ship
// (1.0, Creality's 0.8, the Prusa MINI's 0.5) do not.
func TestAttachmentHotendFanSpeed(t *testing.T) {
	e := sharedEngine(t)
	cfg := func(speed string) string {
		return "[extruder]\nstep_pin: PB4\nrotation_distance: 34.406\nnozzle_diameter: 0.400\n\n[heater_fan nozzle_cooler]\npin: PA5\nheater: extruder\nfan_speed: " + speed + "\n"
	}
	req := Request{Category: "extrusion-issues", Description: "PLA prints fine for twenty minutes, then the extruder starts clicking and the filament jams; after it cools down it works again for a while.", PrinterBrand: "Creality Ender 3"}
	slow := req
	slow.Attachments = []Attachment{{Name: "printer.cfg", Text: cfg("0.3")}}
	res := topSteps(t, e, slow)
	if r := stepRank(res, "hotend fan runs at full speed"); r != 1 {
		t.Fatalf("fan_speed 0.3: hotend fan step at rank %d, want 1: %q", r, res.Steps)
	}
	if d := res.Steps[0].Description; !strings.Contains(d, "Your printer.cfg runs the hotend fan at 0.3") {
		t.Errorf("the step does not quote the setting: %q", d)
	}
	for _, speed := range []string{"1.0", "0.8", "0.5"} {
		shipped := req
		shipped.Attachments = []Attachment{{Name: "printer.cfg", Text: cfg(speed)}}
		if r := stepRank(topSteps(t, e, shipped), "hotend fan runs at full speed"); r == 1 {
			t.Errorf("fan_speed %s: hotend fan step still first", speed)
		}
	}
}

// Marlin built without the hotend fan's auto pin: the step that makes the
// fan follow the nozzle temperature comes forward and names the define.
func TestAttachmentMarlinAutoFan(t *testing.T) {
	e := sharedEngine(t)
	conf := "#define MOTHERBOARD BOARD_BTT_SKR_MINI_E3_V2_0\n#define E0_AUTO_FAN_PIN -1\n#define EXTRUDER_AUTO_FAN_TEMPERATURE 50\n"
	req := Request{Category: "extrusion-issues", Description: "PLA prints fine for twenty minutes, then the extruder starts clicking and the filament jams; after it cools down it works again for a while.", PrinterBrand: "Creality Ender 3",
		Attachments: []Attachment{{Name: "Configuration_adv.h", Text: conf}}}
	res := topSteps(t, e, req)
	r := stepRank(res, "hotend fan")
	if r == 0 || r > 2 {
		t.Fatalf("hotend fan step at rank %d: %q", r, res.Steps)
	}
	if d := res.Steps[r-1].Description; !strings.Contains(d, "E0_AUTO_FAN_PIN") {
		t.Errorf("the step does not name the define: %q", d)
	}
}

// The Ender 3 V2 example config with CoreXY kinematics: every X move turns
// both motors. The kinematics step comes first and names the example.
func TestStockKinematics(t *testing.T) {
	e := sharedEngine(t)
	// The heater pins put back as the example has them.
	cfg := strings.Replace(ender3V2Swapped, "heater_pin: PA2", "heater_pin: PA1", 1)
	cfg = strings.Replace(cfg, "heater_pin: PA1\nsensor_type: EPCOS 100K B57560G104F\nsensor_pin: PC4", "heater_pin: PA2\nsensor_type: EPCOS 100K B57560G104F\nsensor_pin: PC4", 1)
	cfg += "[printer]\nkinematics: corexy\nmax_velocity: 300\nmax_accel: 3000\n"
	req := Request{Category: "mechanical-problems", Description: "After moving to Klipper the print head goes the wrong way: asked to move along X it also moves in Y, and homing ends in the wrong corner.",
		PrinterBrand: "Creality Ender 3 V2", Attachments: []Attachment{{Name: "printer.cfg", Text: cfg}}}
	res := topSteps(t, e, req)
	r := stepRank(res, "Set the kinematics")
	if r != 1 {
		t.Fatalf("kinematics step at rank %d: %q", r, res.Steps)
	}
	if d := res.Steps[0].Description; !strings.Contains(d, "kinematics: corexy") || !strings.Contains(d, "printer-creality-ender3-v2") {
		t.Errorf("the step does not quote the line and the example: %q", d)
	}
}

// Messages whose fix is one setting outside the usual suspects: each puts
// its step first and quotes the line.
func TestAttachmentMessageSteps(t *testing.T) {
	e := sharedEngine(t)
	tests := []struct {
		category, desc, file, text, step string
	}{
		{"extrusion-issues", "The print moves as it should but no plastic comes out at all, the extruder motor never turns.",
			"console.txt", "26/11/2026, 10:14:58\tM32 \"0:/gcodes/bracket.gcode\"\nFile 0:/gcodes/bracket.gcode selected for printing\n" +
				"26/11/2026, 10:15:40\tError: G1: Attempting to extrude with no tool selected.\n", "Define and select the tool"},
		{"calibration", "I wanted to run the resonance test for input shaping but it stops right away with an error.",
			"mainsail-console.txt", "17:02:11  $ SHAPER_CALIBRATE\n17:02:11  !! Invalid adxl345 id (got 0 vs e5).\n", "accelerometer's wiring"},
	}
	for _, tt := range tests {
		req := Request{Category: tt.category, Description: tt.desc, PrinterBrand: "Voron 2.4",
			Attachments: []Attachment{{Name: tt.file, Text: tt.text}}}
		res := topSteps(t, e, req)
		if r := stepRank(res, tt.step); r != 1 {
			t.Errorf("%s: step %q at rank %d: %q", tt.file, tt.step, r, res.Steps)
			continue
		}
		if d := res.Steps[0].Description; !strings.HasPrefix(d, "Your "+tt.file+" shows “") {
			t.Errorf("%s: the step does not quote the line: %q", tt.file, d)
		}
	}
}

// A mention is a whole word; one ending in "*" any word it starts.
func TestMentioned(t *testing.T) {
	text := "the x axis skipped and the layers shifted; no clicking"
	tests := []struct {
		m  string
		ok bool
	}{
		{"skip", false}, {"skip*", true}, {"shifted", true}, {"shift", false}, {"shift*", true},
		{"click*", true}, {"lick*", false}, {"xis*", false}, {"layers", true},
	}
	for _, tt := range tests {
		if got := mentioned(text, tt.m); got != tt.ok {
			t.Errorf("mentioned(%q) = %v, want %v", tt.m, got, tt.ok)
		}
	}
}

// marlinEnder3V2 is the part of Marlin's example Configuration.h for the
// Ender-3 V2 (CrealityV422) that a maker's copy keeps, with X's direction
// inverted.
const marlinEnder3V2 = `#define MOTHERBOARD BOARD_CREALITY_V4
#define BAUDRATE 115200
#define TEMP_SENSOR_0 1
#define TEMP_SENSOR_BED 1
#define HEATER_0_MAXTEMP 275
#define PREVENT_COLD_EXTRUSION
#define EXTRUDE_MINTEMP 180
#define DEFAULT_AXIS_STEPS_PER_UNIT   { 80, 80, 400, 93 }
#define DEFAULT_MAX_FEEDRATE          { 500, 500, 5, 25 }
#define INVERT_X_DIR true
#define INVERT_Y_DIR false
#define INVERT_Z_DIR true
#define INVERT_E0_DIR false
#define X_HOME_DIR -1
#define Y_HOME_DIR -1
#define Z_HOME_DIR -1
#define X_BED_SIZE 220
#define Y_BED_SIZE 220
`

// A Configuration.h that differs from Marlin's example for the printer in
// one setting: the step for it comes first and names the example.
func TestStockMarlin(t *testing.T) {
	e := sharedEngine(t)
	req := Request{Category: "mechanical-problems", Description: "After flashing my own firmware build, homing goes badly: the head bangs against the frame and the print never starts.",
		PrinterBrand: "Creality Ender-3 V2", Attachments: []Attachment{{Name: "Configuration.h", Text: marlinEnder3V2}}}
	res := topSteps(t, e, req)
	r := stepRank(res, "Invert the axis motor direction")
	if r != 1 {
		t.Fatalf("direction step at rank %d: %q", r, res.Steps)
	}
	d := res.Steps[0].Description
	if !strings.Contains(d, "INVERT_X_DIR true") || !strings.Contains(d, "Marlin's example configuration for this printer (Creality/Ender-3 V2/") {
		t.Errorf("the step does not quote the line and the example: %q", d)
	}
}

// A config that agrees with Klipper's Ender 3 V2 example almost everywhere
// is that printer's even when the request does not name the model: the
// swapped heater pins are found.
func TestStockAgreementNamesThePrinter(t *testing.T) {
	e := sharedEngine(t)
	cfg := ender3V2Swapped + `[extruder]
nozzle_diameter: 0.400
filament_diameter: 1.750
control: pid
min_temp: 0
max_temp: 250
[heater_bed]
control: pid
min_temp: 0
max_temp: 130
[stepper_x]
microsteps: 16
position_endstop: 0
position_max: 245
homing_speed: 50
[stepper_y]
microsteps: 16
position_endstop: 0
position_max: 228
homing_speed: 50
[stepper_z]
microsteps: 16
position_endstop: 0.0
position_max: 250
[printer]
kinematics: cartesian
max_velocity: 300
max_accel: 3000
max_z_velocity: 5
max_z_accel: 100
`
	req := Request{Category: "heating-issues", Description: "When I heat the nozzle the bed gets warm instead, and the nozzle temperature never rises.",
		PrinterBrand: "my printer", Attachments: []Attachment{{Name: "printer.cfg", Text: cfg}}}
	a := e.prepare(&req)
	if a.ev == nil || a.ev.files.stock == nil || !a.ev.files.stock.printer || !strings.Contains(a.ev.files.stock.name, "ender3-v2") {
		t.Fatalf("stock match %+v, want the Ender 3 V2 printer example", a.ev.files.stock)
	}
}

// A start macro called with the names its template reads, or an option set
// to the same value in two config files, is no fault.
func TestDerivedFactsQuietOnAgreement(t *testing.T) {
	files := []printerfiles.File{
		{Name: "printer.cfg", Text: "[gcode_macro PRINT_START]\ngcode:\n    M190 S{params.BED_TEMP|default(60)}\n    M109 S{params.EXTRUDER_TEMP|default(200)}\n\n[extruder]\nstep_pin: PB4\nrotation_distance: 22.6789511\n\n[include bmg_extruder.cfg]\n"},
		{Name: "bmg_extruder.cfg", Text: "[extruder]\nrotation_distance: 22.6789511\nmicrosteps: 16\n"},
		{Name: "part.gcode", Text: "; generated by OrcaSlicer 2.1.1\nPRINT_START BED_TEMP=80 EXTRUDER_TEMP=240\nG1 X10 Y10 E2\n"},
	}
	for _, f := range derive(printerfiles.Read(files)) {
		if f.Key == "derived.macro_params_mismatch" || f.Key == "derived.config_option_overridden" {
			t.Errorf("%s on agreeing files: %+v", f.Key, f)
		}
	}
}

// A board example that asks for a crystal per micro-controller (the BTT
// Octopus: 12 MHz with an STM32F446, 8 MHz with an STM32F429) is compared
// with the crystal of the maker's chip.
func TestStockCrystalPerChip(t *testing.T) {
	e := sharedEngine(t)
	kconfig := func(chip, crystal string) string {
		return "CONFIG_LOW_LEVEL_OPTIONS=y\nCONFIG_MACH_STM32=y\nCONFIG_MCU=\"" + chip + "\"\nCONFIG_CLOCK_FREQ=180000000\n" +
			"CONFIG_USBSERIAL=y\nCONFIG_FLASH_APPLICATION_ADDRESS=0x8008000\nCONFIG_CLOCK_REF_FREQ=" + crystal + "\nCONFIG_STM32_USB_PA11_PA12=y\n"
	}
	cfg := "[mcu]\nserial: /dev/serial/by-id/usb-Klipper_stm32f446xx_1-if00\n\n[stepper_x]\nstep_pin: PF13\ndir_pin: PF12\nenable_pin: !PF14\nmicrosteps: 16\nrotation_distance: 40\nendstop_pin: PG6\nposition_endstop: 0\nposition_max: 200\n\n" +
		"[stepper_y]\nstep_pin: PG0\ndir_pin: PG1\nenable_pin: !PF15\nmicrosteps: 16\nrotation_distance: 40\nendstop_pin: PG9\nposition_endstop: 0\nposition_max: 200\n\n" +
		"[stepper_z]\nstep_pin: PF11\ndir_pin: PG3\nenable_pin: !PG5\nmicrosteps: 16\nrotation_distance: 8\nendstop_pin: PG10\nposition_endstop: 0.5\nposition_max: 200\n\n" +
		"[extruder]\nstep_pin: PF9\ndir_pin: PF10\nenable_pin: !PG2\nheater_pin: PA2\nsensor_pin: PF4\n\n[heater_bed]\nheater_pin: PA1\nsensor_pin: PF3\n\n[fan]\npin: PA8\n"
	desc := "BTT Octopus v1.1: after flashing the board never shows up on the Pi and Klipper cannot connect."
	for _, tt := range []struct {
		chip, crystal string
		want          bool
	}{{"stm32f446xx", "8000000", true}, {"stm32f446xx", "12000000", false}, {"stm32f429xx", "8000000", false}} {
		req := Request{Category: "other", Description: desc, PrinterBrand: "Voron 2.4",
			Attachments: []Attachment{{Name: "printer.cfg", Text: cfg}, {Name: ".config", Text: kconfig(tt.chip, tt.crystal)}}}
		res := topSteps(t, e, req)
		got := stepRank(res, "crystal") > 0
		if got != tt.want {
			t.Errorf("%s with a %s Hz crystal: crystal step %v, want %v (%q)", tt.chip, tt.crystal, got, tt.want, res.Steps)
		}
	}
}
