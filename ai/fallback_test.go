package ai

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"log/slog"
	"strings"
	"sync"
	"testing"
)

// fallbackStub is an Analyzer that answers with a fixed result or error.
type fallbackStub struct {
	res *Result
	err error
	mu  sync.Mutex
	n   int
}

func (s *fallbackStub) Analyze(context.Context, Request) (*Result, error) {
	s.mu.Lock()
	s.n++
	s.mu.Unlock()
	return s.res, s.err
}

func (s *fallbackStub) calls() int {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.n
}

func TestWithFallback(t *testing.T) {
	primaryRes := &Result{Summary: "primary"}
	engineRes := &Result{Summary: "engine"}
	tests := []struct {
		name       string
		primaryErr error
		enabled    bool
		wantRes    *Result
		wantReason string // "" when the primary answered
	}{
		{name: "primary answers", enabled: true, wantRes: primaryRes},
		{
			name:       "provider error falls back",
			primaryErr: &ProviderError{Provider: "Gemini", Reason: ReasonRateLimited, Err: errors.New("HTTP 429")},
			enabled:    true, wantRes: engineRes, wantReason: ReasonRateLimited,
		},
		{
			name:       "bare deadline counts as timeout",
			primaryErr: fmt.Errorf("call: %w", context.DeadlineExceeded),
			enabled:    true, wantRes: engineRes, wantReason: ReasonTimeout,
		},
		{
			name:       "unknown error counts as other",
			primaryErr: errors.New("boom"),
			enabled:    true, wantRes: engineRes, wantReason: ReasonOther,
		},
		{
			name:       "fallback off returns the provider error",
			primaryErr: &ProviderError{Provider: "Gemini", Reason: ReasonServerError, Err: errors.New("HTTP 503")},
			enabled:    false, wantReason: ReasonServerError,
		},
		{
			name:       "fallback off wraps a bare error",
			primaryErr: errors.New("boom"),
			enabled:    false, wantReason: ReasonOther,
		},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			primary := &fallbackStub{res: primaryRes, err: tc.primaryErr}
			if tc.primaryErr != nil {
				primary.res = nil
			}
			engine := &fallbackStub{res: engineRes}
			var logs bytes.Buffer
			an := WithFallback(primary, engine, tc.enabled, slog.New(slog.NewTextHandler(&logs, nil)))
			before := FallbackCounts()

			res, err := an.Analyze(context.Background(), Request{Description: "lines look round"})

			if tc.wantRes != nil {
				if err != nil || res.Summary != tc.wantRes.Summary {
					t.Fatalf("got %v, %v; want %q", res, err, tc.wantRes.Summary)
				}
			} else {
				if !errors.Is(err, ErrUnavailable) || !errors.Is(err, tc.primaryErr) {
					t.Fatalf("err = %v, want one wrapping ErrUnavailable and the cause", err)
				}
				if !strings.Contains(err.Error(), "Gemini AI provider") {
					t.Errorf("err %q does not name the Gemini AI provider", err)
				}
				if engine.calls() != 0 {
					t.Errorf("fallback called although it is off")
				}
			}
			if tc.wantRes == engineRes && res.Engine != EngineFallback {
				t.Errorf("a fallback answer says engine %q, want %q", res.Engine, EngineFallback)
			}
			if tc.wantReason == "" {
				if engine.calls() != 0 || logs.Len() != 0 {
					t.Errorf("fallback called or failure logged although the primary answered: %s", logs.String())
				}
				return
			}
			if got := FallbackCounts()[tc.wantReason] - before[tc.wantReason]; got != 1 {
				t.Errorf("FallbackCounts()[%q] grew by %d, want 1", tc.wantReason, got)
			}
			if !strings.Contains(logs.String(), "reason="+tc.wantReason) {
				t.Errorf("log does not say the reason %q: %s", tc.wantReason, logs.String())
			}
		})
	}
}

func TestWithFallbackEngineFails(t *testing.T) {
	primary := &fallbackStub{err: &ProviderError{Provider: "Gemini", Reason: ReasonTimeout, Err: context.DeadlineExceeded}}
	engine := &fallbackStub{err: errors.New("knowledge base missing")}
	an := WithFallback(primary, engine, true, slog.New(slog.DiscardHandler))
	if _, err := an.Analyze(context.Background(), Request{}); !errors.Is(err, ErrUnavailable) {
		t.Fatalf("err = %v, want one wrapping ErrUnavailable", err)
	}
}

func TestFallbackCountsConcurrent(t *testing.T) {
	primary := &fallbackStub{err: &ProviderError{Provider: "Gemini", Reason: ReasonBlocked, Err: errors.New("SAFETY")}}
	an := WithFallback(primary, &fallbackStub{res: &Result{}}, true, slog.New(slog.DiscardHandler))
	before := FallbackCounts()[ReasonBlocked]
	const n = 50
	var wg sync.WaitGroup
	for range n {
		wg.Go(func() {
			_, _ = an.Analyze(context.Background(), Request{})
			_ = FallbackCounts()
		})
	}
	wg.Wait()
	if got := FallbackCounts()[ReasonBlocked] - before; got != n {
		t.Errorf("blocked grew by %d, want %d", got, n)
	}
	m := FallbackCounts()
	m[ReasonBlocked] = -1
	if FallbackCounts()[ReasonBlocked] == -1 {
		t.Error("FallbackCounts returned the live map, want a copy")
	}
}
