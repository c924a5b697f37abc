package printerfiles

import "testing"

const prusaMK3Banner = "FIRMWARE_NAME:Prusa-Firmware 3.14.1+8225_1ff2dc6 based on Marlin FIRMWARE_URL:https://github.com/prusa3d/Prusa-Firmware PROTOCOL_VERSION:1.0 MACHINE_TYPE:Prusa i3 MK3S EXTRUDER_COUNT:1 UUID:00000000-0000-0000-0000-000000000000"

// The MMU's errors by the title the MK3 prints after "MMU2:" and by code;
// Buddy codes for power panic and a slow network transfer; the MINI's Z
// homing error is its SuperPINDA's.
func TestPrusaMMUAndBuddyCodes(t *testing.T) {
	expectLines(t, "serial.log", prusaMK3Banner, []lineCase{
		{"echo:MMU2:MMU FW UPDATE NEEDED", want{"error.mmu_firmware", "mmu", "04504 FW_UPDATE_NEEDED"}},
		{"Recv: echo:MMU2:FSENSOR DIDNT TRIGG.", want{"error.mmu_fsensor", "mmu", "04103 FSENSOR_DIDNT_TRIGGER"}},
		{"echo:MMU2:FINDA DIDNT TRIGGER", want{"prusa.error_code", "04101", "MMU FINDA_DIDNT_TRIGGER"}},
		{"echo:MMU2:MMU NOT RESPONDING", want{"error.mmu_communication", "mmu", "04401 MMU_NOT_RESPONDING"}},
		{"MMU error prusa.io/04116", want{"error.mmu_motion", "selector", "04116 SELECTOR_CANNOT_MOVE"}},
		{"POWER PANIC prusa.io/13321", want{"error.power_panic", "", "13321 ACF_AT_INIT"}},
		{"Warning prusa.io/13824 G-Code transfer running too slow", want{"warning.gcode_transfer_slow", "", "13824 NOT_DOWNLOADED"}},
		{"HOMING ERROR Z prusa.io/12301", want{"error.probing_failed", "probe", "12301 HOMING_ERROR_Z"}},
	})
	// an MMU status that is no error gives no fact
	rep := read(t, "serial.log", prusaMK3Banner+"\necho:MMU2:Feeding to FINDA\n")
	expectNoFacts(t, rep, []want{{"prusa.error_code", "", ""}, {"error.mmu_finda", "mmu", ""}})
}

const marlinBanner = "FIRMWARE_NAME:Marlin bugfix-2.1.x (Jan  1 2024 12:00:00) SOURCE_CODE_URL:github.com/MarlinFirmware/Marlin PROTOCOL_VERSION:1.0 MACHINE_TYPE:Ender-3 V2 EXTRUDER_COUNT:1 UUID:cede2a2f-41a2-4748-9b12-c55c62f367ff"

// M48's repeatability, a tool the firmware does not have, and volumetric
// extrusion in an M503 without M200's S (Marlin 1.1, Prusa).
func TestMarlinRepeatabilityToolAndVolumetric(t *testing.T) {
	expectLines(t, "serial.log", marlinBanner, []lineCase{
		{"19:02:44.257 : Standard Deviation: 0.057957", want{"probe.std_dev", "probe", "~0.057957"}},
		{"Recv: echo:M104 Invalid extruder 1", want{"error.invalid_extruder", "1", "M104 Invalid extruder 1"}},
		{"echo:T1 Invalid extruder", want{"error.invalid_extruder", "1", "T1 Invalid extruder"}},
	})
	on := read(t, "M503.txt", prusaMK3Banner+"\necho:Filament settings:\necho:   M200 D1.75\n")
	expectFacts(t, on, []want{{"extruder.volumetric", "extruder", "true"}})
	off := read(t, "M503.txt", prusaMK3Banner+"\necho:Filament settings: Disabled\necho:   M200 D1.75\n")
	expectFacts(t, off, []want{{"extruder.volumetric", "extruder", "false"}})
	// Marlin 2's S decides, whatever the heading
	m2 := read(t, "M503.txt", marlinBanner+"\necho:; Filament settings (Disabled):\necho:  M200 S0 D1.75\n")
	expectFacts(t, m2, []want{{"extruder.volumetric", "extruder", "false"}})
}

// RepRapFirmware's console: a command RRF 3 removed, and a system macro
// that is missing.
func TestRRFRemovedCommandAndMissingMacro(t *testing.T) {
	rep := read(t, "console.txt", "7/14/2024, 2:31:50 PM\tError: G30: Probe already triggered at start of probing move\n"+
		"7/14/2024, 2:31:58 PM\tWarning: Macro file pause.g not found\n"+
		"7/14/2024, 2:32:01 PM\tError: M667: M667 is no longer supported - use M669 instead\n")
	expectFacts(t, rep, []want{
		{"warning.macro_missing", "pause.g", "Macro file pause.g not found"},
		{"error.unknown_command", "M667", "M667 is no longer supported - use M669 instead"},
	})
}
