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

func readKconfig(c *collector, text string) fwInfo {
	var flashStart, appAddr uint64
	var hasStart, hasApp bool
	appLine, appQuote := 0, ""
	for n, raw := range eachLine(text) {
		t := strings.TrimSpace(raw)
		name, v, ok := strings.Cut(t, "=")
		if !ok || !strings.HasPrefix(name, "CONFIG_") {
			continue
		}
		name = name[len("CONFIG_"):]
		v = strings.Trim(v, "\"")
		if key, ok := kconfigFacts[name]; ok {
			c.set(key, "mcu", v, n, raw)
			continue
		}
		switch {
		case name == "FLASH_START":
			flashStart, hasStart = parseHex(v)
		case name == "FLASH_APPLICATION_ADDRESS":
			appAddr, hasApp = parseHex(v)
			appLine, appQuote = n, raw
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
	if hasStart && hasApp && appAddr >= flashStart {
		off := appAddr - flashStart
		c.setValueNum("mcu.bootloader_offset", "mcu", "0x"+strconv.FormatUint(off, 16), float64(off), appLine, appQuote)
	}
	return fwInfo{firmware: "Klipper"}
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
