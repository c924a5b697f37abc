package server

import (
	"fmt"
	"io"
	"log/slog"
	"net/url"
	"strings"
	"testing"
	"time"

	"github.com/layerfix/layerfix/accounts"
	"github.com/layerfix/layerfix/store"
	"github.com/layerfix/layerfix/store/storetest"
)

// mailServer is a local-auth server with a fake mailer and a test clock.
func mailServer(t *testing.T) (*testServer, *fakeMailer, *testClock) {
	t.Helper()
	return mailServerOn(t, storetest.Open(t))
}

// mailServerOn is mailServer on the given store.
func mailServerOn(t *testing.T, st *store.Store) (*testServer, *fakeMailer, *testClock) {
	t.Helper()
	cfg := testConfig(t, nil)
	clock := &testClock{t: time.Date(2026, 3, 14, 10, 0, 0, 0, time.UTC)}
	st.Now = clock.now
	m := &fakeMailer{}
	s, err := New(cfg, Deps{Store: st, Analyzer: &fakeAnalyzer{}, Frontend: testFrontend, Mailer: m, Now: clock.now,
		Logger: slog.New(slog.NewTextHandler(io.Discard, nil))})
	if err != nil {
		t.Fatal(err)
	}
	return &testServer{Server: s, store: st, cfg: cfg, h: checkContract(t, s.Handler())}, m, clock
}

func login(t *testing.T, ts *testServer, email, pw, ip string) int {
	t.Helper()
	return ts.do(t, "POST", "/api/auth/login", mustJSON(t, map[string]string{"email": email, "password": pw}), "RemoteAddr", ip).Code
}

// TestConcurrentGuessesStayWithinTheLimit: 60 concurrent wrong passwords
// for one email, from 60 addresses, evaluate at most 10 hashes; the hash
// never runs more than twice at once.
func TestConcurrentGuessesStayWithinTheLimit(t *testing.T) {
	ts := newTestServer(t, nil, nil)
	signup(t, ts, "victim@example.com", "correct-horse-battery")
	accounts.ResetHashPeak()
	count := concurrently(60, func(i int) int {
		return login(t, ts, "victim@example.com", fmt.Sprintf("guess-%d", i), fmt.Sprintf("198.51.100.%d:1", i+1))
	})
	if count[401] > loginFailures || count[401]+count[429] != 60 {
		t.Fatalf("answers %v: at most %d passwords may be checked", count, loginFailures)
	}
	if p := accounts.HashPeak(); p > accounts.MaxConcurrentHashes || p == 0 {
		t.Fatalf("%d hashes ran at once", p)
	}
}

// TestLongEmailsHoldNothing: an email over 254 characters is refused before
// any limiter key or hash.
func TestLongEmailsHoldNothing(t *testing.T) {
	ts := newTestServer(t, nil, nil)
	before := limiterSize(ts.local.failEmail) + limiterSize(ts.local.failIP)
	for _, n := range []int{255, 300, 60_000} {
		email := strings.Repeat("a", n-len("@x.io")) + "@x.io"
		if code := login(t, ts, email, "whatever-password", "203.0.113.1:1"); code != 400 && code != 413 {
			t.Fatalf("%d-character email: %d", n, code)
		}
	}
	if after := limiterSize(ts.local.failEmail) + limiterSize(ts.local.failIP); after != before {
		t.Fatalf("long emails created %d limiter entries", after-before)
	}
}

// TestSprayingCannotLockAnEmailForGood: past the failures, an email is
// locked for a minute, doubling, never past the window; the owner's reset
// always works and clears the lock.
func TestSprayingCannotLockAnEmailForGood(t *testing.T) {
	ts, m, clock := mailServer(t)
	signup(t, ts, "victim@example.com", "correct-horse-battery")
	ip := func(i int) string { return fmt.Sprintf("198.51.100.%d:1", i) }
	for i := 0; i < loginFailures; i++ {
		if c := login(t, ts, "victim@example.com", "wrong-"+fmt.Sprint(i), ip(i)); c != 401 {
			t.Fatalf("failure %d: %d", i, c)
		}
	}
	if c := login(t, ts, "victim@example.com", "correct-horse-battery", ip(200)); c != 429 {
		t.Fatalf("right after the spray: %d", c)
	}
	clock.set(clock.now().Add(61 * time.Second))
	if c := login(t, ts, "victim@example.com", "correct-horse-battery", ip(201)); c != 200 {
		t.Fatalf("a minute later the owner is still locked out: %d", c)
	}
	// The attacker keeps spraying: each lock doubles, capped at the window.
	for i := 0; i < 40; i++ {
		clock.set(clock.now().Add(loginWindow / 2))
		login(t, ts, "victim@example.com", "wrong-again", ip(i+20))
	}
	// A verified reset always works and clears the lock.
	ts.do(t, "POST", "/api/auth/password-reset", `{"email":"victim@example.com"}`, "RemoteAddr", ip(250))
	mails := m.wait(t, 2)
	code := oobCode(t, mails[len(mails)-1].body)
	w := ts.do(t, "POST", "/api/auth/password-update", mustJSON(t, map[string]string{"oobCode": code, "password": "a-brand-new-secret"}))
	if w.Code != 200 {
		t.Fatalf("reset during a spray: %d %s", w.Code, w.Body.String())
	}
	if c := login(t, ts, "victim@example.com", "a-brand-new-secret", ip(251)); c != 200 {
		t.Fatalf("sign-in after the reset: %d", c)
	}
}

func oobCode(t *testing.T, body string) string {
	t.Helper()
	i := strings.Index(body, "http")
	if i < 0 {
		t.Fatalf("no link in %q", body)
	}
	link := strings.Fields(body[i:])[0]
	u, err := url.Parse(link)
	if err != nil {
		t.Fatal(err)
	}
	return u.Query().Get("oobCode")
}

// TestResetLinks: a reset checks the same password rules as sign-up and
// keeps the link usable when it refuses; after a change no older link works.
func TestResetLinks(t *testing.T) {
	ts, _, _ := mailServer(t)
	signup(t, ts, "maker@example.com", "spaghetti-monster")
	first, err := ts.local.ResetLink(t.Context(), "maker@example.com")
	if err != nil {
		t.Fatal(err)
	}
	second, _ := ts.local.ResetLink(t.Context(), "maker@example.com")
	code := func(link string) string { u, _ := url.Parse(link); return u.Query().Get("oobCode") }
	update := func(link, pw string) int {
		return ts.do(t, "POST", "/api/auth/password-update", mustJSON(t, map[string]string{"oobCode": code(link), "password": pw})).Code
	}
	if c := update(first, "maker"); c != 400 {
		t.Fatalf("the email's name as password: %d", c)
	}
	if c := update(first, "a-good-new-password"); c != 200 {
		t.Fatalf("the refused attempt used the link up: %d", c)
	}
	if c := update(second, "another-new-password"); c != 400 {
		t.Fatalf("an older reset link still works after the change: %d", c)
	}
}

// TestAccountMailsCarryNoUserText: what a stranger types as display name
// never reaches anyone's inbox, and one address gets at most three account
// emails an hour.
func TestAccountMailsCarryNoUserText(t *testing.T) {
	ts, m, _ := mailServer(t)
	w := ts.do(t, "POST", "/api/auth/signup", mustJSON(t, map[string]string{
		"email": "target@example.com", "password": "spaghetti-monster",
		"displayName": "Your bank https://evil.example/login Verify now",
	}))
	if w.Code != 201 {
		t.Fatalf("signup: %d %s", w.Code, w.Body.String())
	}
	for i := 0; i < 6; i++ {
		ts.do(t, "POST", "/api/auth/password-reset", `{"email":"target@example.com"}`, "RemoteAddr", fmt.Sprintf("203.0.113.%d:1", i+1))
	}
	time.Sleep(100 * time.Millisecond)
	mails := m.wait(t, 1)
	if len(mails) > mailsPerRecipient {
		t.Fatalf("%d emails to one address in an hour", len(mails))
	}
	for _, mail := range mails {
		for _, bad := range []string{"evil.example", "Your bank", "Verify now"} {
			if strings.Contains(mail.body, bad) || strings.Contains(mail.subject, bad) {
				t.Fatalf("user text %q in an email: %q", bad, mail.body)
			}
		}
	}
}

func TestZalgoNamesRefused(t *testing.T) {
	ts := newTestServer(t, nil, nil)
	zalgo := "Ada" + strings.Repeat("\u0301\u0300\u0302", 4)
	w := ts.do(t, "POST", "/api/auth/signup", mustJSON(t, map[string]string{"email": "z@example.com", "password": "spaghetti-monster", "displayName": zalgo}))
	if w.Code != 400 || !strings.Contains(w.Body.String(), "too many accents") {
		t.Fatalf("zalgo display name: %d %s", w.Code, w.Body.String())
	}
	// Real languages stack at most two or three marks.
	w = ts.do(t, "POST", "/api/auth/signup", mustJSON(t, map[string]string{"email": "v@example.com", "password": "spaghetti-monster", "displayName": "Nguyễn Thị Ánh"}))
	if w.Code != 201 {
		t.Fatalf("Vietnamese name: %d %s", w.Code, w.Body.String())
	}
}

func limiterSize(l *attemptLimiter) int { return l.keys.(*memLimits).size() }
