// Package printerlinktest serves loopback fakes of the printer hosts that
// answer with the shapes of the real ones, for tests.
package printerlinktest

import (
	"bytes"
	_ "embed"
	"encoding/json"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"
	"time"
)

// Key is the API key every fake wants.
const Key = "k3y-0f-the-h0st-5ecret"

// KlippyLog is the end of a klippy.log of a heater whose thermistor read
// beyond max_temp, as Klipper v0.12 writes it.
//
//go:embed testdata/klippy.log
var KlippyLog string

// PrinterCfg is a Klipper printer.cfg of the same printer.
//
//go:embed testdata/printer.cfg
var PrinterCfg string

func writeJSON(w http.ResponseWriter, v any) {
	w.Header().Set("Content-Type", "application/json")
	json.NewEncoder(w).Encode(v)
}

// requireKey answers 401 as the hosts do to a missing or wrong key.
func requireKey(w http.ResponseWriter, r *http.Request, status int) bool {
	if r.Header.Get("X-Api-Key") != Key {
		http.Error(w, "Unauthorized", status)
		return false
	}
	return true
}

// Moonraker answers like Moonraker v0.9.3 (API as documented in
// docs/external_api at commit d5ee171) in front of Klipper v0.12.0: every
// JSON answer wrapped in {"result": ...}, files served with byte ranges.
func Moonraker(t *testing.T, log []byte) *httptest.Server {
	mux := http.NewServeMux()
	mux.HandleFunc("GET /printer/info", func(w http.ResponseWriter, r *http.Request) {
		if requireKey(w, r, http.StatusUnauthorized) {
			writeJSON(w, map[string]any{"result": map[string]any{
				"state": "shutdown", "state_message": "MCU 'mcu' shutdown: ADC out of range\nThis generally occurs when a heater temperature exceeds\nits configured min_temp or max_temp.",
				"hostname": "voron", "klipper_path": "/home/pi/klipper", "python_path": "/home/pi/klippy-env/bin/python",
				"process_id": 275124, "user_id": 1000, "group_id": 1000, "log_file": "/home/pi/printer_data/logs/klippy.log",
				"config_file": "/home/pi/printer_data/config/printer.cfg", "software_version": "v0.12.0-85-gd785b396", "cpu_info": "4 core ARMv7 Processor rev 4 (v7l)"}})
		}
	})
	mux.HandleFunc("GET /server/history/list", func(w http.ResponseWriter, r *http.Request) {
		if requireKey(w, r, http.StatusUnauthorized) {
			writeJSON(w, map[string]any{"result": map[string]any{"count": 1, "jobs": []any{map[string]any{
				"job_id": "0000BF", "exists": true, "end_time": 1706366413.2, "filament_used": 3912.1, "filename": "benchy_0.2mm_PLA.gcode",
				"metadata": map[string]any{}, "print_duration": 2731.4, "status": "klippy_shutdown", "start_time": 1706359466.7,
				"total_duration": 2901.9, "user": "pi", "auxiliary_data": []any{}}}}})
		}
	})
	mux.HandleFunc("GET /server/files/metadata", func(w http.ResponseWriter, r *http.Request) {
		if !requireKey(w, r, http.StatusUnauthorized) {
			return
		}
		if r.URL.Query().Get("filename") != "benchy_0.2mm_PLA.gcode" {
			http.Error(w, `{"error": {"code": 404, "message": "Metadata not available"}}`, http.StatusNotFound)
			return
		}
		writeJSON(w, map[string]any{"result": map[string]any{
			"size": 1629418, "modified": 1706359465.49, "uuid": "473a41d2-15f4-434b-aeb4-ab96eb122bbf", "file_processors": []any{},
			"slicer": "PrusaSlicer", "slicer_version": "2.7.1+win64", "gcode_start_byte": 87410, "gcode_end_byte": 1618468,
			"object_height": 48, "estimated_time": 5947, "nozzle_diameter": 0.4, "layer_height": 0.2, "first_layer_height": 0.2,
			"first_layer_extr_temp": 215, "first_layer_bed_temp": 60, "filament_name": "Generic PLA", "filament_type": "PLA",
			"filament_total": 9159.55, "filament_weight_total": 27.32, "thumbnails": []any{},
			"print_start_time": 1706359466.72, "job_id": "0000BF", "filename": "benchy_0.2mm_PLA.gcode"}})
	})
	mux.HandleFunc("GET /server/temperature_store", func(w http.ResponseWriter, r *http.Request) {
		if requireKey(w, r, http.StatusUnauthorized) {
			writeJSON(w, map[string]any{"result": map[string]any{
				"extruder":   map[string]any{"temperatures": []float64{214.8, 215.1, 323.0}, "targets": []float64{215, 215, 0}, "powers": []float64{0.4, 0.4, 0}},
				"heater_bed": map[string]any{"temperatures": []float64{60.1, 60.0, 59.8}, "targets": []float64{60, 60, 0}, "powers": []float64{0.2, 0.2, 0}}}})
		}
	})
	mux.HandleFunc("GET /server/files/config/printer.cfg", func(w http.ResponseWriter, r *http.Request) {
		if requireKey(w, r, http.StatusUnauthorized) {
			http.ServeContent(w, r, "printer.cfg", time.Time{}, strings.NewReader(PrinterCfg+"\n[api]\napi_key: "+Key+"\n"))
		}
	})
	mux.HandleFunc("GET /server/files/logs/klippy.log", func(w http.ResponseWriter, r *http.Request) {
		if requireKey(w, r, http.StatusUnauthorized) {
			http.ServeContent(w, r, "klippy.log", time.Time{}, bytes.NewReader(log))
		}
	})
	srv := httptest.NewServer(mux)
	t.Cleanup(srv.Close)
	return srv
}

// OctoPrint answers like OctoPrint 1.10.3 (docs/api of the 1.10
// branch): X-Api-Key, 403 for a wrong key, /api/printer 409 when the
// printer is not connected, the serial log under /downloads/logs.
func OctoPrint(t *testing.T, serialAllowed bool) *httptest.Server {
	mux := http.NewServeMux()
	mux.HandleFunc("GET /api/version", func(w http.ResponseWriter, r *http.Request) {
		if requireKey(w, r, http.StatusForbidden) {
			writeJSON(w, map[string]any{"api": "0.1", "server": "1.10.3", "text": "OctoPrint 1.10.3"})
		}
	})
	mux.HandleFunc("GET /api/connection", func(w http.ResponseWriter, r *http.Request) {
		if requireKey(w, r, http.StatusForbidden) {
			writeJSON(w, map[string]any{"current": map[string]any{"state": "Operational", "port": "/dev/ttyUSB0", "baudrate": 115200, "printerProfile": "_default"},
				"options": map[string]any{"ports": []string{"/dev/ttyUSB0"}, "baudrates": []int{250000, 115200}, "printerProfiles": []any{map[string]any{"name": "Ender 3", "id": "_default"}}}})
		}
	})
	mux.HandleFunc("GET /api/printerprofiles", func(w http.ResponseWriter, r *http.Request) {
		if requireKey(w, r, http.StatusForbidden) {
			writeJSON(w, map[string]any{"profiles": map[string]any{"_default": map[string]any{"id": "_default", "name": "Ender 3", "model": "Creality Ender 3",
				"color": "default", "current": true, "default": true, "heatedBed": true, "heatedChamber": false,
				"volume":   map[string]any{"width": 220, "depth": 220, "height": 250, "formFactor": "rectangular", "origin": "lowerleft"},
				"extruder": map[string]any{"count": 1, "nozzleDiameter": 0.4, "offsets": [][]float64{{0, 0}}, "sharedNozzle": false}}}})
		}
	})
	mux.HandleFunc("GET /api/job", func(w http.ResponseWriter, r *http.Request) {
		if requireKey(w, r, http.StatusForbidden) {
			writeJSON(w, map[string]any{"job": map[string]any{"file": map[string]any{"name": "vase.gcode", "path": "prints/vase.gcode", "display": "vase.gcode", "origin": "local", "size": 1468987, "date": 1378847754},
				"estimatedPrintTime": 8811, "filament": map[string]any{"tool0": map[string]any{"length": 810, "volume": 5.36}}, "user": "maker"},
				"progress": map[string]any{"completion": nil, "filepos": nil, "printTime": nil, "printTimeLeft": nil, "printTimeLeftOrigin": nil},
				"state":    "Operational"})
		}
	})
	mux.HandleFunc("GET /api/files/local/prints/vase.gcode", func(w http.ResponseWriter, r *http.Request) {
		if requireKey(w, r, http.StatusForbidden) {
			writeJSON(w, map[string]any{"name": "vase.gcode", "display": "vase.gcode", "path": "prints/vase.gcode", "type": "machinecode", "origin": "local",
				"gcodeAnalysis": map[string]any{"estimatedPrintTime": 8811, "filament": map[string]any{"tool0": map[string]any{"length": 810, "volume": 5.36}}},
				"prints":        map[string]any{"failure": 2, "success": 1, "last": map[string]any{"date": 1700000000, "printTime": 612.5, "success": false}}})
		}
	})
	mux.HandleFunc("GET /api/printer", func(w http.ResponseWriter, r *http.Request) {
		if requireKey(w, r, http.StatusForbidden) {
			writeJSON(w, map[string]any{"temperature": map[string]any{"tool0": map[string]any{"actual": 204.6, "target": 205.0, "offset": 0},
				"bed": map[string]any{"actual": 59.9, "target": 60.0, "offset": 0}}, "sd": map[string]any{"ready": true},
				"state": map[string]any{"text": "Operational", "flags": map[string]any{"operational": true, "printing": false, "error": false, "ready": true}}})
		}
	})
	mux.HandleFunc("GET /downloads/logs/serial.log", func(w http.ResponseWriter, r *http.Request) {
		if !requireKey(w, r, http.StatusForbidden) {
			return
		}
		if !serialAllowed {
			http.Error(w, "Forbidden", http.StatusForbidden)
			return
		}
		http.ServeContent(w, r, "serial.log", time.Time{}, strings.NewReader("2024-01-02 10:00:00,000 - Send: N12 M105*38\n2024-01-02 10:00:00,010 - Recv: Error:Printer halted. kill() called!\n"))
	})
	srv := httptest.NewServer(mux)
	t.Cleanup(srv.Close)
	return srv
}

// PrusaLink answers like Prusa-Link 0.8.1 (prusa/link/web/main.py):
// X-Api-Key or digest, "Bad X-Api-Key." with 403, /api/v1/job 204 when
// there is no job.
func PrusaLink(t *testing.T, withJob bool) *httptest.Server {
	mux := http.NewServeMux()
	mux.HandleFunc("GET /api/v1/info", func(w http.ResponseWriter, r *http.Request) {
		if requireKey(w, r, http.StatusForbidden) {
			writeJSON(w, map[string]any{"name": "MK3S", "location": "garage", "farm_mode": false, "network_error_chime": false,
				"nozzle_diameter": 0.4, "min_extrusion_temp": 170, "serial": "CZPX1234X004XK12345", "hostname": "prusa-mk3s", "port": 80})
		}
	})
	mux.HandleFunc("GET /api/v1/status", func(w http.ResponseWriter, r *http.Request) {
		if requireKey(w, r, http.StatusForbidden) {
			writeJSON(w, map[string]any{"storage": []any{map[string]any{"path": "/local", "read_only": false, "free_space": 1234567, "name": "PrusaLink gcodes"}},
				"printer": map[string]any{"state": "ERROR", "temp_nozzle": 24.1, "temp_bed": 23.9, "axis_z": 12.4, "flow": 100, "speed": 100,
					"fan_hotend": 0, "fan_print": 0, "status_connect": map[string]any{"ok": true, "message": "OK"},
					"status_printer": map[string]any{"ok": false, "message": "Thermal runaway"}, "target_nozzle": 0, "target_bed": 0, "axis_x": 110, "axis_y": 100},
				"job": map[string]any{"id": 42, "progress": 37.0, "time_remaining": 2400, "time_printing": 1310}})
		}
	})
	mux.HandleFunc("GET /api/v1/job", func(w http.ResponseWriter, r *http.Request) {
		if !requireKey(w, r, http.StatusForbidden) {
			return
		}
		if !withJob {
			w.WriteHeader(http.StatusNoContent)
			return
		}
		writeJSON(w, map[string]any{"file": map[string]any{"name": "SHAPE~1.GCO", "display_name": "shape_0.15mm_PETG_MK3S_2h.gcode", "path": "/local",
			"display_path": "/local", "size": 2345678, "m_timestamp": 1700000000, "refs": map[string]any{},
			"meta": map[string]any{"filament_type": "PETG", "temperature": 240, "bed_temperature": 85, "layer_height": 0.15,
				"nozzle_diameter": 0.4, "fill_density": "15%", "estimated_print_time": 7200}},
			"id": 42, "state": "ERROR", "progress": 37.0, "time_remaining": 2400, "time_printing": 1310, "inaccurate_estimates": false})
	})
	srv := httptest.NewServer(mux)
	t.Cleanup(srv.Close)
	return srv
}
