package server

import (
	"bytes"
	"context"
	"encoding/base64"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"log/slog"
	"net"
	"net/http"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"

	"firebase.google.com/go/v4/auth"

	"github.com/layerfix/layerfix/config"
	"github.com/layerfix/layerfix/store"
	"github.com/layerfix/layerfix/store/storetest"
)

// fakeFirebase answers like the Admin SDK for tokens it knows.
type fakeFirebase struct {
	mu        sync.Mutex
	tokens    map[string]*auth.Token
	users     map[string]*auth.UserRecord
	lookupErr error
	verifies  int
	lookups   int
}

var errUnknownToken = errors.New("unknown token")

func (f *fakeFirebase) VerifyIDToken(_ context.Context, tok string) (*auth.Token, error) {
	f.mu.Lock()
	defer f.mu.Unlock()
	f.verifies++
	if t, ok := f.tokens[tok]; ok {
		return t, nil
	}
	return nil, errUnknownToken
}

func (f *fakeFirebase) GetUser(_ context.Context, uid string) (*auth.UserRecord, error) {
	f.mu.Lock()
	defer f.mu.Unlock()
	f.lookups++
	if f.lookupErr != nil {
		return nil, f.lookupErr
	}
	u := *f.users[uid]
	return &u, nil
}

func (f *fakeFirebase) DeleteUser(_ context.Context, uid string) error {
	f.mu.Lock()
	defer f.mu.Unlock()
	if f.lookupErr != nil {
		return f.lookupErr
	}
	delete(f.users, uid)
	return nil
}

func (f *fakeFirebase) set(fn func(f *fakeFirebase)) {
	f.mu.Lock()
	defer f.mu.Unlock()
	fn(f)
}

func fakeToken(uid, email, name string, iat time.Time) *auth.Token {
	return &auth.Token{UID: uid, IssuedAt: iat.Unix(), Expires: iat.Add(time.Hour).Unix(),
		Claims: map[string]any{"email": email, "name": name, "email_verified": true}}
}

func TestFirebaseAuthAccountChecks(t *testing.T) {
	ctx := context.Background()
	now := time.Date(2026, 5, 10, 12, 0, 0, 0, time.UTC)
	iat := now.Add(-time.Minute)
	st := storetest.Open(t)
	fake := &fakeFirebase{
		tokens: map[string]*auth.Token{
			"tok.en.ada":  fakeToken("uid-ada", "Ada@Example.com", "Ada", iat),
			"tok.en.ada2": fakeToken("uid-ada", "ada@example.com", "Ada Lovelace", iat),
			"tok.en.bob":  fakeToken("uid-bob", "bob@example.com", "", iat),
			"tok.en.eve":  fakeToken("uid-eve", "ada@example.com", "Eve", iat), // another uid, same email
		},
		users: map[string]*auth.UserRecord{
			"uid-ada": {UserInfo: &auth.UserInfo{UID: "uid-ada"}},
			"uid-bob": {UserInfo: &auth.UserInfo{UID: "uid-bob"}},
			"uid-eve": {UserInfo: &auth.UserInfo{UID: "uid-eve"}},
		},
	}
	a := newFirebaseAuth(fake, st, true, slog.New(slog.NewTextHandler(io.Discard, nil)))
	a.now = func() time.Time { return now }

	ada, err := a.Authenticate(ctx, "tok.en.ada")
	if err != nil {
		t.Fatal(err)
	}
	if ada.FirebaseUID == nil || *ada.FirebaseUID != "uid-ada" || ada.Email != "ada@example.com" || ada.DisplayName != "Ada" || !ada.EmailVerified {
		t.Fatalf("first call: row %+v", ada)
	}

	// Same claims: the row is read, not rewritten, so server-side changes show.
	if err := st.UpdateUser(ctx, ada.ID, map[string]any{"subscription_tier": "pro"}); err != nil {
		t.Fatal(err)
	}
	again, err := a.Authenticate(ctx, "tok.en.ada")
	if err != nil || again.ID != ada.ID || again.SubscriptionTier != "pro" {
		t.Fatalf("second call: %+v, %v", again, err)
	}
	// A new name in the token is written to the row.
	renamed, err := a.Authenticate(ctx, "tok.en.ada2")
	if err != nil || renamed.ID != ada.ID || renamed.DisplayName != "Ada Lovelace" {
		t.Fatalf("renamed: %+v, %v", renamed, err)
	}
	if fake.lookups != 1 {
		t.Fatalf("account looked up %d times within a minute, want 1", fake.lookups)
	}

	if _, err := a.Authenticate(ctx, "tok.en.eve"); !isAPIError(err, http.StatusConflict, "email-already-in-use") {
		t.Fatalf("second uid with a taken email: %v", err)
	}

	// Disabling in Firebase takes effect when the cached state expires.
	if _, err := a.Authenticate(ctx, "tok.en.bob"); err != nil {
		t.Fatal(err)
	}
	fake.set(func(f *fakeFirebase) { f.users["uid-bob"].Disabled = true })
	if _, err := a.Authenticate(ctx, "tok.en.bob"); err != nil {
		t.Fatalf("within the cache time: %v", err)
	}
	now = now.Add(firebaseStatusTTL)
	if _, err := a.Authenticate(ctx, "tok.en.bob"); !errors.Is(err, ErrAccountDisabled) {
		t.Fatalf("disabled account: %v, want ErrAccountDisabled", err)
	}

	// Revoked tokens: issued before tokensValidAfter.
	fake.set(func(f *fakeFirebase) { f.users["uid-ada"].TokensValidAfterMillis = now.UnixMilli() })
	if _, err := a.Authenticate(ctx, "tok.en.ada2"); !errors.Is(err, ErrBadToken) {
		t.Fatalf("revoked token: %v, want ErrBadToken", err)
	}

	// Disabled by the operator on this server.
	now = now.Add(firebaseStatusTTL)
	fake.set(func(f *fakeFirebase) { f.users["uid-ada"].TokensValidAfterMillis = 0 })
	if err := st.UpdateUser(ctx, ada.ID, map[string]any{"disabled": true}); err != nil {
		t.Fatal(err)
	}
	if _, err := a.Authenticate(ctx, "tok.en.ada2"); !errors.Is(err, ErrAccountDisabled) {
		t.Fatalf("row disabled: %v, want ErrAccountDisabled", err)
	}
	// Enabled again: the same token works.
	if err := st.UpdateUser(ctx, ada.ID, map[string]any{"disabled": false}); err != nil {
		t.Fatal(err)
	}
	if _, err := a.Authenticate(ctx, "tok.en.ada2"); err != nil {
		t.Fatalf("row enabled again: %v", err)
	}

	// Firebase unreachable: 503, not a sign-out.
	now = now.Add(firebaseStatusTTL)
	fake.set(func(f *fakeFirebase) { f.lookupErr = errors.New("connection refused") })
	if _, err := a.Authenticate(ctx, "tok.en.bob"); !isAPIError(err, http.StatusServiceUnavailable, CodeAuthUnavailable) {
		t.Fatalf("lookup failure: %v", err)
	}
	if _, err := a.Authenticate(ctx, "tok.en.unknown"); !isAPIError(err, http.StatusServiceUnavailable, CodeAuthUnavailable) {
		t.Fatalf("verifier failure: %v", err)
	}

	// Malformed tokens never reach Firebase.
	before := fake.verifies
	for _, tok := range []string{"no-dots", "a.b", "a.b.c.d", strings.Repeat("x", maxIDToken) + ".a.b"} {
		if _, err := a.Authenticate(ctx, tok); !errors.Is(err, ErrBadToken) {
			t.Errorf("%.20q: %v, want ErrBadToken", tok, err)
		}
	}
	if fake.verifies != before {
		t.Errorf("malformed tokens were sent to the verifier")
	}

	users, err := st.ListUsers(ctx)
	if err != nil || len(users) != 2 {
		t.Fatalf("users: %d rows (%v), want ada and bob only", len(users), err)
	}
}

func TestFirebaseAuthWithoutCredentialsSkipsLookups(t *testing.T) {
	fake := &fakeFirebase{tokens: map[string]*auth.Token{"tok.en.x": fakeToken("uid-x", "x@example.com", "X", time.Now())}}
	a := newFirebaseAuth(fake, storetest.Open(t), false, slog.New(slog.NewTextHandler(io.Discard, nil)))
	if _, err := a.Authenticate(context.Background(), "tok.en.x"); err != nil {
		t.Fatal(err)
	}
	if fake.lookups != 0 {
		t.Fatalf("GetUser called %d times without credentials", fake.lookups)
	}
}

func isAPIError(err error, status int, code string) bool {
	var ae *APIError
	return errors.As(err, &ae) && ae.Status == status && ae.Code == code
}

// TestFirebaseEmulator runs the Firebase mode against the real Auth
// emulator of scripts/firebase (firebase-tools).
func TestFirebaseEmulator(t *testing.T) {
	emu := startAuthEmulator(t, "demo-layerfix")
	// The emulator needs about ten CPU-seconds to start: let it warm up
	// while the package's other tests run.
	t.Parallel()
	emu.waitReady(t)
	ctx := context.Background()
	discard := slog.New(slog.NewTextHandler(io.Discard, nil))

	// The Admin SDK reads FIREBASE_AUTH_EMULATOR_HOST when a client is
	// built, so it is set only around that (t.Setenv refuses parallel tests).
	os.Unsetenv("FIREBASE_AUTH_EMULATOR_HOST")
	prodAuth, err := NewFirebaseAuth(ctx, &config.Config{FirebaseProjectID: "demo-layerfix"}, storetest.Open(t), discard)
	if err != nil {
		t.Fatal(err)
	}
	env := map[string]string{"LAYERFIX_AUTH_MODE": "firebase", "LAYERFIX_FIREBASE_PROJECT_ID": "demo-layerfix", "FIREBASE_AUTH_EMULATOR_HOST": emu.host}
	cfg := testConfig(t, env)
	st := storetest.Open(t)
	os.Setenv("FIREBASE_AUTH_EMULATOR_HOST", emu.host)
	fa, err := NewFirebaseAuth(ctx, cfg, st, discard)
	os.Unsetenv("FIREBASE_AUTH_EMULATOR_HOST")
	if err != nil {
		t.Fatal(err)
	}
	srv, err := New(cfg, Deps{Store: st, Analyzer: &fakeAnalyzer{}, Frontend: testFrontend, Authenticator: fa, Logger: discard})
	if err != nil {
		t.Fatal(err)
	}
	ts := &testServer{Server: srv, store: st, cfg: cfg, h: checkContract(t, srv.Handler())}

	profileOK := func(t *testing.T, idToken string) profile {
		t.Helper()
		w := ts.do(t, "GET", "/api/user/profile", "", "Authorization", "Bearer "+idToken)
		if w.Code != http.StatusOK {
			t.Fatalf("profile: %d %s", w.Code, w.Body)
		}
		var p profile
		if err := json.Unmarshal(w.Body.Bytes(), &p); err != nil {
			t.Fatal(err)
		}
		return p
	}
	refused := func(t *testing.T, idToken string) {
		t.Helper()
		w := ts.do(t, "GET", "/api/user/profile", "", "Authorization", "Bearer "+idToken)
		if w.Code != http.StatusUnauthorized || decodeError(t, w).Code != CodeUnauthenticated {
			t.Fatalf("want 401 %s, got %d %s", CodeUnauthenticated, w.Code, w.Body)
		}
	}
	disabled := func(t *testing.T, idToken string) {
		t.Helper()
		w := ts.do(t, "GET", "/api/user/profile", "", "Authorization", "Bearer "+idToken)
		if e := decodeError(t, w); w.Code != http.StatusForbidden || e.Code != CodeAccountDisabled || !strings.Contains(e.Message, "has been disabled") {
			t.Fatalf("want 403 %s, got %d %s", CodeAccountDisabled, w.Code, w.Body)
		}
	}
	rowsOf := func(t *testing.T, uid string) []store.User {
		t.Helper()
		all, err := st.ListUsers(ctx)
		if err != nil {
			t.Fatal(err)
		}
		var out []store.User
		for _, u := range all {
			if u.FirebaseUID != nil && *u.FirebaseUID == uid {
				out = append(out, u)
			}
		}
		return out
	}

	ada := emu.signUp(t, "ada@example.com", "correct horse 1")

	t.Run("sign-up then profile creates the row once", func(t *testing.T) {
		p := profileOK(t, ada.IDToken)
		if p.FirebaseUID == nil || *p.FirebaseUID != ada.LocalID || p.Email != "ada@example.com" || p.SubscriptionTier != "free" {
			t.Fatalf("profile %+v", p)
		}
		again := profileOK(t, ada.IDToken)
		if again.ID != p.ID {
			t.Fatalf("second call: user %d, first %d", again.ID, p.ID)
		}
		if rows := rowsOf(t, ada.LocalID); len(rows) != 1 {
			t.Fatalf("%d rows for the uid, want 1", len(rows))
		}
	})

	t.Run("display name update is reflected", func(t *testing.T) {
		emu.call(t, "accounts:update", "", map[string]any{"idToken": ada.IDToken, "displayName": "Ada Lovelace"})
		fresh := emu.signIn(t, "ada@example.com", "correct horse 1")
		if p := profileOK(t, fresh.IDToken); p.DisplayName != "Ada Lovelace" {
			t.Fatalf("displayName %q", p.DisplayName)
		}
		if rows := rowsOf(t, ada.LocalID); len(rows) != 1 || rows[0].DisplayName != "Ada Lovelace" {
			t.Fatalf("rows %+v", rows)
		}
	})

	t.Run("disabled user is told so", func(t *testing.T) {
		bob := emu.signUp(t, "bob@example.com", "battery staple 2")
		profileOK(t, bob.IDToken)
		emu.call(t, "projects/demo-layerfix/accounts:update", "owner", map[string]any{"localId": bob.LocalID, "disableUser": true})
		disabled(t, bob.IDToken)
	})

	t.Run("a user disabled on this server is told so, and enabled again signs in", func(t *testing.T) {
		dan := emu.signUp(t, "dan@example.com", "battery staple 4")
		p := profileOK(t, dan.IDToken)
		if err := st.UpdateUser(ctx, p.ID, map[string]any{"disabled": true}); err != nil {
			t.Fatal(err)
		}
		disabled(t, dan.IDToken)
		if err := st.UpdateUser(ctx, p.ID, map[string]any{"disabled": false}); err != nil {
			t.Fatal(err)
		}
		profileOK(t, dan.IDToken)
	})

	t.Run("edited or foreign tokens are refused", func(t *testing.T) {
		now := time.Now().Unix()
		cases := map[string]string{
			"payload edited to another uid": editClaims(t, ada.IDToken, map[string]any{"sub": "someone-else", "user_id": "someone-else"}),
			"expired":                       editClaims(t, ada.IDToken, map[string]any{"iat": now - 7200, "exp": now - 3600}),
			"unsigned, another project": unsignedToken(t, map[string]any{
				"iss": "https://securetoken.google.com/demo-other", "aud": "demo-other", "sub": ada.LocalID,
				"iat": now, "exp": now + 3600, "email": "ada@example.com"}),
			"garbage": "eyJhbGciOiJub25lIn0.bm90IGpzb24.",
		}
		for name, tok := range cases {
			t.Run(name, func(t *testing.T) { refused(t, tok) })
		}
	})

	t.Run("deleting the account needs a fresh sign-in and deletes the Firebase user", func(t *testing.T) {
		carol := emu.signUp(t, "carol@example.com", "correct horse 3")
		profileOK(t, carol.IDToken)
		stale := editClaims(t, carol.IDToken, map[string]any{"auth_time": time.Now().Add(-recentSignIn - time.Minute).Unix()})
		w := ts.do(t, "DELETE", "/api/user", "", "Authorization", "Bearer "+stale)
		if w.Code != http.StatusForbidden || decodeError(t, w).Code != CodeRecentSignIn {
			t.Fatalf("a sign-in older than 5 minutes: %d %s", w.Code, w.Body)
		}
		w = ts.do(t, "DELETE", "/api/user", "", "Authorization", "Bearer "+carol.IDToken)
		if w.Code != http.StatusOK || !strings.Contains(w.Body.String(), `"identityDeleted":true`) {
			t.Fatalf("delete: %d %s", w.Code, w.Body)
		}
		if rows := rowsOf(t, carol.LocalID); len(rows) != 0 {
			t.Fatalf("rows left: %+v", rows)
		}
		var found struct{ Users []any }
		json.Unmarshal(emu.call(t, "projects/demo-layerfix/accounts:lookup", "owner", map[string]any{"localId": []string{carol.LocalID}}), &found)
		if len(found.Users) != 0 {
			t.Fatalf("the Firebase account is still there: %+v", found.Users)
		}
		refused(t, carol.IDToken)
	})

	t.Run("emulator tokens are refused without the emulator", func(t *testing.T) {
		if _, err := prodAuth.Authenticate(ctx, ada.IDToken); !errors.Is(err, ErrBadToken) {
			t.Fatalf("unsigned emulator token: %v, want ErrBadToken", err)
		}
	})
}

// unsignedToken is a JWT with alg none, as the Auth emulator issues.
func unsignedToken(t *testing.T, claims map[string]any) string {
	t.Helper()
	b, err := json.Marshal(claims)
	if err != nil {
		t.Fatal(err)
	}
	enc := base64.RawURLEncoding
	return enc.EncodeToString([]byte(`{"alg":"none","typ":"JWT"}`)) + "." + enc.EncodeToString(b) + "."
}

// editClaims changes claims of a token and keeps its header and signature.
func editClaims(t *testing.T, tok string, set map[string]any) string {
	t.Helper()
	parts := strings.Split(tok, ".")
	if len(parts) != 3 {
		t.Fatalf("token has %d parts", len(parts))
	}
	raw, err := base64.RawURLEncoding.DecodeString(parts[1])
	if err != nil {
		t.Fatal(err)
	}
	var claims map[string]any
	if err := json.Unmarshal(raw, &claims); err != nil {
		t.Fatal(err)
	}
	for k, v := range set {
		claims[k] = v
	}
	b, _ := json.Marshal(claims)
	return parts[0] + "." + base64.RawURLEncoding.EncodeToString(b) + "." + parts[2]
}

// authEmulator is a Firebase Auth emulator process on a loopback port.
type authEmulator struct {
	host, project string
	out           *lockedBuffer
	exited        chan struct{}
	started       time.Time
}

type lockedBuffer struct {
	mu sync.Mutex
	b  bytes.Buffer
}

func (l *lockedBuffer) Write(p []byte) (int, error) {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.b.Write(p)
}

func (l *lockedBuffer) String() string {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.b.String()
}

// startAuthEmulator starts `firebase emulators:start --only auth` from
// scripts/firebase/node_modules and stops it when the test ends. Without
// Node or firebase-tools the test is skipped, unless
// LAYERFIX_REQUIRE_FIREBASE_EMULATOR is set (make test sets it).
func startAuthEmulator(t *testing.T, project string) *authEmulator {
	t.Helper()
	bin, err := filepath.Abs(filepath.Join("..", "scripts", "firebase", "node_modules", ".bin", "firebase"))
	if err != nil {
		t.Fatal(err)
	}
	_, nodeErr := exec.LookPath("node")
	if _, err := os.Stat(bin); err != nil || nodeErr != nil {
		msg := "Firebase Auth emulator test skipped: needs Node and firebase-tools (cd scripts/firebase && npm ci)"
		if os.Getenv("LAYERFIX_REQUIRE_FIREBASE_EMULATOR") != "" {
			t.Fatal(msg)
		}
		t.Skip(msg)
	}
	dir := t.TempDir()
	ports := freePorts(t, 3)
	conf := fmt.Sprintf(`{"emulators": {"auth": {"host": "127.0.0.1", "port": %d}, "hub": {"host": "127.0.0.1", "port": %d},
"logging": {"host": "127.0.0.1", "port": %d}, "ui": {"enabled": false}}}`, ports[0], ports[1], ports[2])
	if err := os.WriteFile(filepath.Join(dir, "firebase.json"), []byte(conf), 0o600); err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithCancel(context.Background())
	cmd := exec.CommandContext(ctx, bin, "emulators:start", "--only", "auth", "--project", project, "--config", filepath.Join(dir, "firebase.json"))
	cmd.Dir = dir
	// TMPDIR keeps its hub locator file apart from other runs.
	cmd.Env = append(os.Environ(), "CI=true", "TMPDIR="+dir, "NO_UPDATE_NOTIFIER=1", "FIREBASE_AUTH_EMULATOR_HOST=")
	cmd.Cancel = func() error { return cmd.Process.Signal(os.Interrupt) }
	cmd.WaitDelay = 5 * time.Second
	e := &authEmulator{host: fmt.Sprintf("127.0.0.1:%d", ports[0]), project: project, out: &lockedBuffer{}, exited: make(chan struct{}), started: time.Now()}
	cmd.Stdout, cmd.Stderr = e.out, e.out
	if err := cmd.Start(); err != nil {
		cancel()
		t.Fatalf("start the Auth emulator: %v", err)
	}
	go func() {
		_ = cmd.Wait()
		close(e.exited)
	}()
	t.Cleanup(func() {
		cancel()
		<-e.exited
	})
	return e
}

func (e *authEmulator) waitReady(t *testing.T) {
	t.Helper()
	deadline := time.Now().Add(3 * time.Minute)
	for time.Now().Before(deadline) {
		select {
		case <-e.exited:
			t.Fatalf("the Auth emulator exited:\n%s", e.out)
		case <-time.After(200 * time.Millisecond):
		}
		resp, err := http.Get("http://" + e.host + "/")
		if err != nil {
			continue
		}
		var status struct {
			AuthEmulator struct{ Ready bool } `json:"authEmulator"`
		}
		err = json.NewDecoder(resp.Body).Decode(&status)
		resp.Body.Close()
		if err == nil && status.AuthEmulator.Ready {
			t.Logf("Auth emulator ready on %s after %s", e.host, time.Since(e.started).Round(100*time.Millisecond))
			return
		}
	}
	t.Fatalf("the Auth emulator was not ready within 3 minutes:\n%s", e.out)
}

// emulatorAccount is the answer of signUp and signInWithPassword.
type emulatorAccount struct {
	IDToken string `json:"idToken"`
	LocalID string `json:"localId"`
}

func (e *authEmulator) signUp(t *testing.T, email, password string) emulatorAccount {
	t.Helper()
	var a emulatorAccount
	json.Unmarshal(e.call(t, "accounts:signUp", "", map[string]any{"email": email, "password": password, "returnSecureToken": true}), &a)
	if a.IDToken == "" || a.LocalID == "" {
		t.Fatalf("signUp gave no token or uid")
	}
	return a
}

func (e *authEmulator) signIn(t *testing.T, email, password string) emulatorAccount {
	t.Helper()
	var a emulatorAccount
	json.Unmarshal(e.call(t, "accounts:signInWithPassword", "", map[string]any{"email": email, "password": password, "returnSecureToken": true}), &a)
	if a.IDToken == "" {
		t.Fatalf("signInWithPassword gave no token")
	}
	return a
}

// call posts to the emulator's Identity Toolkit REST API; bearer "owner"
// makes it an admin call.
func (e *authEmulator) call(t *testing.T, method, bearer string, body map[string]any) []byte {
	t.Helper()
	b, _ := json.Marshal(body)
	req, err := http.NewRequest("POST", "http://"+e.host+"/identitytoolkit.googleapis.com/v1/"+method+"?key=fake", bytes.NewReader(b))
	if err != nil {
		t.Fatal(err)
	}
	req.Header.Set("Content-Type", "application/json")
	if bearer != "" {
		req.Header.Set("Authorization", "Bearer "+bearer)
	}
	c := &http.Client{Timeout: 10 * time.Second}
	resp, err := c.Do(req)
	if err != nil {
		t.Fatalf("%s: %v", method, err)
	}
	defer resp.Body.Close()
	out, _ := io.ReadAll(resp.Body)
	if resp.StatusCode != http.StatusOK {
		t.Fatalf("%s: %d %s", method, resp.StatusCode, out)
	}
	return out
}

// freePorts returns n distinct free loopback ports.
func freePorts(t *testing.T, n int) []int {
	t.Helper()
	var ports []int
	for range n {
		l, err := net.Listen("tcp", "127.0.0.1:0")
		if err != nil {
			t.Fatal(err)
		}
		defer l.Close()
		ports = append(ports, l.Addr().(*net.TCPAddr).Port)
	}
	return ports
}
