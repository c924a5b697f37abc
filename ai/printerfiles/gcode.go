package printerfiles

import (
	"encoding/json"
	"strings"
)

// Sliced G-code carries its slicer's settings as comments, read here as the
// browser's sliced-file import reads them (frontend/src/features/slicedfile/
// parse.ts, same keys and ranges):
//   - PrusaSlicer, SuperSlicer, OrcaSlicer, Bambu Studio: "; key = value"
//     lines (a block at the end, or between "; CONFIG_BLOCK_START/END");
//   - Cura: header comments (";FLAVOR:Marlin", ";Layer height: 0.2") and the
//     ";SETTING_3 " lines at the end, a JSON object of INI texts.
// It also reads the commands before the first extruding move (does the start
// G-code wait for the hotend with M109?) and notes commands a firmware may not
// know (M600, G29, BED_MESH_CALIBRATE...).

// slicerKeys are each setting's keys in the slicers, first match wins.
var slicerKeys = []struct {
	fact    string
	numeric bool
	lo, hi  float64
	keys    []string
}{
	{"printer_model", false, 0, 0, []string{"printer_model", "printer_settings_id", "machine_name", "printer_name", "TARGET_MACHINE.NAME"}},
	{"material", false, 0, 0, []string{"filament_type", "material_type", "EXTRUDER_TRAIN.0.MATERIAL.TYPE", "material"}},
	{"nozzle_temp", true, 100, 500, []string{"temperature", "nozzle_temperature", "material_print_temperature", "EXTRUDER_TRAIN.0.INITIAL_TEMPERATURE", "first_layer_temperature", "nozzle_temperature_initial_layer"}},
	{"bed_temp", true, 0, 200, []string{"bed_temperature", "hot_plate_temp", "textured_plate_temp", "material_bed_temperature", "BUILD_PLATE.INITIAL_TEMPERATURE", "first_layer_bed_temperature"}},
	{"layer_height", true, 0.01, 2, []string{"layer_height", "Layer height"}},
	{"print_speed", true, 1, 2000, []string{"perimeter_speed", "outer_wall_speed", "speed_print", "inner_wall_speed", "infill_speed", "sparse_infill_speed"}},
	{"infill", true, 0, 100, []string{"fill_density", "sparse_infill_density", "infill_sparse_density"}},
	{"nozzle_diameter", true, 0.1, 2, []string{"nozzle_diameter", "machine_nozzle_size", "EXTRUDER_TRAIN.0.NOZZLE.DIAMETER"}},
	{"retraction_length", true, 0, 20, []string{"retract_length", "retraction_length", "retraction_amount"}},
	{"retraction_speed", true, 1, 300, []string{"retract_speed", "retraction_speed", "retraction_retract_speed"}},
	{"first_layer_height", true, 0.01, 2, []string{"first_layer_height", "initial_layer_print_height", "layer_height_0"}},
	{"first_layer_speed", true, 1, 1000, []string{"first_layer_speed", "initial_layer_speed", "speed_layer_0"}},
	{"fan_speed", true, 0, 100, []string{"max_fan_speed", "fan_max_speed", "cool_fan_speed_max", "cool_fan_speed"}},
	{"pressure_advance", true, 0, 2, []string{"pressure_advance", "linear_advance", "material_linear_advance_factor"}},
	{"wall_speed", true, 1, 2000, []string{"external_perimeter_speed", "outer_wall_speed", "speed_wall_0"}},
	{"travel_speed", true, 1, 2000, []string{"travel_speed", "speed_travel"}},
	{"acceleration", true, 10, 100000, []string{"default_acceleration", "outer_wall_acceleration", "acceleration_print", "machine_acceleration"}},
	{"filament_diameter", true, 1, 3.5, []string{"filament_diameter", "material_diameter"}},
	{"gcode_flavor", false, 0, 0, []string{"gcode_flavor", "FLAVOR"}},
	{"retract_restart_extra", true, 0, 10, []string{"retract_restart_extra", "retraction_extra_prime_amount"}},
	{"coasting", false, 0, 0, []string{"coasting_enable"}},
}

// gcodeCommands are commands worth noting when a file uses them.
var gcodeCommands = map[string]bool{
	"M600": true, "G29": true, "BED_MESH_CALIBRATE": true, "M420": true, "G12": true, "M900": true,
	"SET_PRESSURE_ADVANCE": true, "M572": true, "G10": true, "G11": true, "PAUSE": true, "M601": true,
	"PRINT_START": true, "START_PRINT": true, "M190": true, "M109": true, "M116": true, "BED_MESH_PROFILE": true,
	"G2": true, "G3": true, "EXCLUDE_OBJECT_DEFINE": true, "M486": true,
}

const maxSlicerKeys = 4096

type gcodeValue struct {
	value string
	line  int
	quote string
}

// readGcode reads a sliced G-code file.
func readGcode(c *collector, text string) fwInfo {
	values := make(map[string]gcodeValue, 256)
	put := func(k, v string, n int, q string) {
		if _, ok := values[k]; !ok && len(values) < maxSlicerKeys {
			values[k] = gcodeValue{strings.TrimSpace(v), n, q}
		}
	}
	var info fwInfo
	var cura strings.Builder
	curaLine := 0
	waitHotend, waitBed, extruded, startMacro := false, false, false, false
	for n, raw := range eachLine(text) {
		t := strings.TrimSpace(raw)
		if t == "" {
			continue
		}
		if t[0] == ';' {
			if info.firmware == "" && n <= 500 {
				info = slicerOf(t)
				if info.firmware != "" {
					c.set("slicer.name", "", info.firmware, n, raw)
					if info.version != "" {
						c.set("slicer.version", "", info.version, n, raw)
					}
				}
			}
			if v, ok := strings.CutPrefix(t, ";SETTING_3 "); ok {
				if cura.Len()+len(v) <= MaxReadBytes {
					cura.WriteString(v)
					curaLine = n
				}
				continue
			}
			if k, v, ok := slicerKV(t); ok {
				put(k, v, n, raw)
			}
			continue
		}
		cmd := firstWord(t)
		if i := strings.IndexByte(cmd, ';'); i >= 0 {
			cmd = cmd[:i]
		}
		if gcodeCommands[cmd] {
			c.event("gcode.uses_command", cmd, cmd, n, raw)
		}
		if extruded {
			continue
		}
		switch cmd {
		case "M109", "M116", "TEMPERATURE_WAIT":
			waitHotend = true
		case "M190":
			waitBed = true
		case "PRINT_START", "START_PRINT":
			startMacro = true
		case "G1", "G0", "G2", "G3":
			if extrudes(t) && startMacro {
				extruded = true // the start macro heats and waits: the file does not say
			} else if extrudes(t) {
				extruded = true
				c.setBool("gcode.waits_for_hotend", "", waitHotend, n, raw)
				c.setBool("gcode.waits_for_bed", "", waitBed, n, raw)
			}
		}
	}
	if cura.Len() > 0 {
		curaSettings(cura.String(), func(k, v string) { put(k, v, curaLine, "") })
	}
	if info.firmware == "" {
		if _, ok := values["FLAVOR"]; ok {
			info.firmware = "Cura"
		}
	}
	for _, s := range slicerKeys {
		for _, k := range s.keys {
			v, ok := values[k]
			if !ok {
				continue
			}
			if !s.numeric {
				if t := slicerText(v.value); t != "" {
					c.set("slicer."+s.fact, "", t, v.line, v.quote)
					break
				}
				continue
			}
			n, _, ok := leadingNum(strings.TrimLeft(v.value, "[\"' "))
			if !ok || (s.fact == "nozzle_temp" || s.fact == "bed_temp") && n == 0 {
				continue
			}
			if s.fact == "fan_speed" && !strings.Contains(v.value, "%") && n > 100 && n <= 255 {
				n = float64(int(n/255*100 + 0.5))
			}
			if n < s.lo || n > s.hi {
				continue
			}
			c.setNum("slicer."+s.fact, "", n, v.line, v.quote)
			break
		}
	}
	return info
}

// extrudes reports whether a move line pushes filament with an XY move.
func extrudes(t string) bool {
	if i := strings.IndexByte(t, ';'); i >= 0 {
		t = t[:i]
	}
	hasXY, hasE := false, false
	for tok := range strings.FieldsSeq(t) {
		switch tok[0] {
		case 'X', 'Y':
			hasXY = true
		case 'E':
			if v, ok := parseNum(tok[1:]); ok && v > 0 {
				hasE = true
			}
		}
	}
	return hasXY && hasE
}

// slicerKV reads "; key = value" and Cura's ";KEY:value" comments.
func slicerKV(t string) (string, string, bool) {
	body := strings.TrimLeft(t[1:], " ")
	if i := strings.Index(body, " = "); i > 0 && isSettingKey(body[:i]) {
		return body[:i], body[i+3:], true
	}
	if strings.HasSuffix(body, " =") && isSettingKey(body[:len(body)-2]) {
		return body[:len(body)-2], "", true
	}
	if len(t) > 1 && t[1] != ' ' {
		if i := strings.IndexByte(body, ':'); i > 0 && body[0] >= 'A' && body[0] <= 'Z' && i < 64 {
			return body[:i], strings.TrimSpace(body[i+1:]), true
		}
	}
	return "", "", false
}

func isSettingKey(k string) bool {
	if k == "" || len(k) > 64 {
		return false
	}
	for i := 0; i < len(k); i++ {
		if b := k[i]; !(b >= 'a' && b <= 'z' || b >= 'A' && b <= 'Z' || b >= '0' && b <= '9' || b == '_' || b == '.') {
			return false
		}
	}
	return true
}

// slicerText is a text setting's first value: `["PLA"]`, "PLA;PETG".
func slicerText(v string) string {
	v = strings.TrimPrefix(strings.TrimSuffix(v, "]"), "[")
	if i := strings.IndexAny(v, ";,"); i >= 0 {
		v = v[:i]
	}
	v = strings.TrimSpace(strings.Trim(v, "\""))
	if v == "nil" {
		return ""
	}
	return v
}

// curaSettings reads Cura's SETTING_3 JSON: {"global_quality": "[values]\n
// layer_height = 0.2\n...", "extruder_quality": ["..."]}.
func curaSettings(js string, put func(k, v string)) {
	var s struct {
		Global   string   `json:"global_quality"`
		Extruder []string `json:"extruder_quality"`
	}
	if json.Unmarshal([]byte(js), &s) != nil {
		return
	}
	texts := append([]string{s.Global}, s.Extruder...)
	for i, t := range texts {
		if i > 8 {
			break
		}
		for line := range strings.SplitSeq(t, "\n") {
			k, v, ok := strings.Cut(line, "=")
			if !ok {
				continue
			}
			if k = strings.TrimSpace(k); isSettingKey(k) {
				put(k, strings.TrimSpace(v))
			}
		}
	}
}

// slicerOf recognises the slicer from a header comment.
func slicerOf(t string) fwInfo {
	version := func(rest string) string {
		v := firstWord(strings.TrimSpace(rest))
		if i := strings.IndexByte(v, '+'); i > 0 {
			v = v[:i]
		}
		return cutUTF8(v, 40)
	}
	for _, s := range []struct{ marker, name string }{
		{"generated by SuperSlicer", "SuperSlicer"}, {"generated by PrusaSlicer", "PrusaSlicer"},
		{"generated by OrcaSlicer", "OrcaSlicer"}, {"OrcaSlicer", "OrcaSlicer"},
		{"BambuStudio", "Bambu Studio"}, {"Generated with Cura_SteamEngine", "Cura"},
		{"generated by Slic3r", "Slic3r"}, {"Generated by Simplify3D", "Simplify3D"},
	} {
		if rest, ok := after(t, s.marker); ok {
			return fwInfo{firmware: s.name, version: version(rest)}
		}
	}
	return fwInfo{}
}
