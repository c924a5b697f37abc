package server

import (
	"context"
	"encoding/json"
	"io"
	"log/slog"
	"net/http/httptest"
	"regexp"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/layerfix/layerfix/accounts"
	"github.com/layerfix/layerfix/config"
	"github.com/layerfix/layerfix/mail/mailtest"
	"github.com/layerfix/layerfix/store"
	"github.com/layerfix/layerfix/store/storetest"
)

type sentMail struct{ to, subject, body string }

type fakeMailer struct {
	mu   sync.Mutex
	sent []sentMail
}

func (m *fakeMailer) Send(_ context.Context, to, subject, body string) error {
	m.mu.Lock()
	defer m.mu.Unlock()
	m.sent = append(m.sent, sentMail{to, subject, body})
	return nil
}

func (m *fakeMailer) wait(t *testing.T, n int) []sentMail {
	t.Helper()
	for i := 0; i < 200; i++ {
		m.mu.Lock()
		if len(m.sent) >= n {
			out := append([]sentMail(nil), m.sent...)
			m.mu.Unlock()
			return out
		}
		m.mu.Unlock()
		time.Sleep(10 * time.Millisecond)
	}
	t.Fatalf("expected %d emails", n)
	return nil
}

func signup(t *testing.T, ts *testServer, email, pw string) sessionResponse {
	t.Helper()
	w := ts.do(t, "POST", "/api/auth/signup", mustJSON(t, map[string]string{"email": email, "password": pw, "displayName": "Ada Lovelace"}))
	if w.Code != 201 {
		t.Fatalf("signup %s: %d %s", email, w.Code, w.Body.String())
	}
	var s sessionResponse
	json.Unmarshal(w.Body.Bytes(), &s)
	return s
}

func bearer(tok string) []string { return []string{"Authorization", "Bearer " + tok} }

func TestSignupLoginLogout(t *testing.T) {
	ts := newTestServer(t, nil, nil)
	s := signup(t, ts, "Ada@Example.com", "gears-and-layers")
	if len(s.Token) != 43 || s.User.Email != "ada@example.com" || s.User.MonthlyLimit != 3 || s.ExpiresAt.Before(time.Now().Add(29*24*time.Hour)) {
		t.Fatalf("session %+v", s)
	}
	w := ts.do(t, "GET", "/api/user/profile", "", bearer(s.Token)...)
	if w.Code != 200 || !strings.Contains(w.Body.String(), `"displayName":"Ada Lovelace"`) || !strings.Contains(w.Body.String(), `"subscriptionTier":"free"`) {
		t.Fatalf("profile: %d %s", w.Code, w.Body.String())
	}
	if strings.Contains(w.Body.String(), "argon2") || strings.Contains(w.Body.String(), "password") {
		t.Fatal("profile leaks the password hash")
	}
	// A second session, then logging out the first revokes only the first.
	w = ts.do(t, "POST", "/api/auth/login", `{"email":"ada@example.com","password":"gears-and-layers"}`)
	if w.Code != 200 {
		t.Fatalf("login: %d %s", w.Code, w.Body.String())
	}
	var s2 sessionResponse
	json.Unmarshal(w.Body.Bytes(), &s2)
	if w := ts.do(t, "POST", "/api/auth/logout", "", bearer(s.Token)...); w.Code != 204 {
		t.Fatalf("logout: %d", w.Code)
	}
	if w := ts.do(t, "GET", "/api/user/profile", "", bearer(s.Token)...); w.Code != 401 || decodeError(t, w).Code != CodeUnauthenticated {
		t.Fatalf("logged-out token: %d", w.Code)
	}
	if w := ts.do(t, "GET", "/api/user/profile", "", bearer(s2.Token)...); w.Code != 200 {
		t.Fatalf("other session after logout: %d", w.Code)
	}
}

func TestAuthErrors(t *testing.T) {
	ts := newTestServer(t, nil, nil)
	signup(t, ts, "maker@example.com", "spaghetti-monster")
	cases := []struct {
		name, body string
		status     int
		code       string
	}{
		{"duplicate email", `{"email":"MAKER@example.com","password":"another-good-one","displayName":"X"}`, 409, "email-already-in-use"},
		{"invalid email", `{"email":"maker@","password":"another-good-one","displayName":"X"}`, 400, "invalid-email"},
		{"email with name", `{"email":"Bob <bob@example.com>","password":"another-good-one","displayName":"X"}`, 400, "invalid-email"},
		{"short password", `{"email":"a@example.com","password":"12345","displayName":"X"}`, 400, "weak-password"},
		{"common password", `{"email":"a@example.com","password":"password1","displayName":"X"}`, 400, "weak-password"},
		{"no display name", `{"email":"a@example.com","password":"another-good-one","displayName":"  "}`, 400, "invalid-display-name"},
	}
	for _, c := range cases {
		w := ts.do(t, "POST", "/api/auth/signup", c.body)
		if w.Code != c.status || decodeError(t, w).Code != c.code {
			t.Errorf("%s: %d %s", c.name, w.Code, w.Body.String())
		}
	}
	wrongPw := ts.do(t, "POST", "/api/auth/login", `{"email":"maker@example.com","password":"wrong-password"}`)
	unknown := ts.do(t, "POST", "/api/auth/login", `{"email":"nobody@example.com","password":"wrong-password"}`)
	if wrongPw.Code != 401 || unknown.Code != 401 || wrongPw.Body.String() != unknown.Body.String() {
		t.Fatalf("wrong password vs unknown email differ: %d %s / %d %s", wrongPw.Code, wrongPw.Body, unknown.Code, unknown.Body)
	}
	if decodeError(t, wrongPw).Code != "invalid-credential" {
		t.Fatal("code")
	}
}

func TestForgedAndMalformedTokens(t *testing.T) {
	ts := newTestServer(t, nil, nil)
	s := signup(t, ts, "maker@example.com", "spaghetti-monster")
	forged := s.Token[:42] + "A"
	if forged == s.Token {
		forged = s.Token[:42] + "B"
	}
	for _, h := range [][]string{bearer(forged), bearer("x"), bearer(strings.Repeat("A", 5000)), {"Authorization", "Basic abc"}, nil} {
		w := ts.do(t, "GET", "/api/user/profile", "", h...)
		if w.Code != 401 {
			t.Errorf("header %v: %d", h, w.Code)
		}
	}
	// Public routes work with a bad token too.
	if w := ts.do(t, "GET", "/api/pricing", "", bearer(forged)...); w.Code != 200 {
		t.Fatalf("public route with a bad token: %d", w.Code)
	}
}

func TestLoginRateLimit(t *testing.T) {
	ts := newTestServer(t, nil, nil)
	signup(t, ts, "maker@example.com", "spaghetti-monster")
	for i := 0; i < loginFailures; i++ {
		if w := ts.do(t, "POST", "/api/auth/login", `{"email":"maker@example.com","password":"nope-nope"}`); w.Code != 401 {
			t.Fatalf("failure %d: %d", i, w.Code)
		}
	}
	w := ts.do(t, "POST", "/api/auth/login", `{"email":"maker@example.com","password":"spaghetti-monster"}`)
	if w.Code != 429 || decodeError(t, w).Code != "too-many-requests" {
		t.Fatalf("after %d failures: %d", loginFailures, w.Code)
	}
	// The per-email limit holds from another IP too.
	w = ts.do(t, "POST", "/api/auth/login", `{"email":"maker@example.com","password":"spaghetti-monster"}`, "RemoteAddr", "192.0.2.200:1")
	if w.Code != 429 {
		t.Fatalf("per-email limit from another IP: %d", w.Code)
	}
	// Another account from another IP is unaffected.
	signup(t, ts, "other@example.com", "spaghetti-monster")
	if w := ts.do(t, "POST", "/api/auth/login", `{"email":"other@example.com","password":"spaghetti-monster"}`, "RemoteAddr", "192.0.2.201:1"); w.Code != 200 {
		t.Fatalf("unrelated login: %d", w.Code)
	}
}

func TestProtectedRoutesNeedAUser(t *testing.T) {
	ts := newTestServer(t, nil, nil)
	for _, r := range [][2]string{{"GET", "/api/user/profile"}, {"POST", "/api/transfer-usage"}, {"POST", "/api/auth/logout"}} {
		if w := ts.do(t, r[0], r[1], ""); w.Code != 401 {
			t.Errorf("%s %s without token: %d", r[0], r[1], w.Code)
		}
	}
}

// TestTransferUsage: anonymous analyses move only into an account created by
// this sign-up, at most once per IP and month, never into an existing account.
func TestTransferUsage(t *testing.T) {
	ws := newWorkspace(t, nil)
	const makerspace = "198.51.100.7:4000"
	transfer := func(auth []string, ip string) string {
		t.Helper()
		w := ws.do(t, "POST", "/api/transfer-usage", "", append(auth, "RemoteAddr", ip)...)
		if w.Code != 200 {
			t.Fatalf("transfer: %d %s", w.Code, w.Body.String())
		}
		return strings.TrimSpace(w.Body.String())
	}
	usage := func(auth []string) int { return ws.usage(t, auth) }

	// An existing account, created yesterday, signs in from the makerspace.
	veteran := ws.user(t, "veteran@example.com")
	ws.clock.set(ws.clock.now().Add(26 * time.Hour))
	for i := 0; i < 2; i++ {
		if w := ws.do(t, "POST", "/api/troubleshoot", validTroubleshoot(nil), "RemoteAddr", makerspace); w.Code != 200 {
			t.Fatalf("anonymous analysis: %d %s", w.Code, w.Body.String())
		}
	}
	if got := transfer(veteran, makerspace); got != `{"transferred":0}` || usage(veteran) != 0 {
		t.Fatalf("an existing account was charged strangers' use: %s, usage %d", got, usage(veteran))
	}

	// The maker who used them signs up: the new account gets them, once.
	fresh := ws.user(t, "fresh@example.com")
	if got := transfer(fresh, makerspace); got != `{"transferred":2}` {
		t.Fatalf("new account: %s", got)
	}
	if got := transfer(fresh, makerspace); got != `{"transferred":0}` || usage(fresh) != 2 {
		t.Fatalf("second call: %s, usage %d", got, usage(fresh))
	}
	// A classmate behind the same IP signs up too: the IP's uses were transferred already.
	classmate := ws.user(t, "classmate@example.com")
	if got := transfer(classmate, makerspace); got != `{"transferred":0}` || usage(classmate) != 0 {
		t.Fatalf("second account behind one IP charged again: %s, usage %d", got, usage(classmate))
	}
	// The limit message tells the truth about what a new account gets.
	ws.do(t, "POST", "/api/troubleshoot", validTroubleshoot(nil), "RemoteAddr", makerspace)
	w := ws.do(t, "POST", "/api/troubleshoot", validTroubleshoot(nil), "RemoteAddr", makerspace)
	if msg := decodeError(t, w).Message; w.Code != 429 || strings.Contains(msg, "keep troubleshooting") || !strings.Contains(msg, "count toward its month") {
		t.Fatalf("limit answer %d %q", w.Code, msg)
	}
	// The new account can still analyse: 3 a month, 2 used here.
	printer := ws.addPrinter(t, fresh, "Mk4", "Prusa")
	ws.submit(t, fresh, issueBody(t, printer.ID, nil))
	if w := ws.do(t, "POST", "/api/issues", issueBody(t, printer.ID, nil), fresh...); w.Code != 429 {
		t.Fatalf("fourth analysis of the month: %d", w.Code)
	}
}

func TestPasswordResetByEmail(t *testing.T) {
	cfg := testConfig(t, nil)
	st := storetest.Open(t)
	m := &fakeMailer{}
	srv, err := New(cfg, Deps{Store: st, Analyzer: &fakeAnalyzer{}, Frontend: testFrontend, Mailer: m, Logger: slog.New(slog.NewTextHandler(io.Discard, nil))})
	if err != nil {
		t.Fatal(err)
	}
	ts := &testServer{Server: srv, store: st, cfg: cfg, h: checkContract(t, srv.Handler())}
	s := signup(t, ts, "maker@example.com", "spaghetti-monster")
	verify := m.wait(t, 1)[0]
	if verify.to != "maker@example.com" || !strings.Contains(verify.body, "mode=verify") {
		t.Fatalf("verification email %+v", verify)
	}
	for _, email := range []string{"maker@example.com", "nobody@example.com"} {
		if w := ts.do(t, "POST", "/api/auth/password-reset", mustJSON(t, map[string]string{"email": email})); w.Code != 202 {
			t.Fatalf("reset %s: %d", email, w.Code)
		}
	}
	mails := m.wait(t, 2)
	time.Sleep(50 * time.Millisecond)
	if len(m.wait(t, 2)) != 2 {
		t.Fatal("an email was sent for an unknown address")
	}
	code := regexp.MustCompile(`oobCode=([A-Za-z0-9_-]{43})`).FindStringSubmatch(mails[1].body)
	if code == nil || !strings.HasPrefix(mails[1].body[strings.Index(mails[1].body, "http"):], "http://localhost:8080/login?mode=reset") {
		t.Fatalf("reset email %q", mails[1].body)
	}
	body := mustJSON(t, map[string]string{"oobCode": code[1], "password": "new-better-secret"})
	if w := ts.do(t, "POST", "/api/auth/password-update", body); w.Code != 200 {
		t.Fatalf("update: %d %s", w.Code, w.Body.String())
	}
	if w := ts.do(t, "POST", "/api/auth/password-update", body); w.Code != 400 || decodeError(t, w).Code != "invalid-action-code" {
		t.Fatalf("second use of the link: %d", w.Code)
	}
	if w := ts.do(t, "GET", "/api/user/profile", "", bearer(s.Token)...); w.Code != 401 {
		t.Fatal("old sessions survive a password reset")
	}
	if w := ts.do(t, "POST", "/api/auth/login", `{"email":"maker@example.com","password":"new-better-secret"}`); w.Code != 200 {
		t.Fatalf("login with the new password: %d", w.Code)
	}
}

func TestResetLinkForOperator(t *testing.T) {
	ts := newTestServer(t, map[string]string{"LAYERFIX_PUBLIC_URL": "https://fix.example.com", "LAYERFIX_BASE_PATH": "/lf"}, nil)
	signup := ts.do(t, "POST", "/lf/api/auth/signup", `{"email":"m@example.com","password":"spaghetti-monster","displayName":"M"}`)
	if signup.Code != 201 {
		t.Fatal(signup.Body.String())
	}
	link, err := ts.local.ResetLink(context.Background(), "m@example.com")
	if err != nil || !strings.HasPrefix(link, "https://fix.example.com/lf/login?mode=reset&oobCode=") {
		t.Fatalf("link %q %v", link, err)
	}
	code := link[strings.Index(link, "oobCode=")+8:]
	w := ts.do(t, "POST", "/lf/api/auth/password-update", mustJSON(t, map[string]string{"oobCode": code, "password": "brand-new-secret"}))
	if w.Code != 200 {
		t.Fatalf("%d %s", w.Code, w.Body.String())
	}
	// Without email configured the reset endpoint says so.
	w = ts.do(t, "POST", "/lf/api/auth/password-reset", `{"email":"m@example.com"}`)
	if w.Code != 202 || !strings.Contains(w.Body.String(), `"emailEnabled":false`) {
		t.Fatalf("reset without email: %d %s", w.Code, w.Body.String())
	}
}

// nobody authenticates no token; it stands in for Firebase where no request is signed.
type nobody struct{}

func (nobody) Authenticate(context.Context, string) (*store.User, error) { return nil, ErrBadToken }

// TestFirebaseEmulatorInRuntimeConfig: the web app is pointed at the Auth
// emulator only when the server runs against it; a production page never
// names one.
func TestFirebaseEmulatorInRuntimeConfig(t *testing.T) {
	page := func(t *testing.T, env map[string]string) (string, string) {
		t.Helper()
		cfg := testConfig(t, env)
		s, err := New(cfg, Deps{Store: storetest.Open(t), Analyzer: &fakeAnalyzer{}, Frontend: testFrontend, Authenticator: nobody{},
			Logger: slog.New(slog.NewTextHandler(io.Discard, nil))})
		if err != nil {
			t.Fatal(err)
		}
		ts := &testServer{Server: s, store: s.store, cfg: cfg, h: checkContract(t, s.Handler())}
		w := ts.do(t, "GET", "/login", "")
		return w.Body.String(), w.Header().Get("Content-Security-Policy")
	}
	env := map[string]string{"LAYERFIX_AUTH_MODE": "firebase", "LAYERFIX_FIREBASE_PROJECT_ID": "demo-layerfix", "FIREBASE_AUTH_EMULATOR_HOST": "127.0.0.1:9099"}
	body, csp := page(t, env)
	if !strings.Contains(body, `"authEmulatorUrl":"http://127.0.0.1:9099"`) || !strings.Contains(csp, "connect-src 'self' https://identitytoolkit.googleapis.com") ||
		!strings.Contains(csp, " http://127.0.0.1:9099") {
		t.Fatalf("emulator page: CSP %q\n%s", csp, body)
	}
	for name, env := range map[string]map[string]string{
		"production":                    {"LAYERFIX_AUTH_MODE": "firebase", "LAYERFIX_FIREBASE_PROJECT_ID": "my-real-app"},
		"demo project without emulator": {"LAYERFIX_AUTH_MODE": "firebase", "LAYERFIX_FIREBASE_PROJECT_ID": "demo-layerfix"},
		"local mode":                    {"FIREBASE_AUTH_EMULATOR_HOST": "127.0.0.1:9099"},
	} {
		body, csp := page(t, env)
		if strings.Contains(body, "authEmulator") || strings.Contains(body, "9099") || strings.Contains(csp, "http://") {
			t.Errorf("%s: the page names an emulator: CSP %q\n%s", name, csp, body)
		}
	}
	for _, bad := range []string{"127.0.0.1", "h:0", "a b:1", "x;y:1", "127.0.0.1:99999", `"><script>:1`} {
		env["FIREBASE_AUTH_EMULATOR_HOST"] = bad
		if _, err := config.Load(nil, func(k string) string { return env[k] }); err == nil || !strings.HasPrefix(err.Error(), "FIREBASE_AUTH_EMULATOR_HOST:") {
			t.Errorf("%q: err = %v", bad, err)
		}
	}
}

// With LAYERFIX_SMTP_URL set, sign-up really sends the verification email.
func TestSMTPConfiguredServerSendsVerification(t *testing.T) {
	addr, got := mailtest.FakeSMTP(t)
	ts := newTestServer(t, map[string]string{
		"LAYERFIX_SMTP_URL": "smtp://" + addr + "?starttls=off", "LAYERFIX_MAIL_FROM": "Layerfix <no-reply@example.com>",
		"LAYERFIX_PUBLIC_URL": "https://fix.example.com",
	}, nil)
	signup(t, ts, "maker@example.com", "spaghetti-monster")
	select {
	case lines := <-got:
		msg := strings.Join(lines, "\n")
		if !strings.Contains(msg, "RCPT TO:<maker@example.com>") || !strings.Contains(msg, "https://fix.example.com/login?mode=verify&oobCode=") {
			t.Fatalf("verification email:\n%s", msg)
		}
	case <-time.After(5 * time.Second):
		t.Fatal("no email was sent")
	}
	if body := ts.do(t, "GET", "/", "").Body.String(); !strings.Contains(body, `"emailEnabled":true`) {
		t.Fatal("the app is not told that email is on")
	}
}

// TestDisabledAccountIsToldSo: a disabled account's session and correct
// password are answered 403 account-disabled; a wrong password answers as
// for any account; a reset link does not enable it; enabling it ends the
// old sessions and signing in works again.
func TestDisabledAccountIsToldSo(t *testing.T) {
	ts := newTestServer(t, nil, nil)
	ctx := context.Background()
	s := signup(t, ts, "maker@example.com", "spaghetti-monster")
	ops := accounts.NewOperator(ts.cfg, ts.store, nil, slog.New(slog.NewTextHandler(io.Discard, nil)))
	if err := ops.SetDisabled(ctx, "maker@example.com", true); err != nil {
		t.Fatal(err)
	}
	isDisabled := func(what string, w *httptest.ResponseRecorder) {
		t.Helper()
		e := decodeError(t, w)
		if w.Code != 403 || e.Code != CodeAccountDisabled || e.Message != "This account has been disabled. Contact the operator of this site to have it restored." {
			t.Fatalf("%s: %d %s, want 403 %s", what, w.Code, w.Body, CodeAccountDisabled)
		}
	}
	isDisabled("a signed-in route", ts.do(t, "GET", "/api/user/profile", "", bearer(s.Token)...))
	isDisabled("a public route with the token", ts.do(t, "GET", "/api/pricing", "", bearer(s.Token)...))
	isDisabled("the right password", ts.do(t, "POST", "/api/auth/login", `{"email":"maker@example.com","password":"spaghetti-monster"}`))

	// A wrong password learns nothing: the same answer as an unknown email.
	wrongPw := ts.do(t, "POST", "/api/auth/login", `{"email":"maker@example.com","password":"wrong-password"}`)
	unknown := ts.do(t, "POST", "/api/auth/login", `{"email":"nobody@example.com","password":"wrong-password"}`)
	if wrongPw.Code != 401 || wrongPw.Body.String() != unknown.Body.String() {
		t.Fatalf("wrong password: %d %s, unknown email: %d %s", wrongPw.Code, wrongPw.Body, unknown.Code, unknown.Body)
	}

	// Enabled again: a session from before does not come back; signing in works.
	setDisabled := func(disabled bool) {
		t.Helper()
		if err := ops.SetDisabled(ctx, "maker@example.com", disabled); err != nil {
			t.Fatal(err)
		}
	}
	setDisabled(false)
	if w := ts.do(t, "GET", "/api/user/profile", "", bearer(s.Token)...); w.Code != 401 || decodeError(t, w).Code != CodeUnauthenticated {
		t.Fatalf("a session from before, once enabled: %d %s", w.Code, w.Body)
	}
	w := ts.do(t, "POST", "/api/auth/login", `{"email":"maker@example.com","password":"spaghetti-monster"}`)
	var fresh sessionResponse
	json.Unmarshal(w.Body.Bytes(), &fresh)
	if w.Code != 200 {
		t.Fatalf("sign-in once enabled: %d %s", w.Code, w.Body)
	}
	if w := ts.do(t, "GET", "/api/user/profile", "", bearer(fresh.Token)...); w.Code != 200 {
		t.Fatalf("profile once enabled: %d %s", w.Code, w.Body)
	}

	// A reset link changes the password, not the disabled state.
	setDisabled(true)
	link, err := ts.local.ResetLink(ctx, "maker@example.com")
	if err != nil {
		t.Fatal(err)
	}
	code := link[strings.Index(link, "oobCode=")+8:]
	if w := ts.do(t, "POST", "/api/auth/password-update", mustJSON(t, map[string]string{"oobCode": code, "password": "brand-new-secret"})); w.Code != 200 {
		t.Fatalf("password update: %d %s", w.Code, w.Body)
	}
	isDisabled("the new password", ts.do(t, "POST", "/api/auth/login", `{"email":"maker@example.com","password":"brand-new-secret"}`))
	setDisabled(false)
	if w := ts.do(t, "POST", "/api/auth/login", `{"email":"maker@example.com","password":"brand-new-secret"}`); w.Code != 200 {
		t.Fatalf("the new password once enabled: %d %s", w.Code, w.Body)
	}
}
