package printerfiles

import (
	"go/ast"
	"go/parser"
	"go/token"
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"testing"
)

// keyPattern is the shape of a fact key.
var keyPattern = regexp.MustCompile(`^(error|warning|event|firmware|heater|stepper|extruder|driver|probe|printer|mcu|fan|endstop|klipper|marlin|rrf|prusa|slicer|gcode|pid|leveling|bed_mesh|safe_z_home|firmware_retraction|filament_sensor|verify_heater|input_shaper|idle_timeout|homing_override|eeprom|power|servo|thermal_model|power_loss_recovery)\.[a-z_0-9.]+$`)

// producibleKeys lists every key the package can produce: the literal keys
// of its source and those it builds from its option tables.
func producibleKeys(t *testing.T) []string {
	keys := map[string]bool{}
	files, _ := filepath.Glob("*.go")
	fset := token.NewFileSet()
	for _, name := range files {
		if strings.HasSuffix(name, "_test.go") {
			continue
		}
		f, err := parser.ParseFile(fset, name, nil, 0)
		if err != nil {
			t.Fatal(err)
		}
		ast.Inspect(f, func(n ast.Node) bool {
			if lit, ok := n.(*ast.BasicLit); ok && lit.Kind == token.STRING {
				if s, err := strconv.Unquote(lit.Value); err == nil && keyPattern.MatchString(s) &&
					!strings.HasSuffix(s, ".cfg") && !strings.HasSuffix(s, ".g") && !strings.HasSuffix(s, ".h") {
					keys[s] = true
				}
			}
			return true
		})
	}
	add := func(prefix string, m map[string]string) {
		for _, v := range m {
			keys[prefix+v] = true
		}
	}
	add("stepper.", stepperOpts)
	add("stepper.", axisOpts)
	add("extruder.", stepperOpts)
	add("extruder.", extruderOpts)
	add("heater.", heaterOpts)
	add("driver.", tmcOpts)
	add("probe.", probeOpts)
	add("printer.", printerOpts)
	add("mcu.", mcuOpts)
	add("fan.", fanOpts)
	for typ, m := range sectionOpts {
		add(typ+".", m)
	}
	for _, k := range kconfigFacts {
		keys[k] = true
	}
	for _, s := range slicerKeys {
		keys["slicer."+s.fact] = true
	}
	for _, m := range []map[byte]string{rrfM558, rrfG31} {
		for _, k := range m {
			keys[k] = true
		}
	}
	for _, k := range []string{"pid_kp", "pid_ki", "pid_kd"} {
		keys["heater."+k] = true
	}
	// per-axis keys built from a suffix (M503, config.g, DEFAULT_* lists)
	for _, k := range []string{"steps_per_mm", "max_velocity", "max_accel", "microsteps", "home_offset", "jerk", "dir_inverted", "enable_inverted", "dir_pin", "enable_pin"} {
		keys["stepper."+k] = true
		keys["extruder."+k] = true
	}
	for _, rail := range []string{"vin", "v12"} {
		keys["power."+rail+"_min"] = true
		keys["power."+rail+"_max"] = true
	}
	delete(keys, "extruder.home_offset") // M206 has no E
	out := make([]string, 0, len(keys))
	for k := range keys {
		out = append(out, k)
	}
	slices.Sort(out)
	return out
}

// FACTS.md documents exactly the keys the package can produce.
func TestFactsDocumented(t *testing.T) {
	b, err := os.ReadFile("FACTS.md")
	if err != nil {
		t.Fatal(err)
	}
	documented := map[string]bool{}
	for _, m := range regexp.MustCompile("(?m)^\\| `([^`]+)`").FindAllStringSubmatch(string(b), -1) {
		documented[m[1]] = true
	}
	keys := producibleKeys(t)
	for _, k := range keys {
		if !documented[k] {
			t.Errorf("key %s is not in FACTS.md", k)
		}
	}
	for k := range documented {
		if !slices.Contains(keys, k) {
			t.Errorf("FACTS.md documents %s, which nothing produces", k)
		}
	}
	t.Logf("%d keys", len(keys))
}

// KnownKey knows every key the readers produce, and nothing else.
func TestKnownKey(t *testing.T) {
	for _, k := range producibleKeys(t) {
		if !KnownKey(k) {
			t.Errorf("KnownKey(%q) = false", k)
		}
	}
	for _, k := range []string{"", "error", "error.nope", "Key", "heater.sensor_type "} {
		if KnownKey(k) {
			t.Errorf("KnownKey(%q) = true", k)
		}
	}
}
