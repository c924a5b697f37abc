package billing

import (
	"bytes"
	"context"
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"
	"net/url"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/stripe/stripe-go/v85/webhook"

	"github.com/layerfix/layerfix/billing/billingtest"
)

var testPrices = map[string]string{"hobby": "price_hobby", "pro": "price_pro", "farm": "price_farm"}

const testWebhookSecret = "whsec_test_secret"

// sent is one outbound request as the provider wrote it.
type sent struct {
	method, path, idempotencyKey string
	form                         url.Values
}

// recorder is an http.RoundTripper that keeps every request.
type recorder struct {
	mu   sync.Mutex
	reqs []sent
}

func (r *recorder) RoundTrip(req *http.Request) (*http.Response, error) {
	s := sent{method: req.Method, path: req.URL.Path, idempotencyKey: req.Header.Get("Idempotency-Key")}
	if req.Body != nil {
		b, _ := io.ReadAll(req.Body)
		req.Body = io.NopCloser(bytes.NewReader(b))
		s.form, _ = url.ParseQuery(string(b))
	}
	if req.Method == http.MethodGet || (req.Method == http.MethodDelete && len(s.form) == 0) {
		s.form = req.URL.Query()
	}
	r.mu.Lock()
	r.reqs = append(r.reqs, s)
	r.mu.Unlock()
	return http.DefaultTransport.RoundTrip(req)
}

func (r *recorder) last(t *testing.T, method, pathPrefix string) sent {
	t.Helper()
	r.mu.Lock()
	defer r.mu.Unlock()
	for i := len(r.reqs) - 1; i >= 0; i-- {
		if r.reqs[i].method == method && strings.HasPrefix(r.reqs[i].path, pathPrefix) {
			return r.reqs[i]
		}
	}
	t.Fatalf("no %s %s request", method, pathPrefix)
	return sent{}
}

func newTestStripe(t *testing.T, base string, rt http.RoundTripper, timeout time.Duration) *Stripe {
	t.Helper()
	s, err := NewStripe(StripeConfig{SecretKey: "sk_test_123", WebhookSecret: testWebhookSecret, Prices: testPrices,
		APIBase: base, Timeout: timeout, MaxRetries: -1, HTTPClient: &http.Client{Transport: rt}})
	if err != nil {
		t.Fatal(err)
	}
	return s
}

// TestRequestShapesAgainstStripeMock sends every call to stripe-mock,
// which validates each parameter against Stripe's OpenAPI spec.
func TestRequestShapesAgainstStripeMock(t *testing.T) {
	base := billingtest.StripeMock(t)
	rec := &recorder{}
	s := newTestStripe(t, base, rec, 10*time.Second)
	ctx := context.Background()

	prices, err := s.Prices(ctx)
	if err != nil || len(prices) != 3 {
		t.Fatalf("prices: %v %v", prices, err)
	}
	if got := rec.last(t, "GET", "/v1/prices/").path; got != "/v1/prices/price_farm" {
		t.Fatalf("price path %s", got)
	}

	cus, err := s.CreateCustomer(ctx, Customer{UserID: 7, Email: "ada@example.com", Name: "Ada"})
	if err != nil || !strings.HasPrefix(cus, "cus_") {
		t.Fatalf("customer: %q %v", cus, err)
	}
	r := rec.last(t, "POST", "/v1/customers")
	key := r.idempotencyKey
	if !strings.HasPrefix(key, "layerfix-customer-7-") || r.form.Get("email") != "ada@example.com" || r.form.Get("metadata[layerfix_user_id]") != "7" {
		t.Fatalf("customer request %+v", r)
	}
	if _, err := s.CreateCustomer(ctx, Customer{UserID: 7, Email: "ada@example.com", Name: "Ada"}); err != nil {
		t.Fatal(err)
	}
	if again := rec.last(t, "POST", "/v1/customers").idempotencyKey; again != key {
		t.Fatalf("customer idempotency key changed: %q then %q", key, again)
	}

	secret, err := s.CreateSetupIntent(ctx, cus, 7, "pro")
	if err != nil || secret == "" {
		t.Fatalf("setup intent: %q %v", secret, err)
	}
	r = rec.last(t, "POST", "/v1/setup_intents")
	if r.idempotencyKey == "" || r.form.Get("customer") != cus || r.form.Get("usage") != "off_session" ||
		r.form.Get("metadata[layerfix_tier]") != "pro" || r.form.Get("automatic_payment_methods[enabled]") != "true" {
		t.Fatalf("setup intent request %+v", r)
	}

	si, err := s.SetupIntent(ctx, "seti_123")
	if err != nil || si.ID == "" || si.Status == "" {
		t.Fatalf("read setup intent: %+v %v", si, err)
	}

	sub, err := s.CreateSubscription(ctx, NewSubscription{CustomerID: cus, PaymentMethodID: "pm_123", Tier: "hobby", SetupIntentID: "seti_123", UserID: 7})
	if err != nil || sub.ID == "" || sub.Status == "" || sub.CurrentPeriodEnd.IsZero() {
		t.Fatalf("subscription: %+v %v", sub, err)
	}
	r = rec.last(t, "POST", "/v1/subscriptions")
	if r.idempotencyKey != "layerfix-sub-seti_123" || r.form.Get("items[0][price]") != "price_hobby" ||
		r.form.Get("default_payment_method") != "pm_123" || r.form.Get("payment_behavior") != "allow_incomplete" ||
		r.form.Get("expand[0]") != "latest_invoice.confirmation_secret" || r.form.Get("expand[1]") != "latest_invoice.payments" {
		t.Fatalf("subscription request %+v", r)
	}

	if _, err := s.Subscription(ctx, sub.ID); err != nil {
		t.Fatalf("read subscription: %v", err)
	}

	if _, err := s.ChangeTier(ctx, sub.ID, "farm"); err != nil {
		t.Fatalf("change: %v", err)
	}
	r = rec.last(t, "POST", "/v1/subscriptions/")
	if r.idempotencyKey == "" || r.form.Get("proration_behavior") != "always_invoice" || r.form.Get("items[0][price]") != "price_farm" ||
		r.form.Get("items[0][id]") == "" || r.form.Has("billing_cycle_anchor") {
		t.Fatalf("change request %+v", r)
	}

	if _, err := s.CancelAtPeriodEnd(ctx, sub.ID); err != nil {
		t.Fatalf("cancel: %v", err)
	}
	r = rec.last(t, "POST", "/v1/subscriptions/")
	if r.idempotencyKey == "" || r.form.Get("cancel_at_period_end") != "true" {
		t.Fatalf("cancel request %+v", r)
	}

	// Deleting an account ends its subscription at once, charging nothing more.
	if err := s.CancelNow(ctx, sub.ID); err != nil {
		t.Fatalf("cancel now: %v", err)
	}
	r = rec.last(t, "DELETE", "/v1/subscriptions/")
	if r.path != "/v1/subscriptions/"+sub.ID || r.form.Get("invoice_now") != "false" || r.form.Get("prorate") != "false" ||
		r.form.Get("cancellation_details[comment]") == "" {
		t.Fatalf("cancel-now request %+v", r)
	}

	rec.mu.Lock()
	defer rec.mu.Unlock()
	for _, r := range rec.reqs {
		if r.method == "POST" && r.idempotencyKey == "" {
			t.Errorf("POST %s without an idempotency key", r.path)
		}
	}
}

func TestErrorsAreClassified(t *testing.T) {
	cases := []struct {
		name   string
		status int
		body   string
		want   ErrorKind
	}{
		{"server error", 500, `{"error":{"type":"api_error","message":"boom"}}`, Unavailable},
		{"html 502", 502, `<html>bad gateway</html>`, Unavailable},
		{"rate limited", 429, `{"error":{"type":"invalid_request_error","message":"slow down"}}`, Unavailable},
		{"card declined", 402, `{"error":{"type":"card_error","code":"card_declined","message":"Your card was declined."}}`, Declined},
		{"missing", 404, `{"error":{"type":"invalid_request_error","code":"resource_missing","message":"No such setupintent"}}`, NotFound},
		{"bad parameter", 400, `{"error":{"type":"invalid_request_error","message":"Received unknown parameter"}}`, Rejected},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
				w.Header().Set("Content-Type", "application/json")
				w.WriteHeader(tc.status)
				io.WriteString(w, tc.body)
			}))
			defer srv.Close()
			s := newTestStripe(t, srv.URL, http.DefaultTransport, 5*time.Second)
			_, err := s.SetupIntent(context.Background(), "seti_1")
			if KindOf(err) != tc.want {
				t.Fatalf("kind %d, want %d (%v)", KindOf(err), tc.want, err)
			}
			if tc.want == Declined && !strings.Contains(err.(*Error).Msg, "declined") {
				t.Fatalf("declined message lost: %v", err)
			}
		})
	}
}

func TestEveryCallHasATimeout(t *testing.T) {
	release := make(chan struct{})
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		select {
		case <-release:
		case <-r.Context().Done():
		}
	}))
	defer srv.Close()
	defer close(release)
	s := newTestStripe(t, srv.URL, http.DefaultTransport, 150*time.Millisecond)
	calls := map[string]func() error{
		"prices": func() error { _, err := s.Prices(context.Background()); return err },
		"customer": func() error {
			_, err := s.CreateCustomer(context.Background(), Customer{UserID: 1, Email: "a@b.c"})
			return err
		},
		"setup": func() error { _, err := s.CreateSetupIntent(context.Background(), "cus_1", 1, "pro"); return err },
		"subscribe": func() error {
			_, err := s.CreateSubscription(context.Background(), NewSubscription{CustomerID: "cus_1", PaymentMethodID: "pm_1", Tier: "pro", SetupIntentID: "seti_1"})
			return err
		},
		"change": func() error { _, err := s.ChangeTier(context.Background(), "sub_1", "pro"); return err },
		"cancel": func() error { _, err := s.CancelAtPeriodEnd(context.Background(), "sub_1"); return err },
	}
	for name, call := range calls {
		start := time.Now()
		err := call()
		if KindOf(err) != Unavailable || time.Since(start) > 2*time.Second {
			t.Errorf("%s: %v after %v", name, err, time.Since(start))
		}
	}
}

func signed(t *testing.T, payload string, secret string, at time.Time) string {
	t.Helper()
	return webhook.GenerateTestSignedPayload(&webhook.UnsignedPayload{Payload: []byte(payload), Secret: secret, Timestamp: at}).Header
}

func TestParseEvent(t *testing.T) {
	s := newTestStripe(t, "http://127.0.0.1:1", http.DefaultTransport, time.Second)
	event := func(typ, object string) string {
		return fmt.Sprintf(`{"id":"evt_1","object":"event","api_version":"2019-01-01","created":1767225600,"type":%q,"data":{"object":%s}}`, typ, object)
	}
	subEvent := event("customer.subscription.updated", `{"id":"sub_9","object":"subscription","customer":"cus_9","status":"active"}`)
	now := time.Now()
	cases := []struct {
		name, payload, header string
		wantErr               bool
		customer, sub         string
	}{
		{"subscription (older API version accepted)", subEvent, signed(t, subEvent, testWebhookSecret, now), false, "cus_9", "sub_9"},
		{"invoice of the current API", event("invoice.paid", `{"id":"in_1","object":"invoice","customer":"cus_9","parent":{"type":"subscription_details","subscription_details":{"subscription":"sub_9"}}}`), "", false, "cus_9", "sub_9"},
		{"invoice of an old API", event("invoice.payment_failed", `{"id":"in_1","object":"invoice","customer":{"id":"cus_9"},"subscription":"sub_9"}`), "", false, "cus_9", "sub_9"},
		{"one-off invoice", event("invoice.paid", `{"id":"in_1","object":"invoice","customer":"cus_9","parent":null}`), "", false, "cus_9", ""},
		{"wrong secret", subEvent, signed(t, subEvent, "whsec_other", now), true, "", ""},
		{"stale timestamp", subEvent, signed(t, subEvent, testWebhookSecret, now.Add(-10*time.Minute)), true, "", ""},
		{"tampered body", strings.Replace(subEvent, "cus_9", "cus_8", 1), signed(t, subEvent, testWebhookSecret, now), true, "", ""},
		{"no header", subEvent, "-", true, "", ""},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			h := tc.header
			if h == "" {
				h = signed(t, tc.payload, testWebhookSecret, now)
			} else if h == "-" {
				h = ""
			}
			ev, err := s.ParseEvent([]byte(tc.payload), h)
			if tc.wantErr {
				if KindOf(err) != BadSignature {
					t.Fatalf("accepted: %+v %v", ev, err)
				}
				return
			}
			if err != nil {
				t.Fatal(err)
			}
			if ev.ID != "evt_1" || ev.CustomerID != tc.customer || ev.SubscriptionID != tc.sub || ev.Created.Unix() != 1767225600 {
				t.Fatalf("event %+v", ev)
			}
		})
	}
}

func TestNewStripeNeedsEveryPrice(t *testing.T) {
	_, err := NewStripe(StripeConfig{SecretKey: "sk_test_1", WebhookSecret: "whsec_1", Prices: map[string]string{"hobby": "price_1", "pro": "price_2"}})
	if err == nil || !strings.Contains(err.Error(), "farm") {
		t.Fatalf("missing farm price accepted: %v", err)
	}
}
