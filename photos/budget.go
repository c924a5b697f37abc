package photos

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
//   - Body: large request bodies in memory (the base64 photos of an
//     analysis, one uploaded file at a time);
//   - Decode: decoded pixels (width × height × bytes per pixel, plus
//     the resized copies of an upload).
//
// A request waits for its share (at most budgetWait) and is told to retry
// when the server stays busy; a single item larger than the whole budget is
// refused outright. Two separate pools, always taken in the order body then
// decode, cannot deadlock. With GOMEMLIMIT (main.go) this keeps a Pi with
// 1 GB out of swap whatever arrives.
var (
	Body   = NewBudget(48 << 20)
	Decode = NewBudget(80 << 20)
)

// budgetWait is how long a request waits for its share of a budget.
var budgetWait = 20 * time.Second

var (
	errTooBig = errors.New("larger than the server can process at once")
	// ErrBusy means the budget stayed taken for budgetWait; the client may retry.
	ErrBusy = errors.New("server busy")
)

// Budget is a pool of bytes that requests wait for their share of.
type Budget struct {
	sem   *semaphore.Weighted
	size  int64
	inUse atomic.Int64
	peak  atomic.Int64 // high-water mark, for tests and the attack script
}

// NewBudget is a budget of size bytes.
func NewBudget(size int64) *Budget {
	return &Budget{sem: semaphore.NewWeighted(size), size: size}
}

// wait waits up to budgetWait for n bytes.
func (b *Budget) wait(ctx context.Context, n int64) error {
	wctx, cancel := context.WithTimeout(ctx, budgetWait)
	defer cancel()
	if err := b.sem.Acquire(wctx, n); err != nil {
		if ctx.Err() != nil {
			return ctx.Err()
		}
		return ErrBusy
	}
	return nil
}

// Acquire reserves n bytes; release gives them back (call it exactly once).
func (b *Budget) Acquire(ctx context.Context, n int64) (release func(), err error) {
	if n <= 0 {
		return func() {}, nil
	}
	if n > b.size {
		return nil, errTooBig
	}
	// The share is free at once almost always: the timer of a wait is made
	// only when it is not (a timer per request costs as much as the rest).
	if !b.sem.TryAcquire(n) {
		if err := b.wait(ctx, n); err != nil {
			return nil, err
		}
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

// BodySize is the most a request's body can be: its Content-Length, or the
// route's limit when the length is unknown.
func BodySize(r *http.Request, limit int64) int64 {
	if r.ContentLength >= 0 && r.ContentLength < limit {
		return r.ContentLength
	}
	return limit
}

// Size is the whole budget in bytes.
func (b *Budget) Size() int64 { return b.size }

// Peak is the most bytes held at once.
func (b *Budget) Peak() int64 { return b.peak.Load() }

// InUse is the bytes held now.
func (b *Budget) InUse() int64 { return b.inUse.Load() }
