package ai

import (
	"context"
	"fmt"
	"strings"
	"testing"
)

// benchRequests is a mix of realistic requests: short and long descriptions,
// slang, settings, printers and history.
func benchRequests() []Request {
	return []Request{
		{Category: "stringing", Description: "Lots of thin strings and hairs between the two towers, like a spider web.", Material: "PETG", NozzleTemp: num(250), PrinterBrand: "Creality Ender 3 V2"},
		{Category: "other", Description: "woke up to a spagetti mess, the print came loose after 3 hours", Material: "PLA", BedTemp: num(55), PrinterBrand: "Bambu Lab A1"},
		{Category: "bed-adhesion", Description: "ABS corners keep lifting off the bed and the part warps, even with a brim. Bed at 100, nozzle 245.", Material: "ABS", NozzleTemp: num(245), BedTemp: num(100), PrinterBrand: "Prusa MK4"},
		{Category: "layer-quality", Description: "Layers shifted to the right about halfway through, I heard a clicking noise from the X motor. Printing at 250 mm/s.", PrintSpeed: num(250), PrinterBrand: "Ender 5 Pro"},
		{Category: "extrusion-issues", Description: "The extruder clicks and the nozzle stops extruding after 20 minutes, then nothing comes out. I did a cold pull but it came back.", Material: "PLA", NozzleTemp: num(200), PrinterBrand: "Sovol SV06"},
		{Category: "first-layer", Description: "first layer lines dont touch, gaps between lines, elefant foot on the other side", LayerHeight: num(0.28), NozzleSize: num(0.4)},
		{Category: "heating-issues", Description: "Thermal runaway error when the part fan turns on at layer 2, temperature drops 10 degrees", PrinterBrand: "Artillery Sidewinder X2"},
		{Category: "calibration", Description: "Calibration cube measures 19.6 mm instead of 20 mm in X and Y, holes are too small", Material: "PLA+"},
		{Category: "support-issues", Description: "supports are impossible to remove and leave a rough surface under the overhang", Material: "PETG", LayerHeight: num(0.12)},
		{Category: "mechanical-problems", Description: "wobbly lines on the walls, z wobble and banding every few mm", PrinterBrand: "Anycubic i3 Mega",
			History: []PastFix{{Category: "mechanical-problems", Description: "banding on the walls", StepTitles: []string{"Loosened the Z coupler"}, ResolvedAt: "3 May"}}},
		{Category: "other", Description: "TPU keeps tangling in the extruder and the filament buckles", Material: "TPU", PrintSpeed: num(60), PrinterBrand: "Ender 3 Pro"},
		{Category: "layer-quality", Description: "zits and blobs on the outer walls at the seam, also some ghosting around the letters", Material: "PLA", PrintSpeed: num(80), Photos: []Photo{{MIMEType: "image/jpeg"}}},
	}
}

func BenchmarkAnalyze(b *testing.B) {
	benchAnalyze(b, benchRequests())
}

// benchAnalyze analyses reqs in turn, on an engine built beforehand.
func benchAnalyze(b *testing.B, reqs []Request) {
	e, err := NewEngine()
	if err != nil {
		b.Fatal(err)
	}
	ctx := context.Background()
	b.ReportAllocs()
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		if _, err := e.Analyze(ctx, reqs[i%len(reqs)]); err != nil {
			b.Fatal(err)
		}
	}
}

// BenchmarkAnalyzeWithAttachments is BenchmarkAnalyze with a maker's
// klippy.log (about 20 KB: the config dump, stats lines and a shutdown)
// and a Marlin M503 dump attached to every request.
func BenchmarkAnalyzeWithAttachments(b *testing.B) {
	reqs := benchRequests()
	files := []Attachment{{Name: "klippy.log", Text: benchKlippyLog(20 << 10)}, {Name: "M503.txt", Text: benchM503}}
	for i := range reqs {
		reqs[i].Attachments = files
	}
	benchAnalyze(b, reqs)
}

// benchKlippyLog is a klippy.log of about size bytes as Klipper writes it:
// the start banner, the config file dump, MCU set-up, a stats line every
// few seconds of printing, and a shutdown on the extruder thermistor.
func benchKlippyLog(size int) string {
	var b strings.Builder
	b.WriteString(`Starting Klippy...
Args: ['/home/pi/klipper/klippy/klippy.py', '/home/pi/printer_data/config/printer.cfg', '-I', '/home/pi/printer_data/comms/klippy.serial', '-l', '/home/pi/printer_data/logs/klippy.log', '-a', '/home/pi/printer_data/comms/klippy.sock']
Git version: 'v0.12.0-302-g87ac69363'
Branch: master
Remote: origin
Tracked URL: https://github.com/Klipper3d/klipper
CPU: 4 core ARMv7 Processor rev 4 (v7l)
Python: '3.9.2 (default, Mar 12 2021, 04:06:34) \n[GCC 10.2.1 20210110]'
Start printer at Sat Mar  2 14:21:07 2024 (1709385667.4 12.3)
===== Config file =====
[stepper_x]
step_pin = PC2
dir_pin = PB9
enable_pin = !PC3
microsteps = 16
rotation_distance = 40
endstop_pin = ^PA5
position_endstop = 0
position_max = 235
homing_speed = 50

[stepper_y]
step_pin = PB8
dir_pin = PB7
enable_pin = !PC3
microsteps = 16
rotation_distance = 40
endstop_pin = ^PA6
position_endstop = 0
position_max = 235
homing_speed = 50

[stepper_z]
step_pin = PB6
dir_pin = !PB5
enable_pin = !PC3
microsteps = 16
rotation_distance = 8
endstop_pin = probe:z_virtual_endstop
position_min = -3
position_max = 250

[extruder]
max_extrude_only_distance = 100.0
step_pin = PB4
dir_pin = PB3
enable_pin = !PC3
microsteps = 16
rotation_distance = 7.71
nozzle_diameter = 0.400
filament_diameter = 1.750
heater_pin = PA1
sensor_type = EPCOS 100K B57560G104F
sensor_pin = PC5
control = pid
pid_kp = 26.213
pid_ki = 1.304
pid_kd = 131.721
min_temp = 0
max_temp = 260
pressure_advance = 0.045

[heater_bed]
heater_pin = PA2
sensor_type = EPCOS 100K B57560G104F
sensor_pin = PC4
control = pid
pid_kp = 71.039
pid_ki = 2.223
pid_kd = 567.421
min_temp = 0
max_temp = 110

[bltouch]
sensor_pin = ^PB1
control_pin = PB0
x_offset = -44
y_offset = -6
#*# z_offset = 2.125

[bed_mesh]
speed = 120
horizontal_move_z = 5
mesh_min = 10, 10
mesh_max = 185, 225
probe_count = 5, 5

[safe_z_home]
home_xy_position = 161, 123
z_hop = 10

[fan]
pin = PA0

[mcu]
serial = /dev/serial/by-id/usb-1a86_USB_Serial-if00-port0
restart_method = command

[printer]
kinematics = cartesian
max_velocity = 300
max_accel = 3000
max_z_velocity = 5
max_z_accel = 100

[virtual_sdcard]
path = /home/pi/printer_data/gcodes
=======================
Extruder max_extrude_ratio=0.266081
mcu 'mcu': Starting serial connect
webhooks client 1961237360: New connection
mcu 'mcu': got {'count': 424, 'sum': 1133916, 'sumsq': 3312226, '#name': 'stats', '#sent_time': 13.9, '#receive_time': 14.0}
Loaded MCU 'mcu' 108 commands (v0.12.0-302-g87ac69363 / gcc: (15:8-2019-q3-1+b1) 8.3.1 20190703 (release) binutils: (2.35.2-2+14+b2) 2.35.2)
MCU 'mcu' config: ADC_MAX=4095 BUS_PINS_i2c1=PB6,PB7 CLOCK_FREQ=72000000 MCU=stm32f103xe PWM_MAX=255 RECEIVE_WINDOW=192 RESERVE_PINS_serial=PA10,PA9 SERIAL_BAUD=115200 STATS_SUMSQ_BASE=256 STEPPER_BOTH_EDGE=1
Configured MCU 'mcu' (1024 moves)
Starting heater checks for heater_bed
Starting heater checks for extruder
`)
	for t := 200.0; b.Len() < size-900; t += 1.0 {
		fmt.Fprintf(&b, "Stats %.1f: gcodein=0  mcu: mcu_awake=0.011 mcu_task_avg=0.000012 mcu_task_stddev=0.000011 bytes_write=%d bytes_read=%d bytes_retransmit=9 bytes_invalid=0 send_seq=%d receive_seq=%d retransmit_seq=2 srtt=0.001 rttvar=0.000 rto=0.025 ready_bytes=0 upcoming_bytes=0 freq=71999612 heater_bed: target=60 temp=59.9 pwm=0.412 sysload=0.31 cputime=%.3f memavail=714036 print_time=%.3f buffer_time=2.108 print_stall=0 extruder: target=215 temp=%.1f pwm=0.503\n",
			t, int(t)*311, int(t)*2417, int(t)*29, int(t)*29, t/20, t-12, 214.6+float64(int(t)%5)/10)
	}
	b.WriteString(`MCU 'mcu' shutdown: ADC out of range
This generally occurs when a heater temperature exceeds
its configured min_temp or max_temp.
Once the underlying issue is corrected, use the
"FIRMWARE_RESTART" command to reset the firmware, reload the
config, and restart the host software.
Printer is shutdown
Transition to shutdown state: MCU 'mcu' shutdown: ADC out of range
Dumping gcode input 0 blocks
Dumping 20 requests for client 1961237360
Dumping serial stats: bytes_write=186942 bytes_read=1453711 bytes_retransmit=9 bytes_invalid=0 send_seq=17483 receive_seq=17483 retransmit_seq=2 srtt=0.001 rttvar=0.000 rto=0.025 ready_bytes=0 upcoming_bytes=0
Dumping send queue 100 messages
`)
	return b.String()
}

// benchM503 is the answer of a Marlin 2.1 printer to M503.
const benchM503 = `echo:  G21    ; Units in mm (mm)
echo:; Filament settings: Disabled
echo:  M200 S0 D1.75
echo:; Steps per unit:
echo:  M92 X80.00 Y80.00 Z400.00 E93.00
echo:; Maximum feedrates (units/s):
echo:  M203 X500.00 Y500.00 Z5.00 E25.00
echo:; Maximum Acceleration (units/s2):
echo:  M201 X500.00 Y500.00 Z100.00 E5000.00
echo:; Acceleration (units/s2): P<print_accel> R<retract_accel> T<travel_accel>
echo:  M204 P500.00 R500.00 T500.00
echo:; Advanced: B<min_segment_time_us> S<min_feedrate> T<min_travel_feedrate> J<junc_dev>
echo:  M205 B20000.00 S0.00 T0.00 J0.08
echo:; Home offset:
echo:  M206 X0.00 Y0.00 Z0.00
echo:; Auto Bed Leveling:
echo:  M420 S1 Z10.00
echo:; Hotend PID:
echo:  M301 P21.73 I1.54 D76.55
echo:; Bed PID:
echo:  M304 P462.10 I85.47 D624.59
echo:; Z-Probe Offset (mm):
echo:  M851 X-40.00 Y-10.00 Z-1.85
echo:; Linear Advance:
echo:  M900 K0.00
echo:; Stepper driver current:
echo:  M906 X580 Y580 Z580
echo:  M906 T0 E650
echo:; Hybrid Threshold:
echo:  M913 X100 Y100 Z3 T0 E30
ok
`

func BenchmarkNewEngine(b *testing.B) {
	for i := 0; i < b.N; i++ {
		if _, err := NewEngine(); err != nil {
			b.Fatal(err)
		}
	}
}

// attachmentBenchRequest is a request with a realistic klippy.log (about
// 19 KB: config dump, Stats lines, a shutdown) and an M503 dump from the
// training set of attachment cases.
func attachmentBenchRequest(b *testing.B) Request {
	b.Helper()
	cases := loadEvalCases(b, "testdata/attach/train.json")
	var log, m503 Attachment
	for _, c := range cases {
		switch c.ID {
		case "a-ender3pro-extruder-max-power-limited":
			log = c.Attachments[0]
		case "a-m-ender3v2-bltouch-probe-offset-positive":
			m503 = c.Attachments[0]
		}
	}
	if log.Text == "" || m503.Text == "" {
		b.Fatal("training cases not found")
	}
	return Request{Category: "heating-issues", PrinterBrand: "Creality Ender 3 Pro",
		Description: "PLA works but the nozzle takes long to heat; PETG at 240 stalls a bit over 200 and the printer shuts down with a heating error.",
		Attachments: []Attachment{log, m503}}
}

func BenchmarkAnalyzeAttachments(b *testing.B) {
	e, err := NewEngine()
	if err != nil {
		b.Fatal(err)
	}
	req := attachmentBenchRequest(b)
	b.SetBytes(int64(len(req.Attachments[0].Text) + len(req.Attachments[1].Text)))
	ctx := context.Background()
	if _, err := e.Analyze(ctx, req); err != nil { // loads the example configs once
		b.Fatal(err)
	}
	b.ReportAllocs()
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		if _, err := e.Analyze(ctx, req); err != nil {
			b.Fatal(err)
		}
	}
}
