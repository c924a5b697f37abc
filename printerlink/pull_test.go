package printerlink

import (
	"context"
	"errors"
	"net"
	"net/http"
	"net/http/httptest"
	"net/netip"
	"strings"
	"testing"
	"time"

	"github.com/layerfix/layerfix/ai"
	"github.com/layerfix/layerfix/printerlink/printerlinktest"
)

var loopback = Policy{Nets: []netip.Prefix{netip.MustParsePrefix("127.0.0.1/32")}}

func pull(t *testing.T, p Policy, h Host) (*Result, error) {
	t.Helper()
	return New(p).Pull(context.Background(), h)
}

func totalText(atts []ai.Attachment) int {
	n := 0
	for _, a := range atts {
		n += len(a.Text)
	}
	return n
}

func TestPullEachKind(t *testing.T) {
	t.Run("moonraker", func(t *testing.T) {
		srv := printerlinktest.Moonraker(t, []byte(printerlinktest.KlippyLog))
		r, err := pull(t, loopback, Host{Kind: Moonraker, URL: srv.URL, APIKey: printerlinktest.Key})
		if err != nil {
			t.Fatal(err)
		}
		if r.Software != "Klipper v0.12.0-85-gd785b396" || r.State != "shutdown" || r.Job == nil || r.Job.File != "benchy_0.2mm_PLA.gcode" || r.Job.Status != "klippy_shutdown" {
			t.Fatalf("result = %+v job %+v", r, r.Job)
		}
		f := r.Form
		if *f.Material != "PLA" || *f.NozzleTemp != 215 || *f.BedTemp != 60 || *f.LayerHeight != 0.2 || f.SlicerSettings.Slicer != "PrusaSlicer" || *f.SlicerSettings.NozzleDiameter != 0.4 {
			t.Fatalf("form = %+v", f)
		}
		if len(r.Attachments) != 2 || r.Attachments[0].Name != "printer.cfg" || r.Attachments[1].Name != "klippy.log" || r.Attachments[1].Text != printerlinktest.KlippyLog {
			t.Fatalf("attachments = %v", r.Attachments)
		}
		if strings.Contains(r.Attachments[0].Text, printerlinktest.Key) || !strings.Contains(r.Attachments[0].Text, "max_temp: 280") {
			t.Fatalf("printer.cfg kept its secret or lost its text:\n%s", r.Attachments[0].Text)
		}
		if r.Form.Category != "heating-issues" || r.Summary != "Last job benchy_0.2mm_PLA.gcode klippy shutdown (MCU 'mcu' shutdown: ADC out of range); "+
			"klippy.log: ADC out of range on mcu (a temperature reading beyond min_temp/max_temp: thermistor or its wiring), "+
			"MAXTEMP on extruder (the thermistor reads too hot: shorted thermistor or wrong sensor type)" {
			t.Fatalf("summary = %q", r.Summary)
		}
	})
	t.Run("octoprint", func(t *testing.T) {
		srv := printerlinktest.OctoPrint(t, true)
		r, err := pull(t, loopback, Host{Kind: OctoPrint, URL: srv.URL + "/", APIKey: printerlinktest.Key})
		if err != nil {
			t.Fatal(err)
		}
		if r.Software != "OctoPrint 1.10.3" || r.State != "Operational" || r.Job == nil || r.Job.File != "vase.gcode" || r.Job.Status != "failed" {
			t.Fatalf("result = %+v job %+v", r, r.Job)
		}
		if *r.Form.NozzleTemp != 205 || *r.Form.BedTemp != 60 || *r.Form.SlicerSettings.NozzleDiameter != 0.4 {
			t.Fatalf("form = %+v", r.Form)
		}
		if len(r.Attachments) != 1 || r.Attachments[0].Name != "serial.log" || !strings.Contains(r.Summary, "serial.log: killed") || r.Form.Category != "" {
			t.Fatalf("attachments %v summary %q", r.Attachments, r.Summary)
		}
	})
	t.Run("octoprint key without log access", func(t *testing.T) {
		srv := printerlinktest.OctoPrint(t, false)
		r, err := pull(t, loopback, Host{Kind: OctoPrint, URL: srv.URL, APIKey: printerlinktest.Key})
		if err != nil {
			t.Fatal(err)
		}
		if len(r.Attachments) != 0 || !strings.Contains(strings.Join(r.Notes, "\n"), "serial.log: this API key may not read it") {
			t.Fatalf("attachments %v notes %v", r.Attachments, r.Notes)
		}
	})
	t.Run("prusalink", func(t *testing.T) {
		srv := printerlinktest.PrusaLink(t, true)
		r, err := pull(t, loopback, Host{Kind: PrusaLink, URL: srv.URL, APIKey: printerlinktest.Key})
		if err != nil {
			t.Fatal(err)
		}
		f := r.Form
		if r.State != "ERROR" || r.Job == nil || r.Job.File != "shape_0.15mm_PETG_MK3S_2h.gcode" || *f.Material != "PETG" || *f.NozzleTemp != 240 ||
			*f.BedTemp != 85 || *f.LayerHeight != 0.15 || *f.Infill != 15 {
			t.Fatalf("result = %+v job %+v form %+v", r, r.Job, f)
		}
		if r.Summary != "Last job shape_0.15mm_PETG_MK3S_2h.gcode error (Thermal runaway)" {
			t.Fatalf("summary = %q", r.Summary)
		}
	})
	t.Run("prusalink without a job", func(t *testing.T) {
		srv := printerlinktest.PrusaLink(t, false)
		r, err := pull(t, loopback, Host{Kind: PrusaLink, URL: srv.URL, APIKey: printerlinktest.Key})
		if err != nil || r.Job != nil || r.Summary != "Printer error: Thermal runaway" {
			t.Fatalf("%+v %v", r, err)
		}
	})
}

func TestPullHostDown(t *testing.T) {
	l, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	addr := l.Addr().String()
	l.Close()
	for _, kind := range Kinds {
		_, err := pull(t, loopback, Host{Kind: kind, URL: "http://" + addr, APIKey: printerlinktest.Key})
		if !errors.Is(err, ErrUnreachable) {
			t.Fatalf("%s: err = %v", kind, err)
		}
	}
	// A host that accepts and never answers is given up on.
	stuck := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) { <-r.Context().Done() }))
	defer stuck.Close()
	start := time.Now()
	if _, err := pull(t, loopback, Host{Kind: Moonraker, URL: stuck.URL}); !errors.Is(err, ErrUnreachable) || time.Since(start) > requestTimeout+2*time.Second {
		t.Fatalf("stuck host: %v after %v", err, time.Since(start))
	}
}

func TestPullWrongKey(t *testing.T) {
	for kind, srv := range map[string]*httptest.Server{Moonraker: printerlinktest.Moonraker(t, nil), OctoPrint: printerlinktest.OctoPrint(t, true), PrusaLink: printerlinktest.PrusaLink(t, true)} {
		_, err := pull(t, loopback, Host{Kind: kind, URL: srv.URL, APIKey: "wrong"})
		if !errors.Is(err, ErrUnauthorized) || strings.Contains(err.Error(), "wrong") {
			t.Fatalf("%s: err = %v", kind, err)
		}
	}
}

func TestPullHugeLog(t *testing.T) {
	huge := []byte(strings.Repeat("Stats 1200.1: gcodein=0 mcu: mcu_awake=0.003 mcu_task_avg=0.000010 bytes_write=1234\n", 600_000) + printerlinktest.KlippyLog) // 50 MB
	srv := printerlinktest.Moonraker(t, huge)
	start := time.Now()
	r, err := pull(t, loopback, Host{Kind: Moonraker, URL: srv.URL, APIKey: printerlinktest.Key})
	if err != nil {
		t.Fatal(err)
	}
	if n := totalText(r.Attachments); n > ai.MaxAttachmentBytes || len(r.Attachments) != 2 {
		t.Fatalf("%d attachments, %d bytes", len(r.Attachments), n)
	}
	log := r.Attachments[1].Text
	if !strings.HasSuffix(log, printerlinktest.KlippyLog) || !strings.HasPrefix(log, "Stats") {
		t.Fatalf("the log's tail does not start on a line or misses the end: %q...", log[:80])
	}
	if !strings.Contains(r.Summary, "ADC out of range") {
		t.Fatalf("summary = %q", r.Summary)
	}
	t.Logf("50 MB log: tail of %d KB in %v", len(log)>>10, time.Since(start))

	// A host that ignores byte ranges and sends it all: the log is left out.
	whole := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if r.URL.Path == "/server/files/logs/klippy.log" {
			w.Write(huge)
			return
		}
		printerlinktest.Moonraker(t, nil).Config.Handler.ServeHTTP(w, r)
	}))
	defer whole.Close()
	r, err = pull(t, loopback, Host{Kind: Moonraker, URL: whole.URL, APIKey: printerlinktest.Key})
	if err != nil {
		t.Fatal(err)
	}
	if len(r.Attachments) != 1 || !strings.Contains(strings.Join(r.Notes, "\n"), "klippy.log: /server/files/logs/klippy.log is") {
		t.Fatalf("attachments %d notes %v", len(r.Attachments), r.Notes)
	}
}

func TestPullRedirectRefused(t *testing.T) {
	for _, target := range []string{"http://127.0.0.2:7125/printer/info", "http://169.254.169.254/latest/meta-data/", "http://[::ffff:169.254.169.254]/"} {
		var keySeen []string
		redirector := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
			keySeen = append(keySeen, r.Header.Get("X-Api-Key"))
			http.Redirect(w, r, target, http.StatusFound)
		}))
		// Even an operator who allows every IPv4 address never reaches the metadata service.
		for _, p := range []Policy{loopback, {Nets: []netip.Prefix{netip.MustParsePrefix("127.0.0.1/32"), netip.MustParsePrefix("0.0.0.0/0")}}} {
			if target == "http://127.0.0.2:7125/printer/info" && len(p.Nets) > 1 {
				continue
			}
			_, err := pull(t, p, Host{Kind: Moonraker, URL: redirector.URL, APIKey: printerlinktest.Key})
			if !errors.Is(err, ErrNotAllowed) {
				t.Fatalf("redirect to %s with %v: err = %v", target, p.Nets, err)
			}
		}
		redirector.Close()
	}
}

func TestPullRedirectDropsKeyForAnotherOrigin(t *testing.T) {
	var got []string
	other := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		got = append(got, r.Header.Get("X-Api-Key"))
		w.Write([]byte(`{"result": {"state": "ready", "software_version": "v0.12.0"}}`))
	}))
	defer other.Close()
	first := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		http.Redirect(w, r, other.URL+r.URL.Path, http.StatusFound)
	}))
	defer first.Close()
	if _, err := pull(t, loopback, Host{Kind: Moonraker, URL: first.URL, APIKey: printerlinktest.Key}); err != nil {
		t.Fatal(err)
	}
	if len(got) == 0 || strings.Join(got, "") != "" {
		t.Fatalf("the other origin got the key: %q", got)
	}
}

func TestPolicy(t *testing.T) {
	def, err := ParseNets("")
	if err != nil {
		t.Fatal(err)
	}
	listed, err := ParseNets("192.168.1.0/24, 127.0.0.1 ,0.0.0.0/0,::/0")
	if err != nil {
		t.Fatal(err)
	}
	for _, c := range []struct {
		nets []netip.Prefix
		addr string
		ok   bool
	}{
		{def, "10.1.2.3", true}, {def, "172.20.0.9", true}, {def, "192.168.0.50", true}, {def, "fd12:3456::1", true},
		{def, "127.0.0.1", false}, {def, "::1", false}, {def, "8.8.8.8", false}, {def, "2001:db8::1", false},
		{def, "169.254.169.254", false}, {def, "fe80::1", false}, {def, "::ffff:127.0.0.1", false}, {def, "100.64.0.1", false},
		{listed, "127.0.0.1", true}, {listed, "127.0.0.2", true}, {listed, "8.8.8.8", true},
		{listed, "169.254.169.254", false}, {listed, "169.254.1.1", false}, {listed, "::ffff:169.254.169.254", false},
		{listed, "fe80::1%eth0", false}, {listed, "fd00:ec2::254", false}, {listed, "0.0.0.0", false}, {listed, "224.0.0.251", false},
	} {
		err := Policy{Nets: c.nets}.Check(netip.MustParseAddr(c.addr))
		if (err == nil) != c.ok {
			t.Errorf("%s with %v: %v", c.addr, c.nets, err)
		}
	}
	for _, bad := range []string{"10.0.0.0/33", "nope", "10.0.0.1/8/2"} {
		if _, err := ParseNets(bad); err == nil {
			t.Errorf("%q accepted", bad)
		}
	}
	// A name is checked on the address it resolves to.
	_, err = New(Policy{Nets: def}).Pull(context.Background(), Host{Kind: Moonraker, URL: "http://localhost:1"})
	if !errors.Is(err, ErrNotAllowed) {
		t.Fatalf("localhost with the default networks: %v", err)
	}
}
