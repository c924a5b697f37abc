//go:build ignore

// stockgen writes kb/stock/klipper.json: the settings of Klipper's example
// printer and board configs (config/printer-*.cfg, config/generic-*.cfg),
// read into facts by printerfiles, and the firmware build each one's header
// asks for (micro-controller, bootloader, interface, crystal). The engine
// compares a maker's config with the example it comes from.
//
//	go run stockgen.go -klipper ~/klipper -commit $(git -C ~/klipper rev-parse HEAD)
//
// With -marlin it writes kb/stock/marlin.json instead: the settings of
// Marlin's example configurations (config/examples/<vendor>/<model>/
// [<board>/]Configuration.h with its Configuration_adv.h).
//
//	go run stockgen.go -marlin ~/Configurations -commit $(git -C ~/Configurations rev-parse HEAD) -o kb/stock/marlin.json
package main

import (
	"encoding/json"
	"flag"
	"fmt"
	"log"
	"os"
	"path/filepath"
	"regexp"
	"sort"
	"strconv"
	"strings"

	"github.com/layerfix/layerfix/ai/printerfiles"
)

// stockKeys are the settings kept: the ones a fault can hide in.
var stockKeys = map[string]bool{}

func init() {
	for _, k := range strings.Fields(`
stepper.step_pin stepper.dir_pin stepper.enable_pin
stepper.rotation_distance stepper.microsteps stepper.full_steps_per_rotation stepper.gear_ratio
stepper.position_endstop stepper.position_max stepper.position_min stepper.homing_speed
stepper.homing_positive_dir stepper.homing_retract_dist
endstop.pin
extruder.step_pin extruder.dir_pin extruder.enable_pin
extruder.rotation_distance extruder.microsteps extruder.gear_ratio extruder.full_steps_per_rotation
extruder.nozzle_diameter extruder.filament_diameter extruder.max_extrude_only_distance
extruder.max_extrude_cross_section extruder.min_extrude_temp extruder.pressure_advance
heater.heater_pin heater.sensor_pin heater.sensor_type heater.control heater.max_power
heater.min_temp heater.max_temp heater.pullup_resistor
fan.pin fan.max_power fan.heater fan.heater_temp fan.cycle_time fan.kick_start_time fan.off_below fan.hardware_pwm
driver.type driver.uart_pin driver.tx_pin driver.uart_address driver.run_current driver.stealthchop_threshold
driver.cs_pin driver.diag_pin driver.sense_resistor driver.hold_current
probe.type probe.sensor_pin probe.control_pin probe.x_offset probe.y_offset probe.z_offset
probe.trigger_height probe.speed extruder.steps_per_mm fan.fan_speed
probe.pin_up_reports_not_triggered probe.pin_up_touch_mode_reports_triggered
safe_z_home.x safe_z_home.y bed_mesh.mesh_min bed_mesh.mesh_max
printer.kinematics printer.max_velocity printer.max_accel printer.max_z_velocity printer.max_z_accel
mcu.restart_method mcu.baud filament_sensor.pin filament_sensor.pause_on_runout`) {
		stockKeys[k] = true
	}
}

// marlinStockKeys are the Marlin settings kept: the ones a fault can hide in.
var marlinStockKeys = map[string]bool{}

func init() {
	for _, k := range strings.Fields(`
firmware.board mcu.baud mcu.serial_port driver.type heater.sensor_type heater.min_temp heater.max_temp
heater.control heater.thermal_protection extruder.min_extrude_temp extruder.max_extrude_only_distance
stepper.steps_per_mm extruder.steps_per_mm stepper.max_velocity extruder.max_velocity stepper.max_accel
extruder.max_accel printer.max_accel printer.retract_accel printer.travel_accel printer.jerk_mode stepper.jerk
extruder.jerk printer.junction_deviation stepper.dir_inverted extruder.dir_inverted stepper.home_dir
stepper.bed_size stepper.position_min stepper.position_max endstop.hit_state endstop.inverted probe.type
probe.x_offset probe.y_offset probe.z_offset probe.trigger_height probe.uses_z_min_pin leveling.type eeprom.enabled
filament_sensor.enabled filament_sensor.runout_state extruder.pressure_advance driver.stealthchop_threshold
driver.run_current driver.stallguard_threshold marlin.option`) {
		marlinStockKeys[k] = true
	}
}

type stockConfig struct {
	Name  string  `json:"name"`
	Facts [][]any `json:"facts"` // index into keys, subject, value
}

type stockFile struct {
	Source  string        `json:"source"`
	Keys    []string      `json:"keys"`
	Configs []stockConfig `json:"configs"`
}

var (
	chipRe    = regexp.MustCompile(`\b(stm32[a-z][0-9a-z]+|lpc17[0-9]+|atmega[0-9]+[a-z]*|at90usb[0-9]+|sam[a-z0-9]+|rp2040|rp2350)\b`)
	bootRe    = regexp.MustCompile(`(\d+)\s*kib\b`)
	crystalRe = regexp.MustCompile(`(\d+)\s*mhz\s*crystal`)
)

// header reads the firmware build a config's leading comment asks for.
func header(text string) [][3]string {
	var lines []string
	for _, l := range strings.Split(text, "\n") {
		l = strings.TrimSpace(l)
		if strings.HasPrefix(l, "[") {
			break
		}
		if strings.HasPrefix(l, "#") {
			lines = append(lines, strings.TrimSpace(strings.TrimLeft(l, "#")))
		}
	}
	h := strings.ToLower(strings.Join(lines, " "))
	var out [][3]string
	if !strings.Contains(h, "menuconfig") {
		return nil
	}
	chips := map[string]bool{}
	for _, m := range chipRe.FindAllStringSubmatch(h, -1) {
		chips[m[1]] = true
	}
	if len(chips) == 1 {
		for c := range chips {
			out = append(out, [3]string{"mcu.chip", "mcu", c})
		}
	}
	boots := map[string]bool{}
	for _, m := range bootRe.FindAllStringSubmatch(h, -1) {
		n, _ := strconv.Atoi(m[1])
		boots[fmt.Sprintf("0x%04x", n*1024)] = true
	}
	if strings.Contains(h, "no bootloader") {
		boots["0x0000"] = true
	}
	if len(boots) == 1 && !strings.Contains(h, "512 byte") {
		for b := range boots {
			out = append(out, [3]string{"mcu.bootloader_offset", "mcu", b})
		}
	}
	usb := strings.Contains(h, "usb communication") || strings.Contains(h, "usb (on pa11") || strings.Contains(h, "usb for communication")
	serial := strings.Contains(h, "serial (on usart") || strings.Contains(h, "serial (on uart")
	if usb != serial {
		comm := "usb"
		if serial {
			comm = "serial"
		}
		out = append(out, [3]string{"mcu.comm", "mcu", comm})
	}
	crystals := map[string]bool{}
	for _, m := range crystalRe.FindAllStringSubmatch(h, -1) {
		n, _ := strconv.Atoi(m[1])
		crystals[strconv.Itoa(n*1000000)] = true
	}
	if len(crystals) == 1 {
		for c := range crystals {
			out = append(out, [3]string{"mcu.crystal", "mcu", c})
		}
	} else if len(crystals) > 1 {
		// one crystal per micro-controller, each in its own sentence ("For
		// STM32F446 boards ... a 12MHz crystal ... For STM32F429 boards ...
		// an 8MHz crystal"): subject "mcu:<chip>"
		for _, sentence := range strings.Split(h, ". ") {
			cs, xs := chipRe.FindAllStringSubmatch(sentence, -1), crystalRe.FindAllStringSubmatch(sentence, -1)
			if len(cs) == 1 && len(xs) == 1 {
				n, _ := strconv.Atoi(xs[0][1])
				out = append(out, [3]string{"mcu.crystal", "mcu:" + cs[0][1], strconv.Itoa(n * 1000000)})
			}
		}
	}
	return out
}

// marlinExamples reads every example configuration under dir.
func marlinExamples(dir string, fact func(key, subject, value string) []any) []stockConfig {
	root := filepath.Join(dir, "config", "examples")
	var out []stockConfig
	err := filepath.WalkDir(root, func(path string, d os.DirEntry, err error) error {
		if err != nil || d.IsDir() || d.Name() != "Configuration.h" {
			return err
		}
		files := []printerfiles.File{}
		for _, name := range []string{"Configuration.h", "Configuration_adv.h"} {
			if data, err := os.ReadFile(filepath.Join(filepath.Dir(path), name)); err == nil {
				files = append(files, printerfiles.File{Name: name, Text: string(data)})
			}
		}
		rel, _ := filepath.Rel(root, filepath.Dir(path))
		c := stockConfig{Name: filepath.ToSlash(rel)}
		seen := map[[2]string]bool{}
		for _, fa := range printerfiles.Read(files).Facts {
			k := [2]string{fa.Key, fa.Subject}
			if !marlinStockKeys[fa.Key] || seen[k] {
				continue
			}
			seen[k] = true
			c.Facts = append(c.Facts, fact(fa.Key, fa.Subject, fa.Value))
		}
		if len(c.Facts) > 0 {
			out = append(out, c)
		}
		return nil
	})
	if err != nil {
		log.Fatal(err)
	}
	return out
}

func main() {
	dir := flag.String("klipper", "", "a Klipper checkout")
	marlin := flag.String("marlin", "", "a checkout of MarlinFirmware/Configurations (instead of -klipper)")
	commit := flag.String("commit", "", "its commit, named in the output")
	out := flag.String("o", "kb/stock/klipper.json", "output file")
	flag.Parse()
	if *marlin != "" {
		res := &stockFile{Source: "https://github.com/MarlinFirmware/Configurations/tree/" + *commit + "/config/examples"}
		res.Configs = marlinExamples(*marlin, res.facter())
		writeStock(*res, *out)
		return
	}
	files, err := filepath.Glob(filepath.Join(*dir, "config", "*.cfg"))
	if err != nil || len(files) == 0 {
		log.Fatalf("no configs under %s/config: %v", *dir, err)
	}
	sort.Strings(files)
	res := &stockFile{Source: "https://github.com/Klipper3d/klipper/tree/" + *commit + "/config"}
	fact := res.facter()
	for _, f := range files {
		base := filepath.Base(f)
		if !strings.HasPrefix(base, "printer-") && !strings.HasPrefix(base, "generic-") {
			continue
		}
		data, err := os.ReadFile(f)
		if err != nil {
			log.Fatal(err)
		}
		rep := printerfiles.Read([]printerfiles.File{{Name: base, Text: string(data)}})
		c := stockConfig{Name: base}
		seen := map[[2]string]bool{}
		for _, fa := range rep.Facts {
			k := [2]string{fa.Key, fa.Subject}
			if !stockKeys[fa.Key] || seen[k] {
				continue
			}
			seen[k] = true
			c.Facts = append(c.Facts, fact(fa.Key, fa.Subject, fa.Value))
		}
		for _, h := range header(string(data)) {
			c.Facts = append(c.Facts, fact(h[0], h[1], h[2]))
		}
		if len(c.Facts) > 0 {
			res.Configs = append(res.Configs, c)
		}
	}
	writeStock(*res, *out)
}

// facter returns the function that writes one fact of an example: its
// key's index in res.Keys (added on first use), subject and value.
func (res *stockFile) facter() func(key, subject, value string) []any {
	keyIndex := map[string]int{}
	return func(key, subject, value string) []any {
		i, ok := keyIndex[key]
		if !ok {
			i = len(res.Keys)
			keyIndex[key] = i
			res.Keys = append(res.Keys, key)
		}
		return []any{i, subject, value}
	}
}

// writeStock writes the examples, one per line so that diffs stay readable.
func writeStock(res stockFile, out string) {
	b, err := json.Marshal(res)
	if err != nil {
		log.Fatal(err)
	}
	s := strings.ReplaceAll(string(b), `},{"name"`, "},\n{\"name\"")
	if err := os.MkdirAll(filepath.Dir(out), 0o755); err != nil {
		log.Fatal(err)
	}
	if err := os.WriteFile(out, []byte(s+"\n"), 0o644); err != nil {
		log.Fatal(err)
	}
	log.Printf("%d configs written to %s", len(res.Configs), out)
}
