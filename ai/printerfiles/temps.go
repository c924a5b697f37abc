package printerfiles

import "strings"

// heaterTrack follows one heater through the temperature reports of a log
// (Klipper's Stats lines, Marlin's and RepRapFirmware's "T:205.1 /205.0").
type heaterTrack struct {
	name                      string
	pwmMax, devMax            float64
	reached, hasPwm           bool
	fullPower, hotOff         int
	pwmLine, devLine, fullLn  int
	pwmQuote, devQuote, fullQ string
	// the lowest and highest temperature reported, with their lines
	lo, hi           float64
	loLine, hiLine   int
	loQuote, hiQuote string
	hotLine          int
	hotQuote         string
}

// heaterTracks are the heaters of one log.
type heaterTracks []heaterTrack

func (hs *heaterTracks) get(name string) *heaterTrack {
	return slot((*[]heaterTrack)(hs), name, func(h *heaterTrack) string { return h.name },
		func(n string) heaterTrack { return heaterTrack{name: n} })
}

// sample notes one report: the deviation from the target once the heater
// has reached it, and the time spent at full power well below it.
func (h *heaterTrack) sample(target, temp, pwm float64, hasPwm bool, n int, quote string) {
	if h.loLine == 0 || temp < h.lo {
		h.lo, h.loLine, h.loQuote = temp, n, quote
	}
	if h.hiLine == 0 || temp > h.hi {
		h.hi, h.hiLine, h.hiQuote = temp, n, quote
	}
	// Well above its target with the heater off: something else heats it
	// (a MOSFET or SSR stuck on).
	if hasPwm && pwm == 0 && target > 0 && temp > target+10 {
		h.hotOff++
		if h.hotLine == 0 {
			h.hotLine, h.hotQuote = n, quote
		}
	}
	if hasPwm {
		h.hasPwm = true
		if pwm > h.pwmMax || h.pwmLine == 0 {
			h.pwmMax, h.pwmLine, h.pwmQuote = pwm, n, quote
		}
	}
	if target <= 0 {
		h.reached = false
		return
	}
	d := temp - target
	if d < 0 {
		d = -d
	}
	if d <= 2 {
		h.reached = true
	}
	if h.reached && (d > h.devMax || h.devLine == 0) {
		h.devMax, h.devLine, h.devQuote = d, n, quote
	}
	if hasPwm && pwm >= 0.99 && temp < target-5 {
		h.fullPower++
		h.fullLn, h.fullQ = n, quote
	}
}

// emit records what the reports showed.
func (hs heaterTracks) emit(c *collector) {
	for _, h := range hs {
		if h.hasPwm {
			c.setNum("heater.pwm_max", h.name, round4(h.pwmMax), h.pwmLine, h.pwmQuote)
		}
		if h.devLine > 0 {
			c.setNum("heater.temp_deviation_max", h.name, round4(h.devMax), h.devLine, h.devQuote)
		}
		if h.fullPower > 0 {
			c.setNum("heater.full_power_below_target", h.name, float64(h.fullPower), h.fullLn, h.fullQ)
		}
		if h.hotOff > 0 {
			c.setNum("heater.above_target_power_off", h.name, float64(h.hotOff), h.hotLine, h.hotQuote)
		}
		if h.loLine > 0 {
			c.setNum("heater.temp_min", h.name, h.lo, h.loLine, h.loQuote)
			c.setNum("heater.temp_max", h.name, h.hi, h.hiLine, h.hiQuote)
		}
	}
}

// tempReport reads a Marlin or RepRapFirmware temperature report: "ok
// T:213.4 /205.0 B:60.1 /60.0 @:127 B@:0", "T0:200.0 /200.0 T1:...".
func (hs *heaterTracks) tempReport(s string, n int, quote string) bool {
	found := false
	rest := s
	for rest != "" {
		i := strings.Index(rest, ":")
		if i <= 0 {
			break
		}
		j := strings.LastIndexByte(rest[:i], ' ')
		label := rest[j+1 : i]
		rest = rest[i+1:]
		subject := ""
		switch {
		case label == "T" || label == "T0":
			subject = "extruder"
		case label == "B":
			subject = "heater_bed"
		case label == "C":
			subject = "chamber"
		case len(label) == 2 && label[0] == 'T' && label[1] >= '1' && label[1] <= '9':
			subject = "extruder" + label[1:]
		default:
			continue
		}
		temp, after, ok := leadingNum(strings.TrimLeft(rest, " "))
		if !ok {
			continue
		}
		after = strings.TrimLeft(after, " ")
		if !strings.HasPrefix(after, "/") {
			continue
		}
		target, _, ok := leadingNum(after[1:])
		if !ok {
			continue
		}
		if h := hs.get(subject); h != nil {
			h.sample(target, temp, 0, false, n, quote)
			found = true
		}
	}
	return found
}
