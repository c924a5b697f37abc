package server

import (
	"context"
	"errors"
	"net/http"
	"sync/atomic"
	"time"

	"golang.org/x/sync/semaphore"
)

// Memory that an anonymous client can make the server hold is bounded by two
// process-wide budgets, in bytes, shared by every route:
//   - bodyBudget: large request bodies in memory (the base64 photos of an
//     analysis, one uploaded file at a time);
//   - decodeBudget: decoded pixels (width × height × bytes per pixel, plus
//     the resized copies of an upload).
//
// A request waits for its share (at most budgetWait) and is told to retry
// when the server stays busy; a single item larger than the whole budget is
// refused outright. Two separate pools, always taken in the order body then
// decode, cannot deadlock. With GOMEMLIMIT (main.go) this keeps a Pi with
// 1 GB out of swap whatever arrives.
var (
	bodyBudget   = newMemBudget(48 << 20)
	decodeBudget = newMemBudget(80 << 20)
)

// budgetWait is how long a request waits for its share of a budget.
var budgetWait = 20 * time.Second

var (
	errBudgetTooBig = errors.New("larger than the server can process at once")
	errBudgetBusy   = errors.New("server busy")
)

type memBudget struct {
	sem   *semaphore.Weighted
	size  int64
	inUse atomic.Int64
	peak  atomic.Int64 // high-water mark, for tests and the attack script
}

func newMemBudget(size int64) *memBudget {
	return &memBudget{sem: semaphore.NewWeighted(size), size: size}
}

// acquire reserves n bytes; release gives them back (call it exactly once).
func (b *memBudget) acquire(ctx context.Context, n int64) (release func(), err error) {
	if n <= 0 {
		return func() {}, nil
	}
	if n > b.size {
		return nil, errBudgetTooBig
	}
	wctx, cancel := context.WithTimeout(ctx, budgetWait)
	defer cancel()
	if err := b.sem.Acquire(wctx, n); err != nil {
		if ctx.Err() != nil {
			return nil, ctx.Err()
		}
		return nil, errBudgetBusy
	}
	now := b.inUse.Add(n)
	for {
		p := b.peak.Load()
		if now <= p || b.peak.CompareAndSwap(p, now) {
			break
		}
	}
	var done atomic.Bool
	return func() {
		if done.CompareAndSwap(false, true) {
			b.inUse.Add(-n)
			b.sem.Release(n)
		}
	}, nil
}

// budgetErr maps a budget failure to its answer.
func budgetErr(err error) error {
	switch {
	case errors.Is(err, errBudgetBusy):
		return apiErr(http.StatusTooManyRequests, "BUSY", "The server is busy processing photos. Please try again in a minute.")
	case errors.Is(err, context.Canceled), errors.Is(err, context.DeadlineExceeded):
		return apiErr(499, "CLIENT_CLOSED", "The request was cancelled.")
	}
	return err
}

// bodySize is the most a request's body can be: its Content-Length, or the
// route's limit when the length is unknown.
func bodySize(r *http.Request, limit int64) int64 {
	if r.ContentLength >= 0 && r.ContentLength < limit {
		return r.ContentLength
	}
	return limit
}
