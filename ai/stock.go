package ai

import (
	"encoding/json"
	"fmt"
	"io/fs"
	"math"
	"slices"
	"strconv"
	"strings"
	"sync"

	"github.com/layerfix/layerfix/ai/printerfiles"
)

// A maker's Klipper config usually starts from one of Klipper's example
// configs (config/printer-*.cfg for a printer, config/generic-*.cfg for a
// board): a setting that differs from that example (an inverted direction
// pin, a heater on another pin, another rotation_distance, another
// bootloader in the firmware build) is where a fault often hides. The
// examples' settings are kb/stock/klipper.json, written by stockgen.go.

// stockFile is kb/stock/klipper.json.
type stockFile struct {
	Source  string   `json:"source"`
	Keys    []string `json:"keys"`
	Configs []struct {
		Name  string            `json:"name"`
		Facts []json.RawMessage `json:"facts"` // [key index, subject, value]
	} `json:"configs"`
}

// stockConfig is one example config.
type stockConfig struct {
	name    string
	marlin  bool   // one of Marlin's example configurations
	printer bool   // a printer-*.cfg, not a board template
	model   string // printer-*.cfg: the model's letters and digits ("ender3v2")
	values  map[factSlot]string
	pins    map[factSlot]string // pins without ^ ! ~, lower case
}

// factSlot is a setting of one part: a key and a subject.
type factSlot struct{ key, subject string }

// pinKeys are the settings that name a pin: together they identify the
// board a config was written for.
var pinKeys = map[string]bool{
	"stepper.step_pin": true, "stepper.dir_pin": true, "stepper.enable_pin": true,
	"extruder.step_pin": true, "extruder.dir_pin": true, "extruder.enable_pin": true,
	"endstop.pin": true, "heater.heater_pin": true, "heater.sensor_pin": true, "fan.pin": true,
	"probe.sensor_pin": true, "probe.control_pin": true, "driver.uart_pin": true, "driver.cs_pin": true,
}

// invertedFrom names, for an *_inverted key, the pin it is read from.
var invertedFrom = map[string]string{
	"stepper.dir_inverted": "stepper.dir_pin", "stepper.enable_inverted": "stepper.enable_pin",
	"extruder.dir_inverted": "extruder.dir_pin", "extruder.enable_inverted": "extruder.enable_pin",
	"endstop.inverted": "endstop.pin",
}

// stockSet is the example configs with their pins indexed, and Marlin's
// example configurations by model and board.
type stockSet struct {
	configs []*stockConfig
	bySlot  map[factSlot][]int32 // configs naming a pin for the slot
	byPin   map[slotPin][]int32  // configs with that pin in the slot

	marlin      []*stockConfig
	marlinModel map[string][]int32 // model -> Marlin examples
	marlinBoard map[string][]int32 // MOTHERBOARD -> Marlin examples
	marlinKeys  map[string]bool    // the keys the Marlin examples hold
}

type slotPin struct {
	slot factSlot
	pin  string
}

var (
	stockOnce sync.Once
	stock     *stockSet
	stockErr  error
)

// loadStock reads the example configs once, on the first request that
// needs them.
func loadStock() (*stockSet, error) {
	stockOnce.Do(func() {
		data, err := fs.ReadFile(kbFiles, "kb/stock/klipper.json")
		if err != nil {
			stockErr = fmt.Errorf("read stock configs: %w", err)
			return
		}
		var configs []*stockConfig
		if configs, stockErr = parseStock(data); stockErr != nil {
			return
		}
		stock = indexStock(configs)
		if data, err = fs.ReadFile(kbFiles, "kb/stock/marlin.json"); err != nil {
			stock, stockErr = nil, fmt.Errorf("read Marlin stock configs: %w", err)
			return
		}
		if stockErr = stock.addMarlin(data); stockErr != nil {
			stock = nil
		}
	})
	return stock, stockErr
}

// addMarlin reads Marlin's example configurations, named
// "<vendor>/<model>[/<board or variant>]", and indexes them by model and
// board.
func (set *stockSet) addMarlin(data []byte) error {
	configs, keys, err := parseStockKeys(data)
	if err != nil {
		return err
	}
	set.marlin = configs
	set.marlinModel = map[string][]int32{}
	set.marlinBoard = map[string][]int32{}
	set.marlinKeys = map[string]bool{}
	for _, k := range keys {
		set.marlinKeys[k] = true
	}
	for i, sc := range configs {
		sc.printer, sc.marlin = false, true
		parts := strings.Split(sc.name, "/")
		if len(parts) > 1 {
			sc.model = compact(parts[1])
			set.marlinModel[sc.model] = append(set.marlinModel[sc.model], int32(i))
		}
		if b := sc.values[factSlot{"firmware.board", ""}]; b != "" {
			set.marlinBoard[b] = append(set.marlinBoard[b], int32(i))
		}
	}
	return nil
}

// matchMarlin finds the Marlin example configuration the maker's
// Configuration.h or M503 report comes from: among the examples of a model
// the request names (else of the same MOTHERBOARD), the one sharing the
// most settings. It is the printer's own when its model is named or it
// shares at least 85 % of at least 20 settings.
func matchMarlin(set *stockSet, rep printerfiles.Report, text string) *stockMatch {
	mine := map[factSlot]string{}
	for _, f := range rep.Facts {
		slot := factSlot{f.Key, f.Subject}
		if _, ok := mine[slot]; !ok && set.marlinKeys[f.Key] {
			mine[slot] = f.Value
		}
	}
	var cands []int32
	named := false
	for name := range modelNames(text) {
		if m := set.marlinModel[name]; len(m) > 0 {
			cands, named = append(cands, m...), true
		}
	}
	if !named {
		cands = set.marlinBoard[mine[factSlot{"firmware.board", ""}]]
	}
	var best *stockConfig
	bestSame, bestBoth := 0, 0
	for _, i := range cands {
		sc := set.marlin[i]
		same, both := 0, 0
		for slot, v := range mine {
			if sv, ok := sc.values[slot]; ok {
				both++
				if sameText(sv, v) {
					same++
				}
			}
		}
		if same > bestSame || same == bestSame && best != nil && sc.name < best.name {
			best, bestSame, bestBoth = sc, same, both
		}
	}
	if best == nil || bestBoth < 8 {
		return nil
	}
	return &stockMatch{best, named || bestBoth >= 20 && 100*bestSame >= 85*bestBoth}
}

// indexStock indexes the configs by their pins.
func indexStock(configs []*stockConfig) *stockSet {
	set := &stockSet{configs: configs, bySlot: map[factSlot][]int32{}, byPin: map[slotPin][]int32{}}
	for i, sc := range configs {
		for slot, p := range sc.pins {
			set.bySlot[slot] = append(set.bySlot[slot], int32(i))
			set.byPin[slotPin{slot, p}] = append(set.byPin[slotPin{slot, p}], int32(i))
		}
	}
	return set
}

func parseStock(data []byte) ([]*stockConfig, error) {
	configs, _, err := parseStockKeys(data)
	return configs, err
}

// parseStockKeys reads a stock file: its configs and the keys they use.
func parseStockKeys(data []byte) ([]*stockConfig, []string, error) {
	var f stockFile
	if err := json.Unmarshal(data, &f); err != nil {
		return nil, nil, fmt.Errorf("parse stock configs: %w", err)
	}
	out := make([]*stockConfig, 0, len(f.Configs))
	for _, c := range f.Configs {
		sc := &stockConfig{name: c.Name, values: map[factSlot]string{}, pins: map[factSlot]string{}}
		if model, ok := strings.CutPrefix(strings.TrimSuffix(c.Name, ".cfg"), "printer-"); ok {
			sc.printer = true
			parts := strings.Split(model, "-")
			// printer-<brand>-<model>[-<year>]: the brand and the year say
			// little, the model is what makers write.
			if len(parts) > 1 {
				parts = parts[1:]
			}
			if n := len(parts); n > 1 && len(parts[n-1]) == 4 && isDigits(parts[n-1]) {
				parts = parts[:n-1]
			}
			sc.model = compact(strings.Join(parts, ""))
		}
		for _, raw := range c.Facts {
			var t [3]json.RawMessage
			if err := json.Unmarshal(raw, &t); err != nil {
				return nil, nil, fmt.Errorf("stock config %s: %w", c.Name, err)
			}
			var ki int
			var subject, value string
			if json.Unmarshal(t[0], &ki) != nil || json.Unmarshal(t[1], &subject) != nil || json.Unmarshal(t[2], &value) != nil ||
				ki < 0 || ki >= len(f.Keys) {
				return nil, nil, fmt.Errorf("stock config %s: bad fact %s", c.Name, raw)
			}
			slot := factSlot{f.Keys[ki], subject}
			sc.values[slot] = value
			if pinKeys[slot.key] {
				sc.pins[slot] = normPin(value)
			}
		}
		out = append(out, sc)
	}
	return out, f.Keys, nil
}

// normPin is a pin without its pull-up, inversion and pull-down marks.
func normPin(p string) string {
	return strings.ToLower(strings.Trim(strings.TrimSpace(p), "^!~ "))
}

// stockMatch is the example config the maker's files come from and how
// sure that is.
type stockMatch struct {
	*stockConfig
	// printer is true when the example is for the maker's printer (its
	// model is named in the request), not only for the same board: only
	// then do printer settings (directions, rotation distances, sensors,
	// limits) compare.
	printer bool
}

// boardKeys are the settings that belong to the board, so they compare
// with any example for it: pin names and the firmware build.
var boardKeys = map[string]bool{
	"driver.uart_pin": true, "driver.tx_pin": true, "driver.cs_pin": true, "driver.uart_address": true,
	"mcu.chip": true, "mcu.bootloader_offset": true, "mcu.comm": true, "mcu.crystal": true,
}

// modelNames are the runs of up to four consecutive words of text, each
// run's letters and digits joined: "Creality Ender-3 V2" gives "ender3v2",
// the way example config names write a model, and nothing inside a word.
func modelNames(text string) map[string]bool {
	words := strings.FieldsFunc(strings.ToLower(text), func(r rune) bool {
		return !(r >= 'a' && r <= 'z' || r >= '0' && r <= '9' || r == '+')
	})
	out := map[string]bool{}
	for i := range words {
		run := ""
		for j := i; j < len(words) && j < i+4; j++ {
			run += words[j]
			out[run] = true
		}
	}
	return out
}

// matchStock finds the example config the maker's files come from: the one
// sharing the most pins (at least 5 and 60 % of the pins both name),
// preferring among the best the printer example whose model the request
// names; without pins, the printer example whose model the printer or
// description names.
func matchStock(set *stockSet, rep printerfiles.Report, text string) *stockMatch {
	names := modelNames(text)
	named := func(sc *stockConfig) bool { return sc.model != "" && names[sc.model] }
	mine := map[factSlot]string{}
	for _, f := range rep.Facts {
		if pinKeys[f.Key] {
			mine[factSlot{f.Key, f.Subject}] = normPin(f.Value)
		}
	}
	type cand struct {
		sc   *stockConfig
		same int
	}
	var cands []cand
	bestSame := 0
	if len(mine) >= 5 {
		same := make([]int, len(set.configs))
		both := make([]int, len(set.configs))
		for slot, p := range mine {
			for _, i := range set.bySlot[slot] {
				both[i]++
			}
			for _, i := range set.byPin[slotPin{slot, p}] {
				same[i]++
			}
		}
		for i, sc := range set.configs {
			if same[i] >= 5 && 10*same[i] >= 6*both[i] {
				cands = append(cands, cand{sc, same[i]})
				bestSame = max(bestSame, same[i])
			}
		}
	}
	// Among the named examples the longest model wins; of one model's
	// examples (printer-anet-a8-2017 and -2019) the one sharing the most
	// pins, then the most settings.
	var best *stockConfig
	bestPins, bestShare := 0, 0.0
	for _, cd := range cands {
		if cd.same < bestSame-1 || !named(cd.sc) {
			continue
		}
		share := agreement(cd.sc, rep)
		if best == nil || len(cd.sc.model) > len(best.model) ||
			len(cd.sc.model) == len(best.model) && (cd.same > bestPins || cd.same == bestPins && share > bestShare) {
			best, bestPins, bestShare = cd.sc, cd.same, share
		}
	}
	if best != nil {
		return &stockMatch{best, true}
	}
	// A printer example the config agrees with almost everywhere is the
	// printer's own when the request names no printer an example knows,
	// unless a board example agrees better (a board's template that a
	// printer example was written from).
	if !slices.ContainsFunc(set.configs, named) {
		var top *stockConfig
		topShare := 0.0
		for _, cd := range cands {
			if cd.same < bestSame-1 {
				continue
			}
			if share := agreement(cd.sc, rep); share > topShare {
				top, topShare = cd.sc, share
			}
		}
		if top != nil && top.printer && topShare >= 0.85 {
			return &stockMatch{top, true}
		}
	}
	for _, cd := range cands {
		if cd.same == bestSame {
			return &stockMatch{cd.sc, false}
		}
	}
	if len(mine) >= 5 {
		return nil // a config of a board no example knows
	}
	for _, sc := range set.configs {
		if !named(sc) {
			continue
		}
		share := agreement(sc, rep)
		if best == nil || len(sc.model) > len(best.model) || len(sc.model) == len(best.model) && share > bestShare {
			best, bestShare = sc, share
		}
	}
	if best == nil {
		return nil
	}
	return &stockMatch{best, true}
}

// agreement is the share of the maker's printer settings (not pins, not
// the firmware build) that equal the example's, over at least 12 settings
// both hold; 0 with fewer.
func agreement(sc *stockConfig, rep printerfiles.Report) float64 {
	same, both := 0, 0
	seen := map[factSlot]bool{}
	for _, f := range rep.Facts {
		slot := factSlot{f.Key, f.Subject}
		if seen[slot] || pinKeys[f.Key] || boardKeys[f.Key] {
			continue
		}
		seen[slot] = true
		if sv, ok := sc.values[slot]; ok {
			both++
			if sameText(sv, f.Value) {
				same++
			}
		}
	}
	if both < 12 {
		return 0
	}
	return float64(same) / float64(both)
}

// sameText reports whether two settings read the same, ignoring case and
// spaces.
func sameText(a, b string) bool {
	norm := func(s string) string { return strings.ToLower(strings.Join(strings.Fields(s), "")) }
	return norm(a) == norm(b)
}

// title names the example the way a step quotes it.
func (sc *stockConfig) title() string {
	if sc.marlin {
		return "Marlin's example configuration for this printer (" + sc.name + ")"
	}
	if sc.printer {
		return "Klipper's example config for this printer (" + sc.name + ")"
	}
	return "Klipper's example config for this board (" + sc.name + ")"
}

// value is the example's setting for a slot; *_inverted keys are read from
// the pin's "!".
func (sc *stockConfig) value(slot factSlot) (string, bool) {
	if v, ok := sc.values[slot]; ok {
		return v, true
	}
	if pin, ok := invertedFrom[slot.key]; ok {
		if p, ok := sc.values[factSlot{pin, slot.subject}]; ok {
			return strconv.FormatBool(strings.Contains(p, "!")), true
		}
	}
	return "", false
}

// differs reports whether a value differs from the example's: numbers by
// more than tol (relative), pins by name (when both use the same naming),
// anything else as text ignoring case and spaces. Printer settings compare
// only with the example for the maker's printer.
func (sm *stockMatch) differs(fa printerfiles.Fact, tol float64) (string, bool) {
	if sm == nil || !sm.printer && !boardKeys[fa.Key] {
		return "", false
	}
	sv, ok := sm.value(factSlot{fa.Key, fa.Subject})
	if !ok {
		return "", false
	}
	switch {
	case pinKeys[fa.Key]:
		a, b := normPin(fa.Value), normPin(sv)
		return sv, pinScheme(a) == pinScheme(b) && a != b
	case fa.Key == "mcu.chip": // "stm32f103xe" is an "stm32f103"
		a, b := strings.ToLower(fa.Value), strings.ToLower(sv)
		return sv, !strings.HasPrefix(a, b) && !strings.HasPrefix(b, a)
	}
	if n, err := strconv.ParseFloat(strings.TrimSpace(sv), 64); err == nil && fa.HasNum {
		return sv, math.Abs(fa.Num-n) > tol*math.Max(math.Abs(n), 1e-9)
	}
	return sv, !sameText(sv, fa.Value)
}

// above reports whether a number is above the example's by more than tol
// (relative); never without an example for the maker's printer.
func (sm *stockMatch) above(fa printerfiles.Fact, tol float64) bool {
	if sm == nil || !sm.printer || !fa.HasNum {
		return false
	}
	sv, ok := sm.value(factSlot{fa.Key, fa.Subject})
	if !ok {
		return false
	}
	n, err := strconv.ParseFloat(strings.TrimSpace(sv), 64)
	return err == nil && fa.Num > n+tol*math.Abs(n)
}

// chipValue is the example's value of key for one micro-controller
// (subject "mcu:stm32f446" for a maker's "stm32f446xx").
func (sm *stockMatch) chipValue(key, chip string) (string, bool) {
	if sm == nil || !boardKeys[key] {
		return "", false
	}
	chip = strings.ToLower(chip)
	for slot, v := range sm.values {
		if c, ok := strings.CutPrefix(slot.subject, "mcu:"); ok && slot.key == key && c != "" && strings.HasPrefix(chip, c) {
			return v, true
		}
	}
	return "", false
}

// pinScheme is how a pin is named: "port" (PA1, P1.23), "alias" (ar10,
// analog13), or the text before its digits.
func pinScheme(p string) string {
	i := strings.IndexFunc(p, func(r rune) bool { return r >= '0' && r <= '9' })
	if i < 0 {
		return p
	}
	prefix := p[:i]
	if len(prefix) == 2 && prefix[0] == 'p' || prefix == "p" {
		return "port"
	}
	return prefix
}
