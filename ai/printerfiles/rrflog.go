package printerfiles

import (
	"strconv"
	"strings"
)

type rrfLog struct {
	c     *collector
	sh    *shared
	info  fwInfo
	temps heaterTracks
}

// readRRFLog reads an M122 report or a Duet Web Control console.
func readRRFLog(c *collector, text string, sh *shared) fwInfo {
	rl := &rrfLog{c: c, sh: sh, info: fwInfo{firmware: "RepRapFirmware"}}
	for n, raw := range eachLine(text) {
		rl.line(raw, n)
	}
	rl.temps.emit(c)
	return rl.info
}

// rrfMessages are RepRapFirmware's messages read by their start alone
// (src/GCodes/GCodes4.cpp, Platform.cpp, Event.cpp).
var rrfMessages = newMessageTable([]message{
	{"Probe was not triggered", "error.homing_no_trigger", "probe", 'm'},
	{"Probe already triggered", "error.probe_triggered_prior_to_movement", "probe", 'm'},
	{"VIN under-voltage event", "error.undervoltage", "vin", 'm'},
	{"12V under-voltage event", "error.undervoltage", "v12", 'm'},
	{"MCU temperature warning", "warning.mcu_temperature", "mcu", 'm'},
	{"Attempting to extrude with no tool selected", "error.no_tool", "", 'm'},
})

func (rl *rrfLog) heater(n string) string {
	h, err := strconv.Atoi(n)
	if err != nil || h < 0 || h > 64 {
		return "heater" + cutUTF8(n, 8)
	}
	if s, ok := rl.sh.rrfHeaters[h]; ok {
		return s
	}
	return heaterSubject(h, -1, -1, nil)
}

func (rl *rrfLog) driver(id string) string {
	return rrfDriverSubject(id, rl.sh.rrfDrivers)
}

func (rl *rrfLog) line(raw string, n int) {
	t := strings.TrimSpace(raw)
	if len(t) < minLine {
		return
	}
	u, dir := hostLine(t)
	switch dir {
	case 's':
		return // a command a host sent, not the firmware's answer
	case 0:
		u = stripTimestamp(t)
	}
	c := rl.c
	msg := u
	isError := false
	if rest, ok := strings.CutPrefix(msg, "Error:"); ok {
		msg, isError = strings.TrimSpace(rest), true
	} else if rest, ok := strings.CutPrefix(msg, "Warning:"); ok {
		msg = strings.TrimSpace(rest)
	}
	// An error of a command starts with it: "Error: G30: Probe was not triggered..."
	cmd := ""
	if c0, rest, ok := strings.Cut(msg, ": "); ok && len(c0) <= 5 && len(c0) >= 2 && (c0[0] == 'G' || c0[0] == 'M') && isDigits(c0[1:]) {
		cmd, msg = c0, rest
	}
	if cmd != "" && (strings.Contains(msg, "no longer supported") || strings.Contains(msg, "not supported") || strings.HasPrefix(msg, "Unknown command") || strings.HasPrefix(msg, "unknown command")) {
		// "Error: M667: M667 is no longer supported - use M669 instead"
		rl.c.event("error.unknown_command", cmd, msg, n, raw)
		return
	}
	if rest, ok := strings.CutPrefix(msg, "Macro file "); ok && strings.HasSuffix(rest, " not found") {
		// a system macro the firmware runs (pause.g for M600/M226, homeall.g for G28) is missing
		rl.c.event("warning.macro_missing", cutUTF8(strings.TrimSuffix(rest, " not found"), 40), msg, n, raw)
		return
	}
	if msg == "" || readMessage(c, rrfMessages, msg, n, raw) {
		return
	}
	if strings.Contains(msg, " was not driven because its heater temperatures were not high enough") {
		c.event("error.extrude_below_min_temp", "extruder", msg, n, raw)
		return
	}
	switch msg[0] {
	case 'R':
		if strings.HasPrefix(msg, "RepRapFirmware for ") {
			rl.version(msg, n, raw)
			return
		}
	case 'F':
		if strings.HasPrefix(msg, "FIRMWARE_NAME:") {
			if v, ok := after(msg, "FIRMWARE_VERSION:"); ok {
				rl.setVersion(firstWord(strings.TrimSpace(v)), n, raw)
			}
			if v, ok := after(msg, "ELECTRONICS:"); ok {
				c.set("firmware.board", "", strings.TrimSpace(v), n, raw)
			}
			return
		}
		if rest, ok := strings.CutPrefix(msg, "Filament error on extruder "); ok {
			e, what, _ := strings.Cut(rest, ": ")
			c.event("event.filament_error", extruderSubject(e), what, n, raw)
			return
		}
	case 'L':
		if v, ok := after(msg, ", cause: "); ok && strings.HasPrefix(msg, "Last reset ") {
			c.set("mcu.reset_cause", "", v, n, raw)
			return
		}
	case 'M':
		if rest, ok := strings.CutPrefix(msg, "MCU temperature: "); ok {
			if v, ok := minCurMax(rest, "max "); ok {
				c.setNum("mcu.temperature_max", "mcu", v, n, raw)
			}
			return
		}
	case 'S':
		if rest, ok := strings.CutPrefix(msg, "Supply voltage: "); ok {
			rl.voltage("vin", rest, n, raw)
			return
		}
		if strings.HasPrefix(msg, "Sensor ") && strings.Contains(msg, "last error: ") {
			rl.sensorReply(msg, n, raw)
			return
		}
	case '1':
		if rest, ok := strings.CutPrefix(msg, "12V rail voltage: "); ok {
			rl.voltage("v12", rest, n, raw)
			return
		}
	case 'D':
		if rest, ok := strings.CutPrefix(msg, "Driver "); ok {
			rl.driverLine(rest, n, raw)
			return
		}
	case 'H':
		if rest, ok := strings.CutPrefix(msg, "Heater "); ok {
			rl.heaterLine(rest, isError, n, raw)
			return
		}
		if rest, ok := strings.CutPrefix(msg, "Heating fault on heater "); ok {
			h, what, _ := strings.Cut(rest, ",")
			rl.heaterFault(rl.heater(h), strings.TrimSpace(what), n, raw)
			return
		}
	case 'T':
		if rest, ok := strings.CutPrefix(msg, "Temperature reading fault on heater "); ok {
			h, what, _ := strings.Cut(rest, ": ")
			c.event("error.sensor_fault", rl.heater(h), what, n, raw)
			return
		}
	case 'B':
		if v, ok := strings.CutPrefix(msg, "Bad command: "); ok {
			c.event("error.unknown_command", firstWord(strings.TrimSpace(v)), msg, n, raw)
			return
		}
	}
	switch {
	case strings.Contains(msg, " reported by driver(s)"):
		what, ids, _ := strings.Cut(msg, " reported by driver(s)")
		count := 0
		for id := range strings.FieldsSeq(ids) {
			if count++; count > 16 {
				break
			}
			rl.driverFlags(rl.driver(id), what, n, raw)
		}
	case strings.Contains(msg, "nsufficient axes homed"):
		c.event("error.must_home_first", "", msg, n, raw)
	case strings.Contains(msg, "outside machine limits"):
		c.event("error.move_out_of_range", "", msg, n, raw)
	case strings.HasPrefix(msg, "T:") || strings.HasPrefix(msg, "ok T:"):
		rl.temps.tempReport(msg, n, raw)
	case strings.Contains(msg, "bed compensation in use: ") || strings.Contains(msg, "bed comp in use: "):
		// M122's Move section: up to 3.4 "DMs created 83, ..., bed compensation
		// in use: none, ...", from 3.5 "Segments created 3, maxWait 0ms, bed comp
		// in use: none, height map offset 0.000, hiccups added 0/0 (0.00/0.00ms), ..."
		v, ok := after(msg, "bed compensation in use: ")
		if !ok {
			v, _ = after(msg, "bed comp in use: ")
		}
		if v, _, _ = strings.Cut(v, ","); v != "" {
			c.setBool("leveling.enabled", "", v != "none", n, raw)
		}
		if h, ok := after(msg, "hiccups added "); ok {
			rl.hiccups(h, n, raw)
		}
	case strings.HasPrefix(msg, "Scheduled moves ") || strings.HasPrefix(msg, "Hiccups: "):
		// M122's step generation: "hiccups 27" counts steps delayed because the step rate was too high
		if v, ok := after(strings.ToLower(msg), "hiccups"); ok {
			rl.hiccups(strings.TrimLeft(v, ": "), n, raw)
		}
	}
}

// hiccups reads a count of step hiccups, "1834" or 3.5's "12/3" (while
// preparing / in the step interrupt): steps delayed because the step rate
// was too high.
func (rl *rrfLog) hiccups(v string, n int, quote string) {
	h, rest, ok := leadingNum(v)
	if !ok {
		return
	}
	if more, ok := strings.CutPrefix(rest, "/"); ok {
		if h2, _, ok := leadingNum(more); ok {
			h += h2
		}
	}
	if h > 0 {
		rl.c.event("warning.steprate_too_high", "", "hiccups "+strconv.FormatFloat(h, 'f', -1, 64), n, quote)
	}
}

// version reads "RepRapFirmware for Duet 3 Mini 5+ version 3.4.5
// (2022-11-30 19:36:38) running on Duet 3 Mini5plus WiFi (standalone mode)".
func (rl *rrfLog) version(msg string, n int, quote string) {
	if v, ok := after(msg, " version "); ok {
		rl.setVersion(firstWord(v), n, quote)
	}
	if b, ok := after(msg, " running on "); ok {
		if i := strings.Index(b, " ("); i >= 0 {
			b = b[:i]
		}
		rl.c.set("firmware.board", "", strings.TrimSpace(b), n, quote)
	}
}

func (rl *rrfLog) setVersion(v string, n int, quote string) {
	if v == "" {
		return
	}
	rl.info.version = cutUTF8(v, 60)
	rl.c.set("firmware.name", "", "RepRapFirmware", n, quote)
	rl.c.set("firmware.version", "", v, n, quote)
}

// minCurMax reads "min 31.6, current 42.3, max 57.7" and returns the field
// named by label.
func minCurMax(s, label string) (float64, bool) {
	v, ok := after(s, label)
	if !ok {
		return 0, false
	}
	x, _, ok := leadingNum(v)
	return x, ok
}

// voltage reads "min 23.9, current 24.1, max 24.3, under voltage events: 0, ...".
func (rl *rrfLog) voltage(rail, s string, n int, quote string) {
	c := rl.c
	if v, ok := minCurMax(s, "min "); ok {
		c.setNum("power."+rail+"_min", rail, v, n, quote)
	}
	if v, ok := minCurMax(s, "max "); ok {
		c.setNum("power."+rail+"_max", rail, v, n, quote)
	}
	if v, ok := minCurMax(s, "under voltage events: "); ok {
		c.setNum("power.undervoltage_events", rail, v, n, quote)
	}
	if v, ok := minCurMax(s, "over voltage events: "); ok {
		c.setNum("power.overvoltage_events", rail, v, n, quote)
	}
}

// driverLine reads "0: standstill, SG min 0, ...", "0 error: phase A short
// to ground", "2 stalled at Z height 1.20".
func (rl *rrfLog) driverLine(rest string, n int, quote string) {
	id, what, ok := strings.Cut(rest, ":")
	if !ok {
		id = firstWord(rest)
		what = rest[len(id):]
	}
	id = strings.TrimSpace(id)
	kind := ""
	if i := strings.IndexByte(id, ' '); i >= 0 {
		id, kind = id[:i], strings.TrimSpace(id[i+1:])
	}
	if id == "" || len(id) > 8 {
		return
	}
	subject := rl.driver(id)
	what = strings.TrimSpace(what)
	switch {
	case strings.HasPrefix(kind, "stall") || strings.HasPrefix(what, "stall"):
		rl.c.event("warning.driver_stall", subject, strings.TrimSpace(kind+" "+what), n, quote)
		return
	case kind == "error" || kind == "warning":
		rl.driverFlags(subject, what, n, quote)
		return
	case kind != "":
		return
	}
	// M122: the states come first, then fields with numbers.
	var states []string
	for item := range strings.SplitSeq(what, ",") {
		item = strings.TrimSpace(item)
		if item == "" || len(states) == 8 {
			continue
		}
		word := item
		if i := strings.IndexAny(item, "0123456789"); i >= 0 {
			word = strings.TrimSpace(item[:i])
			if word != "standstill" && word != "ok" {
				continue
			}
		}
		if isDriverState(word) {
			states = append(states, word)
		}
	}
	if len(states) == 0 {
		return
	}
	status := strings.Join(states, ", ")
	rl.c.set("driver.status", subject, status, n, quote)
	rl.driverFlags(subject, status, n, quote)
}

func isDriverState(w string) bool {
	switch w {
	case "ok", "standstill", "stalled", "short-to-ground", "open-load", "open-load-A", "open-load-B",
		"over temperature", "over temperature warning", "over temperature shutdown", "temperature-warning",
		"temperature-shutdown", "not present", "external driver error", "position tolerance exceeded",
		"failed to maintain position", "not tuned", "not tuned/calibrated", "tuning failed",
		"tuning/calibration failed", "phase A short to ground", "phase B short to ground",
		"phase A short to Vin", "phase B short to Vin", "phase A may be disconnected",
		"phase B may be disconnected", "stepFail":
		return true
	}
	return false
}

// rrfDriverStates maps the words of a driver's state to keys.
var rrfDriverStates = []struct{ text, key string }{
	{"short to ground", "error.driver_short_to_ground"}, {"short-to-ground", "error.driver_short_to_ground"},
	{"short to Vin", "error.driver_short_to_supply"},
	{"may be disconnected", "error.driver_open_load"}, {"open-load", "error.driver_open_load"},
	{"open load", "error.driver_open_load"},
	{"over temperature warning", "warning.driver_over_temperature"}, {"temperature-warning", "warning.driver_over_temperature"},
	{"over temperature shutdown", "error.driver_over_temperature"}, {"temperature-shutdown", "error.driver_over_temperature"},
	{"stalled", "warning.driver_stall"}, {"external driver error", "error.driver_fault"},
	{"position tolerance exceeded", "error.driver_position"}, {"failed to maintain position", "error.driver_position"},
}

func (rl *rrfLog) driverFlags(subject, what string, n int, quote string) {
	for _, s := range rrfDriverStates {
		if strings.Contains(what, s.text) {
			rl.c.event(s.key, subject, strings.TrimSpace(what), n, quote)
		}
	}
	if strings.Contains(what, "over temperature") && !strings.Contains(what, "warning") && !strings.Contains(what, "shutdown") {
		rl.c.event("error.driver_over_temperature", subject, strings.TrimSpace(what), n, quote)
	}
}

// heaterLine reads "1 fault: temperature rising too slowly: ...", "1 model:
// heating rate 2.429, ..., dead time 5.50, max PWM 1.00, ..., mode PID",
// "1 not switched on due to temperature fault".
func (rl *rrfLog) heaterLine(rest string, isError bool, n int, quote string) {
	h, what, ok := strings.Cut(rest, " ")
	if !ok {
		return
	}
	subject := rl.heater(h)
	c := rl.c
	switch {
	case strings.HasPrefix(what, "fault: "):
		rl.heaterFault(subject, what[len("fault: "):], n, quote)
	case strings.HasPrefix(what, "model: "):
		m := what[len("model: "):]
		if v, ok := minCurMax(m, "heating rate "); ok {
			c.setNum("heater.model_heating_rate", subject, v, n, quote)
		}
		if v, ok := minCurMax(m, "dead time "); ok {
			c.setNum("heater.model_dead_time", subject, v, n, quote)
		}
		if v, ok := minCurMax(m, "max PWM "); ok {
			c.setNum("heater.max_power", subject, v, n, quote)
		}
		if v, ok := after(m, "mode "); ok {
			mode := strings.ToLower(firstWord(strings.TrimRight(v, ",")))
			if mode == "bang-bang" || mode == "pid" {
				c.set("heater.control", subject, mode, n, quote)
			}
		}
	case strings.HasPrefix(what, "appears to be over-powered"):
		c.event("warning.heater_overpowered", subject, what, n, quote)
	case strings.HasPrefix(what, "not switched on due to"):
		c.event("error.heater_fault", subject, what, n, quote)
	case isError:
		c.event("error.heater_fault", subject, what, n, quote)
	}
}

// heaterFault reads what follows "Heater 1 fault: " (HeaterFaultText).
func (rl *rrfLog) heaterFault(subject, what string, n int, quote string) {
	key := "error.heater_fault"
	switch {
	case strings.Contains(what, "rising too slowly") || strings.Contains(what, "rising much more slowly"):
		key = "error.heater_not_heating"
	case strings.Contains(what, "exceeded allowed"):
		key = "error.thermal_runaway"
	case strings.Contains(what, "failed to read sensor"):
		key = "error.sensor_fault"
	}
	rl.c.event(key, subject, what, n, quote)
}

// sensorReply reads an M308 answer: "Sensor 1 type Thermistor using pin
// e1temp, last error: open circuit, reading 2000.0, ...".
func (rl *rrfLog) sensorReply(msg string, n int, quote string) {
	num := firstWord(msg[len("Sensor "):])
	lastErr, _ := after(msg, "last error: ")
	lastErr, _, _ = strings.Cut(lastErr, ",")
	lastErr = strings.TrimSpace(lastErr)
	if lastErr == "" || lastErr == "success" {
		return
	}
	rl.c.event("error.sensor_fault", rl.heater(num), lastErr, n, quote)
}
