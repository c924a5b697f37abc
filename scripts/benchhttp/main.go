// Command benchhttp is make bench-http: in one run on this machine it prints
// the fsync rate of the data directory's disk, the time from exec to the
// first 200 on /healthz (median of 5, on a fresh and on an existing data
// dir), then at 50 connections: the ceiling of a bare Echo JSON handler
// in a process of its own (and, for reference, served from this process)
// and, in turns of a second with it, Layerfix's POST /api/troubleshoot with
// the quota lifted (and the ratio of the two, and of their CPU time per
// request, client and server together), POST /api/troubleshoot with
// the quota counted, and POST /api/issues (credit, analysis, insert), all
// with synchronous=FULL; then checks that 20 concurrent analyses from one
// address give exactly 3. Loopback only; it stops itself.
package main

import (
	"bytes"
	"context"
	"encoding/json"
	"flag"
	"fmt"
	"io"
	"net"
	"net/http"
	"os"
	"os/exec"
	"path/filepath"
	"sort"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"
	"time"

	"github.com/labstack/echo/v4"
)

var (
	bin      = flag.String("bin", "bin/layerfix", "the layerfix binary")
	duration = flag.Duration("d", 8*time.Second, "duration of each load")
	conns    = flag.Int("c", 50, "concurrent connections")
	starts   = flag.Int("starts", 5, "starts timed to healthy")
	onlyTime = flag.Bool("start-only", false, "time the starts only, no load")
	bareAddr = flag.String("serve-bare", "", "serve the bare Echo handler on this address and nothing else (the child process the benchmark starts)")
)

func main() {
	flag.Parse()
	if *bareAddr != "" {
		serveBare(*bareAddr)
		return
	}
	defer func() {
		if r := recover(); r != nil {
			stopAll()
			panic(r)
		}
	}()
	// On the disk of the working directory, as the data dir would be (not a tmpfs /tmp).
	dir, err := os.MkdirTemp(".", ".bench-http-")
	check(err)
	defer os.RemoveAll(dir)
	defer stopAll()

	fmt.Printf("disk: %.0f fsyncs/s (4 KiB write + fsync, %s)\n", fsyncRate(dir), dir)

	fresh, existing, first := startTimes(dir, *starts)
	fmt.Printf("start to healthy (median of %d):  fresh data dir %5.1f ms, existing %5.1f ms; to a first analysis %5.1f ms\n",
		*starts, ms(fresh), ms(existing), ms(first))
	if *onlyTime {
		return
	}

	// The bare server and Layerfix take turns of a second: whatever else
	// the machine runs meanwhile weighs on both alike. The bare server is
	// its own process, as Layerfix is (and as both are under hey); the
	// same handler served from this process, beside the load, is printed
	// too: it was the reference before, and sharing one Go runtime with
	// the load makes it cheaper than a server of its own.
	bare := startBare()
	inproc := bareEcho()
	body := []byte(`{"category":"stringing","description":"Lots of thin strings between the two towers, PETG on my Ender 3","material":"PETG","nozzleTemp":245,"printerBrand":"Creality Ender 3 V2","images":[]}`)
	srv := start(dir, "lifted", map[string]string{"LAYERFIX_ANON_MONTHLY_LIMIT": "unlimited", "LAYERFIX_NETWORK_MONTHLY_LIMIT": "unlimited"})
	lb, li, ll := newLoad(bare.url+"/hello", "GET", nil, nil), newLoad(inproc+"/hello", "GET", nil, nil), newLoad(srv.url+"/api/troubleshoot", "POST", func(int) []byte { return body }, nil)
	lb.pids, li.pids, ll.pids = []int{os.Getpid(), bare.cmd.Process.Pid}, []int{os.Getpid()}, []int{os.Getpid(), srv.cmd.Process.Pid}
	rs := interleaved(lb, ll, li)
	rb, rl, ri := rs[0], rs[1], rs[2]
	fmt.Printf("bare Echo GET:                    %s\n", rb)
	fmt.Printf("troubleshoot, quota lifted:       %s\n", rl)
	fmt.Printf("troubleshoot / bare Echo:         %.2f\n", rl.rps/rb.rps)
	// CPU time per request, client and server together, moves less with
	// the machine's other load than the rates do; its ratio is what the
	// rates' ratio would be on an otherwise idle machine.
	if rb.cpuPerReq > 0 && rl.cpuPerReq > 0 {
		fmt.Printf("CPU per request (client+server):  bare Echo %.1f µs, troubleshoot %.1f µs, ratio %.2f\n",
			us(rb.cpuPerReq), us(rl.cpuPerReq), float64(rb.cpuPerReq)/float64(rl.cpuPerReq))
	}
	fmt.Printf("bare Echo in this process:        %s\n", ri)
	fmt.Printf("troubleshoot / in-process Echo:   %.2f\n", rl.rps/ri.rps)
	bare.stop()
	srv.stop()

	// Counted: every request writes its address's count (and its network's); each worker is
	// its own address through a trusted proxy header, so nobody hits the limit.
	srv = start(dir, "counted", map[string]string{"LAYERFIX_ANON_MONTHLY_LIMIT": "1000000", "LAYERFIX_NETWORK_MONTHLY_LIMIT": "unlimited", "LAYERFIX_TRUSTED_PROXIES": "127.0.0.1/32"})
	fmt.Printf("troubleshoot, quota counted:      %s\n", load(srv.url+"/api/troubleshoot", "POST", body, nil, func(w int) map[string]string {
		return map[string]string{"X-Forwarded-For": fmt.Sprintf("198.51.%d.%d", w/250, w%250+1)}
	}))
	srv.stop()

	srv = start(dir, "issues", map[string]string{"LAYERFIX_TIER_LIMITS": "free=1000000,hobby=20,pro=50,farm=175", "LAYERFIX_NETWORK_MONTHLY_LIMIT": "unlimited", "LAYERFIX_TRUSTED_PROXIES": "127.0.0.1/32"})
	tokens := make([]string, *conns)
	issues := make([][]byte, *conns)
	for i := range tokens {
		var printer int64
		tokens[i], printer = signup(srv.url, i)
		issues[i] = []byte(fmt.Sprintf(`{"printerId":%d,"category":"stringing","description":"Thin strings between the towers after every print","material":"PLA","nozzleTemp":215,"photoUrls":[]}`, printer))
	}
	fmt.Printf("POST /api/issues:                 %s\n", loadBodies(srv.url+"/api/issues", issues, func(w int) map[string]string {
		return map[string]string{"Authorization": "Bearer " + tokens[w]}
	}))
	srv.stop()

	srv = start(dir, "limit", nil)
	var ok atomic.Int64
	var wg sync.WaitGroup
	for i := 0; i < 20; i++ {
		wg.Add(1)
		go func() {
			defer wg.Done()
			resp, err := http.Post(srv.url+"/api/troubleshoot", "application/json", bytes.NewReader(body))
			if err == nil {
				if resp.StatusCode == 200 {
					ok.Add(1)
				}
				resp.Body.Close()
			}
		}()
	}
	wg.Wait()
	srv.stop()
	fmt.Printf("20 concurrent analyses from one address: %d succeeded (want 3)\n", ok.Load())
	if ok.Load() != 3 {
		os.Exit(1)
	}
}

type result struct {
	n, errs        int64
	codes          map[int]int64
	rps            float64
	p50, p99, pmax time.Duration
	cpuPerReq      time.Duration // of the processes in pids; 0 when not measured
}

func (r result) String() string {
	return fmt.Sprintf("%8.0f req/s  p50 %5.1f ms  p99 %5.1f ms  max %6.1f ms  %v errors %d",
		r.rps, ms(r.p50), ms(r.p99), ms(r.pmax), r.codes, r.errs)
}

func ms(d time.Duration) float64 { return float64(d.Microseconds()) / 1000 }

func us(d time.Duration) float64 { return float64(d.Nanoseconds()) / 1000 }

// cpuTime is the user and system time process pid has used, from
// /proc/pid/stat (in clock ticks of 10 ms); 0 when it cannot be read.
func cpuTime(pid int) time.Duration {
	data, err := os.ReadFile(fmt.Sprintf("/proc/%d/stat", pid))
	if err != nil {
		return 0
	}
	s := string(data)
	i := strings.LastIndexByte(s, ')') // the command name may hold spaces
	if i < 0 {
		return 0
	}
	f := strings.Fields(s[i+1:]) // state, ppid, ... utime is the 12th, stime the 13th
	if len(f) < 13 {
		return 0
	}
	user, err1 := strconv.ParseInt(f[11], 10, 64)
	sys, err2 := strconv.ParseInt(f[12], 10, 64)
	if err1 != nil || err2 != nil {
		return 0
	}
	return time.Duration(user+sys) * 10 * time.Millisecond
}

// load sends requests from *conns workers for *duration and reports the rate and latencies.
func load(url, method string, body []byte, _ any, headers func(worker int) map[string]string) result {
	return run(url, method, func(int) []byte { return body }, headers)
}

// loadBodies posts each worker's own body.
func loadBodies(url string, bodies [][]byte, headers func(worker int) map[string]string) result {
	return run(url, "POST", func(w int) []byte { return bodies[w] }, headers)
}

func run(url, method string, bodyOf func(worker int) []byte, headers func(worker int) map[string]string) result {
	l := newLoad(url, method, bodyOf, headers)
	defer l.close()
	l.runFor(*duration)
	return l.result()
}

// interleaved loads each target in turns of a second until each had
// *duration.
func interleaved(loads ...*loadRun) []result {
	for done := time.Duration(0); done < *duration; done += time.Second {
		turn := min(time.Second, *duration-done)
		for _, l := range loads {
			l.runFor(turn)
		}
	}
	out := make([]result, len(loads))
	for i, l := range loads {
		l.close()
		out[i] = l.result()
	}
	return out
}

// loadRun is one target loaded from *conns workers, possibly in several
// turns, with its connections kept between them.
type loadRun struct {
	url, method string
	bodyOf      func(worker int) []byte
	headers     func(worker int) map[string]string
	tr          *http.Transport
	client      *http.Client
	lat         []time.Duration
	codes       map[int]int64
	errs        int64
	elapsed     time.Duration
	pids        []int         // processes whose CPU time the turns count
	cpu         time.Duration // their CPU time during the turns
}

func newLoad(url, method string, bodyOf func(worker int) []byte, headers func(worker int) map[string]string) *loadRun {
	if bodyOf == nil {
		bodyOf = func(int) []byte { return nil }
	}
	tr := &http.Transport{MaxIdleConnsPerHost: *conns, MaxConnsPerHost: *conns}
	return &loadRun{url: url, method: method, bodyOf: bodyOf, headers: headers, tr: tr,
		client: &http.Client{Transport: tr, Timeout: 30 * time.Second}, lat: make([]time.Duration, 0, 1<<16), codes: map[int]int64{}}
}

func (l *loadRun) close() { l.tr.CloseIdleConnections() }

func (l *loadRun) runFor(d time.Duration) {
	var mu sync.Mutex
	var errs atomic.Int64
	deadline := time.Now().Add(d)
	var wg sync.WaitGroup
	cpu0 := l.cpuNow()
	start := time.Now()
	for w := 0; w < *conns; w++ {
		wg.Add(1)
		go func(w int) {
			defer wg.Done()
			var h map[string]string
			if l.headers != nil {
				h = l.headers(w)
			}
			body := l.bodyOf(w)
			local := make([]time.Duration, 0, 4096)
			localCodes := map[int]int64{}
			for time.Now().Before(deadline) {
				req, _ := http.NewRequest(l.method, l.url, bytes.NewReader(body))
				if body != nil {
					req.Header.Set("Content-Type", "application/json")
				}
				for k, v := range h {
					req.Header.Set(k, v)
				}
				t0 := time.Now()
				resp, err := l.client.Do(req)
				if err != nil {
					errs.Add(1)
					continue
				}
				io.Copy(io.Discard, resp.Body)
				resp.Body.Close()
				local = append(local, time.Since(t0))
				localCodes[resp.StatusCode]++
			}
			mu.Lock()
			l.lat = append(l.lat, local...)
			for k, v := range localCodes {
				l.codes[k] += v
			}
			mu.Unlock()
		}(w)
	}
	wg.Wait()
	l.elapsed += time.Since(start)
	l.cpu += l.cpuNow() - cpu0
	l.errs += errs.Load()
}

// cpuNow is the CPU time the processes of l.pids have used.
func (l *loadRun) cpuNow() time.Duration {
	var t time.Duration
	for _, p := range l.pids {
		t += cpuTime(p)
	}
	return t
}

func (l *loadRun) result() result {
	lat := l.lat
	sort.Slice(lat, func(i, j int) bool { return lat[i] < lat[j] })
	r := result{n: int64(len(lat)), errs: l.errs, codes: l.codes, rps: float64(len(lat)) / l.elapsed.Seconds()}
	if len(lat) > 0 && l.cpu > 0 {
		r.cpuPerReq = l.cpu / time.Duration(len(lat))
	}
	if len(lat) > 0 {
		r.p50, r.p99, r.pmax = lat[len(lat)/2], lat[len(lat)*99/100], lat[len(lat)-1]
	}
	return r
}

func fsyncRate(dir string) float64 {
	f, err := os.Create(filepath.Join(dir, "fsync-probe"))
	check(err)
	defer f.Close()
	buf := make([]byte, 4096)
	n, start := 0, time.Now()
	for time.Since(start) < 2*time.Second {
		_, err := f.WriteAt(buf, int64(n%64)*4096)
		check(err)
		check(f.Sync())
		n++
	}
	return float64(n) / time.Since(start).Seconds()
}

// bareHandler is the bare Echo JSON handler Layerfix is compared with.
func bareHandler() *echo.Echo {
	e := echo.New()
	e.HideBanner, e.HidePort = true, true
	e.GET("/hello", func(c echo.Context) error { return c.JSON(200, map[string]string{"hello": "world"}) })
	return e
}

// bareEcho serves the bare handler from this process.
func bareEcho() string {
	l, err := net.Listen("tcp", "127.0.0.1:0")
	check(err)
	go http.Serve(l, bareHandler()) //nolint:errcheck,gosec // a loopback benchmark server, stopped with the process
	return "http://" + l.Addr().String()
}

// serveBare is the child process startBare runs.
func serveBare(addr string) {
	check(http.ListenAndServe(addr, bareHandler())) //nolint:gosec // a loopback benchmark server, killed by its parent
}

// startBare runs the bare handler in a process of its own: this program
// again, with -serve-bare.
func startBare() *server {
	self, err := os.Executable()
	check(err)
	addr := freeAddr()
	cmd := exec.Command(self, "-serve-bare", addr)
	cmd.Stderr = os.Stderr
	return launch(cmd, addr, "/hello")
}

type server struct {
	url string
	cmd *exec.Cmd
}

var (
	startedMu sync.Mutex
	started   []*server
)

// stopAll stops every server still running (after a failure too).
func stopAll() {
	startedMu.Lock()
	defer startedMu.Unlock()
	for _, s := range started {
		if s.cmd.ProcessState == nil {
			s.cmd.Process.Kill()
			s.cmd.Wait()
		}
	}
	started = nil
}

func start(dir, name string, env map[string]string) *server {
	addr := freeAddr()
	data := filepath.Join(dir, name)
	cmd := exec.Command(*bin)
	cmd.Env = append(os.Environ(), "LAYERFIX_ADDR="+addr, "LAYERFIX_DATA_DIR="+data, "LAYERFIX_LOG_LEVEL=error")
	for k, v := range env {
		cmd.Env = append(cmd.Env, k+"="+v)
	}
	cmd.Stderr = os.Stderr
	return launch(cmd, addr, "/healthz")
}

// freeAddr is a loopback address with a port free a moment ago.
func freeAddr() string {
	l, err := net.Listen("tcp", "127.0.0.1:0")
	check(err)
	defer l.Close()
	return l.Addr().String()
}

// launch starts cmd, a server on addr, and waits until its health path
// answers 200.
func launch(cmd *exec.Cmd, addr, health string) *server {
	check(cmd.Start())
	s := &server{url: "http://" + addr, cmd: cmd}
	startedMu.Lock()
	started = append(started, s)
	startedMu.Unlock()
	for i := 0; i < 100; i++ {
		if resp, err := http.Get(s.url + health); err == nil {
			resp.Body.Close()
			if resp.StatusCode == 200 {
				return s
			}
		}
		time.Sleep(100 * time.Millisecond)
	}
	panic(cmd.Path + " did not start")
}

// startTimes times exec to the first 200 on /healthz, polled every 5 ms:
// the median of n starts on fresh data dirs and of n on an existing one,
// and of the time to the answer of an analysis sent once healthy.
func startTimes(dir string, n int) (fresh, existing, first time.Duration) {
	var f, e, a []time.Duration
	body := []byte(`{"category":"stringing","description":"Lots of thin strings between the two towers","printerBrand":"Ender 3","images":[]}`)
	for i := 0; i < n; i++ {
		data := filepath.Join(dir, fmt.Sprintf("start-%d", i))
		for _, list := range []*[]time.Duration{&f, &e} {
			t0, d, s := timeStart(data)
			*list = append(*list, d)
			resp, err := http.Post(s.url+"/api/troubleshoot", "application/json", bytes.NewReader(body))
			check(err)
			resp.Body.Close()
			if resp.StatusCode != 200 {
				panic(fmt.Sprintf("first analysis: HTTP %d", resp.StatusCode))
			}
			a = append(a, time.Since(t0))
			s.stop()
		}
	}
	return median(f), median(e), median(a)
}

func timeStart(data string) (time.Time, time.Duration, *server) {
	addr := freeAddr()
	cmd := exec.Command(*bin)
	cmd.Env = append(os.Environ(), "LAYERFIX_ADDR="+addr, "LAYERFIX_DATA_DIR="+data, "LAYERFIX_LOG_LEVEL=error")
	cmd.Stderr = os.Stderr
	client := &http.Client{Timeout: time.Second}
	t0 := time.Now()
	check(cmd.Start())
	s := &server{url: "http://" + addr, cmd: cmd}
	startedMu.Lock()
	started = append(started, s)
	startedMu.Unlock()
	for time.Since(t0) < 20*time.Second {
		if resp, err := client.Get(s.url + "/healthz"); err == nil {
			resp.Body.Close()
			if resp.StatusCode == 200 {
				return t0, time.Since(t0), s
			}
		}
		time.Sleep(5 * time.Millisecond)
	}
	panic("layerfix did not start")
}

func median(list []time.Duration) time.Duration {
	sort.Slice(list, func(i, j int) bool { return list[i] < list[j] })
	return list[len(list)/2]
}

func (s *server) stop() {
	s.cmd.Process.Signal(os.Interrupt)
	done := make(chan struct{})
	go func() { s.cmd.Wait(); close(done) }()
	select {
	case <-done:
	case <-time.After(20 * time.Second):
		s.cmd.Process.Kill()
		<-done
	}
}

// signup makes an account with one printer; it returns the token and the printer's id.
func signup(base string, i int) (string, int64) {
	b, _ := json.Marshal(map[string]string{"email": fmt.Sprintf("bench%d@example.com", i), "password": "gears-and-layers-9", "displayName": "Bench"})
	req, _ := http.NewRequestWithContext(context.Background(), "POST", base+"/api/auth/signup", bytes.NewReader(b))
	req.Header.Set("Content-Type", "application/json")
	req.Header.Set("X-Forwarded-For", fmt.Sprintf("203.0.%d.1", i))
	resp, err := http.DefaultClient.Do(req)
	check(err)
	defer resp.Body.Close()
	var out struct{ Token string }
	json.NewDecoder(resp.Body).Decode(&out)
	if out.Token == "" {
		panic(fmt.Sprintf("signup %d: HTTP %d", i, resp.StatusCode))
	}
	req, _ = http.NewRequest("POST", base+"/api/printers", bytes.NewReader([]byte(`{"name":"Bench","brand":"Prusa"}`)))
	req.Header.Set("Content-Type", "application/json")
	req.Header.Set("Authorization", "Bearer "+out.Token)
	resp2, err := http.DefaultClient.Do(req)
	check(err)
	defer resp2.Body.Close()
	var p struct{ ID int64 }
	json.NewDecoder(resp2.Body).Decode(&p)
	if p.ID == 0 {
		panic(fmt.Sprintf("printer %d: HTTP %d", i, resp2.StatusCode))
	}
	return out.Token, p.ID
}

func check(err error) {
	if err != nil {
		panic(err)
	}
}
