package main

import (
	"encoding/json"
	"errors"
	"io"
	"net/http"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/layerfix/layerfix/ai"
)

// TestHealthyBeforeTheEngineIsBuilt starts the real server process with
// an engine whose index cannot be built until the test allows it:
// /healthz answers at once, an analysis sent meanwhile waits instead of
// failing, and it gets the engine's diagnosis once the index is built.
func TestHealthyBeforeTheEngineIsBuilt(t *testing.T) {
	if testing.Short() {
		t.Skip("starts a server process")
	}
	// The engine stays unbuilt however long the start takes.
	dir := t.TempDir()
	gate := filepath.Join(dir, "engine-gate")
	srv := startServerProcess(t, "LAYERFIX_TEST_ENGINE_GATE="+gate, "LAYERFIX_DATA_DIR="+filepath.Join(dir, "data"))
	defer func() {
		srv.cmd.Process.Signal(os.Interrupt)
		select {
		case <-srv.exited:
		case <-time.After(20 * time.Second):
		}
	}()
	base := srv.base
	client := &http.Client{Timeout: 30 * time.Second}

	type answer struct {
		code int
		body string
		err  error
	}
	answered := make(chan answer, 1)
	go func() {
		body := `{"category":"stringing","description":"Lots of thin strings between the two towers, PETG on my Ender 3","material":"PETG","nozzleTemp":245,"printerBrand":"Creality Ender 3 V2","images":[]}`
		resp, err := client.Post(base+"/api/troubleshoot", "application/json", strings.NewReader(body))
		if err != nil {
			answered <- answer{err: err}
			return
		}
		defer resp.Body.Close()
		b, err := io.ReadAll(resp.Body)
		answered <- answer{code: resp.StatusCode, body: string(b), err: err}
	}()
	select {
	case a := <-answered:
		t.Fatalf("the analysis answered before the engine was built: %d %s %v", a.code, a.body, a.err)
	case <-time.After(500 * time.Millisecond):
	}
	if resp, err := client.Get(base + "/healthz"); err != nil || resp.StatusCode != http.StatusOK {
		t.Fatalf("/healthz while an analysis waits: %v %v", resp, err)
	} else {
		resp.Body.Close()
	}

	if err := os.WriteFile(gate, nil, 0o600); err != nil {
		t.Fatal(err)
	}
	a := <-answered
	if a.err != nil || a.code != http.StatusOK {
		t.Fatalf("analysis after the engine was built: %d %s %v", a.code, a.body, a.err)
	}
	var res ai.Result
	if err := json.Unmarshal([]byte(a.body), &res); err != nil || len(res.Steps) < 3 {
		t.Fatalf("result %s", a.body)
	}
	if !strings.Contains(strings.ToLower(a.body), "retract") {
		t.Fatalf("not the engine's diagnosis of stringing: %s", a.body)
	}
}

// TestServeStopsWhenTheEngineCannotBeBuilt: an engine that fails to build
// in the background stops the server with the reason, as it did when the
// engine was built before listening.
func TestServeStopsWhenTheEngineCannotBeBuilt(t *testing.T) {
	defer func(b func() (*ai.Engine, error)) { buildEngine = b }(buildEngine)
	buildEngine = func() (*ai.Engine, error) {
		time.Sleep(100 * time.Millisecond)
		return nil, errors.New("mode x: no fixes")
	}
	done := make(chan error, 1)
	go func() {
		done <- serve([]string{"--addr=127.0.0.1:0", "--data-dir=" + t.TempDir(), "--log-level=error"})
	}()
	select {
	case err := <-done:
		if err == nil || !strings.Contains(err.Error(), "load the diagnostic knowledge base: mode x: no fixes") {
			t.Fatalf("serve returned %v", err)
		}
	case <-time.After(30 * time.Second):
		t.Fatal("the server kept running without an engine")
	}
}
