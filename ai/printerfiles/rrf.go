package printerfiles

import (
	"iter"
	"strconv"
	"strings"
)

// RepRapFirmware's config.g is a list of G-code commands, one a line, ';'
// starting a comment outside quotes. Drivers are mapped to axes by M584
// (default 0 X, 1 Y, 2 Z, 3 E0); M569 sets a driver's direction (S0
// backwards) and mode; M350, M92, M906, M566/M203 (mm/min), M201 set
// microsteps, steps/mm, currents (mA), jerk, speed and acceleration per
// axis; M558/G31 the probe; M308 (M305 before 3.0) a sensor, M950 a heater,
// fan or servo pin, M307 a heater's model, M143 its limit, M140/M141 the
// bed and chamber heaters, M563 a tool's heaters; M574 the endstops, M591 a
// filament monitor, M572 pressure advance, M106 a fan's thermostatic control.
//
// The M122 report and the Duet Web Control console are read as the firmware
// prints them (src/Platform/Platform.cpp, Event.cpp): "RepRapFirmware for
// Duet 3 Mini 5+ version 3.4.5 (...) running on ...", "Supply voltage: min
// 23.9, current 24.1, max 24.3, ...", "Driver 0: standstill, SG min 0, ...",
// with the driver states of StandardDriverStatus ("phase A short to ground",
// "phase B may be disconnected", "over temperature shutdown", "stalled");
// "Error: short-to-ground reported by driver(s) 0 1"; "Error: Heater 1
// fault: temperature rising too slowly: expected 3.62°C/sec measured 0.58°C/sec".

// rrfConfig gathers what needs the whole file before it can be reported.
type rrfConfig struct {
	c        *collector
	drivers  map[string]string // driver id ("0.1", "3") to subject
	dirs     []rrfDriverDir
	heaters  map[int]*rrfHeater
	sensors  map[int]*rrfSensor
	bed      int
	chamber  int
	tools    map[int]int // heater to tool number
	m501     bool
	commands int
	// steps is each axis's last M92 with the microstepping in effect then,
	// micro the microstepping of the last M350 (16 until one is given).
	steps map[string]rrfSteps
	micro map[string]float64
}

// rrfSteps is an M92 value and the microstepping it was given at:
// RepRapFirmware scales steps per mm by new/old when a later M350 changes
// the microstepping.
type rrfSteps struct {
	value, micro float64
	line         int
	quote        string
}

type rrfDriverDir struct {
	id        string
	backwards bool
	mode      string
	line      int
	quote     string
}

type rrfHeater struct {
	sensor                    int
	pin                       string
	pinLine, modelLine        int
	pinQuote, modelQuote      string
	control                   string
	maxPower, rate, dead      string
	maxTemp                   string
	limitLine                 int
	limitQuote                string
	faultTime, faultExcursion string
	faultLine                 int
	faultQuote                string
}

type rrfSensor struct {
	typ, pin string
	line     int
	quote    string
}

// rrfParams splits "M308 S1 P\"temp1\" Y\"thermistor\" T100000" after its
// command; quoted values keep their text without quotes.
func rrfParams(s string, out []param) []param {
	out = out[:0]
	i := 0
	for i < len(s) && len(out) < cap(out) {
		for i < len(s) && (s[i] == ' ' || s[i] == '\t') {
			i++
		}
		if i >= len(s) || s[i] == ';' {
			break
		}
		letter := s[i]
		if letter >= 'a' && letter <= 'z' {
			letter -= 'a' - 'A'
		}
		i++
		start := i
		if i < len(s) && s[i] == '"' {
			i++
			start = i
			for i < len(s) && s[i] != '"' {
				i++
			}
			v := s[start:i]
			if i < len(s) {
				i++
			}
			if letter >= 'A' && letter <= 'Z' {
				out = append(out, param{letter, v})
			}
			continue
		}
		for i < len(s) && s[i] != ' ' && s[i] != '\t' && s[i] != ';' {
			i++
		}
		if letter >= 'A' && letter <= 'Z' {
			out = append(out, param{letter, s[start:i]})
		}
	}
	return out
}

// rrfCommand splits a config.g line into its command, in capitals (the
// firmware reads "m569" as "M569"), and its parameters text.
func rrfCommand(t string) (string, string) {
	if len(t) < 2 || !strings.ContainsRune("MGTmgt", rune(t[0])) {
		return "", ""
	}
	w := firstWord(t)
	if len(w) > 6 || !isDigits(w[1:]) {
		return "", ""
	}
	if w[0] >= 'a' {
		return lowerRRFCommands[w], t[len(w):] // unknown ones are read as nothing
	}
	return w, t[len(w):]
}

// lowerRRFCommands maps the commands the readers know, in lower case, to
// their capitals (without allocating for each line).
var lowerRRFCommands = func() map[string]string {
	m := map[string]string{}
	for _, c := range strings.Fields("M584 M569 M350 M92 M906 M566 M203 M201 M204 M208 M574 M558 G31 M308 M305 M950 " +
		"M307 M143 M570 M140 M141 M563 M572 M591 M106 M669 M550 M557 M376 M501 M98 M915 M918 M575 M671 M667 G10 T0 T1") {
		m[strings.ToLower(c)] = c
	}
	return m
}()

// readRRFConfig reads a config.g or config-override.g.
func readRRFConfig(c *collector, text string, sh *shared) fwInfo {
	rc := &rrfConfig{c: c, drivers: map[string]string{}, heaters: map[int]*rrfHeater{},
		sensors: map[int]*rrfSensor{}, bed: -1, chamber: -1, tools: map[int]int{}}
	var buf [24]param
	for n, raw := range eachLine(text) {
		t := strings.TrimSpace(raw)
		cmd, rest := rrfCommand(t)
		if cmd == "" {
			continue
		}
		rc.commands++
		rc.command(cmd, rrfParams(rest, buf[:0]), n, raw)
	}
	rc.finish(sh)
	return fwInfo{firmware: "RepRapFirmware"}
}

// rrfAxis is the subject of an axis letter.
func rrfAxis(letter byte) string {
	switch letter {
	case 'X', 'Y', 'Z', 'U', 'V', 'W', 'A', 'B', 'C':
		return string(rune(letter - 'A' + 'a'))
	}
	return ""
}

func (rc *rrfConfig) command(cmd string, ps []param, n int, quote string) {
	c := rc.c
	get := func(letter byte) (string, bool) {
		for _, p := range ps {
			if p.letter == letter {
				return p.value, true
			}
		}
		return "", false
	}
	num := func(letter byte) (float64, bool) {
		v, ok := get(letter)
		if !ok {
			return 0, false
		}
		return parseNum(v)
	}
	// perAxis reports X/Y/Z and E (colon lists per extruder) scaled.
	perAxis := func(key string, scale float64) {
		for _, p := range ps {
			if p.letter == 'E' {
				i := 0
				for part := range strings.SplitSeq(p.value, ":") {
					if v, ok := parseNum(part); ok && i < 8 {
						s := extruderSubject(strconv.Itoa(i))
						c.setNum("extruder."+key, s, round4(v*scale), n, quote)
					}
					i++
				}
				continue
			}
			if s := rrfAxis(p.letter); s != "" {
				first, _, _ := strings.Cut(p.value, ":")
				if v, ok := parseNum(first); ok {
					c.setNum("stepper."+key, s, round4(v*scale), n, quote)
				}
			}
		}
	}
	switch cmd {
	case "M584":
		for _, p := range ps {
			subject := rrfAxis(p.letter)
			for i, id := range strings.Split(p.value, ":") {
				if i >= 8 || len(rc.drivers) >= 32 {
					break
				}
				switch {
				case p.letter == 'E':
					rc.drivers[id] = extruderSubject(strconv.Itoa(i))
				case subject != "" && i == 0:
					rc.drivers[id] = subject
				case subject != "":
					rc.drivers[id] = subject + strconv.Itoa(i+1)
				}
			}
		}
	case "M569":
		id, ok := get('P')
		if !ok || len(rc.dirs) >= 32 {
			return
		}
		d := rrfDriverDir{id: id, line: n, quote: quote}
		if s, ok := num('S'); ok {
			d.backwards = s == 0
		} else {
			d.backwards = false
		}
		if m, ok := get('D'); ok {
			d.mode = rrfDriverModes[m]
		}
		rc.dirs = append(rc.dirs, d)
	case "M350":
		perAxis("microsteps", 1)
		rc.rescaleSteps(ps, n, quote)
		if v, ok := get('I'); ok {
			c.setBool("driver.interpolate", "", v == "1", n, quote)
		}
	case "M92":
		perAxis("steps_per_mm", 1)
		rc.noteSteps(ps, n, quote)
	case "M906":
		for _, p := range ps {
			if p.letter == 'I' {
				c.set("driver.idle_factor", "", p.value, n, quote)
			}
		}
		rc.driverAxis("driver.run_current", ps, 0.001, n, quote)
	case "M566":
		perAxis("jerk", 1.0/60)
	case "M203":
		perAxis("max_velocity", 1.0/60)
	case "M201":
		perAxis("max_accel", 1)
	case "M204":
		if v, ok := num('P'); ok {
			c.setNum("printer.max_accel", "", v, n, quote)
		}
		if v, ok := num('T'); ok {
			c.setNum("printer.travel_accel", "", v, n, quote)
		}
	case "M208":
		key := "stepper.position_max"
		if s, ok := num('S'); ok && s == 1 {
			key = "stepper.position_min"
		}
		for _, p := range ps {
			s := rrfAxis(p.letter)
			if s == "" {
				continue
			}
			if lo, hi, ok := strings.Cut(p.value, ":"); ok {
				if v, ok := parseNum(lo); ok {
					c.setNum("stepper.position_min", s, v, n, quote)
				}
				if v, ok := parseNum(hi); ok {
					c.setNum("stepper.position_max", s, v, n, quote)
				}
				continue
			}
			if v, ok := parseNum(p.value); ok {
				c.setNum(key, s, v, n, quote)
			}
		}
	case "M574":
		typ := ""
		if s, ok := get('S'); ok {
			typ = rrfEndstopTypes[s]
		}
		pin, hasPin := get('P')
		for _, p := range ps {
			s := rrfAxis(p.letter)
			if s == "" {
				continue
			}
			switch p.value {
			case "1":
				c.set("endstop.position", s, "min", n, quote)
			case "2":
				c.set("endstop.position", s, "max", n, quote)
			}
			if typ != "" {
				c.set("endstop.type", s, typ, n, quote)
			}
			if hasPin {
				c.set("endstop.pin", s, pin, n, quote)
				c.setBool("endstop.inverted", s, strings.Contains(pin, "!"), n, quote)
			}
		}
	case "M558":
		if v, ok := get('P'); ok {
			c.set("probe.type", "probe", rrfProbeType(v), n, quote)
		}
		c.setLetters(ps, rrfM558, "probe", n, quote)
		if f, ok := get('F'); ok {
			// mm/min; "F600:120" is the fast first dive, then the slow probe
			parts := strings.Split(f, ":")
			if v, ok := parseNum(parts[len(parts)-1]); ok {
				c.setNum("probe.speed", "probe", round4(v/60), n, quote)
			}
		}
	case "G31":
		// RepRapFirmware's Z is the trigger height, as Klipper's z_offset.
		c.setLetters(ps, rrfG31, "probe", n, quote)
		if z, ok := get('Z'); ok {
			c.set("probe.trigger_height", "probe", z, n, quote)
		}
	case "M308":
		s, ok := num('S')
		if !ok || s < 0 || s > 64 {
			return
		}
		sen := rc.sensor(int(s))
		if sen == nil {
			return
		}
		if y, ok := get('Y'); ok {
			sen.typ = thermistorDesc(y, get)
		}
		if p, ok := get('P'); ok {
			sen.pin = p
		}
		sen.line, sen.quote = n, quote
	case "M305": // RepRapFirmware 2: the heater's own sensor
		h, ok := num('P')
		if !ok || h < 0 || h > 64 {
			return
		}
		sen := rc.sensor(int(h))
		if sen == nil {
			return
		}
		sen.typ = thermistorDesc("thermistor", get)
		if x, ok := get('X'); ok {
			sen.typ, sen.pin = "channel "+x, x
		}
		sen.line, sen.quote = n, quote
	case "M950":
		if h, ok := num('H'); ok {
			if ht := rc.heater(int(h)); ht != nil {
				if p, ok := get('C'); ok {
					ht.pin, ht.pinLine, ht.pinQuote = p, n, quote
				}
				if t, ok := num('T'); ok {
					ht.sensor = int(t)
				}
			}
			return
		}
		if f, ok := get('F'); ok {
			if p, ok := get('C'); ok {
				c.set("fan.pin", "fan"+f, p, n, quote)
			}
			return
		}
		if s, ok := get('S'); ok {
			if p, ok := get('C'); ok {
				c.set("servo.pin", "servo"+s, p, n, quote)
			}
		}
	case "M307":
		h, ok := num('H')
		if !ok {
			return
		}
		ht := rc.heater(int(h))
		if ht == nil {
			return
		}
		if b, ok := get('B'); ok {
			ht.control = "pid"
			if b == "1" {
				ht.control = "bang-bang"
			}
		}
		if s, ok := get('S'); ok {
			ht.maxPower = s
		}
		if r, ok := get('R'); ok {
			ht.rate = r
		}
		if d, ok := get('D'); ok {
			ht.dead = d
		}
		ht.modelLine, ht.modelQuote = n, quote
	case "M143":
		h := 1.0
		if v, ok := num('H'); ok {
			h = v
		}
		if ht := rc.heater(int(h)); ht != nil {
			if s, ok := get('S'); ok {
				ht.maxTemp, ht.limitLine, ht.limitQuote = s, n, quote
			}
		}
	case "M570":
		if h, ok := num('H'); ok {
			if ht := rc.heater(int(h)); ht != nil {
				ht.faultTime, _ = get('P')
				ht.faultExcursion, _ = get('T')
				ht.faultLine, ht.faultQuote = n, quote
			}
		}
	case "M140", "M141":
		if h, ok := num('H'); ok && h >= 0 {
			if cmd == "M140" {
				rc.bed = int(h)
			} else {
				rc.chamber = int(h)
			}
		}
	case "M563":
		tool, ok := num('P')
		if !ok || tool < 0 || tool > 16 {
			return
		}
		// a tool's part-cooling fans: F, fan 0 when not given
		fans, ok := get('F')
		if !ok || fans == "" {
			fans = "0"
		}
		for f := range strings.SplitSeq(fans, ":") {
			if _, err := strconv.Atoi(f); err == nil {
				c.setNum("fan.tool", "fan"+f, tool, n, quote)
			}
		}
		hs, ok := get('H')
		if !ok {
			return
		}
		for part := range strings.SplitSeq(hs, ":") {
			if h, err := strconv.Atoi(part); err == nil && len(rc.tools) < 16 {
				rc.tools[h] = int(tool)
			}
		}
	case "M572":
		d := "0"
		if v, ok := get('D'); ok {
			d, _, _ = strings.Cut(v, ":")
		}
		if s, ok := get('S'); ok {
			c.set("extruder.pressure_advance", extruderSubject(d), s, n, quote)
		}
	case "M591":
		d := "0"
		if v, ok := get('D'); ok {
			d = v
		}
		subject := extruderSubject(d)
		if p, ok := get('P'); ok {
			if t, ok := rrfFilamentSensors[p]; ok {
				c.set("filament_sensor.type", subject, t, n, quote)
			}
		}
		if p, ok := get('C'); ok {
			c.set("filament_sensor.pin", subject, p, n, quote)
		}
		if s, ok := get('S'); ok {
			c.setBool("filament_sensor.enabled", subject, s != "0", n, quote)
		}
	case "M106":
		p, ok := get('P')
		if !ok {
			p = "0"
		}
		subject := "fan" + p
		if h, ok := get('H'); ok {
			c.set("fan.heater", subject, h, n, quote)
		}
		// S is 0–1, or 0–255 as in Marlin
		if v, ok := num('S'); ok && v >= 0 && v <= 255 {
			if v > 1 {
				v /= 255
			}
			c.setNum("fan.fan_speed", subject, v, n, quote)
		}
		if t, ok := get('T'); ok {
			c.set("fan.heater_temp", subject, t, n, quote)
		}
		if name, ok := get('C'); ok {
			c.set("fan.name", subject, name, n, quote)
		}
	case "M669":
		if k, ok := get('K'); ok {
			kin, ok := rrfKinematics[k]
			if !ok {
				kin = "K" + k
			}
			c.set("printer.kinematics", "", kin, n, quote)
		}
	case "M550":
		if p, ok := get('P'); ok {
			c.set("firmware.machine", "", p, n, quote)
		}
	case "M557":
		c.set("leveling.type", "", "mesh", n, quote)
	case "M376":
		if h, ok := get('H'); ok {
			c.set("leveling.fade_height", "", h, n, quote)
		}
	case "M501":
		rc.m501 = true
		c.setBool("rrf.loads_config_override", "", true, n, quote)
	case "M98":
		if p, ok := get('P'); ok && strings.Contains(p, "config-override") {
			rc.m501 = true
			c.setBool("rrf.loads_config_override", "", true, n, quote)
		}
	case "M915":
		if s, ok := get('S'); ok {
			for _, p := range ps {
				if a := rrfAxis(p.letter); a != "" && p.value == "" {
					c.set("driver.stallguard_threshold", a, s, n, quote)
				}
			}
		}
	}
}

// thermistorDesc is a sensor type with its thermistor's resistance (T) and
// beta (B) when given: "thermistor T100000 B4138".
func thermistorDesc(typ string, get func(byte) (string, bool)) string {
	if t, ok := get('T'); ok {
		typ += " T" + t
	}
	if b, ok := get('B'); ok {
		typ += " B" + b
	}
	return typ
}

// driverAxis reports a per-axis driver setting (M906 in mA, shown in A).
func (rc *rrfConfig) driverAxis(key string, ps []param, scale float64, n int, quote string) {
	for _, p := range ps {
		var subject string
		switch {
		case p.letter == 'E':
			first, _, _ := strings.Cut(p.value, ":")
			if v, ok := parseNum(first); ok {
				rc.c.setNum(key, "extruder", round4(v*scale), n, quote)
			}
			continue
		default:
			subject = rrfAxis(p.letter)
		}
		if subject == "" {
			continue
		}
		first, _, _ := strings.Cut(p.value, ":")
		if v, ok := parseNum(first); ok {
			rc.c.setNum(key, subject, round4(v*scale), n, quote)
		}
	}
}

func rrfProbeType(v string) string {
	name, ok := rrfProbeTypes[v]
	if !ok {
		return v
	}
	return v + " (" + name + ")"
}

// Parameters of M558 and G31.
var (
	rrfM558 = map[byte]string{'C': "probe.sensor_pin", 'H': "probe.dive_height",
		'A': "probe.samples", 'S': "probe.samples_tolerance"}
	rrfG31 = map[byte]string{'P': "probe.trigger_value", 'X': "probe.x_offset", 'Y': "probe.y_offset", 'Z': "probe.z_offset"}
)

// Names of RepRapFirmware's numbered choices (its G-code documentation).
var (
	rrfDriverModes = map[string]string{"0": "constant off time", "1": "random off time", "2": "spreadcycle",
		"3": "stealthchop", "4": "closed loop"}
	rrfEndstopTypes = map[string]string{"0": "switch (active low)", "1": "switch", "2": "probe", "3": "motor stall",
		"4": "motor stall (per motor)"}
	rrfFilamentSensors = map[string]string{"0": "none", "1": "switch (high when filament present)",
		"2": "switch (low when filament present)", "3": "simple (high)", "4": "simple (low)", "5": "pulsed",
		"6": "magnetic", "7": "laser"}
	rrfKinematics = map[string]string{"0": "cartesian", "1": "corexy", "2": "corexz", "3": "linear delta", "8": "corexyu"}
	rrfProbeTypes = map[string]string{"0": "none (manual)", "1": "analog (unmodulated IR)", "2": "modulated IR",
		"3": "alternate modulated IR", "4": "switch (E0 endstop)", "5": "switch", "6": "switch (E1 endstop)",
		"7": "switch (Z endstop)", "8": "unfiltered switch", "9": "bltouch", "10": "z motor stall",
		"11": "scanning", "12": "scanning (eddy current)"}
)

func (rc *rrfConfig) heater(h int) *rrfHeater {
	if h < 0 || h > 64 {
		return nil
	}
	if ht, ok := rc.heaters[h]; ok {
		return ht
	}
	if len(rc.heaters) >= maxSubjects {
		return nil
	}
	ht := &rrfHeater{sensor: h}
	rc.heaters[h] = ht
	return ht
}

func (rc *rrfConfig) sensor(s int) *rrfSensor {
	if sen, ok := rc.sensors[s]; ok {
		return sen
	}
	if len(rc.sensors) >= maxSubjects {
		return nil
	}
	sen := &rrfSensor{}
	rc.sensors[s] = sen
	return sen
}

// heaterSubject names heater h: the bed and chamber heaters from M140 and
// M141, a tool's heater from M563 (tool 0 is "extruder"), otherwise heater 0
// is the bed and heater 1 the first hotend, as RepRapFirmware's
// configuration tool numbers them.
func heaterSubject(h, bed, chamber int, tools map[int]int) string {
	switch {
	case h == bed:
		return "heater_bed"
	case h == chamber:
		return "chamber"
	}
	if t, ok := tools[h]; ok {
		return extruderSubject(strconv.Itoa(t))
	}
	switch {
	case h == 0 && bed < 0:
		return "heater_bed"
	case h == 1 && len(tools) == 0:
		return "extruder"
	}
	return "heater" + strconv.Itoa(h)
}

// rrfDriverSubject names a driver: its M584 axis, or RepRapFirmware's
// default mapping.
func rrfDriverSubject(id string, drivers map[string]string) string {
	if s, ok := drivers[id]; ok {
		return s
	}
	if s, ok := drivers["0."+id]; ok {
		return s
	}
	local := id
	if b, d, ok := strings.Cut(id, "."); ok {
		if b != "0" {
			return "driver " + id
		}
		local = d
	}
	if len(drivers) > 0 {
		return "driver " + id
	}
	switch local {
	case "0":
		return "x"
	case "1":
		return "y"
	case "2":
		return "z"
	case "3":
		return "extruder"
	case "4":
		return "extruder1"
	}
	return "driver " + id
}

func (rc *rrfConfig) finish(sh *shared) {
	c := rc.c
	for _, d := range rc.dirs {
		s := rrfDriverSubject(d.id, rc.drivers)
		c.setBool(axisKey(s)+"dir_inverted", s, d.backwards, d.line, d.quote)
		if d.mode != "" {
			c.set("driver.mode", s, d.mode, d.line, d.quote)
		}
	}
	if sh.rrfHeaters == nil {
		sh.rrfHeaters = map[int]string{}
	}
	if sh.rrfDrivers == nil {
		sh.rrfDrivers = map[string]string{}
	}
	for id, s := range rc.drivers {
		sh.rrfDrivers[id] = s
	}
	for h := 0; h <= 64; h++ {
		ht, ok := rc.heaters[h]
		if !ok {
			continue
		}
		s := heaterSubject(h, rc.bed, rc.chamber, rc.tools)
		if len(sh.rrfHeaters) < maxSubjects {
			sh.rrfHeaters[h] = s
		}
		c.set("heater.heater_pin", s, ht.pin, ht.pinLine, ht.pinQuote)
		if sen, ok := rc.sensors[ht.sensor]; ok {
			c.set("heater.sensor_type", s, sen.typ, sen.line, sen.quote)
			c.set("heater.sensor_pin", s, sen.pin, sen.line, sen.quote)
		}
		c.set("heater.control", s, ht.control, ht.modelLine, ht.modelQuote)
		c.set("heater.max_power", s, ht.maxPower, ht.modelLine, ht.modelQuote)
		c.set("heater.model_heating_rate", s, ht.rate, ht.modelLine, ht.modelQuote)
		c.set("heater.model_dead_time", s, ht.dead, ht.modelLine, ht.modelQuote)
		c.set("heater.max_temp", s, ht.maxTemp, ht.limitLine, ht.limitQuote)
		c.set("heater.fault_timeout", s, ht.faultTime, ht.faultLine, ht.faultQuote)
		c.set("heater.fault_excursion", s, ht.faultExcursion, ht.faultLine, ht.faultQuote)
		if ht.rate == "" && rc.commands >= 15 {
			c.setBool("rrf.heater_model_default", s, true, ht.modelLine, ht.modelQuote)
		}
	}
	if !rc.m501 && rc.commands >= 15 {
		c.setBool("rrf.loads_config_override", "", false, 0, "")
	}
}

// noteSteps keeps each axis's M92 value with the microstepping in effect.
func (rc *rrfConfig) noteSteps(ps []param, n int, quote string) {
	for s, v := range rrfStepsValues(ps) {
		if rc.steps == nil {
			rc.steps = map[string]rrfSteps{}
		}
		rc.steps[s] = rrfSteps{value: v, micro: rc.microsteps(s), line: n, quote: quote}
	}
}

// rescaleSteps applies M350 to steps per mm given before it: the firmware
// multiplies them by new/old microstepping, so an M92 written for the new
// microstepping but placed before M350 ends up scaled twice.
func (rc *rrfConfig) rescaleSteps(ps []param, n int, quote string) {
	for s, m := range rrfStepsValues(ps) {
		if m <= 0 || m > 256 {
			continue
		}
		if st, ok := rc.steps[s]; ok && st.micro != m {
			eff := round4(st.value * m / st.micro)
			rc.c.setNum("rrf.steps_rescaled", s, eff, st.line, st.quote)
			st.value, st.micro = eff, m
			rc.steps[s] = st
		}
		if rc.micro == nil {
			rc.micro = map[string]float64{}
		}
		rc.micro[s] = m
	}
}

func (rc *rrfConfig) microsteps(s string) float64 {
	if m, ok := rc.micro[s]; ok {
		return m
	}
	return 16
}

// rrfStepsValues yields each axis (and the first extruder) of an M92 or
// M350 with its first number ("X80:80" gives 80).
func rrfStepsValues(ps []param) iter.Seq2[string, float64] {
	return func(yield func(string, float64) bool) {
		for _, p := range ps {
			s := rrfStepsSubject(p.letter)
			if s == "" {
				continue
			}
			first, _, _ := strings.Cut(p.value, ":")
			if v, ok := parseNum(first); ok && !yield(s, v) {
				return
			}
		}
	}
}

// rrfStepsSubject is the subject of an M92/M350 letter: an axis, or the
// first extruder.
func rrfStepsSubject(letter byte) string {
	if letter == 'E' {
		return extruderSubject("0")
	}
	return rrfAxis(letter)
}
