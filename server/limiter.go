package server

import (
	"container/list"
	"context"
	"crypto/sha256"
	"encoding/hex"
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

// maxLimiterKeys bounds every in-memory limiter. A full limiter drops its
// expired keys, then the keys used longest ago: it never refuses a new key
// only because it is full, so filling it cannot lock anyone out.
const maxLimiterKeys = 100_000

// limitStates keeps limiter counters. A server with its own SQLite data
// dir keeps them in memory; servers sharing a PostgreSQL database keep
// them in it, so a limit holds across every instance behind the load
// balancer instead of multiplying by their number.
type limitStates interface {
	// update runs fn on key's state, alone among updates of key, and keeps
	// the result until expires; a state that counts nothing is not kept.
	update(ctx context.Context, key string, expires time.Time, fn func(*store.LimitState)) error
	// peek reports key's state at now without creating it.
	peek(ctx context.Context, key string, now time.Time) (st store.LimitState, found bool, err error)
	remove(ctx context.Context, key string) error
}

// newLimitStates is the database when it is shared (PostgreSQL), memory
// otherwise. name keeps each limiter's keys apart in the shared table.
func newLimitStates(st *store.Store, name string, now func() time.Time) limitStates {
	if st != nil && st.Dialect() == store.Postgres {
		return dbLimits{st: st, name: name}
	}
	return newMemLimits(maxLimiterKeys, now)
}

type dbLimits struct {
	st   *store.Store
	name string
}

func (d dbLimits) update(ctx context.Context, key string, expires time.Time, fn func(*store.LimitState)) error {
	return d.st.UpdateLimit(ctx, limiterKey(d.name, key), expires, fn)
}

func (d dbLimits) peek(ctx context.Context, key string, now time.Time) (store.LimitState, bool, error) {
	return d.st.PeekLimit(ctx, limiterKey(d.name, key), now)
}

func (d dbLimits) remove(ctx context.Context, key string) error {
	return d.st.DeleteLimit(ctx, limiterKey(d.name, key))
}

// memLimits holds at most max keys, in the order they were last updated.
type memLimits struct {
	now     func() time.Time
	max     int
	mu      sync.Mutex
	entries map[string]*list.Element // of *memLimit
	order   *list.List               // least recently updated first
}

type memLimit struct {
	key     string
	st      store.LimitState
	expires time.Time
}

func newMemLimits(max int, now func() time.Time) *memLimits {
	return &memLimits{now: now, max: max, entries: map[string]*list.Element{}, order: list.New()}
}

func (m *memLimits) update(_ context.Context, key string, expires time.Time, fn func(*store.LimitState)) error {
	m.mu.Lock()
	defer m.mu.Unlock()
	el := m.entries[key]
	e := &memLimit{key: key}
	if el != nil {
		e = el.Value.(*memLimit)
	}
	fn(&e.st)
	switch {
	case e.st.IsZero():
		if el != nil {
			m.drop(el)
		}
	case el != nil:
		e.expires = expires
		m.order.MoveToBack(el)
	default:
		e.expires = expires
		m.makeRoom()
		m.entries[key] = m.order.PushBack(e)
	}
	return nil
}

// makeRoom drops expired keys from the front, then the least recently
// updated ones until one more fits. Keys are updated with a constant
// lifetime per limiter, so the front also expires first.
func (m *memLimits) makeRoom() {
	now := m.now()
	for f := m.order.Front(); f != nil && !now.Before(f.Value.(*memLimit).expires); f = m.order.Front() {
		m.drop(f)
	}
	for len(m.entries) >= max(m.max, 1) {
		m.drop(m.order.Front())
	}
}

func (m *memLimits) drop(el *list.Element) {
	delete(m.entries, el.Value.(*memLimit).key)
	m.order.Remove(el)
}

func (m *memLimits) peek(_ context.Context, key string, now time.Time) (store.LimitState, bool, error) {
	m.mu.Lock()
	defer m.mu.Unlock()
	if el := m.entries[key]; el != nil && now.Before(el.Value.(*memLimit).expires) {
		return el.Value.(*memLimit).st, true, nil
	}
	return store.LimitState{}, false, nil
}

func (m *memLimits) remove(_ context.Context, key string) error {
	m.mu.Lock()
	defer m.mu.Unlock()
	if el := m.entries[key]; el != nil {
		m.drop(el)
	}
	return nil
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
	return ok, wait, err
}

// succeeded gives a reserved place back: successes are not failures.
func (l *attemptLimiter) succeeded(ctx context.Context, key string) error {
	now := l.now()
	return l.keys.update(ctx, key, now.Add(l.window), func(a *store.LimitState) {
		if a.N > 0 {
			a.N--
		}
	})
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
	return ok, err
}
