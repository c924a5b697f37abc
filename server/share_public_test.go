package server

import (
	"encoding/json"
	"fmt"
	"regexp"
	"strings"
	"testing"

	"github.com/layerfix/layerfix/ai"
	"github.com/layerfix/layerfix/store"
)

// The texts below are the built-in engine's own sentences (summaries, step
// descriptions, tips) for an owner whose printers are an Ender-3 V2, a
// Prusa MK4 called "Workshop Beast" and a Bambu P1S, and how a stranger reads
// them on the shared guide.
func TestPublicGuideWording(t *testing.T) {
	owner := &store.User{Email: "ada.lovelace@example.com", DisplayName: "Ada Lovelace"}
	printers := []store.Printer{
		{Name: "Ender-3 V2", Brand: "Creality"},
		{Name: "Workshop Beast", Brand: "Prusa MK4"},
		{Name: "Bambu P1S", Brand: "Bambu Lab"},
	}
	cases := []struct{ in, want string }{
		{`This looks most like stringing and oozing between parts (Stringing & Oozing). Your description mentions "strings between". Creality Ender 3 V2 has a Bowden extruder.`,
			`This looks most like stringing and oozing between parts (Stringing & Oozing). The maker's description mentions "strings between". The printer has a Bowden extruder.`},
		{`Original Prusa MK4 has a direct-drive extruder. Also possible: warping: corners and edges lift off the bed.`,
			`The printer has a direct-drive extruder. Also possible: warping: corners and edges lift off the bed.`},
		{`Change one value at a time and stop at the smallest value that removes the strings. For the Bowden extruder of Creality Ender 3 V2: 3–7 mm at 40–60 mm/s, start at 5 mm.`,
			`Change one value at a time and stop at the smallest value that removes the strings. For the Bowden extruder of the printer: 3–7 mm at 40–60 mm/s, start at 5 mm.`},
		{`Turn on 'wipe while retracting' so the nozzle leaves its drip on the part instead of across the gap. Creality Ender 3 V2 has a Bowden extruder: Bowden retraction usually works at 4–6 mm and 40–50 mm/s.`,
			`Turn on 'wipe while retracting' so the nozzle leaves its drip on the part instead of across the gap. The printer has a Bowden extruder: Bowden retraction usually works at 4–6 mm and 40–50 mm/s.`},
		// A printer's own tip, and a knowledge-base sentence that names the model.
		{`Creality Ender 3 V2: Check the eccentric nuts on the bed and gantry wheels.`,
			`On this printer: Check the eccentric nuts on the bed and gantry wheels.`},
		{`Bambu Lab P1S: Open the door or lift the top glass for PLA: a closed P1S gets warm enough for heat creep.`,
			`On this printer: Open the door or lift the top glass for PLA: a closed printer gets warm enough for heat creep.`},
		// A manufacturer in general advice is no owner data.
		{`Marlin: M851 Z then M500; Klipper: SET_GCODE_OFFSET Z_ADJUST=-0.02; Prusa: Live Adjust Z; Creality: Z offset / babystep.`,
			`Marlin: M851 Z then M500; Klipper: SET_GCODE_OFFSET Z_ADJUST=-0.02; Prusa: Live Adjust Z; Creality: Z offset / babystep.`},
		{`On Creality-style lever extruders, a cracked plastic arm is a common cause: replace it with a metal one.`,
			`On Creality-style lever extruders, a cracked plastic arm is a common cause: replace it with a metal one.`},
		{`The attached photo was not analysed: the offline engine works from your description and settings only.`,
			`The attached photo was not analysed: the offline engine works from the maker's description and settings only.`},
		{`The description did not clearly match one failure mode, so the steps start with the most common causes for your settings; the most likely is bed temperature wrong for the material.`,
			`The description did not clearly match one failure mode, so the steps start with the most common causes for the maker's settings; the most likely is bed temperature wrong for the material.`},
		{`Your sliced file retracts 6 mm, a Bowden value. A direct-drive extruder needs 0.5–2 mm at 30–45 mm/s.`,
			`The maker's sliced file retracts 6 mm, a Bowden value. A direct-drive extruder needs 0.5–2 mm at 30–45 mm/s.`},
		{`You print at 245 °C: try 235–240 °C. Hotter plastic runs more freely.`,
			`The maker prints at 245 °C: try 235–240 °C. Hotter plastic runs more freely.`},
		// The maker's own history: their earlier words stay private.
		{`This fixed a similar problem on this printer on 14 March ("Fine strings and wisps between the \"two\" towers, PETG"). You also ticked: Dry the filament. Check that it is still in place before changing anything else.`,
			`This fixed a similar problem on the same printer on 14 March. The maker also ticked: Dry the filament. Check that it is still in place before changing anything else.`},
		// Instructions to the reader stay in the second person.
		{`Heat the hotend to 240 °C (check your hotend's manual) and tighten the nozzle.`,
			`Heat the hotend to 240 °C (check your hotend's manual) and tighten the nozzle.`},
		// What a model answering in its own words may write.
		{`Ada Lovelace, your Workshop Beast (a Prusa MK4) strings; ask ADA.LOVELACE@Example.COM.`,
			`The printer strings; ask the maker.`},
		{`Hi Ada, your Ender3V2's hotend runs cold. Lovelace's adapter fits.`,
			`Hi, the printer's hotend runs cold. The maker's adapter fits.`},
	}
	for _, c := range cases {
		res := ai.Result{Summary: c.in}
		publicGuide(&res, owner, printers)
		if res.Summary != c.want {
			t.Errorf("\n in: %s\ngot: %s\nwant: %s", c.in, res.Summary, c.want)
		}
	}
}

// A name word the guide uses as an ordinary word is not the owner's name
// there: a maker called "Bed Boss" keeps the guide's beds.
func TestPublicGuideKeepsOrdinaryWords(t *testing.T) {
	owner := &store.User{Email: "boss@example.com", DisplayName: "Bed Boss"}
	printers := []store.Printer{{Name: "Longer", Brand: "Longer LK5"}}
	res := ai.Result{
		Summary: "Bed Boss: heat the bed to 60 °C. A longer brim helps; the adapter of Longer LK5 is fine.",
		Steps:   []ai.Step{{Title: "Level the bed", Description: "Boss, the bed is cold.", Priority: "high"}},
	}
	publicGuide(&res, owner, printers)
	if want := "The maker: heat the bed to 60 °C. A longer brim helps; the adapter of the printer is fine."; res.Summary != want {
		t.Errorf("summary %q, want %q", res.Summary, want)
	}
	if want := "The bed is cold."; res.Steps[0].Description != want {
		t.Errorf("step %q, want %q", res.Steps[0].Description, want)
	}
}

// badPublicText finds what a stranger must not read on a shared guide:
// a sentence that starts in lower case with the replaced words, a phrase
// cut in half, and the analysis talking to its maker about their report.
var badPublicText = regexp.MustCompile(`(^|[.!?]\s+)the (printer|maker)\b|the printer [A-Z0-9]|\b(a|an|the) the\b|\bYour (description|sliced file|bed|infill)\b|\bYou print\b|\bYou also ticked\b|\("`)

// TestSharedGuideReadsWellToAStranger shares the real engine's results for a
// signed-in owner and reads the public guide.
func TestSharedGuideReadsWellToAStranger(t *testing.T) {
	engine := sharedEngine(t)
	ws := newWorkspace(t, engine)
	ada := ws.user(t, "ada.lovelace@example.com")
	u, _ := ws.store.UserByEmail(t.Context(), "ada.lovelace@example.com")
	ws.store.UpdateUser(t.Context(), u.ID, map[string]any{"display_name": "Ada Lovelace", "subscription_status": "active", "subscription_tier": "farm"})
	printers := [][2]string{{"Ender-3 V2", "Creality"}, {"Workshop Beast", "Prusa MK4"}, {"Bambu P1S", "Bambu Lab"}}
	reports := []map[string]any{
		{"category": "other", "description": "Long thin strings between the towers on every print", "material": "PETG", "nozzleTemp": 250},
		{"category": "bed-adhesion", "description": "The first layer does not stick, corners lift and warp off the bed", "material": "ABS", "bedTemp": 60},
		{"category": "other", "description": "Clicking extruder and gaps in the walls, under extrusion after 20 minutes", "material": "PLA", "printSpeed": 200,
			"slicerSettings": map[string]any{"slicer": "PrusaSlicer", "retractionLength": 6, "travelSpeed": 150}},
	}
	leaks := []string{"ada", "lovelace", "workshop beast", "ender", "mk4", "p1s", "example.com"}
	for _, p := range printers {
		pr := ws.addPrinter(t, ada, p[0], p[1])
		for _, rep := range reports {
			body := issueBody(t, pr.ID, func(m map[string]any) {
				for k, v := range rep {
					m[k] = v
				}
			})
			w := ws.do(t, "POST", "/api/issues", body, ada...)
			if w.Code != 201 {
				t.Fatalf("issue: %d %s", w.Code, w.Body.String())
			}
			var is struct {
				AIChecklist json.RawMessage `json:"aiChecklist"`
				Signature   string          `json:"aiChecklistSignature"`
			}
			json.Unmarshal(w.Body.Bytes(), &is)
			w = ws.do(t, "POST", "/api/share-results", mustJSON(t, map[string]any{"troubleshootingData": is.AIChecklist, "signature": is.Signature}), ada...)
			if w.Code != 201 {
				t.Fatalf("share: %d %s", w.Code, w.Body.String())
			}
			var created struct{ ShareID string }
			json.Unmarshal(w.Body.Bytes(), &created)
			var guide struct {
				Title               string
				TroubleshootingData ai.Result
			}
			json.Unmarshal(ws.do(t, "GET", "/api/share/"+created.ShareID, "").Body.Bytes(), &guide)
			texts := []string{guide.Title}
			for _, p := range resultTexts(&guide.TroubleshootingData) {
				texts = append(texts, *p)
			}
			where := fmt.Sprintf("%s %s, %q", p[1], p[0], rep["description"])
			if !strings.Contains(guide.TroubleshootingData.Summary, "The maker's description mentions") {
				t.Errorf("%s: summary %q", where, guide.TroubleshootingData.Summary)
			}
			for _, text := range texts {
				if m := badPublicText.FindString(text); m != "" {
					t.Errorf("%s: %q reads badly: %s", where, m, text)
				}
				for _, leak := range leaks {
					if strings.Contains(strings.ToLower(text), leak) {
						t.Errorf("%s: %q left in %s", where, leak, text)
					}
				}
			}
		}
	}
}

// TestSharePageLinkPreview: a shared guide's page carries its own title and
// the start of its summary for link previews, escaped.
func TestSharePageLinkPreview(t *testing.T) {
	ts := newTestServer(t, map[string]string{"LAYERFIX_BASE_PATH": "/lf"}, nil)
	summary := `Stringing "between" parts <script>alert('x')</script> & oozing: Molten plastic oozes from the nozzle while it travels between separate parts of the model, leaving thin strings and wisps across the gaps. Your description mentions "strings between". Also possible: wet filament that pops and hisses.`
	data := map[string]any{"summary": summary, "steps": goodResult["steps"], "additionalTips": []string{"Store filament dry"}}
	w := ts.do(t, "POST", "/lf/api/share-results", signed(t, ts, data))
	if w.Code != 201 {
		t.Fatalf("share: %d %s", w.Code, w.Body.String())
	}
	var created struct{ ShareID string }
	json.Unmarshal(w.Body.Bytes(), &created)

	page := ts.do(t, "GET", "/lf/share/"+created.ShareID, "")
	body := page.Body.String()
	if page.Code != 200 || !strings.HasPrefix(page.Header().Get("Content-Type"), "text/html") || page.Header().Get("Referrer-Policy") != "no-referrer" {
		t.Fatalf("page: %d %v", page.Code, page.Header())
	}
	title := `Stringing &#34;between&#34; parts…` // 50 characters, cut at a word
	desc := `Stringing &#34;between&#34; parts &lt;script&gt;alert(&#39;x&#39;)&lt;/script&gt; &amp; oozing: Molten plastic oozes from the nozzle while it travels between separate parts of the model, leaving thin strings and wisps across the…`
	for _, want := range []string{
		`<title>` + title + ` – Layerfix</title>`,
		`<meta property="og:title" content="` + title + `">`,
		`<meta property="og:description" content="` + desc + `">`,
		`<meta name="description" content="` + desc + `">`,
		`<meta property="og:type" content="article">`,
		`<meta property="og:site_name" content="Layerfix">`,
		`<meta name="robots" content="noindex">`,
		`<div id=root>`, // still the app
	} {
		if !strings.Contains(body, want) {
			t.Errorf("page lacks %s:\n%s", want, body)
		}
	}
	if strings.Contains(body, "<script>alert") || strings.Count(body, "<title>") != 1 {
		t.Fatalf("summary not escaped, or two titles:\n%s", body)
	}

	for _, id := range []string{"AAAAAAAAAAAAAAAAAAAAAA", "not-a-share", "x%22%3E%3Cscript%3E"} {
		w := ts.do(t, "GET", "/lf/share/"+id, "")
		if w.Code != 404 || !strings.Contains(w.Body.String(), "<title>Guide Not Found – Layerfix</title>") || strings.Contains(w.Body.String(), "<script>") {
			t.Errorf("missing guide %q: %d %s", id, w.Code, w.Body.String())
		}
	}
	// Other pages keep the app's own title.
	if w := ts.do(t, "GET", "/lf/pricing", ""); !strings.Contains(w.Body.String(), "<title>Layerfix</title>") {
		t.Errorf("pricing page: %s", w.Body.String())
	}
}
