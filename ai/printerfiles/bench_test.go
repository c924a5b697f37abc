package printerfiles

import (
	"fmt"
	"runtime"
	"strings"
	"testing"
)

// realisticFiles are 256 KB of attachments as makers send them: a long
// klippy.log (start-up, config dump, an hour of Stats lines, a shutdown),
// a printer.cfg, a Marlin M503 dump, a Configuration.h excerpt and a
// config.g.
func realisticFiles() []File {
	small := []File{
		{"printer.cfg", klipperEnder3S1},
		{"M503.txt", marlinM503Octoprint},
		{"Configuration.h", marlinConfigEnder3V2},
		{"config.g", rrfConfigDuet3},
	}
	size := 0
	for _, f := range small {
		size += len(f.Text)
	}
	head, tail, _ := strings.Cut(klippyLogADC, "Transition to shutdown state")
	var b strings.Builder
	b.WriteString(head)
	for i := 0; b.Len() < MaxReadBytes-size-len(tail)-600; i++ {
		fmt.Fprintf(&b, "Stats %d.0: gcodein=0  mcu: mcu_awake=0.0%02d mcu_task_avg=0.000014 mcu_task_stddev=0.000012 "+
			"bytes_write=%d bytes_read=%d bytes_retransmit=9 bytes_invalid=0 send_seq=%d receive_seq=%d retransmit_seq=2 "+
			"srtt=0.001 rttvar=0.000 rto=0.025 ready_bytes=0 upcoming_bytes=0 freq=72000519 heater_bed: target=60 "+
			"temp=%d.%d pwm=0.312 sysload=0.32 cputime=%d.372 memavail=781688 print_time=%d.537 buffer_time=1.2 "+
			"print_stall=0 extruder: target=210 temp=%d.%d pwm=0.451\n",
			120+i, i%50, 31103+i*200, 14958+i*100, 1176+i*20, 1176+i*20, 59+i%2, i%10, i, 90+i, 209+i%2, i%10)
	}
	b.WriteString("Transition to shutdown state")
	b.WriteString(tail)
	return append([]File{{"klippy.log", b.String()}}, small...)
}

// hostileFiles are 256 KB inputs built to be slow or large to read.
func hostileFiles() map[string][]File {
	const size = MaxReadBytes
	fill := func(unit string) string { return strings.Repeat(unit, size/len(unit)+1)[:size] }
	var sections, errors, nested strings.Builder
	for i := 0; sections.Len() < size; i++ {
		fmt.Fprintf(&sections, "[tmc2209 stepper_%d]\nrun_current: 0.%d\n[gcode_macro M%d]\n", i, i%10, i)
	}
	for i := 0; errors.Len() < size; i++ {
		fmt.Fprintf(&errors, "TMC 'stepper_%d' reports error: DRV_STATUS: 00160008 s2ga=1(ShortToGND_A!) ot=1 uv_cp=1\n", i)
	}
	for nested.Len() < size {
		nested.WriteString("#if ENABLED(X)\n#define BLTOUCH\n")
	}
	return map[string][]File{
		"one giant line":      {{"printer.cfg", "[printer]\nmax_accel: " + fill("9:=[]! ")}},
		"100k tiny lines":     {{"klippy.log", fill("[\n")}},
		"tiny serial lines":   {{"serial.log", "echo:  M92 X80\n" + fill("Err:\n")}},
		"short log lines":     {{"klippy.log", "Starting Klippy...\n" + fill("MCU '\n")}},
		"tiny config.g":       {{"config.g", "M584 X0\n" + fill("M\n")}},
		"tiny G-code":         {{"part.gcode", ";FLAVOR:Marlin\n" + fill(";\n")}},
		"tiny M122 lines":     {{"M122.txt", "=== Diagnostics ===\n" + fill("Dri:\n")}},
		"deep indentation":    {{"printer.cfg", fill(strings.Repeat(" ", 4000) + "rotation_distance: 1\n[extruder]\n")}},
		"repeated sections":   {{"printer.cfg", fill("[stepper_x]\n")}},
		"NULs":                {{"serial.log", fill("\x00\x00\x00\x00\x00\x00\x00\n")}},
		"distinct sections":   {{"printer.cfg", sections.String()[:size]}},
		"distinct errors":     {{"klippy.log", errors.String()[:size]}},
		"nested #if":          {{"Configuration.h", nested.String()[:size]}},
		"quoted config.g":     {{"config.g", fill(`M950 H1 C"` + strings.Repeat("o", 300) + `" T1 ; x` + "\n")}},
		"cura settings":       {{"part.gcode", ";FLAVOR:Marlin\n" + fill(`;SETTING_3 {"global_quality": "[values]\nlayer_height = 0.2\n"`+"\n")}},
		"temperature lines":   {{"serial.log", fill("ok T:1:2:3:4:5:6:7:8:9 /0 B:")}},
		"quoted spaced table": {{"M122.txt", "> > > X       Y       Z       E\n" + fill("> > > olb"+strings.Repeat(" ", 150)+"*       *\n")}},
		"one-space lines":     {{"serial.log", fill("> " + strings.Repeat(" x", 100) + "\n")}},
		"lowercase config.g":  {{"config.g", fill("m1 x1\n")}},
		"many fences":         {{"post.txt", fill("```\n[extruder]\nrotation_distance: 1\n```\n")}},
		"many files":          append(hostileSplit(fill("MCU 'mcu' shutdown: Timer too close\n"), 4), hostileSplit(fill("Error:Thermal Runaway\n"), 4)...),
	}
}

func hostileSplit(s string, n int) []File {
	out := make([]File, n)
	for i := range out {
		out[i] = File{Name: fmt.Sprint("part", i), Text: s[i*len(s)/n : (i+1)*len(s)/n]}
	}
	return out
}

// BenchmarkRead measures Read on 256 KB of realistic attachments and on
// 256 KB of hostile text (the time bound: ≤ 20 ms each).
func BenchmarkRead(b *testing.B) {
	cases := map[string][]File{"realistic": realisticFiles()}
	for name, files := range hostileFiles() {
		cases["hostile/"+name] = files
	}
	for name, files := range cases {
		size := 0
		for _, f := range files {
			size += len(f.Text)
		}
		b.Run(name, func(b *testing.B) {
			b.SetBytes(int64(size))
			b.ReportAllocs()
			for b.Loop() {
				Read(files)
			}
		})
	}
}

// TestReadMemoryBound: reading 256 KB of any text allocates at most 16 MiB
// (counted over a whole Read, so it bounds the peak too) and a bounded
// number of objects.
func TestReadMemoryBound(t *testing.T) {
	const maxBytes = 16 << 20
	cases := map[string][]File{"realistic": realisticFiles()}
	for name, files := range hostileFiles() {
		cases["hostile/"+name] = files
	}
	for name, files := range cases {
		t.Run(name, func(t *testing.T) {
			Read(files) // warm up
			var before, after runtime.MemStats
			runtime.GC()
			runtime.ReadMemStats(&before)
			rep := Read(files)
			runtime.ReadMemStats(&after)
			checkInvariants(t, files, rep)
			if got := after.TotalAlloc - before.TotalAlloc; got > maxBytes {
				t.Errorf("one Read allocated %d bytes, more than %d", got, maxBytes)
			}
			if n := testing.AllocsPerRun(3, func() { Read(files) }); n > 100_000 {
				t.Errorf("%.0f allocations per Read", n)
			}
		})
	}
}
