package printerfiles

import (
	"strconv"
	"strings"
)

// Klipper's micro-controller firmware is built from a Kconfig ".config"
// ("make menuconfig"): "CONFIG_NAME=value" lines and "# CONFIG_NAME is not
// set". The options read are those of src/Kconfig and src/<arch>/Kconfig
// that decide whether the board runs and talks: the chip (CONFIG_MCU), the
// bootloader offset (CONFIG_FLASH_APPLICATION_ADDRESS minus
// CONFIG_FLASH_START, or the chosen *_FLASH_START_xxxx), the crystal
// (CONFIG_CLOCK_REF_FREQ), the interface (CONFIG_USBSERIAL, CONFIG_SERIAL,
// CONFIG_CANSERIAL, CONFIG_USBCANBUS and its pins) and the pins set at
// power-up (CONFIG_INITIAL_PINS).

// The same file is in klippy.log after "========= Last MCU build config
// =========" (klippy/util.py dump_mcu_build).

type kconfigReader struct {
	c                   *collector
	flashStart, appAddr uint64
	hasStart, hasApp    bool
	appLine             int
	appQuote            string
}

func readKconfig(c *collector, text string) fwInfo {
	kr := &kconfigReader{c: c}
	for n, raw := range eachLine(text) {
		kr.line(raw, n)
	}
	kr.finish()
	return fwInfo{firmware: "Klipper"}
}

func (kr *kconfigReader) line(raw string, n int) {
	c := kr.c
	t := strings.TrimSpace(raw)
	name, v, ok := strings.Cut(t, "=")
	if !ok || !strings.HasPrefix(name, "CONFIG_") {
		return
	}
	name = name[len("CONFIG_"):]
	v = strings.Trim(v, "\"")
	if key, ok := kconfigFacts[name]; ok {
		if v == "" && name == "INITIAL_PINS" {
			v = "none" // no pin is set before Klipper connects
		}
		c.set(key, "mcu", v, n, raw)
		return
	}
	switch {
	case name == "FLASH_START":
		kr.flashStart, kr.hasStart = parseHex(v)
	case name == "FLASH_APPLICATION_ADDRESS":
		kr.appAddr, kr.hasApp = parseHex(v)
		kr.appLine, kr.appQuote = n, raw
	case v == "y" && (name == "USBSERIAL" || name == "SERIAL" || name == "CANSERIAL" || name == "USBCANBUS"):
		c.set("mcu.comm", "mcu", kconfigComm[name], n, raw)
	case v == "y" && strings.Contains(name, "_FLASH_START_"):
		off := name[strings.LastIndex(name, "_")+1:]
		if x, err := strconv.ParseUint(off, 16, 32); err == nil {
			c.setValueNum("mcu.bootloader_offset", "mcu", "0x"+strings.ToLower(off), float64(x), n, raw)
		}
	case v == "y" && (strings.Contains(name, "_SERIAL_USART") || strings.Contains(name, "_SERIAL_UART") ||
		strings.Contains(name, "_CANBUS_P") || strings.Contains(name, "_USB_P") || strings.HasPrefix(name, "STM32_MMENU_SERIAL")):
		c.set("mcu.comm_pins", "mcu", name, n, raw)
	}
}

func (kr *kconfigReader) finish() {
	if kr.hasStart && kr.hasApp && kr.appAddr >= kr.flashStart {
		off := kr.appAddr - kr.flashStart
		kr.c.setValueNum("mcu.bootloader_offset", "mcu", "0x"+strconv.FormatUint(off, 16), float64(off), kr.appLine, kr.appQuote)
	}
}

// kconfigFacts are the options reported as they are written.
var kconfigFacts = map[string]string{
	"MCU": "mcu.chip", "CLOCK_FREQ": "mcu.clock_freq", "CLOCK_REF_FREQ": "mcu.crystal",
	"SERIAL_BAUD": "mcu.serial_baud", "INITIAL_PINS": "mcu.initial_pins", "CANBUS_FREQUENCY": "mcu.canbus_frequency",
}

var kconfigComm = map[string]string{"USBSERIAL": "usb", "SERIAL": "serial", "CANSERIAL": "canbus",
	"USBCANBUS": "usb-to-canbus bridge"}

func parseHex(v string) (uint64, bool) {
	x, err := strconv.ParseUint(strings.TrimPrefix(strings.ToLower(v), "0x"), 16, 64)
	return x, err == nil
}
