package server

import (
	"encoding/json"
	"fmt"
	"strings"
	"testing"
	"time"

	"github.com/layerfix/layerfix/store"
)

func TestPrinterValidation(t *testing.T) {
	ws := newWorkspace(t, nil)
	ada := ws.user(t, "ada@example.com")
	long := strings.Repeat("a", 101)
	cases := []struct {
		name, body, field, msg string
	}{
		{"no name", `{"brand":"Prusa"}`, "name", "Printer name is required"},
		{"blank name", `{"name":"   ","brand":"Prusa"}`, "name", "Printer name is required"},
		{"long name", `{"name":"` + long + `","brand":"Prusa"}`, "name", "Printer name must be less than 100 characters"},
		{"bad name", `{"name":"Mk4\u0008","brand":"Prusa"}`, "name", "Printer name contains invalid characters: a control character (U+0008). Remove it and try again."},
		{"no brand", `{"name":"Mk4"}`, "brand", "Brand is required"},
		{"long brand", `{"name":"Mk4","brand":"` + long + `"}`, "brand", "Brand must be less than 100 characters"},
		{"bad brand", `{"name":"Mk4","brand":"Prusa\u2066Research"}`, "brand", "Brand contains invalid characters: an invisible formatting character (U+2066). Remove it and try again."},
		{"long volume", `{"name":"Mk4","brand":"Prusa","buildVolume":"` + strings.Repeat("1", 51) + `"}`, "buildVolume", "Build volume must be less than 50 characters"},
		{"bad volume", `{"name":"Mk4","brand":"Prusa","buildVolume":"250\n210"}`, "buildVolume", "Build volume contains invalid characters: a line break or tab (U+000A). Remove it and try again."},
		{"bad nozzle", `{"name":"Mk4","brand":"Prusa","nozzleSize":0.5}`, "nozzleSize", "Nozzle size must be 0.2, 0.4, 0.6, 0.8 or 1.0 mm"},
		{"bad filament", `{"name":"Mk4","brand":"Prusa","filamentDiameter":2}`, "filamentDiameter", "Filament diameter must be 1.75, 2.85 or 3.0 mm"},
		{"nozzle as text", `{"name":"Mk4","brand":"Prusa","nozzleSize":"0.4"}`, "nozzleSize", "Must be a number"},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			w := ws.do(t, "POST", "/api/printers", tc.body, ada...)
			if w.Code != 400 {
				t.Fatalf("status %d: %s", w.Code, w.Body.String())
			}
			if e := decodeError(t, w); e.Fields[tc.field] != tc.msg {
				t.Fatalf("fields %v, want %s=%q", e.Fields, tc.field, tc.msg)
			}
		})
	}
	if w := ws.do(t, "GET", "/api/printers", "", ada...); strings.TrimSpace(w.Body.String()) != "[]" {
		t.Fatalf("refused printers were stored: %s", w.Body.String())
	}
}

func TestPrinterCRUD(t *testing.T) {
	ws := newWorkspace(t, nil)
	ada := ws.user(t, "ada@example.com")
	w := ws.do(t, "POST", "/api/printers", `{"name":" Voron 2.4_r2 ","brand":"LDO","buildVolume":"350×350×340 mm","userId":77}`, ada...)
	if w.Code != 201 {
		t.Fatalf("create: %d %s", w.Code, w.Body.String())
	}
	var p store.Printer
	json.Unmarshal(w.Body.Bytes(), &p)
	if p.Name != "Voron 2.4_r2" || p.NozzleSize != 0.4 || p.FilamentDiameter != 1.75 || p.BuildVolume == nil || *p.BuildVolume != "350×350×340 mm" || p.UserID == 77 {
		t.Fatalf("created %+v", p)
	}
	inline := ws.addPrinter(t, ada, "Mini", "Prusa")
	if inline.NozzleSize != 0.4 || inline.BuildVolume != nil {
		t.Fatalf("inline printer %+v", inline)
	}
	path := fmt.Sprintf("/api/printers/%d", p.ID)
	w = ws.do(t, "PUT", path, `{"name":"Voron","brand":"","nozzleSize":0.6}`, ada...)
	if w.Code != 400 || decodeError(t, w).Fields["brand"] != "Brand/Model is required" {
		t.Fatalf("edit without brand: %d %s", w.Code, w.Body.String())
	}
	w = ws.do(t, "PUT", path, `{"name":"Voron","brand":"LDO Kit","nozzleSize":0.6,"buildVolume":"300x300x280"}`, ada...)
	if w.Code != 200 {
		t.Fatalf("update: %d %s", w.Code, w.Body.String())
	}
	w = ws.do(t, "GET", "/api/printers", "", ada...)
	var list []store.Printer
	json.Unmarshal(w.Body.Bytes(), &list)
	if len(list) != 2 || list[0].Brand != "LDO Kit" || list[0].NozzleSize != 0.6 || list[0].FilamentDiameter != 1.75 || *list[0].BuildVolume != "300x300x280" {
		t.Fatalf("list %s", w.Body.String())
	}
	for _, bad := range []string{"/api/printers/0", "/api/printers/abc", "/api/printers/99999"} {
		if w := ws.do(t, "PUT", bad, `{"name":"a","brand":"b"}`, ada...); w.Code != 404 {
			t.Fatalf("PUT %s: %d", bad, w.Code)
		}
		if w := ws.do(t, "DELETE", bad, "", ada...); w.Code != 404 {
			t.Fatalf("DELETE %s: %d", bad, w.Code)
		}
	}
	if w := ws.do(t, "DELETE", path, "", ada...); w.Code != 200 {
		t.Fatalf("delete: %d", w.Code)
	}
	if w := ws.do(t, "DELETE", path, "", ada...); w.Code != 404 {
		t.Fatalf("delete twice: %d", w.Code)
	}
}

func TestPrinterStats(t *testing.T) {
	ws := newWorkspace(t, nil)
	ada := ws.user(t, "ada@example.com")
	u, _ := ws.store.UserByEmail(t.Context(), "ada@example.com")
	ws.store.UpdateUser(t.Context(), u.ID, map[string]any{"subscription_status": "active", "subscription_tier": "pro"})
	mk4 := ws.addPrinter(t, ada, "Mk4", "Prusa")
	ender := ws.addPrinter(t, ada, "Ender 3", "Creality")
	submitAt := func(p int64, cat string, at time.Time) issueOut {
		ws.clock.set(at)
		return ws.submit(t, ada, issueBody(t, p, func(m map[string]any) { m["category"] = cat }))
	}
	jan := time.Date(2026, 1, 10, 12, 0, 0, 0, time.UTC)
	a := submitAt(mk4.ID, "stringing", jan)
	submitAt(mk4.ID, "stringing", jan.AddDate(0, 1, 0))
	submitAt(mk4.ID, "first-layer", jan.AddDate(0, 2, 0))
	submitAt(mk4.ID, "stringing", time.Date(2024, 5, 1, 0, 0, 0, 0, time.UTC)) // older than 12 months
	submitAt(ender.ID, "bed-adhesion", jan)
	ws.clock.set(time.Date(2026, 3, 20, 0, 0, 0, 0, time.UTC))
	ws.do(t, "PATCH", fmt.Sprintf("/api/issues/%d/resolve", a.ID), `{"workingRecommendations":["Increase retraction"]}`, ada...)

	w := ws.do(t, "GET", fmt.Sprintf("/api/printers/%d/stats", mk4.ID), "", ada...)
	var st printerStats
	if err := json.Unmarshal(w.Body.Bytes(), &st); err != nil || w.Code != 200 {
		t.Fatalf("stats: %d %s", w.Code, w.Body.String())
	}
	if st.Total != 4 || st.Resolved != 1 || st.ResolvedShare != 0.25 || len(st.Months) != 12 {
		t.Fatalf("stats %+v", st)
	}
	if st.Months[0].Month != "2025-04" || st.Months[11].Month != "2026-03" || st.Months[9].Count != 1 || st.Months[10].Count != 1 || st.Months[11].Count != 1 {
		t.Fatalf("months %+v", st.Months)
	}
	if len(st.TopCategories) != 2 || st.TopCategories[0].Category != "stringing" || st.TopCategories[0].Count != 3 || st.TopCategories[0].Label != "Stringing & Oozing" {
		t.Fatalf("categories %+v", st.TopCategories)
	}
	ws.do(t, "DELETE", fmt.Sprintf("/api/printers/%d", ender.ID), "", ada...)
	w = ws.do(t, "GET", "/api/printers/stats", "", ada...)
	var all struct{ Printers []printerStats }
	json.Unmarshal(w.Body.Bytes(), &all)
	if len(all.Printers) != 2 || all.Printers[1].PrinterID != nil || all.Printers[1].Total != 1 || all.Printers[1].Name != "Unknown Printer" {
		t.Fatalf("all stats %s", w.Body.String())
	}
}
