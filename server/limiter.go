package server

import (
	"crypto/sha256"
	"encoding/hex"
	"sync"
	"time"
)

// limiterKey is what a limiter stores for a key an attacker controls (an
// email, an address): a fixed-size hash, never the string itself.
func limiterKey(kind, s string) string {
	h := sha256.Sum256([]byte(kind + "\x00" + s))
	return hex.EncodeToString(h[:12])
}

// maxLimiterKeys bounds every limiter's memory: past it, expired entries
// are dropped, and when none has expired the limiter refuses new keys (it
// fails closed) until some do.
const maxLimiterKeys = 100_000

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

	mu      sync.Mutex
	entries map[string]*attempts
}

type attempts struct {
	n      int       // failures (and reservations in flight) in the window
	first  time.Time // start of the window
	next   time.Time // past the limit: when the next attempt may start
	excess int       // attempts granted past the limit, for the backoff
}

func newAttemptLimiter(limit int, window, backoff time.Duration, now func() time.Time) *attemptLimiter {
	return &attemptLimiter{limit: limit, window: window, backoff: backoff, now: now, entries: map[string]*attempts{}}
}

// reserve takes a place for one attempt; it reports false (and how long to
// wait) when key is locked.
func (l *attemptLimiter) reserve(key string) (ok bool, wait time.Duration) {
	l.mu.Lock()
	defer l.mu.Unlock()
	now := l.now()
	a := l.entries[key]
	if a != nil && now.Sub(a.first) >= l.window {
		delete(l.entries, key)
		a = nil
	}
	if a == nil {
		if len(l.entries) >= maxLimiterKeys && !l.sweep(now) {
			return false, time.Minute
		}
		a = &attempts{first: now}
		l.entries[key] = a
	}
	if a.n >= l.limit {
		if l.backoff == 0 {
			return false, a.first.Add(l.window).Sub(now)
		}
		if a.next.IsZero() { // the limit was just reached: the first lock starts
			a.next = now.Add(l.backoff)
		}
		if now.Before(a.next) {
			return false, a.next.Sub(now)
		}
		// One attempt now, and the lock after it doubles.
		a.excess++
		a.next = now.Add(min(l.backoff<<min(a.excess, 16), l.window))
	}
	a.n++
	return true, 0
}

// succeeded gives a reserved place back: successes are not failures.
func (l *attemptLimiter) succeeded(key string) {
	l.mu.Lock()
	defer l.mu.Unlock()
	if a := l.entries[key]; a != nil && a.n > 0 {
		a.n--
	}
}

// clear forgets key (a verified password reset).
func (l *attemptLimiter) clear(key string) {
	l.mu.Lock()
	defer l.mu.Unlock()
	delete(l.entries, key)
}

// size is the number of keys held.
func (l *attemptLimiter) size() int {
	l.mu.Lock()
	defer l.mu.Unlock()
	return len(l.entries)
}

// sweep drops expired entries; it reports whether there is room now.
func (l *attemptLimiter) sweep(now time.Time) bool {
	for k, a := range l.entries {
		if now.Sub(a.first) >= l.window {
			delete(l.entries, k)
		}
	}
	return len(l.entries) < maxLimiterKeys
}
