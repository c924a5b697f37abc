package printerfiles

import "strconv"

// stockPIDs are PID values that ship with firmware or its example configs;
// a heater still on one of them was never tuned on this printer. The list
// holds the values found at least four times in Marlin's example
// configurations (MarlinFirmware/Configurations, config/examples) and in
// Klipper's example configs (Klipper3d/klipper, config/), and the defaults
// of the Prusa MK3 firmware (prusa3d/Prusa-Firmware, Firmware/variants).
var stockPIDs = [][3]float64{
	// hotends
	{22.2, 1.08, 114},        // Marlin's default
	{21.73, 1.54, 76.55},     // Creality Ender-3 family (Marlin examples)
	{45.8, 3.61, 145.39},     // Marlin examples
	{28.72, 2.62, 78.81},     // Creality Ender-3 V2 (Marlin examples)
	{18.62, 1.38, 62.92},     // Marlin examples
	{63, 2.25, 440},          // Marlin examples
	{20.03, 1.22, 82.05},     // Marlin examples
	{22, 1.08, 114},          // Klipper examples
	{21.527, 1.063, 108.982}, // Klipper Creality examples
	{14.669, 0.572, 94.068},  // Klipper examples
	{16.13, 1.1625, 56.23},   // Prusa MK3
	{21.70, 1.60, 73.76},     // Prusa MK2.5/MK3 variants
	// beds
	{10, 0.023, 305.4},        // Marlin's default
	{50.71, 9.88, 173.43},     // Marlin examples
	{462.1, 85.47, 624.59},    // Creality Ender-3 V2 (Marlin examples)
	{182.46, 35.92, 231.7},    // Marlin examples
	{841.68, 152.12, 1164.25}, // Marlin examples
	{690.34, 111.47, 1068.83}, // Marlin and Klipper examples
	{426.68, 78.92, 576.71},   // Marlin examples
	{374.03, 72.47, 482.59},   // Marlin examples
	{54.027, 0.770, 948.182},  // Klipper Creality examples
	{325.10, 63.35, 417.10},   // Klipper examples
	{126.13, 4.30, 924.76},    // Prusa MK3
}

// stockPID reports whether kp, ki, kd are one of stockPIDs, allowing for the
// two decimals M503 prints.
func stockPID(kp, ki, kd float64) bool {
	for _, s := range stockPIDs {
		if near(kp, s[0]) && near(ki, s[1]) && near(kd, s[2]) {
			return true
		}
	}
	return false
}

func near(a, b float64) bool {
	d := a - b
	if d < 0 {
		d = -d
	}
	tol := 0.006
	if t := 0.005 * b; t > tol {
		tol = t
	}
	return d <= tol
}

// marlinSensors names Marlin's TEMP_SENSOR_n values (Configuration.h).
var marlinSensors = map[int]string{
	-5: "MAX31865 PT100/PT1000", -4: "AD8495 thermocouple", -3: "MAX31855 thermocouple",
	-2: "MAX6675 thermocouple", -1: "AD595 thermocouple", 0: "not used",
	1: "100k EPCOS", 2: "200k ATC Semitec 204GT-2", 4: "10k generic", 5: "100k ATC Semitec 104GT-2/104NT-4",
	6: "100k EPCOS (less accurate)", 7: "100k Honeywell 135-104LAG-J01", 11: "100k beta 3950 1%",
	12: "100k Vishay 0603 (Makibox)", 13: "100k Hisens 3950", 14: "100k beta 4092 (Ender-5 S1 bed)",
	20: "PT100 with INA826", 21: "PT100 with INA826 (3.3V ADC)", 51: "100k EPCOS (1k pullup)",
	60: "100k Maker's Tool Works", 61: "100k Formbot/Vivedino 350C", 66: "4.7M Dyze Design 500C",
	67: "500k SliceEngineering 450C", 70: "100k bq Hephestos 2", 75: "100k NTC MGB18-104F39050L32",
	99: "100k with 10k pullup", 147: "PT100 (4.7k pullup)", 1000: "custom", 1047: "PT1000 (4.7k pullup)",
	998: "dummy 25C", 999: "dummy 100C",
}

// marlinSensorValue is a TEMP_SENSOR value with its name.
func marlinSensorValue(v string) string {
	n, err := strconv.Atoi(v)
	if err != nil {
		return v
	}
	if name, ok := marlinSensors[n]; ok {
		return v + " (" + name + ")"
	}
	return v
}
