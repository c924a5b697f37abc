package ai

import (
	"math"
	"slices"
	"strconv"
	"strings"

	"github.com/layerfix/layerfix/ai/printerfiles"
)

// derive computes the derived.* facts: faults that only show when two or
// more facts of the files are read together.
func derive(rep printerfiles.Report) []printerfiles.Fact {
	find := func(key, subject string) (printerfiles.Fact, bool) { return rep.Find(key, subject) }
	var out []printerfiles.Fact
	add := func(key, subject, value string, from printerfiles.Fact) {
		out = append(out, printerfiles.Fact{Key: key, Subject: subject, Value: value,
			Source: from.Source, Line: from.Line, Quote: from.Quote})
	}

	// Klipper homes Z at home_xy_position with the nozzle there: when the
	// probe is the Z endstop it sits at that position plus its offsets and
	// must be over the bed.
	zType, _ := find("endstop.type", "z")
	if hx, ok := find("safe_z_home.x", ""); ok && hx.HasNum && zType.Value == "probe" {
		hy, _ := find("safe_z_home.y", "")
		for _, ax := range []struct {
			axis string
			home printerfiles.Fact
		}{{"x", hx}, {"y", hy}} {
			off, ok := find("probe."+ax.axis+"_offset", "probe")
			if !ok || !off.HasNum || !ax.home.HasNum {
				continue
			}
			p := ax.home.Num + off.Num
			lo := 0.0
			if f, ok := find("stepper.position_min", ax.axis); ok && f.HasNum {
				lo = f.Num
			}
			hi := math.Inf(1)
			if f, ok := find("stepper.position_max", ax.axis); ok && f.HasNum {
				hi = f.Num
			}
			if p < lo-1 || p > hi+1 {
				add("derived.probe_off_bed_at_z_home", "probe",
					"probe at "+strings.ToUpper(ax.axis)+fmtNum(p)+" when Z homes", hx)
				break
			}
		}
	}

	// Klipper's "Move out of range: X Y Z [E]" names the end of the refused
	// move. An axis below its position_min (0 unless set) is a move under
	// the limit: with the probe as the Z endstop, a mesh or Z offset
	// correction that goes below Z=0 needs position_min below 0.
	if mv, ok := find("error.move_out_of_range", ""); ok {
		if pos := strings.Fields(mv.Value); len(pos) >= 3 {
			for i, axis := range []string{"x", "y", "z"} {
				p, err := strconv.ParseFloat(pos[i], 64)
				if err != nil {
					break
				}
				lo := 0.0
				if f, ok := find("stepper.position_min", axis); ok && f.HasNum {
					lo = f.Num
				}
				if p < lo {
					add("derived.move_below_position_min", axis, strings.ToUpper(axis)+fmtNum(p)+" below position_min "+fmtNum(lo), mv)
					break
				}
			}
		}
	}

	// Klipper hands a macro call's NAME=VALUE pairs to the template as
	// params.NAME: a start macro called with names its template does not
	// read (PRINT_START BED=80 for params.BED_TEMP) runs on its defaults.
	for _, macro := range []string{"PRINT_START", "START_PRINT"} {
		call, ok := find("gcode.uses_command", macro)
		takes, ok2 := find("klipper.macro_params", macro)
		if !ok || !ok2 {
			continue
		}
		line, _, _ := strings.Cut(call.Quote, ";")
		var passed []string
		for _, w := range strings.Fields(line)[1:] {
			if k, _, ok := strings.Cut(w, "="); ok && k != "" {
				passed = append(passed, strings.ToUpper(k))
			}
		}
		reads := strings.Fields(takes.Value)
		unread := slices.DeleteFunc(slices.Clone(passed), func(k string) bool { return slices.Contains(reads, k) })
		missing := slices.DeleteFunc(slices.Clone(reads), func(k string) bool { return slices.Contains(passed, k) })
		if len(unread) > 0 && len(missing) > 0 {
			add("derived.macro_params_mismatch", macro, "the call passes "+strings.Join(unread, ", ")+"; the macro reads "+strings.Join(missing, ", "), call)
		}
	}

	// Klipper reads printer.cfg and its [include] files as one config in
	// order: an option set again in a later section of the same name (in
	// the same file or an included one) silently replaces the first. An
	// option with two values in two config files is one of them ignored.
	cfgFiles, logFiles := map[string]bool{}, map[string]bool{}
	for _, f := range rep.Files {
		cfgFiles[f.Name] = f.Kind == printerfiles.KindKlipperConfig
		logFiles[f.Name] = f.Kind == printerfiles.KindKlippyLog
	}
	if countTrue(cfgFiles) >= 2 {
		type optID struct{ key, subject string }
		first := map[optID]printerfiles.Fact{}
		done := map[optID]bool{}
		for _, f := range rep.Facts {
			if !cfgFiles[f.Source] || strings.HasSuffix(f.Key, "steps_per_mm") || strings.HasPrefix(f.Key, "klipper.") {
				continue
			}
			id := optID{f.Key, f.Subject}
			p, seen := first[id]
			if !seen {
				first[id] = f
				continue
			}
			if p.Source == f.Source || done[id] || strings.EqualFold(p.Value, f.Value) || p.HasNum && f.HasNum && p.Num == f.Num {
				continue
			}
			done[id] = true
			v := p.Source + " " + p.Value + ", " + f.Source + " " + f.Value
			for _, e := range rep.Facts {
				if logFiles[e.Source] && e.Key == f.Key && e.Subject == f.Subject {
					v += "; klippy.log runs with " + e.Value
					break
				}
			}
			add("derived.config_option_overridden", f.Subject, v, p)
		}
	}

	// RepRapFirmware runs a fan only as config.g says: the hotend fan must
	// be thermostatic (M106 P1 S1 H1 T45) or always on (H-1 with S above
	// 0). A config.g whose fans besides the tools' part fans (M563 F) are
	// all off with H-1 leaves the heat break uncooled; one that defines only
	// the part fan says nothing, as the hotend fan is then wired always on
	// (as Klipper and Marlin printers often wire it).
	if hasFanHeaterConfig(rep) {
		var last printerfiles.Fact
		thermostatic := false
		for _, f := range rep.Facts {
			if f.Key != "fan.heater" {
				continue
			}
			if _, part := find("fan.tool", f.Subject); part {
				continue
			}
			if speed, ok := find("fan.fan_speed", f.Subject); f.Value != "-1" && f.Value != "" || ok && speed.Num > 0 {
				thermostatic = true
			}
			last = f
		}
		if !thermostatic && last.Key != "" {
			add("derived.hotend_fan_not_thermostatic", last.Subject, "no fan follows the hotend temperature", last)
		}
	}

	// A heater and its sensor on different headers (e0heat with e1temp,
	// bedheat with e0temp).
	for _, f := range rep.Facts {
		if f.Key != "heater.sensor_pin" {
			continue
		}
		h, ok := find("heater.heater_pin", f.Subject)
		if !ok {
			continue
		}
		hc, sc := pinHeader(h.Value, "heat"), pinHeader(f.Value, "temp")
		if hc != "" && sc != "" && hc != sc {
			add("derived.sensor_pin_mismatch", f.Subject, h.Value+" with "+f.Value, f)
		}
	}

	// The host connecting at another baud rate than the firmware's: the
	// host's connection (OctoPrint) or Klipper's [mcu] baud against the
	// firmware's BAUDRATE or CONFIG_SERIAL_BAUD.
	for _, hk := range []string{"mcu.host_baud", "mcu.baud"} {
		host, ok := find(hk, "")
		if !ok || !host.HasNum {
			continue
		}
		for _, k := range []string{"mcu.baud", "mcu.serial_baud"} {
			if fw, ok := find(k, ""); ok && k != hk && fw.HasNum && fw.Num != host.Num && fw.Source != host.Source {
				add("derived.baud_mismatch", "mcu", "host "+fmtNum(host.Num)+", firmware "+fmtNum(fw.Num), host)
				break
			}
		}
		if len(out) > 0 && out[len(out)-1].Key == "derived.baud_mismatch" {
			break
		}
	}

	// The firmware built for one link (USB or serial) while the host looks
	// for the other: a native-USB Klipper device is named usb-Klipper_…,
	// a board behind a USB-serial chip usb-1a86_… (CH340) or usb-FTDI_….
	if comm, ok := find("mcu.comm", "mcu"); ok {
		if dev, ok := find("mcu.serial", "mcu"); ok {
			d := strings.ToLower(dev.Value)
			native := strings.Contains(d, "usb-klipper")
			bridge := strings.Contains(d, "usb-1a86") || strings.Contains(d, "ch34") || strings.Contains(d, "ftdi") || strings.Contains(d, "cp210")
			if comm.Value == "serial" && native || comm.Value == "usb" && bridge {
				add("derived.comm_mismatch", "mcu", "firmware built for "+comm.Value+", host looks for "+dev.Value, comm)
			}
		}
	}

	// X and Y usually share belts and pulleys. Another pulley moves steps
	// per mm by a quarter (16 teeth against 20: Anycubic ships its Vyper and
	// Kobra with X 100, Y 80); half as many again or more is a microstep or
	// typing slip.
	if x, ok := find("stepper.steps_per_mm", "x"); ok && x.HasNum && x.Num > 0 {
		if y, ok := find("stepper.steps_per_mm", "y"); ok && y.HasNum && y.Num > 0 && math.Max(x.Num, y.Num) >= 1.5*math.Min(x.Num, y.Num) {
			add("derived.xy_steps_differ", "y", "X "+fmtNum(x.Num)+", Y "+fmtNum(y.Num), y)
		}
	}

	// A print temperature above what the firmware allows (Marlin refuses
	// targets within 15 °C of HEATER_0_MAXTEMP).
	for _, h := range []struct{ slicer, heater string }{{"slicer.nozzle_temp", "extruder"}, {"slicer.bed_temp", "heater_bed"}} {
		want, ok := find(h.slicer, "")
		limit, ok2 := find("heater.max_temp", h.heater)
		if !ok || !ok2 || !want.HasNum || !limit.HasNum {
			continue
		}
		max := limit.Num
		if strings.Contains(limit.Quote, "MAXTEMP") {
			max -= 15
		}
		if want.Num > max {
			add("derived.temp_above_max", h.heater, fmtNum(want.Num)+" °C asked, "+fmtNum(max)+" °C allowed", limit)
		}
	}

	// The slicer slicing for another nozzle than the firmware's.
	if s, ok := find("slicer.nozzle_diameter", ""); ok && s.HasNum {
		if fw, ok := find("extruder.nozzle_diameter", "extruder"); ok && fw.HasNum && math.Abs(fw.Num-s.Num) > 0.05 {
			add("derived.nozzle_mismatch", "extruder", "slicer "+fmtNum(s.Num)+" mm, firmware "+fmtNum(fw.Num)+" mm", fw)
		}
	}
	// Drivers on one UART pin answer by address: two with the same address
	// on the same pin both answer, or neither is read.
	type uart struct{ pin, addr string }
	seen := map[uart]string{}
	for _, f := range rep.Facts {
		if f.Key != "driver.uart_address" {
			continue
		}
		pin, ok := find("driver.uart_pin", f.Subject)
		if !ok {
			continue
		}
		k := uart{strings.ToLower(strings.TrimLeft(pin.Value, "^!~")), f.Value}
		if other, dup := seen[k]; dup {
			add("derived.uart_address_conflict", f.Subject, other+" and "+f.Subject+" at address "+f.Value, f)
			break
		}
		seen[k] = f.Subject
	}
	out = append(out, eepromOverrides(rep)...)
	return out
}

// extruderKind is an extruder's documented drive: millimetres of filament
// per motor turn (Klipper's rotation_distance divided by its gear ratio;
// 200 × 16 ÷ Marlin's steps per mm at 16 microsteps).
type extruderKind struct {
	names []string // how makers name it (lower case)
	mm    float64
}

// extruderKinds are from Klipper's Rotation_Distance.md and the makers'
// documentation.
var extruderKinds = []extruderKind{
	{[]string{"mk8", "creality extruder"}, 34.4},                                   // Creality MK8: 93 steps/mm
	{[]string{"sprite"}, 7.53},                                                     // Creality Sprite: 424.9 steps/mm
	{[]string{"bmg", "bondtech bmg", "bmg clone", "bmg-style", "bmg style"}, 7.71}, // 415 steps/mm, 50:17
	{[]string{"titan"}, 7.65},                                                      // E3D Titan: 418.5 steps/mm
	{[]string{"hemera"}, 7.82},                                                     // E3D Hemera: 409 steps/mm
	{[]string{"orbiter"}, 4.637},                                                   // Orbiter 1.5 / 2.0: 690 steps/mm
	{[]string{"sherpa", "sherpa mini", "clockwork", "stealthburner"}, 4.536},       // 22.6789511 at 50:10
	{[]string{"lgx", "lgx lite"}, 5.69},                                            // Bondtech LGX Lite: 562 steps/mm
	{[]string{"biqu h2", "h2 extruder"}, 3.43},                                     // BIQU H2: 932 steps/mm
	{[]string{"mk3", "mk3s", "mk3s+", "mk2.5", "mk2.5s"}, 22.86},                   // Prusa MK3S: 280 steps/mm at 1/32
}

// extruderMismatch compares the extruder's steps with the documented drive
// of the extruder the request names: a rotation_distance or steps per mm
// copied from another extruder pushes a multiple of the filament.
func extruderMismatch(rep printerfiles.Report, text string) (printerfiles.Fact, bool) {
	// The extruder named last is the one fitted ("swapped the Titan for a
	// BMG").
	var kind *extruderKind
	last := -1
	for i := range extruderKinds {
		for _, n := range extruderKinds[i].names {
			if at := lastWord(text, n); at > last {
				kind, last = &extruderKinds[i], at
			}
		}
	}
	if kind == nil {
		return printerfiles.Fact{}, false
	}
	mm, from := 0.0, printerfiles.Fact{}
	if rd, ok := rep.Find("extruder.rotation_distance", "extruder"); ok && rd.HasNum && rd.Num > 0 {
		mm, from = rd.Num, rd
		if g, ok := rep.Find("extruder.gear_ratio", "extruder"); ok {
			if r := gearRatio(g.Value); r > 0 {
				mm /= r
			}
		}
	} else if st, ok := rep.Find("extruder.steps_per_mm", "extruder"); ok && st.HasNum && st.Num > 0 {
		micro := 16.0
		if m, ok := rep.Find("extruder.microsteps", "extruder"); ok && m.HasNum && m.Num > 0 {
			micro = m.Num
		} else if kind.mm == 22.86 {
			micro = 32 // Prusa firmware runs the extruder at 1/32
		}
		mm, from = 200*micro/st.Num, st
	}
	if mm == 0 || math.Abs(mm-kind.mm) <= 0.12*kind.mm {
		return printerfiles.Fact{}, false
	}
	from.Key, from.Subject = "derived.esteps_unlike_extruder", "extruder"
	from.Value = fmtNum(math.Round(mm*100)/100) + " mm per motor turn, the " + kind.names[0] + " drives " + fmtNum(kind.mm)
	from.Num, from.HasNum = mm, true
	return from, true
}

// lastWord is the position of the last whole-word occurrence of w in text,
// -1 when there is none.
func lastWord(text, w string) int {
	for end := len(text); end > 0; {
		i := strings.LastIndex(text[:end], w)
		if i < 0 {
			return -1
		}
		if (i == 0 || !isAlnum(text[i-1])) && (i+len(w) == len(text) || !isAlnum(text[i+len(w)])) {
			return i
		}
		end = i
	}
	return -1
}

// gearRatio reads Klipper's "50:17" (or "7.5:1", "80:20, 40:20") as one number.
func gearRatio(v string) float64 {
	r := 1.0
	for part := range strings.SplitSeq(v, ",") {
		a, b, ok := strings.Cut(strings.TrimSpace(part), ":")
		x, err1 := strconv.ParseFloat(strings.TrimSpace(a), 64)
		y, err2 := strconv.ParseFloat(strings.TrimSpace(b), 64)
		if !ok || err1 != nil || err2 != nil || y == 0 {
			return 0
		}
		r *= x / y
	}
	return r
}

// eepromKeys are the Marlin settings both Configuration.h and the M503
// report show.
var eepromKeys = map[string]bool{
	"stepper.steps_per_mm": true, "extruder.steps_per_mm": true, "stepper.max_velocity": true,
	"stepper.max_accel": true, "printer.max_accel": true, "heater.pid_kp": true, "probe.z_offset": true,
}

// eepromOverrides finds settings the printer reports (M503) with another
// value than the Configuration.h it was built from: the EEPROM's stored
// settings win over a newly flashed build until M502 and M500.
func eepromOverrides(rep printerfiles.Report) []printerfiles.Fact {
	kinds := make(map[string]printerfiles.Kind, len(rep.Files))
	for _, f := range rep.Files {
		kinds[f.Name] = f.Kind
	}
	type slot struct{ key, subject string }
	built := map[slot]printerfiles.Fact{}
	for _, f := range rep.Facts {
		if eepromKeys[f.Key] && f.HasNum && kinds[f.Source] == printerfiles.KindMarlinConfig {
			built[slot{f.Key, f.Subject}] = f
		}
	}
	if len(built) == 0 {
		return nil
	}
	var out []printerfiles.Fact
	for _, f := range rep.Facts {
		k := kinds[f.Source]
		if !f.HasNum || (k != printerfiles.KindMarlinM503 && k != printerfiles.KindMarlinSerial) {
			continue
		}
		b, ok := built[slot{f.Key, f.Subject}]
		if ok && math.Abs(b.Num-f.Num) > 0.01*math.Max(math.Abs(b.Num), 1) {
			out = append(out, printerfiles.Fact{Key: "derived.eeprom_overrides_config", Subject: f.Subject,
				Value: fmtNum(b.Num), Num: b.Num, HasNum: true, Source: f.Source, Line: f.Line, Quote: f.Quote})
			break
		}
	}
	return out
}

// hasFanHeaterConfig reports whether the files hold a whole printer
// configuration with its fans: a hotend heater, steppers and a fan.
func hasFanHeaterConfig(rep printerfiles.Report) bool {
	var heater, stepper, fan bool
	for _, f := range rep.Facts {
		switch {
		case f.Key == "heater.heater_pin" && f.Subject == "extruder":
			heater = true
		case f.Key == "stepper.steps_per_mm" || f.Key == "stepper.step_pin":
			stepper = true
		case f.Key == "fan.heater":
			fan = true
		}
	}
	return heater && stepper && fan
}

// pinHeader names the board header of a heater or sensor pin written by
// header name ("e0heat" is "e0", "^bedtemp" is "bed"); "" for MCU pins.
func pinHeader(pin, suffix string) string {
	p := strings.ToLower(strings.TrimLeft(strings.TrimSpace(pin), "^!~"))
	if i := strings.LastIndexByte(p, '.'); i >= 0 {
		p = p[i+1:]
	}
	h, ok := strings.CutSuffix(p, suffix)
	if !ok || h == "" {
		return ""
	}
	if h == "bed" {
		return h
	}
	if n, ok := strings.CutPrefix(h, "e"); ok {
		if _, err := strconv.Atoi(n); err == nil {
			return h
		}
	}
	return ""
}

// fillFromFacts fills settings the maker did not type from the files: the
// nozzle size and the sliced file's settings (from G-code comments).
func fillFromFacts(req *Request, rep printerfiles.Report) {
	num := func(key, subject string) *float64 {
		if f, ok := rep.Find(key, subject); ok && f.HasNum && f.Num > 0 {
			v := f.Num
			return &v
		}
		return nil
	}
	if req.NozzleSize == nil {
		if req.NozzleSize = num("slicer.nozzle_diameter", ""); req.NozzleSize == nil {
			req.NozzleSize = num("extruder.nozzle_diameter", "extruder")
		}
	}
	if req.Slicer == nil {
		s := &SlicerSettings{
			NozzleDiameter:   num("slicer.nozzle_diameter", ""),
			RetractionLength: num("slicer.retraction_length", ""),
			RetractionSpeed:  num("slicer.retraction_speed", ""),
			FirstLayerHeight: num("slicer.first_layer_height", ""),
			FirstLayerSpeed:  num("slicer.first_layer_speed", ""),
			FanSpeed:         num("slicer.fan_speed", ""),
			PressureAdvance:  num("slicer.pressure_advance", ""),
			WallSpeed:        num("slicer.wall_speed", ""),
			TravelSpeed:      num("slicer.travel_speed", ""),
			Acceleration:     num("slicer.acceleration", ""),
		}
		if f, ok := rep.Find("slicer.name", ""); ok {
			s.Slicer = f.Value
		}
		if *s != (SlicerSettings{}) {
			req.Slicer = s
		}
	}
	if req.NozzleTemp == nil {
		req.NozzleTemp = num("slicer.nozzle_temp", "")
	}
	if req.BedTemp == nil {
		req.BedTemp = num("slicer.bed_temp", "")
	}
	if req.LayerHeight == nil {
		req.LayerHeight = num("slicer.layer_height", "")
	}
	if strings.TrimSpace(req.Material) == "" {
		if f, ok := rep.Find("slicer.material", ""); ok {
			req.Material = f.Value
		}
	}
}

func countTrue(m map[string]bool) int {
	n := 0
	for _, v := range m {
		if v {
			n++
		}
	}
	return n
}
