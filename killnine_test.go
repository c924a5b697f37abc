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

	"github.com/layerfix/layerfix/store"
)

// TestMain lets a test start this binary as a real server process
// (LAYERFIX_TEST_SERVE=1), so a test can kill it with SIGKILL.
func TestMain(m *testing.M) {
	if os.Getenv("LAYERFIX_TEST_SERVE") == "1" {
		if err := run(nil); err != nil {
			fmt.Fprintln(os.Stderr, err)
			os.Exit(1)
		}
		os.Exit(0)
	}
	os.Exit(m.Run())
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
	l, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	addr := l.Addr().String()
	l.Close()
	cmd := exec.Command(os.Args[0], "-test.run=^$")
	cmd.Env = append(os.Environ(), "LAYERFIX_TEST_SERVE=1", "LAYERFIX_ADDR="+addr, "LAYERFIX_DATA_DIR="+dir,
		"LAYERFIX_TRUSTED_PROXIES=127.0.0.1/32", "LAYERFIX_ANON_MONTHLY_LIMIT=1000000",
		"LAYERFIX_NETWORK_MONTHLY_LIMIT=unlimited", "LAYERFIX_LOG_LEVEL=error")
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	defer cmd.Process.Kill()
	base := "http://" + addr
	// Generous: under -race on a busy 2-core machine the start is slow.
	exited := make(chan error, 1)
	go func() { exited <- cmd.Wait() }()
	for deadline := time.Now().Add(90 * time.Second); ; {
		if resp, err := http.Get(base + "/healthz"); err == nil {
			resp.Body.Close()
			break
		}
		select {
		case err := <-exited:
			t.Fatalf("server exited before it was healthy: %v", err)
		default:
		}
		if time.Now().After(deadline) {
			t.Fatal("server did not start in 90 s")
		}
		time.Sleep(100 * time.Millisecond)
	}

	body := []byte(`{"category":"stringing","description":"Thin strings between the two towers","printerBrand":"Ender 3","images":[]}`)
	const workers = 16
	acked := make([]atomic.Int64, workers)
	var total atomic.Int64
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
					return // the server is gone
				}
				resp.Body.Close()
				if resp.StatusCode == 200 {
					acked[w].Add(1)
					total.Add(1)
				}
			}
		}(w)
	}
	for total.Load() < 2000 {
		time.Sleep(10 * time.Millisecond)
	}
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
