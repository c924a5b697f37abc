package printerfiles

import (
	"strings"
	"testing"
)

// An M503 dump as OctoPrint's terminal shows it, published by a maker in a
// public Klipper-migration README (Marlin 2.x layout, each line printed by
// the *_report functions of Marlin/src/gcode/config/*.cpp).
const marlinM503Octoprint = `Send: M503
Recv: echo:; Linear Units:
Recv: echo:  G21 ; (mm)
Recv: echo:; Temperature Units:
Recv: echo:  M149 C ; Units in Celsius
Recv: echo:; Filament settings (Disabled):
Recv: echo:  M200 S0 D1.75
Recv: echo:; Steps per unit:
Recv: echo:  M92 X80.00 Y80.00 Z400.00 E424.90
Recv: echo:; Max feedrates (units/s):
Recv: echo:  M203 X500.00 Y500.00 Z10.00 E45.00
Recv: echo:; Max Acceleration (units/s2):
Recv: echo:  M201 X500.00 Y500.00 Z100.00 E1000.00
Recv: echo:; Acceleration (units/s2) (P<print-accel> R<retract-accel> T<travel-accel>):
Recv: echo:  M204 P500.00 R800.00 T1000.00
Recv: echo:; Advanced (B<min_segment_time_us> S<min_feedrate> T<min_travel_feedrate> J<junc_dev>):
Recv: echo:  M205 B20000.00 S0.00 T0.00 J0.10
Recv: echo:; Unified Bed Leveling:
Recv: echo:  M420 S0 Z10.00 ; Leveling OFF
Recv: echo:; Material heatup parameters:
Recv: echo:  M145 S0 H195.00 B60.00 F128
Recv: echo:; Hotend PID:
Recv: echo:  M301 P22.20 I1.08 D114.00
Recv: echo:; Bed PID:
Recv: echo:  M304 P126.13 I4.30 D924.76
Recv: echo:; Z-Probe Offset:
Recv: echo:  M851 X-31.80 Y-40.50 Z1.20 ; (mm)
Recv: echo:; Linear Advance:
Recv: echo:  M900 K0.00
Recv: echo:; Stepper driver current:
Recv: echo:  M906 X580 Y580 Z580
Recv: echo:  M906 T0 E650
Recv: echo:; Hybrid Threshold:
Recv: echo:  M913 X100 Y100 Z3 E30
Recv: echo:; Driver stepping mode:
Recv: echo:  M569 S1 X Y Z
Recv: ok
`

// A Marlin 1.1 M503 (older headings, "S" acceleration) as Pronterface
// shows it, from a maker's published pen-plotter notes.
const marlinM503Old = `echo:Steps per unit:
echo:  M92 X80.00 Y80.00 Z4000.00 E500.00
echo:Maximum feedrates (units/s):
echo:  M203 X300.00 Y300.00 Z5.00 E25.00
echo:Maximum Acceleration (units/s2):
echo:  M201 X3000 Y3000 Z100 E10000
echo:Acceleration (units/s2): P<print_accel> R<retract_accel> T<travel_accel>
echo:  M204 P3000.00 R3000.00 T3000.00
echo:Advanced: S<min_feedrate> T<min_travel_feedrate> B<min_segment_time_us> X<max_xy_jerk> Z<max_z_jerk> E<max_e_jerk>
echo:  M205 S0.00 T0.00 B20000 X10.00 Y10.00 Z0.40 E5.00
echo:PID settings:
echo:  M301 P21.73 I1.54 D76.55
`

func TestMarlinM503(t *testing.T) {
	tests := []struct {
		name, file, text string
		kind             Kind
		wants            []want
	}{
		{"Marlin 2 through OctoPrint", "M503.txt", marlinM503Octoprint, KindMarlinM503, []want{
			{"extruder.steps_per_mm", "extruder", "~424.9"},
			{"stepper.steps_per_mm", "z", "~400"},
			{"stepper.max_velocity", "z", "~10"},
			{"extruder.max_accel", "extruder", "~1000"},
			{"printer.max_accel", "", "~500"},
			{"printer.retract_accel", "", "~800"},
			{"printer.travel_accel", "", "~1000"},
			{"printer.junction_deviation", "", "~0.1"},
			{"leveling.enabled", "", "false"},
			{"leveling.fade_height", "", "~10"},
			{"heater.pid_kp", "extruder", "~22.2"},
			{"pid.tuned", "extruder", "false"}, // Marlin's default
			{"pid.tuned", "heater_bed", "false"},
			{"probe.z_offset", "probe", "~1.2"},
			{"probe.trigger_height", "probe", "~-1.2"},
			{"probe.x_offset", "probe", "~-31.8"},
			{"extruder.pressure_advance", "extruder", "~0"},
			{"driver.run_current", "x", "~0.58"},
			{"driver.run_current", "extruder", "~0.65"},
			{"driver.stealthchop_threshold", "z", "~3"},
			{"driver.stealthchop", "y", "true"},
			{"extruder.volumetric", "extruder", "false"},
			{"extruder.filament_diameter", "extruder", "~1.75"},
		}},
		{"Marlin 1.1 headings", "pronterface.txt", marlinM503Old, KindMarlinM503, []want{
			{"stepper.steps_per_mm", "z", "~4000"},
			{"printer.max_accel", "", "~3000"},
			{"stepper.jerk", "x", "~10"},
			{"extruder.jerk", "extruder", "~5"},
			{"pid.tuned", "extruder", "false"}, // Creality's default
		}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			rep := read(t, tt.file, tt.text)
			if k := rep.Files[0].Kind; k != tt.kind {
				t.Fatalf("kind %s, want %s", k, tt.kind)
			}
			expectFacts(t, rep, tt.wants)
		})
	}
}

// A host's "Send:" lines are commands, not the printer's settings.
func TestMarlinSentCommandsAreNotSettings(t *testing.T) {
	rep := read(t, "terminal.txt", "Send: M92 E100\nRecv: ok\nRecv: echo:  M92 X80.00 Y80.00 Z400.00 E93.00\n")
	expectFacts(t, rep, []want{{"extruder.steps_per_mm", "extruder", "~93"}})
}

// Serial logs: the errors of Marlin/src/core/language.h and
// Marlin/src/module/temperature.cpp (_temp_error prints the message,
// ", system stopped! Heater_ID: " and the heater), as OctoPrint's
// serial.log and terminal show them.
func TestMarlinSerial(t *testing.T) {
	expectLines(t, "serial.log", "Recv: start", []lineCase{
		{"Recv: Error:Thermal Runaway, system stopped! Heater_ID: 0", want{"error.thermal_runaway", "extruder", "Thermal Runaway, system stopped! Heater_ID: 0"}},
		{"Recv: Error:Thermal Runaway, system stopped! Heater_ID: bed", want{"error.thermal_runaway", "heater_bed", "Thermal Runaway, system stopped! Heater_ID: bed"}},
		{"Recv: Error:MINTEMP triggered, system stopped! Heater_ID: 0", want{"error.mintemp", "extruder", "MINTEMP triggered, system stopped! Heater_ID: 0"}},
		{"Error:MAXTEMP triggered, system stopped! Heater_ID: 1", want{"error.maxtemp", "extruder1", "MAXTEMP triggered, system stopped! Heater_ID: 1"}},
		{"Recv: Error:Heating failed, system stopped! Heater_ID: bed", want{"error.heater_not_heating", "heater_bed", "Heating failed, system stopped! Heater_ID: bed"}},
		{"Recv: Error:Printer halted. kill() called!", want{"error.killed", "", "Printer halted. kill() called!"}},
		{"2024-01-02 10:00:00,123 - Recv: Error:Line Number is not Last Line Number+1, Last Line: 9", want{"error.serial_line_number", "", "Line Number is not Last Line Number+1, Last Line: 9"}},
		{"Recv: Error:checksum mismatch, Last Line: 4012", want{"error.serial_checksum", "", "checksum mismatch, Last Line: 4012"}},
		{"Recv: echo:Unknown command: \"M851\"", want{"error.unknown_command", "M851", "Unknown command: \"M851\""}},
		{"echo:EEPROM version mismatch (EEPROM=V47 Marlin=V52)", want{"warning.eeprom_version_mismatch", "", "EEPROM version mismatch (EEPROM=V47 Marlin=V52)"}},
		{"echo:Hardcoded Default Settings Loaded", want{"eeprom.defaults_loaded", "", "Hardcoded Default Settings Loaded"}},
		{"Recv: echo: cold extrusion prevented", want{"error.extrude_below_min_temp", "extruder", "cold extrusion prevented"}},
		{"echo: Brown out Reset", want{"error.brownout_reset", "mcu", "Brown out Reset"}},
		{"Recv: !! STOP called because of BLTouch error - restart with M999", want{"error.bltouch", "probe", "!! STOP called because of BLTouch error - restart with M999"}},
		{"Recv: Error:Probing Failed", want{"error.probing_failed", "probe", "Probing Failed"}},
		{"Recv: Resend: 4012", want{"warning.serial_resend", "", "Resend: 4012"}},
		{"z_probe: TRIGGERED", want{"endstop.state", "z_probe", "TRIGGERED"}},
	})
}

// M115 (Marlin/src/gcode/host/M115.cpp) as a published Marlin 2.0.9.2 dump
// shows it, capabilities on their own lines; and temperature reports.
func TestMarlinM115AndTemperatures(t *testing.T) {
	text := `FIRMWARE_NAME:Marlin 2.0.9.2 (Nov 11 2022 12:40:55) SOURCE_CODE_URL:github.com/MarlinFirmware/Marlin PROTOCOL_VERSION:1.0 MACHINE_TYPE:3D Printer EXTRUDER_COUNT:1 UUID:cede2a2f-41a2-4748-9b12-c55c62f367ff
Cap:SERIAL_XON_XOFF:0
Cap:EEPROM:1
Cap:AUTOLEVEL:0
Cap:THERMAL_PROTECTION:1
ok T:213.4 /205.0 B:60.1 /60.0 @:127 B@:0
ok T:205.2 /205.0 B:60.1 /60.0 @:90 B@:0
ok T:196.1 /205.0 B:60.0 /60.0 @:127 B@:0
`
	rep := read(t, "octoprint_terminal.txt", text)
	s := rep.Files[0]
	if s.Kind != KindMarlinSerial || s.Firmware != "Marlin" || s.Version != "2.0.9.2" || s.Label != "Marlin serial log (2.0.9.2)" {
		t.Fatalf("summary %+v", s)
	}
	expectFacts(t, rep, []want{
		{"firmware.name", "", "Marlin"},
		{"firmware.version", "", "2.0.9.2"},
		{"firmware.machine", "", "3D Printer"},
		{"firmware.capability", "EEPROM", "1"},
		{"firmware.capability", "THERMAL_PROTECTION", "1"},
		{"heater.temp_deviation_max", "extruder", "~8.9"},
	})
	expectNoFacts(t, rep, []want{{"firmware.capability", "SERIAL_XON_XOFF", ""}})
}

// Excerpt of MarlinFirmware/Configurations config/examples/Creality/
// Ender-3 V2/CrealityV422/MarlinUI/Configuration.h (2.1.3), with a probe
// and linear advance switched on as a maker would.
const marlinConfigEnder3V2 = `#define CONFIGURATION_H_VERSION 02010300
#ifndef MOTHERBOARD
  #define MOTHERBOARD BOARD_CREALITY_V4
#endif
#define SERIAL_PORT 1
#define BAUDRATE 115200
#define CUSTOM_MACHINE_NAME "Ender-3 V2"
#define X_DRIVER_TYPE TMC2208_STANDALONE
#define E0_DRIVER_TYPE TMC2208_STANDALONE
//#define E1_DRIVER_TYPE A4988
#define TEMP_SENSOR_0 1
#define TEMP_SENSOR_BED 1
#define HEATER_0_MAXTEMP 275
#define BED_MAXTEMP      120
#define PIDTEMP           // See the PID Tuning Guide at https://reprap.org/wiki/PID_Tuning
//#define MPCTEMP         // See https://marlinfw.org/docs/features/model_predictive_control.html
#if ENABLED(PIDTEMP)
  //#define PID_PARAMS_PER_HOTEND
  #if ENABLED(PID_PARAMS_PER_HOTEND)
    #define DEFAULT_Kp_LIST {  28.72,  28.72 }
  #else
    #define DEFAULT_Kp  28.72
    #define DEFAULT_Ki   2.62
    #define DEFAULT_Kd  78.81
  #endif
#endif
#define PIDTEMPBED
#if ENABLED(PIDTEMPBED)
  #define DEFAULT_bedKp 462.10
  #define DEFAULT_bedKi  85.47
  #define DEFAULT_bedKd 624.59
#endif
#define PREVENT_COLD_EXTRUSION
#define EXTRUDE_MINTEMP 180
#define EXTRUDE_MAXLENGTH 1000
#define THERMAL_PROTECTION_HOTENDS // Enable thermal protection for all extruders
//#define THERMAL_PROTECTION_BED     // Enable thermal protection for the heated bed
#define DEFAULT_AXIS_STEPS_PER_UNIT   { 80, 80, 400, 93 }
#define CLASSIC_JERK
#if ENABLED(CLASSIC_JERK)
  #define DEFAULT_XJERK 10.0
#endif
#if DISABLED(CLASSIC_JERK)
  #define JUNCTION_DEVIATION_MM 0.013 // (mm) Distance from real junction edge
#endif
/**
 * #define BLTOUCH
 */
#define BLTOUCH
#define NOZZLE_TO_PROBE_OFFSET { -44, -6, 0 }
#define INVERT_X_DIR false
#define INVERT_E0_DIR true
#define AUTO_BED_LEVELING_BILINEAR
#define EEPROM_SETTINGS       // Persistent storage with M500 and M501
//#define FILAMENT_RUNOUT_SENSOR
#if ENABLED(FILAMENT_RUNOUT_SENSOR)
  #define FIL_RUNOUT_STATE     LOW        // Pin state indicating that filament is NOT present.
#endif
`

func TestMarlinConfig(t *testing.T) {
	rep := read(t, "Configuration.h", marlinConfigEnder3V2)
	s := rep.Files[0]
	if s.Kind != KindMarlinConfig || s.Version != "2.1.3" {
		t.Fatalf("summary %+v", s)
	}
	expectFacts(t, rep, []want{
		{"firmware.board", "", "BOARD_CREALITY_V4"},
		{"firmware.machine", "", "Ender-3 V2"},
		{"mcu.baud", "", "115200"},
		{"driver.type", "extruder", "TMC2208_STANDALONE"},
		{"heater.sensor_type", "extruder", "1 (100k EPCOS)"},
		{"heater.max_temp", "extruder", "275"},
		{"heater.control", "extruder", "pid"},
		{"heater.pid_kp", "extruder", "28.72"},
		{"pid.tuned", "extruder", "false"},
		{"pid.tuned", "heater_bed", "false"},
		{"heater.thermal_protection", "extruder", "true"},
		{"heater.thermal_protection", "heater_bed", "false"},
		{"extruder.min_extrude_temp", "extruder", "180"},
		{"extruder.max_extrude_only_distance", "extruder", "1000"},
		{"extruder.steps_per_mm", "extruder", "~93"},
		{"stepper.steps_per_mm", "z", "~400"},
		{"printer.jerk_mode", "", "classic_jerk"},
		{"stepper.jerk", "x", "10.0"},
		{"probe.type", "probe", "bltouch"},
		{"probe.x_offset", "probe", "~-44"},
		{"probe.trigger_height", "probe", "~0"},
		{"stepper.dir_inverted", "x", "false"},
		{"extruder.dir_inverted", "extruder", "true"},
		{"leveling.type", "", "auto_bed_leveling_bilinear"},
		{"eeprom.enabled", "", "true"},
		{"filament_sensor.enabled", "filament", "false"},
	})
	expectNoFacts(t, rep, []want{
		{"printer.junction_deviation", "", ""},           // in a DISABLED(CLASSIC_JERK) block
		{"filament_sensor.runout_state", "filament", ""}, // its sensor is off
		{"driver.type", "extruder1", ""},
	})
}

// Configuration_adv.h is read knowing what Configuration.h defined: a
// standalone driver's current and a threshold whose feature is off are
// not settings the printer uses.
func TestMarlinConfigAdvUsesConfiguration(t *testing.T) {
	adv := `#define CONFIGURATION_ADV_H_VERSION 02010300
#if HAS_TRINAMIC_CONFIG
  #define X_CURRENT       800        // (mA) RMS current. Multiply by 1.414 for peak current.
  #define E0_CURRENT      650
  //#define HYBRID_THRESHOLD
  #define X_HYBRID_THRESHOLD     100  // [mm/s]
#endif
#define LIN_ADVANCE
#if ENABLED(LIN_ADVANCE)
  #define ADVANCE_K 0.22    // Unit: mm compression per 1mm/s extruder speed
#endif
`
	files := []File{{"Configuration_adv.h", adv}, {"Configuration.h", `#define X_DRIVER_TYPE  TMC2209
#define E0_DRIVER_TYPE TMC2208_STANDALONE
`}}
	rep := Read(files)
	checkInvariants(t, files, rep)
	expectFacts(t, rep, []want{
		{"driver.run_current", "x", "~0.8"},
		{"extruder.pressure_advance", "extruder", "0.22"},
		{"marlin.option", "LIN_ADVANCE", "enabled"},
		{"marlin.option", "HYBRID_THRESHOLD", "disabled"},
	})
	expectNoFacts(t, rep, []want{
		{"driver.run_current", "extruder", ""},
		{"driver.stealthchop_threshold", "x", ""},
	})
}

// OctoPrint's serial.log: its own connection messages
// (octoprint/plugins/serial_connector/serial_comm.py) around a board that
// answers at another baud rate, and an error as OctoPrint shows it.
func TestOctoPrintSerialLog(t *testing.T) {
	text := "2024-08-17 20:01:09,400 - Connecting to port /dev/ttyUSB0, baudrate 250000\n" +
		"2024-08-17 20:01:09,442 - Changing monitoring state from \"Opening serial connection\" to \"Connecting\"\n" +
		"2024-08-17 20:01:11,447 - Recv: \uFFFD\uFFFD\uFFFD\uFFFDx\uFFFD\uFFFD\uFFFD\n" +
		"2024-08-17 20:01:11,567 - Send: N0 M110 N0*125\n" +
		"2024-08-17 20:01:21,581 - No answer from the printer within the connection timeout, trying another hello\n" +
		"2024-08-17 20:01:41,588 - There was a timeout while trying to connect to the printer\n"
	rep := readKind(t, "serial.log", text, KindMarlinSerial)
	expectFacts(t, rep, []want{
		{"mcu.host_baud", "mcu", "250000"},
		{"error.serial_garbage", "mcu", "\uFFFD\uFFFD\uFFFD\uFFFDx\uFFFD\uFFFD\uFFFD"},
		{"error.mcu_connect", "mcu", "No answer from the printer within the connection timeout, trying another hello"},
	})
	rep = read(t, "octoprint_error.txt", "MINTEMP triggered, system stopped! Heater_ID: 0 - Printer halted. kill() called!\n")
	expectFacts(t, rep, []want{
		{"error.mintemp", "extruder", "MINTEMP triggered, system stopped! Heater_ID: 0 - Printer halted. kill() called!"},
		{"error.killed", "", "MINTEMP triggered, system stopped! Heater_ID: 0 - Printer halted. kill() called!"},
	})
}

// More of Marlin's serial messages (Marlin/src/core/language.h) and the TMC
// driver monitor's reports (feature/tmc_util.cpp).
func TestMarlinMoreMessages(t *testing.T) {
	expectLines(t, "serial.log", "Recv: start", []lineCase{
		{"Recv: echo:Steprate too high: 212000", want{"warning.steprate_too_high", "", "212000"}},
		{"Recv: echo:Hotend too cold", want{"error.extrude_below_min_temp", "extruder", "Hotend too cold"}},
		{"Recv: echo:SD init fail", want{"error.storage", "sd", "SD init fail"}},
		{"Recv: Error:SD read error", want{"error.storage", "sd", "SD read error"}},
		{"Recv: echo:Press button (or M108) to heat nozzle", want{"event.heaters_timeout", "extruder", "Press button (or M108) to heat nozzle"}},
		{"Recv: Error:Heater switched off. Temperature difference between temp sensors is too high !", want{"error.sensor_fault", "extruder", "Heater switched off. Temperature difference between temp sensors is too high !"}},
		{"Recv: Error:STOP called because of unhomed error - restart with M999", want{"error.must_home_first", "", "STOP called because of unhomed error - restart with M999"}},
		{"Recv: Error:Failed to enable Bed Leveling", want{"error.leveling_enable_failed", "", "Failed to enable Bed Leveling"}},
		{"Recv: X driver error detected:", want{"error.driver_fault", "x", "X driver error detected:"}},
		{"Recv: 0:42:17: E driver overtemperature warning! (800mA)", want{"warning.driver_over_temperature", "extruder", "E driver overtemperature warning! (800mA)"}},
	})
	rep := read(t, "serial.log", "Recv: start\nRecv: Y driver error detected:\nRecv: short to ground (coil B)\nRecv: Error:Printer halted. kill() called!\n")
	expectFacts(t, rep, []want{{"error.driver_short_to_ground", "y", "short to ground (coil B)"}, {"error.killed", "", "Printer halted. kill() called!"}})
	// a reason line with no driver error before it is no fact
	rep = read(t, "serial.log", "Recv: start\nRecv: overtemperature\n")
	expectNoFacts(t, rep, []want{{"error.driver_over_temperature", "", ""}})
}

// Repetier-Host's log prefixes each line with "HH:MM:SS.mmm : ".
func TestMarlinRepetierHostLog(t *testing.T) {
	rep := read(t, "repetier.txt", "18:04:50.312 : N3 M503*33\n18:04:50.326 : echo:  M92 X80.00 Y80.00 Z400.00 E93.00\n18:04:50.330 : echo:  M851 X-44.00 Y-7.00 Z2.15\n")
	expectFacts(t, rep, []want{{"extruder.steps_per_mm", "extruder", "~93"}, {"probe.trigger_height", "probe", "~-2.15"}})
}

// M122's driver table (Marlin/src/feature/tmc_util.cpp, tmc_report_all):
// tab-separated columns per axis, DRV_STATUS flags marked "*".
func TestMarlinM122Table(t *testing.T) {
	rep := read(t, "M122.txt", marlinM122)
	expectM122Facts(t, rep)
	// a flag row before any header is no fact
	rep = read(t, "M122.txt", "Recv: start\nRecv: olb\t\t*\t*\n")
	expectNoFacts(t, rep, []want{{"error.driver_open_load", "", ""}})
}

const marlinM122 = "Send: M122\nRecv: \t\tX\tY\tZ\tE\nRecv: Address\t\t0\t1\t2\t3\nRecv: Enabled\t\ttrue\ttrue\ttrue\ttrue\n" +
	"Recv: Set current\t580\t580\t580\t650\nRecv: RMS current\t571\t571\t571\t637\nRecv: msteps\t\t16\t16\t16\t16\n" +
	"Recv: stealthChop\ttrue\ttrue\tfalse\tfalse\nRecv: OT prewarn\tfalse\tfalse\tfalse\ttrue\nRecv: Driver registers:\n" +
	"Recv: DRVSTATUS\tX\tY\tZ\tE\nRecv: stst\t\t*\t*\t*\t\nRecv: olb\t\t\t\t\t*\nRecv: ola\t\t\t\t\t\n" +
	"Recv: s2gb\t\t\t*\t\t\nRecv: s2ga\t\t\t\t\t\nRecv: otpw\t\t\t\t\t*\nRecv: ot\t\t\t\t\t\n"

// TestMarlinM122Spaced: the driver table whose tabs an editor turned into
// spaces (stops every 8 or 4 columns, with or without the host's prefix)
// gives the facts of the table as printed.
func TestMarlinM122Spaced(t *testing.T) {
	for _, form := range []struct {
		name  string
		width int
		strip string
	}{{"terminal, stops of 8", 8, ""}, {"terminal, stops of 4", 4, ""}, {"serial monitor, stops of 8", 8, "Recv: "}} {
		t.Run(form.name, func(t *testing.T) {
			var b strings.Builder
			for _, l := range splitLines(marlinM122) {
				b.WriteString(expandTabs(strings.TrimPrefix(l, form.strip), form.width) + "\n")
			}
			if strings.Contains(b.String(), "\t") {
				t.Fatal("tabs left")
			}
			expectM122Facts(t, readKind(t, "M122.txt", b.String(), KindMarlinSerial))
		})
	}
}

// expectM122Facts checks the facts of marlinM122.
func expectM122Facts(t *testing.T, rep Report) {
	t.Helper()
	expectFacts(t, rep, []want{
		{"driver.run_current", "x", "~0.58"}, {"driver.run_current", "extruder", "~0.65"},
		{"stepper.microsteps", "y", "~16"}, {"extruder.microsteps", "extruder", "~16"},
		{"driver.stealthchop", "x", "true"}, {"driver.stealthchop", "extruder", "false"},
		{"error.driver_open_load", "extruder", "olb"}, {"error.driver_short_to_ground", "y", "s2gb"},
		{"warning.driver_over_temperature", "extruder", "OT prewarn"},
	})
	expectNoFacts(t, rep, []want{{"error.driver_open_load", "x", ""}, {"error.driver_over_temperature", "", ""}, {"error.driver_short_to_ground", "x", ""}})
}

// TestMarlinQueryAnswers: what Marlin answers to a settings command sent
// without values, pasted alone from a host's terminal, gives the facts the
// M503 line of the same setting gives.
func TestMarlinQueryAnswers(t *testing.T) {
	cases := []struct {
		text  string
		wants []want
	}{
		{"Send: M906\nRecv: X driver current: 580\nRecv: Z2 driver current: 800\nRecv: E driver current: 650\nRecv: ok\n",
			[]want{{"driver.run_current", "x", "0.58"}, {"driver.run_current", "z2", "0.8"}, {"driver.run_current", "extruder", "0.65"}}},
		{"Send: M913\nRecv: X stealthChop max speed: 100\nRecv: E1 stealthChop max speed: 30\n",
			[]want{{"driver.stealthchop_threshold", "x", "100"}, {"driver.stealthchop_threshold", "extruder1", "30"}}},
		{"Send: M914\nRecv: X homing sensitivity: 8\nRecv: Y homing sensitivity: 10\n",
			[]want{{"driver.stallguard_threshold", "x", "8"}, {"driver.stallguard_threshold", "y", "10"}}},
		{"Send: M569\nRecv: X driver mode:\tstealthChop\nRecv: E driver mode:\tspreadCycle\n",
			[]want{{"driver.stealthchop", "x", "true"}, {"driver.stealthchop", "extruder", "false"}}},
		{"Send: M900\nRecv: echo:Advance K=0.22\n", []want{{"extruder.pressure_advance", "extruder", "0.22"}}},
		{"Send: M900\nRecv: echo:Advance K 0:0.22 1:0.05\n",
			[]want{{"extruder.pressure_advance", "extruder", "0.22"}, {"extruder.pressure_advance", "extruder1", "0.05"}}},
		{"Send: M900\nRecv: Advance S0 K0.18(S1 K0.00)\n", []want{{"extruder.pressure_advance", "extruder", "0.18"}}},
		{"Send: M420 V\nRecv: echo:Bed Leveling OFF\nRecv: echo:Fade Height 10.00\n",
			[]want{{"leveling.enabled", "", "false"}, {"leveling.fade_height", "", "10"}}},
		{"Send: M851\nRecv: echo:Probe Offset X-44.00 Y-9.00 Z-1.50\n",
			[]want{{"probe.x_offset", "probe", "-44"}, {"probe.y_offset", "probe", "-9"}, {"probe.z_offset", "probe", "-1.5"}}},
		{"Send: M851\nRecv: echo:Probe Z Offset: -1.50\n", []want{{"probe.z_offset", "probe", "-1.5"}}},
	}
	for _, tt := range cases {
		t.Run(tt.text, func(t *testing.T) {
			rep := readKind(t, "terminal.txt", tt.text, KindMarlinSerial)
			expectFacts(t, rep, tt.wants)
		})
	}
}
