package server

import (
	"bytes"
	"compress/gzip"
	"context"
	"encoding/json"
	"io"
	"log/slog"
	"net"
	"net/netip"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/layerfix/layerfix/config"

	"github.com/layerfix/layerfix/printerlink/printerlinktest"
	"github.com/layerfix/layerfix/store"
)

func TestPrinterHostValidation(t *testing.T) {
	ws := newWorkspace(t, nil)
	ada := ws.user(t, "ada@example.com")
	long := "http://10.0.0.5/" + strings.Repeat("a", 300)
	for _, tc := range []struct{ name, host, field, msg string }{
		{"no kind", `{"url":"http://10.0.0.5"}`, "host.kind", "Host must be moonraker, octoprint or prusalink"},
		{"bad kind", `{"kind":"repetier","url":"http://10.0.0.5"}`, "host.kind", "Host must be moonraker, octoprint or prusalink"},
		{"no url", `{"kind":"moonraker"}`, "host.url", "Enter the host's address, such as http://192.168.1.20:7125"},
		{"long url", `{"kind":"moonraker","url":"` + long + `"}`, "host.url", "The host's address must be less than 300 characters"},
		{"ftp", `{"kind":"moonraker","url":"ftp://10.0.0.5"}`, "host.url", "The host's address must be an http:// or https:// address, such as http://192.168.1.20:7125"},
		{"no scheme", `{"kind":"moonraker","url":"10.0.0.5:7125"}`, "host.url", "The host's address must be an http:// or https:// address, such as http://192.168.1.20:7125"},
		{"userinfo", `{"kind":"moonraker","url":"http://pi:raspberry@10.0.0.5"}`, "host.url", "Leave the user name and password out of the address: put the API key in its own field"},
		{"query", `{"kind":"moonraker","url":"http://10.0.0.5/?x=1"}`, "host.url", "The host's address must not hold a query (?) or a fragment (#)"},
		{"long key", `{"kind":"moonraker","url":"http://10.0.0.5","apiKey":"` + strings.Repeat("k", 257) + `"}`, "host.apiKey", "The API key must be less than 256 characters"},
		{"key with space", `{"kind":"moonraker","url":"http://10.0.0.5","apiKey":"ab cd"}`, "host.apiKey", "The API key may hold only letters, digits and punctuation, without spaces"},
		{"octoprint without key", `{"kind":"octoprint","url":"http://10.0.0.5"}`, "host.apiKey", "OctoPrint needs an API key"},
		{"prusalink without key", `{"kind":"prusalink","url":"http://10.0.0.5","apiKey":""}`, "host.apiKey", "PrusaLink needs an API key"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			w := ws.do(t, "POST", "/api/printers", `{"name":"V2","brand":"Voron","host":`+tc.host+`}`, ada...)
			if w.Code != 400 {
				t.Fatalf("status %d: %s", w.Code, w.Body.String())
			}
			if e := decodeError(t, w); e.Fields[tc.field] != tc.msg {
				t.Fatalf("fields %v, want %s=%q", e.Fields, tc.field, tc.msg)
			}
		})
	}
	if w := ws.do(t, "POST", "/api/printers", `{"name":"V2","brand":"Voron","host":"moonraker"}`, ada...); w.Code != 400 {
		t.Fatalf("host as a string: %d %s", w.Code, w.Body.String())
	}
	if w := ws.do(t, "GET", "/api/printers", "", ada...); strings.TrimSpace(w.Body.String()) != "[]" {
		t.Fatalf("refused printers were stored: %s", w.Body.String())
	}
}

const hostSecret = "MOONRAKER-KEY-5f1e2d3c4b5a69788796a5b4c3d2e1f0"

// TestPrinterHostKeyStaysSealed: the key is never in an answer, a log line,
// the database or a backup in clear, and is sent only where it was saved for.
func TestPrinterHostKeyStaysSealed(t *testing.T) {
	dir := t.TempDir()
	st, err := store.Open(context.Background(), store.Options{DataDir: dir, Logger: slog.New(slog.DiscardHandler)})
	if err != nil {
		t.Fatal(err)
	}
	defer st.Close()
	var logs bytes.Buffer
	ws := newWorkspace(t, nil, func(c *config.Config, d *Deps) {
		d.Store, c.DataDir = st, dir
		d.Logger = slog.New(slog.NewTextHandler(&logs, &slog.HandlerOptions{Level: slog.LevelDebug}))
		c.PrinterLink, c.PrinterLinkNets = true, []netip.Prefix{netip.MustParsePrefix("127.0.0.1/32")}
	})
	moon := printerlinktest.Moonraker(t, []byte(printerlinktest.KlippyLog))
	ada := ws.user(t, "ada@example.com")
	var answers []string
	call := func(method, path, body string, want int) printerJSON {
		t.Helper()
		w := ws.do(t, method, path, body, ada...)
		answers = append(answers, w.Body.String())
		if w.Code != want {
			t.Fatalf("%s %s: %d %s", method, path, w.Code, w.Body.String())
		}
		var p printerJSON
		json.Unmarshal(w.Body.Bytes(), &p)
		return p
	}
	p := call("POST", "/api/printers", `{"name":"V2","brand":"Voron","host":{"kind":"moonraker","url":"`+moon.URL+`/","apiKey":"`+hostSecret+`"}}`, 201)
	if p.Host == nil || p.Host.Kind != "moonraker" || p.Host.URL != moon.URL || !p.Host.HasAPIKey {
		t.Fatalf("created host = %+v", p.Host)
	}
	id := "/api/printers/" + itoa(p.ID)
	call("GET", "/api/printers", "", 200)
	// A PUT without apiKey keeps the saved key; one to another origin must give it again.
	if p = call("PUT", id, `{"name":"V2.4","brand":"Voron","host":{"kind":"moonraker","url":"`+moon.URL+`/"}}`, 200); !p.Host.HasAPIKey {
		t.Fatalf("the key was dropped: %+v", p.Host)
	}
	w := ws.do(t, "PUT", id, `{"name":"V2.4","brand":"Voron","host":{"kind":"moonraker","url":"http://203.0.113.9:7125"}}`, ada...)
	if e := decodeError(t, w); w.Code != 400 || e.Fields["host.apiKey"] != "Enter the API key again: a saved key is only sent to the host it was saved for" {
		t.Fatalf("another origin kept the key: %d %s", w.Code, w.Body.String())
	}
	// A PUT without "host" keeps it.
	if p = call("PUT", id, `{"name":"V2.4","brand":"Voron"}`, 200); p.Host == nil || !p.Host.HasAPIKey {
		t.Fatalf("host lost: %+v", p.Host)
	}
	call("POST", id+"/pull", "", 502) // the fake wants its own key: the saved one was sent and refused
	keys := hostKeys{keys: ws.Server.signer.keys}
	row, err := st.PrinterByID(context.Background(), p.UserID, p.ID)
	if err != nil || row.HostKey == "" || strings.Contains(row.HostKey, hostSecret) {
		t.Fatalf("stored key %q, %v", row.HostKey, err)
	}
	if k, err := keys.open(context.Background(), p.UserID, row.HostKey); err != nil || k != hostSecret {
		t.Fatalf("the sealed key opens to %q, %v", k, err)
	}
	if _, err := keys.open(context.Background(), p.UserID+1, row.HostKey); err == nil {
		t.Fatal("the sealed key opens for another account")
	}

	var backup bytes.Buffer
	m, err := store.Backup(context.Background(), store.BackupOptions{DataDir: dir}, &backup)
	if err != nil {
		t.Fatal(err)
	}
	manifest, _ := json.Marshal(m)
	archive := backup.Bytes()
	if zr, err := gzip.NewReader(bytes.NewReader(archive)); err == nil {
		archive, _ = io.ReadAll(zr)
	}
	db, _ := os.ReadFile(filepath.Join(dir, "layerfix.db"))
	for what, text := range map[string]string{"answers": strings.Join(answers, "\n"), "logs": logs.String(), "backup manifest": string(manifest),
		"backup": string(archive), "database": string(db)} {
		if strings.Contains(text, hostSecret) {
			t.Errorf("the key is in the %s in clear", what)
		}
	}
	if !strings.Contains(logs.String(), "printer pull") {
		t.Fatalf("the pull was not logged:\n%s", logs.String())
	}
	// null unlinks.
	if p = call("PUT", id, `{"name":"V2.4","brand":"Voron","host":null}`, 200); p.Host != nil {
		t.Fatalf("host after null: %+v", p.Host)
	}
}

// linkedWorkspace is a workspace with the printer link settings of env.
func linkedWorkspace(t *testing.T, env map[string]string) (*workspace, []string) {
	t.Helper()
	link := testConfig(t, env)
	ws := newWorkspace(t, nil, func(c *config.Config, d *Deps) {
		c.PrinterLink, c.PrinterLinkNets = link.PrinterLink, link.PrinterLinkNets
	})
	return ws, ws.user(t, "ada@example.com")
}

func TestPrinterPull(t *testing.T) {
	moon := printerlinktest.Moonraker(t, []byte(printerlinktest.KlippyLog))
	body := `{"name":"V2","brand":"Voron","host":{"kind":"moonraker","url":"` + moon.URL + `","apiKey":"` + printerlinktest.Key + `"}}`
	on := map[string]string{"LAYERFIX_PRINTER_LINK": "on", "LAYERFIX_PRINTER_LINK_NETS": "127.0.0.1/32"}

	t.Run("off", func(t *testing.T) {
		ws, ada := linkedWorkspace(t, map[string]string{"LAYERFIX_PRINTER_LINK_NETS": "127.0.0.1/32"})
		p := createPrinter(t, ws, ada, body)
		w := ws.do(t, "POST", "/api/printers/"+itoa(p.ID)+"/pull", "", ada...)
		if e := decodeError(t, w); w.Code != 403 || e.Code != CodeLinkOff || !strings.Contains(e.Message, "operator has not enabled it") {
			t.Fatalf("%d %s", w.Code, w.Body.String())
		}
	})
	t.Run("on", func(t *testing.T) {
		ws, ada := linkedWorkspace(t, on)
		bob := ws.user(t, "bob@example.com")
		p := createPrinter(t, ws, ada, body)
		pull := "/api/printers/" + itoa(p.ID) + "/pull"
		if w := ws.do(t, "POST", pull, "", bob...); w.Code != 404 {
			t.Fatalf("another account's pull: %d", w.Code)
		}
		if w := ws.do(t, "POST", "/api/printers/999/pull", "", ada...); w.Code != 404 {
			t.Fatalf("no printer: %d", w.Code)
		}
		w := ws.do(t, "POST", pull, "", ada...)
		if w.Code != 200 {
			t.Fatalf("pull: %d %s", w.Code, w.Body.String())
		}
		var res struct {
			Summary     string `json:"summary"`
			Form        map[string]any
			Attachments []attachmentOut `json:"attachments"`
		}
		json.Unmarshal(w.Body.Bytes(), &res)
		if !strings.Contains(res.Summary, "klippy.log: ADC out of range") || res.Form["material"] != "PLA" || len(res.Attachments) != 2 {
			t.Fatalf("pull answered %s", w.Body.String())
		}
		// The attachments go to the analysis as they are.
		form, _ := json.Marshal(map[string]any{"category": "other", "description": res.Summary, "material": "PLA", "printerBrand": "Voron", "attachments": res.Attachments})
		if w := ws.do(t, "POST", "/api/troubleshoot", string(form), ada...); w.Code != 200 {
			t.Fatalf("analysis of the pulled files: %d %s", w.Code, w.Body.String())
		}

		unlinked := createPrinter(t, ws, ada, `{"name":"Mk4","brand":"Prusa"}`)
		if w := ws.do(t, "POST", "/api/printers/"+itoa(unlinked.ID)+"/pull", "", ada...); w.Code != 400 || decodeError(t, w).Code != CodeNotLinked {
			t.Fatalf("unlinked: %d %s", w.Code, w.Body.String())
		}
		wrong := createPrinter(t, ws, ada, strings.Replace(body, printerlinktest.Key, "wrong-key", 1))
		if w := ws.do(t, "POST", "/api/printers/"+itoa(wrong.ID)+"/pull", "", ada...); w.Code != 502 || decodeError(t, w).Code != CodeHostRefusedKey {
			t.Fatalf("wrong key: %d %s", w.Code, w.Body.String())
		}
		l, _ := net.Listen("tcp", "127.0.0.1:0")
		down := createPrinter(t, ws, ada, `{"name":"Down","brand":"Voron","host":{"kind":"moonraker","url":"http://`+l.Addr().String()+`"}}`)
		l.Close()
		if w := ws.do(t, "POST", "/api/printers/"+itoa(down.ID)+"/pull", "", ada...); w.Code != 502 || decodeError(t, w).Code != CodeHostUnreachable {
			t.Fatalf("host down: %d %s", w.Code, w.Body.String())
		}
		// A saved key the server cannot open (its secret replaced) asks for the key again.
		row, _ := ws.store.PrinterByID(context.Background(), p.UserID, p.ID)
		row.HostKey = "v1." + strings.Repeat("A", 60)
		ws.store.UpdatePrinter(context.Background(), row)
		if w := ws.do(t, "POST", pull, "", ada...); w.Code != 409 || decodeError(t, w).Code != CodeHostKeyUnreadable {
			t.Fatalf("unreadable key: %d %s", w.Code, w.Body.String())
		}
		// The per-account limit: 4 pulls so far (the unlinked printer's is refused first).
		for i := 4; i < pullsPerHour; i++ {
			ws.do(t, "POST", pull, "", ada...)
		}
		if w := ws.do(t, "POST", pull, "", ada...); w.Code != 429 || decodeError(t, w).Code != CodeRateLimited {
			t.Fatalf("past the limit: %d %s", w.Code, w.Body.String())
		}
		if w := ws.do(t, "POST", "/api/printers/999/pull", "", bob...); w.Code != 404 {
			t.Fatalf("the limit is per account: %d", w.Code)
		}
	})
	t.Run("outside the allowed networks", func(t *testing.T) {
		ws, ada := linkedWorkspace(t, map[string]string{"LAYERFIX_PRINTER_LINK": "on"}) // default: no loopback
		p := createPrinter(t, ws, ada, body)
		w := ws.do(t, "POST", "/api/printers/"+itoa(p.ID)+"/pull", "", ada...)
		if e := decodeError(t, w); w.Code != 403 || e.Code != CodeHostNotAllowed || !strings.Contains(e.Message, "LAYERFIX_PRINTER_LINK_NETS") {
			t.Fatalf("%d %s", w.Code, w.Body.String())
		}
	})
}

type attachmentOut struct {
	Name string `json:"name"`
	Text string `json:"text"`
}

func createPrinter(t *testing.T, ws *workspace, auth []string, body string) printerJSON {
	t.Helper()
	w := ws.do(t, "POST", "/api/printers", body, auth...)
	if w.Code != 201 {
		t.Fatalf("create printer: %d %s", w.Code, w.Body.String())
	}
	var p printerJSON
	json.Unmarshal(w.Body.Bytes(), &p)
	return p
}
