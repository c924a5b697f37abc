package ai

import (
	"context"
	"errors"
	"fmt"
	"log/slog"
	"maps"
	"sync"
	"time"
)

// Reason classes of a failed remote analysis, used in logs and counters.
const (
	ReasonTimeout      = "timeout"
	ReasonRateLimited  = "rate_limited"
	ReasonServerError  = "server_error"
	ReasonBlocked      = "blocked"
	ReasonInvalidReply = "invalid_reply"
	ReasonClientError  = "client_error"
	ReasonOther        = "other"
)

// ProviderError is a failed analysis by a remote AI provider. It wraps
// ErrUnavailable and the cause, and its message names the provider, e.g.
// "Gemini AI provider unavailable (timeout): ...".
type ProviderError struct {
	Provider string // display name: "Gemini", "OpenAI-compatible"
	Reason   string // one of the Reason constants
	Err      error
	// Engine (EngineGemini, EngineOpenAI) and Model name the remote model
	// that failed; an empty Engine is Gemini's.
	Engine, Model string
}

func (e *ProviderError) Error() string {
	return fmt.Sprintf("%s AI provider unavailable (%s): %v", e.Provider, e.Reason, e.Err)
}

// Unwrap lets errors.Is find both ErrUnavailable and the cause.
func (e *ProviderError) Unwrap() []error {
	return []error{ErrUnavailable, e.Err}
}

// failureReason is the reason class of an error from a primary analyzer.
func failureReason(err error) string {
	var pe *ProviderError
	switch {
	case errors.As(err, &pe):
		return pe.Reason
	case errors.Is(err, context.DeadlineExceeded):
		return ReasonTimeout
	default:
		return ReasonOther
	}
}

// fallbackCounter counts primary failures by engine and reason class.
type fallbackCounter struct {
	mu     sync.Mutex
	counts map[string]map[string]int64 // engine -> reason -> count
}

func (c *fallbackCounter) add(engine, reason string) {
	c.mu.Lock()
	defer c.mu.Unlock()
	if c.counts == nil {
		c.counts = make(map[string]map[string]int64)
	}
	if c.counts[engine] == nil {
		c.counts[engine] = make(map[string]int64)
	}
	c.counts[engine][reason]++
}

func (c *fallbackCounter) snapshot(engine string) map[string]int64 {
	c.mu.Lock()
	defer c.mu.Unlock()
	m := maps.Clone(c.counts[engine])
	if m == nil {
		m = map[string]int64{}
	}
	return m
}

var fallbacks fallbackCounter

// FailureCounts reports, per reason class, how many analyses the remote
// engine (EngineGemini, EngineOpenAI) failed as the primary analyzer of
// WithFallback since start: each was answered by the fallback, or with an
// error when the fallback is off. The map is a copy.
func FailureCounts(engine string) map[string]int64 { return fallbacks.snapshot(engine) }

// FallbackCounts is FailureCounts of Gemini.
func FallbackCounts() map[string]int64 { return FailureCounts(EngineGemini) }

// Remote is an analyzer that asks a remote model.
type Remote interface {
	Analyzer
	// Answerer names the engine (EngineGemini, EngineOpenAI), the model
	// and the provider as the maker reads it ("Gemini").
	Answerer() (engine, model, provider string)
}

type withFallback struct {
	primary                 Analyzer
	fallback                Analyzer
	enabled                 bool
	log                     *slog.Logger
	engine, model, provider string // the primary's, from Remote
}

// WithFallback returns an Analyzer that asks primary first. When primary
// fails, it logs why, counts the reason (FallbackCounts) and returns
// fallback's result, marked EngineFallback with the failed engine and
// model; with enabled false it returns the failure instead, as a
// *ProviderError wrapping ErrUnavailable whose message names the provider
// (Gemini unless primary is a Remote that says otherwise).
func WithFallback(primary, fallback Analyzer, enabled bool, log *slog.Logger) Analyzer {
	if log == nil {
		log = slog.Default()
	}
	w := &withFallback{primary: primary, fallback: fallback, enabled: enabled, log: log,
		engine: EngineGemini, provider: geminiProvider}
	if r, ok := primary.(Remote); ok {
		w.engine, w.model, w.provider = r.Answerer()
	}
	return w
}

func (w *withFallback) Analyze(ctx context.Context, req Request) (*Result, error) {
	start := time.Now()
	res, err := w.primary.Analyze(ctx, req)
	if err == nil {
		return res, nil
	}
	reason := failureReason(err)
	var pe *ProviderError
	if !errors.As(err, &pe) {
		pe = &ProviderError{Provider: w.provider, Reason: reason, Err: err, Engine: w.engine, Model: w.model}
		err = pe
	}
	fallbacks.add(w.engine, reason)
	if !w.enabled || w.fallback == nil {
		w.log.Warn("AI analysis failed, fallback off", "provider", pe.Provider,
			"reason", reason, "error", err.Error(), "elapsed", time.Since(start))
		return nil, err
	}
	w.log.Warn("AI analysis failed, using the built-in engine", "provider", pe.Provider,
		"reason", reason, "error", err.Error(), "elapsed", time.Since(start))
	res, fbErr := w.fallback.Analyze(ctx, req)
	if fbErr != nil {
		w.log.Error("built-in engine failed after AI failure", "error", fbErr.Error())
		return nil, fmt.Errorf("%w; fallback: %v", err, fbErr)
	}
	// A copy: the fallback's result may be shared (a cache, a stub), so it is not written to.
	out := *res
	out.Engine, out.Model, out.FallbackFrom = EngineFallback, w.model, w.engine
	return &out, nil
}

// Answerer names the primary (Remote), so that a failure it returns is
// counted under its engine.
func (w *withFallback) Answerer() (engine, model, provider string) {
	return w.engine, w.model, w.provider
}
