package main

import (
	"archive/tar"
	"bytes"
	"compress/gzip"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"go/parser"
	"go/token"
	"io"
	"log/slog"
	"math"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"runtime/debug"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/layerfix/layerfix/ai"
	"github.com/layerfix/layerfix/config"
	"github.com/layerfix/layerfix/server"
	"github.com/layerfix/layerfix/store"
	"github.com/layerfix/layerfix/store/blob"
	"github.com/layerfix/layerfix/store/blob/blobtest"
	"github.com/layerfix/layerfix/store/storetest"
)

// geminiReply is a generateContent answer whose text is the given JSON.
func geminiReply(text string) string {
	b, _ := json.Marshal(map[string]any{"candidates": []any{map[string]any{
		"content":      map[string]any{"parts": []any{map[string]any{"text": text}}, "role": "model"},
		"finishReason": "STOP",
	}}})
	return string(b)
}

var geminiSteps = `{"summary":"Gemini sees wet PETG stringing between the towers.","steps":[
{"title":"GEMINI: dry the PETG at 65 °C for 6 h","description":"Use a filament dryer.","priority":"high"},
{"title":"GEMINI: raise retraction to 6 mm","description":"Bowden extruder.","priority":"medium"},
{"title":"GEMINI: lower the nozzle to 235 °C","description":"Print a tower.","priority":"low"}],
"additionalTips":["Store PETG with desiccant."]}`

// TestTroubleshootWithGemini runs the real wiring of main (Gemini grounded
// in and falling back to the built-in engine) behind /api/troubleshoot,
// against a fake Gemini that speaks the REST shape.
func TestTroubleshootWithGemini(t *testing.T) {
	const timeout = 1500 * time.Millisecond
	cases := []struct {
		name       string
		fallback   string
		handler    func(w http.ResponseWriter, r *http.Request)
		wantStatus int
		wantGemini bool
	}{
		{"good answer", "on", func(w http.ResponseWriter, r *http.Request) { io.WriteString(w, geminiReply(geminiSteps)) }, 200, true},
		{"always 503", "on", func(w http.ResponseWriter, r *http.Request) {
			http.Error(w, `{"error":{"code":503,"message":"overloaded","status":"UNAVAILABLE"}}`, http.StatusServiceUnavailable)
		}, 200, false},
		{"garbage", "on", func(w http.ResponseWriter, r *http.Request) { io.WriteString(w, geminiReply("not json at all")) }, 200, false},
		{"hangs", "on", func(w http.ResponseWriter, r *http.Request) {
			select {
			case <-r.Context().Done():
			case <-time.After(10 * time.Second):
			}
		}, 200, false},
		{"503 with fallback off", "off", func(w http.ResponseWriter, r *http.Request) {
			http.Error(w, `{"error":{"code":503,"message":"overloaded","status":"UNAVAILABLE"}}`, http.StatusServiceUnavailable)
		}, 503, false},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			var calls atomic.Int32
			fake := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
				calls.Add(1)
				io.Copy(io.Discard, r.Body) // read, so a client that gives up cancels r.Context()
				if !strings.HasSuffix(r.URL.Path, ":generateContent") || r.Header.Get("x-goog-api-key") != "k-test" {
					http.Error(w, "wrong request", 404)
					return
				}
				w.Header().Set("Content-Type", "application/json")
				c.handler(w, r)
			}))
			defer fake.Close()
			env := map[string]string{
				"LAYERFIX_GEMINI_API_KEY": "k-test", "LAYERFIX_GEMINI_BASE_URL": fake.URL,
				"LAYERFIX_GEMINI_TIMEOUT": timeout.String(), "LAYERFIX_AI_FALLBACK": c.fallback,
			}
			srv := serverWithEnv(t, env)
			start := time.Now()
			w := serveReq(srv, "POST", "/api/troubleshoot", stringingRequest)
			took := time.Since(start)
			if took > timeout+time.Second {
				t.Fatalf("answered after %v, more than the timeout plus a second", took)
			}
			if w.Code != c.wantStatus {
				t.Fatalf("status %d: %s", w.Code, w.Body.String())
			}
			if calls.Load() == 0 {
				t.Fatal("Gemini was never called")
			}
			if c.wantStatus != 200 {
				if !strings.Contains(w.Body.String(), "AI analysis service is currently unavailable") {
					t.Fatalf("503 body %s", w.Body.String())
				}
				return
			}
			var res ai.Result
			if err := json.Unmarshal(w.Body.Bytes(), &res); err != nil || len(res.Steps) < 3 {
				t.Fatalf("result %s", w.Body.String())
			}
			fromGemini := strings.HasPrefix(res.Steps[0].Title, "GEMINI:")
			if fromGemini != c.wantGemini {
				t.Fatalf("first step %q, want from Gemini = %v", res.Steps[0].Title, c.wantGemini)
			}
			if !c.wantGemini && !strings.Contains(strings.ToLower(fmt.Sprint(res.Steps)), "retract") {
				t.Fatalf("fallback answer is not the engine's diagnosis: %+v", res.Steps)
			}
		})
	}
}

func TestSoftMemoryLimit(t *testing.T) {
	for _, tc := range []struct {
		total uint64
		want  int64
	}{
		{1 << 30, 192 << 20},   // a 1 GB Pi: a quarter is 256 MiB, capped
		{512 << 20, 128 << 20}, // a 512 MB Pi Zero 2: a quarter
		{128 << 20, 64 << 20},  // a tiny container: the floor
		{24 << 30, 192 << 20},  // a big server: still the cap; GOMEMLIMIT raises it
		{0, 192 << 20},         // unknown
	} {
		if got := softMemoryLimit(tc.total); got != tc.want {
			t.Errorf("softMemoryLimit(%d MiB) = %d MiB, want %d MiB", tc.total>>20, got>>20, tc.want>>20)
		}
	}
	env := map[string]string{"GOMEMLIMIT": "512MiB"}
	if got := applyMemoryLimit(func(k string) string { return env[k] }); !strings.Contains(got, "operator") {
		t.Errorf("an operator's GOMEMLIMIT was not respected: %s", got)
	}
}

// Under a memory limit the collector runs less often unless the operator
// chose GOGC; without a limit it keeps Go's default.
func TestGCPercent(t *testing.T) {
	defer debug.SetGCPercent(debug.SetGCPercent(100))
	defer debug.SetMemoryLimit(debug.SetMemoryLimit(-1))
	getenv := func(env map[string]string) func(string) string { return func(k string) string { return env[k] } }

	debug.SetMemoryLimit(192 << 20)
	debug.SetGCPercent(100)
	if got := applyGCPercent(getenv(nil)); !strings.HasPrefix(got, "400 ") || debug.SetGCPercent(100) != gcPercentUnderLimit {
		t.Errorf("under a limit: %s", got)
	}
	if got := applyGCPercent(getenv(map[string]string{"GOGC": "150"})); !strings.Contains(got, "operator") || debug.SetGCPercent(100) != 100 {
		t.Errorf("an operator's GOGC was not respected: %s", got)
	}
	debug.SetMemoryLimit(math.MaxInt64)
	if got := applyGCPercent(getenv(nil)); debug.SetGCPercent(100) != 100 {
		t.Errorf("without a limit: %s", got)
	}
}

func TestVersionFlagsAndHealthcheck(t *testing.T) {
	for _, args := range [][]string{{"--version"}, {"-version"}, {"version"}, {"-h"}} {
		if err := run(args); err != nil {
			t.Errorf("%v: %v", args, err)
		}
	}
	ok := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if r.URL.Path != "/fix/healthz" {
			w.WriteHeader(404)
			return
		}
		w.Write([]byte(`{"status":"ok"}`))
	}))
	defer ok.Close()
	env := map[string]string{"LAYERFIX_ADDR": strings.TrimPrefix(ok.URL, "http://"), "LAYERFIX_BASE_PATH": "/fix"}
	if err := healthcheck(nil, func(k string) string { return env[k] }); err != nil {
		t.Fatalf("healthy server: %v", err)
	}
	env["LAYERFIX_BASE_PATH"] = ""
	if err := healthcheck(nil, func(k string) string { return env[k] }); err == nil {
		t.Fatal("a 404 counted as healthy")
	}
}

// TestUserListJSON: the operator's account list as JSON, with the plan
// actually in force and this month's usage.
func TestUserListJSON(t *testing.T) {
	dir := t.TempDir()
	t.Setenv("LAYERFIX_DATA_DIR", dir)
	st, err := store.Open(context.Background(), store.Options{DataDir: dir})
	if err != nil {
		t.Fatal(err)
	}
	st.CreateUser(context.Background(), &store.User{Email: "farm@example.com", DisplayName: "Farm", SubscriptionTier: "farm", SubscriptionStatus: "active"})
	st.Close()
	var out bytes.Buffer
	if err := userCmd([]string{"list", "--json"}, &out); err != nil {
		t.Fatal(err)
	}
	var rows []struct {
		Email, EffectiveTier string
		MonthlyLimit         int
	}
	if err := json.Unmarshal(out.Bytes(), &rows); err != nil || len(rows) != 1 || rows[0].Email != "farm@example.com" || rows[0].EffectiveTier != "farm" || rows[0].MonthlyLimit != 175 {
		t.Fatalf("user list --json: %v %s", err, out.String())
	}
}

// TestBackupAndRestoreCommands: layerfix backup --out, then restore FILE
// into another data dir given as a flag after the file, refusing to
// overwrite without --force.
func TestBackupAndRestoreCommands(t *testing.T) {
	src, dst := t.TempDir(), t.TempDir()
	st, err := store.Open(context.Background(), store.Options{DataDir: src})
	if err != nil {
		t.Fatal(err)
	}
	st.CreateUser(context.Background(), &store.User{Email: "kept@example.com", DisplayName: "Kept"})
	st.Close()
	out := filepath.Join(t.TempDir(), "b.tar.gz")
	var stderr bytes.Buffer
	if err := backupCmd([]string{"--out", out, "-data-dir", src}, io.Discard, &stderr); err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(stderr.String(), "sqlite database") {
		t.Fatalf("backup said %q", stderr.String())
	}
	if err := restoreCmd([]string{out, "-data-dir", dst}, io.Discard); err != nil {
		t.Fatal(err)
	}
	if err := restoreCmd([]string{out, "-data-dir", dst}, io.Discard); err == nil || !strings.Contains(err.Error(), "--force") {
		t.Fatalf("second restore: %v", err)
	}
	if err := restoreCmd([]string{"--force", out, "-data-dir", dst}, io.Discard); err != nil {
		t.Fatal(err)
	}
	t.Setenv("LAYERFIX_DATA_DIR", dst)
	var list bytes.Buffer
	if err := userCmd([]string{"list", "--json"}, &list); err != nil || !strings.Contains(list.String(), "kept@example.com") {
		t.Fatalf("restored accounts: %v %s", err, list.String())
	}
	if err := restoreCmd(nil, io.Discard); err == nil || !strings.Contains(err.Error(), "usage") {
		t.Fatalf("restore without a file: %v", err)
	}
}

// TestRestoreCommandRefusesWhatTheDiskCannotHold: an archive whose
// backup.json promises more than the data dir's disk holds is refused
// before anything is unpacked, with a message for the operator.
func TestRestoreCommandRefusesWhatTheDiskCannotHold(t *testing.T) {
	manifest := []byte(`{"format":2,"dialect":"sqlite","schemaVersion":1,"databaseBytes":1024,"photos":1,"photoBytes":562949953421312,"largestPhotoBytes":562949953421312}`)
	var buf bytes.Buffer
	gz := gzip.NewWriter(&buf)
	tw := tar.NewWriter(gz)
	tw.WriteHeader(&tar.Header{Name: "backup.json", Mode: 0o600, Size: int64(len(manifest)), Typeflag: tar.TypeReg})
	tw.Write(manifest)
	tw.WriteHeader(&tar.Header{Name: "layerfix.db", Mode: 0o600, Size: 1024, Typeflag: tar.TypeReg})
	tw.Write(make([]byte, 1024))
	tw.Close()
	gz.Close()
	file := filepath.Join(t.TempDir(), "big.tar.gz")
	if err := os.WriteFile(file, buf.Bytes(), 0o600); err != nil {
		t.Fatal(err)
	}
	dst := t.TempDir()
	err := restoreCmd([]string{file, "-data-dir", dst}, io.Discard)
	if err == nil || !strings.Contains(err.Error(), "free some space first") {
		t.Fatalf("restore: %v", err)
	}
	if _, err := os.Stat(filepath.Join(dst, "layerfix.db")); err == nil {
		t.Fatal("a database was restored")
	}
}

// TestUserCreateDisableDelete: the operator's account commands against a
// real data dir: create prints a password link, disable ends sessions,
// delete removes the account, its rows and its photo files.
func TestUserCreateDisableDelete(t *testing.T) {
	dir := t.TempDir()
	t.Setenv("LAYERFIX_DATA_DIR", dir)
	var out bytes.Buffer
	if err := userCmd([]string{"create", "maker@example.com", "Maker"}, &out); err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(out.String(), "/login?mode=reset&oobCode=") {
		t.Fatalf("create printed %q", out.String())
	}
	if err := userCmd([]string{"create", "maker@example.com", "Again"}, io.Discard); err == nil || !strings.Contains(err.Error(), "already exists") {
		t.Fatalf("second create: %v", err)
	}
	if err := userCmd([]string{"create", "not-an-email", "X"}, io.Discard); err == nil {
		t.Fatal("created an account for a bad address")
	}

	ctx := context.Background()
	st, err := store.Open(ctx, store.Options{DataDir: dir})
	if err != nil {
		t.Fatal(err)
	}
	u, err := st.UserByEmail(ctx, "maker@example.com")
	if err != nil || !u.EmailVerified || u.PasswordHash != nil {
		t.Fatalf("created account: %+v %v", u, err)
	}
	st.CreateSession(ctx, u.ID, "session-hash", time.Now().Add(time.Hour))
	disk := filepath.Join(dir, "photos", "ph")
	os.MkdirAll(disk, 0o700)
	os.WriteFile(filepath.Join(disk, "photo1.jpg"), []byte("jpeg"), 0o600)
	st.CreatePhotos(ctx, []store.Photo{{ID: "photo1", UserID: u.ID}})
	st.Close()

	if err := userCmd([]string{"disable", "maker@example.com"}, io.Discard); err != nil {
		t.Fatal(err)
	}
	st, _ = store.Open(ctx, store.Options{DataDir: dir})
	u, _ = st.UserByEmail(ctx, "maker@example.com")
	if _, err := st.SessionUser(ctx, "session-hash", time.Now()); !u.Disabled || err == nil {
		t.Fatalf("disable: disabled=%v, session still works (%v)", u.Disabled, err)
	}
	st.Close()

	if err := userCmd([]string{"delete", "maker@example.com"}, io.Discard); err == nil || !strings.Contains(err.Error(), "--yes") {
		t.Fatalf("delete without --yes: %v", err)
	}
	out.Reset()
	if err := userCmd([]string{"delete", "maker@example.com", "--yes"}, &out); err != nil || !strings.Contains(out.String(), "1 photos") {
		t.Fatalf("delete: %v %q", err, out.String())
	}
	if _, err := os.Stat(filepath.Join(disk, "photo1.jpg")); !os.IsNotExist(err) {
		t.Fatalf("the photo file is still there: %v", err)
	}
	if err := userCmd([]string{"disable", "maker@example.com"}, io.Discard); err == nil || !strings.Contains(err.Error(), "no account") {
		t.Fatalf("disable after delete: %v", err)
	}
}

// TestBillingLogHidesURLSecrets: the Stripe API base is logged with its
// password and secret-looking parameters hidden.
func TestBillingLogHidesURLSecrets(t *testing.T) {
	cfg, err := config.Load(nil, func(k string) string {
		return map[string]string{
			"LAYERFIX_STRIPE_SECRET_KEY": "sk_test_abc", "LAYERFIX_STRIPE_PUBLISHABLE_KEY": "pk_test_abc",
			"LAYERFIX_STRIPE_WEBHOOK_SECRET": "whsec_abc", "LAYERFIX_STRIPE_PRICE_HOBBY": "price_h",
			"LAYERFIX_STRIPE_PRICE_PRO": "price_p", "LAYERFIX_STRIPE_PRICE_FARM": "price_f",
			"LAYERFIX_STRIPE_API_BASE": "http://gw:base-pass-1@stripe.internal:12111/?key=base-pass-2",
		}[k]
	})
	if err != nil {
		t.Fatal(err)
	}
	var logs bytes.Buffer
	if _, err := newBilling(cfg, slog.New(slog.NewTextHandler(&logs, nil))); err != nil {
		t.Fatal(err)
	}
	if strings.Contains(logs.String(), "base-pass") || !strings.Contains(logs.String(), "stripe.internal:12111") {
		t.Fatalf("billing log: %s", logs.String())
	}
}

// openAIReply is a chat completion whose message is the given text.
func openAIReply(text string) string {
	b, _ := json.Marshal(map[string]any{"id": "chatcmpl-1", "object": "chat.completion", "created": 1764115200, "model": "qwen2.5:7b",
		"choices": []any{map[string]any{"index": 0, "finish_reason": "stop", "message": map[string]any{"role": "assistant", "content": text}}},
		"usage":   map[string]any{"prompt_tokens": 1200, "completion_tokens": 300, "total_tokens": 1500}})
	return string(b)
}

// openAIServer runs the real wiring of main for an OpenAI-compatible model
// at a fake /v1/chat/completions that handler answers, with metrics on.
func openAIServer(t *testing.T, fallback, anonLimit string, timeout time.Duration, handler http.HandlerFunc) (*server.Server, *atomic.Int32) {
	t.Helper()
	calls := new(atomic.Int32)
	fake := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		calls.Add(1)
		io.Copy(io.Discard, r.Body) // read, so a client that gives up cancels r.Context()
		if r.URL.Path != "/v1/chat/completions" || r.Header.Get("Authorization") != "Bearer sk-local" {
			http.Error(w, `{"error":{"message":"wrong request","type":"invalid_request_error"}}`, 404)
			return
		}
		w.Header().Set("Content-Type", "application/json")
		handler(w, r)
	}))
	t.Cleanup(fake.Close)
	env := map[string]string{
		"LAYERFIX_AI_PROVIDER": "openai", "LAYERFIX_OPENAI_BASE_URL": fake.URL + "/v1", "LAYERFIX_OPENAI_API_KEY": "sk-local",
		"LAYERFIX_OPENAI_MODEL": "qwen2.5:7b", "LAYERFIX_OPENAI_TIMEOUT": timeout.String(), "LAYERFIX_AI_FALLBACK": fallback,
		"LAYERFIX_ANON_MONTHLY_LIMIT": anonLimit, "LAYERFIX_METRICS": "on",
	}
	return serverWithEnv(t, env), calls
}

// serverWithEnv runs the real wiring of main (configuration read from env,
// the analyzer it selects, the server) on a test store, once the built-in
// engine has loaded: the timeouts under test are the model's, not the
// engine's start (under -race on two cores building the index takes
// seconds).
func serverWithEnv(t *testing.T, env map[string]string) *server.Server {
	t.Helper()
	cfg, err := config.Load(nil, func(k string) string { return env[k] })
	if err != nil {
		t.Fatal(err)
	}
	quiet := slog.New(slog.NewTextHandler(io.Discard, nil))
	// These servers only read the engine (no learner is wired in): they
	// share one, built once.
	defer func(b func() (*ai.Engine, error)) { buildEngine = b }(buildEngine)
	buildEngine = sharedEngine
	an, engine, err := newAnalyzer(context.Background(), cfg, quiet)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := engine.Engine(context.Background()); err != nil {
		t.Fatal(err)
	}
	srv, err := server.New(cfg, server.Deps{Store: storetest.Open(t), Analyzer: an, Frontend: frontendFS(), Logger: quiet})
	if err != nil {
		t.Fatal(err)
	}
	return srv
}

// sharedEngine is the built-in engine of the servers of serverWithEnv.
var sharedEngine = sync.OnceValues(ai.NewEngine)

func serveReq(srv *server.Server, method, path, body string) *httptest.ResponseRecorder {
	req := httptest.NewRequest(method, path, strings.NewReader(body))
	req.Header.Set("Content-Type", "application/json")
	w := httptest.NewRecorder()
	srv.Handler().ServeHTTP(w, req)
	return w
}

const stringingRequest = `{"category":"other","description":"Thin strings and hairs between the towers with new PETG","material":"PETG","nozzleTemp":245,"printerBrand":"Creality Ender 3","images":[]}`

// TestTroubleshootWithOpenAI runs the real wiring of main with an
// OpenAI-compatible model (grounded in and falling back to the built-in
// engine) behind /api/troubleshoot: the answer says which engine and model
// answered, and /metrics counts it.
func TestTroubleshootWithOpenAI(t *testing.T) {
	const timeout = 1500 * time.Millisecond
	for _, c := range []struct {
		name       string
		handler    http.HandlerFunc
		wantEngine string
	}{
		{"good answer", func(w http.ResponseWriter, r *http.Request) {
			io.WriteString(w, openAIReply(strings.ReplaceAll(geminiSteps, "Gemini sees", "The model sees")))
		}, ai.EngineOpenAI},
		{"malformed JSON", func(w http.ResponseWriter, r *http.Request) { io.WriteString(w, openAIReply(`{"summary":"cut`)) }, ai.EngineFallback},
		{"garbage", func(w http.ResponseWriter, r *http.Request) { io.WriteString(w, "\x00\xffnot a completion") }, ai.EngineFallback},
		{"429", func(w http.ResponseWriter, r *http.Request) {
			w.Header().Set("Retry-After-Ms", "20")
			http.Error(w, `{"error":{"message":"rate limited","type":"rate_limit_error"}}`, http.StatusTooManyRequests)
		}, ai.EngineFallback},
		{"hangs", func(w http.ResponseWriter, r *http.Request) { <-r.Context().Done() }, ai.EngineFallback},
	} {
		t.Run(c.name, func(t *testing.T) {
			srv, calls := openAIServer(t, "on", "3", timeout, c.handler)
			start := time.Now()
			w := serveReq(srv, "POST", "/api/troubleshoot", stringingRequest)
			if took := time.Since(start); took > timeout+time.Second {
				t.Fatalf("answered after %v, more than the timeout plus a second", took)
			}
			if w.Code != 200 || calls.Load() == 0 {
				t.Fatalf("status %d after %d calls: %s", w.Code, calls.Load(), w.Body.String())
			}
			var res ai.Result
			if err := json.Unmarshal(w.Body.Bytes(), &res); err != nil || len(res.Steps) < 3 {
				t.Fatalf("result %s", w.Body.String())
			}
			if res.Engine != c.wantEngine || res.Model != "qwen2.5:7b" {
				t.Fatalf("answered by %q (%q), want %s qwen2.5:7b", res.Engine, res.Model, c.wantEngine)
			}
			fromModel := strings.HasPrefix(res.Steps[0].Title, "GEMINI:")
			if fromModel != (c.wantEngine == ai.EngineOpenAI) {
				t.Fatalf("first step %q from the model = %v", res.Steps[0].Title, fromModel)
			}
			if !fromModel && (res.FallbackFrom != ai.EngineOpenAI || !strings.Contains(strings.ToLower(fmt.Sprint(res.Steps)), "retract")) {
				t.Fatalf("fallback answer is not the engine's diagnosis: %+v", res)
			}
			m := serveReq(srv, "GET", "/metrics", "").Body.String()
			for _, want := range []string{
				`layerfix_analyses_total{engine="` + c.wantEngine + `",outcome="ok"} 1`,
				`layerfix_analyses_total{engine="built-in",outcome="ok"} 0`,
				`layerfix_ai_model_info{engine="openai",model="qwen2.5:7b"} 1`,
			} {
				if !strings.Contains(m, want) {
					t.Errorf("/metrics lacks %s", want)
				}
			}
			if strings.Contains(m, "sk-local") {
				t.Error("the API key is in /metrics")
			}
		})
	}
}

// TestOpenAIFailureTakesNoCredit: with the fallback off, a failed model
// answers 503 naming it and gives the visitor's credit back; the next
// analysis, answered, takes it.
func TestOpenAIFailureTakesNoCredit(t *testing.T) {
	var failing atomic.Bool
	failing.Store(true)
	srv, _ := openAIServer(t, "off", "1", 2*time.Second, func(w http.ResponseWriter, r *http.Request) {
		if failing.Load() {
			io.WriteString(w, openAIReply("I cannot answer in JSON."))
			return
		}
		io.WriteString(w, openAIReply(geminiSteps))
	})
	w := serveReq(srv, "POST", "/api/troubleshoot", stringingRequest)
	if w.Code != 503 || !strings.Contains(w.Body.String(), "qwen2.5:7b") || strings.Contains(w.Body.String(), "sk-local") {
		t.Fatalf("failed model: %d %s", w.Code, w.Body.String())
	}
	failing.Store(false)
	if w := serveReq(srv, "POST", "/api/troubleshoot", stringingRequest); w.Code != 200 || !strings.Contains(w.Body.String(), `"engine":"openai"`) {
		t.Fatalf("after a failure the credit is gone: %d %s", w.Code, w.Body.String())
	}
	if w := serveReq(srv, "POST", "/api/troubleshoot", stringingRequest); w.Code != 429 {
		t.Fatalf("the answered analysis took no credit: %d %s", w.Code, w.Body.String())
	}
	if m := serveReq(srv, "GET", "/metrics", "").Body.String(); !strings.Contains(m, `layerfix_analyses_total{engine="openai",outcome="error"} 1`) ||
		!strings.Contains(m, `layerfix_openai_failures_total{reason="invalid_reply"}`) {
		t.Error("/metrics does not count the failure")
	}
}

// TestOperatorCommandsDoNotBuildTheServer: the user, backup and restore
// commands call the config, accounts and store packages directly; none of
// them imports the web server.
func TestOperatorCommandsDoNotBuildTheServer(t *testing.T) {
	for _, file := range []string{"cli.go", "backup.go"} {
		f, err := parser.ParseFile(token.NewFileSet(), file, nil, parser.ImportsOnly)
		if err != nil {
			t.Fatal(err)
		}
		for _, imp := range f.Imports {
			if path, _ := strconv.Unquote(imp.Path.Value); path == "github.com/layerfix/layerfix/server" {
				t.Errorf("%s imports %s", file, path)
			}
		}
	}
}

// TestUserDeleteRemovesObjectStorePhotos: with LAYERFIX_BLOB_URL set, the
// user command deletes the account's photos from the object store the
// server keeps them in, not from the unused photos directory.
func TestUserDeleteRemovesObjectStorePhotos(t *testing.T) {
	dir := t.TempDir()
	s3 := blobtest.StartS3(t, "layerfix")
	t.Setenv("LAYERFIX_DATA_DIR", dir)
	t.Setenv("LAYERFIX_BLOB_URL", s3.URL)
	t.Setenv("LAYERFIX_S3_ACCESS_KEY", s3.AccessKey)
	t.Setenv("LAYERFIX_S3_SECRET_KEY", s3.SecretKey)
	if err := userCmd([]string{"create", "maker@example.com", "Maker"}, io.Discard); err != nil {
		t.Fatal(err)
	}
	ctx := context.Background()
	c, err := blob.ParseS3URL(s3.URL)
	if err != nil {
		t.Fatal(err)
	}
	c.AccessKey, c.SecretKey = s3.AccessKey, s3.SecretKey
	bucket, err := blob.NewS3(ctx, c)
	if err != nil {
		t.Fatal(err)
	}
	if err := bucket.Put(ctx, "photo1"+store.PhotoFileSuffix, []byte("jpeg")); err != nil {
		t.Fatal(err)
	}
	st, err := store.Open(ctx, store.Options{DataDir: dir})
	if err != nil {
		t.Fatal(err)
	}
	u, err := st.UserByEmail(ctx, "maker@example.com")
	if err != nil {
		t.Fatal(err)
	}
	st.CreatePhotos(ctx, []store.Photo{{ID: "photo1", UserID: u.ID}})
	st.Close()

	var out bytes.Buffer
	if err := userCmd([]string{"delete", "maker@example.com", "--yes"}, &out); err != nil || !strings.Contains(out.String(), "1 photos") {
		t.Fatalf("delete: %v %q", err, out.String())
	}
	if r, err := bucket.Open(ctx, "photo1"+store.PhotoFileSuffix); !errors.Is(err, blob.ErrNotFound) {
		if r != nil {
			r.Close()
		}
		t.Fatalf("the photo is still in the object store: %v", err)
	}
}
