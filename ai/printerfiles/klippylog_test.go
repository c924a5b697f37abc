package printerfiles

import (
	"strings"
	"testing"
)

// A klippy.log in the layout Klipper writes (klippy/klippy.py: "Git
// version: %s", "Start printer at %s"; configfile.py: "===== Config file
// =====" and configparser's "key = value" dump; mcu.py: "Loaded MCU '%s' %d
// commands (%s / %s)", "MCU '%s' config: ..."; statistics.py, mcu.py,
// serialqueue.c, toolhead.py, heaters.py: the "Stats %.1f:" line;
// klippy.py: "Transition to shutdown state: %s"; mcu.py: "MCU '%s'
// shutdown: %s"; adc_temperature.py: "Sensor '%s' temperature %s not in
// range %.3f:%.3f"; error_mcu.py: the hint lines). The MCU runs an older
// build than the host.
const klippyLogADC = `Starting Klippy...
Args: ['/home/pi/klipper/klippy/klippy.py', '/home/pi/printer_data/config/printer.cfg', '-l', '/home/pi/printer_data/logs/klippy.log']
Git version: 'v0.12.0-85-gd785b396'
Branch: master
Remote: origin
Tracked URL: https://github.com/Klipper3d/klipper.git
CPU: 4 core ARMv7 Processor rev 4 (v7l)
Start printer at Mon Jan  8 10:00:00 2024 (1704708000.0 25.0)
===== Config file =====
[mcu]
serial = /dev/serial/by-id/usb-1a86_USB_Serial-if00-port0
restart_method = command

[extruder]
step_pin = PB4
dir_pin = PB3
enable_pin = !PC3
microsteps = 16
rotation_distance = 34.406
nozzle_diameter = 0.400
filament_diameter = 1.750
heater_pin = PA1
sensor_type = EPCOS 100K B57560G104F
sensor_pin = PC5
control = pid
pid_kp = 21.527
pid_ki = 1.063
pid_kd = 108.982
min_temp = 0
max_temp = 250

[gcode_macro PRINT_START]
gcode = 
	G28
	BED_MESH_CALIBRATE
=======================
Loaded MCU 'mcu' 104 commands (v0.11.0-120-g5a1a3a3c / gcc: (15:8-2019-q3-1+b1) 8.3.1 20190703 (release) [gcc-8-branch revision 273027] binutils: (2.35.2-2+14+b2) 2.35.2)
MCU 'mcu' config: ADC_MAX=4095 BUS_PINS_spi1=PA6,PA7,PA5 CLOCK_FREQ=72000000 MCU=stm32f103xe PWM_MAX=255 RECEIVE_WINDOW=192 SERIAL_BAUD=250000 STATS_SUMSQ_BASE=256
Configured MCU 'mcu' (1024 moves)
Stats 120.0: gcodein=0  mcu: mcu_awake=0.005 mcu_task_avg=0.000014 mcu_task_stddev=0.000012 bytes_write=31103 bytes_read=14958 bytes_retransmit=9 bytes_invalid=0 send_seq=1176 receive_seq=1176 retransmit_seq=2 srtt=0.001 rttvar=0.000 rto=0.025 ready_bytes=0 upcoming_bytes=0 freq=72000519 heater_bed: target=60 temp=59.4 pwm=0.312 sysload=0.32 cputime=1.372 memavail=781688 print_time=90.537 buffer_time=1.2 print_stall=0 extruder: target=210 temp=209.6 pwm=0.451
Stats 121.0: gcodein=0  mcu: mcu_awake=0.031 mcu_task_avg=0.000014 mcu_task_stddev=0.000012 bytes_write=31303 bytes_read=15058 bytes_retransmit=41 bytes_invalid=0 send_seq=1196 receive_seq=1196 retransmit_seq=4 srtt=0.001 rttvar=0.000 rto=0.025 ready_bytes=0 upcoming_bytes=0 freq=72000521 heater_bed: target=60 temp=60.1 pwm=0.290 sysload=1.85 cputime=1.402 memavail=781100 print_time=91.537 buffer_time=1.1 print_stall=0 extruder: target=210 temp=203.2 pwm=1.000
Transition to shutdown state: MCU shutdown
MCU 'mcu' shutdown: ADC out of range
clocksync state: mcu_freq=72000000 last_clock=8789426117 clock_est=(121.3 8788345232 72000521.1) min_half_rtt=0.000150 min_rtt_time=30.2 time_avg=121.3(885.5) clock_avg=8788345232.1(63757413613.0) pred_variance=5016.1
MCU 'mcu' shutdown: ADC out of range

Sensor 'extruder' temperature -14.820 not in range 0.000:250.000
This generally occurs when a heater temperature exceeds
its configured min_temp or max_temp.
Once the underlying issue is corrected, use the
"FIRMWARE_RESTART" command to reset the firmware, reload the
config, and restart the host software.
Printer is shutdown
`

func TestKlippyLog(t *testing.T) {
	rep := read(t, "klippy.log", klippyLogADC)
	s := rep.Files[0]
	if s.Kind != KindKlippyLog || s.Version != "v0.12.0-85-gd785b396" || s.Label != "Klipper log (v0.12.0-85-gd785b396)" {
		t.Fatalf("summary %+v", s)
	}
	expectFacts(t, rep, []want{
		{"firmware.version", "host", "v0.12.0-85-gd785b396"},
		{"firmware.mcu_version", "mcu", "v0.11.0-120-g5a1a3a3c"},
		{"firmware.version_mismatch", "mcu", "host v0.12.0-85-gd785b396, mcu v0.11.0-120-g5a1a3a3c"},
		{"mcu.chip", "mcu", "stm32f103xe"},
		// the config dump is read as a printer.cfg
		{"extruder.steps_per_mm", "extruder", "~93.0070"},
		{"heater.max_temp", "extruder", "250"},
		{"pid.tuned", "extruder", "false"},
		{"klipper.macro", "PRINT_START", "PRINT_START"},
		// the shutdown and what caused it
		{"error.shutdown", "", "MCU shutdown"},
		{"error.mcu_shutdown", "mcu", "ADC out of range"},
		{"error.adc_out_of_range", "mcu", "ADC out of range"},
		{"error.adc_out_of_range", "extruder", "temperature -14.820 not in range 0.000:250.000"},
		{"error.mintemp", "extruder", "-14.820"},
		// the Stats lines
		{"klipper.stats.bytes_retransmit", "mcu", "~41"},
		{"klipper.stats.mcu_awake_max", "mcu", "~0.031"},
		{"klipper.stats.sysload_max", "host", "~1.85"},
		{"heater.pwm_max", "extruder", "~1"},
		{"heater.temp_deviation_max", "extruder", "~6.8"},
	})
	expectNoFacts(t, rep, []want{{"error.maxtemp", "extruder", ""}})
	f, _ := findFact(rep, "error.mcu_shutdown", "mcu")
	if f.Count != 2 || f.Line != 43 || f.Quote != "MCU 'mcu' shutdown: ADC out of range" {
		t.Errorf("mcu shutdown fact %+v", f)
	}
}

// The errors Klipper's host raises and logs, each in the wording of its
// source file.
func TestKlippyLogErrors(t *testing.T) {
	expectLines(t, "klippy.log", "Starting Klippy...", []lineCase{
		// klippy/mcu.py
		{"Transition to shutdown state: Lost communication with MCU 'EBBCan'", want{"error.lost_communication", "EBBCan", "Lost communication with MCU 'EBBCan'"}},
		{"MCU 'mcu' shutdown: Timer too close", want{"error.timer_too_close", "mcu", "Timer too close"}},
		{"Previous MCU 'mcu' shutdown: Rescheduled timer in the past", want{"error.rescheduled_timer", "mcu", "Rescheduled timer in the past"}},
		{"MCU 'toolhead' shutdown: Stepper too far in past", want{"error.stepper_too_far_in_past", "toolhead", "Stepper too far in past"}},
		{"MCU 'mcu' shutdown: Missed scheduling of next digital out event", want{"error.missed_scheduling", "mcu", "Missed scheduling of next digital out event"}},
		{"mcu 'mcu': Unable to connect", want{"error.mcu_connect", "mcu", "mcu 'mcu': Unable to connect"}},
		// klippy/kinematics/extruder.py
		{"Move exceeds maximum extrusion (0.873mm^2 vs 0.640mm^2)", want{"error.max_extrusion_exceeded", "extruder", "0.873mm^2 vs 0.640mm^2"}},
		{"Extrude only move too long (100.000mm vs 50.000mm)", want{"error.extrude_only_move_too_long", "extruder", "100.000mm vs 50.000mm"}},
		{"Extrude below minimum temp", want{"error.extrude_below_min_temp", "extruder", "Extrude below minimum temp"}},
		// klippy/extras/tmc_uart.py, tmc.py
		{"Unable to read tmc uart 'stepper_x' register IFCNT", want{"error.tmc_uart", "x", "Unable to read tmc uart 'stepper_x' register IFCNT"}},
		{"Transition to shutdown state: TMC 'stepper_y' reports error: DRV_STATUS: 00160008 s2gb=1(ShortToGND_B!) cs_actual=22", want{"error.driver_short_to_ground", "y", "s2gb"}},
		{"TMC 'extruder' reports error: DRV_STATUS: 82000002 ot=1(OvertempError!) cs_actual=0(Reset?)", want{"error.driver_over_temperature", "extruder", "ot"}},
		{"TMC 'stepper_z' reports error: GSTAT:      00000004 uv_cp=1(Undervoltage!)", want{"error.driver_undervoltage", "z", "uv_cp"}},
		// klippy/extras/verify_heater.py
		{"Heater heater_bed not heating at expected rate", want{"error.heater_not_heating", "heater_bed", "Heater heater_bed not heating at expected rate"}},
		// klippy/extras/homing.py
		{"Endstop x still triggered after retract", want{"error.endstop_still_triggered", "x", "Endstop x still triggered after retract"}},
		{"No trigger on probe after full movement", want{"error.homing_no_trigger", "probe", "No trigger on probe after full movement"}},
		{"Probe triggered prior to movement", want{"error.probe_triggered_prior_to_movement", "probe", "Probe triggered prior to movement"}},
		// klippy/kinematics/cartesian.py, toolhead.py
		{"Must home axis first: 117.500 117.500 10.000 [0.000]", want{"error.must_home_first", "", "117.500 117.500 10.000 [0.000]"}},
		{"Move out of range: 235.000 -3.000 0.200 [10.000]", want{"error.move_out_of_range", "", "235.000 -3.000 0.200 [10.000]"}},
		// klippy/extras/heaters.py
		{"Requested temperature (260.0) out of range (0.0:250.0)", want{"error.temperature_out_of_range", "", "(260.0) out of range (0.0:250.0)"}},
		// klippy/extras/bltouch.py
		{"BLTouch failed to verify sensor state", want{"error.bltouch", "probe", "BLTouch failed to verify sensor state"}},
		// klippy/extras/error_mcu.py
		{"MCU Protocol error", want{"error.protocol_error", "", "MCU Protocol error"}},
		// klippy/configfile.py
		{"Option 'rotation_distance' in section 'extruder' must be specified", want{"error.config", "", "Option 'rotation_distance' in section 'extruder' must be specified"}},
	})
}

// A Mainsail console: timestamps, "$ " commands, "!! " errors, "// "
// messages (Klipper's gcode.py respond_raw/respond_info/_respond_error).
func TestKlipperConsole(t *testing.T) {
	text := `19:21:40  $ LOAD_FILAMENT TEMP=215
19:22:31  !! Extrude only move too long (100.000mm vs 50.000mm)
See the 'max_extrude_only_distance' config option for details
16:58:47  // Unknown command:"M600"
17:02:11  !! Invalid adxl345 id (got 0 vs e5).
This is generally indicative of connection problems
(e.g. faulty wiring) or a faulty adxl345 chip.
17:05:40  !! SAVE_CONFIG section 'probe' option 'z_offset' conflicts with included value
20:04:36  $ QUERY_ENDSTOPS
20:04:36  x:open y:TRIGGERED z:open
20:05:10  // PID parameters: pid_Kp=22.865 pid_Ki=1.292 pid_Kd=101.178
`
	rep := readKind(t, "mainsail-console.txt", text, KindKlipperConsole)
	expectFacts(t, rep, []want{
		{"error.extrude_only_move_too_long", "extruder", "100.000mm vs 50.000mm"},
		{"error.unknown_command", "M600", "Unknown command:\"M600\""},
		{"error.accelerometer", "adxl345", "Invalid adxl345 id (got 0 vs e5)."},
		{"error.config", "", "SAVE_CONFIG section 'probe' option 'z_offset' conflicts with included value"},
		{"endstop.state", "y", "TRIGGERED"},
		{"endstop.state", "x", "open"},
		{"heater.pid_calibrated", "", "pid_Kp=22.865 pid_Ki=1.292 pid_Kd=101.178"},
	})
}

// A Klipper firmware .config in the layout of "make menuconfig" (Kconfig),
// with the option names of src/Kconfig and src/stm32/Kconfig.
func TestKlipperKconfig(t *testing.T) {
	text := `#
# Automatically generated file; DO NOT EDIT.
# Klipper Firmware Configuration
#
CONFIG_LOW_LEVEL_OPTIONS=y
CONFIG_MACH_STM32=y
CONFIG_BOARD_DIRECTORY="stm32"
CONFIG_MCU="stm32f103xe"
CONFIG_CLOCK_FREQ=72000000
CONFIG_SERIAL=y
CONFIG_FLASH_SIZE=0x10000
CONFIG_FLASH_BOOT_ADDRESS=0x8000000
CONFIG_STM32_SELECT=y
CONFIG_MACH_STM32F103=y
# CONFIG_STM32_FLASH_START_2000 is not set
CONFIG_STM32_FLASH_START_7000=y
CONFIG_STM32_CLOCK_REF_8M=y
CONFIG_CLOCK_REF_FREQ=8000000
CONFIG_STM32_SERIAL_USART1=y
CONFIG_SERIAL_BAUD=250000
CONFIG_FLASH_APPLICATION_ADDRESS=0x8007000
CONFIG_FLASH_START=0x8000000
CONFIG_INITIAL_PINS="!PA14"
`
	rep := readKind(t, ".config", text, KindKlipperKconfig)
	expectFacts(t, rep, []want{
		{"mcu.chip", "mcu", "stm32f103xe"},
		{"mcu.comm", "mcu", "serial"},
		{"mcu.comm_pins", "mcu", "STM32_SERIAL_USART1"},
		{"mcu.bootloader_offset", "mcu", "0x7000"},
		{"mcu.serial_baud", "mcu", "250000"},
		{"mcu.initial_pins", "mcu", "!PA14"},
	})
}

// Repeated shutdowns count up instead of filling the report.
func TestKlippyLogRepeatedErrorsCount(t *testing.T) {
	text := "Starting Klippy...\n" + strings.Repeat("MCU 'mcu' shutdown: Timer too close\n", 1000)
	rep := read(t, "klippy.log", text)
	f, ok := findFact(rep, "error.timer_too_close", "mcu")
	if !ok || f.Count != 1000 || f.Line != 2 {
		t.Fatalf("fact %+v", f)
	}
	if len(rep.Facts) > 5 {
		t.Errorf("%d facts for one repeated error", len(rep.Facts))
	}
}

// A klippy.log whose config dump is long is still a log, and what the
// Stats lines show names the heater of an unnamed "ADC out of range".
func TestKlippyLogLongDumpAndStats(t *testing.T) {
	dump := strings.ReplaceAll(klipperEnder3S1, ": ", " = ")
	text := "Starting Klippy...\nGit version: 'v0.12.0-85-g378892e9'\n===== Config file =====\n" + dump + dump + "=======================\n" +
		"Stats 300.0: gcodein=0  mcu: mcu_awake=0.004 bytes_retransmit=0 heater_bed: target=65 temp=80.2 pwm=0.000 sysload=0.1 extruder: target=205 temp=204.8 pwm=0.412\n" +
		"Stats 301.0: gcodein=0  mcu: mcu_awake=0.004 bytes_retransmit=0 heater_bed: target=65 temp=92.4 pwm=0.000 sysload=0.1 extruder: target=205 temp=-13.9 pwm=1.000\n" +
		"Transition to shutdown state: MCU shutdown\nMCU 'mcu' shutdown: ADC out of range\n"
	rep := readKind(t, "klippy.log", text, KindKlippyLog)
	expectFacts(t, rep, []want{
		{"heater.temp_min", "extruder", "~-13.9"},
		{"error.mintemp", "extruder", "-13.9"},
		{"heater.above_target_power_off", "heater_bed", "~2"},
		{"heater.temp_max", "heater_bed", "~92.4"},
	})
	f, _ := findFact(rep, "error.mintemp", "extruder")
	if !strings.HasPrefix(f.Quote, "Stats 301.0:") {
		t.Errorf("mintemp quote %q", f.Quote)
	}
}

// Z tilt's RetryHelper (klippy/extras/z_tilt.py) as a Mainsail console
// shows it: a range that does not shrink and the give-up.
func TestKlipperConsoleZTilt(t *testing.T) {
	text := `15:12:40  $ Z_TILT_ADJUST
15:12:51  probe at 30.000,5.000 is z=2.410000
15:13:05  Making the following Z adjustments:
stepper_z = -0.004100
stepper_z1 = 1.551600
15:13:05  Retries: 0/5 Probed points range: 1.553500 tolerance: 0.007500
15:13:33  Retries: 1/5 Probed points range: 1.551600 tolerance: 0.007500
15:14:01  Retries: 2/5 Probed points range: 1.555300 tolerance: 0.007500
15:14:02  !! Retries aborting: Probed points range is increasing.
`
	rep := read(t, "mainsail-console.txt", text)
	expectFacts(t, rep, []want{
		{"leveling.adjust_retries", "", "~2"},
		{"leveling.adjust_range", "", "~1.5553"},
		{"error.leveling_retries", "", "Retries aborting: Probed points range is increasing."},
	})
}

// klippy.log's start-up dump of the last MCU build (klippy/util.py
// dump_mcu_build: the .config between "========= Last MCU build config
// =========" and a line of "=", then "Last MCU build version: ...") and a
// driver that fails at start (klippy/extras/tmc.py "TMC %s failed to
// init: %s").
func TestKlippyLogBuildAndInit(t *testing.T) {
	text := `Starting Klippy...
Build file /home/pi/klipper/klippy/../.config(1461): Sun Feb 18 11:02:40 2024
========= Last MCU build config =========
CONFIG_LOW_LEVEL_OPTIONS=y
CONFIG_MCU="stm32f103xe"
CONFIG_STM32_FLASH_START_7000=y
CONFIG_INITIAL_PINS=""
=======================
Last MCU build version: v0.12.0-121-g470e53b2
TMC stepper_x failed to init: Unable to read tmc uart 'stepper_x' register IFCNT
`
	rep := read(t, "klippy.log", text)
	expectFacts(t, rep, []want{
		{"mcu.chip", "mcu", "stm32f103xe"},
		{"mcu.bootloader_offset", "mcu", "0x7000"},
		{"mcu.initial_pins", "mcu", "none"},
		{"firmware.build_version", "mcu", "v0.12.0-121-g470e53b2"},
		{"error.tmc_uart", "x", "Unable to read tmc uart 'stepper_x' register IFCNT"},
	})
}

// An MCU flashed from the host's own checkout carries the build's date and
// host name after the version: that is the same version.
func TestKlippyLogBuildStampIsNoMismatch(t *testing.T) {
	log := "Starting Klippy...\nGit version: 'v0.8.0-197-g1d6a8b2c'\n" +
		"Loaded MCU 'mcu' 84 commands (v0.8.0-197-g1d6a8b2c-20200214_161722-octopi / gcc: (GCC) 5.4.0 binutils: (GNU Binutils) 2.26.20160125)\n"
	rep := read(t, "klippy.log", log)
	expectFacts(t, rep, []want{{"firmware.mcu_version", "mcu", "v0.8.0-197-g1d6a8b2c-20200214_161722-octopi"}})
	expectNoFacts(t, rep, []want{{"firmware.version_mismatch", "mcu", ""}})
}

// Micro-controller shutdowns and host messages of Klipper's sources beyond
// the common ones: a heater pin not refreshed in time, PWM timer conflicts,
// bus setup errors, homing order, SPI drivers that do not answer, and the
// runout a filament sensor logs.
func TestKlippyLogMoreMessages(t *testing.T) {
	expectLines(t, "klippy.log", "Starting Klippy...", []lineCase{
		{"MCU 'mcu' shutdown: Scheduled digital out event will exceed max_duration", want{"error.missed_scheduling", "mcu", "Scheduled digital out event will exceed max_duration"}},
		{"MCU 'mcu' shutdown: PWM already programmed at different speed", want{"error.pwm_conflict", "mcu", "PWM already programmed at different speed"}},
		{"Transition to shutdown state: MCU 'mcu' shutdown: PWM channel already in use", want{"error.pwm_conflict", "mcu", "PWM channel already in use"}},
		{"MCU 'mcu' shutdown: Invalid spi bus", want{"error.config", "mcu", "Invalid spi bus"}},
		{"!! Must home X and Y axes first", want{"error.must_home_first", "", "Must home X and Y axes first"}},
		{"Include file '/home/pi/printer_data/config/macros.cfg' does not exist", want{"error.config", "", "Include file '/home/pi/printer_data/config/macros.cfg' does not exist"}},
		{"Unable to write tmc spi 'stepper_x' register GCONF", want{"error.tmc_uart", "x", "Unable to write tmc spi 'stepper_x' register GCONF"}},
		{"Timeout with MCU 'mcu' (eventtime=12345.678901)", want{"error.lost_communication", "mcu", "Timeout with MCU 'mcu' (eventtime=12345.678901)"}},
		{"Got EOF when reading from device", want{"error.lost_communication", "mcu", "Got EOF when reading from device"}},
		{"Unable to infer homing_positive_dir in section 'stepper_x'", want{"error.config", "", "Unable to infer homing_positive_dir in section 'stepper_x'"}},
		{"Filament Sensor runout_sensor: runout event detected, Time 4567.89", want{"event.filament_runout", "extruder", "Filament Sensor runout_sensor: runout event detected, Time 4567.89"}},
	})
}

// DUMP_TMC's register dump (klippy/extras/tmc.py) names the stepper on its
// command line; open-load flags at standstill are no fault. A config error's
// message is the last line of the traceback logged after "Config error".
func TestKlippyDumpTMCAndConfigTraceback(t *testing.T) {
	rep := read(t, "console.txt", "10:01:02 // Klipper state: Ready\n10:01:02 DUMP_TMC STEPPER=stepper_y\n10:01:02 // ========== Queried registers ==========\n10:01:02 // DRV_STATUS: 98100000 s2ga=1(ShortToGND_A!) cs_actual=16 stealth=1\n10:01:03 DUMP_TMC STEPPER=extruder\n10:01:03 // DRV_STATUS: c0100080 ola=1 olb=1 cs_actual=16 stealth=1 stst=1\n")
	expectFacts(t, rep, []want{{"error.driver_short_to_ground", "y", "s2ga"}})
	expectNoFacts(t, rep, []want{{"error.driver_open_load", "", ""}})
	rep = read(t, "klippy.log", "Starting Klippy...\nConfig error\nTraceback (most recent call last):\n  File \"/home/pi/klipper/klippy/klippy.py\", line 175, in _connect\n    self._read_config()\nconfigparser.Error: Option 'rotation_distance' in section 'extruder' must be specified\n")
	expectFacts(t, rep, []want{{"error.config", "", "Option 'rotation_distance' in section 'extruder' must be specified"}})
	rep = read(t, "klippy.log", "Starting Klippy...\nConfig error\n")
	expectFacts(t, rep, []want{{"error.config", "", "Config error"}})
}

// TestKlipperThroughOctoPrint: Klipper's console as OctoPrint's terminal and
// serial.log show it (commands sent, Klipper's answers received) is read as
// Klipper's console.
func TestKlipperThroughOctoPrint(t *testing.T) {
	for name, text := range map[string]string{
		"terminal": "Send: G28\nRecv: // Klipper state: Ready\nRecv: !! Endstop y still triggered after retract\nRecv: ok\n" +
			"Send: QUERY_ENDSTOPS\nRecv: x:open y:TRIGGERED z:open\nRecv: ok\n",
		"serial.log": "2024-05-01 10:00:00,123 - Send: N5 G28*20\n2024-05-01 10:00:02,456 - Recv: !! Endstop y still triggered after retract\n" +
			"2024-05-01 10:00:03,001 - Send: N6 QUERY_ENDSTOPS*17\n2024-05-01 10:00:03,050 - Recv: x:open y:TRIGGERED z:open\n",
	} {
		t.Run(name, func(t *testing.T) {
			rep := readKind(t, "octoprint.txt", text, KindKlipperConsole)
			expectFacts(t, rep, []want{{"error.endstop_still_triggered", "y", "Endstop y still triggered after retract"}, {"endstop.state", "y", "TRIGGERED"}})
		})
	}
}

// A calibration's result waits for SAVE_CONFIG (klippy/configfile.py: "The
// SAVE_CONFIG command will update the printer config file\nwith the above
// and restart the printer."); a restart before SAVE_CONFIG drops it. A
// result saved before the restart is no fault.
func TestKlipperConsoleUnsavedCalibration(t *testing.T) {
	text := `20:11:48  $ PROBE_CALIBRATE
20:13:29  $ ACCEPT
20:13:29  bltouch: z_offset: 1.300
The SAVE_CONFIG command will update the printer config file
with the above and restart the printer.
20:14:02  $ FIRMWARE_RESTART
20:15:40  $ SDCARD_PRINT_FILE FILENAME="calibration_squares_PLA.gcode"
`
	rep := read(t, "mainsail-console.txt", text)
	expectFacts(t, rep, []want{
		{"klipper.unsaved_calibration", "probe", "bltouch: z_offset: 1.300"},
	})
	saved := strings.Replace(text, "$ FIRMWARE_RESTART", "$ SAVE_CONFIG", 1)
	if f, ok := findFact(read(t, "mainsail-console.txt", saved), "klipper.unsaved_calibration", "probe"); ok {
		t.Errorf("a saved calibration reads as unsaved: %+v", f)
	}
	endstop := `10:01:02  stepper_z: position_endstop: 0.480
The SAVE_CONFIG command will update the printer config file
with the above and restart the printer.
10:01:30  $ RESTART
`
	expectFacts(t, read(t, "mainsail-console.txt", endstop), []want{
		{"klipper.unsaved_calibration", "z", "stepper_z: position_endstop: 0.480"},
	})
	octoprint := "2024-05-01 10:00:00,123 - Send: N5 PROBE_CALIBRATE*20\n2024-05-01 10:00:40,001 - Recv: // probe: z_offset: 2.150\n" +
		"2024-05-01 10:00:40,002 - Recv: // The SAVE_CONFIG command will update the printer config file\n" +
		"2024-05-01 10:00:40,003 - Recv: // with the above and restart the printer.\n2024-05-01 10:01:03,050 - Send: N6 FIRMWARE_RESTART*17\n"
	expectFacts(t, read(t, "serial.log", octoprint), []want{
		{"klipper.unsaved_calibration", "probe", "probe: z_offset: 2.150"},
	})
}

// TestKlipperConsoleNewestFirst: Mainsail's console copied with its newest
// entry on top is read oldest first, each entry's lines in their order, so
// DUMP_TMC's registers follow their command.
func TestKlipperConsoleNewestFirst(t *testing.T) {
	text := "10:01:09  !! Move exceeds maximum extrusion (1.412mm^2 vs 0.640mm^2)\n" +
		"10:01:05  // DRV_STATUS: 98100000 s2gb=1(ShortToGND_B!) cs_actual=16\n" +
		"// GSTAT: 00000000\n" +
		"10:01:04  $ DUMP_TMC STEPPER=stepper_y\n" +
		"10:01:02  !! Move exceeds maximum extrusion (0.452mm^2 vs 0.300mm^2)\n"
	rep := readKind(t, "mainsail-console.txt", text, KindKlipperConsole)
	expectFacts(t, rep, []want{{"error.driver_short_to_ground", "y", "s2gb"},
		{"error.max_extrusion_exceeded", "extruder", "0.452mm^2 vs 0.300mm^2"}})
}

// SDCARD_PRINT_FILE answers "Unable to open file" when the file is not
// under [virtual_sdcard] path (klippy/extras/virtual_sdcard.py), and the
// config names that path.
func TestKlipperVirtualSdcardFile(t *testing.T) {
	rep := read(t, "mainsail-console.txt", "18:30:02  // Klipper state: Ready\n18:41:15  $ SDCARD_PRINT_FILE FILENAME=\"clip.gcode\"\n18:41:15  !! Unable to open file\n")
	expectFacts(t, rep, []want{{"error.file_open", "virtual_sdcard", "Unable to open file"}})
	rep = read(t, "printer.cfg", "[virtual_sdcard]\npath: ~/gcode_files\n\n[printer]\nkinematics: cartesian\n")
	if f, ok := findFact(rep, "virtual_sdcard.path", ""); !ok || f.Value != "~/gcode_files" {
		t.Errorf("virtual_sdcard.path = %+v, %v", f, ok)
	}
}
