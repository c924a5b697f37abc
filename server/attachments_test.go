package server

import (
	"context"
	"encoding/json"
	"fmt"
	"io"
	"log/slog"
	"net/http"
	"net/http/httptest"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/layerfix/layerfix/ai"
	"github.com/layerfix/layerfix/config"
	"github.com/layerfix/layerfix/store"
	"github.com/layerfix/layerfix/store/storetest"
)

// Attachments with secrets in them, as makers would attach them.
const (
	klippyLog = `Starting Klippy...
Args: ['/home/pi/klipper/klippy/klippy.py', '/home/pi/printer_data/config/printer.cfg']
webhooks: fetching http://192.168.1.20:7125/server/files/gcodes/part.gcode?token=ab12cd34ef56ab12&path=gcodes
[extruder]
rotation_distance = 22.6789511
Transition to shutdown state: MCU 'mcu' shutdown: ADC out of range
`
	m503Dump = `echo:; Steps per unit:
echo:  M92 X80.00 Y80.00 Z400.00 E93.00
echo:; PID settings:
echo:  M301 P21.73 I1.54 D76.55
`
	moonrakerConf = "[mqtt]\naddress: 192.168.1.10\nusername: klipper_mqtt\npassword: Mq77-hunter2\n"
)

// secretsOf are the secrets the files above hold.
var secretsOf = []string{"ab12cd34ef56ab12", "klipper_mqtt", "Mq77-hunter2"}

func attachments(pairs ...string) []map[string]string {
	out := []map[string]string{}
	for i := 0; i+1 < len(pairs); i += 2 {
		out = append(out, map[string]string{"name": pairs[i], "text": pairs[i+1]})
	}
	return out
}

func holdsSecret(s string) string {
	for _, sec := range secretsOf {
		if strings.Contains(s, sec) {
			return sec
		}
	}
	return ""
}

// The analyzer gets the attachments stripped of their secrets; the
// anonymous answer does not echo them.
func TestTroubleshootWithAttachments(t *testing.T) {
	an := &fakeAnalyzer{}
	ts := newTestServer(t, nil, an)
	w := ts.do(t, "POST", "/api/troubleshoot", validTroubleshoot(func(m map[string]any) {
		m["attachments"] = attachments("klippy.log", klippyLog, "M503.txt", m503Dump, "moonraker.conf", moonrakerConf)
	}))
	if w.Code != 200 {
		t.Fatalf("analysis: %d %s", w.Code, w.Body.String())
	}
	got := an.last.Attachments
	if len(got) != 3 || got[0].Name != "klippy.log" || got[2].Name != "moonraker.conf" {
		t.Fatalf("analyzer got %+v", got)
	}
	for _, a := range got {
		if s := holdsSecret(a.Text); s != "" {
			t.Errorf("the analyzer saw %q in %s:\n%s", s, a.Name, a.Text)
		}
	}
	if !strings.Contains(got[0].Text, "ADC out of range") || !strings.Contains(got[0].Text, "?token=[removed]&path") || got[1].Text != m503Dump {
		t.Errorf("the attachments' text changed beyond their secrets: %+v", got)
	}
	if strings.Contains(w.Body.String(), "klippy") || strings.Contains(w.Body.String(), "M301") {
		t.Errorf("the anonymous answer echoes the attachments: %s", w.Body.String())
	}
}

// Every bad attachment is refused with a clear message before a credit is
// taken, on both forms.
func TestAttachmentValidation(t *testing.T) {
	big := strings.Repeat("Recv: T:210.0 /210.0 B:60.0 /60.0\n", (ai.MaxAttachmentBytes/34)+10) // just over 256 KB
	cases := []struct {
		name    string
		raw     string // the attachments' JSON; used as it is
		code    int
		message string // in the message or the attachments field
	}{
		{"five files", mustJSONString(attachments("a.log", "x", "b.log", "x", "c.log", "x", "d.log", "x", "e.log", "x")), 400, "at most 4 files"},
		{"over 256 KB in all", mustJSONString(attachments("serial.log", big)), 413, "at most 256 KB of text"},
		{"over 256 KB in two", mustJSONString(attachments("a.log", big[:150<<10], "b.log", big[:150<<10])), 413, "these have 300 KB"},
		{"NUL byte", `[{"name":"firmware.bin","text":"abc\u0000def"}]`, 400, "firmware.bin looks like a binary file (a control character on line 1)"},
		{"control character", `[{"name":"dump.txt","text":"line one\nline \u0002two"}]`, 400, "dump.txt looks like a binary file (a control character on line 2)"},
		{"raw invalid UTF-8", "[{\"name\":\"latin1.log\",\"text\":\"Temp\xb0C ok\"}]", 400, "latin1.log is not UTF-8 text"},
		{"lone surrogate", `[{"name":"odd.log","text":"abc \ud800 def"}]`, 400, "odd.log is not UTF-8 text"},
		{"low surrogate first", `[{"name":"odd.log","text":"\udc00\ud800"}]`, 400, "odd.log is not UTF-8 text"},
		{"empty text", `[{"name":"empty.cfg","text":"  \n"}]`, 400, "empty.cfg is empty"},
		{"no name", `[{"name":" ","text":"abc"}]`, 400, "Attachment 1 needs a file name"},
		{"path in the name", `[{"name":"ok.log","text":"a"},{"name":"../../etc/passwd","text":"abc"}]`, 400, "is not a plain file name: name attachment 2"},
		{"backslash in the name", `[{"name":"C:\\logs\\klippy.log","text":"abc"}]`, 400, "is not a plain file name"},
		{"control character in the name", `[{"name":"a\u0007b.log","text":"abc"}]`, 400, "is not a plain file name"},
		{"long name", mustJSONString(attachments(strings.Repeat("n", 101)+".log", "abc")), 400, "longer than 100 characters"},
		{"text is not a string", `[{"name":"a.log","text":42}]`, 400, ""},
	}
	an := &fakeAnalyzer{}
	ts := newTestServer(t, nil, an)
	ws := newWorkspace(t, an, func(c *config.Config, d *Deps) { c.TierLimits = config.TierLimits{"free": 100} })
	ada := ws.user(t, "ada@example.com")
	p := ws.addPrinter(t, ada, "Voron", "Voron 2.4")
	for _, c := range cases {
		for _, form := range []string{"anonymous", "signed-in"} {
			var w *httptest.ResponseRecorder
			if form == "anonymous" {
				body := strings.Replace(validTroubleshoot(func(m map[string]any) { m["attachments"] = "@@" }), `"@@"`, c.raw, 1)
				w = ts.do(t, "POST", "/api/troubleshoot", body)
			} else {
				body := strings.Replace(issueBody(t, p.ID, func(m map[string]any) { m["attachments"] = "@@" }), `"@@"`, c.raw, 1)
				w = ws.do(t, "POST", "/api/issues", body, ada...)
			}
			if w.Code != c.code {
				t.Errorf("%s (%s): %d, want %d: %s", c.name, form, w.Code, c.code, w.Body.String())
				continue
			}
			e := decodeError(t, w)
			if c.message != "" && !strings.Contains(e.Fields["attachments"], c.message) {
				t.Errorf("%s (%s): fields %v, want %q", c.name, form, e.Fields, c.message)
			}
		}
	}
	if an.calls != 0 {
		t.Errorf("the analyzer ran %d times on refused requests", an.calls)
	}
	if n, _ := ts.store.AnonymousUsage(t.Context(), "192.0.2.1", time.Now()); n != 0 {
		t.Errorf("refused requests took %d anonymous credits", n)
	}
	if ws.usage(t, ada) != 0 {
		t.Errorf("refused requests took %d credits", ws.usage(t, ada))
	}

	// What is allowed: a surrogate pair, U+FFFD as the log has it, tabs,
	// ANSI colours, CRLF, any extension, and 256 KB on the signed-in form
	// (far over its other fields' limit), escaped as \u00XX or not.
	for name, raw := range map[string]string{
		"surrogate pair":    `[{"name":"emoji.txt","text":"done \ud83d\ude00"}]`,
		"replacement char":  `[{"name":"serial.log","text":"garbage \ufffd\ufffd at 250000 baud"}]`,
		"terminal colours":  `[{"name":"klippy.log","text":"\u001b[31mError\u001b[0m\r\n\tok\f"}]`,
		"other extension":   `[{"name":"moonraker.conf","text":"[server]\nport: 7125"}]`,
		"256 KB":            mustJSONString(attachments("serial.log", big[:ai.MaxAttachmentBytes])),
		"256 KB as escapes": `[{"name":"serial.log","text":"` + strings.Repeat(`\u0041`, ai.MaxAttachmentBytes) + `"}]`,
	} {
		body := strings.Replace(issueBody(t, p.ID, func(m map[string]any) { m["attachments"] = "@@" }), `"@@"`, raw, 1)
		if w := ws.do(t, "POST", "/api/issues", body, ada...); w.Code != 201 {
			t.Errorf("%s: %d %s", name, w.Code, w.Body.String())
		}
	}
	// A body over the route's limit says the attachments' limit too.
	huge := strings.Replace(issueBody(t, p.ID, func(m map[string]any) { m["attachments"] = "@@" }), `"@@"`,
		mustJSONString(attachments("serial.log", strings.Repeat("x", 2<<20))), 1)
	w := ws.do(t, "POST", "/api/issues", huge, ada...)
	if e := decodeError(t, w); w.Code != 413 || !strings.Contains(e.Message, "at most 256 KB of text") {
		t.Errorf("2 MB of attachments: %d %+v", w.Code, e)
	}
}

func mustJSONString(v any) string {
	b, err := json.Marshal(v)
	if err != nil {
		panic(err)
	}
	return string(b)
}

type issueWithAttachments struct {
	issueOut
	Attachments          []attachmentJSON `json:"attachments"`
	AIChecklistSignature string           `json:"aiChecklistSignature"`
}

// A saved issue keeps its attachments, stripped, for its owner only: in
// the issue, as downloads, in the export; never for another maker, in a
// share or in the issue list.
func TestSavedIssueAttachments(t *testing.T) {
	an := &fakeAnalyzer{}
	ws := newWorkspace(t, an)
	ada, bob := ws.user(t, "ada@example.com"), ws.user(t, "bob@example.com")
	p := ws.addPrinter(t, ada, "Voron", "Voron 2.4")
	w := ws.do(t, "POST", "/api/issues", issueBody(t, p.ID, func(m map[string]any) {
		m["category"], m["description"] = "heating-issues", "The printer stops with a heater error after ten minutes"
		m["attachments"] = attachments("klippy.log", klippyLog, "M503 output", m503Dump, "moonraker.conf", moonrakerConf)
	}), ada...)
	var created issueWithAttachments
	json.Unmarshal(w.Body.Bytes(), &created)
	if w.Code != 201 || len(created.Attachments) != 3 || created.AttachmentCount != 3 {
		t.Fatalf("create: %d %s", w.Code, w.Body.String())
	}
	want := []attachmentJSON{{"klippy.log", "klippy-log", "Klipper log", 0}, {"M503 output", "marlin-m503", "Marlin M503 settings", len(m503Dump)},
		{"moonraker.conf", "moonraker-config", "Moonraker config", 0}}
	for i, a := range created.Attachments {
		if a.Name != want[i].Name || a.Kind != want[i].Kind || a.Label != want[i].Label || a.Bytes == 0 || (want[i].Bytes > 0 && a.Bytes != want[i].Bytes) {
			t.Errorf("attachment %d: %+v, want %+v", i, a, want[i])
		}
	}
	for _, a := range an.last.Attachments {
		if s := holdsSecret(a.Text); s != "" {
			t.Errorf("the analyzer saw %q", s)
		}
	}
	// Stored stripped.
	rows, err := ws.store.IssueAttachments(context.Background(), created.UserID, created.ID, true)
	if err != nil || len(rows) != 3 {
		t.Fatalf("stored: %+v %v", rows, err)
	}
	for _, r := range rows {
		if s := holdsSecret(r.Text); s != "" {
			t.Errorf("the database holds %q in %s", s, r.Name)
		}
	}

	issuePath := fmt.Sprintf("/api/issues/%d", created.ID)
	w = ws.do(t, "GET", issuePath, "", ada...)
	var got issueWithAttachments
	json.Unmarshal(w.Body.Bytes(), &got)
	if w.Code != 200 || len(got.Attachments) != 3 || got.Attachments[2].Kind != "moonraker-config" {
		t.Fatalf("owner's GET: %d %s", w.Code, w.Body.String())
	}
	if strings.Contains(w.Body.String(), "ADC out of range") {
		t.Errorf("the issue carries the attachments' text: %s", w.Body.String())
	}
	// The download.
	w = ws.do(t, "GET", issuePath+"/attachments/0", "", ada...)
	h := w.Header()
	if w.Code != 200 || h.Get("Content-Type") != "text/plain; charset=utf-8" || h.Get("X-Content-Type-Options") != "nosniff" ||
		h.Get("Content-Disposition") != `attachment; filename=klippy.log` || h.Get("Cache-Control") != "no-store" {
		t.Fatalf("download: %d %v", w.Code, h)
	}
	if !strings.Contains(w.Body.String(), "ADC out of range") || holdsSecret(w.Body.String()) != "" {
		t.Errorf("downloaded text: %s", w.Body.String())
	}
	if w := ws.do(t, "GET", issuePath+"/attachments/1", "", ada...); !strings.Contains(w.Header().Get("Content-Disposition"), `filename="M503 output"`) {
		t.Errorf("a name with a space: %v", w.Header())
	}
	// Another maker, a missing attachment, no session.
	for _, r := range []struct {
		path string
		auth []string
		code int
	}{
		{issuePath, bob, 404}, {issuePath + "/attachments/0", bob, 404}, {issuePath + "/attachments/2", bob, 404},
		{issuePath + "/attachments/3", ada, 404}, {issuePath + "/attachments/-1", ada, 404}, {issuePath + "/attachments/x", ada, 404},
		{issuePath + "/attachments/99999999999999999999", ada, 404}, {issuePath + "/attachments/0", nil, 401},
	} {
		w := ws.do(t, "GET", r.path, "", r.auth...)
		if w.Code != r.code || strings.Contains(w.Body.String(), "ADC") {
			t.Errorf("GET %s: %d %s, want %d", r.path, w.Code, w.Body.String(), r.code)
		}
	}
	// Lists give the count, not the files.
	w = ws.do(t, "GET", "/api/issues", "", ada...)
	if !strings.Contains(w.Body.String(), `"attachmentCount":3`) || strings.Contains(w.Body.String(), "klippy.log") {
		t.Errorf("issue list: %s", w.Body.String())
	}
	// A share of the analysis carries none of it.
	w = ws.do(t, "POST", "/api/share-results", mustJSON(t, map[string]any{"troubleshootingData": created.AIChecklist,
		"signature": got.AIChecklistSignature, "title": "Heater"}), ada...)
	var share struct{ ShareID string }
	json.Unmarshal(w.Body.Bytes(), &share)
	if w.Code != 201 {
		t.Fatalf("share: %d %s", w.Code, w.Body.String())
	}
	for _, path := range []string{"/api/share/" + share.ShareID, "/share/" + share.ShareID} {
		if w := ws.do(t, "GET", path, ""); w.Code != 200 || strings.Contains(w.Body.String(), "klippy") || strings.Contains(w.Body.String(), "M301") {
			t.Errorf("GET %s: %d carries the attachments", path, w.Code)
		}
	}
	// The owner's export has them: the JSON with text, the CSV by name.
	w = ws.do(t, "GET", "/api/issues/export?format=json", "", ada...)
	var exported []exportedIssue
	if err := json.Unmarshal(w.Body.Bytes(), &exported); err != nil || len(exported) != 1 || len(exported[0].Attachments) != 3 {
		t.Fatalf("JSON export: %v %s", err, w.Body.String())
	}
	if a := exported[0].Attachments[1]; a.Name != "M503 output" || a.Text != m503Dump || a.Kind != "marlin-m503" || a.Bytes != len(m503Dump) {
		t.Errorf("exported attachment: %+v", a)
	}
	if holdsSecret(w.Body.String()) != "" {
		t.Errorf("the export holds a secret")
	}
	w = ws.do(t, "GET", "/api/issues/export?format=csv", "", ada...)
	if !strings.Contains(w.Body.String(), "klippy.log; M503 output; moonraker.conf") || strings.Contains(w.Body.String(), "ADC out") {
		t.Errorf("CSV export: %s", w.Body.String())
	}
	if w := ws.do(t, "GET", "/api/issues/export?format=json", "", bob...); strings.Contains(w.Body.String(), "klippy") {
		t.Errorf("another maker's export holds the attachments")
	}
}

// recordingRefiner is the built-in engine, remembering what it was asked.
type recordingRefiner struct {
	*ai.Engine
	mu   sync.Mutex
	last ai.Request
}

func (r *recordingRefiner) Analyze(ctx context.Context, req ai.Request) (*ai.Result, error) {
	r.mu.Lock()
	r.last = req
	r.mu.Unlock()
	return r.Engine.Analyze(ctx, req)
}

func (r *recordingRefiner) lastAttachments() []ai.Attachment {
	r.mu.Lock()
	defer r.mu.Unlock()
	return r.last.Attachments
}

// Narrowing down re-analyses with the same attachments: the anonymous
// token binds them, a saved issue uses its stored ones.
func TestRefineKeepsAttachments(t *testing.T) {
	engine := sharedEngine(t)
	rec := &recordingRefiner{Engine: engine}
	st := storetest.Open(t)
	srv, err := New(testConfig(t, nil), Deps{Store: st, Analyzer: rec, Refiner: rec, Frontend: testFrontend,
		Logger: slog.New(slog.NewTextHandler(io.Discard, nil))})
	if err != nil {
		t.Fatal(err)
	}
	ts := &testServer{Server: srv, store: st, h: checkContract(t, srv.Handler())}
	files := attachments("klippy.log", klippyLog, "moonraker.conf", moonrakerConf)
	body := func(atts any, extra map[string]any) string {
		return validTroubleshoot(func(m map[string]any) {
			m["category"], m["description"] = "heating-issues", ambiguous
			if atts != nil {
				m["attachments"] = atts
			}
			for k, v := range extra {
				m[k] = v
			}
		})
	}
	w := ts.do(t, "POST", "/api/troubleshoot", body(files, nil))
	var first refinedResult
	json.Unmarshal(w.Body.Bytes(), &first)
	if w.Code != 200 || len(first.Questions) == 0 || first.RefineToken == "" {
		t.Fatalf("analysis: %d %s", w.Code, w.Body.String())
	}
	answers := map[string]any{"answers": map[string]bool{first.Questions[0].ID: true}, "refineToken": first.RefineToken}
	if w := ts.do(t, "POST", "/api/troubleshoot/refine", body(files, answers)); w.Code != 200 {
		t.Fatalf("refine with the same files: %d %s", w.Code, w.Body.String())
	}
	if got := rec.lastAttachments(); len(got) != 2 || !strings.Contains(got[0].Text, "ADC out of range") || holdsSecret(got[1].Text) != "" {
		t.Fatalf("the refine analysed %+v", got)
	}
	swapped := attachments("klippy.log", strings.Replace(klippyLog, "ADC out of range", "Timer too close", 1), "moonraker.conf", moonrakerConf)
	for name, atts := range map[string]any{
		"a swapped file":   swapped,
		"a renamed file":   attachments("printer.log", klippyLog, "moonraker.conf", moonrakerConf),
		"a file left out":  attachments("klippy.log", klippyLog),
		"no files":         nil,
		"another file too": attachments("klippy.log", klippyLog, "moonraker.conf", moonrakerConf, "M503.txt", m503Dump),
	} {
		if w := ts.do(t, "POST", "/api/troubleshoot/refine", body(atts, answers)); w.Code != http.StatusForbidden {
			t.Errorf("refine with %s: %d %s", name, w.Code, w.Body.String())
		}
	}
	// The same secrets given differently strip to the same text: still the same files.
	if w := ts.do(t, "POST", "/api/troubleshoot/refine", body(attachments("klippy.log", strings.Replace(klippyLog, "ab12cd34ef56ab12", "zz99", 1),
		"moonraker.conf", moonrakerConf), answers)); w.Code != 200 {
		t.Errorf("refine with another secret in the same place: %d", w.Code)
	}

	// A saved issue's refine uses the stored attachments.
	ws := newWorkspace(t, rec, func(c *config.Config, d *Deps) { d.Refiner = rec })
	ada := ws.user(t, "ada@example.com")
	p := ws.addPrinter(t, ada, "Voron", "Voron 2.4")
	is := ws.submit(t, ada, issueBody(t, p.ID, func(m map[string]any) {
		m["category"], m["description"], m["attachments"] = "heating-issues", ambiguous, files
	}))
	if len(is.AIChecklist.Questions) == 0 {
		t.Fatalf("no question: %+v", is.AIChecklist)
	}
	rec.mu.Lock()
	rec.last = ai.Request{}
	rec.mu.Unlock()
	w = ws.do(t, "POST", fmt.Sprintf("/api/issues/%d/refine", is.ID),
		mustJSON(t, map[string]any{"answers": map[string]bool{is.AIChecklist.Questions[0].ID: true}}), ada...)
	if w.Code != 200 {
		t.Fatalf("saved refine: %d %s", w.Code, w.Body.String())
	}
	if got := rec.lastAttachments(); len(got) != 2 || got[0].Name != "klippy.log" || holdsSecret(got[1].Text) != "" {
		t.Fatalf("the saved refine analysed %+v", got)
	}
}

// The recognised kinds of common files.
func TestAttachmentKind(t *testing.T) {
	for _, c := range []struct{ name, text, kind string }{
		{"klippy.log", klippyLog, "klippy-log"},
		{"printer.cfg", "[printer]\nkinematics: corexy\n[extruder]\nstep_pin: PB3\n", "klipper-config"},
		{"M503.txt", m503Dump, "marlin-m503"},
		{"Configuration.h", "#define CONFIGURATION_H_VERSION 02010300\n#define TEMP_SENSOR_0 1\n", "marlin-config"},
		{"Configuration.h", "// nothing recognisable\n", "marlin-config"},
		{"config.g", "; Configuration file for Duet 3\nM584 X0.0 Y0.1 Z0.2 E0.3\nM92 X80 Y80\n", "rrf-config"},
		{"m122.txt", "=== Diagnostics ===\nRepRapFirmware for Duet 3 MB6HC version 3.5.1\n", "rrf-m122"},
		{"serial.log", "Send: M105\nRecv: ok T:210.0 /210.0\nRecv: Error:Thermal Runaway, system stopped! Heater_ID: 0\n", "marlin-serial"},
		{"support.txt", "FIRMWARE_NAME:Prusa-Firmware 3.13.2 based on Marlin\n", "prusa-support"},
		{"mainsail.txt", "10:17:55  !! Extrude below minimum temp\n10:17:56  $ M109 S210\n", "klipper-console"},
		{".config", "# Klipper Firmware Configuration\nCONFIG_MCU=\"stm32f103xe\"\n", "klipper-kconfig"},
		{"part.gcode", "; generated by PrusaSlicer 2.7.1\nG28\n", "gcode"},
		{"moonraker.conf", moonrakerConf, "moonraker-config"},
		{"tmc.txt", "[tmc2209 stepper_x]\nuart_pin: PC11\n", "klipper-config"},
		{"up.txt", "[update_manager mainsail]\ntype: web\n", "moonraker-config"},
		{"term.txt", "Recv: echo:  M92 X80.00 Y80.00\n", "marlin-serial"},
		{"notes.txt", "the nozzle clicks on the first layer\n", "unknown"},
		{"odd.txt", "M5840 is no code\n[tmc22\n", "unknown"},
	} {
		if got := attachmentKind(c.name, c.text); got != c.kind {
			t.Errorf("%s: %s, want %s", c.name, got, c.kind)
		}
	}
}

func TestLoneSurrogate(t *testing.T) {
	for raw, want := range map[string]bool{
		`"plain"`: false, `"\ud83d\ude00"`: false, `"\\ud800"`: false, `"a\\\ud83d\ude00"`: false, `"\u00e9\n"`: false,
		`"\ud800"`: true, `"\udc00"`: true, `"\ud800x"`: true, `"\ud800\u0041"`: true, `"\ud800\ud800\udc00"`: true, `"\ud83d\\"`: true,
	} {
		if got := loneSurrogate([]byte(raw)); got != want {
			t.Errorf("loneSurrogate(%s) = %v, want %v", raw, got, want)
		}
	}
}

// 256 KB of hostile text (secrets on every line, kind markers everywhere)
// through the checks, the stripping and the recognition.
func BenchmarkCheckAttachments(b *testing.B) {
	line := "password: abc token=1&key=2 http://u:p@h/?sig=3 Authorization: Bearer abcdefgh12345678 [printer] M92 X80 Recv: 'api_key': 'x'\n"
	text := strings.Repeat(line, ai.MaxAttachmentBytes/len(line))
	in := []attachmentIn{{Name: "hostile.log", Text: jsonText{s: text}}}
	b.SetBytes(int64(len(text)))
	for b.Loop() {
		if _, e := checkAttachments(in); e != nil {
			b.Fatal(e)
		}
	}
}

// Kinds stored under their earlier names show under the current ones.
func TestAttachmentLegacyKinds(t *testing.T) {
	got := attachmentsJSON([]store.Attachment{{Name: "klippy.log", Kind: "klipper-log", Bytes: 10}, {Name: "serial.log", Kind: "serial-log", Bytes: 10},
		{Name: "notes.txt", Kind: "text", Bytes: 10}, {Name: "moonraker.conf", Kind: "moonraker-config", Bytes: 10}, {Name: "config.g", Kind: "rrf-config", Bytes: 10}})
	want := []attachmentJSON{{"klippy.log", "klippy-log", "Klipper log", 10}, {"serial.log", "marlin-serial", "Marlin serial log", 10},
		{"notes.txt", "unknown", "Not recognised", 10}, {"moonraker.conf", "moonraker-config", "Moonraker config", 10}, {"config.g", "rrf-config", "RepRapFirmware config", 10}}
	for i := range want {
		if got[i] != want[i] {
			t.Errorf("%d: %+v, want %+v", i, got[i], want[i])
		}
	}
}
