package printerfiles

import (
	"iter"
	"strings"
)

// klippy.log is read as Klipper writes it: the start-up lines ("Git
// version: 'v0.12.0-...'", "Loaded MCU 'mcu' ... (v0.12.0-... / gcc ...)",
// "MCU 'mcu' config: ... MCU=stm32f103xe ..."), the "===== Config file
// =====" dump (read as a printer.cfg), the once-a-second "Stats" lines, and
// the errors Klipper logs and shows: host errors (klippy/*.py: "Move exceeds
// maximum extrusion", "Heater extruder not heating at expected rate", "TMC
// 'stepper_x' reports error: DRV_STATUS: ... ot=1(OvertempError!)", ...) and
// micro-controller shutdowns ("MCU 'mcu' shutdown: Timer too close", strings
// of src/*.c). A Mainsail or Fluidd console (timestamps, "!! " errors, "// "
// messages) holds the same messages and is read by the same code.

type klippyLog struct {
	c           *collector
	hostVersion string
	hostLine    int
	hostQuote   string
	mcuVersions []mcuVersion
	updateList  bool // inside "MCU(s) which should be updated:"
	groups      []statGroup
	heaters     heaterTracks
	dumpTMC     string // the stepper of the last DUMP_TMC command
	// a "Config error" line waiting for the traceback's message
	configErr      bool
	configErrLine  int
	configErrQuote string
	// the last message, and a calibration result waiting for SAVE_CONFIG
	lastMsg, lastQuote string
	lastLine           int
	unsaved            unsavedResult
}

// unsavedResult is a calibration's result ("bltouch: z_offset: 1.300")
// that only SAVE_CONFIG writes to printer.cfg.
type unsavedResult struct {
	subject, value, quote string
	line                  int
}

type mcuVersion struct {
	name, version string
	line          int
	quote         string
}

// statGroup accumulates one subject's Stats values.
type statGroup struct {
	name                            string
	kind                            byte // 'm' mcu, 'o' host, 't' toolhead
	retransmit, invalid             float64
	awakeMax, sysloadMax            float64
	memMin, stall                   float64
	line                            int
	quote                           string
	hasRetransmit, hasStall, hasMem bool
}

// readKlippyLog reads a klippy.log or a Klipper console.
func readKlippyLog(c *collector, text string) fwInfo {
	lr := &klippyLog{c: c}
	// A dump of a config (printer.cfg, or the .config of the last MCU
	// build) runs to a line of "=".
	var dump interface {
		line(string, int)
		finish()
	}
	lines := eachLine(text)
	if newestFirst(text) {
		lines = entriesReversed(text)
	}
	for n, raw := range lines {
		switch {
		case dump != nil && strings.HasPrefix(raw, "======================="):
			dump.finish()
			dump = nil
		case dump != nil:
			dump.line(raw, n)
		case strings.HasPrefix(raw, "===== Config file ====="):
			dump = newKlipperReader(c)
		case strings.HasPrefix(raw, "========= Last MCU build config ========="):
			dump = &kconfigReader{c: c}
		default:
			lr.line(raw, n)
		}
	}
	if dump != nil {
		dump.finish()
	}
	lr.finish()
	return fwInfo{firmware: "Klipper", version: lr.hostVersion}
}

// consoleClock reads the clock a console puts before an entry
// ("10:16:02  ", "[10:16:02] "): seconds since midnight.
func consoleClock(line string) (int, bool) {
	t := strings.TrimPrefix(trimLeftSpace(line), "[")
	if len(t) < 8 || t[2] != ':' || t[5] != ':' {
		return 0, false
	}
	v := 0
	for _, i := range []int{0, 3, 6} {
		if t[i] < '0' || t[i] > '9' || t[i+1] < '0' || t[i+1] > '9' {
			return 0, false
		}
		v = v*60 + int(t[i]-'0')*10 + int(t[i+1]-'0')
	}
	return v, true
}

// newestFirst reports whether a console was copied with its newest entry
// on top (Mainsail's console direction "table"): its clocks go back more
// often than forward.
func newestFirst(text string) bool {
	back, forward, last := 0, 0, -1
	for n, raw := range eachLine(text) {
		v, ok := consoleClock(raw)
		if !ok {
			if n > 50 && last < 0 {
				return false // no console: a klippy.log
			}
			continue
		}
		switch {
		case last < 0:
		case v < last:
			back++
		case v > last:
			forward++
		}
		last = v
	}
	return back > forward
}

// entriesReversed walks a newest-first console oldest entry first: an
// entry is a line with a clock and the lines without one that follow it.
func entriesReversed(text string) iter.Seq2[int, string] {
	type line struct {
		n   int
		raw string
	}
	var all []line
	var starts []int
	for n, raw := range eachLine(text) {
		if _, ok := consoleClock(raw); ok || len(starts) == 0 {
			starts = append(starts, len(all))
		}
		all = append(all, line{n, raw})
	}
	return func(yield func(int, string) bool) {
		end := len(all)
		for i := len(starts) - 1; i >= 0; i-- {
			for _, l := range all[starts[i]:end] {
				if !yield(l.n, l.raw) {
					return
				}
			}
			end = starts[i]
		}
	}
}

func (lr *klippyLog) line(raw string, n int) {
	t := strings.TrimSpace(raw)
	if len(t) < minLine {
		return
	}
	// Klipper's console through OctoPrint's terminal or serial.log
	t, dir := hostLine(t)
	if dir == 's' {
		lr.saveConfig(sentCommand(strings.TrimPrefix(t, "Send:")), n, raw) // a command sent from OctoPrint's terminal or serial.log
		return
	}
	if len(t) < minLine {
		return
	}
	switch t[0] {
	case 'R':
		if strings.HasPrefix(t, "Received ") || strings.HasPrefix(t, "Receive: ") {
			return // webhook and serial dumps
		}
	case 'S':
		if strings.HasPrefix(t, "Stats ") {
			lr.stats(t, n, raw)
			return
		}
		if strings.HasPrefix(t, "Sent ") {
			return
		}
	case 'G':
		if v, ok := between(t, "Git version: '", "'"); ok {
			lr.setHost(v, n, raw)
			return
		}
	case 'L':
		if v, ok := strings.CutPrefix(t, "Last MCU build version: "); ok {
			lr.c.set("firmware.build_version", "mcu", v, n, raw)
			return
		}
		if rest, ok := strings.CutPrefix(t, "Loaded MCU '"); ok {
			name, rest, ok := strings.Cut(rest, "'")
			if !ok {
				return
			}
			if v, ok := between(rest, "(", " "); ok {
				lr.addMCU(name, v, n, raw)
			}
			return
		}
	case 'Y':
		if v, ok := strings.CutPrefix(t, "Your Klipper version is: "); ok {
			lr.setHost(firstWord(v), n, raw)
			return
		}
	case 'M':
		if strings.HasPrefix(t, "MCU(s) which should be updated:") {
			lr.updateList = true
			return
		}
		if rest, ok := strings.CutPrefix(t, "MCU '"); ok {
			if name, cfg, ok := strings.Cut(rest, "' config: "); ok {
				if chip, ok := after(" "+cfg, " MCU="); ok {
					lr.c.set("mcu.chip", name, firstWord(chip), n, raw)
				}
				return
			}
		}
		if v, ok := strings.CutPrefix(t, "Modified files: "); ok {
			lr.c.set("klipper.modified_files", "", v, n, raw)
			return
		}
	case 'U':
		if strings.HasPrefix(t, "Up-to-date MCU(s):") {
			lr.updateList = false
			return
		}
		if v, ok := strings.CutPrefix(t, "Untracked files: "); ok {
			lr.c.set("klipper.untracked_files", "", v, n, raw)
			return
		}
	}
	if lr.updateList {
		if name, v, ok := strings.Cut(t, ": Current version "); ok && len(name) < 40 {
			lr.addMCU(name, firstWord(v), n, raw)
			return
		}
	}
	msg := stripTimestamp(t)
	msg = strings.TrimPrefix(msg, "!! ")
	msg = strings.TrimPrefix(msg, "// ")
	msg = strings.TrimPrefix(msg, "$ ") // a command the console sent
	msg = strings.TrimPrefix(msg, "Error: ")
	if rest, ok := strings.CutPrefix(msg, "Transition to shutdown state: "); ok {
		lr.c.event("error.shutdown", "", rest, n, raw)
		msg = rest
	}
	if msg == "" {
		return
	}
	if lr.saveConfig(msg, n, raw) {
		return
	}
	lr.lastMsg, lr.lastLine, lr.lastQuote = msg, n, raw
	if lr.tmcDump(msg, n, raw) {
		return
	}
	if msg == "Config error" && !lr.configErr {
		// logging.exception("Config error"): the message ends the traceback that follows
		lr.configErr, lr.configErrLine, lr.configErrQuote = true, n, raw
		return
	}
	if module, rest, ok := strings.Cut(msg, "rror: "); ok && len(module) < 40 && !strings.ContainsAny(module, " '\"") &&
		(strings.HasSuffix(module, ".e") || strings.HasSuffix(module, ".E")) {
		// a traceback's last line, "configparser.Error: Option 'x' in section 'y' must be specified"
		known := klipperMessage(lr.c, rest, n, raw)
		if !known && (lr.configErr || strings.HasPrefix(module, "config") || strings.HasPrefix(module, "pins")) {
			lr.c.event("error.config", "", rest, n, raw)
		}
		lr.configErr = false
		return
	}
	if klipperMessage(lr.c, msg, n, raw) {
		return
	}
	if strings.IndexByte(msg, ':') > 0 {
		queryEndstops(lr.c, msg, n, raw)
	}
}

func (lr *klippyLog) setHost(v string, n int, quote string) {
	if v == "" {
		return
	}
	lr.hostVersion = cutUTF8(v, 60)
	lr.hostLine, lr.hostQuote = n, quote
	lr.c.set("firmware.name", "host", "Klipper", n, quote)
	lr.c.set("firmware.version", "host", v, n, quote)
}

func (lr *klippyLog) addMCU(name, v string, n int, quote string) {
	lr.c.set("firmware.mcu_version", name, v, n, quote)
	m := slot(&lr.mcuVersions, name, func(m *mcuVersion) string { return m.name },
		func(n string) mcuVersion { return mcuVersion{name: n} })
	if m != nil {
		*m = mcuVersion{name, v, n, quote}
	}
}

// mcuReasons are the micro-controller's shutdown reasons (src/*.c), seen
// alone or after "MCU 'mcu' shutdown: ".
var mcuReasons = newMessageTable([]message{
	{"ADC out of range", "error.adc_out_of_range", "mcu", 'm'},
	{"Timer too close", "error.timer_too_close", "mcu", 'm'},
	{"Rescheduled timer in the past", "error.rescheduled_timer", "mcu", 'm'},
	{"Stepper too far in past", "error.stepper_too_far_in_past", "mcu", 'm'},
	{"Missed scheduling of next ", "error.missed_scheduling", "mcu", 'm'},
	{"Watchdog timer", "error.watchdog", "mcu", 'm'},
	{"Move queue overflow", "error.move_queue_overflow", "mcu", 'm'},
	{"Thermocouple reader fault", "error.sensor_fault", "mcu", 'm'},
	{"i2c", "error.i2c", "mcu", 'm'},
	{"I2C", "error.i2c", "mcu", 'm'},
	{"Not a valid", "error.config", "mcu", 'm'},
	{"Not an ", "error.config", "mcu", 'm'},
	// a pin with max_duration (a heater) was not refreshed in time: the host fell behind
	{"Scheduled ", "error.missed_scheduling", "mcu", 'm'},
	// two PWM outputs on one hardware timer asked for different cycle times
	{"PWM already programmed", "error.pwm_conflict", "mcu", 'm'},
	{"PWM channel already in use", "error.pwm_conflict", "mcu", 'm'},
	{"PWM output already in use", "error.pwm_conflict", "mcu", 'm'},
	{"Invalid spi", "error.config", "mcu", 'm'},
	{"Invalid i2c", "error.config", "mcu", 'm'},
	{"Unsupported i2c bus", "error.config", "mcu", 'm'},
	{"Invalid SERCOM", "error.config", "mcu", 'm'},
})

// klipperMessages are the messages read by their start alone.
var klipperMessages = newMessageTable([]message{
	// klippy/mcu.py
	{"MCU Protocol error", "error.protocol_error", "", 'm'},
	{"Protocol error", "error.protocol_error", "", 'm'},
	{"MCU error during connect", "error.mcu_connect", "", 'm'},
	{"Timeout on wait for '", "error.mcu_connect", "", 'm'},
	{"Unable to open serial port", "error.mcu_connect", "", 'm'},
	{"Unable to connect", "error.mcu_connect", "", 'm'},
	// klippy/kinematics/extruder.py
	{"Extrude only move too long", "error.extrude_only_move_too_long", "extruder", 'p'},
	{"Move exceeds maximum extrusion", "error.max_extrusion_exceeded", "extruder", 'p'},
	{"Extrude below minimum temp", "error.extrude_below_min_temp", "extruder", 'm'},
	// klippy/kinematics/*.py, toolhead.py
	{"Must home axis first", "error.must_home_first", "", 'r'},
	{"Must home ", "error.must_home_first", "", 'm'},
	{"Move out of range", "error.move_out_of_range", "", 'r'},
	// klippy/extras/virtual_sdcard.py: SDCARD_PRINT_FILE finds no such file under path
	{"Unable to open file", "error.file_open", "virtual_sdcard", 'm'},
	// klippy/extras/heaters.py
	{"Requested temperature ", "error.temperature_out_of_range", "", 'r'},
	// klippy/extras/homing.py, probe.py, bltouch.py
	{"Communication timeout during homing", "error.homing_communication_timeout", "", 'm'},
	{"Probe triggered prior to movement", "error.probe_triggered_prior_to_movement", "probe", 'm'},
	{"Probe samples exceed samples_tolerance", "error.probe_samples_tolerance", "probe", 'm'},
	{"BLTouch failed", "error.bltouch", "probe", 'm'},
	// klippy/extras/z_tilt.py (RetryHelper, also quad_gantry_level)
	{"Too many retries", "error.leveling_retries", "", 'm'},
	{"Retries aborting:", "error.leveling_retries", "", 'm'},
	// klippy/extras/pid_calibrate.py
	{"PID parameters: ", "heater.pid_calibrated", "", 'r'},
	// klippy/klippy.py, configfile.py
	{"Internal error", "error.internal", "", 'm'},
	{"Config error", "error.config", "", 'm'},
	{"SAVE_CONFIG section '", "error.config", "", 'm'},
	// klippy/extras/adxl345.py, lis2dw.py, mpu9250.py: a wrong chip id
	{"Invalid adxl345 id", "error.accelerometer", "adxl345", 'm'},
	{"Invalid lis2dw id", "error.accelerometer", "lis2dw", 'm'},
	{"Invalid mpu id", "error.accelerometer", "mpu", 'm'},
	{"Unable to parse option", "error.config", "", 'm'},
	{"Include file '", "error.config", "", 'm'},
	{"Unable to infer homing_positive_dir", "error.config", "", 'm'},
	// klippy/chelper/serialqueue.c: the USB device went away
	{"Got EOF when reading from device", "error.lost_communication", "mcu", 'm'},
})

// klipperMessage reads one Klipper error or status message; it reports
// whether the message was one it knows.
func klipperMessage(c *collector, msg string, n int, quote string) bool {
	if readMessage(c, klipperMessages, msg, n, quote) || readMessage(c, mcuReasons, msg, n, quote) {
		return true
	}
	if !strings.ContainsAny(msg[:1], "MPLmHENSTUORF") {
		return false // none of the messages below starts otherwise
	}
	switch {
	case strings.HasPrefix(msg, "MCU '"):
		return mcuShutdown(c, msg, n, quote)
	case strings.HasPrefix(msg, "Previous MCU '"):
		return mcuShutdown(c, msg[len("Previous "):], n, quote)
	case strings.HasPrefix(msg, "Lost communication with MCU '"), strings.HasPrefix(msg, "Timeout with MCU '"):
		_, rest, _ := strings.Cut(msg, "MCU '")
		name, _, _ := strings.Cut(rest, "'")
		c.event("error.lost_communication", name, msg, n, quote)
	case strings.HasPrefix(msg, "mcu '") && (strings.Contains(msg, "Unable to connect") || strings.Contains(msg, "Serial connection closed")):
		name, _, _ := strings.Cut(msg[len("mcu '"):], "'")
		c.event("error.mcu_connect", name, msg, n, quote)
	case inside(msg, "Heater ", " not heating at expected rate") != "":
		c.event("error.heater_not_heating", inside(msg, "Heater ", " not heating at expected rate"), msg, n, quote)
	case strings.HasPrefix(msg, "Endstop ") && strings.Contains(msg, " still triggered after retract"):
		name, _, _ := strings.Cut(msg[len("Endstop "):], " still triggered")
		c.event("error.endstop_still_triggered", stepperSubject(name), msg, n, quote)
	case inside(msg, "No trigger on ", " after full movement") != "":
		c.event("error.homing_no_trigger", stepperSubject(inside(msg, "No trigger on ", " after full movement")), msg, n, quote)
	case strings.HasPrefix(msg, "Sensor '"):
		return sensorRange(c, msg, n, quote)
	case strings.HasPrefix(msg, "Retries: "):
		return leveling(c, msg, n, quote)
	case strings.HasPrefix(msg, "TMC '"):
		return tmcMessage(c, msg, n, quote)
	case strings.HasPrefix(msg, "TMC ") && strings.Contains(msg, " failed to init: "):
		_, why, _ := strings.Cut(msg, " failed to init: ")
		return why != "" && klipperMessage(c, why, n, quote)
	case strings.HasPrefix(msg, "Unable to read tmc uart '") || strings.HasPrefix(msg, "Unable to write tmc uart '"),
		strings.HasPrefix(msg, "Unable to write tmc spi '"):
		name, _ := between(msg, " '", "'")
		c.event("error.tmc_uart", stepperSubject(name), msg, n, quote)
	case strings.HasPrefix(msg, "Unknown command"):
		c.event("error.unknown_command", quotedCommand(msg), msg, n, quote)
	case strings.HasPrefix(msg, "Filament Sensor ") && strings.Contains(msg, ": runout event detected"):
		c.event("event.filament_runout", "extruder", msg, n, quote)
	case strings.HasPrefix(msg, "Option '") && (strings.Contains(msg, "must be specified") ||
		strings.Contains(msg, "is not valid in section") || strings.Contains(msg, "must have")),
		strings.HasPrefix(msg, "Section '") && strings.Contains(msg, "is not a valid config section"),
		strings.HasPrefix(msg, "Pin '") && strings.Contains(msg, "used multiple times"):
		c.event("error.config", "", msg, n, quote)
	default:
		return false
	}
	return true
}

// mcuShutdown reads "MCU 'mcu' shutdown: <reason>" (and the older "MCU
// 'mcu' spontaneous restart").
func mcuShutdown(c *collector, msg string, n int, quote string) bool {
	rest, ok := strings.CutPrefix(msg, "MCU '")
	if !ok {
		return false
	}
	name, rest, ok := strings.Cut(rest, "'")
	if !ok {
		return false
	}
	if strings.HasPrefix(rest, " spontaneous restart") {
		c.event("error.mcu_restart", name, msg, n, quote)
		return true
	}
	reason, ok := strings.CutPrefix(rest, " shutdown: ")
	if !ok {
		return false
	}
	c.event("error.mcu_shutdown", name, reason, n, quote)
	if key := shutdownKey(reason); key != "" {
		c.event(key, name, reason, n, quote)
	}
	return true
}

// shutdownKey maps a micro-controller shutdown reason (src/*.c) to a key.
func shutdownKey(reason string) string {
	for _, m := range mcuReasons.list {
		if strings.HasPrefix(reason, m.prefix) {
			return m.key
		}
	}
	return ""
}

// leveling reads z_tilt's and quad_gantry_level's progress: "Retries: 3/5
// Probed points range: 1.553700 tolerance: 0.007500".
func leveling(c *collector, msg string, n int, quote string) bool {
	try, _, ok := leadingNum(msg[len("Retries: "):])
	if !ok {
		return false
	}
	if f, ok := c.get("leveling.adjust_retries", ""); !ok || try > f.Num {
		c.setNum("leveling.adjust_retries", "", try, n, quote)
	}
	if v, ok := after(msg, "range: "); ok {
		if r, _, ok := leadingNum(v); ok {
			c.setNum("leveling.adjust_range", "", r, n, quote)
		}
	}
	return true
}

// sensorRange reads the line Klipper adds to "ADC out of range": "Sensor
// 'extruder' temperature 323.000 not in range 0.000:280.000".
func sensorRange(c *collector, msg string, n int, quote string) bool {
	name, ok := between(msg, "Sensor '", "'")
	if !ok {
		return false
	}
	rest, ok := after(msg, "' temperature ")
	if !ok {
		return false
	}
	temp, rest, ok := strings.Cut(rest, " not in range ")
	if !ok {
		return false
	}
	c.event("error.adc_out_of_range", name, msg[len("Sensor '"+name+"' "):], n, quote)
	lo, hi, ok := strings.Cut(rest, ":")
	t, ok1 := parseNum(temp)
	a, ok2 := parseNum(strings.TrimSpace(lo))
	b, ok3 := parseNum(strings.TrimSpace(hi))
	if ok && ok1 && ok2 && ok3 {
		switch {
		case t < a:
			c.event("error.mintemp", name, temp, n, quote)
		case t > b:
			c.event("error.maxtemp", name, temp, n, quote)
		}
	}
	return true
}

// tmcFlags are the TMC register fields Klipper names in its errors
// (klippy/extras/tmc2130.py, tmc2208.py) and the key each gives.
var tmcFlags = []struct{ field, key string }{
	{"s2ga=", "error.driver_short_to_ground"}, {"s2gb=", "error.driver_short_to_ground"},
	{"s2vsa=", "error.driver_short_to_supply"}, {"s2vsb=", "error.driver_short_to_supply"},
	{"ot=", "error.driver_over_temperature"}, {"otpw=", "warning.driver_over_temperature"},
	{"ola=", "error.driver_open_load"}, {"olb=", "error.driver_open_load"},
	{"uv_cp=", "error.driver_undervoltage"}, {"drv_err=", "error.driver_fault"},
	{"reset=", "error.driver_reset"}, {"cs_actual=0", "error.driver_reset"},
}

// saveConfig follows a calibration's result to SAVE_CONFIG: Klipper
// answers PROBE_CALIBRATE, Z_ENDSTOP_CALIBRATE and the like with the result
// and "The SAVE_CONFIG command will update the printer config file"; the
// value lives only until the next restart, so a FIRMWARE_RESTART or RESTART
// before SAVE_CONFIG drops it (klipper.unsaved_calibration).
func (lr *klippyLog) saveConfig(msg string, n int, quote string) bool {
	switch {
	case strings.HasPrefix(msg, "The SAVE_CONFIG command will update"):
		section, _, ok := strings.Cut(lr.lastMsg, ": ")
		if !ok || len(section) > 40 || strings.ContainsAny(section, " '\"") {
			section = ""
		}
		subject := stepperSubject(strings.ToLower(section))
		if strings.Contains(subject, "probe") || strings.Contains(subject, "bltouch") {
			subject = "probe"
		}
		lr.unsaved = unsavedResult{subject, lr.lastMsg, lr.lastQuote, lr.lastLine}
		return true
	case strings.HasPrefix(msg, "with the above and restart"):
		return true
	case msg == "SAVE_CONFIG":
		lr.unsaved = unsavedResult{}
	case msg == "FIRMWARE_RESTART" || msg == "RESTART":
		if u := lr.unsaved; u.value != "" {
			lr.c.event("klipper.unsaved_calibration", u.subject, u.value, u.line, u.quote)
			lr.unsaved = unsavedResult{}
		}
	}
	return false
}

// sentCommand is a host's sent line without serial.log's line number and
// checksum ("N6 SAVE_CONFIG*17" is SAVE_CONFIG).
func sentCommand(s string) string {
	s = strings.TrimSpace(s)
	if len(s) > 1 && s[0] == 'N' && s[1] >= '0' && s[1] <= '9' {
		if _, rest, ok := strings.Cut(s, " "); ok {
			s = rest
		}
	}
	if i := strings.LastIndexByte(s, '*'); i > 0 {
		s = s[:i]
	}
	return strings.TrimSpace(s)
}

// tmcMessage reads "TMC 'stepper_x' reports error: DRV_STATUS: ... ot=1(...)".
// tmcDump reads DUMP_TMC's answer ("DUMP_TMC STEPPER=stepper_y", then "//
// DRV_STATUS: c0100000 s2ga=1 ... stst=1"): the fault flags of the stepper
// it names. Open-load flags count only while the motor moves (not with
// stst=1), and cs_actual=0 of a disabled motor is no reset.
func (lr *klippyLog) tmcDump(msg string, n int, quote string) bool {
	if rest, ok := strings.CutPrefix(msg, "DUMP_TMC STEPPER="); ok {
		lr.dumpTMC = stepperSubject(firstWord(rest))
		return true
	}
	if lr.dumpTMC == "" || !strings.HasPrefix(msg, "DRV_STATUS: ") && !strings.HasPrefix(msg, "GSTAT: ") {
		return false
	}
	standstill := strings.Contains(msg, " stst=1")
	for _, f := range tmcFlags {
		if f.field == "cs_actual=0" || standstill && (f.field == "ola=" || f.field == "olb=") {
			continue
		}
		if i := strings.Index(msg, " "+f.field); i >= 0 && strings.HasPrefix(msg[i+1+len(f.field):], "1") {
			lr.c.event(f.key, lr.dumpTMC, strings.TrimSuffix(f.field, "="), n, quote)
		}
	}
	return true
}

func tmcMessage(c *collector, msg string, n int, quote string) bool {
	name, ok := between(msg, "TMC '", "'")
	if !ok {
		return false
	}
	fields, ok := after(msg, "' reports error: ")
	if !ok {
		return strings.Contains(msg, "' reports ") // a register dump, not an error
	}
	subject := stepperSubject(name)
	c.event("error.driver_fault", subject, fields, n, quote)
	for _, f := range tmcFlags {
		if i := strings.Index(fields, f.field); i >= 0 && (i == 0 || fields[i-1] == ' ') {
			if f.field == "cs_actual=0" || strings.HasPrefix(fields[i+len(f.field):], "1") {
				c.event(f.key, subject, strings.TrimSuffix(f.field, "="), n, quote)
			}
		}
	}
	return true
}

// queryEndstops reads QUERY_ENDSTOPS and QUERY_PROBE answers: "x:open
// y:TRIGGERED z:open", "probe: open".
func queryEndstops(c *collector, msg string, n int, quote string) {
	if v, ok := strings.CutPrefix(msg, "probe: "); ok && (v == "open" || v == "TRIGGERED") {
		c.set("endstop.state", "probe", v, n, quote)
		return
	}
	fields := 0
	for tok := range strings.FieldsSeq(msg) {
		name, state, ok := strings.Cut(tok, ":")
		if !ok || name == "" || state != "open" && state != "TRIGGERED" {
			return
		}
		if fields++; fields > 12 {
			return
		}
	}
	for tok := range strings.FieldsSeq(msg) {
		name, state, _ := strings.Cut(tok, ":")
		c.set("endstop.state", stepperSubject(name), state, n, quote)
	}
}

// quotedCommand returns the command named in 'Unknown command:"M600"' or
// 'Unknown command: "M851"'.
func quotedCommand(msg string) string {
	if v, ok := between(msg, "\"", "\""); ok {
		return firstWord(strings.TrimSpace(v))
	}
	return ""
}

// stats reads a Stats line: "Stats 3130.0: gcodein=0  mcu: mcu_awake=0.021
// ... bytes_retransmit=9 ... heater_bed: target=105 temp=104.8 pwm=0.382
// sysload=0.22 cputime=5.236 memavail=621620 print_time=3114.000 ...".
// statKeys are the Stats fields stats reads.
var statKeys = map[string]bool{
	"bytes_retransmit": true, "bytes_invalid": true, "mcu_awake": true, "target": true, "temp": true,
	"pwm": true, "sysload": true, "memavail": true, "print_stall": true,
}

func (lr *klippyLog) stats(t string, n int, quote string) {
	colon := strings.Index(t, ": ")
	if colon < 0 {
		return
	}
	var cur *statGroup
	group := ""
	heat := ""
	var target, temp, pwm float64
	var hasTarget, hasTemp, hasPwm bool
	flushHeater := func() {
		if heat != "" && hasTarget && hasTemp {
			if h := lr.heaters.get(heat); h != nil {
				h.sample(target, temp, pwm, hasPwm, n, quote)
			}
		}
		heat, hasTarget, hasTemp, hasPwm = "", false, false, false
	}
	for tok := range strings.FieldsSeq(t[colon+2:]) {
		if strings.HasSuffix(tok, ":") {
			flushHeater()
			group = tok[:len(tok)-1]
			cur = nil
			continue
		}
		k, v, ok := strings.Cut(tok, "=")
		if !ok || !statKeys[k] {
			continue // most of a Stats line's fields are read by nothing
		}
		x, ok := parseNum(v)
		if !ok {
			continue
		}
		switch k {
		case "bytes_retransmit", "bytes_invalid", "mcu_awake":
			if cur == nil && group != "" {
				cur = lr.group(group)
			}
			if cur == nil {
				continue
			}
			cur.kind = 'm'
			switch k {
			case "bytes_retransmit":
				cur.retransmit, cur.hasRetransmit, cur.line, cur.quote = x, true, n, quote
			case "bytes_invalid":
				cur.invalid = x
			case "mcu_awake":
				cur.awakeMax = max(cur.awakeMax, x)
			}
		case "target", "temp", "pwm":
			if group == "" {
				continue
			}
			heat = group
			switch k {
			case "target":
				target, hasTarget = x, true
			case "temp":
				temp, hasTemp = x, true
			case "pwm":
				pwm, hasPwm = x, true
			}
		case "sysload", "memavail":
			h := lr.group("host")
			if h == nil {
				continue
			}
			h.kind = 'o'
			if k == "sysload" && x > h.sysloadMax {
				h.sysloadMax, h.line, h.quote = x, n, quote
			}
			if k == "memavail" && (!h.hasMem || x < h.memMin) {
				h.memMin, h.hasMem = x, true
			}
		case "print_stall":
			if g := lr.group("toolhead"); g != nil {
				g.kind, g.stall, g.hasStall, g.line, g.quote = 't', x, true, n, quote
			}
		}
	}
	flushHeater()
}

func (lr *klippyLog) group(name string) *statGroup {
	return slot(&lr.groups, name, func(g *statGroup) string { return g.name },
		func(n string) statGroup { return statGroup{name: n} })
}

// finish adds what is learnt from the whole log.
func (lr *klippyLog) finish() {
	if lr.configErr {
		lr.c.event("error.config", "", "Config error", lr.configErrLine, lr.configErrQuote)
	}
	c := lr.c
	for _, g := range lr.groups {
		switch g.kind {
		case 'm':
			if g.hasRetransmit {
				c.setNum("klipper.stats.bytes_retransmit", g.name, g.retransmit, g.line, g.quote)
				c.setNum("klipper.stats.bytes_invalid", g.name, g.invalid, g.line, g.quote)
				c.setNum("klipper.stats.mcu_awake_max", g.name, g.awakeMax, g.line, g.quote)
			}
		case 'o':
			c.setNum("klipper.stats.sysload_max", "host", g.sysloadMax, g.line, g.quote)
			if g.hasMem {
				c.setNum("klipper.stats.memavail_min", "host", g.memMin, g.line, g.quote)
			}
		case 't':
			if g.hasStall {
				c.setNum("klipper.stats.print_stall", "toolhead", g.stall, g.line, g.quote)
			}
		}
	}
	lr.heaters.emit(c)
	lr.outOfRange()
	if lr.hostVersion == "" {
		return
	}
	for _, m := range lr.mcuVersions {
		// An MCU built from the host's checkout carries the build's date and
		// host name after the version ("v0.8.0-197-g1d6a8b2c-20200214_161722-octopi").
		if m.version != lr.hostVersion && !strings.HasPrefix(m.version, lr.hostVersion+"-") {
			c.set("firmware.version_mismatch", m.name, "host "+lr.hostVersion+", mcu "+m.version, m.line, m.quote)
		}
	}
}

// outOfRange names the heater of an "ADC out of range" shutdown that
// Klipper's log does not name: one whose reported temperature went below
// its min_temp or above its max_temp (of the config dump).
func (lr *klippyLog) outOfRange() {
	c := lr.c
	if _, ok := c.get("error.adc_out_of_range", "mcu"); !ok {
		return
	}
	for _, h := range lr.heaters {
		if _, named := c.get("error.adc_out_of_range", h.name); named || h.loLine == 0 {
			continue
		}
		if lo, ok := c.get("heater.min_temp", h.name); ok && lo.HasNum && h.lo < lo.Num {
			c.event("error.mintemp", h.name, fmtNum(h.lo), h.loLine, h.loQuote)
		}
		if hi, ok := c.get("heater.max_temp", h.name); ok && hi.HasNum && h.hi > hi.Num {
			c.event("error.maxtemp", h.name, fmtNum(h.hi), h.hiLine, h.hiQuote)
		}
	}
}

// isKlipperConsoleMessage reports whether a console line is a message
// only Klipper prints (used to recognise a console).
func isKlipperConsoleMessage(u string) bool {
	return hasAnyPrefix(u, klipperConsoleMarkers)
}

var klipperConsoleMarkers = []string{
	"Must home axis first", "Move out of range", "MCU '", "Lost communication with MCU", "No trigger on ",
	"Extrude only move too long", "Move exceeds maximum extrusion", "Unknown command:\"", "Endstop ",
	"TMC '", "Klipper state:", "Requested temperature (", "probe at ", "Unable to read tmc uart",
	"Extrude below minimum temp", "Heater ", "PID parameters: ", "The SAVE_CONFIG command will update", "Starting manual Z probe",
}
