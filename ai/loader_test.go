package ai

import (
	"context"
	"errors"
	"strings"
	"testing"
	"time"
)

// TestEngineLoaderWaitsForTheEngine: calls made while the engine is being
// built wait and then get the engine's answers; a failed or panicking
// build is every call's error; a call gives up with its context or after
// the bound.
func TestEngineLoaderWaitsForTheEngine(t *testing.T) {
	gate := make(chan struct{})
	l := LoadEngine(func() (*Engine, error) {
		<-gate
		return NewEngine()
	})
	req := Request{Category: "stringing", Description: "Thin strings between the towers", PrinterBrand: "Ender 3"}

	ctx, cancel := context.WithTimeout(context.Background(), 20*time.Millisecond)
	defer cancel()
	if _, err := l.Analyze(ctx, req); !errors.Is(err, context.DeadlineExceeded) {
		t.Fatalf("analysis with an expired context while building: %v", err)
	}
	defer func(d time.Duration) { maxEngineWait = d }(maxEngineWait)
	maxEngineWait = 20 * time.Millisecond
	if _, err := l.Analyze(context.Background(), req); !errors.Is(err, ErrEngineStarting) {
		t.Fatalf("analysis past the bound: %v", err)
	}
	if got := l.Candidates(req, 3); got != nil {
		t.Fatalf("candidates past the bound: %v", got)
	}
	maxEngineWait = time.Minute

	answered := make(chan *Result, 1)
	go func() {
		res, err := l.Analyze(context.Background(), req)
		if err != nil {
			t.Error(err)
		}
		answered <- res
	}()
	select {
	case <-answered:
		t.Fatal("answered before the engine was built")
	case <-time.After(50 * time.Millisecond):
	}
	close(gate)
	res := <-answered
	e := sharedEngine(t)
	want, _ := e.Analyze(context.Background(), req)
	if res == nil || res.Summary != want.Summary || len(res.Steps) != len(want.Steps) {
		t.Fatalf("the loader's answer differs from the engine's: %+v", res)
	}
	if len(l.Candidates(req, 3)) != 3 || len(l.QuestionIDs()) == 0 {
		t.Fatal("candidates or questions missing once built")
	}
	if err := l.SetLocalCases(nil); err != nil {
		t.Fatal(err)
	}

	for name, build := range map[string]func() (*Engine, error){
		"error": func() (*Engine, error) { return nil, errors.New("broken kb") },
		"panic": func() (*Engine, error) { panic("broken kb") },
	} {
		l := LoadEngine(build)
		<-l.Done()
		if _, err := l.Analyze(context.Background(), req); err == nil || !strings.Contains(err.Error(), "broken kb") {
			t.Fatalf("%s: analysis with a broken engine: %v", name, err)
		}
		if err := l.SetLocalCases(nil); err == nil {
			t.Fatalf("%s: local cases taken without an engine", name)
		}
	}
}

// TestEngineLoaderDiagnoses: the loader the server runs names the
// category an issue left on "Other" is saved with, as the engine does.
func TestEngineLoaderDiagnoses(t *testing.T) {
	var l interface{ Diagnose(Request) string } = LoadEngine(NewEngine)
	req := Request{Category: "other", Description: "The nozzle is clogged: nothing comes out and the extruder clicks."}
	if got := l.Diagnose(req); got != "extrusion-issues" {
		t.Fatalf("diagnosed %q, want extrusion-issues", got)
	}
}
