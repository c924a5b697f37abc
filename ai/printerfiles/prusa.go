package printerfiles

import "strings"

// Prusa's Buddy firmware shows an error as a five-digit code, the printer's
// two digits then the error's three (prusa.io/13208 is MK4's HOTEND MINTEMP
// ERROR). The printer codes are Buddy's PRINTER_CODE values (its
// CMakeLists.txt); the error ids are those of
// Prusa-Error-Codes/yaml/buddy-error-codes.yaml.

var prusaPrinterCodes = map[string]string{
	"04": "MMU", "12": "MINI", "13": "MK4", "16": "iX", "17": "XL", "18": "MK3.5", "23": "MK3.9", "31": "CORE One",
}

// prusaErrors maps an error's last three digits to its id, and where one
// exists to the fact key and subject it means.
var prusaErrors = map[string]struct{ id, key, subject string }{
	"101": {"STUCK_FILAMENT_DETECTED", "error.filament_stuck", "extruder"},
	"102": {"PRECISE_REFINEMENT_FAILED", "error.homing_failed", ""},
	"108": {"STUCK_FILAMENT_DETECTED", "error.filament_stuck", "extruder"},
	"109": {"STEEL_SHEET_NOT_DETECTED", "", ""},
	"119": {"LOADING_OBSTRUCTION", "error.filament_stuck", "extruder"},
	"201": {"BED_PREHEAT_ERROR", "error.heater_not_heating", "heater_bed"},
	"202": {"HOTEND_PREHEAT_ERROR", "error.heater_not_heating", "extruder"},
	"203": {"BED_THERMAL_RUNAWAY", "error.thermal_runaway", "heater_bed"},
	"204": {"HOTEND_THERMAL_RUNAWAY", "error.thermal_runaway", "extruder"},
	"205": {"BED_MAXTEMP_ERROR", "error.maxtemp", "heater_bed"},
	"206": {"HOTEND_MAXTEMP_ERROR", "error.maxtemp", "extruder"},
	"207": {"BED_MINTEMP_ERROR", "error.mintemp", "heater_bed"},
	"208": {"HOTEND_MINTEMP_ERROR", "error.mintemp", "extruder"},
	"209": {"BED_TEMP_NOT_MATCHING", "error.temperature_mismatch", "heater_bed"},
	"210": {"HOTEND_TEMP_NOT_MATCHING", "error.temperature_mismatch", "extruder"},
	"211": {"HEATBREAK_MINTEMP_ERR", "error.mintemp", "heatbreak"},
	"212": {"HEATBREAK_MAXTEMP_ERR", "error.maxtemp", "heatbreak"},
	"213": {"MCU_MAXTEMP_ERR", "error.maxtemp", "mcu"},
	"214": {"CHAMBER_MAXTEMP", "error.maxtemp", "chamber"},
	"215": {"CHAMBER_MINTEMP", "error.mintemp", "chamber"},
	"216": {"HEATBREAK_COOLING_TOO_SLOW", "error.fan", "hotend_fan"},
	// XL's modular bed (MB_*) and CORE One L's AC controller report the bed's faults
	"250": {"MB_HEATER_DISCONNECTED", "error.heater_fault", "heater_bed"},
	"251": {"MB_HEATER_SHORT", "error.heater_overcurrent", "heater_bed"},
	"252": {"MB_MINTEMP_ERR", "error.mintemp", "heater_bed"},
	"253": {"MB_MAXTEMP_ERR", "error.maxtemp", "heater_bed"},
	"254": {"MB_DROP_TEMP", "error.thermal_runaway", "heater_bed"},
	"255": {"MB_PEAK_TEMP", "error.thermal_runaway", "heater_bed"},
	"256": {"MB_PREHEAT_ERR", "error.heater_not_heating", "heater_bed"},
	"257": {"MB_TEST_HEATING_ERR", "error.heater_not_heating", "heater_bed"},
	"270": {"PUBBY_MCU_OVERHEAT", "warning.mcu_temperature", "mcu"},
	"271": {"PUBBY_PCB_OVERHEAT", "warning.mcu_temperature", "mcu"},
	"272": {"AC_CONTROLLER_BED_NTC_DISCONNECT", "error.mintemp", "heater_bed"},
	"273": {"AC_CONTROLLER_BED_NTC_SHORT", "error.maxtemp", "heater_bed"},
	"301": {"HOMING_ERROR_Z", "error.homing_failed", "z"},
	"302": {"MB_OVERCURRENT", "error.heater_overcurrent", "heater_bed"},
	"303": {"MB_INVALID_CURRENT", "error.heater_fault", "heater_bed"},
	"304": {"HOMING_ERROR_X", "error.homing_failed", "x"},
	"305": {"HOMING_ERROR_Y", "error.homing_failed", "y"},
	"308": {"NOZZLE_OVERCURRENT", "error.heater_overcurrent", "extruder"},
	"311": {"I2C_TX_ERROR", "error.i2c", "mcu"},
	"312": {"I2C_TX_BUSY", "error.i2c", "mcu"},
	"313": {"I2C_TX_TIMEOUT", "error.i2c", "mcu"},
	"314": {"I2C_TX_UNDEFINED", "error.i2c", "mcu"},
	"315": {"I2C_RX_ERROR", "error.i2c", "mcu"},
	"316": {"I2C_RX_BUSY", "error.i2c", "mcu"},
	"317": {"I2C_RX_TIMEOUT", "error.i2c", "mcu"},
	"318": {"I2C_RX_UNDEFINED", "error.i2c", "mcu"},
	"319": {"MB_FAULT", "error.heater_fault", "heater_bed"},
	"321": {"ACF_AT_INIT", "error.power_panic", ""},
	"322": {"HEATER_HOTEND_OVERCURRENT", "error.heater_overcurrent", "extruder"},
	"323": {"ACCELEROMETER_COMMUNICATION_FAILED", "error.accelerometer", "accelerometer"},
	"510": {"EMERGENCY_STOP", "", ""},
	"526": {"LOADCELL_INFINITE_LOAD", "error.probing_failed", "probe"},
	"528": {"LOADCELL_TIMEOUT", "error.probing_failed", "probe"},
	"534": {"GCODE_CORRUPTION", "error.storage", "gcode"},
	"535": {"GCODE_CROPPED", "error.storage", "gcode"},
	"536": {"DWARF_TMC", "error.driver_fault", "extruder"},
	"809": {"CRASH_RECOVERY_AXIS_LONG", "error.crash_detected", ""},
	"810": {"CRASH_RECOVERY_AXIS_SHORT", "error.crash_detected", ""},
	"811": {"CRASH_RECOVERY_REPEATED_CRASH", "error.crash_detected", ""},
	"812": {"CRASH_RECOVERY_HOME_FAIL", "error.homing_failed", ""},
	"816": {"PRINT_FAN_ERROR", "error.fan", "part_fan"},
	"817": {"HEATERS_TIMEOUT", "event.heaters_timeout", ""},
	"818": {"HOTEND_TEMP_DISCREPANCY", "error.temperature_mismatch", "extruder"},
	"819": {"NOZZLE_TIMEOUT", "event.heaters_timeout", "extruder"},
	"820": {"STEPPERS_TIMEOUT", "event.heaters_timeout", "steppers"},
	"821": {"USB_FLASH_DISK_ERROR", "error.storage", "usb"},
	"822": {"HEATBREAK_THERMISTOR_FAIL", "error.sensor_fault", "heatbreak"},
	"823": {"NOZZLE_DOES_NOT_HAVE_ROUND_SECTION", "error.probing_failed", "probe"},
	"824": {"NOT_DOWNLOADED", "warning.gcode_transfer_slow", ""},
	"825": {"BUDDY_MCU_MAX_TEMP", "warning.mcu_temperature", "mcu"},
	"826": {"DWARF_MCU_MAX_TEMP", "warning.mcu_temperature", "mcu"},
	"827": {"MOD_BED_MCU_MAX_TEMP", "warning.mcu_temperature", "mcu"},
	"828": {"HOTEND_FAN_ERROR", "error.fan", "hotend_fan"},
	"829": {"FILAMENT_RUNOUT", "event.filament_runout", "extruder"},
	"833": {"PROBING_FAILED", "error.probing_failed", "probe"},
}

// prusaCode reads a Buddy error code on a line ("prusa.io/13208",
// "#13208"); it reports whether it found one.
func prusaCode(c *collector, s string, n int, quote string) bool {
	i := strings.Index(s, "prusa.io/")
	skip := len("prusa.io/")
	if i < 0 {
		i = strings.IndexByte(s, '#')
		skip = 1
	}
	if i < 0 || i+skip+5 > len(s) {
		return false
	}
	code := s[i+skip : i+skip+5]
	if !isDigits(code) || i+skip+5 < len(s) && s[i+skip+5] >= '0' && s[i+skip+5] <= '9' {
		return false
	}
	printer, ok := prusaPrinterCodes[code[:2]]
	if !ok {
		return false
	}
	e, known := prusaErrors[code[2:]]
	switch {
	case printer == "MMU":
		e, known = prusaMMUByCode[code[2:]]
	case printer == "MINI" && code[2:] == "301":
		// the MINI homes Z on its SuperPINDA: its Z homing error is the probe's too
		c.event("error.probing_failed", "probe", code+" "+e.id, n, quote)
	}
	id := e.id
	if !known {
		id = "unknown"
	}
	c.event("prusa.error_code", code, printer+" "+id, n, quote)
	if e.key != "" {
		c.event(e.key, e.subject, code+" "+id, n, quote)
	}
	return true
}

// The MMU's errors (Prusa-Error-Codes/yaml/mmu-error-codes.yaml): code, the
// title the printer's serial output shows after "MMU2:", id and fact.
var prusaMMUErrors = []struct{ code, title, id, key, subject string }{
	{"101", "FINDA DIDNT TRIGGER", "FINDA_DIDNT_TRIGGER", "error.mmu_finda", "mmu"},
	{"102", "FINDA FILAM. STUCK", "FINDA_FILAMENT_STUCK", "error.mmu_finda", "mmu"},
	{"103", "FSENSOR DIDNT TRIGG.", "FSENSOR_DIDNT_TRIGGER", "error.mmu_fsensor", "mmu"},
	{"104", "FSENSOR FIL. STUCK", "FSENSOR_FILAMENT_STUCK", "error.mmu_fsensor", "mmu"},
	{"105", "PULLEY CANNOT MOVE", "PULLEY_CANNOT_MOVE", "error.mmu_motion", "pulley"},
	{"106", "FSENSOR TOO EARLY", "FSENSOR_TOO_EARLY", "error.mmu_fsensor", "mmu"},
	{"107", "INSPECT FINDA", "INSPECT_FINDA", "error.mmu_finda", "mmu"},
	{"108", "LOAD TO EXTR. FAILED", "LOAD_TO_EXTRUDER_FAILED", "error.mmu_fsensor", "mmu"},
	{"115", "SELECTOR CANNOT HOME", "SELECTOR_CANNOT_HOME", "error.mmu_motion", "selector"},
	{"116", "SELECTOR CANNOT MOVE", "SELECTOR_CANNOT_MOVE", "error.mmu_motion", "selector"},
	{"125", "IDLER CANNOT HOME", "IDLER_CANNOT_HOME", "error.mmu_motion", "idler"},
	{"126", "IDLER CANNOT MOVE", "IDLER_CANNOT_MOVE", "error.mmu_motion", "idler"},
	{"202", "TMC OVERHEAT ERROR", "TMC_OVERHEAT_ERROR", "error.driver_over_temperature", "mmu"},
	{"301", "TMC DRIVER ERROR", "TMC_DRIVER_ERROR", "error.driver_fault", "mmu"},
	{"304", "TMC DRIVER SHORTED", "TMC_DRIVER_SHORTED", "error.driver_short_to_ground", "mmu"},
	{"306", "MMU MCU ERROR", "MCU_POWER_ERROR", "error.mmu_communication", "mmu"},
	{"307", "MMU MCU UNDERPOWER", "MCU_UNDERVOLTAGE_VCC", "error.undervoltage", "mmu"},
	{"401", "MMU NOT RESPONDING", "MMU_NOT_RESPONDING", "error.mmu_communication", "mmu"},
	{"402", "COMMUNICATION ERROR", "COMMUNICATION_ERROR", "error.mmu_communication", "mmu"},
	{"504", "MMU FW UPDATE NEEDED", "FW_UPDATE_NEEDED", "error.mmu_firmware", "mmu"},
	{"505", "FW RUNTIME ERROR", "FW_RUNTIME_ERROR", "error.mmu_firmware", "mmu"},
}

var prusaMMUByCode, prusaMMUByTitle = func() (map[string]struct{ id, key, subject string }, map[string]string) {
	byCode := map[string]struct{ id, key, subject string }{}
	byTitle := map[string]string{}
	for _, e := range prusaMMUErrors {
		byCode[e.code] = struct{ id, key, subject string }{e.id, e.key, e.subject}
		byTitle[e.title] = e.code
	}
	return byCode, byTitle
}()

// prusaMMU reads the MMU's status line after "MMU2:" in the MK3/MK3.5
// firmware's serial output ("MMU2:FSENSOR DIDNT TRIGG."): an error title
// becomes its code's facts.
func prusaMMU(c *collector, msg string, n int, quote string) {
	code, ok := prusaMMUByTitle[msg]
	if !ok {
		return
	}
	e := prusaMMUByCode[code]
	c.event("prusa.error_code", "04"+code, "MMU "+e.id, n, quote)
	c.event(e.key, e.subject, "04"+code+" "+e.id, n, quote)
}
