package server

import (
	"context"
	"crypto/sha256"
	"encoding/hex"
	"errors"
	"sync"
	"time"

	"github.com/layerfix/layerfix/store"
)

// limiterKey is what a limiter stores for a key an attacker controls (an
// email, an address): a fixed-size hash, never the string itself.
func limiterKey(kind, s string) string {
	h := sha256.Sum256([]byte(kind + "\x00" + s))
	return hex.EncodeToString(h[:12])
}

// maxLimiterKeys bounds every in-memory limiter: past it, expired entries
// are dropped, and when none has expired the limiter refuses new keys (it
// fails closed) until some do.
const maxLimiterKeys = 100_000

// errLimiterFull: an in-memory limiter holds maxLimiterKeys live keys.
var errLimiterFull = errors.New("limiter full")

// limitStates keeps limiter counters. A server with its own SQLite data
// dir keeps them in memory; servers sharing a PostgreSQL database keep
// them in it, so a limit holds across every instance behind the load
// balancer instead of multiplying by their number.
type limitStates interface {
	// update runs fn on key's state, alone among updates of key, and keeps
	// the result until expires.
	update(ctx context.Context, key string, expires time.Time, fn func(*store.LimitState)) error
	remove(ctx context.Context, key string) error
}

// newLimitStates is the database when it is shared (PostgreSQL), memory
// otherwise. name keeps each limiter's keys apart in the shared table.
func newLimitStates(st *store.Store, name string, now func() time.Time) limitStates {
	if st != nil && st.Dialect() == store.Postgres {
		return dbLimits{st: st, name: name}
	}
	return &memLimits{now: now, entries: map[string]*memLimit{}}
}

type dbLimits struct {
	st   *store.Store
	name string
}

func (d dbLimits) update(ctx context.Context, key string, expires time.Time, fn func(*store.LimitState)) error {
	return d.st.UpdateLimit(ctx, limiterKey(d.name, key), expires, fn)
}

func (d dbLimits) remove(ctx context.Context, key string) error {
	return d.st.DeleteLimit(ctx, limiterKey(d.name, key))
}

type memLimits struct {
	now     func() time.Time
	mu      sync.Mutex
	entries map[string]*memLimit
}

type memLimit struct {
	st      store.LimitState
	expires time.Time
}

func (m *memLimits) update(_ context.Context, key string, expires time.Time, fn func(*store.LimitState)) error {
	m.mu.Lock()
	defer m.mu.Unlock()
	e := m.entries[key]
	if e == nil {
		if len(m.entries) >= maxLimiterKeys && !m.sweep() {
			return errLimiterFull
		}
		e = &memLimit{}
		m.entries[key] = e
	}
	fn(&e.st)
	e.expires = expires
	return nil
}

func (m *memLimits) remove(_ context.Context, key string) error {
	m.mu.Lock()
	defer m.mu.Unlock()
	delete(m.entries, key)
	return nil
}

// sweep drops expired entries; it reports whether there is room now.
func (m *memLimits) sweep() bool {
	now := m.now()
	for k, e := range m.entries {
		if !now.Before(e.expires) {
			delete(m.entries, k)
		}
	}
	return len(m.entries) < maxLimiterKeys
}

func (m *memLimits) size() int {
	m.mu.Lock()
	defer m.mu.Unlock()
	return len(m.entries)
}

// attemptLimiter counts failed attempts per key in a sliding window and
// makes each attempt reserve its place before the expensive work (the
// password hash), so concurrent guesses can never exceed the limit. A
// successful attempt gives its place back.
//
// With backoff set, a key at the limit is locked for a time that doubles
// with each further failure (backoff, 2×backoff, ... up to window) instead
// of for the whole window: spraying wrong passwords at a victim's email
// from many addresses delays the victim by minutes, not for good, and a
// verified password reset clears it at once.
type attemptLimiter struct {
	limit   int
	window  time.Duration
	backoff time.Duration // 0: locked for the rest of the window
	now     func() time.Time
	keys    limitStates
}

func newAttemptLimiter(keys limitStates, limit int, window, backoff time.Duration, now func() time.Time) *attemptLimiter {
	return &attemptLimiter{limit: limit, window: window, backoff: backoff, now: now, keys: keys}
}

// reserve takes a place for one attempt; it reports false (and how long to
// wait) when key is locked.
func (l *attemptLimiter) reserve(ctx context.Context, key string) (ok bool, wait time.Duration, err error) {
	now := l.now()
	err = l.keys.update(ctx, key, now.Add(l.window), func(a *store.LimitState) {
		if now.Sub(a.Start) >= l.window {
			*a = store.LimitState{Start: now}
		}
		if a.N >= l.limit {
			if l.backoff == 0 {
				wait = a.Start.Add(l.window).Sub(now)
				return
			}
			if a.Next.IsZero() { // the limit was just reached: the first lock starts
				a.Next = now.Add(l.backoff)
			}
			if now.Before(a.Next) {
				wait = a.Next.Sub(now)
				return
			}
			// One attempt now, and the lock after it doubles.
			a.Excess++
			a.Next = now.Add(min(l.backoff<<min(a.Excess, 16), l.window))
		}
		a.N++
		ok = true
	})
	if errors.Is(err, errLimiterFull) {
		return false, time.Minute, nil
	}
	return ok, wait, err
}

// succeeded gives a reserved place back: successes are not failures.
func (l *attemptLimiter) succeeded(ctx context.Context, key string) error {
	now := l.now()
	err := l.keys.update(ctx, key, now.Add(l.window), func(a *store.LimitState) {
		if a.N > 0 {
			a.N--
		}
	})
	if errors.Is(err, errLimiterFull) {
		return nil // nothing was reserved under a key it cannot hold
	}
	return err
}

// clear forgets key (a verified password reset).
func (l *attemptLimiter) clear(ctx context.Context, key string) error {
	return l.keys.remove(ctx, key)
}

// fixedWindow allows n events per key per window.
type fixedWindow struct {
	n      int
	window time.Duration
	now    func() time.Time
	keys   limitStates
}

func newFixedWindow(keys limitStates, n int, window time.Duration, now func() time.Time) *fixedWindow {
	return &fixedWindow{n: n, window: window, now: now, keys: keys}
}

// allow counts one event for key and reports whether it is within the
// limit; a refused event is not counted.
func (f *fixedWindow) allow(ctx context.Context, key string) (bool, error) {
	now := f.now()
	ok := false
	err := f.keys.update(ctx, key, now.Add(f.window), func(w *store.LimitState) {
		if now.Sub(w.Start) >= f.window {
			*w = store.LimitState{Start: now}
		}
		if w.N < f.n {
			w.N++
			ok = true
		}
	})
	if errors.Is(err, errLimiterFull) {
		return false, nil
	}
	return ok, err
}
