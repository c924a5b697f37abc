package printerfiles

import (
	"strconv"
	"strings"
)

// Marlin's Configuration.h and Configuration_adv.h are C headers: an option
// is on when "#define NAME [value]" is in force and off when it is commented
// out ("//#define NAME"). A #define inside "#if ENABLED(X)" is in force only
// when X is; the reader follows #if/#ifdef/#ifndef/#elif/#else/#endif with
// ENABLED(), DISABLED(), defined(), ANY(), ALL(), BOTH() and EITHER() of the
// options it has seen, and treats any other condition as true. Block
// comments are skipped. Only the options listed in marlinOptions are
// reported; the ones with a firmware-neutral meaning become the shared facts
// (DEFAULT_AXIS_STEPS_PER_UNIT gives stepper.steps_per_mm and
// extruder.steps_per_mm, TEMP_SENSOR_0 gives heater.sensor_type of the
// extruder, ...), the others marlin.option.

// How an option is reported.
const (
	moOption     = iota // marlin.option: its value, or "enabled"/"disabled"
	moString            // key/subject with the value as written
	moNumber            // key/subject, numeric
	moBool              // key/subject true when enabled
	moBoolVal           // key/subject from a true/false value
	moArray             // per-axis list ({ 80, 80, 400, 93 })
	moSensor            // TEMP_SENSOR_n
	moMilliamps         // driver current in mA, reported in A
	moNegated           // numeric, and its negation under key2
	moProbe             // a probe type
	moLeveling          // a leveling type
	moHeaterMode        // PIDTEMP, MPCTEMP, PIDTEMPBED
	moJerkMode          // CLASSIC_JERK
)

type marlinOption struct {
	name, key, subject string
	kind               int
}

var marlinOptions = []marlinOption{
	{"MOTHERBOARD", "firmware.board", "", moString},
	{"SERIAL_PORT", "mcu.serial_port", "", moNumber},
	{"SERIAL_PORT_2", "", "", moOption},
	{"BAUDRATE", "mcu.baud", "", moNumber},
	{"CUSTOM_MACHINE_NAME", "firmware.machine", "", moString},
	{"CONFIGURATION_H_VERSION", "firmware.config_version", "", moString},
	{"EXTRUDERS", "", "", moOption},
	{"DISTINCT_E_FACTORS", "", "", moOption},
	{"X_DRIVER_TYPE", "driver.type", "x", moString},
	{"Y_DRIVER_TYPE", "driver.type", "y", moString},
	{"Z_DRIVER_TYPE", "driver.type", "z", moString},
	{"Z2_DRIVER_TYPE", "driver.type", "z2", moString},
	{"E0_DRIVER_TYPE", "driver.type", "extruder", moString},
	{"E1_DRIVER_TYPE", "driver.type", "extruder1", moString},
	{"TEMP_SENSOR_0", "heater.sensor_type", "extruder", moSensor},
	{"TEMP_SENSOR_1", "heater.sensor_type", "extruder1", moSensor},
	{"TEMP_SENSOR_BED", "heater.sensor_type", "heater_bed", moSensor},
	{"TEMP_SENSOR_CHAMBER", "heater.sensor_type", "chamber", moSensor},
	{"HEATER_0_MINTEMP", "heater.min_temp", "extruder", moNumber},
	{"HEATER_0_MAXTEMP", "heater.max_temp", "extruder", moNumber},
	{"HEATER_1_MINTEMP", "heater.min_temp", "extruder1", moNumber},
	{"HEATER_1_MAXTEMP", "heater.max_temp", "extruder1", moNumber},
	{"BED_MINTEMP", "heater.min_temp", "heater_bed", moNumber},
	{"BED_MAXTEMP", "heater.max_temp", "heater_bed", moNumber},
	{"PIDTEMP", "heater.control", "extruder", moHeaterMode},
	{"MPCTEMP", "heater.control", "extruder", moHeaterMode},
	{"PIDTEMPBED", "heater.control", "heater_bed", moHeaterMode},
	{"DEFAULT_Kp", "heater.pid_kp", "extruder", moNumber},
	{"DEFAULT_Ki", "heater.pid_ki", "extruder", moNumber},
	{"DEFAULT_Kd", "heater.pid_kd", "extruder", moNumber},
	{"DEFAULT_bedKp", "heater.pid_kp", "heater_bed", moNumber},
	{"DEFAULT_bedKi", "heater.pid_ki", "heater_bed", moNumber},
	{"DEFAULT_bedKd", "heater.pid_kd", "heater_bed", moNumber},
	{"THERMAL_PROTECTION_HOTENDS", "heater.thermal_protection", "extruder", moBool},
	{"THERMAL_PROTECTION_BED", "heater.thermal_protection", "heater_bed", moBool},
	{"THERMAL_PROTECTION_CHAMBER", "heater.thermal_protection", "chamber", moBool},
	{"THERMAL_PROTECTION_PERIOD", "", "", moOption},
	{"THERMAL_PROTECTION_HYSTERESIS", "", "", moOption},
	{"WATCH_TEMP_PERIOD", "", "", moOption},
	{"WATCH_TEMP_INCREASE", "", "", moOption},
	{"THERMAL_PROTECTION_BED_PERIOD", "", "", moOption},
	{"THERMAL_PROTECTION_BED_HYSTERESIS", "", "", moOption},
	{"WATCH_BED_TEMP_PERIOD", "", "", moOption},
	{"WATCH_BED_TEMP_INCREASE", "", "", moOption},
	{"PREVENT_COLD_EXTRUSION", "", "", moOption},
	{"EXTRUDE_MINTEMP", "extruder.min_extrude_temp", "extruder", moNumber},
	{"PREVENT_LENGTHY_EXTRUDE", "", "", moOption},
	{"EXTRUDE_MAXLENGTH", "extruder.max_extrude_only_distance", "extruder", moNumber},
	{"DEFAULT_AXIS_STEPS_PER_UNIT", "steps_per_mm", "", moArray},
	{"DEFAULT_MAX_FEEDRATE", "max_velocity", "", moArray},
	{"DEFAULT_MAX_ACCELERATION", "max_accel", "", moArray},
	{"DEFAULT_ACCELERATION", "printer.max_accel", "", moNumber},
	{"DEFAULT_RETRACT_ACCELERATION", "printer.retract_accel", "", moNumber},
	{"DEFAULT_TRAVEL_ACCELERATION", "printer.travel_accel", "", moNumber},
	{"CLASSIC_JERK", "printer.jerk_mode", "", moJerkMode},
	{"DEFAULT_XJERK", "stepper.jerk", "x", moNumber},
	{"DEFAULT_YJERK", "stepper.jerk", "y", moNumber},
	{"DEFAULT_ZJERK", "stepper.jerk", "z", moNumber},
	{"DEFAULT_EJERK", "extruder.jerk", "extruder", moNumber},
	{"JUNCTION_DEVIATION_MM", "printer.junction_deviation", "", moNumber},
	{"S_CURVE_ACCELERATION", "", "", moOption},
	{"INVERT_X_DIR", "stepper.dir_inverted", "x", moBoolVal},
	{"INVERT_Y_DIR", "stepper.dir_inverted", "y", moBoolVal},
	{"INVERT_Z_DIR", "stepper.dir_inverted", "z", moBoolVal},
	{"INVERT_E0_DIR", "extruder.dir_inverted", "extruder", moBoolVal},
	{"INVERT_E1_DIR", "extruder.dir_inverted", "extruder1", moBoolVal},
	{"X_HOME_DIR", "stepper.home_dir", "x", moNumber},
	{"Y_HOME_DIR", "stepper.home_dir", "y", moNumber},
	{"Z_HOME_DIR", "stepper.home_dir", "z", moNumber},
	{"X_BED_SIZE", "stepper.bed_size", "x", moNumber},
	{"Y_BED_SIZE", "stepper.bed_size", "y", moNumber},
	{"X_MIN_POS", "stepper.position_min", "x", moNumber},
	{"Y_MIN_POS", "stepper.position_min", "y", moNumber},
	{"Z_MIN_POS", "stepper.position_min", "z", moNumber},
	{"X_MAX_POS", "stepper.position_max", "x", moNumber},
	{"Y_MAX_POS", "stepper.position_max", "y", moNumber},
	{"Z_MAX_POS", "stepper.position_max", "z", moNumber},
	{"X_MIN_ENDSTOP_HIT_STATE", "endstop.hit_state", "x", moString},
	{"Y_MIN_ENDSTOP_HIT_STATE", "endstop.hit_state", "y", moString},
	{"Z_MIN_ENDSTOP_HIT_STATE", "endstop.hit_state", "z", moString},
	{"X_MAX_ENDSTOP_HIT_STATE", "endstop.hit_state", "x_max", moString},
	{"Y_MAX_ENDSTOP_HIT_STATE", "endstop.hit_state", "y_max", moString},
	{"Z_MAX_ENDSTOP_HIT_STATE", "endstop.hit_state", "z_max", moString},
	{"Z_MIN_PROBE_ENDSTOP_HIT_STATE", "endstop.hit_state", "probe", moString},
	{"X_MIN_ENDSTOP_INVERTING", "endstop.inverted", "x", moBoolVal},
	{"Y_MIN_ENDSTOP_INVERTING", "endstop.inverted", "y", moBoolVal},
	{"Z_MIN_ENDSTOP_INVERTING", "endstop.inverted", "z", moBoolVal},
	{"X_MAX_ENDSTOP_INVERTING", "endstop.inverted", "x_max", moBoolVal},
	{"Y_MAX_ENDSTOP_INVERTING", "endstop.inverted", "y_max", moBoolVal},
	{"Z_MAX_ENDSTOP_INVERTING", "endstop.inverted", "z_max", moBoolVal},
	{"Z_MIN_PROBE_ENDSTOP_INVERTING", "endstop.inverted", "probe", moBoolVal},
	{"BLTOUCH", "probe.type", "probe", moProbe},
	{"FIX_MOUNTED_PROBE", "probe.type", "probe", moProbe},
	{"Z_PROBE_SERVO_NR", "probe.type", "probe", moProbe},
	{"TOUCH_MI_PROBE", "probe.type", "probe", moProbe},
	{"PROBE_MANUALLY", "probe.type", "probe", moProbe},
	{"NOZZLE_AS_PROBE", "probe.type", "probe", moProbe},
	{"BIQU_MICROPROBE_V1", "probe.type", "probe", moProbe},
	{"BIQU_MICROPROBE_V2", "probe.type", "probe", moProbe},
	{"MAG_MOUNTED_PROBE", "probe.type", "probe", moProbe},
	{"SOLENOID_PROBE", "probe.type", "probe", moProbe},
	{"Z_PROBE_SLED", "probe.type", "probe", moProbe},
	{"SENSORLESS_PROBING", "probe.type", "probe", moProbe},
	{"NOZZLE_TO_PROBE_OFFSET", "probe", "probe", moArray},
	{"X_PROBE_OFFSET_FROM_EXTRUDER", "probe.x_offset", "probe", moNumber},
	{"Y_PROBE_OFFSET_FROM_EXTRUDER", "probe.y_offset", "probe", moNumber},
	{"Z_PROBE_OFFSET_FROM_EXTRUDER", "probe.z_offset", "probe", moNegated},
	{"Z_MIN_PROBE_USES_Z_MIN_ENDSTOP_PIN", "probe.uses_z_min_pin", "probe", moBool},
	{"USE_PROBE_FOR_Z_HOMING", "", "", moOption},
	{"Z_SAFE_HOMING", "", "", moOption},
	{"MULTIPLE_PROBING", "", "", moOption},
	{"PROBING_MARGIN", "", "", moOption},
	{"AUTO_BED_LEVELING_3POINT", "leveling.type", "", moLeveling},
	{"AUTO_BED_LEVELING_LINEAR", "leveling.type", "", moLeveling},
	{"AUTO_BED_LEVELING_BILINEAR", "leveling.type", "", moLeveling},
	{"AUTO_BED_LEVELING_UBL", "leveling.type", "", moLeveling},
	{"MESH_BED_LEVELING", "leveling.type", "", moLeveling},
	{"RESTORE_LEVELING_AFTER_G28", "", "", moOption},
	{"ENABLE_LEVELING_FADE_HEIGHT", "", "", moOption},
	{"GRID_MAX_POINTS_X", "", "", moOption},
	{"EEPROM_SETTINGS", "eeprom.enabled", "", moBool},
	{"EEPROM_AUTO_INIT", "", "", moOption},
	{"FILAMENT_RUNOUT_SENSOR", "filament_sensor.enabled", "filament", moBool},
	{"FIL_RUNOUT_STATE", "filament_sensor.runout_state", "filament", moString},
	{"FIL_RUNOUT_INVERTING", "", "", moOption},
	{"FIL_RUNOUT_PULLUP", "", "", moOption},
	{"FILAMENT_RUNOUT_SCRIPT", "", "", moOption},
	{"ADVANCED_PAUSE_FEATURE", "", "", moOption},
	{"NOZZLE_PARK_FEATURE", "", "", moOption},
	{"FWRETRACT", "", "", moOption},
	{"LIN_ADVANCE", "", "", moOption},
	{"LIN_ADVANCE_K", "extruder.pressure_advance", "extruder", moNumber},
	{"ADVANCE_K", "extruder.pressure_advance", "extruder", moNumber},
	{"HYBRID_THRESHOLD", "", "", moOption},
	{"X_HYBRID_THRESHOLD", "driver.stealthchop_threshold", "x", moNumber},
	{"Y_HYBRID_THRESHOLD", "driver.stealthchop_threshold", "y", moNumber},
	{"Z_HYBRID_THRESHOLD", "driver.stealthchop_threshold", "z", moNumber},
	{"E0_HYBRID_THRESHOLD", "driver.stealthchop_threshold", "extruder", moNumber},
	{"STEALTHCHOP_XY", "", "", moOption},
	{"STEALTHCHOP_Z", "", "", moOption},
	{"STEALTHCHOP_E", "", "", moOption},
	{"X_CURRENT", "driver.run_current", "x", moMilliamps},
	{"Y_CURRENT", "driver.run_current", "y", moMilliamps},
	{"Z_CURRENT", "driver.run_current", "z", moMilliamps},
	{"E0_CURRENT", "driver.run_current", "extruder", moMilliamps},
	{"SENSORLESS_HOMING", "", "", moOption},
	{"X_STALL_SENSITIVITY", "driver.stallguard_threshold", "x", moNumber},
	{"Y_STALL_SENSITIVITY", "driver.stallguard_threshold", "y", moNumber},
	{"MONITOR_DRIVER_STATUS", "", "", moOption},
	{"TMC_DEBUG", "", "", moOption},
	{"USE_CONTROLLER_FAN", "", "", moOption},
	{"CONTROLLER_FAN_PIN", "", "", moOption},
	{"FAN_SOFT_PWM", "", "", moOption},
	{"FAN_KICKSTART_TIME", "", "", moOption},
	{"FAN_MIN_PWM", "", "", moOption},
	{"E0_AUTO_FAN_PIN", "", "", moOption},
	{"EXTRUDER_AUTO_FAN_TEMPERATURE", "", "", moOption},
	{"BABYSTEPPING", "", "", moOption},
	{"ARC_SUPPORT", "", "", moOption},
	{"HOST_ACTION_COMMANDS", "", "", moOption},
	{"EMERGENCY_PARSER", "", "", moOption},
	{"SDSUPPORT", "", "", moOption},
	{"POWER_LOSS_RECOVERY", "", "", moOption},
	{"INPUT_SHAPING_X", "", "", moOption},
	{"INPUT_SHAPING_Y", "", "", moOption},
	{"SHAPING_FREQ_X", "input_shaper.shaper_freq_x", "", moNumber},
	{"SHAPING_FREQ_Y", "input_shaper.shaper_freq_y", "", moNumber},
	{"PID_FUNCTIONAL_RANGE", "", "", moOption},
	{"BANG_MAX", "", "", moOption},
	{"PID_MAX", "", "", moOption},
	{"MIN_SOFTWARE_ENDSTOPS", "", "", moOption},
	{"MAX_SOFTWARE_ENDSTOPS", "", "", moOption},
	{"BLTOUCH_HS_MODE", "", "", moOption},
	{"BLTOUCH_SET_5V_MODE", "", "", moOption},
	{"PROBING_HEATERS_OFF", "", "", moOption},
	{"QUICK_HOME", "", "", moOption},
	{"SQUARE_WAVE_STEPPING", "", "", moOption},
	{"EDGE_STEPPING", "", "", moOption},
	{"TEMP_RESIDENCY_TIME", "", "", moOption},
	{"HOTEND_OVERSHOOT", "", "", moOption},
}

// marlinRequires names, for an option used only when another is on, that
// other option: X_HYBRID_THRESHOLD means nothing while HYBRID_THRESHOLD is
// off, even though Configuration_adv.h defines it.
var marlinRequires = map[string]string{
	"X_HYBRID_THRESHOLD": "HYBRID_THRESHOLD", "Y_HYBRID_THRESHOLD": "HYBRID_THRESHOLD",
	"Z_HYBRID_THRESHOLD": "HYBRID_THRESHOLD", "E0_HYBRID_THRESHOLD": "HYBRID_THRESHOLD",
	"LIN_ADVANCE_K": "LIN_ADVANCE", "ADVANCE_K": "LIN_ADVANCE",
	"X_STALL_SENSITIVITY": "SENSORLESS_HOMING", "Y_STALL_SENSITIVITY": "SENSORLESS_HOMING",
	"DEFAULT_Kp": "PIDTEMP", "DEFAULT_Ki": "PIDTEMP", "DEFAULT_Kd": "PIDTEMP",
	"DEFAULT_bedKp": "PIDTEMPBED", "DEFAULT_bedKi": "PIDTEMPBED", "DEFAULT_bedKd": "PIDTEMPBED",
	"EXTRUDE_MINTEMP": "PREVENT_COLD_EXTRUSION", "EXTRUDE_MAXLENGTH": "PREVENT_LENGTHY_EXTRUDE",
	"FIL_RUNOUT_STATE": "FILAMENT_RUNOUT_SENSOR", "SHAPING_FREQ_X": "INPUT_SHAPING_X",
	"SHAPING_FREQ_Y": "INPUT_SHAPING_Y",
	// A driver's current is set over UART/SPI only; a standalone driver ignores it.
	"X_CURRENT": "X_DRIVER_TYPE", "Y_CURRENT": "Y_DRIVER_TYPE", "Z_CURRENT": "Z_DRIVER_TYPE",
	"E0_CURRENT": "E0_DRIVER_TYPE",
}

var marlinOptionByName = func() map[string]int {
	m := make(map[string]int, len(marlinOptions))
	for i, o := range marlinOptions {
		m[o.name] = i
	}
	return m
}()

// marlinOptionIndex is an option's index in marlinOptions, or -1.
func marlinOptionIndex(name string) int {
	if i, ok := marlinOptionByName[name]; ok {
		return i
	}
	return -1
}

// optState is what the file says of one listed option.
type optState struct {
	active, commented bool
	value             string
	line              int
	quote             string
}

// tri is a condition that may be unknown.
type tri int8

const (
	triUnknown tri = iota
	triTrue
	triFalse
)

type ifFrame struct {
	parent, active, taken bool
}

type marlinConfigReader struct {
	c        *collector
	opts     []optState
	defs     map[string]bool // names seen: true defined, false commented out or #undef
	values   map[string]string
	stack    []ifFrame
	overflow int
	inBlock  bool
}

// readMarlinConfig reads a Configuration.h or Configuration_adv.h.
//
// Configuration_adv.h depends on Configuration.h: what one file of a Read
// defines is known to the next (sh.marlinDefs).
func readMarlinConfig(c *collector, text string, sh *shared) fwInfo {
	if sh.marlinDefs == nil {
		sh.marlinDefs = make(map[string]bool, 256)
		sh.marlinValues = make(map[string]string, 16)
	}
	mr := &marlinConfigReader{c: c, opts: make([]optState, len(marlinOptions)), defs: sh.marlinDefs, values: sh.marlinValues}
	for n, raw := range eachLine(text) {
		mr.line(raw, n)
	}
	mr.finish()
	info := fwInfo{firmware: "Marlin"}
	if s := mr.opts[marlinOptionIndex("CONFIGURATION_H_VERSION")]; s.active {
		info.version = marlinConfigVersion(s.value)
	}
	return info
}

// marlinConfigVersion turns 02010300 into 2.1.3.
func marlinConfigVersion(v string) string {
	if len(v) != 8 || !isDigits(v) {
		return ""
	}
	parts := make([]string, 0, 4)
	for i := 0; i < 8; i += 2 {
		n, _ := strconv.Atoi(v[i : i+2])
		parts = append(parts, strconv.Itoa(n))
	}
	for len(parts) > 2 && parts[len(parts)-1] == "0" {
		parts = parts[:len(parts)-1]
	}
	return strings.Join(parts, ".")
}

func (mr *marlinConfigReader) active() bool {
	if len(mr.stack) == 0 {
		return true
	}
	return mr.stack[len(mr.stack)-1].active
}

func (mr *marlinConfigReader) line(raw string, n int) {
	t := strings.TrimSpace(raw)
	if mr.inBlock {
		i := strings.Index(t, "*/")
		if i < 0 {
			return
		}
		mr.inBlock = false
		t = strings.TrimSpace(t[i+2:])
	}
	if strings.HasPrefix(t, "/*") {
		if !strings.Contains(t[2:], "*/") {
			mr.inBlock = true
		}
		return
	}
	if t == "" {
		return
	}
	if t[0] == '/' {
		rest, ok := strings.CutPrefix(t, "//")
		if !ok {
			return
		}
		rest = trimLeftSpace(rest)
		if d, ok := strings.CutPrefix(rest, "#define"); ok && (d == "" || d[0] == ' ' || d[0] == '\t') {
			mr.define(strings.TrimSpace(d), false, n, raw)
		}
		return
	}
	if t[0] != '#' {
		return
	}
	d := trimLeftSpace(t[1:])
	word := firstWord(d)
	arg := strings.TrimSpace(d[len(word):])
	switch word {
	case "define":
		mr.define(arg, true, n, raw)
	case "undef":
		name := firstWord(arg)
		if mr.active() {
			mr.remember(name, false)
			if i := marlinOptionIndex(name); i >= 0 {
				mr.opts[i].active = false
			}
		}
	case "if":
		mr.push(mr.eval(arg))
	case "ifdef":
		mr.push(mr.known(firstWord(arg)))
	case "ifndef":
		mr.push(not(mr.known(firstWord(arg))))
	case "elif":
		if mr.overflow > 0 || len(mr.stack) == 0 {
			return
		}
		f := &mr.stack[len(mr.stack)-1]
		if f.taken {
			f.active = false
			return
		}
		c := mr.eval(arg)
		f.active = f.parent && c != triFalse
		f.taken = c == triTrue
	case "else":
		if mr.overflow > 0 || len(mr.stack) == 0 {
			return
		}
		f := &mr.stack[len(mr.stack)-1]
		f.active = f.parent && !f.taken
		f.taken = true
	case "endif":
		if mr.overflow > 0 {
			mr.overflow--
			return
		}
		if len(mr.stack) > 0 {
			mr.stack = mr.stack[:len(mr.stack)-1]
		}
	}
}

func (mr *marlinConfigReader) push(c tri) {
	if len(mr.stack) >= maxIfDepth {
		mr.overflow++
		return
	}
	parent := mr.active()
	mr.stack = append(mr.stack, ifFrame{parent: parent, active: parent && c != triFalse, taken: c == triTrue})
}

func not(c tri) tri {
	switch c {
	case triTrue:
		return triFalse
	case triFalse:
		return triTrue
	}
	return triUnknown
}

// known says whether a name is defined, from what the file showed so far.
func (mr *marlinConfigReader) known(name string) tri {
	v, ok := mr.defs[name]
	switch {
	case !ok:
		return triUnknown
	case v:
		return triTrue
	}
	return triFalse
}

func (mr *marlinConfigReader) remember(name string, defined bool) {
	if _, ok := mr.defs[name]; ok || len(mr.defs) < maxDefines {
		mr.defs[name] = defined
	}
}

// eval evaluates the #if conditions Marlin's configs use.
func (mr *marlinConfigReader) eval(expr string) tri {
	if i := strings.Index(expr, "//"); i >= 0 {
		expr = expr[:i]
	}
	expr = strings.TrimSpace(expr)
	switch expr {
	case "0", "false":
		return triFalse
	case "1", "true":
		return triTrue
	}
	if strings.Contains(expr, "&&") || strings.Contains(expr, "||") {
		return triUnknown
	}
	neg := false
	if strings.HasPrefix(expr, "!") {
		neg = true
		expr = strings.TrimSpace(expr[1:])
	}
	fn, args, ok := strings.Cut(expr, "(")
	if !ok || !strings.HasSuffix(args, ")") {
		return triUnknown
	}
	args = args[:len(args)-1]
	var r tri
	switch strings.TrimSpace(fn) {
	case "ENABLED", "defined":
		r = mr.known(strings.TrimSpace(args))
	case "DISABLED":
		r = not(mr.known(strings.TrimSpace(args)))
	case "ANY", "EITHER":
		r = mr.combine(args, triTrue)
	case "ALL", "BOTH":
		r = mr.combine(args, triFalse)
	default:
		return triUnknown
	}
	if neg {
		r = not(r)
	}
	return r
}

// combine evaluates ANY() (decisive is triTrue: one true option decides) or
// ALL() (decisive is triFalse) over a list of options.
func (mr *marlinConfigReader) combine(args string, decisive tri) tri {
	r := not(decisive)
	for a := range strings.SplitSeq(args, ",") {
		switch mr.known(strings.TrimSpace(a)) {
		case decisive:
			return decisive
		case triUnknown:
			r = triUnknown
		}
	}
	return r
}

// define reads "NAME value" of a #define; on is false for a commented-out one.
func (mr *marlinConfigReader) define(d string, on bool, n int, raw string) {
	name := firstWord(d)
	if name == "" || len(name) > 64 {
		return
	}
	if i := strings.IndexByte(name, '('); i >= 0 {
		return // a macro
	}
	value := defineValue(strings.TrimSpace(d[len(name):]))
	if on {
		if !mr.active() {
			return
		}
		mr.remember(name, true)
	} else if _, seen := mr.defs[name]; !seen {
		mr.remember(name, false)
	}
	i := marlinOptionIndex(name)
	if i < 0 {
		return
	}
	s := &mr.opts[i]
	switch {
	case on:
		*s = optState{active: true, value: value, line: n, quote: raw}
		if _, ok := mr.values[name]; ok || len(mr.values) < maxSubjects*4 {
			mr.values[name] = value
		}
	case !s.active && !s.commented:
		*s = optState{commented: true, value: value, line: n, quote: raw}
	}
}

// defineValue cuts a #define's value before its comment, outside quotes.
func defineValue(v string) string {
	quoted := false
	for i := 0; i < len(v); i++ {
		switch v[i] {
		case '"':
			quoted = !quoted
		case '/':
			if !quoted && i+1 < len(v) && (v[i+1] == '/' || v[i+1] == '*') {
				return strings.TrimSpace(v[:i])
			}
		}
	}
	return v
}

// defineName returns the name of a "#define NAME ..." line.
func defineName(t string) (string, bool) {
	d, ok := strings.CutPrefix(t, "#define ")
	if !ok {
		return "", false
	}
	return firstWord(strings.TrimSpace(d)), true
}

// finish turns the options' final state into facts.
func (mr *marlinConfigReader) finish() {
	c := mr.c
	probe, leveling := "", ""
	var pl, ll int
	var pq, lq string
	noProbe := false
	for i, o := range marlinOptions {
		s := mr.opts[i]
		if !s.active && !s.commented {
			continue
		}
		if s.active && !mr.required(o.name) {
			continue
		}
		if _, err := strconv.ParseFloat(s.value, 64); err != nil && s.active {
			if v, ok := mr.values[s.value]; ok && s.value != "" { // "#define X_MAX_POS X_BED_SIZE"
				s.value = v
			}
		}
		switch o.kind {
		case moOption:
			v := s.value
			switch {
			case !s.active:
				v = "disabled"
			case v == "":
				v = "enabled"
			}
			c.set("marlin.option", o.name, v, s.line, s.quote)
		case moString:
			if s.active && s.value != "" {
				c.set(o.key, o.subject, strings.Trim(s.value, "\""), s.line, s.quote)
			}
		case moNumber:
			if s.active {
				c.set(o.key, o.subject, s.value, s.line, s.quote)
			}
		case moNegated:
			if s.active {
				c.set(o.key, o.subject, s.value, s.line, s.quote)
				if v, ok := parseNum(s.value); ok {
					c.setNum("probe.trigger_height", o.subject, 0-v, s.line, s.quote)
				}
			}
		case moMilliamps:
			if v, ok := parseNum(s.value); ok && s.active {
				c.setNum(o.key, o.subject, v/1000, s.line, s.quote)
			}
		case moBool:
			c.setBool(o.key, o.subject, s.active, s.line, s.quote)
		case moBoolVal:
			if s.active {
				c.setBool(o.key, o.subject, s.value == "true" || s.value == "1", s.line, s.quote)
			}
		case moSensor:
			if v, ok := parseNum(s.value); ok && s.active {
				c.setValueNum(o.key, o.subject, marlinSensorValue(s.value), v, s.line, s.quote)
			} else if s.active {
				c.set(o.key, o.subject, s.value, s.line, s.quote)
			}
		case moArray:
			if s.active {
				mr.array(o, s)
			}
		case moProbe:
			if s.active && probe == "" {
				probe, pl, pq = strings.ToLower(o.name), s.line, s.quote
			}
			if s.commented && !noProbe && probe == "" {
				noProbe, pl, pq = true, s.line, s.quote
			}
		case moLeveling:
			if s.active && leveling == "" {
				leveling, ll, lq = strings.ToLower(o.name), s.line, s.quote
			}
		case moHeaterMode:
			if s.active {
				mode := "pid"
				if o.name == "MPCTEMP" {
					mode = "mpc"
				}
				c.set(o.key, o.subject, mode, s.line, s.quote)
			}
		case moJerkMode:
			mode := "junction_deviation"
			if s.active {
				mode = "classic_jerk"
			}
			c.set(o.key, o.subject, mode, s.line, s.quote)
		}
	}
	switch {
	case probe != "":
		c.set("probe.type", "probe", probe, pl, pq)
	case noProbe:
		c.set("probe.type", "probe", "none", pl, pq)
	}
	if leveling != "" {
		c.set("leveling.type", "", leveling, ll, lq)
	}
	// A heater whose PID option is off is switched on and off (bang-bang).
	for _, h := range []struct{ opt, subject string }{{"PIDTEMP", "extruder"}, {"PIDTEMPBED", "heater_bed"}} {
		s := mr.opts[marlinOptionIndex(h.opt)]
		if _, ok := c.get("heater.control", h.subject); !ok && s.commented && !s.active {
			c.set("heater.control", h.subject, "bang-bang", s.line, s.quote)
		}
	}
	mr.pidTuned("extruder", "PIDTEMP", "DEFAULT_Kp", "DEFAULT_Ki", "DEFAULT_Kd")
	mr.pidTuned("heater_bed", "PIDTEMPBED", "DEFAULT_bedKp", "DEFAULT_bedKi", "DEFAULT_bedKd")
}

// required reports whether what an option needs is not known to be off.
func (mr *marlinConfigReader) required(name string) bool {
	req, ok := marlinRequires[name]
	if !ok {
		return true
	}
	if strings.HasSuffix(req, "_DRIVER_TYPE") {
		t, ok := mr.values[req]
		return !ok || strings.HasPrefix(t, "TMC") && !strings.HasSuffix(t, "_STANDALONE")
	}
	return mr.known(req) != triFalse
}

func (mr *marlinConfigReader) pidTuned(subject, enable, kp, ki, kd string) {
	if mr.opts[marlinOptionIndex(enable)].commented && !mr.opts[marlinOptionIndex(enable)].active {
		return
	}
	p, i, d := mr.opts[marlinOptionIndex(kp)], mr.opts[marlinOptionIndex(ki)], mr.opts[marlinOptionIndex(kd)]
	if !p.active || !i.active || !d.active {
		return
	}
	a, ok1 := parseNum(p.value)
	b, ok2 := parseNum(i.value)
	e, ok3 := parseNum(d.value)
	if ok1 && ok2 && ok3 {
		mr.c.setBool("pid.tuned", subject, !stockPID(a, b, e), p.line, p.quote)
	}
}

// array reads a per-axis list: X, Y, Z, then the extruders; for
// NOZZLE_TO_PROBE_OFFSET the probe's X, Y, Z offsets.
func (mr *marlinConfigReader) array(o marlinOption, s optState) {
	inner, ok := between(s.value, "{", "}")
	if !ok {
		return
	}
	var vals [12]float64
	n := 0
	for part := range strings.SplitSeq(inner, ",") {
		v, ok := parseNum(strings.TrimSpace(part))
		if !ok || n == len(vals) {
			return
		}
		vals[n] = v
		n++
	}
	c := mr.c
	if o.name == "NOZZLE_TO_PROBE_OFFSET" {
		if n >= 3 {
			c.setNum("probe.x_offset", "probe", vals[0], s.line, s.quote)
			c.setNum("probe.y_offset", "probe", vals[1], s.line, s.quote)
			c.setNum("probe.z_offset", "probe", vals[2], s.line, s.quote)
			c.setNum("probe.trigger_height", "probe", 0-vals[2], s.line, s.quote)
		}
		return
	}
	for i := 0; i < n; i++ {
		var subject string
		switch i {
		case 0, 1, 2:
			subject = string(rune('x' + i))
		default:
			subject = extruderSubject(strconv.Itoa(i - 3))
		}
		c.setNum(axisKey(subject)+o.key, subject, vals[i], s.line, s.quote)
	}
}
