package server

import (
	"fmt"
	"net/http"
	"strings"
	"testing"
	"time"

	"github.com/layerfix/layerfix/store/pgtest"
	"github.com/layerfix/layerfix/store/storetest"
)

// v6Net is the i-th distinct IPv6 /64 as a request's remote address.
func v6Net(i int) string { return fmt.Sprintf("[2001:db8:%x:%x::1]:1", i>>16, i&0xffff) }

// TestLimitFullMapStillAdmitsNewVisitors: with every in-memory limiter full
// of live keys (the real cap), a new visitor still signs in and signs up.
func TestLimitFullMapStillAdmitsNewVisitors(t *testing.T) {
	ts := newTestServer(t, nil, nil)
	signup(t, ts, "maker@example.com", "gears-and-layers")
	ctx := t.Context()
	for i := range maxLimiterKeys + 1 {
		key := limiterKey("ip", fmt.Sprintf("2001:db8:%x:%x::/64", i>>16, i&0xffff))
		if _, _, err := ts.local.failIP.reserve(ctx, key); err != nil {
			t.Fatal(err)
		}
		if _, err := ts.local.signups.allow(ctx, key); err != nil {
			t.Fatal(err)
		}
	}
	if c := login(t, ts, "maker@example.com", "gears-and-layers", "198.51.100.7:1"); c != 200 {
		t.Fatalf("a new visitor's correct sign-in with the limiter full: %d", c)
	}
	w := ts.do(t, "POST", "/api/auth/signup", mustJSON(t, map[string]string{"email": "new@example.com", "password": "spaghetti-monster", "displayName": "New"}), "RemoteAddr", "198.51.100.8:1")
	if w.Code != 201 {
		t.Fatalf("a new visitor's sign-up with the limiter full: %d %s", w.Code, w.Body.String())
	}
	if n := limiterSize(ts.local.failIP); n > maxLimiterKeys {
		t.Fatalf("the limiter holds %d keys, past its cap %d", n, maxLimiterKeys)
	}
}

// TestLimitEvictsTheLeastRecentlyUsed: a full limiter drops the key used
// longest ago, so a key in use keeps its count.
func TestLimitEvictsTheLeastRecentlyUsed(t *testing.T) {
	clock := &testClock{t: time.Date(2026, 3, 14, 10, 0, 0, 0, time.UTC)}
	keys := newMemLimits(3, clock.now)
	f := newFixedWindow(keys, 1, time.Hour, clock.now)
	ctx := t.Context()
	for _, k := range []string{"a", "b", "c"} {
		if ok, _ := f.allow(ctx, k); !ok {
			t.Fatalf("first event of %s refused", k)
		}
	}
	f.allow(ctx, "a") // refused, but "a" was used last
	if ok, _ := f.allow(ctx, "d"); !ok {
		t.Fatal("a new key refused by a full limiter")
	}
	if ok, _ := f.allow(ctx, "a"); ok {
		t.Fatal("the most recently used key lost its count")
	}
	if ok, _ := f.allow(ctx, "b"); !ok {
		t.Fatal("the least recently used key was kept instead of evicted")
	}
	if n := keys.size(); n != 3 {
		t.Fatalf("%d keys, cap 3", n)
	}
	// Expired keys go first, whatever their order.
	clock.set(clock.now().Add(2 * time.Hour))
	f.allow(ctx, "e")
	if n := keys.size(); n != 1 {
		t.Fatalf("%d keys after the others expired", n)
	}
}

// TestLimitRefusalCreatesNoKeyElsewhere: attempts one limiter refuses
// leave no key in the other, so a flood of refused attempts from fresh
// addresses holds no memory.
func TestLimitRefusalCreatesNoKeyElsewhere(t *testing.T) {
	ts, _, _ := mailServer(t)
	signup(t, ts, "victim@example.com", "correct-horse-battery")
	for i := range loginFailures {
		if c := login(t, ts, "victim@example.com", "wrong", fmt.Sprintf("198.51.100.%d:1", i+1)); c != 401 {
			t.Fatalf("failure %d: %d", i, c)
		}
	}
	before := limiterSize(ts.local.failIP)
	for i := range 50 {
		if c := login(t, ts, "victim@example.com", "wrong", v6Net(i)); c != 429 {
			t.Fatalf("attempt %d on the locked email: %d", i, c)
		}
	}
	if after := limiterSize(ts.local.failIP); after != before {
		t.Fatalf("refused attempts from 50 new networks left %d address keys", after-before)
	}
	// And the other way: a locked address leaves no email keys.
	for i := range loginFailures {
		login(t, ts, fmt.Sprintf("nobody%d@example.com", i), "wrong", "203.0.113.9:1")
	}
	before = limiterSize(ts.local.failEmail)
	for i := range 20 {
		if c := login(t, ts, fmt.Sprintf("other%d@example.com", i), "wrong", "203.0.113.9:1"); c != 429 {
			t.Fatalf("attempt %d from the locked address: %d", i, c)
		}
	}
	if after := limiterSize(ts.local.failEmail); after != before {
		t.Fatalf("refused attempts from a locked address left %d email keys", after-before)
	}
}

// authBackends runs fn on a local-auth server with a test clock, once with
// its limits in memory (SQLite) and once in PostgreSQL when one is set up.
// The two servers share nothing (each has its own store and clock), so they
// run at once: each sign-in hashes for a fifth of a second.
func authBackends(t *testing.T, fn func(t *testing.T, ts *testServer, clock *testClock)) {
	t.Run("memory", func(t *testing.T) {
		t.Parallel()
		ts, _, clock := mailServer(t)
		fn(t, ts, clock)
	})
	t.Run("postgres", func(t *testing.T) {
		t.Parallel()
		ts, _, clock := mailServerOn(t, storetest.OpenShared(t, pgtest.SchemaURL(t)))
		fn(t, ts, clock)
	})
}

// signIn signs in from ip with the given cookies and returns the answer.
func signIn(t *testing.T, ts *testServer, url, email, pw, ip string, cookies ...*http.Cookie) (int, []*http.Cookie) {
	t.Helper()
	var hdr []string
	if len(cookies) > 0 {
		parts := make([]string, len(cookies))
		for i, c := range cookies {
			parts[i] = c.Name + "=" + c.Value
		}
		hdr = []string{"Cookie", strings.Join(parts, "; ")}
	}
	w := ts.do(t, "POST", url, mustJSON(t, map[string]string{"email": email, "password": pw}), append(hdr, "RemoteAddr", ip)...)
	return w.Code, w.Result().Cookies()
}

func deviceCookieOf(t *testing.T, cookies []*http.Cookie) *http.Cookie {
	t.Helper()
	for _, c := range cookies {
		if c.Name == deviceCookie {
			return c
		}
	}
	t.Fatalf("no %s cookie in %v", deviceCookie, cookies)
	return nil
}

// TestAuthKnownDeviceSignsInThroughALock: failures from other addresses
// keep an email locked for strangers, but not for a browser or a network
// that signed in to this account before; a forged cookie, or another
// account's, does not pass, and a known device has its own backoff.
func TestAuthKnownDeviceSignsInThroughALock(t *testing.T) {
	authBackends(t, func(t *testing.T, ts *testServer, clock *testClock) {
		const url = "/api/auth/login"
		signup(t, ts, "victim@example.com", "correct-horse-battery")
		signup(t, ts, "other@example.com", "another-good-secret")
		code, cookies := signIn(t, ts, "https://layerfix.example"+url, "victim@example.com", "correct-horse-battery", "198.51.100.50:1")
		if code != 200 {
			t.Fatalf("first sign-in: %d", code)
		}
		device := deviceCookieOf(t, cookies)
		if !device.HttpOnly || !device.Secure || device.SameSite != http.SameSiteLaxMode || device.MaxAge < 360*24*3600 || device.Path != "/api/auth" {
			t.Fatalf("device cookie attributes %+v", device)
		}
		if _, plain := signIn(t, ts, url, "victim@example.com", "correct-horse-battery", "198.51.100.51:1"); deviceCookieOf(t, plain).Secure {
			t.Fatal("a Secure cookie over plain HTTP")
		}
		_, cookies = signIn(t, ts, url, "other@example.com", "another-good-secret", "198.51.100.60:1")
		otherDevice := deviceCookieOf(t, cookies)

		lock := func() {
			t.Helper()
			for i := range loginFailures {
				if c, _ := signIn(t, ts, url, "victim@example.com", "wrong", fmt.Sprintf("203.0.113.%d:1", i+1)); c != 401 {
					t.Fatalf("failure %d: %d", i, c)
				}
			}
		}
		// The attacker renews the lock every window for two hours: a
		// stranger meets it every time.
		for i := range 8 {
			clock.set(clock.now().Add(loginWindow))
			lock()
			if c, _ := signIn(t, ts, url, "victim@example.com", "correct-horse-battery", fmt.Sprintf("192.0.2.%d:1", 100+i)); c != 429 {
				t.Fatalf("a stranger's correct sign-in during the spray: %d", c)
			}
		}
		forged := *device
		mid := len(device.Value) / 2
		forged.Value = device.Value[:mid] + map[bool]string{true: "B", false: "A"}[device.Value[mid] == 'A'] + device.Value[mid+1:]
		for name, c := range map[string]*http.Cookie{
			"forged":          &forged,
			"another account": otherDevice,
			"garbage":         {Name: deviceCookie, Value: strings.Repeat("x.", 3000)},
		} {
			if code, _ := signIn(t, ts, url, "victim@example.com", "correct-horse-battery", "192.0.2.150:1", c); code != 429 {
				t.Fatalf("%s cookie passed the lock: %d", name, code)
			}
		}
		if code, _ := signIn(t, ts, url, "victim@example.com", "correct-horse-battery", "198.51.100.60:1"); code != 429 {
			t.Fatalf("another account's known address passed the lock: %d", code)
		}
		if code, _ := signIn(t, ts, url, "victim@example.com", "correct-horse-battery", "192.0.2.151:1", device); code != 200 {
			t.Fatalf("the known device during the spray: %d", code)
		}
		lock()
		if code, _ := signIn(t, ts, url, "victim@example.com", "correct-horse-battery", "198.51.100.50:1"); code != 200 {
			t.Fatalf("the known address during the spray: %d", code)
		}
		// A stolen cookie gets no more guesses than a stranger.
		lock()
		for i := range loginFailures {
			if c, _ := signIn(t, ts, url, "victim@example.com", "guess", fmt.Sprintf("192.0.2.%d:1", 160+i), device); c != 401 {
				t.Fatalf("guess %d with the cookie: %d", i, c)
			}
		}
		if c, _ := signIn(t, ts, url, "victim@example.com", "correct-horse-battery", "192.0.2.180:1", device); c != 429 {
			t.Fatalf("after %d wrong guesses with the cookie: %d", loginFailures, c)
		}
	})
}
