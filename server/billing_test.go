package server

import (
	"bytes"
	"encoding/json"
	"fmt"
	"io"
	"log/slog"
	"net/http"
	"net/http/httptest"
	"net/url"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/layerfix/layerfix/billing"
	"github.com/layerfix/layerfix/billing/billingtest"
	"github.com/layerfix/layerfix/config"
	"github.com/layerfix/layerfix/photos"
	"github.com/layerfix/layerfix/store"
	"github.com/layerfix/layerfix/store/storetest"
)

// fakeStripe is a stateful stand-in for the Stripe API that speaks its
// wire protocol (form-encoded requests, JSON objects and errors), so the
// real stripe-go client is exercised. stripe-mock checks request shapes but
// keeps no state; this fake lets a test walk a subscription through its
// life.
type fakeStripe struct {
	srv *httptest.Server

	mu           sync.Mutex
	n            int
	customers    int
	setupIntents map[string]*fakeSetupIntent
	subs         map[string]*fakeSub
	intents      map[string]*fakePaymentIntent
	byKey        map[string]string // subscription idempotency key -> id
	prices       map[string]int64
	fail         int    // answer every request with this status (0: normal)
	firstPayment string // "" (paid), "requires_action" or "declined"
	reqs         []fakeReq
	hold         *readHold // delays the answer of the next subscription read
}

// readHold holds one subscription read: its answer is taken when the read
// arrives (reached), and sent only once release is closed, as when a
// network read of Stripe is slow.
type readHold struct {
	reached chan struct{}
	release chan struct{}
}

type fakeReq struct {
	method, path, key string
	form              url.Values
}

type fakeSetupIntent struct {
	id, customer, status, pm string
	meta                     map[string]string
}

type fakeSub struct {
	id, customer, status, price, pi string
	periodEnd                       int64
	cancelAtPeriodEnd               bool
}

type fakePaymentIntent struct {
	id, status, lastError string
}

const (
	testWebhookSecret = "whsec_test_secret"
	testPeriodEnd     = 1772323200 // 2026-03-01T00:00:00Z
)

func newFakeStripe(t *testing.T) *fakeStripe {
	f := &fakeStripe{setupIntents: map[string]*fakeSetupIntent{}, subs: map[string]*fakeSub{}, intents: map[string]*fakePaymentIntent{},
		byKey: map[string]string{}, prices: map[string]int64{"price_hobby": 399, "price_pro": 799, "price_farm": 1999}}
	f.srv = httptest.NewServer(http.HandlerFunc(f.serve))
	t.Cleanup(f.srv.Close)
	return f
}

func (f *fakeStripe) id(prefix string) string {
	f.n++
	return fmt.Sprintf("%s_%04d", prefix, f.n)
}

func (f *fakeStripe) serve(w http.ResponseWriter, r *http.Request) {
	r.ParseForm()
	f.mu.Lock()
	defer f.mu.Unlock()
	f.reqs = append(f.reqs, fakeReq{r.Method, r.URL.Path, r.Header.Get("Idempotency-Key"), r.Form})
	w.Header().Set("Content-Type", "application/json")
	if f.fail != 0 {
		w.WriteHeader(f.fail)
		io.WriteString(w, `{"error":{"type":"api_error","message":"An unknown error occurred"}}`)
		return
	}
	if r.Header.Get("Authorization") != "Bearer sk_test_fake" {
		w.WriteHeader(401)
		io.WriteString(w, `{"error":{"type":"invalid_request_error","message":"Invalid API Key"}}`)
		return
	}
	parts := strings.Split(strings.Trim(r.URL.Path, "/"), "/") // v1, resource[, id]
	res, id := parts[1], ""
	if len(parts) > 2 {
		id = parts[2]
	}
	var out any
	switch {
	case r.Method == "GET" && res == "prices" && f.prices[id] > 0:
		out = map[string]any{"id": id, "object": "price", "unit_amount": f.prices[id], "currency": "usd"}
	case r.Method == "POST" && res == "customers":
		f.customers++
		out = map[string]any{"id": f.id("cus"), "object": "customer", "email": r.Form.Get("email")}
	case r.Method == "POST" && res == "setup_intents" && id == "":
		si := &fakeSetupIntent{id: f.id("seti"), customer: r.Form.Get("customer"), status: "requires_payment_method",
			meta: map[string]string{"layerfix_tier": r.Form.Get("metadata[layerfix_tier]"), "layerfix_user_id": r.Form.Get("metadata[layerfix_user_id]")}}
		f.setupIntents[si.id] = si
		out = si.json()
	case r.Method == "GET" && res == "setup_intents" && f.setupIntents[id] != nil:
		out = f.setupIntents[id].json()
	case r.Method == "POST" && res == "subscriptions" && id == "":
		if sid, ok := f.byKey[r.Header.Get("Idempotency-Key")]; ok {
			out = f.subs[sid].json(f)
			break
		}
		sub := &fakeSub{id: f.id("sub"), customer: r.Form.Get("customer"), status: "active", price: r.Form.Get("items[0][price]"), periodEnd: testPeriodEnd}
		pi := &fakePaymentIntent{id: f.id("pi"), status: "succeeded"}
		switch f.firstPayment {
		case "requires_action":
			sub.status, pi.status = "incomplete", "requires_action"
		case "declined":
			sub.status, pi.status, pi.lastError = "incomplete", "requires_payment_method", "Your card has insufficient funds."
		}
		sub.pi = pi.id
		f.subs[sub.id], f.intents[pi.id] = sub, pi
		f.byKey[r.Header.Get("Idempotency-Key")] = sub.id
		out = sub.json(f)
	case r.Method == "GET" && res == "subscriptions" && f.subs[id] != nil:
		out = f.subs[id].json(f)
		if h := f.hold; h != nil {
			f.hold = nil
			f.mu.Unlock()
			close(h.reached)
			<-h.release
			f.mu.Lock()
		}
	case r.Method == "POST" && res == "subscriptions" && f.subs[id] != nil:
		sub := f.subs[id]
		if p := r.Form.Get("items[0][price]"); p != "" {
			sub.price = p
		}
		if v := r.Form.Get("cancel_at_period_end"); v != "" {
			sub.cancelAtPeriodEnd = v == "true"
		}
		out = sub.json(f)
	case r.Method == "DELETE" && res == "subscriptions" && f.subs[id] != nil:
		f.subs[id].status = "canceled"
		out = f.subs[id].json(f)
	case r.Method == "GET" && res == "payment_intents" && f.intents[id] != nil:
		pi := f.intents[id]
		o := map[string]any{"id": pi.id, "object": "payment_intent", "status": pi.status, "client_secret": pi.id + "_secret_abc"}
		if pi.lastError != "" {
			o["last_payment_error"] = map[string]any{"type": "card_error", "message": pi.lastError}
		}
		out = o
	default:
		w.WriteHeader(404)
		io.WriteString(w, `{"error":{"type":"invalid_request_error","code":"resource_missing","message":"No such object"}}`)
		return
	}
	json.NewEncoder(w).Encode(out)
}

func (si *fakeSetupIntent) json() map[string]any {
	o := map[string]any{"id": si.id, "object": "setup_intent", "customer": si.customer, "status": si.status,
		"client_secret": si.id + "_secret_xyz", "metadata": si.meta, "payment_method": nil}
	if si.pm != "" {
		o["payment_method"] = si.pm
	}
	return o
}

func (s *fakeSub) json(f *fakeStripe) map[string]any {
	inv := map[string]any{"id": "in_" + s.id, "object": "invoice", "status": "paid",
		"payments": map[string]any{"object": "list", "data": []any{map[string]any{"id": "inpay_" + s.id, "object": "invoice_payment",
			"payment": map[string]any{"type": "payment_intent", "payment_intent": s.pi}}}}}
	if s.status == "incomplete" {
		inv["status"] = "open"
	}
	return map[string]any{"id": s.id, "object": "subscription", "customer": s.customer, "status": s.status,
		"cancel_at_period_end": s.cancelAtPeriodEnd, "latest_invoice": inv,
		"items": map[string]any{"object": "list", "data": []any{map[string]any{"id": "si_" + s.id, "object": "subscription_item",
			"current_period_end": s.periodEnd, "price": map[string]any{"id": s.price, "object": "price"}}}}}
}

// set changes the fake's state under its lock.
func (f *fakeStripe) set(fn func(f *fakeStripe)) {
	f.mu.Lock()
	defer f.mu.Unlock()
	fn(f)
}

// confirm does what the browser's Payment Element does to a SetupIntent.
func (f *fakeStripe) confirm(t *testing.T, clientSecret string) string {
	t.Helper()
	id, _, _ := strings.Cut(clientSecret, "_secret_")
	f.set(func(f *fakeStripe) {
		si := f.setupIntents[id]
		if si == nil {
			t.Fatalf("no setup intent %s", id)
		}
		si.status, si.pm = "succeeded", "pm_card_visa"
	})
	return id
}

func (f *fakeStripe) requests(method, prefix string) []fakeReq {
	f.mu.Lock()
	defer f.mu.Unlock()
	var out []fakeReq
	for _, r := range f.reqs {
		if r.method == method && strings.HasPrefix(r.path, prefix) {
			out = append(out, r)
		}
	}
	return out
}

func (f *fakeStripe) onlySub(t *testing.T) *fakeSub {
	t.Helper()
	f.mu.Lock()
	defer f.mu.Unlock()
	if len(f.subs) != 1 {
		t.Fatalf("%d subscriptions at Stripe, want 1", len(f.subs))
	}
	for _, s := range f.subs {
		return s
	}
	return nil
}

// billingServer is a test server with Stripe pointed at base and a clock
// the test can move.
type billingServer struct {
	*testServer
	mu  sync.Mutex
	now time.Time
}

func (b *billingServer) advance(d time.Duration) {
	b.mu.Lock()
	b.now = b.now.Add(d)
	b.mu.Unlock()
}

func stripeEnv(base string) map[string]string {
	return map[string]string{
		"LAYERFIX_STRIPE_SECRET_KEY": "sk_test_fake", "LAYERFIX_STRIPE_PUBLISHABLE_KEY": "pk_test_fake",
		"LAYERFIX_STRIPE_WEBHOOK_SECRET": testWebhookSecret, "LAYERFIX_STRIPE_PRICE_HOBBY": "price_hobby",
		"LAYERFIX_STRIPE_PRICE_PRO": "price_pro", "LAYERFIX_STRIPE_PRICE_FARM": "price_farm", "LAYERFIX_STRIPE_API_BASE": base,
	}
}

func newBillingServer(t *testing.T, base string) *billingServer {
	t.Helper()
	return newBillingServerOn(t, base, storetest.Open(t), nil)
}

// newBillingServerOn is a billing server on st, with extra settings.
func newBillingServerOn(t *testing.T, base string, st *store.Store, extra map[string]string) *billingServer {
	t.Helper()
	env := stripeEnv(base)
	for k, v := range extra {
		env[k] = v
	}
	cfg := testConfig(t, env)
	photoStore, err := photos.Open(t.Context(), cfg)
	if err != nil {
		t.Fatal(err)
	}
	p, err := billing.NewStripe(billing.StripeConfig{SecretKey: cfg.StripeSecretKey, WebhookSecret: cfg.StripeWebhookSecret,
		Prices: cfg.StripePrices, APIBase: cfg.StripeAPIBase, Timeout: 5 * time.Second, MaxRetries: -1})
	if err != nil {
		t.Fatal(err)
	}
	b := &billingServer{now: time.Date(2026, 2, 10, 12, 0, 0, 0, time.UTC)}
	clock := func() time.Time { b.mu.Lock(); defer b.mu.Unlock(); return b.now }
	s, err := New(cfg, Deps{Store: st, Photos: photoStore, Analyzer: &fakeAnalyzer{}, Billing: p, Frontend: testFrontend, Now: clock,
		Logger: slog.New(slog.NewTextHandler(io.Discard, nil))})
	if err != nil {
		t.Fatal(err)
	}
	b.testServer = &testServer{Server: s, store: st, cfg: cfg, h: checkContract(t, s.Handler())}
	return b
}

func decodeMap(t *testing.T, w *httptest.ResponseRecorder) map[string]any {
	t.Helper()
	var m map[string]any
	if err := json.Unmarshal(w.Body.Bytes(), &m); err != nil {
		t.Fatalf("body is not JSON: %q", w.Body.String())
	}
	return m
}

func profileOfUser(t *testing.T, ts *testServer, tok string) profile {
	t.Helper()
	w := ts.do(t, "GET", "/api/user/profile", "", bearer(tok)...)
	if w.Code != 200 {
		t.Fatalf("profile: %d %s", w.Code, w.Body.String())
	}
	var p profile
	json.Unmarshal(w.Body.Bytes(), &p)
	return p
}

// subscribe runs create, the browser's confirmation and complete.
func subscribe(t *testing.T, ts *billingServer, f *fakeStripe, tok, tier string) map[string]any {
	t.Helper()
	w := ts.do(t, "POST", "/api/create-subscription", `{"tier":"`+tier+`"}`, bearer(tok)...)
	if w.Code != 200 {
		t.Fatalf("create: %d %s", w.Code, w.Body.String())
	}
	secret, _ := decodeMap(t, w)["clientSecret"].(string)
	if secret == "" {
		t.Fatalf("create gave no client secret: %s", w.Body.String())
	}
	seti := f.confirm(t, secret)
	w = ts.do(t, "POST", "/api/complete-subscription", `{"setupIntentId":"`+seti+`"}`, bearer(tok)...)
	if w.Code != 200 {
		t.Fatalf("complete: %d %s", w.Code, w.Body.String())
	}
	m := decodeMap(t, w)
	m["setupIntentId"] = seti
	return m
}

// Webhook calls on a server without billing are answered 404, quietly: no
// ERROR line per call in the log.
func TestWebhookWithBillingOffIsQuiet(t *testing.T) {
	var logs bytes.Buffer
	cfg := testConfig(t, nil)
	s, err := New(cfg, Deps{Store: storetest.Open(t), Analyzer: &fakeAnalyzer{}, Frontend: testFrontend,
		Logger: slog.New(slog.NewTextHandler(&logs, &slog.HandlerOptions{Level: slog.LevelInfo}))})
	if err != nil {
		t.Fatal(err)
	}
	ts := &testServer{Server: s, cfg: cfg, h: checkContract(t, s.Handler())}
	for i := 0; i < 3; i++ {
		w := ts.do(t, "POST", "/api/stripe/webhook", `{"id":"evt_1"}`, "Stripe-Signature", "t=1,v1=x")
		if w.Code != 404 || decodeError(t, w).Code != CodeBillingDisabled {
			t.Fatalf("webhook with billing off: %d %s", w.Code, w.Body.String())
		}
	}
	if strings.Contains(logs.String(), "level=ERROR") || strings.Contains(logs.String(), "level=WARN") {
		t.Fatalf("webhook calls logged as errors:\n%s", logs.String())
	}
}

func TestBillingOff(t *testing.T) {
	ts := newTestServer(t, nil, nil)
	tok := signup(t, ts, "maker@example.com", "gears-and-layers").Token
	for _, c := range []struct{ path, body string }{
		{"/api/create-subscription", `{"tier":"pro"}`},
		{"/api/complete-subscription", `{"setupIntentId":"seti_1"}`},
		{"/api/change-subscription", `{"newTier":"pro"}`},
		{"/api/cancel-subscription", ``},
	} {
		hdr := bearer(tok)
		w := ts.do(t, "POST", c.path, c.body, hdr...)
		if w.Code != 503 {
			t.Fatalf("%s: %d %s", c.path, w.Code, w.Body.String())
		}
		if e := decodeError(t, w); e.Code != CodeBillingDisabled || !strings.Contains(e.Message, "Billing is not enabled on this server") {
			t.Fatalf("%s: %+v", c.path, e)
		}
	}
	// Signed out, the subscription routes still ask for a sign-in first.
	if w := ts.do(t, "POST", "/api/create-subscription", `{"tier":"pro"}`); w.Code != 401 {
		t.Fatalf("anonymous create: %d", w.Code)
	}
	w := ts.do(t, "GET", "/api/subscription", "", bearer(tok)...)
	if m := decodeMap(t, w); w.Code != 200 || m["billingEnabled"] != false || m["effectiveTier"] != "free" {
		t.Fatalf("subscription: %d %s", w.Code, w.Body.String())
	}
	w = ts.do(t, "GET", "/api/pricing", "")
	var prices []PriceEntry
	json.Unmarshal(w.Body.Bytes(), &prices)
	if w.Code != 200 || fmt.Sprint(prices) != fmt.Sprint(FallbackPrices) {
		t.Fatalf("pricing: %d %s", w.Code, w.Body.String())
	}
	page := ts.do(t, "GET", "/subscribe", "")
	if !strings.Contains(page.Body.String(), `"billingEnabled":false`) || strings.Contains(page.Header().Get("Content-Security-Policy"), "stripe") {
		t.Fatalf("billing-off page: %s / %s", page.Body.String(), page.Header().Get("Content-Security-Policy"))
	}
}

func TestBillingConfigNeedsEverySetting(t *testing.T) {
	env := stripeEnv("")
	delete(env, "LAYERFIX_STRIPE_WEBHOOK_SECRET")
	if _, err := config.Load(nil, func(k string) string { return env[k] }); err == nil || !strings.Contains(err.Error(), "LAYERFIX_STRIPE_WEBHOOK_SECRET") {
		t.Fatalf("missing webhook secret: %v", err)
	}
	env = stripeEnv("")
	env["LAYERFIX_STRIPE_PRICE_PRO"] = "7.99"
	if _, err := config.Load(nil, func(k string) string { return env[k] }); err == nil || !strings.Contains(err.Error(), "LAYERFIX_STRIPE_PRICE_PRO") {
		t.Fatalf("bad price id: %v", err)
	}
	cfg, err := config.Load(nil, func(k string) string { return stripeEnv("")[k] })
	if err != nil {
		t.Fatal(err)
	}
	printed := fmt.Sprint(cfg.Printable()...)
	if strings.Contains(printed, "sk_test_fake") || strings.Contains(printed, testWebhookSecret) || !strings.Contains(printed, "pk_test_fake") {
		t.Fatalf("printed config: %s", printed)
	}
}

func TestBillingOnPageConfigAndCSP(t *testing.T) {
	ts := newBillingServer(t, newFakeStripe(t).srv.URL)
	w := ts.do(t, "GET", "/subscribe", "")
	body, csp := w.Body.String(), w.Header().Get("Content-Security-Policy")
	if !strings.Contains(body, `"stripePublishableKey":"pk_test_fake"`) || !strings.Contains(body, `"billingEnabled":true`) || strings.Contains(body, "sk_test") {
		t.Fatalf("runtime config: %s", body)
	}
	for _, want := range []string{"script-src 'self' https://js.stripe.com", "https://hooks.stripe.com", "https://api.stripe.com"} {
		if !strings.Contains(csp, want) {
			t.Fatalf("CSP lacks %q: %s", want, csp)
		}
	}
}

func TestSubscribeCompleteAndRepeat(t *testing.T) {
	f := newFakeStripe(t)
	ts := newBillingServer(t, f.srv.URL)
	tok := signup(t, ts.testServer, "maker@example.com", "gears-and-layers").Token

	for _, bad := range []string{`{"tier":"free"}`, `{"tier":"platinum"}`, `{}`} {
		w := ts.do(t, "POST", "/api/create-subscription", bad, bearer(tok)...)
		if e := decodeError(t, w); w.Code != 400 || e.Fields["tier"] == "" {
			t.Fatalf("%s: %d %+v", bad, w.Code, e)
		}
	}
	// Two starts reuse one customer.
	if w := ts.do(t, "POST", "/api/create-subscription", `{"tier":"pro"}`, bearer(tok)...); w.Code != 200 {
		t.Fatalf("first create: %d %s", w.Code, w.Body.String())
	}
	m := subscribe(t, ts, f, tok, "hobby")
	if m["status"] != "active" || m["tier"] != "hobby" || m["requiresAction"] != false || m["currentPeriodEnd"] != "2026-03-01T00:00:00Z" {
		t.Fatalf("complete: %v", m)
	}
	if f.customers != 1 {
		t.Fatalf("%d customers created, want 1", f.customers)
	}
	sub := f.onlySub(t)
	if sub.price != "price_hobby" {
		t.Fatalf("subscribed to %s", sub.price)
	}
	creates := f.requests("POST", "/v1/subscriptions")
	if len(creates) != 1 || creates[0].form.Get("default_payment_method") != "pm_card_visa" || creates[0].key != "layerfix-sub-"+m["setupIntentId"].(string) {
		t.Fatalf("subscription request %+v", creates)
	}
	if p := profileOfUser(t, ts.testServer, tok); p.SubscriptionTier != "hobby" || p.SubscriptionStatus != "active" || p.MonthlyLimit != 20 {
		t.Fatalf("profile %+v", p)
	}
	// Already subscribed: no secret, and completing again makes no second subscription.
	w := ts.do(t, "POST", "/api/create-subscription", `{"tier":"pro"}`, bearer(tok)...)
	if got := decodeMap(t, w); w.Code != 200 || got["clientSecret"] != nil || got["subscribed"] != true {
		t.Fatalf("create when subscribed: %d %s", w.Code, w.Body.String())
	}
	w = ts.do(t, "POST", "/api/complete-subscription", `{"setupIntentId":"`+m["setupIntentId"].(string)+`"}`, bearer(tok)...)
	if w.Code != 200 {
		t.Fatalf("complete again: %d %s", w.Code, w.Body.String())
	}
	f.onlySub(t)
	w = ts.do(t, "GET", "/api/subscription", "", bearer(tok)...)
	if got := decodeMap(t, w); got["hasSubscription"] != true || got["currentPeriodEnd"] != "2026-03-01T00:00:00Z" || got["effectiveTier"] != "hobby" {
		t.Fatalf("subscription view %s", w.Body.String())
	}
}

func TestCompleteChecksTheSetupIntent(t *testing.T) {
	f := newFakeStripe(t)
	ts := newBillingServer(t, f.srv.URL)
	ada := signup(t, ts.testServer, "ada@example.com", "gears-and-layers").Token
	bob := signup(t, ts.testServer, "bob@example.com", "gears-and-layers").Token
	secretOf := func(tok string) string {
		w := ts.do(t, "POST", "/api/create-subscription", `{"tier":"pro"}`, bearer(tok)...)
		return decodeMap(t, w)["clientSecret"].(string)
	}
	adaSecret := secretOf(ada)
	secretOf(bob) // bob has a customer of his own
	adaSeti, _, _ := strings.Cut(adaSecret, "_secret_")

	cases := []struct {
		name, tok, body string
		status          int
		code            string
		confirmFirst    bool
	}{
		{"not confirmed yet", ada, `{"setupIntentId":"` + adaSeti + `"}`, 409, CodeSetupIncomplete, false},
		{"malformed id", ada, `{"setupIntentId":"pi_123"}`, 400, CodeValidation, false},
		{"unknown id", ada, `{"setupIntentId":"seti_9999"}`, 404, CodeNotFound, false},
		{"someone else's", bob, `{"setupIntentId":"` + adaSeti + `"}`, 404, CodeNotFound, true},
	}
	for _, tc := range cases {
		if tc.confirmFirst {
			f.confirm(t, adaSecret)
		}
		w := ts.do(t, "POST", "/api/complete-subscription", tc.body, bearer(tc.tok)...)
		if e := decodeError(t, w); w.Code != tc.status || e.Code != tc.code {
			t.Fatalf("%s: %d %+v", tc.name, w.Code, e)
		}
	}
	if len(f.subs) != 0 {
		t.Fatal("a subscription was created")
	}
	if p := profileOfUser(t, ts.testServer, bob); p.SubscriptionTier != "free" {
		t.Fatalf("bob %+v", p)
	}
}

func TestFirstInvoiceNeedingAuthentication(t *testing.T) {
	f := newFakeStripe(t)
	f.firstPayment = "requires_action"
	ts := newBillingServer(t, f.srv.URL)
	tok := signup(t, ts.testServer, "maker@example.com", "gears-and-layers").Token
	m := subscribe(t, ts, f, tok, "pro")
	sub := f.onlySub(t)
	if m["requiresAction"] != true || m["status"] != "incomplete" || m["clientSecret"] != sub.pi+"_secret_abc" {
		t.Fatalf("complete: %v", m)
	}
	// Not paid yet: the plan is recorded but not in effect.
	if p := profileOfUser(t, ts.testServer, tok); p.SubscriptionTier != "pro" || p.SubscriptionStatus != "incomplete" || p.MonthlyLimit != 3 {
		t.Fatalf("profile before authentication %+v", p)
	}
	// The browser confirms the payment; completing again reads the new state.
	f.set(func(f *fakeStripe) { f.intents[sub.pi].status, f.subs[sub.id].status = "succeeded", "active" })
	w := ts.do(t, "POST", "/api/complete-subscription", `{"setupIntentId":"`+m["setupIntentId"].(string)+`"}`, bearer(tok)...)
	if got := decodeMap(t, w); w.Code != 200 || got["status"] != "active" || got["requiresAction"] != false {
		t.Fatalf("complete after authentication: %d %s", w.Code, w.Body.String())
	}
	f.onlySub(t)
	if p := profileOfUser(t, ts.testServer, tok); p.SubscriptionStatus != "active" || p.MonthlyLimit != 50 {
		t.Fatalf("profile after authentication %+v", p)
	}
}

func TestFirstInvoiceDeclined(t *testing.T) {
	f := newFakeStripe(t)
	f.firstPayment = "declined"
	ts := newBillingServer(t, f.srv.URL)
	tok := signup(t, ts.testServer, "maker@example.com", "gears-and-layers").Token
	w := ts.do(t, "POST", "/api/create-subscription", `{"tier":"farm"}`, bearer(tok)...)
	seti := f.confirm(t, decodeMap(t, w)["clientSecret"].(string))
	w = ts.do(t, "POST", "/api/complete-subscription", `{"setupIntentId":"`+seti+`"}`, bearer(tok)...)
	if e := decodeError(t, w); w.Code != 402 || e.Code != CodePaymentFailed || e.Message != "Your card has insufficient funds." {
		t.Fatalf("declined: %d %+v", w.Code, e)
	}
	if p := profileOfUser(t, ts.testServer, tok); p.MonthlyLimit != 3 {
		t.Fatalf("declined card lifted the plan: %+v", p)
	}
	// A new attempt with another card is allowed (the failed one is not live).
	if w := ts.do(t, "POST", "/api/create-subscription", `{"tier":"farm"}`, bearer(tok)...); decodeMap(t, w)["clientSecret"] == nil {
		t.Fatalf("retry after decline: %s", w.Body.String())
	}
}

func TestChangeSubscription(t *testing.T) {
	f := newFakeStripe(t)
	ts := newBillingServer(t, f.srv.URL)
	tok := signup(t, ts.testServer, "maker@example.com", "gears-and-layers").Token
	w := ts.do(t, "POST", "/api/change-subscription", `{"newTier":"pro"}`, bearer(tok)...)
	if e := decodeError(t, w); w.Code != 409 || e.Code != CodeNoSubscription {
		t.Fatalf("change without subscription: %d %+v", w.Code, e)
	}
	subscribe(t, ts, f, tok, "hobby")
	for _, bad := range []string{`{"newTier":"hobby"}`, `{"newTier":"gold"}`, `{"newTier":"free"}`} {
		w := ts.do(t, "POST", "/api/change-subscription", bad, bearer(tok)...)
		if e := decodeError(t, w); w.Code != 400 || e.Fields["newTier"] == "" {
			t.Fatalf("%s: %d %+v", bad, w.Code, e)
		}
	}
	w = ts.do(t, "POST", "/api/change-subscription", `{"newTier":"pro"}`, bearer(tok)...)
	m := decodeMap(t, w)
	if w.Code != 200 || !strings.Contains(m["message"].(string), "Pro") || m["currentPeriodEnd"] != "2026-03-01T00:00:00Z" {
		t.Fatalf("change: %d %s", w.Code, w.Body.String())
	}
	updates := f.requests("POST", "/v1/subscriptions/")
	u := updates[len(updates)-1]
	if u.form.Get("proration_behavior") != "always_invoice" || u.form.Get("items[0][price]") != "price_pro" || u.form.Has("billing_cycle_anchor") || u.key == "" {
		t.Fatalf("change request %+v", u)
	}
	if p := profileOfUser(t, ts.testServer, tok); p.SubscriptionTier != "pro" || p.MonthlyLimit != 50 {
		t.Fatalf("profile %+v", p)
	}
}

func TestCancelAtPeriodEndThenDeleted(t *testing.T) {
	f := newFakeStripe(t)
	ts := newBillingServer(t, f.srv.URL)
	tok := signup(t, ts.testServer, "maker@example.com", "gears-and-layers").Token
	if w := ts.do(t, "POST", "/api/cancel-subscription", "", bearer(tok)...); w.Code != 409 {
		t.Fatalf("cancel without subscription: %d", w.Code)
	}
	subscribe(t, ts, f, tok, "pro")
	w := ts.do(t, "POST", "/api/cancel-subscription", "", bearer(tok)...)
	m := decodeMap(t, w)
	if w.Code != 200 || m["cancelAtPeriodEnd"] != true || m["currentPeriodEnd"] != "2026-03-01T00:00:00Z" ||
		!strings.Contains(m["message"].(string), "until March 1, 2026") {
		t.Fatalf("cancel: %d %s", w.Code, w.Body.String())
	}
	sub := f.onlySub(t)
	if !sub.cancelAtPeriodEnd || sub.status != "active" {
		t.Fatalf("at Stripe: %+v", sub)
	}
	// Paid access continues until the period ends.
	if p := profileOfUser(t, ts.testServer, tok); p.SubscriptionTier != "pro" || p.MonthlyLimit != 50 {
		t.Fatalf("profile after cancel %+v", p)
	}
	if got := decodeMap(t, ts.do(t, "GET", "/api/subscription", "", bearer(tok)...)); got["cancelAtPeriodEnd"] != true {
		t.Fatalf("view after cancel %v", got)
	}
	// The period ends: Stripe deletes the subscription and says so.
	f.set(func(f *fakeStripe) { f.subs[sub.id].status = "canceled" })
	w = sendEvent(t, ts.testServer, "evt_deleted", "customer.subscription.deleted", subObject(sub.id, sub.customer, "canceled"), time.Now())
	if w.Code != 200 {
		t.Fatalf("webhook: %d %s", w.Code, w.Body.String())
	}
	if p := profileOfUser(t, ts.testServer, tok); p.SubscriptionTier != "free" || p.SubscriptionStatus != "canceled" || p.MonthlyLimit != 3 {
		t.Fatalf("profile after the period %+v", p)
	}
}

func TestStripeOutageLeavesStateUnchanged(t *testing.T) {
	f := newFakeStripe(t)
	ts := newBillingServer(t, f.srv.URL)
	tok := signup(t, ts.testServer, "maker@example.com", "gears-and-layers").Token
	newcomer := signup(t, ts.testServer, "new@example.com", "gears-and-layers").Token
	subscribe(t, ts, f, tok, "hobby")
	sub := f.onlySub(t)
	before, _ := ts.store.SubscriptionOf(t.Context(), profileOfUser(t, ts.testServer, tok).ID)

	f.set(func(f *fakeStripe) { f.fail = 500 })
	for _, c := range []struct{ tok, path, body string }{
		{tok, "/api/change-subscription", `{"newTier":"farm"}`},
		{tok, "/api/cancel-subscription", ``},
		{newcomer, "/api/create-subscription", `{"tier":"pro"}`},
	} {
		w := ts.do(t, "POST", c.path, c.body, bearer(c.tok)...)
		if e := decodeError(t, w); w.Code != 503 || e.Code != CodeBillingUnavailable || !strings.Contains(e.Message, "Nothing was changed") {
			t.Fatalf("%s: %d %+v", c.path, w.Code, e)
		}
	}
	w := sendEvent(t, ts.testServer, "evt_outage", "customer.subscription.updated", subObject(sub.id, sub.customer, "active"), time.Now())
	if w.Code != 503 {
		t.Fatalf("webhook during outage: %d %s", w.Code, w.Body.String())
	}
	after, _ := ts.store.SubscriptionOf(t.Context(), before.UserID)
	if fmt.Sprint(*after) != fmt.Sprint(*before) {
		t.Fatalf("state changed during the outage:\n%+v\n%+v", before, after)
	}
	if s, _ := ts.store.SubscriptionOf(t.Context(), profileOfUser(t, ts.testServer, newcomer).ID); s.CustomerID != "" {
		t.Fatalf("customer stored during the outage: %+v", s)
	}
	if done, _ := ts.store.StripeEventProcessed(t.Context(), "evt_outage"); done {
		t.Fatal("the event was recorded although it was not applied")
	}
	// Stripe retries the event once it is back: now it is applied.
	f.set(func(f *fakeStripe) { f.fail = 0; f.subs[sub.id].price = "price_farm" })
	w = sendEvent(t, ts.testServer, "evt_outage", "customer.subscription.updated", subObject(sub.id, sub.customer, "active"), time.Now())
	if got := decodeMap(t, w); w.Code != 200 || got["outcome"] != "applied" {
		t.Fatalf("redelivery: %d %s", w.Code, w.Body.String())
	}
	if p := profileOfUser(t, ts.testServer, tok); p.SubscriptionTier != "farm" {
		t.Fatalf("profile %+v", p)
	}
}

func TestPricingFromStripeIsCached(t *testing.T) {
	f := newFakeStripe(t)
	f.prices["price_pro"] = 899
	ts := newBillingServer(t, f.srv.URL)
	get := func() string {
		w := ts.do(t, "GET", "/api/pricing", "")
		if w.Code != 200 {
			t.Fatalf("pricing: %d", w.Code)
		}
		return strings.TrimSpace(w.Body.String())
	}
	want := `[{"tier":"free","amount":0},{"tier":"hobby","amount":3.99},{"tier":"pro","amount":8.99},{"tier":"farm","amount":19.99}]`
	if got := get(); got != want {
		t.Fatalf("pricing %s", got)
	}
	f.set(func(f *fakeStripe) { f.prices["price_pro"] = 999 })
	ts.advance(4 * time.Minute)
	if got := get(); got != want || len(f.requests("GET", "/v1/prices/")) != 3 {
		t.Fatalf("not cached: %s, %d price reads", got, len(f.requests("GET", "/v1/prices/")))
	}
	ts.advance(2 * time.Minute)
	if got := get(); !strings.Contains(got, `"pro","amount":9.99`) {
		t.Fatalf("not refreshed after 5 minutes: %s", got)
	}
	// Stripe down: the fallback amounts.
	f.set(func(f *fakeStripe) { f.fail = 500 })
	ts.advance(6 * time.Minute)
	var prices []PriceEntry
	json.Unmarshal([]byte(get()), &prices)
	if fmt.Sprint(prices) != fmt.Sprint(FallbackPrices) {
		t.Fatalf("fallback %v", prices)
	}
}

// newStripeMockServer is a test server whose Stripe is stripe-mock (the
// test is skipped without it).
func newStripeMockServer(t *testing.T) *testServer {
	t.Helper()
	base := billingtest.StripeMock(t)
	cfg := testConfig(t, stripeEnv(base))
	p, err := billing.NewStripe(billing.StripeConfig{SecretKey: "sk_test_123", WebhookSecret: cfg.StripeWebhookSecret,
		Prices: cfg.StripePrices, APIBase: base, Timeout: 10 * time.Second, MaxRetries: -1})
	if err != nil {
		t.Fatal(err)
	}
	st := storetest.Open(t)
	s, err := New(cfg, Deps{Store: st, Analyzer: &fakeAnalyzer{}, Billing: p, Frontend: testFrontend, Logger: slog.New(slog.NewTextHandler(io.Discard, nil))})
	if err != nil {
		t.Fatal(err)
	}
	return &testServer{Server: s, store: st, cfg: cfg, h: checkContract(t, s.Handler())}
}

// TestCreateSubscriptionAgainstStripeMock is the acceptance check with
// stripe-mock: the real client, the real request shapes, a client secret.
func TestCreateSubscriptionAgainstStripeMock(t *testing.T) {
	ts := newStripeMockServer(t)
	st := ts.store
	tok := signup(t, ts, "maker@example.com", "gears-and-layers").Token
	w := ts.do(t, "POST", "/api/create-subscription", `{"tier":"pro"}`, bearer(tok)...)
	if secret, _ := decodeMap(t, w)["clientSecret"].(string); w.Code != 200 || secret == "" {
		t.Fatalf("create: %d %s", w.Code, w.Body.String())
	}
	sub, _ := st.SubscriptionOf(t.Context(), profileOfUser(t, ts, tok).ID)
	if !strings.HasPrefix(sub.CustomerID, "cus_") {
		t.Fatalf("customer not stored: %+v", sub)
	}
	w = ts.do(t, "GET", "/api/pricing", "")
	var prices []PriceEntry
	if json.Unmarshal(w.Body.Bytes(), &prices); w.Code != 200 || len(prices) != 4 || prices[0].Tier != "free" {
		t.Fatalf("pricing: %d %s", w.Code, w.Body.String())
	}
}
