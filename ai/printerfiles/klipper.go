package printerfiles

import (
	"slices"
	"strings"
)

// Klipper's printer.cfg is read as Klipper reads it (klippy/configfile.py):
// "[section name]" headers; "key: value" or "key = value" options; '#'
// starts a comment anywhere on a line, ';' starts one at the line start or
// after whitespace; an indented line continues the previous option's value
// (macros' gcode); "[include x.cfg]" names another file (reported, never
// followed). Below the "#*# <---- SAVE_CONFIG ---->" line every line starts
// with "#*# " and its options override the ones above.
//
// Options become facts under the vocabulary of FACTS.md; the steps per mm of
// each stepper are computed from rotation_distance, microsteps,
// full_steps_per_rotation and gear_ratio as Klipper does (stepper.py).

// klipperReader reads one config (or the config dump inside klippy.log).
type klipperReader struct {
	c        *collector
	sec      kSection
	autosave bool
	includes int
	macros   int
	// the parameters the macro being read takes (params.NAME)
	macroParams []string
	steppers    []stepperCalc
	heaters     []pidCalc
}

// kSection is the section being read.
type kSection struct {
	typ     string // normalised: "stepper", "extruder", "tmc2209", "heater_bed", "probe"...
	raw     string // the section's first word as written
	subject string // "x", "extruder", "heater_bed", "hotend_fan"...
}

// stepperCalc gathers what computes one stepper's steps per mm.
type stepperCalc struct {
	subject                            string
	rotation, micro, full, gear        float64
	hasRot, hasMicro, hasFull, hasGear bool
	line                               int
	quote                              string
	// the rail: position_endstop (its line), position_min and _max, and
	// whether homing_positive_dir is given
	endstop, min, max          float64
	hasEndstop, hasMax, hasDir bool
	endstopLine                int
	endstopQuote               string
}

// pidCalc gathers one heater's PID values to tell stock from tuned ones.
type pidCalc struct {
	subject    string
	kp, ki, kd float64
	has        int // bit 0 kp, 1 ki, 2 kd
	line       int
	quote      string
}

func newKlipperReader(c *collector) *klipperReader {
	return &klipperReader{c: c}
}

// readKlipperConfig reads a printer.cfg.
func readKlipperConfig(c *collector, text string) fwInfo {
	kr := newKlipperReader(c)
	for n, raw := range eachLine(text) {
		kr.line(raw, n)
	}
	kr.finish()
	return fwInfo{firmware: "Klipper"}
}

// line reads one line of a config file.
func (kr *klipperReader) line(raw string, n int) {
	if kr.autosave {
		if strings.HasPrefix(raw, "#*#") {
			kr.configLine(raw[min(4, len(raw)):], n, raw)
		}
		return
	}
	if strings.HasPrefix(raw, "#*# <") && strings.Contains(raw, "SAVE_CONFIG") {
		kr.autosave = true
		kr.sec = kSection{}
		return
	}
	kr.configLine(raw, n, raw)
}

// configLine reads one line with its comment markers still in place.
func (kr *klipperReader) configLine(line string, n int, quote string) {
	if i := strings.IndexByte(line, '#'); i >= 0 {
		line = line[:i]
	}
	if line == "" || line[0] == ';' {
		return
	}
	if line[0] == ' ' || line[0] == '\t' {
		// continues a multi-line value (a macro's gcode)
		if kr.sec.typ == "gcode_macro" && kr.sec.subject != "" {
			kr.macroParamsOf(line, n, quote)
		}
		return
	}
	if line[0] == '[' {
		end := strings.IndexByte(line, ']')
		if end < 0 {
			return
		}
		kr.section(strings.TrimSpace(line[1:end]), n, quote)
		return
	}
	key, val, ok := klipperKV(line)
	if !ok || kr.sec.typ == "" {
		return
	}
	kr.option(key, stripInlineComment(val), n, quote)
}

// klipperKV splits "key: value" / "key = value"; keys are identifiers.
func klipperKV(line string) (string, string, bool) {
	i := strings.IndexAny(line, ":=")
	if i <= 0 || i > 64 {
		return "", "", false
	}
	key := strings.TrimSpace(line[:i])
	if key == "" {
		return "", "", false
	}
	for j := 0; j < len(key); j++ {
		b := key[j]
		if !(b >= 'a' && b <= 'z' || b >= 'A' && b <= 'Z' || b >= '0' && b <= '9' || b == '_') {
			return "", "", false
		}
	}
	return key, strings.TrimSpace(line[i+1:]), true
}

// stripInlineComment cuts a ';' comment that follows whitespace.
func stripInlineComment(v string) string {
	for i := 1; i < len(v); i++ {
		if v[i] == ';' && (v[i-1] == ' ' || v[i-1] == '\t') {
			return strings.TrimSpace(v[:i])
		}
	}
	return v
}

var tmcDrivers = map[string]bool{
	"tmc2130": true, "tmc2208": true, "tmc2209": true, "tmc2240": true, "tmc2660": true, "tmc5160": true,
}

var probeSections = map[string]bool{
	"probe": true, "bltouch": true, "smart_effector": true, "probe_eddy_current": true,
	"load_cell_probe": true, "beacon": true, "cartographer": true, "scanner": true,
}

var fanSections = map[string]bool{
	"fan": true, "heater_fan": true, "controller_fan": true, "fan_generic": true, "temperature_fan": true,
}

// sectionsReported are the sections whose presence alone is worth a fact.
var sectionsReported = map[string]bool{
	"bltouch": true, "probe": true, "smart_effector": true, "probe_eddy_current": true, "bed_mesh": true,
	"safe_z_home": true, "homing_override": true, "firmware_retraction": true,
	"filament_switch_sensor": true, "filament_motion_sensor": true, "input_shaper": true,
	"exclude_object": true, "pause_resume": true, "virtual_sdcard": true, "z_tilt": true,
	"quad_gantry_level": true, "screws_tilt_adjust": true, "bed_screws": true, "skew_correction": true,
	"verify_heater": true, "controller_fan": true, "heater_fan": true, "adxl345": true,
	"resonance_tester": true, "gcode_arcs": true, "endstop_phase": true, "axis_twist_compensation": true,
	"z_thermal_adjust": true, "dual_carriage": true, "idle_timeout": true, "save_variables": true,
	"force_move": true, "respond": true, "display": true, "duplicate_pin_override": true, "bed_tilt": true,
}

// section starts a section.
func (kr *klipperReader) section(hdr string, n int, quote string) {
	typ := firstWord(hdr)
	name := strings.TrimSpace(hdr[len(typ):])
	kr.sec = kSection{raw: typ}
	switch {
	case typ == "include":
		kr.sec = kSection{}
		if kr.includes < maxIncludes && name != "" {
			kr.includes++
			kr.c.event("klipper.include", name, name, n, quote)
		}
		return
	case typ == "gcode_macro":
		kr.sec = kSection{typ: "gcode_macro", subject: name}
		kr.macroParams = kr.macroParams[:0]
		if kr.macros < maxMacros && name != "" {
			kr.macros++
			kr.c.event("klipper.macro", strings.ToUpper(name), name, n, quote)
		}
		return
	case strings.HasPrefix(typ, "stepper_"):
		kr.sec.typ, kr.sec.subject = "stepper", typ[len("stepper_"):]
	case typ == "extruder" || strings.HasPrefix(typ, "extruder") && isDigits(typ[len("extruder"):]):
		kr.sec.typ, kr.sec.subject = "extruder", typ
	case typ == "extruder_stepper":
		kr.sec.typ, kr.sec.subject = "extruder_stepper", name
	case tmcDrivers[typ]:
		kr.sec.typ, kr.sec.subject = "tmc", stepperSubject(name)
		kr.c.set("driver.type", kr.sec.subject, typ, n, quote)
	case typ == "heater_bed":
		kr.sec.typ, kr.sec.subject = "heater", "heater_bed"
	case typ == "heater_generic":
		kr.sec.typ, kr.sec.subject = "heater", name
	case probeSections[typ]:
		kr.sec.typ, kr.sec.subject = "probe", "probe"
		kr.c.set("probe.type", "probe", typ, n, quote)
	case fanSections[typ]:
		kr.sec.typ, kr.sec.subject = "fan", hdr
	case typ == "mcu":
		kr.sec.typ, kr.sec.subject = "mcu", "mcu"
		if name != "" {
			kr.sec.subject = name
		}
	case typ == "filament_switch_sensor" || typ == "filament_motion_sensor":
		kr.sec.typ, kr.sec.subject = "filament_sensor", name
		kr.c.set("filament_sensor.type", name, typ, n, quote)
	case typ == "verify_heater":
		kr.sec.typ, kr.sec.subject = "verify_heater", name
	default:
		kr.sec.typ, kr.sec.subject = typ, typ
	}
	if sectionsReported[typ] {
		kr.c.set("klipper.section", typ, hdr, n, quote)
	}
	if typ == "bed_mesh" {
		kr.c.set("leveling.type", "", "bed_mesh", n, quote)
	}
}

func isDigits(s string) bool {
	if s == "" {
		return false
	}
	for i := 0; i < len(s); i++ {
		if s[i] < '0' || s[i] > '9' {
			return false
		}
	}
	return true
}

// stepperSubject turns a stepper's section name into a subject:
// "stepper_x" is "x", "extruder" stays "extruder".
func stepperSubject(name string) string {
	if s, ok := strings.CutPrefix(name, "stepper_"); ok {
		return s
	}
	return name
}

// Options of each section type and the fact key each gives.
var (
	stepperOpts = map[string]string{
		"step_pin": "step_pin", "rotation_distance": "rotation_distance", "microsteps": "microsteps",
		"full_steps_per_rotation": "full_steps_per_rotation", "gear_ratio": "gear_ratio",
	}
	// axisOpts are the options of an axis' stepper, not an extruder's.
	axisOpts = map[string]string{
		"position_endstop": "position_endstop", "position_min": "position_min", "position_max": "position_max",
		"homing_speed": "homing_speed", "homing_positive_dir": "homing_positive_dir",
		"homing_retract_dist": "homing_retract_dist", "second_homing_speed": "second_homing_speed",
	}
	extruderOpts = map[string]string{
		"nozzle_diameter": "nozzle_diameter", "filament_diameter": "filament_diameter",
		"max_extrude_only_distance": "max_extrude_only_distance", "max_extrude_cross_section": "max_extrude_cross_section",
		"max_extrude_only_velocity": "max_extrude_only_velocity", "max_extrude_only_accel": "max_extrude_only_accel",
		"pressure_advance": "pressure_advance", "pressure_advance_smooth_time": "pressure_advance_smooth_time",
		"instantaneous_corner_velocity": "instantaneous_corner_velocity", "min_extrude_temp": "min_extrude_temp",
	}
	heaterOpts = map[string]string{ //nolint:gosec // Klipper option names, no credentials
		"heater_pin": "heater_pin", "sensor_type": "sensor_type", "sensor_pin": "sensor_pin",
		"pullup_resistor": "pullup_resistor", "control": "control", "max_power": "max_power",
		"min_temp": "min_temp", "max_temp": "max_temp", "pwm_cycle_time": "pwm_cycle_time",
		"smooth_time": "smooth_time", "max_delta": "max_delta",
	}
	tmcOpts = map[string]string{
		"run_current": "run_current", "hold_current": "hold_current", "stealthchop_threshold": "stealthchop_threshold",
		"uart_pin": "uart_pin", "tx_pin": "tx_pin", "uart_address": "uart_address", "cs_pin": "cs_pin",
		"diag_pin": "diag_pin", "diag0_pin": "diag_pin", "diag1_pin": "diag_pin",
		"driver_sgthrs": "stallguard_threshold", "driver_sgt": "stallguard_threshold",
		"interpolate": "interpolate", "sense_resistor": "sense_resistor",
	}
	probeOpts = map[string]string{
		"x_offset": "x_offset", "y_offset": "y_offset", "z_offset": "z_offset", "pin": "sensor_pin",
		"sensor_pin": "sensor_pin", "control_pin": "control_pin", "speed": "speed", "lift_speed": "lift_speed",
		"samples": "samples", "sample_retract_dist": "sample_retract_dist", "samples_tolerance": "samples_tolerance",
		"samples_result": "samples_result", "pin_up_touch_mode_reports_triggered": "pin_up_touch_mode_reports_triggered",
		"pin_up_reports_not_triggered": "pin_up_reports_not_triggered", "probe_with_touch_mode": "probe_with_touch_mode",
		"stow_on_each_sample": "stow_on_each_sample", "pin_move_time": "pin_move_time",
	}
	printerOpts = map[string]string{
		"kinematics": "kinematics", "max_velocity": "max_velocity", "max_accel": "max_accel",
		"max_z_velocity": "max_z_velocity", "max_z_accel": "max_z_accel",
		"square_corner_velocity": "square_corner_velocity", "minimum_cruise_ratio": "minimum_cruise_ratio",
		"max_accel_to_decel": "max_accel_to_decel",
	}
	mcuOpts = map[string]string{
		"serial": "serial", "baud": "baud", "restart_method": "restart_method", "canbus_uuid": "canbus_uuid",
	}
	fanOpts = map[string]string{
		"pin": "pin", "max_power": "max_power", "kick_start_time": "kick_start_time", "off_below": "off_below",
		"cycle_time": "cycle_time", "hardware_pwm": "hardware_pwm", "shutdown_speed": "shutdown_speed",
		"heater": "heater", "heater_temp": "heater_temp", "fan_speed": "fan_speed", "stepper": "stepper",
		"idle_timeout": "idle_timeout", "idle_speed": "idle_speed", "enable_pin": "enable_pin",
	}
	sectionOpts = map[string]map[string]string{
		"bed_mesh": {"mesh_min": "mesh_min", "mesh_max": "mesh_max", "probe_count": "probe_count",
			"fade_start": "fade_start", "fade_end": "fade_end", "horizontal_move_z": "horizontal_move_z",
			"mesh_radius": "mesh_radius", "zero_reference_position": "zero_reference_position"},
		"safe_z_home": {"home_xy_position": "home_xy_position", "z_hop": "z_hop", "z_hop_speed": "z_hop_speed",
			"speed": "speed", "move_to_previous": "move_to_previous"},
		"firmware_retraction": {"retract_length": "retract_length", "retract_speed": "retract_speed",
			"unretract_extra_length": "unretract_extra_length", "unretract_speed": "unretract_speed"},
		"filament_sensor": {"switch_pin": "pin", "pause_on_runout": "pause_on_runout",
			"detection_length": "detection_length", "event_delay": "event_delay", "runout_gcode": "runout_gcode"},
		"virtual_sdcard": {"path": "path"},
		"verify_heater": {"check_gain_time": "check_gain_time", "hysteresis": "hysteresis",
			"max_error": "max_error", "heating_gain": "heating_gain"},
		"input_shaper": {"shaper_freq_x": "shaper_freq_x", "shaper_freq_y": "shaper_freq_y",
			"shaper_type": "shaper_type", "shaper_type_x": "shaper_type_x", "shaper_type_y": "shaper_type_y",
			"damping_ratio_x": "damping_ratio_x", "damping_ratio_y": "damping_ratio_y"},
		"idle_timeout":    {"timeout": "timeout"},
		"homing_override": {"axes": "axes", "set_position_z": "set_position_z"},
	}
)

// option reads one option of the current section.
func (kr *klipperReader) option(key, val string, n int, quote string) {
	if hasUpper(key) {
		key = strings.ToLower(key)
	}
	s := kr.sec
	c := kr.c
	switch s.typ {
	case "stepper", "extruder", "extruder_stepper", "manual_stepper":
		pfx := "stepper."
		if s.typ != "stepper" {
			pfx = "extruder."
		}
		if kr.stepperOption(pfx, key, val, n, quote) {
			return
		}
		if s.typ == "extruder" {
			if k, ok := extruderOpts[key]; ok {
				c.set("extruder."+k, s.subject, val, n, quote)
				return
			}
			kr.heaterOption(key, val, n, quote)
		}
	case "heater":
		kr.heaterOption(key, val, n, quote)
	case "tmc":
		if k, ok := tmcOpts[key]; ok {
			c.set("driver."+k, s.subject, val, n, quote)
		}
	case "probe":
		if k, ok := probeOpts[key]; ok {
			c.set("probe."+k, "probe", val, n, quote)
			if k == "z_offset" {
				c.set("probe.trigger_height", "probe", val, n, quote)
			}
		}
	case "printer":
		if k, ok := printerOpts[key]; ok {
			c.set("printer."+k, "", val, n, quote)
		}
	case "mcu":
		if k, ok := mcuOpts[key]; ok {
			c.set("mcu."+k, s.subject, val, n, quote)
		}
	case "fan":
		if k, ok := fanOpts[key]; ok {
			c.set("fan."+k, s.subject, val, n, quote)
		}
	default:
		opts, ok := sectionOpts[s.typ]
		if !ok {
			return
		}
		k, ok := opts[key]
		if !ok {
			return
		}
		subject := s.subject
		if s.typ == "safe_z_home" || s.typ == "bed_mesh" || s.typ == "firmware_retraction" ||
			s.typ == "input_shaper" || s.typ == "idle_timeout" || s.typ == "homing_override" || s.typ == "virtual_sdcard" {
			subject = ""
		}
		if s.typ == "filament_sensor" && k == "runout_gcode" {
			val = "set"
		}
		c.set(s.typ+"."+k, subject, val, n, quote)
		if s.typ == "safe_z_home" && k == "home_xy_position" {
			if x, y, ok := pair(val); ok {
				c.setNum("safe_z_home.x", "", x, n, quote)
				c.setNum("safe_z_home.y", "", y, n, quote)
			}
		}
	}
}

// stepperOption reads the options every stepper has; it reports whether
// the option was one of them.
func (kr *klipperReader) stepperOption(pfx, key, val string, n int, quote string) bool {
	s := kr.sec
	c := kr.c
	switch key {
	case "dir_pin", "enable_pin":
		name := strings.TrimSuffix(key, "_pin")
		c.set(pfx+key, s.subject, val, n, quote)
		_, inverted, _ := pinFlags(val)
		c.setBool(pfx+name+"_inverted", s.subject, inverted, n, quote)
		return true
	case "endstop_pin":
		c.set("endstop.pin", s.subject, val, n, quote)
		pin, inverted, pullup := pinFlags(val)
		c.setBool("endstop.inverted", s.subject, inverted, n, quote)
		c.setBool("endstop.pullup", s.subject, pullup, n, quote)
		typ := "switch"
		switch {
		case strings.HasPrefix(pin, "probe:"):
			typ = "probe"
		case strings.HasPrefix(pin, "tmc") && strings.HasSuffix(pin, ":virtual_endstop"):
			typ = "sensorless"
		}
		c.set("endstop.type", s.subject, typ, n, quote)
		return true
	}
	if k, ok := axisOpts[key]; ok && pfx == "stepper." {
		c.set(pfx+k, s.subject, val, n, quote)
		if sc := kr.stepper(s.subject); sc != nil {
			v, isNum := parseNum(val)
			switch {
			case k == "homing_positive_dir":
				sc.hasDir = true
			case k == "position_endstop" && isNum:
				sc.endstop, sc.hasEndstop, sc.endstopLine, sc.endstopQuote = v, true, n, quote
			case k == "position_min" && isNum:
				sc.min = v
			case k == "position_max" && isNum:
				sc.max, sc.hasMax = v, true
			}
		}
		return true
	}
	k, ok := stepperOpts[key]
	if !ok {
		return false
	}
	c.set(pfx+k, s.subject, val, n, quote)
	sc := kr.stepper(s.subject)
	if sc == nil {
		return true
	}
	switch k {
	case "rotation_distance":
		if v, ok := parseNum(val); ok && v > 0 {
			sc.rotation, sc.hasRot, sc.line, sc.quote = v, true, n, quote
		}
	case "microsteps":
		if v, ok := parseNum(val); ok && v > 0 {
			sc.micro, sc.hasMicro = v, true
		}
	case "full_steps_per_rotation":
		if v, ok := parseNum(val); ok && v > 0 {
			sc.full, sc.hasFull = v, true
		}
	case "gear_ratio":
		if v, ok := gearRatio(val); ok {
			sc.gear, sc.hasGear = v, true
		}
	}
	return true
}

// heaterOption reads the options every heater has.
func (kr *klipperReader) heaterOption(key, val string, n int, quote string) {
	s := kr.sec
	c := kr.c
	switch key {
	case "pid_kp", "pid_ki", "pid_kd":
		c.set("heater."+key, s.subject, val, n, quote)
		v, ok := parseNum(val)
		if !ok {
			return
		}
		h := kr.heater(s.subject)
		if h == nil {
			return
		}
		switch key {
		case "pid_kp":
			h.kp, h.has, h.line, h.quote = v, h.has|1, n, quote
		case "pid_ki":
			h.ki, h.has = v, h.has|2
		case "pid_kd":
			h.kd, h.has = v, h.has|4
		}
		return
	}
	if k, ok := heaterOpts[key]; ok {
		c.set("heater."+k, s.subject, val, n, quote)
	}
}

func (kr *klipperReader) stepper(subject string) *stepperCalc {
	return slot(&kr.steppers, subject, func(s *stepperCalc) string { return s.subject },
		func(n string) stepperCalc { return stepperCalc{subject: n} })
}

func (kr *klipperReader) heater(subject string) *pidCalc {
	return pidSlot(&kr.heaters, subject)
}

func pidSlot(list *[]pidCalc, subject string) *pidCalc {
	return slot(list, subject, func(p *pidCalc) string { return p.subject },
		func(n string) pidCalc { return pidCalc{subject: n} })
}

// finish adds what is computed from several options.
func (kr *klipperReader) finish() {
	for _, sc := range kr.steppers {
		// Klipper infers homing_positive_dir when it is not given: toward
		// max when position_endstop lies in the top quarter of the axis,
		// toward min in the bottom quarter (klippy/stepper.py).
		if sc.hasEndstop && sc.hasMax && !sc.hasDir && sc.max > sc.min {
			quarter := (sc.max - sc.min) / 4
			switch {
			case sc.endstop <= sc.min+quarter:
				kr.c.setBool("stepper.homing_positive_dir", sc.subject, false, sc.endstopLine, sc.endstopQuote)
			case sc.endstop >= sc.max-quarter:
				kr.c.setBool("stepper.homing_positive_dir", sc.subject, true, sc.endstopLine, sc.endstopQuote)
			}
		}
		if !sc.hasRot || !sc.hasMicro {
			continue
		}
		full, gear := 200.0, 1.0
		if sc.hasFull {
			full = sc.full
		}
		if sc.hasGear {
			gear = sc.gear
		}
		key := "stepper.steps_per_mm"
		if isExtruderSubject(sc.subject) {
			key = "extruder.steps_per_mm"
		}
		kr.c.setNum(key, sc.subject, round4(full*sc.micro*gear/sc.rotation), sc.line, sc.quote)
	}
	for _, h := range kr.heaters {
		if h.has == 7 {
			kr.c.setBool("pid.tuned", h.subject, !stockPID(h.kp, h.ki, h.kd), h.line, h.quote)
		}
	}
}

// isExtruderSubject reports whether a subject names an extruder.
func isExtruderSubject(s string) bool {
	return strings.HasPrefix(s, "extruder")
}

// pinFlags reads Klipper's pin modifiers: "^" pull-up, "~" pull-down, "!"
// inverted, in any order before the pin.
func pinFlags(v string) (pin string, inverted, pullup bool) {
	for v != "" {
		switch v[0] {
		case '!':
			inverted = !inverted
		case '^':
			pullup = true
		case '~', ' ':
		default:
			return v, inverted, pullup
		}
		v = v[1:]
	}
	return v, inverted, pullup
}

// gearRatio multiplies a list of "a:b" ratios ("57:11, 2:1").
func gearRatio(v string) (float64, bool) {
	r := 1.0
	n := 0
	for part := range strings.SplitSeq(v, ",") {
		a, b, ok := strings.Cut(strings.TrimSpace(part), ":")
		if !ok {
			return 0, false
		}
		x, ok1 := parseNum(strings.TrimSpace(a))
		y, ok2 := parseNum(strings.TrimSpace(b))
		if !ok1 || !ok2 || x <= 0 || y <= 0 {
			return 0, false
		}
		r *= x / y
		if n++; n > 8 {
			return 0, false
		}
	}
	return r, n > 0
}

// pair reads "x, y".
func pair(v string) (float64, float64, bool) {
	a, b, ok := strings.Cut(v, ",")
	if !ok {
		return 0, 0, false
	}
	x, ok1 := parseNum(strings.TrimSpace(a))
	y, ok2 := parseNum(strings.TrimSpace(b))
	return x, y, ok1 && ok2
}

func hasUpper(s string) bool {
	for i := 0; i < len(s); i++ {
		if s[i] >= 'A' && s[i] <= 'Z' {
			return true
		}
	}
	return false
}

func round4(v float64) float64 {
	if v > 1e12 || v < -1e12 {
		return v
	}
	return float64(int64(v*10000+copysignHalf(v))) / 10000
}

func copysignHalf(v float64) float64 {
	if v < 0 {
		return -0.5
	}
	return 0.5
}

// isKlipperSection reports whether a section's first word is one Klipper
// knows (used to recognise a config).
func isKlipperSection(typ string) bool {
	switch {
	case strings.HasPrefix(typ, "stepper_"), strings.HasPrefix(typ, "extruder"), tmcDrivers[typ],
		probeSections[typ], fanSections[typ], sectionsReported[typ]:
		return true
	}
	switch typ {
	case "printer", "mcu", "heater_bed", "heater_generic", "include", "gcode_macro", "board_pins",
		"temperature_sensor", "output_pin", "neopixel", "led", "delayed_gcode", "static_digital_output",
		"multi_pin", "manual_stepper", "servo", "gcode_button", "menu", "mcp4018", "ad5206":
		return true
	}
	return false
}

// klipperKnownOption reports whether an option name is a common Klipper one.
func klipperKnownOption(k string) bool {
	if _, ok := stepperOpts[k]; ok {
		return true
	}
	if _, ok := axisOpts[k]; ok {
		return true
	}
	if _, ok := heaterOpts[k]; ok {
		return true
	}
	if _, ok := tmcOpts[k]; ok {
		return true
	}
	switch k {
	case "dir_pin", "enable_pin", "endstop_pin", "serial", "restart_method", "nozzle_diameter",
		"filament_diameter", "pid_Kp", "pid_Ki", "pid_Kd", "pid_kp", "pid_ki", "pid_kd", "kinematics",
		"max_velocity", "max_accel", "max_z_velocity", "gcode", "x_offset", "y_offset", "z_offset":
		return true
	}
	return false
}

// maxMacroParams bounds the parameters read from one macro.
const maxMacroParams = 16

// macroParamsOf reads the parameters a macro's template takes
// ("{% set BED = params.BED_TEMP|default(60)|float %}", params['HOTEND']):
// Klipper passes "PRINT_START BED_TEMP=60" to the template as
// params.BED_TEMP, upper case. klipper.macro_params lists them.
func (kr *klipperReader) macroParamsOf(line string, n int, quote string) {
	added := false
	for rest := line; len(kr.macroParams) < maxMacroParams; {
		i := strings.Index(rest, "params")
		if i < 0 {
			break
		}
		rest = rest[i+len("params"):]
		if i > 0 && isIdentByte(line[len(line)-len(rest)-len("params")-1]) {
			continue // rawparams, my_params
		}
		var name string
		switch {
		case strings.HasPrefix(rest, "."):
			name = identPrefix(rest[1:])
		case strings.HasPrefix(rest, "['"), strings.HasPrefix(rest, "[\""):
			name = identPrefix(rest[2:])
		}
		name = strings.ToUpper(name)
		if name == "" || len(name) > 40 || slices.Contains(kr.macroParams, name) {
			continue
		}
		kr.macroParams = append(kr.macroParams, name)
		added = true
	}
	if added {
		kr.c.set("klipper.macro_params", strings.ToUpper(kr.sec.subject), strings.Join(kr.macroParams, " "), n, quote)
	}
}

func isIdentByte(b byte) bool {
	return b == '_' || b >= 'a' && b <= 'z' || b >= 'A' && b <= 'Z' || b >= '0' && b <= '9'
}

// identPrefix is the identifier s starts with.
func identPrefix(s string) string {
	i := 0
	for i < len(s) && isIdentByte(s[i]) {
		i++
	}
	return s[:i]
}
