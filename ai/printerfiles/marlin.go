package printerfiles

import (
	"strconv"
	"strings"
	"unicode/utf8"
)

// Marlin's serial output is read as Marlin prints it: the M503 report
// ("echo:  M92 X80.00 Y80.00 Z400.00 E93.00", one G-code per setting, each
// report function in Marlin/src/gcode/config/*.cpp), the M115 answer
// ("FIRMWARE_NAME:Marlin 2.1.2.1 ... MACHINE_TYPE:Ender-3 V2 ...",
// "Cap:EEPROM:1"), errors ("Error:Thermal Runaway, system stopped!
// Heater_ID: 0", "Error:Line Number is not Last Line Number+1, Last Line: 9",
// "Error:Printer halted. kill() called!", Marlin/src/core/language.h), echo
// messages ("echo:Unknown command: \"M851\"", "echo:EEPROM version mismatch
// (EEPROM=V86 Marlin=V87)"), temperature reports ("ok T:205.1 /205.0 B:60.0
// /60.0") and M119 endstop states. A host's prefixes ("Recv: ",
// "2024-01-02 10:00:00,123 - Recv: ", "!!DEBUG: send ") are removed first;
// lines the host sent ("Send: M92 E100") are not reports and are skipped.
//
// Prusa's MK3 firmware (prusa3d/Prusa-Firmware, Marlin 1.0 based) prints the
// same codes in its own M503 layout (Config_PrintSettings: "M350" microsteps,
// "M310" thermal model) and its own errors ("Error:0: Heaters switched off.
// MINTEMP triggered!", " HOTEND THERMAL RUNAWAY", "TM: error |1.2|>0.7");
// Prusa's Buddy firmware (MINI, MK4, XL) names errors by code
// ("prusa.io/13208", Prusa-Error-Codes/yaml/buddy-error-codes.yaml).

type marlinReader struct {
	c        *collector
	info     fwInfo
	pids     []pidCalc
	temps    heaterTracks
	meshMin  float64
	meshMax  float64
	meshN    int
	meshLine int
	meshQ    string
	// driver is the subject of the last "X driver error detected:", whose
	// reasons follow on their own lines
	driver string
	// volumetricHeading: M503's "Filament settings" heading was seen, and
	// volumetricOff: it said Disabled
	volumetricHeading, volumetricOff bool
	// tmcCols are the axes of M122's driver table columns; tabWidth the
	// tab stops of a table whose tabs became spaces
	tmcCols  []string
	tabWidth int
}

var hostPrefixes = []string{"Recv: ", "Recv:", "echo:", "!!DEBUG: send ", "<<< ", "READ: "}

// marlinStrip removes what a host puts before a line the printer sent.
func marlinStrip(s string) string {
	for range 4 {
		s = trimLeftSpace(s)
		if s == "" || !strings.ContainsRune("Re!<", rune(s[0])) {
			return s
		}
		before := s
		for _, p := range hostPrefixes {
			s = strings.TrimPrefix(s, p)
		}
		if s == before {
			break
		}
	}
	return trimLeftSpace(s)
}

// m503Codes are the G-codes of an M503 report.
var m503Codes = map[int]bool{
	92: true, 145: true, 149: true, 200: true, 201: true, 203: true, 204: true, 205: true, 206: true,
	207: true, 208: true, 209: true, 214: true, 217: true, 218: true, 301: true, 304: true, 305: true,
	310: true, 350: true, 412: true, 413: true, 420: true, 421: true, 425: true, 569: true, 593: true,
	603: true, 665: true, 666: true, 710: true, 851: true, 871: true, 900: true, 906: true, 913: true, 914: true,
}

// mcode reads "M92 X80 ..." into 92 and the parameters.
func mcode(s string) (int, string, bool) {
	if len(s) < 3 || s[0] != 'M' {
		return 0, "", false
	}
	i := 1
	for i < len(s) && i < 6 && s[i] >= '0' && s[i] <= '9' {
		i++
	}
	if i == 1 || i < len(s) && s[i] != ' ' && s[i] != '\t' {
		return 0, "", false
	}
	code, err := strconv.Atoi(s[1:i])
	if err != nil {
		return 0, "", false
	}
	return code, strings.TrimSpace(s[i:]), true
}

// isM503Line reports whether a stripped line is a setting of an M503 report.
func isM503Line(s string) bool {
	code, params, ok := mcode(s)
	return ok && m503Codes[code] && params != "" && params[0] >= 'A' && params[0] <= 'Z'
}

// param is one "X80.00" of a G-code line.
type param struct {
	letter byte
	value  string
}

// params splits a G-code's parameters; a ';' starts a comment.
func params(s string, out []param) []param {
	out = out[:0]
	if i := strings.IndexByte(s, ';'); i >= 0 {
		s = s[:i]
	}
	for tok := range strings.FieldsSeq(s) {
		if len(out) == cap(out) {
			break
		}
		b := tok[0]
		if b >= 'a' && b <= 'z' {
			b -= 'a' - 'A'
		}
		if b < 'A' || b > 'Z' {
			continue
		}
		out = append(out, param{b, tok[1:]})
	}
	return out
}

// readMarlinLog reads an M503 report, a serial log, or Prusa firmware
// output.
func readMarlinLog(c *collector, text string) fwInfo {
	mr := &marlinReader{c: c}
	var buf [24]param
	for n, raw := range eachLine(text) {
		mr.line(raw, n, buf[:0])
	}
	mr.finish()
	return mr.info
}

// marlinMessages are Marlin's and Prusa's messages read by their start
// alone (Marlin/src/core/language.h, module/settings.cpp; Prusa-Firmware
// temperature.cpp).
var marlinMessages = newMessageTable([]message{
	{"EEPROM version mismatch", "warning.eeprom_version_mismatch", "", 'm'},
	{"Hardcoded Default Settings Loaded", "eeprom.defaults_loaded", "", 'm'},
	{"Stored settings retrieved", "eeprom.loaded", "", 'm'},
	{"Settings Stored", "eeprom.saved", "", 'm'},
	{"Resend:", "warning.serial_resend", "", 'm'},
	{"PID Autotune finished", "heater.pid_calibrated", "", 'm'},
	{"TM: error ", "error.thermal_model", "extruder", 'r'},
	{"THERMAL ANOMALY", "error.thermal_model", "extruder", 'm'},
	{"!! STOP called because of BLTouch error", "error.bltouch", "probe", 'm'},
	{"Watchdog timeout", "error.watchdog", "mcu", 'm'},
	{"endstops hit:", "endstop.hit", "", 'r'},
	// OctoPrint's own lines in its serial.log and terminal
	// (octoprint/plugins/serial_connector/serial_comm.py)
	{"No answer from the printer within the connection timeout", "error.mcu_connect", "mcu", 'm'},
	{"There was a timeout while trying to connect to the printer", "error.mcu_connect", "mcu", 'm'},
	{"No response from printer after ", "error.lost_communication", "mcu", 'm'},
	{"Over ", "warning.serial_resend", "", 'm'},
	// Marlin/src/core/language.h
	{"Steprate too high", "warning.steprate_too_high", "", 'r'},
	{"Hotend too cold", "error.extrude_below_min_temp", "extruder", 'm'},
	{"SD init fail", "error.storage", "sd", 'm'},
	{"volume.init failed", "error.storage", "sd", 'm'},
	{"openRoot failed", "error.storage", "sd", 'm'},
	{"SD read error", "error.storage", "sd", 'm'},
	{"error writing to file", "error.storage", "sd", 'm'},
	{"Press button (or M108) to heat nozzle", "event.heaters_timeout", "extruder", 'm'},
	{"Press button to heat nozzle", "event.heaters_timeout", "extruder", 'm'},
	{"Send M108 to heat nozzle", "event.heaters_timeout", "extruder", 'm'},
	// Prusa-Firmware (MK2.5/MK3) messages.cpp
	{"Err:HOTEND FAN ERROR", "error.fan", "hotend_fan", 'm'},
	{"Err:PRINT FAN ERROR", "error.fan", "part_fan", 'm'},
	{"HOTEND FAN ERROR", "error.fan", "hotend_fan", 'm'},
	{"PRINT FAN ERROR", "error.fan", "part_fan", 'm'},
	{"TMC DRIVER OVERTEMP", "error.driver_over_temperature", "", 'm'},
	{"POWER PANIC DETECTED", "error.undervoltage", "vin", 'm'},
	{"Blackout occurred", "error.undervoltage", "vin", 'm'},
	{"Home X/Y before Z", "error.must_home_first", "", 'm'},
	{"Z probe out. bed", "error.probe_out_of_bounds", "probe", 'm'},
	{"G-code sliced for a different printer type", "warning.gcode_mismatch", "printer", 'm'},
	{"G-code sliced for a newer firmware", "warning.gcode_mismatch", "firmware", 'm'},
	{"G-code sliced for a different level", "warning.gcode_mismatch", "level", 'm'},
	{"Nozzle diameter differs from the G-code", "warning.gcode_mismatch", "nozzle", 'm'},
	{"Distance between tip of the nozzle and the bed surface has not been set yet", "warning.z_offset_not_set", "probe", 'm'},
	// errors, after "Error:" (the more specific prefix first)
	{"Line Number is not Last Line Number+1", "error.serial_line_number", "", 'm'},
	{"checksum mismatch", "error.serial_checksum", "", 'm'},
	{"No Checksum with line number", "error.serial_checksum", "", 'm'},
	{"Probing Failed", "error.probing_failed", "probe", 'm'},
	{"Z Probe Past Bed", "error.probe_out_of_bounds", "probe", 'm'},
	{"Bed leveling failed. Sensor didn't trigger", "error.homing_no_trigger", "probe", 'm'},
	{"Bed leveling failed. Sensor triggered too soon", "error.probe_triggered_prior_to_movement", "probe", 'm'},
	{"Bed leveling failed", "error.probing_failed", "probe", 'm'},
	{"Heater switched off. Temperature difference between temp sensors", "error.sensor_fault", "extruder", 'm'},
	{"STOP called because of unhomed error", "error.must_home_first", "", 'm'},
	{"Failed to enable Bed Leveling", "error.leveling_enable_failed", "", 'm'},
})

func (mr *marlinReader) line(raw string, n int, buf []param) {
	t := strings.TrimSpace(raw)
	if len(t) < minLine {
		return
	}
	u := stripTimestamp(t)
	if strings.HasPrefix(u, "Send:") || strings.HasPrefix(u, "SENDING:") || strings.HasPrefix(u, ">>>") {
		return
	}
	s := marlinStrip(u)
	if s == "" {
		return
	}
	c := mr.c
	if prusaCode(c, s, n, raw) || readMessage(c, marlinMessages, s, n, raw) {
		return
	}
	// the printer's own clock after the host's: the print job's time before
	// a driver warning ("0:38:12: E driver overtemperature warning!")
	s = stripTimestamp(s)
	if garbled(s) {
		// Bytes that decode to nothing: the host and the board use different baud rates.
		c.event("error.serial_garbage", "mcu", s, n, raw)
		return
	}
	switch {
	case strings.Contains(s, "Invalid extruder"):
		// "M104 Invalid extruder 1", "T1 Invalid extruder" (Marlin's STR_INVALID_EXTRUDER)
		tool := strings.TrimSpace(s[strings.Index(s, "Invalid extruder")+len("Invalid extruder"):])
		if tool == "" && len(s) > 1 && s[0] == 'T' {
			tool = firstWord(s[1:])
		}
		c.event("error.invalid_extruder", cutUTF8(firstWord(tool), 8), s, n, raw)
	case len(s) > 1 && s[0] == 'M' && s[1] >= '0' && s[1] <= '9':
		if code, ps, ok := mcode(s); ok {
			mr.setting(code, params(ps, buf), n, raw)
		}
	case strings.HasPrefix(s, "Marlin "):
		mr.setFirmware("Marlin", firstWord(s[len("Marlin "):]), n, raw)
	case strings.HasPrefix(s, "G29 W "):
		mr.meshPoint(params(s[4:], buf), n, raw)
	case strings.HasPrefix(s, "FIRMWARE_NAME:"):
		mr.m115(s, n, raw)
	case strings.HasPrefix(s, "Cap:"):
		name, val, ok := strings.Cut(s[len("Cap:"):], ":")
		if ok && reportedCaps[name] {
			c.set("firmware.capability", name, val, n, raw)
		}
	case strings.Contains(s, "CRASH_DETECTED"):
		// Prusa's crash detection queues CRASH_DETECTEDX, Y or XY
		axis, _ := after(s, "CRASH_DETECTED")
		c.event("error.crash_detected", strings.ToLower(strings.Trim(firstWord(axis), "\".")), s, n, raw)
	case strings.HasPrefix(s, "Crash detected"):
		c.event("error.crash_detected", "", s, n, raw)
	case strings.HasPrefix(s, "Error:"):
		mr.errorLine(strings.TrimSpace(s[len("Error:"):]), n, raw)
	case strings.HasPrefix(s, "Unknown command"):
		c.event("error.unknown_command", quotedCommand(s), s, n, raw)
	case strings.Contains(s, " driver error detected:") || strings.Contains(s, " driver overtemperature warning!"):
		mr.tmcMonitor(s, n, raw)
	case mr.driver != "" && (s == "overtemperature" || strings.HasPrefix(s, "short to ground (coil ")):
		key := "error.driver_over_temperature"
		if s != "overtemperature" {
			key = "error.driver_short_to_ground"
		}
		c.event(key, mr.driver, s, n, raw)
	case strings.HasPrefix(s, "Testing ") && strings.Contains(s, " connection... Error:"):
		axis := strings.ToLower(firstWord(s[len("Testing "):]))
		c.event("error.tmc_uart", marlinAxisSubject(axis), s, n, raw)
	case strings.HasPrefix(s, "ok T:") || strings.HasPrefix(s, "T:") || strings.HasPrefix(s, "ok T0:") || strings.HasPrefix(s, "T0:"):
		mr.temps.tempReport(s, n, raw)
	case strings.HasSuffix(s, "cold extrusion prevented"):
		c.event("error.extrude_below_min_temp", "extruder", s, n, raw)
	case strings.HasSuffix(s, "too long extrusion prevented"):
		c.event("error.extrude_only_move_too_long", "extruder", s, n, raw)
	case strings.HasSuffix(s, "Brown out Reset"):
		c.event("error.brownout_reset", "mcu", s, n, raw)
	case strings.HasSuffix(s, "Watchdog Reset"):
		c.event("error.watchdog", "mcu", s, n, raw)
	case strings.HasSuffix(s, "External Reset") || strings.HasSuffix(s, "Software Reset") || s == "PowerUp":
		c.event("mcu.reset_cause", "", strings.ToLower(strings.TrimSuffix(s, " Reset")), n, raw)
	case strings.Contains(s, "Heaters switched off.") || strings.Contains(s, "THERMAL RUNAWAY") ||
		strings.HasPrefix(s, "Bed leveling failed.") || strings.Contains(s, "system stopped! Heater_ID") ||
		strings.Contains(s, "kill() called"):
		// Prusa's messages, and errors as OctoPrint shows them, without "Error:"
		mr.errorLine(s, n, raw)
	case strings.Contains(s, "PINDA"):
		// the MK2.5/MK3's inductive probe (Prusa-Firmware messages.cpp)
		c.set("probe.type", "probe", "pinda", n, raw)
	case strings.HasPrefix(s, "Connecting to port "):
		if b, ok := after(s, ", baudrate "); ok {
			c.set("mcu.host_baud", "mcu", firstWord(b), n, raw)
		}
	case strings.Contains(s, "No more candidates to test"):
		c.event("error.mcu_connect", "mcu", s, n, raw)
	case s == "Bed Leveling ON" || s == "Bed Leveling OFF":
		// M420's answer (gcode/bedlevel/M420.cpp), then "Fade Height 10.00"
		c.setBool("leveling.enabled", "", s == "Bed Leveling ON", n, raw)
	case strings.HasPrefix(s, "Fade Height "):
		if v, ok := parseNum(strings.TrimSpace(s[len("Fade Height "):])); ok {
			c.setNum("leveling.fade_height", "", v, n, raw)
		}
	case strings.HasPrefix(s, "Probe Offset X") || strings.HasPrefix(s, "Probe Z Offset: "):
		// M851's answer: Marlin 2.0 "Probe Offset Y-9.00 Z-1.50", 1.1 "Probe Z Offset: -1.50"
		ps := strings.TrimPrefix(s, "Probe Offset ")
		if z, ok := strings.CutPrefix(s, "Probe Z Offset: "); ok {
			ps = "Z" + strings.TrimSpace(z)
		}
		mr.setting(851, params(ps, buf), n, raw)
	case strings.HasPrefix(s, "Standard Deviation: "):
		// M48's answer (gcode/calibrate/M48.cpp): the probe's repeatability
		if v, ok := parseNum(firstWord(strings.TrimSpace(s[len("Standard Deviation: "):]))); ok {
			c.setNum("probe.std_dev", "probe", v, n, raw)
		}
	case strings.Contains(s, "Filament settings"):
		// M503's heading: "Filament settings: Disabled" (Marlin 1.1, Prusa) or
		// "; Filament settings (Disabled):" before the M200 line
		mr.volumetricOff = strings.Contains(s, "Disabled")
		mr.volumetricHeading = true
	case strings.HasPrefix(s, "MMU2:"):
		prusaMMU(c, strings.TrimSpace(s[len("MMU2:"):]), n, raw)
	case strings.HasPrefix(s, "Advance "):
		mr.advanceAnswer(s[len("Advance "):], n, raw)
	case mr.driverAnswer(s, n, raw):
	case strings.IndexByte(s, '\t') > 0 && mr.tmcReport(s, n, raw):
	case mr.tmcSpaced(s, raw, n):
	default:
		m119(c, s, n, raw)
	}
}

// tmcRowSpec is what a row of M122's driver table gives: a fact key and
// how its values read.
type tmcRowSpec struct {
	key  string
	kind byte // 'f' flag, 'c' current (mA), 'm' microsteps, 'b' true/false
}

// tmcRows are the rows of M122's driver report read into facts: a value
// per axis, or "*" under the axes whose DRV_STATUS flag is set.
var tmcRows = map[string]tmcRowSpec{
	"Set current": {"driver.run_current", 'c'}, "msteps": {"microsteps", 'm'},
	"stealthChop": {"driver.stealthchop", 'b'}, "OT prewarn": {"warning.driver_over_temperature", 'b'},
	"ola": {"error.driver_open_load", 'f'}, "olb": {"error.driver_open_load", 'f'},
	"s2ga": {"error.driver_short_to_ground", 'f'}, "s2gb": {"error.driver_short_to_ground", 'f'},
	"s2vsa": {"error.driver_short_to_supply", 'f'}, "s2vsb": {"error.driver_short_to_supply", 'f'},
	"otpw": {"warning.driver_over_temperature", 'f'}, "ot": {"error.driver_over_temperature", 'f'},
}

// tmcReport reads a line of M122's driver table (feature/tmc_util.cpp):
// a header of axis labels ("\tX\tY\tZ\tE", "DRVSTATUS\tX\tY\tZ\tE"), then rows
// of a label and one tab-separated value per axis; a label shorter than a
// tab stop is followed by an extra tab. It reports whether s was one.
func (mr *marlinReader) tmcReport(s string, n int, quote string) bool {
	if len(s) > 200 || strings.Count(s, "\t") > 16 {
		return false
	}
	fields := strings.Split(s, "\t")
	label, vals := strings.TrimSpace(fields[0]), fields[1:]
	if len(label) < 8 && len(vals) > 0 && vals[0] == "" {
		vals = vals[1:]
	}
	if label == "DRVSTATUS" || tmcAxisLabel(label) {
		cols := vals
		if label != "DRVSTATUS" {
			cols = fields
		}
		subjects := make([]string, 0, len(cols))
		for _, f := range cols {
			if f = strings.TrimSpace(f); f != "" {
				if !tmcAxisLabel(f) {
					return false
				}
				subjects = append(subjects, marlinAxisSubject(strings.ToLower(f)))
			}
		}
		mr.tmcCols = subjects
		return len(subjects) > 0
	}
	row, ok := tmcRows[label]
	if !ok || mr.tmcCols == nil {
		return false
	}
	mr.tmcRow(label, row, vals, n, quote)
	return true
}

// tmcSpaced reads a line of M122's driver table whose tabs an editor or a
// forum turned into spaces to the next tab stop: the tabs are put back
// (a run of spaces that ends on a stop was that many tabs) and the line is
// read as printed. The header decides the tab width. It reports whether s
// was one.
func (mr *marlinReader) tmcSpaced(s, raw string, n int) bool {
	if mr.tabWidth == 0 && s[0] != 'D' && !strings.ContainsRune("XYZE", rune(s[0])) {
		return false // before the table's header ("X  Y  Z  E", "DRVSTATUS  X ...")
	}
	if len(s) > 200 || !strings.Contains(s, "  ") {
		return false
	}
	off := strings.LastIndex(raw, s)
	if off < 0 || strings.IndexByte(raw[:off], '\t') >= 0 {
		return false
	}
	first := firstWord(s)
	if first == "DRVSTATUS" || tmcAxisLabel(first) {
		for _, w := range []int{8, 4} {
			if t, ok := untab(s, off, w); ok && mr.tmcReport(t, n, raw) {
				mr.tabWidth = w
				return true
			}
		}
		return false
	}
	if mr.tabWidth == 0 {
		return false
	}
	if _, ok := spacedLabel(s); !ok {
		return false
	}
	t, ok := untab(s, off, mr.tabWidth)
	return ok && mr.tmcReport(t, n, raw)
}

// untab puts back the tabs of s, a line's text from column off, expanded
// to stops every w columns; ok is false when a run of two spaces or more
// does not end on a stop (the line was not laid out by tabs).
func untab(s string, off, w int) (string, bool) {
	var b strings.Builder
	b.Grow(len(s))
	for i := 0; i < len(s); {
		if s[i] != ' ' {
			b.WriteByte(s[i])
			i++
			continue
		}
		j := i
		for j < len(s) && s[j] == ' ' {
			j++
		}
		switch start, end := off+i, off+j; {
		case end%w == 0:
			for range end/w - start/w {
				b.WriteByte('\t')
			}
		case j-i >= 2:
			return "", false
		default:
			b.WriteString(s[i:j])
		}
		i = j
	}
	return b.String(), true
}

// spacedLabel returns the row label a spaced table line starts with.
func spacedLabel(s string) (string, bool) {
	for label := range tmcRows {
		if strings.HasPrefix(s, label+" ") {
			return label, true
		}
	}
	return "", false
}

// tmcRow records one row of M122's driver table, its values in the order
// of the columns.
func (mr *marlinReader) tmcRow(label string, row tmcRowSpec, vals []string, n int, quote string) {
	for i, v := range vals {
		if i >= len(mr.tmcCols) {
			break
		}
		subject, v := mr.tmcCols[i], strings.TrimSpace(v)
		switch row.kind {
		case 'f':
			if v == "*" {
				mr.c.event(row.key, subject, label, n, quote)
			}
		case 'c':
			if a, ok := parseNum(v); ok && a > 0 {
				mr.c.setNum(row.key, subject, round4(a/1000), n, quote)
			}
		case 'm':
			if m, ok := parseNum(v); ok && m > 0 {
				mr.c.setNum(axisKey(subject)+row.key, subject, m, n, quote)
			}
		case 'b':
			if v != "true" && v != "false" {
				continue
			}
			if row.key == "driver.stealthchop" {
				mr.c.setBool(row.key, subject, v == "true", n, quote)
			} else if v == "true" {
				mr.c.event(row.key, subject, label, n, quote)
			}
		}
	}
}

// driverAnswers are the answers of M906, M913, M914 and M569 sent without
// values, one line per stepper (feature/tmc_util.h, gcode/feature/trinamic):
// "X driver current: 580", "E stealthChop max speed: 30", "X homing
// sensitivity: 8", "Y2 driver mode:\tspreadCycle".
var driverAnswers = []struct {
	text, key string
	scale     float64
}{
	{" driver current: ", "driver.run_current", 0.001},
	{" stealthChop max speed: ", "driver.stealthchop_threshold", 1},
	{" homing sensitivity: ", "driver.stallguard_threshold", 1},
	{" driver mode:", "driver.stealthchop", 0},
}

// driverAnswer reads one driver answer; it reports whether s was one.
func (mr *marlinReader) driverAnswer(s string, n int, quote string) bool {
	if len(s) > 60 || len(s) < 12 || s[1] != ' ' && s[2] != ' ' {
		return false // a stepper's label ("X", "Y2") then a space
	}
	for _, a := range driverAnswers {
		label, v, ok := strings.Cut(s, a.text)
		if !ok || !tmcAxisLabel(label) {
			continue
		}
		subject, v := marlinAxisSubject(strings.ToLower(label)), strings.TrimSpace(v)
		if a.scale == 0 {
			if v != "stealthChop" && v != "spreadCycle" {
				return false
			}
			mr.c.setBool(a.key, subject, v == "stealthChop", n, quote)
			return true
		}
		if x, ok := parseNum(v); ok {
			mr.c.setNum(a.key, subject, round4(x*a.scale), n, quote)
		}
		return true
	}
	return false
}

// advanceAnswer reads M900's answer when sent without a value (Marlin's
// and Prusa's gcode M900): "Advance K=0.22", per extruder "Advance K 0:0.22
// 1:0.05", with a second slot "Advance S0 K0.22(S1 K0.00)".
func (mr *marlinReader) advanceAnswer(s string, n int, quote string) {
	if k, ok := strings.CutPrefix(s, "K="); ok {
		if v, ok := parseNum(strings.TrimSpace(k)); ok {
			mr.c.setNum("extruder.pressure_advance", "extruder", v, n, quote)
		}
		return
	}
	if list, ok := strings.CutPrefix(s, "K "); ok {
		for item := range strings.FieldsSeq(list) {
			if e, k, ok := strings.Cut(item, ":"); ok && len(e) == 1 && e[0] >= '0' && e[0] <= '7' {
				if v, ok := parseNum(k); ok {
					mr.c.setNum("extruder.pressure_advance", extruderSubject(e), v, n, quote)
				}
			}
		}
		return
	}
	if strings.HasPrefix(s, "S") {
		if k, ok := between(s, " K", "("); ok {
			if v, ok := parseNum(k); ok {
				mr.c.setNum("extruder.pressure_advance", "extruder", v, n, quote)
			}
		}
	}
}

// tmcAxisLabel reports whether s names a stepper in M122's table: X, Y2,
// Z3, E, E1...
func tmcAxisLabel(s string) bool {
	if s == "" || len(s) > 2 || !strings.ContainsRune("XYZE", rune(s[0])) {
		return false
	}
	return len(s) == 1 || s[1] >= '0' && s[1] <= '7'
}

var reportedCaps = map[string]bool{
	"EEPROM": true, "AUTOLEVEL": true, "Z_PROBE": true, "LEVELING_DATA": true, "THERMAL_PROTECTION": true,
	"RUNOUT": true, "EMERGENCY_PARSER": true, "HOST_ACTION_COMMANDS": true, "PROMPT_SUPPORT": true,
	"ARCS": true, "BABYSTEPPING": true, "SOFTWARE_POWER": true,
}

// m119 reads an M119 line: "x_min: open", "z_probe: TRIGGERED".
func m119(c *collector, s string, n int, quote string) {
	name, state, ok := strings.Cut(s, ": ")
	if !ok || len(name) > 16 || state != "open" && state != "TRIGGERED" {
		return
	}
	for i := 0; i < len(name); i++ {
		if b := name[i]; !(b >= 'a' && b <= 'z' || b >= '0' && b <= '9' || b == '_') {
			return
		}
	}
	c.set("endstop.state", name, state, n, quote)
}

func (mr *marlinReader) setFirmware(name, version string, n int, quote string) {
	version = strings.TrimRight(version, ",;:")
	if i := strings.IndexByte(version, '+'); i > 0 { // "3.13.3+7981_a3f5c1a": the build follows
		version = version[:i]
	}
	if mr.info.firmware == "" || mr.info.firmware == "Marlin" && name != "Marlin" || mr.info.version == "" {
		mr.info = fwInfo{firmware: name, version: cutUTF8(version, 60)}
	}
	mr.c.set("firmware.name", "", name, n, quote)
	if version != "" {
		mr.c.set("firmware.version", "", version, n, quote)
	}
}

// m115 reads "FIRMWARE_NAME:Marlin 2.1.2.1 (Jun 25 2023) SOURCE_CODE_URL:...
// MACHINE_TYPE:Ender-3 V2 EXTRUDER_COUNT:1 UUID:...".
func (mr *marlinReader) m115(s string, n int, quote string) {
	v := strings.TrimSpace(s[len("FIRMWARE_NAME:"):])
	for _, end := range []string{" SOURCE_CODE_URL:", " FIRMWARE_URL:", " PROTOCOL_VERSION:", " MACHINE_TYPE:", " FIRMWARE_VERSION:"} {
		if i := strings.Index(v, end); i >= 0 {
			v = v[:i]
		}
	}
	name := firstWord(v)
	version := firstWord(strings.TrimSpace(v[len(name):]))
	if version == "based" {
		version = ""
	}
	if fv, ok := after(s, " FIRMWARE_VERSION:"); ok && version == "" {
		version = firstWord(fv)
	}
	if name == "" {
		return
	}
	mr.setFirmware(name, version, n, quote)
	if m, ok := after(s, "MACHINE_TYPE:"); ok {
		if i := strings.Index(m, " EXTRUDER_COUNT:"); i >= 0 {
			m = m[:i]
		}
		mr.c.set("firmware.machine", "", m, n, quote)
	}
}

// marlinAxisSubject turns an M503 axis letter into a subject.
func marlinAxisSubject(a string) string {
	switch a {
	case "x", "y", "z", "x2", "y2", "z2", "z3", "z4":
		return a
	case "e", "e0":
		return "extruder"
	}
	if len(a) == 2 && a[0] == 'e' && a[1] >= '1' && a[1] <= '7' {
		return "extruder" + a[1:]
	}
	return a
}

// axisKey is the key prefix of an axis subject.
func axisKey(subject string) string {
	if isExtruderSubject(subject) {
		return "extruder."
	}
	return "stepper."
}

// extruderIndex is the subject of extruder index i.
func extruderSubject(i string) string {
	if i == "" || i == "0" {
		return "extruder"
	}
	return "extruder" + i
}

// setting reads one line of an M503 report.
func (mr *marlinReader) setting(code int, ps []param, n int, quote string) {
	c := mr.c
	// T<n> or E<n> selects an extruder in some reports.
	tool := ""
	for _, p := range ps {
		if p.letter == 'T' {
			tool = p.value
		}
	}
	each := func(key string, scale float64) {
		for _, p := range ps {
			v, ok := parseNum(p.value)
			if !ok {
				continue
			}
			var subject string
			switch p.letter {
			case 'X', 'Y', 'Z':
				subject = string(rune(p.letter - 'A' + 'a'))
			case 'E':
				if code == 206 {
					continue // home offsets are the axes'
				}
				subject = extruderSubject(tool)
			default:
				continue
			}
			c.setNum(axisKey(subject)+key, subject, round4(v*scale), n, quote)
		}
	}
	get := func(letter byte) (float64, bool) {
		for _, p := range ps {
			if p.letter == letter {
				return parseNum(p.value)
			}
		}
		return 0, false
	}
	switch code {
	case 92:
		each("steps_per_mm", 1)
	case 203:
		each("max_velocity", 1)
	case 201:
		each("max_accel", 1)
	case 350:
		each("microsteps", 1)
	case 206:
		each("home_offset", 1)
	case 204:
		for _, p := range ps {
			v, ok := parseNum(p.value)
			if !ok {
				continue
			}
			switch p.letter {
			case 'P', 'S':
				c.setNum("printer.max_accel", "", v, n, quote)
			case 'R':
				c.setNum("printer.retract_accel", "", v, n, quote)
			case 'T':
				c.setNum("printer.travel_accel", "", v, n, quote)
			}
		}
	case 205:
		for _, p := range ps {
			v, ok := parseNum(p.value)
			if !ok {
				continue
			}
			switch p.letter {
			case 'J':
				c.setNum("printer.junction_deviation", "", v, n, quote)
			case 'X', 'Y', 'Z':
				s := string(rune(p.letter - 'A' + 'a'))
				c.setNum("stepper.jerk", s, v, n, quote)
			case 'E':
				c.setNum("extruder.jerk", "extruder", v, n, quote)
			}
		}
	case 301, 304:
		subject := "heater_bed"
		if code == 301 {
			subject = "extruder"
			if e, ok := get('E'); ok && e >= 1 && e <= 7 {
				subject = "extruder" + strconv.Itoa(int(e))
			}
		}
		mr.pid(subject, ps, n, quote)
	case 851:
		for _, p := range ps {
			v, ok := parseNum(p.value)
			if !ok {
				continue
			}
			switch p.letter {
			case 'X':
				c.setNum("probe.x_offset", "probe", v, n, quote)
			case 'Y':
				c.setNum("probe.y_offset", "probe", v, n, quote)
			case 'Z':
				c.setNum("probe.z_offset", "probe", v, n, quote)
				c.setNum("probe.trigger_height", "probe", 0-v, n, quote)
			}
		}
	case 900:
		if k, ok := get('K'); ok {
			c.setNum("extruder.pressure_advance", extruderSubject(tool), k, n, quote)
		}
	case 906, 913, 914:
		key, scale := "driver.run_current", 0.001 // mA to A
		switch code {
		case 913:
			key, scale = "driver.stealthchop_threshold", 1
		case 914:
			key, scale = "driver.stallguard_threshold", 1
		}
		index := ""
		for _, p := range ps {
			if p.letter == 'I' {
				index = p.value
			}
		}
		for _, p := range ps {
			v, ok := parseNum(p.value)
			if !ok {
				continue
			}
			subject := ""
			switch p.letter {
			case 'X', 'Y', 'Z':
				subject = string(rune(p.letter - 'A' + 'a'))
				if i, err := strconv.Atoi(index); err == nil && i >= 1 && i <= 3 {
					subject += strconv.Itoa(i + 1) // I1 is the second stepper of the axis
				}
			case 'E':
				subject = extruderSubject(tool)
			default:
				continue
			}
			c.setNum(key, subject, round4(v*scale), n, quote)
		}
	case 569:
		on := true
		if v, ok := get('S'); ok {
			on = v != 0
		}
		for _, p := range ps {
			switch p.letter {
			case 'X', 'Y', 'Z':
				c.setBool("driver.stealthchop", string(rune(p.letter-'A'+'a')), on, n, quote)
			case 'E':
				c.setBool("driver.stealthchop", extruderSubject(tool), on, n, quote)
			}
		}
	case 420:
		if v, ok := get('S'); ok {
			c.setBool("leveling.enabled", "", v != 0, n, quote)
		}
		if v, ok := get('Z'); ok {
			c.setNum("leveling.fade_height", "", v, n, quote)
		}
	case 421:
		mr.meshPoint(ps, n, quote)
	case 200:
		if v, ok := get('S'); ok {
			c.setBool("extruder.volumetric", "extruder", v != 0, n, quote)
		} else if d, ok := get('D'); ok && mr.volumetricHeading {
			// without S (Marlin 1.1, Prusa): a diameter under a heading
			// that does not say Disabled means volumetric extrusion is on
			c.setBool("extruder.volumetric", "extruder", d != 0 && !mr.volumetricOff, n, quote)
		}
		if v, ok := get('D'); ok {
			c.setNum("extruder.filament_diameter", extruderSubject(tool), v, n, quote)
		}
	case 207:
		if v, ok := get('S'); ok {
			c.setNum("firmware_retraction.retract_length", "", v, n, quote)
		}
		if v, ok := get('F'); ok {
			c.setNum("firmware_retraction.retract_speed", "", round4(v/60), n, quote)
		}
		if v, ok := get('Z'); ok {
			c.setNum("firmware_retraction.z_hop", "", v, n, quote)
		}
	case 412:
		if v, ok := get('S'); ok {
			c.setBool("filament_sensor.enabled", "filament", v != 0, n, quote)
		}
	case 413:
		if v, ok := get('S'); ok {
			c.setBool("power_loss_recovery.enabled", "", v != 0, n, quote)
		}
	case 593:
		x, y := false, false
		for _, p := range ps {
			x = x || p.letter == 'X'
			y = y || p.letter == 'Y'
		}
		if !x && !y {
			x, y = true, true
		}
		if f, ok := get('F'); ok {
			if x {
				c.setNum("input_shaper.shaper_freq_x", "", f, n, quote)
			}
			if y {
				c.setNum("input_shaper.shaper_freq_y", "", f, n, quote)
			}
		}
	case 310:
		if v, ok := get('S'); ok {
			c.setBool("thermal_model.enabled", "extruder", v != 0, n, quote)
		}
		if v, ok := get('P'); ok {
			c.setNum("thermal_model.heater_power", "extruder", v, n, quote)
		}
		if v, ok := get('E'); ok {
			c.setNum("thermal_model.error_threshold", "extruder", v, n, quote)
		}
		if v, ok := get('W'); ok {
			c.setNum("thermal_model.warning_threshold", "extruder", v, n, quote)
		}
	}
}

// pid reads M301/M304 P I D.
func (mr *marlinReader) pid(subject string, ps []param, n int, quote string) {
	h := pidSlot(&mr.pids, subject)
	if h == nil {
		return
	}
	h.has = 0
	for _, p := range ps {
		v, ok := parseNum(p.value)
		if !ok {
			continue
		}
		switch p.letter {
		case 'P':
			mr.c.setNum("heater.pid_kp", subject, v, n, quote)
			h.kp, h.has = v, h.has|1
		case 'I':
			mr.c.setNum("heater.pid_ki", subject, v, n, quote)
			h.ki, h.has = v, h.has|2
		case 'D':
			mr.c.setNum("heater.pid_kd", subject, v, n, quote)
			h.kd, h.has = v, h.has|4
		}
	}
	h.line, h.quote = n, quote
}

// meshPoint notes one stored mesh point ("G29 W I0 J0 Z-0.12", "M421 I0 J0 Z0.1").
func (mr *marlinReader) meshPoint(ps []param, n int, quote string) {
	for _, p := range ps {
		if p.letter != 'Z' {
			continue
		}
		z, ok := parseNum(p.value)
		if !ok {
			return
		}
		if mr.meshN == 0 || z < mr.meshMin {
			mr.meshMin = z
		}
		if mr.meshN == 0 || z > mr.meshMax {
			mr.meshMax = z
		}
		mr.meshN++
		mr.meshLine, mr.meshQ = n, quote
	}
}

// errorLine reads an "Error:" line's text (and Prusa's unprefixed ones).
func (mr *marlinReader) errorLine(body string, n int, quote string) {
	c := mr.c
	// Marlin halts after a heater error; OctoPrint shows both on one line.
	if strings.Contains(body, "kill() called") {
		c.event("error.killed", "", body, n, quote)
	}
	if strings.Contains(body, "Printer stopped due to errors") {
		c.event("error.stopped", "", body, n, quote)
	}
	heater := heaterOfMarlinError(body)
	switch {
	case strings.Contains(body, "PREHEAT"):
		c.event("error.heater_not_heating", heater, body, n, quote)
	case strings.Contains(body, "Thermal Runaway") || strings.Contains(body, "THERMAL RUNAWAY"):
		c.event("error.thermal_runaway", heater, body, n, quote)
	case strings.Contains(body, "MINTEMP"):
		c.event("error.mintemp", heater, body, n, quote)
	case strings.Contains(body, "MAXTEMP"):
		c.event("error.maxtemp", heater, body, n, quote)
	case strings.Contains(body, "Heating failed"):
		c.event("error.heater_not_heating", heater, body, n, quote)
	case strings.Contains(body, "EEPROM") && strings.Contains(body, "CRC"):
		c.event("warning.eeprom_crc", "", body, n, quote)
	case strings.HasPrefix(body, "Unknown command"):
		c.event("error.unknown_command", quotedCommand(body), body, n, quote)
	default:
		readMessage(c, marlinMessages, body, n, quote)
	}
}

// tmcMonitor reads the TMC driver monitor's reports (MONITOR_DRIVER_STATUS,
// feature/tmc_util.cpp): "X driver error detected:" (its reasons,
// "overtemperature" and "short to ground (coil A)", follow on their own
// lines, then the printer halts) and "0:12:34: E driver overtemperature
// warning! (800mA)".
func (mr *marlinReader) tmcMonitor(s string, n int, quote string) {
	label, _, isError := strings.Cut(s, " driver error detected:")
	key := "error.driver_fault"
	if !isError {
		label, _, _ = strings.Cut(s, " driver overtemperature warning!")
		key = "warning.driver_over_temperature"
	}
	if i := strings.LastIndexAny(label, ": "); i >= 0 {
		label = label[i+1:]
	}
	if label == "" || len(label) > 3 {
		return
	}
	subject := marlinAxisSubject(strings.ToLower(label))
	if isError {
		mr.driver = subject
	}
	mr.c.event(key, subject, s, n, quote)
}

// garbled reports whether a received line is mostly undecodable bytes.
func garbled(s string) bool {
	if strings.IndexByte(s, 0xEF) < 0 {
		return false // U+FFFD is EF BF BD
	}
	bad := strings.Count(s, "\uFFFD")
	return bad >= 3 && bad*3 >= utf8.RuneCountInString(s)
}

// heaterOfMarlinError names the heater of a Marlin or Prusa error:
// "Heater_ID: 0" / "Heater_ID: bed", "0: Heaters switched off", "MINTEMP BED",
// "HEATBED THERMAL RUNAWAY".
func heaterOfMarlinError(body string) string {
	if id, ok := after(body, "Heater_ID: "); ok {
		id = firstWord(strings.TrimPrefix(id, "redundant "))
		switch id {
		case "bed":
			return "heater_bed"
		case "chamber", "cooler", "probe", "board", "motherboard":
			return id
		}
		return extruderSubject(id)
	}
	switch {
	case strings.Contains(body, "BED") || strings.Contains(body, "HEATBED") || strings.Contains(body, "Bed") && !strings.Contains(body, "Heater_ID"):
		return "heater_bed"
	case strings.Contains(body, " AMB"):
		return "ambient"
	case len(body) > 2 && body[0] >= '0' && body[0] <= '9' && body[1] == ':':
		return extruderSubject(body[:1])
	}
	return "extruder"
}

// finish adds what is computed from the whole report.
func (mr *marlinReader) finish() {
	for _, h := range mr.pids {
		if h.has == 7 {
			mr.c.setBool("pid.tuned", h.subject, !stockPID(h.kp, h.ki, h.kd), h.line, h.quote)
		}
	}
	if mr.meshN >= 4 {
		mr.c.setNum("leveling.mesh_range", "", round4(mr.meshMax-mr.meshMin), mr.meshLine, mr.meshQ)
	}
	mr.temps.emit(mr.c)
}
