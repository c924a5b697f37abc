package ai

import (
	"context"
	"errors"
	"fmt"
	"time"
)

// EngineLoader builds the built-in engine in the background, so a server
// listens and answers its health checks while the engine's index is being
// built. It stands in for the engine: every method waits until the engine
// is built, an analysis as long as its context allows, and none longer
// than a minute. It is safe for concurrent use.
type EngineLoader struct {
	done chan struct{}
	e    *Engine
	err  error
}

// maxEngineWait bounds how long a call waits for the engine to be built.
// Building takes a fraction of a second on a PC and a few seconds on a
// Raspberry Pi Zero; past this bound something is wrong.
var maxEngineWait = time.Minute

// ErrEngineStarting is returned when the engine was not built within a
// minute.
var ErrEngineStarting = errors.New("the diagnostic engine is still starting")

var (
	_ Analyzer = (*EngineLoader)(nil)
	_ Grounder = (*EngineLoader)(nil)
)

// LoadEngine starts building an engine with build (NewEngine in
// production) and returns at once.
func LoadEngine(build func() (*Engine, error)) *EngineLoader {
	l := &EngineLoader{done: make(chan struct{})}
	go func() {
		defer close(l.done)
		defer func() {
			if r := recover(); r != nil {
				l.e, l.err = nil, fmt.Errorf("build the engine: %v", r)
			}
		}()
		l.e, l.err = build()
		if l.e == nil && l.err == nil {
			l.err = errors.New("build the engine: no engine")
		}
		if l.err == nil {
			// The example configs, once the engine serves: the first
			// request with a printer config need not wait for them.
			go func() { _, _ = loadStock() }()
		}
	}()
	return l
}

// Done is closed once the engine is built or has failed to build.
func (l *EngineLoader) Done() <-chan struct{} { return l.done }

// Engine waits for the engine and returns it, or the error that kept it
// from being built, ctx's error, or ErrEngineStarting.
func (l *EngineLoader) Engine(ctx context.Context) (*Engine, error) {
	select {
	case <-l.done:
		return l.e, l.err
	default:
	}
	t := time.NewTimer(maxEngineWait)
	defer t.Stop()
	select {
	case <-l.done:
		return l.e, l.err
	case <-ctx.Done():
		return nil, ctx.Err()
	case <-t.C:
		return nil, ErrEngineStarting
	}
}

// Analyze implements Analyzer.
func (l *EngineLoader) Analyze(ctx context.Context, req Request) (*Result, error) {
	e, err := l.Engine(ctx)
	if err != nil {
		return nil, err
	}
	return e.Analyze(ctx, req)
}

// Candidates implements Grounder; none while the engine cannot be had.
func (l *EngineLoader) Candidates(req Request, n int) []Candidate {
	e, err := l.Engine(context.Background())
	if err != nil {
		return nil
	}
	return e.Candidates(req, n)
}

// StepRefs is Engine.StepRefs; none while the engine cannot be had.
func (l *EngineLoader) StepRefs(req Request, titles []string) []string {
	e, err := l.Engine(context.Background())
	if err != nil {
		return nil
	}
	return e.StepRefs(req, titles)
}

// SetLocalCases is Engine.SetLocalCases.
func (l *EngineLoader) SetLocalCases(cases []Case) error {
	e, err := l.Engine(context.Background())
	if err != nil {
		return err
	}
	return e.SetLocalCases(cases)
}

// QuestionIDs is Engine.QuestionIDs; none while the engine cannot be had.
func (l *EngineLoader) QuestionIDs() map[string]bool {
	e, err := l.Engine(context.Background())
	if err != nil {
		return nil
	}
	return e.QuestionIDs()
}

// Diagnose is Engine.Diagnose; "" while the engine cannot be had.
func (l *EngineLoader) Diagnose(req Request) string {
	e, err := l.Engine(context.Background())
	if err != nil {
		return ""
	}
	return e.Diagnose(req)
}
