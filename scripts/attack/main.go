// Command attack replays hostile inputs (huge images, floods, slow clients) against the real
// binary on loopback and checks the bounds: peak RSS, /healthz latency, no
// 5xx, and each attack's expected answers. Every loop is bounded in count
// and time, and every request goes to 127.0.0.1 only.
//
//	go run ./scripts/attack [-bin bin/layerfix]
//
// It prints one line per attack and a summary table, and exits non-zero
// when any bound fails.
package main

import (
	"bufio"
	"bytes"
	"context"
	"encoding/base64"
	"encoding/json"
	"flag"
	"fmt"
	"image"
	"image/color"
	"image/png"
	"io"
	"log/slog"
	"math/rand/v2"
	"mime/multipart"
	"net"
	"net/http"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"
	"time"

	"github.com/layerfix/layerfix/store"
)

const (
	maxRSS        = 256 << 20
	maxHealthWait = 100 * time.Millisecond
)

var client = &http.Client{Timeout: 90 * time.Second}

func main() {
	bin := flag.String("bin", "bin/layerfix", "the layerfix binary to attack")
	flag.Parse()
	if err := run(*bin); err != nil {
		fmt.Fprintln(os.Stderr, "attack:", err)
		os.Exit(1)
	}
}

type server struct {
	base string
	dir  string // holds data/ and server.log
	cmd  *exec.Cmd
}

// start runs the binary on a free loopback port with a fresh data dir;
// extra are more LAYERFIX_* settings.
func start(bin string, extra ...string) (*server, error) {
	l, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		return nil, err
	}
	addr := l.Addr().String()
	l.Close()
	dir, err := os.MkdirTemp("", "layerfix-attack-*")
	if err != nil {
		return nil, err
	}
	cmd := exec.Command(bin)
	env := []string{}
	for _, kv := range os.Environ() {
		// The operator sets no memory limit: the default must hold.
		if !strings.HasPrefix(kv, "GOMEMLIMIT=") && !strings.HasPrefix(kv, "LAYERFIX_") && !strings.HasPrefix(kv, "GOGC=") {
			env = append(env, kv)
		}
	}
	cmd.Env = append(env, "LAYERFIX_ADDR="+addr, "LAYERFIX_DATA_DIR="+filepath.Join(dir, "data"),
		// Loopback is the "proxy", so each request can claim its own client
		// address with X-Forwarded-For: the quota then lets the memory
		// attacks through, as it would for many real clients.
		"LAYERFIX_TRUSTED_PROXIES=127.0.0.1/32", "LAYERFIX_LOG_FORMAT=json")
	cmd.Env = append(cmd.Env, extra...)
	logf, err := os.Create(filepath.Join(dir, "server.log"))
	if err != nil {
		return nil, err
	}
	cmd.Stdout, cmd.Stderr = logf, logf
	if err := cmd.Start(); err != nil {
		return nil, err
	}
	s := &server{base: "http://" + addr, dir: dir, cmd: cmd}
	deadline := time.Now().Add(30 * time.Second)
	for time.Now().Before(deadline) {
		if r, err := http.Get(s.base + "/healthz"); err == nil {
			r.Body.Close()
			if r.StatusCode == 200 {
				fmt.Printf("server: pid %d, %s, log %s\n", cmd.Process.Pid, s.base, logf.Name())
				return s, nil
			}
		}
		time.Sleep(100 * time.Millisecond)
	}
	cmd.Process.Kill()
	return nil, fmt.Errorf("server did not become healthy; see %s", logf.Name())
}

// rss reads VmHWM and VmRSS of the server in bytes.
func (s *server) rss() (hwm, cur int64) {
	data, err := os.ReadFile(fmt.Sprintf("/proc/%d/status", s.cmd.Process.Pid))
	if err != nil {
		return 0, 0
	}
	sc := bufio.NewScanner(bytes.NewReader(data))
	for sc.Scan() {
		f := strings.Fields(sc.Text())
		if len(f) >= 2 && (f[0] == "VmHWM:" || f[0] == "VmRSS:") {
			kb, _ := strconv.ParseInt(f[1], 10, 64)
			if f[0] == "VmHWM:" {
				hwm = kb << 10
			} else {
				cur = kb << 10
			}
		}
	}
	return hwm, cur
}

// healthWatch asks /healthz every 50 ms until stopped, keeping the slowest
// answer and any non-200.
type healthWatch struct {
	slowest atomic.Int64
	bad     atomic.Int64
	n       atomic.Int64
	stop    chan struct{}
	done    chan struct{}
}

func watchHealth(base string) *healthWatch {
	h := &healthWatch{stop: make(chan struct{}), done: make(chan struct{})}
	c := &http.Client{Timeout: 5 * time.Second}
	go func() {
		defer close(h.done)
		t := time.NewTicker(50 * time.Millisecond)
		defer t.Stop()
		for {
			select {
			case <-h.stop:
				return
			case <-t.C:
			}
			start := time.Now()
			r, err := c.Get(base + "/healthz")
			d := time.Since(start)
			h.n.Add(1)
			if err != nil || r.StatusCode != 200 {
				h.bad.Add(1)
			}
			if r != nil {
				io.Copy(io.Discard, r.Body)
				r.Body.Close()
			}
			for old := h.slowest.Load(); int64(d) > old && !h.slowest.CompareAndSwap(old, int64(d)); old = h.slowest.Load() {
			}
		}
	}()
	return h
}

func (h *healthWatch) end() { close(h.stop); <-h.done }

type result struct {
	name   string
	ok     bool
	detail string
}

var (
	results []result
	fivexx  atomic.Int64
)

// rssNote is appended to each attack's line: the peak so far.
var rssNote func() string

func check(name string, ok bool, format string, a ...any) {
	if rssNote != nil {
		format += rssNote()
	}
	results = append(results, result{name, ok, fmt.Sprintf(format, a...)})
	mark := "ok  "
	if !ok {
		mark = "FAIL"
	}
	fmt.Printf("%s %-38s %s\n", mark, name, fmt.Sprintf(format, a...))
}

// do sends one request and returns its status (0 on a transport error).
func do(method, url, ct string, body []byte, hdr ...string) int {
	req, _ := http.NewRequest(method, url, bytes.NewReader(body))
	if ct != "" {
		req.Header.Set("Content-Type", ct)
	}
	for i := 0; i+1 < len(hdr); i += 2 {
		req.Header.Set(hdr[i], hdr[i+1])
	}
	r, err := client.Do(req)
	if err != nil {
		return 0
	}
	io.Copy(io.Discard, r.Body)
	r.Body.Close()
	if r.StatusCode >= 500 {
		fivexx.Add(1)
	}
	return r.StatusCode
}

func postJSON(url string, v any, hdr ...string) (int, []byte) {
	b, _ := json.Marshal(v)
	req, _ := http.NewRequest("POST", url, bytes.NewReader(b))
	req.Header.Set("Content-Type", "application/json")
	for i := 0; i+1 < len(hdr); i += 2 {
		req.Header.Set(hdr[i], hdr[i+1])
	}
	r, err := client.Do(req)
	if err != nil {
		return 0, nil
	}
	defer r.Body.Close()
	out, _ := io.ReadAll(io.LimitReader(r.Body, 1<<20))
	if r.StatusCode >= 500 {
		fivexx.Add(1)
	}
	return r.StatusCode, out
}

// compressible is a w×h PNG of a few colours: tiny on the wire, w×h×4 bytes
// once decoded. sixteen makes it a 16-bit PNG.
func compressible(w, h int, sixteen bool) []byte {
	var img image.Image
	if sixteen {
		m := image.NewRGBA64(image.Rect(0, 0, w, h))
		m.Set(w/2, h/2, color.RGBA64{R: 0xffff, A: 0xffff})
		img = m
	} else {
		m := image.NewRGBA(image.Rect(0, 0, w, h))
		for i := 3; i < len(m.Pix); i += 4 {
			m.Pix[i] = 255
		}
		m.Set(w/2, h/2, color.RGBA{R: 255, A: 255})
		img = m
	}
	var buf bytes.Buffer
	(&png.Encoder{CompressionLevel: png.BestCompression}).Encode(&buf, img)
	return buf.Bytes()
}

func analysis(images []string) map[string]any {
	return map[string]any{
		"category": "stringing", "description": "Thin strings between every part of the plate, PETG at 240°C & 20% infill",
		"material": "PETG", "nozzleTemp": 240, "printerBrand": "Creality Ender 3", "images": images,
	}
}

func parallel(n int, fn func(i int) int) map[int]int {
	var mu sync.Mutex
	codes := map[int]int{}
	var wg sync.WaitGroup
	for i := 0; i < n; i++ {
		wg.Add(1)
		go func(i int) {
			defer wg.Done()
			c := fn(i)
			mu.Lock()
			codes[c]++
			mu.Unlock()
		}(i)
	}
	wg.Wait()
	return codes
}

func run(bin string) error {
	if _, err := os.Stat(bin); err != nil {
		return fmt.Errorf("no binary at %s: run make build first", bin)
	}
	s, err := start(bin)
	if err != nil {
		return err
	}
	defer s.cmd.Process.Kill()
	idle, _ := s.rss()
	fmt.Printf("idle RSS %d MiB\n", idle>>20)
	health := watchHealth(s.base)
	started := time.Now()
	rssNote = func() string {
		hwm, cur := s.rss()
		return fmt.Sprintf(" [RSS %d MiB, peak %d MiB]", cur>>20, hwm>>20)
	}

	// 1. Twenty concurrent analyses of five images each at the analysis cap
	// (2040×2040, 16 MB decoded each), from twenty addresses.
	atCap := base64.StdEncoding.EncodeToString(compressible(2040, 2040, false))
	codes := parallel(20, func(i int) int {
		c, _ := postJSON(s.base+"/api/troubleshoot", analysis([]string{atCap, atCap, atCap, atCap, atCap}),
			"X-Forwarded-For", fmt.Sprintf("198.51.100.%d", i+1))
		return c
	})
	check("20 analyses × 5 images at the cap", codes[200]+codes[429] == 20 && codes[200] > 0, "answers %v", codes)

	// 2. The same with 6300×6300 and 16-bit PNGs: refused from the header.
	huge := base64.StdEncoding.EncodeToString(compressible(6300, 6300, false))
	deep := base64.StdEncoding.EncodeToString(compressible(1500, 1500, true))
	codes = parallel(20, func(i int) int {
		img := huge
		if i%2 == 1 {
			img = deep
		}
		c, _ := postJSON(s.base+"/api/troubleshoot", analysis([]string{img, img, img, img, img}),
			"X-Forwarded-For", fmt.Sprintf("198.51.101.%d", i+1))
		return c
	})
	check("20 analyses of 40 MP / 16-bit PNGs", codes[400] == 20, "answers %v (all 400 from the header)", codes)

	// 3. Five concurrent upload batches of five 16 MP photos (a signed-in account).
	code, body := postJSON(s.base+"/api/auth/signup", map[string]string{"email": "attacker@example.com", "password": "a-long-attack-password", "displayName": "A"},
		"X-Forwarded-For", "198.51.102.1")
	var sess struct{ Token string }
	json.Unmarshal(body, &sess)
	if code != 201 || sess.Token == "" {
		check("sign up for the upload attack", false, "%d %s", code, body)
	} else {
		photo := compressible(4000, 3000, false)
		codes = parallel(5, func(i int) int {
			var buf bytes.Buffer
			mw := multipart.NewWriter(&buf)
			for k := 0; k < 5; k++ {
				fw, _ := mw.CreateFormFile("images", fmt.Sprintf("p%d.png", k))
				fw.Write(photo)
			}
			mw.Close()
			return do("POST", s.base+"/api/upload-images", mw.FormDataContentType(), buf.Bytes(), "Authorization", "Bearer "+sess.Token)
		})
		check("5 upload batches × 5 photos of 12 MP", codes[200]+codes[429] == 5 && codes[200] > 0, "answers %v", codes)
	}

	// 4. Sixty concurrent wrong passwords for one email, from sixty addresses.
	postJSON(s.base+"/api/auth/signup", map[string]string{"email": "victim@example.com", "password": "correct-horse-battery", "displayName": "V"},
		"X-Forwarded-For", "198.51.103.1")
	codes = parallel(60, func(i int) int {
		c, _ := postJSON(s.base+"/api/auth/login", map[string]string{"email": "victim@example.com", "password": fmt.Sprintf("guess-%d", i)},
			"X-Forwarded-For", fmt.Sprintf("203.0.113.%d", i+1))
		return c
	})
	check("60 concurrent guesses for one email", codes[401] <= 10 && codes[401]+codes[429] == 60, "answers %v (at most 10 hashed)", codes)

	// 5. Ten sign-ins with 14 MB emails.
	bigEmail := strings.Repeat("a", 14<<20) + "@example.com"
	codes = parallel(10, func(i int) int {
		c, _ := postJSON(s.base+"/api/auth/login", map[string]string{"email": bigEmail, "password": "x"}, "X-Forwarded-For", fmt.Sprintf("203.0.114.%d", i+1))
		return c
	})
	check("10 sign-ins with 14 MB emails", codes[413]+codes[400] == 10, "answers %v", codes)

	health.end()
	limiterFill(s.base) // saturates the CPU on purpose: after the /healthz watch, inside the peak RSS
	hwm, cur := s.rss()
	elapsed := time.Since(started)

	// 6. Functional checks.
	codes = parallel(20, func(i int) int {
		c, _ := postJSON(s.base+"/api/troubleshoot", analysis(nil), "X-Forwarded-For", "192.0.2.200")
		return c
	})
	check("20 concurrent analyses from one address", codes[200] == 3 && codes[429] == 17, "answers %v (exactly 3 succeed)", codes)
	v6 := parallel(6, func(i int) int {
		c, _ := postJSON(s.base+"/api/troubleshoot", analysis(nil), "X-Forwarded-For", fmt.Sprintf("2001:db8:5:6::%x", i+1))
		return c
	})
	check("6 analyses from one IPv6 /64", v6[200] == 3, "answers %v", v6)
	c := do("POST", s.base+"/api/troubleshoot", "", []byte(`{"category":"other"}`))
	check("JSON without Content-Type", c == 415, "answer %d", c)
	c, _ = postJSON(s.base+"/api/share-results", map[string]any{"title": "Free printers", "troubleshootingData": map[string]any{
		"summary": "Visit evil.example", "steps": []map[string]string{{"title": "Click", "description": "evil.example", "priority": "high"}}, "additionalTips": []string{}}})
	check("share of a result this server did not make", c == 400, "answer %d", c)
	c = do("POST", s.base+"/api/stripe/webhook", "application/json", []byte(`{"id":"evt_1"}`), "Stripe-Signature", "t=1,v1=0")
	check("webhook with billing off", c == 404, "answer %d", c)
	held := trickle(s.base)
	check("trickled body cut short", held <= 15*time.Second, "connection closed after %v", held.Round(100*time.Millisecond))
	metricsFlood(bin)
	unpagedLists(bin)

	fmt.Println()
	fmt.Printf("%-34s %s\n", "peak RSS (VmHWM)", fmt.Sprintf("%d MiB (idle %d MiB, after the attacks %d MiB)", hwm>>20, idle>>20, cur>>20))
	fmt.Printf("%-34s %v over %d probes, %d not 200\n", "slowest /healthz", time.Duration(health.slowest.Load()).Round(time.Millisecond), health.n.Load(), health.bad.Load())
	fmt.Printf("%-34s %v\n", "memory attacks took", elapsed.Round(100*time.Millisecond))
	check("peak RSS", hwm <= maxRSS, "%d MiB (bound %d MiB)", hwm>>20, maxRSS>>20)
	check("/healthz under attack", time.Duration(health.slowest.Load()) <= maxHealthWait && health.bad.Load() == 0,
		"slowest %v, %d failed", time.Duration(health.slowest.Load()).Round(time.Millisecond), health.bad.Load())
	check("no 5xx anywhere", fivexx.Load() == 0, "%d answers were 5xx", fivexx.Load())

	failed := 0
	for _, r := range results {
		if !r.ok {
			failed++
		}
	}
	fmt.Printf("\n%d passed, %d failed\n", len(results)-failed, failed)
	if failed > 0 {
		return fmt.Errorf("%d checks failed", failed)
	}
	return nil
}

// trickle sends a small JSON body a byte every 500 ms and returns how long
// the server kept the connection open.
func trickle(base string) time.Duration {
	conn, err := net.Dial("tcp", strings.TrimPrefix(base, "http://"))
	if err != nil {
		return time.Hour
	}
	defer conn.Close()
	body := `{"email":"a@example.com","password":"` + strings.Repeat("x", 200) + `"}`
	fmt.Fprintf(conn, "POST /api/auth/login HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\nContent-Length: %d\r\n\r\n", len(body))
	start := time.Now()
	ctx, cancel := context.WithTimeout(context.Background(), 60*time.Second)
	defer cancel()
	closed := make(chan struct{})
	go func() {
		io.Copy(io.Discard, conn)
		close(closed)
	}()
	for i := 0; i < len(body); i++ {
		select {
		case <-closed:
			return time.Since(start)
		case <-ctx.Done():
			return time.Since(start)
		case <-time.After(500 * time.Millisecond):
		}
		if _, err := conn.Write([]byte{body[i]}); err != nil {
			return time.Since(start)
		}
	}
	return time.Since(start)
}

// limiterFill sends 101,000 wrong passwords for one locked email, each from
// its own IPv6 /64 (X-Forwarded-For from the loopback "proxy"), as fast as
// 32 connections go for at most four minutes; then a new visitor's correct
// sign-in from a fresh address must answer 200.
func limiterFill(base string) {
	const attempts, workers = 101_000, 32
	// Keep the workers' connections open: 101,000 fresh ones would run
	// out of loopback ports.
	http.DefaultTransport.(*http.Transport).MaxIdleConnsPerHost = workers
	post := func(v any, from string) int {
		b, _ := json.Marshal(v)
		return do("POST", base+"/api/auth/login", "application/json", b, "X-Forwarded-For", from)
	}
	for i, email := range []string{"fill-victim@example.com", "fill-visitor@example.com"} {
		postJSON(base+"/api/auth/signup", map[string]string{"email": email, "password": "correct-horse-battery", "displayName": "F"},
			"X-Forwarded-For", fmt.Sprintf("198.51.110.%d", i+1))
	}
	wrong := map[string]string{"email": "fill-victim@example.com", "password": "wrong-password"}
	for i := range 10 {
		post(wrong, fmt.Sprintf("198.51.111.%d", i+1))
	}
	var next atomic.Int64
	var mu sync.Mutex
	codes := map[int]int{}
	started := time.Now()
	deadline := started.Add(4 * time.Minute)
	var wg sync.WaitGroup
	for range workers {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for i := next.Add(1) - 1; i < attempts && time.Now().Before(deadline); i = next.Add(1) - 1 {
				c := post(wrong, fmt.Sprintf("2001:db8:%x:%x::1", 0x1000+i>>16, i&0xffff))
				mu.Lock()
				codes[c]++
				mu.Unlock()
			}
		}()
	}
	wg.Wait()
	took := time.Since(started)
	sent := 0
	for _, n := range codes {
		sent += n
	}
	check("limiter fill: 101,000 attempts", sent == attempts && codes[401]+codes[429] == attempts,
		"%d sent in %v (%.0f/s), answers %v", sent, took.Round(100*time.Millisecond), float64(sent)/took.Seconds(), codes)
	c := post(map[string]string{"email": "fill-visitor@example.com", "password": "correct-horse-battery"}, "192.0.2.77")
	check("limiter fill: a new visitor signs in", c == 200, "answer %d", c)
}

// metricsFlood sends 10,000 requests with random methods to random paths of
// a server with LAYERFIX_METRICS=on: every label a client chooses maps to a
// fixed set, so /metrics stays small.
func metricsFlood(bin string) {
	const name, n, bound = "metrics flood (10,000 random methods)", 10_000, 200 << 10
	s, err := start(bin, "LAYERFIX_METRICS=on")
	if err != nil {
		check(name, false, "%v", err)
		return
	}
	defer s.cmd.Process.Kill()
	scrape := func() int {
		r, err := client.Get(s.base + "/metrics")
		if err != nil {
			return -1
		}
		defer r.Body.Close()
		size, _ := io.Copy(io.Discard, io.LimitReader(r.Body, 1<<30))
		return int(size)
	}
	before := scrape()
	var sent atomic.Int64
	parallel(16, func(i int) int {
		rng := rand.New(rand.NewPCG(uint64(i), 7)) //nolint:gosec // reproducible junk text, not a secret
		word := func(k int) string {
			b := make([]byte, k)
			for i := range b {
				b[i] = byte('A' + rng.IntN(26))
			}
			return string(b)
		}
		for sent.Add(1) <= n {
			path := []string{"/api/issues", "/", "/api/" + word(8), "/" + word(6) + "/" + word(6)}[rng.IntN(4)]
			do(word(3+rng.IntN(8)), s.base+path, "", nil)
		}
		return 0
	})
	after := scrape()
	hwm, _ := s.rss()
	check(name, after > 0 && after <= bound, "/metrics %d KB before, %d KB after (bound %d KB), server peak RSS %d MiB",
		before>>10, after>>10, bound>>10, hwm>>20)
}

// unpagedLists seeds one account with 10,000 issues (through the store,
// as make bench-farm does, while the server runs) and asks for the whole
// log without page parameters 8 times at once: the server streams it, so
// its peak RSS stays under the bound.
func unpagedLists(bin string) {
	const name, n, lists = "8 concurrent unpaged lists of 10,000", 10_000, 8
	s, err := start(bin)
	if err != nil {
		check(name, false, "%v", err)
		return
	}
	defer s.cmd.Process.Kill()
	fail := func(format string, a ...any) { check(name, false, format, a...) }
	code, body := postJSON(s.base+"/api/auth/signup", map[string]string{"email": "farm@example.com", "password": "a-long-farm-password", "displayName": "F"},
		"X-Forwarded-For", "198.51.104.1")
	var sess struct{ Token string }
	json.Unmarshal(body, &sess)
	if code != 201 || sess.Token == "" {
		fail("sign up: %d %s", code, body)
		return
	}
	auth := []string{"Authorization", "Bearer " + sess.Token}
	code, body = postJSON(s.base+"/api/printers", map[string]string{"name": "Farm 01", "brand": "Prusa"}, auth...)
	var printer struct{ ID int64 }
	json.Unmarshal(body, &printer)
	_, checklist := postJSON(s.base+"/api/troubleshoot", analysis(nil), "X-Forwarded-For", "198.51.104.2")
	req, _ := http.NewRequest("GET", s.base+"/api/user/profile", nil)
	req.Header.Set(auth[0], auth[1])
	var prof struct{ ID int64 }
	if r, err := client.Do(req); err == nil {
		json.NewDecoder(r.Body).Decode(&prof)
		r.Body.Close()
	}
	if code != 201 || printer.ID == 0 || prof.ID == 0 || !json.Valid(checklist) {
		fail("printer %d, user %d, analysis %q", code, prof.ID, checklist)
		return
	}

	st, err := store.Open(context.Background(), store.Options{DataDir: filepath.Join(s.dir, "data"), Logger: slog.New(slog.DiscardHandler)})
	if err != nil {
		fail("open the store: %v", err)
		return
	}
	desc := strings.Repeat("Thin strings between every part of the plate, PETG at 240 °C, 20 % infill. ", 6)
	rows := make([]store.Issue, 0, 1000)
	for i := 0; i < n && err == nil; i++ {
		rows = append(rows, store.Issue{UserID: prof.ID, PrinterID: &printer.ID, Category: "stringing", Status: store.StatusResolved,
			Description: fmt.Sprintf("%d: %s", i, desc), AIChecklist: store.JSON(checklist),
			WorkingRecommendations: store.StringList{"Increase retraction", "Dry the filament"},
			CreatedAt:              time.Now().UTC().Add(-time.Duration(i) * time.Minute)})
		if len(rows) == cap(rows) {
			err, rows = st.CreateIssues(context.Background(), rows), rows[:0]
		}
	}
	st.Close()
	if err != nil {
		fail("seed: %v", err)
		return
	}

	idle, _ := s.rss()
	var size atomic.Int64
	var count atomic.Int64
	codes := parallel(lists, func(i int) int {
		req, _ := http.NewRequest("GET", s.base+"/api/issues", nil)
		req.Header.Set(auth[0], auth[1])
		r, err := client.Do(req)
		if err != nil {
			return 0
		}
		defer r.Body.Close()
		if r.StatusCode >= 500 {
			fivexx.Add(1)
		}
		if i > 0 {
			k, _ := io.Copy(io.Discard, r.Body)
			size.Store(k)
			return r.StatusCode
		}
		var items []json.RawMessage
		if json.NewDecoder(r.Body).Decode(&items) != nil {
			return -1
		}
		count.Store(int64(len(items)))
		return r.StatusCode
	})
	hwm, _ := s.rss()
	check(name, codes[200] == lists && count.Load() == n && hwm <= maxRSS,
		"answers %v, %d issues and %.1f MB each, server peak RSS %d MiB (idle %d MiB, bound %d MiB)",
		codes, count.Load(), float64(size.Load())/1e6, hwm>>20, idle>>20, maxRSS>>20)
}
