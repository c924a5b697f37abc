package main

import (
	"bytes"
	"context"
	"fmt"
	"net"
	"net/http"
	"os"
	"os/exec"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/layerfix/layerfix/ai"
	"github.com/layerfix/layerfix/store"
)

// TestMain lets a test start this binary as a real server process
// (LAYERFIX_TEST_SERVE=1), so a test can kill it with SIGKILL. With
// LAYERFIX_TEST_ENGINE_GATE set to a path, the engine's index is built
// only once that file exists.
func TestMain(m *testing.M) {
	if os.Getenv("LAYERFIX_TEST_SERVE") == "1" {
		if gate := os.Getenv("LAYERFIX_TEST_ENGINE_GATE"); gate != "" {
			buildEngine = func() (*ai.Engine, error) {
				for {
					if _, err := os.Stat(gate); err == nil {
						return ai.NewEngine()
					}
					time.Sleep(5 * time.Millisecond)
				}
			}
		}
		if err := run(nil); err != nil {
			fmt.Fprintln(os.Stderr, err)
			os.Exit(1)
		}
		os.Exit(0)
	}
	os.Exit(m.Run())
}

// serverProcess is this test binary running as the real server.
type serverProcess struct {
	base   string // http://127.0.0.1:port
	cmd    *exec.Cmd
	exited chan error // cmd.Wait's answer
}

// startServerProcess starts the server on a free loopback port, logging
// errors only, with env added, and waits for /healthz to answer 200 (90 s:
// under -race on a busy 2-core machine the start is slow). The process is
// killed when the test ends.
func startServerProcess(t *testing.T, env ...string) *serverProcess {
	t.Helper()
	l, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	addr := l.Addr().String()
	l.Close()
	cmd := exec.Command(os.Args[0], "-test.run=^$")
	cmd.Env = append(append(os.Environ(), "LAYERFIX_TEST_SERVE=1", "LAYERFIX_ADDR="+addr, "LAYERFIX_LOG_LEVEL=error"), env...)
	cmd.Stderr = os.Stderr
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	p := &serverProcess{base: "http://" + addr, cmd: cmd, exited: make(chan error, 1)}
	go func() { p.exited <- cmd.Wait() }()
	t.Cleanup(func() { cmd.Process.Kill() })
	client := &http.Client{Timeout: 10 * time.Second}
	for deadline := time.Now().Add(90 * time.Second); ; {
		if resp, err := client.Get(p.base + "/healthz"); err == nil {
			resp.Body.Close()
			if resp.StatusCode == http.StatusOK {
				return p
			}
		}
		select {
		case err := <-p.exited:
			t.Fatalf("server exited before it was healthy: %v", err)
		default:
		}
		if time.Now().After(deadline) {
			t.Fatal("/healthz did not answer 200 in 90 s")
		}
		time.Sleep(5 * time.Millisecond)
	}
}

// TestKillNineLosesNoAcknowledgedWrite: 16 clients, each its own address,
// count analyses as fast as they can through group commit; the server is
// killed with SIGKILL mid-load. Every analysis it acknowledged (200) is in
// the database afterwards.
func TestKillNineLosesNoAcknowledgedWrite(t *testing.T) {
	if testing.Short() {
		t.Skip("starts a server process")
	}
	dir := t.TempDir()
	srv := startServerProcess(t, "LAYERFIX_DATA_DIR="+dir, "LAYERFIX_TRUSTED_PROXIES=127.0.0.1/32",
		"LAYERFIX_ANON_MONTHLY_LIMIT=1000000", "LAYERFIX_NETWORK_MONTHLY_LIMIT=unlimited")
	base, cmd, exited := srv.base, srv.cmd, srv.exited

	body := []byte(`{"category":"stringing","description":"Thin strings between the two towers","printerBrand":"Ender 3","images":[]}`)
	const workers = 16
	acked := make([]atomic.Int64, workers)
	var total atomic.Int64
	var killed atomic.Bool
	var wg sync.WaitGroup
	client := &http.Client{Timeout: 10 * time.Second, Transport: &http.Transport{MaxIdleConnsPerHost: workers}}
	for w := 0; w < workers; w++ {
		wg.Add(1)
		go func(w int) {
			defer wg.Done()
			for {
				req, _ := http.NewRequest("POST", base+"/api/troubleshoot", bytes.NewReader(body))
				req.Header.Set("Content-Type", "application/json")
				req.Header.Set("X-Forwarded-For", fmt.Sprintf("198.51.100.%d", w+1))
				resp, err := client.Do(req)
				if err != nil {
					if killed.Load() {
						return // the server is gone
					}
					// A slow answer (the engine still building on a busy
					// machine) is retried: only the kill ends the load.
					continue
				}
				resp.Body.Close()
				if resp.StatusCode == 200 {
					acked[w].Add(1)
					total.Add(1)
				}
			}
		}(w)
	}
	for deadline := time.Now().Add(5 * time.Minute); total.Load() < 2000; time.Sleep(10 * time.Millisecond) {
		if time.Now().After(deadline) {
			killed.Store(true)
			cmd.Process.Kill()
			t.Fatalf("%d analyses acknowledged in 5 minutes, want 2000", total.Load())
		}
	}
	killed.Store(true)
	if err := cmd.Process.Signal(os.Kill); err != nil {
		t.Fatal(err)
	}
	<-exited
	wg.Wait()

	st, err := store.Open(context.Background(), store.Options{DataDir: dir})
	if err != nil {
		t.Fatal(err)
	}
	defer st.Close()
	var stored int64
	for w := 0; w < workers; w++ {
		n, err := st.AnonymousUsage(context.Background(), fmt.Sprintf("198.51.100.%d", w+1), time.Now())
		if err != nil {
			t.Fatal(err)
		}
		if int64(n) < acked[w].Load() {
			t.Errorf("address %d: %d analyses acknowledged, %d stored after kill -9", w+1, acked[w].Load(), n)
		}
		stored += int64(n)
	}
	t.Logf("acknowledged %d analyses before SIGKILL; %d stored afterwards", total.Load(), stored)
}
