package printerfiles

import (
	"strings"
	"testing"
)

// Excerpt of Klipper3d/klipper config/printer-creality-ender3-s1-2021.cfg.
const klipperEnder3S1 = `# See docs/Config_Reference.md for a description of parameters.

[stepper_z]
step_pin: PB6
dir_pin: !PB5
enable_pin: !PC3
microsteps: 16
rotation_distance: 8
endstop_pin: probe:z_virtual_endstop
position_max: 270
position_min: -4

[extruder]
step_pin: PB4
dir_pin: PB3
enable_pin: !PC3
microsteps: 16
gear_ratio: 42:12
rotation_distance: 26.359
nozzle_diameter: 0.400
filament_diameter: 1.750
heater_pin: PA1
sensor_type: EPCOS 100K B57560G104F
sensor_pin: PC5
control: pid
pid_Kp: 23.561
pid_Ki: 1.208
pid_Kd: 114.859
min_temp: 0
max_temp: 260 # Set to 300 for S1 Pro

[heater_bed]
heater_pin: PA7
sensor_type: EPCOS 100K B57560G104F
sensor_pin: PC4
control: pid
pid_Kp: 71.867
pid_Ki: 1.536
pid_Kd: 840.843
min_temp: 0
max_temp: 100 # Set to 110 for S1 Pro

[heater_fan hotend_fan]
pin: PC0

[fan]
pin: PA0

[mcu]
serial: /dev/serial/by-id/usb-1a86_USB_Serial-if00-port0
restart_method: command

[printer]
kinematics: cartesian
max_velocity: 300
max_accel: 2000
max_z_velocity: 5
max_z_accel: 100

[bltouch]
sensor_pin: ^PC14
control_pin: PC13
x_offset: -31.8
y_offset: -40.5
z_offset: 0
probe_with_touch_mode: true
stow_on_each_sample: false

[bed_mesh]
speed: 120
mesh_min: 10, 10
mesh_max: 200, 194
probe_count: 4,4
algorithm: bicubic

[safe_z_home]
home_xy_position: 147, 154
speed: 75
z_hop: 10
z_hop_speed: 5

[filament_switch_sensor e0_sensor]
switch_pin: !PC15
`

// Excerpt of Klipper3d/klipper config/printer-creality-ender3-v2-2020.cfg.
const klipperEnder3V2 = `[stepper_x]
step_pin: PC2
dir_pin: PB9
enable_pin: !PC3
microsteps: 16
rotation_distance: 40
endstop_pin: ^PA5
position_endstop: 0
position_max: 235
homing_speed: 50

[extruder]
max_extrude_only_distance: 100.0
step_pin: PB4
dir_pin: PB3
enable_pin: !PC3
microsteps: 16
rotation_distance: 34.406
nozzle_diameter: 0.400
filament_diameter: 1.750
heater_pin: PA1
sensor_type: EPCOS 100K B57560G104F
sensor_pin: PC5
control: pid
# tuned for stock hardware with 200 degree Celsius target
pid_Kp: 21.527
pid_Ki: 1.063
pid_Kd: 108.982
min_temp: 0
max_temp: 250
`

// Excerpt of Klipper3d/klipper test/klippy/tmc.cfg.
const klipperTMC = `[stepper_x]
step_pin: PC0
dir_pin: PL0
enable_pin: !PA7
microsteps: 16
rotation_distance: 40
endstop_pin: tmc2130_stepper_x:virtual_endstop
position_endstop: 0
position_max: 250

[tmc2130 stepper_x]
cs_pin: PG0
run_current: .5
sense_resistor: 0.220
diag1_pin: !PK2

[stepper_y1]
step_pin: PA4
dir_pin: PA6
microsteps: 16
rotation_distance: 40
endstop_pin: tmc2209_stepper_y1:virtual_endstop

[tmc2209 stepper_y1]
uart_pin: PA5
diag_pin: PH6
run_current: .5
sense_resistor: 0.075
`

// Excerpt of Klipper3d/klipper test/klippy/delta_calibrate.cfg: the
// SAVE_CONFIG block.
const klipperDeltaSaveConfig = `[printer]
kinematics: delta
max_velocity: 300
max_accel: 3000
#delta_radius: 174.75

[delta_calibrate]
radius: 50

#*# <---------------------- SAVE_CONFIG ---------------------->
#*# DO NOT EDIT THIS BLOCK OR BELOW. The contents are auto-generated.
#*#
#*# [printer]
#*# delta_radius = 174.750004
#*#
#*# [stepper_a]
#*# angle = 210.000032
#*# arm_length = 333.000032
#*# position_endstop = 297.049970
`

// Excerpt of Klipper3d/klipper config/printer-anycubic-vyper-2021.cfg.
const klipperVyperExtruder = `[extruder]
step_pin: PB4
dir_pin: !PB3
enable_pin: !PA15
microsteps: 16
rotation_distance: 22.76500  #has to be calibrated by everyone, official document: diameter = 7.25
gear_ratio: 50:17
full_steps_per_rotation: 200
nozzle_diameter: 0.400
filament_diameter: 1.750
`

func TestKlipperConfig(t *testing.T) {
	tests := []struct {
		name, file, text string
		wants, absent    []want
	}{
		{
			name: "Ender-3 S1: geared extruder, BLTouch, SAVE_CONFIG-free", file: "printer.cfg", text: klipperEnder3S1,
			wants: []want{
				{"extruder.rotation_distance", "extruder", "26.359"},
				{"extruder.gear_ratio", "extruder", "42:12"},
				// 200 full steps × 16 microsteps × 42/12 / 26.359 mm
				{"extruder.steps_per_mm", "extruder", "~424.9023"},
				{"stepper.steps_per_mm", "z", "~400"},
				{"stepper.dir_inverted", "z", "true"},
				{"extruder.dir_inverted", "extruder", "false"},
				{"endstop.type", "z", "probe"},
				{"heater.sensor_type", "extruder", "EPCOS 100K B57560G104F"},
				{"heater.max_temp", "extruder", "260"},
				{"heater.max_temp", "heater_bed", "100"},
				{"heater.pid_kp", "extruder", "23.561"},
				{"pid.tuned", "extruder", "true"},
				{"probe.type", "probe", "bltouch"},
				{"probe.x_offset", "probe", "-31.8"},
				{"probe.y_offset", "probe", "-40.5"},
				{"probe.z_offset", "probe", "0"},
				{"probe.sensor_pin", "probe", "^PC14"},
				{"probe.control_pin", "probe", "PC13"},
				{"probe.probe_with_touch_mode", "probe", "true"},
				{"fan.pin", "heater_fan hotend_fan", "PC0"},
				{"fan.pin", "fan", "PA0"},
				{"mcu.serial", "mcu", "/dev/serial/by-id/usb-1a86_USB_Serial-if00-port0"},
				{"mcu.restart_method", "mcu", "command"},
				{"printer.max_accel", "", "2000"},
				{"bed_mesh.probe_count", "", "4,4"},
				{"leveling.type", "", "bed_mesh"},
				{"safe_z_home.x", "", "~147"},
				{"safe_z_home.y", "", "~154"},
				{"filament_sensor.pin", "e0_sensor", "!PC15"},
				{"klipper.section", "bltouch", "bltouch"},
			},
		},
		{
			name: "Ender-3 V2: stock PID from the example config is not tuned", file: "printer.cfg", text: klipperEnder3V2,
			wants: []want{
				{"extruder.steps_per_mm", "extruder", "~93.0070"},
				{"extruder.max_extrude_only_distance", "extruder", "100.0"},
				{"pid.tuned", "extruder", "false"},
				{"endstop.pullup", "x", "true"},
				{"endstop.inverted", "x", "false"},
				{"stepper.enable_inverted", "x", "true"},
			},
		},
		{
			name: "TMC drivers and sensorless endstops", file: "tmc.cfg", text: klipperTMC,
			wants: []want{
				{"driver.type", "x", "tmc2130"},
				{"driver.run_current", "x", ".5"},
				{"driver.diag_pin", "x", "!PK2"},
				{"driver.type", "y1", "tmc2209"},
				{"driver.uart_pin", "y1", "PA5"},
				{"driver.sense_resistor", "y1", "0.075"},
				{"endstop.type", "x", "sensorless"},
			},
		},
		{
			name: "SAVE_CONFIG values override and are read", file: "printer.cfg", text: klipperDeltaSaveConfig,
			wants: []want{
				{"printer.kinematics", "", "delta"},
				{"stepper.position_endstop", "a", "297.049970"},
			},
		},
		{
			name: "comment after a value, gear ratio with full steps", file: "extruder.cfg", text: klipperVyperExtruder,
			wants: []want{
				{"extruder.rotation_distance", "extruder", "22.76500"},
				{"extruder.steps_per_mm", "extruder", "~413.4314"},
			},
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			rep := read(t, tt.file, tt.text)
			if rep.Files[0].Kind != KindKlipperConfig {
				t.Fatalf("kind %s, want %s", rep.Files[0].Kind, KindKlipperConfig)
			}
			expectFacts(t, rep, tt.wants)
			expectNoFacts(t, rep, tt.absent)
		})
	}
}

// SAVE_CONFIG's values override the ones above, as configfile.py's
// ConfigAutoSave appends them after the regular config; the block's layout
// is the one cmd_SAVE_CONFIG writes ("#*# " + configparser's "key = value").
func TestKlipperSaveConfigOverrides(t *testing.T) {
	text := klipperEnder3V2 + `
[bltouch]
sensor_pin: ^PB1
control_pin: PB0
x_offset: -44
y_offset: -6
z_offset: 2.0

#*# <---------------------- SAVE_CONFIG ---------------------->
#*# DO NOT EDIT THIS BLOCK OR BELOW. The contents are auto-generated.
#*#
#*# [extruder]
#*# control = pid
#*# pid_kp = 26.213
#*# pid_ki = 1.304
#*# pid_kd = 131.721
#*#
#*# [bltouch]
#*# z_offset = 2.545
`
	rep := read(t, "printer.cfg", text)
	expectFacts(t, rep, []want{
		{"heater.pid_kp", "extruder", "26.213"},
		{"pid.tuned", "extruder", "true"},
		{"probe.z_offset", "probe", "2.545"},
		{"probe.trigger_height", "probe", "2.545"},
	})
	f, _ := findFact(rep, "probe.z_offset", "probe")
	if f.Quote != "#*# z_offset = 2.545" {
		t.Errorf("quote %q, want the SAVE_CONFIG line", f.Quote)
	}
}

// Includes are reported by name and never followed; macros by name.
func TestKlipperIncludesAndMacros(t *testing.T) {
	text := "[include mainsail.cfg]\n[include macros/*.cfg]\n\n[gcode_macro M600]\ngcode:\n    PAUSE\n    UNLOAD_FILAMENT\n" +
		"[gcode_macro PRINT_START]\ngcode:\n  G28\n  rotation_distance: 1\n"
	rep := read(t, "printer.cfg", text)
	expectFacts(t, rep, []want{
		{"klipper.include", "mainsail.cfg", "mainsail.cfg"},
		{"klipper.include", "macros/*.cfg", "macros/*.cfg"},
		{"klipper.macro", "M600", "M600"},
		{"klipper.macro", "PRINT_START", "PRINT_START"},
	})
	// an indented line continues the macro's gcode, it is not an option
	expectNoFacts(t, rep, []want{{"extruder.rotation_distance", "extruder", ""}})

	var many strings.Builder
	for i := range 3 * maxIncludes {
		many.WriteString("[include file")
		many.WriteString(strings.Repeat("x", i))
		many.WriteString(".cfg]\n")
	}
	rep = read(t, "printer.cfg", many.String())
	n := 0
	for _, f := range rep.Facts {
		if f.Key == "klipper.include" {
			n++
		}
	}
	if n != maxIncludes {
		t.Errorf("%d includes reported, want %d", n, maxIncludes)
	}
}

// A macro's template reads its parameters as params.NAME (Klipper's
// Command_Templates: "PRINT_START BED_TEMP=60" gives params.BED_TEMP); the
// names are listed upper case, once each, not rawparams.
func TestKlipperMacroParams(t *testing.T) {
	cfg := `[gcode_macro PRINT_START]
gcode:
    {% set BED_TEMP = params.BED_TEMP|default(60)|float %}
    {% set EXTRUDER_TEMP = params['extruder_temp']|default(200)|float %}
    M140 S{BED_TEMP}
    M190 S{params.BED_TEMP}
    {action_respond_info(rawparams)}

[gcode_macro END_PRINT]
gcode:
    TURN_OFF_HEATERS
`
	rep := read(t, "printer.cfg", cfg)
	expectFacts(t, rep, []want{{"klipper.macro_params", "PRINT_START", "BED_TEMP EXTRUDER_TEMP"}})
	if f, ok := findFact(rep, "klipper.macro_params", "END_PRINT"); ok {
		t.Errorf("END_PRINT takes no parameters: %+v", f)
	}
}
