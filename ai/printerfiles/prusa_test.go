package printerfiles

import "testing"

// An MK3S M503 report in the layout of prusa3d/Prusa-Firmware
// Firmware/ConfigurationStore.cpp (Config_PrintSettings, TMC2130 build;
// echomagic is "echo:") and temperature.cpp (thermal_model_report_settings),
// with the firmware's default values.
const prusaM503 = `echo:Steps per unit:
echo:  M92 X100.00 Y100.00 Z400.00 E280.00
echo:UStep resolution: 
echo: M350 X16 Y16 Z16 E32
echo:Maximum feedrates - normal (mm/s):
echo:  M203 X200.00 Y200.00 Z12.00 E120.00
echo:Maximum feedrates - stealth (mm/s):
echo:  M203 X100.00 Y100.00 Z12.00 E120.00
echo:Maximum acceleration - normal (mm/s2):
echo:  M201 X1000 Y1000 Z200 E5000
echo:Acceleration: P=print, R=retract, T=travel
echo:  M204 P1250.00 R1250.00 T1250.00
echo:Advanced variables: S=Min feedrate (mm/s), T=Min travel feedrate (mm/s), B=minimum segment time (us), X=maximum XY jerk (mm/s),  Z=maximum Z jerk (mm/s),  E=maximum E jerk (mm/s)
echo:  M205 S0.00 T0.00 B20000 X8.00 Y8.00 Z0.40 E4.50
echo:Home offset (mm):
echo:  M206 X0.00 Y0.00 Z0.00
echo:PID settings:
echo:   M301 P16.13 I1.16 D56.23
echo:PID heatbed settings:
echo:   M304 P126.13 I4.30 D924.76
echo:Arc Settings: P:Max length(mm) S:Min length (mm) N:Corrections R:Min segments F:Segments/sec.
echo:  M214 P0.50 S0.00 N25 R0 F0
echo:Thermal Model settings:
echo:  M310 I0 R20.50
echo:  M310 P40.00 U0.0000 V1.00 C12.10 D0.0250 L270 S1 B1 E0.74 W1.20 T0.00
`

func TestPrusaM503(t *testing.T) {
	rep := readKind(t, "octoprint_terminal.txt", prusaM503, KindPrusaM503)
	expectFacts(t, rep, []want{
		{"extruder.steps_per_mm", "extruder", "~280"},
		{"extruder.microsteps", "extruder", "~32"},
		{"stepper.microsteps", "x", "~16"},
		{"printer.max_accel", "", "~1250"},
		{"stepper.jerk", "x", "~8"},
		{"heater.pid_ki", "extruder", "~1.16"},
		{"pid.tuned", "extruder", "false"}, // the MK3's own values
		{"pid.tuned", "heater_bed", "false"},
		{"thermal_model.enabled", "extruder", "true"},
		{"thermal_model.warning_threshold", "extruder", "~1.2"},
	})
}

// Prusa firmware messages: the MK3's serial errors (Firmware/temperature.cpp:
// temp_error_messagepgm, temp_runaway_stop, the thermal model warning;
// Marlin_main.cpp: M115, CRASH_DETECTED) and Buddy's error codes
// (prusa.io/<printer code><error>, Prusa-Error-Codes).
func TestPrusaMessages(t *testing.T) {
	expectLines(t, "serial.log", "FIRMWARE_NAME:Prusa-Firmware 3.13.3+7981_a3f5c1a based on Marlin FIRMWARE_URL:https://github.com/prusa3d/Prusa-Firmware PROTOCOL_VERSION:1.0 MACHINE_TYPE:Prusa i3 MK3S EXTRUDER_COUNT:1 UUID:00000000-0000-0000-0000-000000000000", []lineCase{
		{"Error:0: Heaters switched off. MINTEMP triggered!", want{"error.mintemp", "extruder", "0: Heaters switched off. MINTEMP triggered!"}},
		{"Error:Heaters switched off. MINTEMP BED triggered!", want{"error.mintemp", "heater_bed", "Heaters switched off. MINTEMP BED triggered!"}},
		{"Error:0: Heaters switched off. MAXTEMP triggered!", want{"error.maxtemp", "extruder", "0: Heaters switched off. MAXTEMP triggered!"}},
		{"Error: HOTEND THERMAL RUNAWAY", want{"error.thermal_runaway", "extruder", "HOTEND THERMAL RUNAWAY"}},
		{"Error: HEATBED THERMAL RUNAWAY", want{"error.thermal_runaway", "heater_bed", "HEATBED THERMAL RUNAWAY"}},
		{"Error: THERMAL RUNAWAY (PREHEAT HOTEND)", want{"error.heater_not_heating", "extruder", "THERMAL RUNAWAY (PREHEAT HOTEND)"}},
		{"TM: error |1.432171|>0.740000", want{"error.thermal_model", "extruder", "|1.432171|>0.740000"}},
		{"THERMAL ANOMALY", want{"error.thermal_model", "extruder", "THERMAL ANOMALY"}},
		{"echo:PINDA cal.", want{"probe.type", "probe", "pinda"}},
		{"echo:enqueing \"CRASH_DETECTEDY\"", want{"error.crash_detected", "y", "enqueing \"CRASH_DETECTEDY\""}},
		{"Bed leveling failed. Sensor didn't trigger. Debris on nozzle? Waiting for reset.", want{"error.homing_no_trigger", "probe", "Bed leveling failed. Sensor didn't trigger. Debris on nozzle? Waiting for reset."}},
		{"MINTEMP ERROR prusa.io/13208", want{"prusa.error_code", "13208", "MK4 HOTEND_MINTEMP_ERROR"}},
		{"MINTEMP ERROR prusa.io/13208", want{"error.mintemp", "extruder", "13208 HOTEND_MINTEMP_ERROR"}},
		{"HOMING ERROR Z #12301", want{"error.homing_failed", "z", "12301 HOMING_ERROR_Z"}},
		// Prusa-Firmware's messages.cpp
		{"Err:HOTEND FAN ERROR", want{"error.fan", "hotend_fan", "Err:HOTEND FAN ERROR"}},
		{"echo:TMC DRIVER OVERTEMP", want{"error.driver_over_temperature", "", "TMC DRIVER OVERTEMP"}},
		{"POWER PANIC DETECTED", want{"error.undervoltage", "vin", "POWER PANIC DETECTED"}},
		{"G-code sliced for a different printer type. Continue?", want{"warning.gcode_mismatch", "printer", "G-code sliced for a different printer type. Continue?"}},
		{"Nozzle diameter differs from the G-code. Please check the value in settings. Print cancelled.", want{"warning.gcode_mismatch", "nozzle", "Nozzle diameter differs from the G-code. Please check the value in settings. Print cancelled."}},
		{"Distance between tip of the nozzle and the bed surface has not been set yet.", want{"warning.z_offset_not_set", "probe", "Distance between tip of the nozzle and the bed surface has not been set yet."}},
		// every Buddy error code of Prusa-Error-Codes whose fault the facts name
		{"MODULAR BED ERROR prusa.io/17250", want{"error.heater_fault", "heater_bed", "17250 MB_HEATER_DISCONNECTED"}},
		{"HEATBREAK COOLING TOO SLOW prusa.io/13216", want{"error.fan", "hotend_fan", "13216 HEATBREAK_COOLING_TOO_SLOW"}},
		{"I2C RECEIVE TIMEOUT prusa.io/12317", want{"error.i2c", "mcu", "12317 I2C_RX_TIMEOUT"}},
		{"Gcode Corruption prusa.io/13534", want{"error.storage", "gcode", "13534 GCODE_CORRUPTION"}},
		{"EXTRUDER ERROR prusa.io/17536", want{"error.driver_fault", "extruder", "17536 DWARF_TMC"}},
		{"Warning prusa.io/13817", want{"event.heaters_timeout", "", "13817 HEATERS_TIMEOUT"}},
		{"Warning prusa.io/13823", want{"error.probing_failed", "probe", "13823 NOZZLE_DOES_NOT_HAVE_ROUND_SECTION"}},
		{"ACCELEROMETER COMMUNICATION FAILED prusa.io/13323", want{"error.accelerometer", "accelerometer", "13323 ACCELEROMETER_COMMUNICATION_FAILED"}},
	})
	rep := read(t, "serial.log", "FIRMWARE_NAME:Prusa-Firmware 3.13.3+7981_a3f5c1a based on Marlin FIRMWARE_URL:https://github.com/prusa3d/Prusa-Firmware PROTOCOL_VERSION:1.0 MACHINE_TYPE:Prusa i3 MK3S EXTRUDER_COUNT:1 UUID:00000000-0000-0000-0000-000000000000\nTM: error |1.432171|>0.740000\n")
	s := rep.Files[0]
	if s.Kind != KindPrusaSupport || s.Firmware != "Prusa-Firmware" || s.Version != "3.13.3" {
		t.Fatalf("summary %+v", s)
	}
	expectFacts(t, rep, []want{{"firmware.machine", "", "Prusa i3 MK3S"}})
	// a five-digit number that is not a Prusa printer's code is not an error code
	rep = read(t, "serial.log", "echo: M92 X80 Y80 Z400 E93\n#99208 something\n")
	expectNoFacts(t, rep, []want{{"prusa.error_code", "99208", ""}})
}
