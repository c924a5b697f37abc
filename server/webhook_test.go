package server

import (
	"fmt"
	"net/http/httptest"
	"strings"
	"testing"
	"time"

	"github.com/stripe/stripe-go/v85/webhook"
)

func subObject(id, customer, status string) string {
	return fmt.Sprintf(`{"id":%q,"object":"subscription","customer":%q,"status":%q}`, id, customer, status)
}

func invoiceObject(customer, sub string) string {
	return fmt.Sprintf(`{"id":"in_1","object":"invoice","customer":%q,"parent":{"type":"subscription_details","subscription_details":{"subscription":%q}}}`, customer, sub)
}

func eventBody(id, typ, object string) string {
	// An API version older than stripe-go's: accepted, only ids are read.
	return fmt.Sprintf(`{"id":%q,"object":"event","api_version":"2024-06-20","created":%d,"type":%q,"data":{"object":%s}}`,
		id, time.Now().Unix(), typ, object)
}

// sendEvent posts an event signed with the webhook secret at time at.
func sendEvent(t *testing.T, ts *testServer, id, typ, object string, at time.Time) *httptest.ResponseRecorder {
	t.Helper()
	body := eventBody(id, typ, object)
	sig := webhook.GenerateTestSignedPayload(&webhook.UnsignedPayload{Payload: []byte(body), Secret: testWebhookSecret, Timestamp: at})
	return ts.do(t, "POST", "/api/stripe/webhook", body, "Stripe-Signature", sig.Header)
}

// subscribed is a user on hobby with its Stripe subscription.
func subscribed(t *testing.T) (*fakeStripe, *billingServer, string, *fakeSub) {
	t.Helper()
	f := newFakeStripe(t)
	ts := newBillingServer(t, f.srv.URL)
	tok := signup(t, ts.testServer, "maker@example.com", "gears-and-layers").Token
	subscribe(t, ts, f, tok, "hobby")
	return f, ts, tok, f.onlySub(t)
}

func TestWebhookSignature(t *testing.T) {
	f, ts, tok, sub := subscribed(t)
	f.set(func(f *fakeStripe) { f.subs[sub.id].status = "canceled" })
	body := eventBody("evt_sig", "customer.subscription.deleted", subObject(sub.id, sub.customer, "canceled"))
	sign := func(secret string, at time.Time) string {
		return webhook.GenerateTestSignedPayload(&webhook.UnsignedPayload{Payload: []byte(body), Secret: secret, Timestamp: at}).Header
	}
	cases := []struct{ name, body, sig string }{
		{"no signature", body, ""},
		{"wrong secret", body, sign("whsec_attacker", time.Now())},
		{"stale timestamp", body, sign(testWebhookSecret, time.Now().Add(-10*time.Minute))},
		{"body changed after signing", strings.Replace(body, "canceled", "active", 1), sign(testWebhookSecret, time.Now())},
	}
	for _, tc := range cases {
		w := ts.do(t, "POST", "/api/stripe/webhook", tc.body, "Stripe-Signature", tc.sig)
		if e := decodeError(t, w); w.Code != 400 || e.Code != CodeBadSignature {
			t.Fatalf("%s: %d %+v", tc.name, w.Code, e)
		}
		if p := profileOfUser(t, ts.testServer, tok); p.SubscriptionTier != "hobby" || p.SubscriptionStatus != "active" {
			t.Fatalf("%s changed the plan: %+v", tc.name, p)
		}
	}
	if done, _ := ts.store.StripeEventProcessed(t.Context(), "evt_sig"); done {
		t.Fatal("a refused event was recorded")
	}
	big := strings.Repeat("x", maxWebhookBody+1)
	if w := ts.do(t, "POST", "/api/stripe/webhook", big, "Stripe-Signature", "t=1,v1=00"); w.Code != 413 {
		t.Fatalf("oversized event: %d", w.Code)
	}
}

func TestWebhookPaymentFailedAndPaid(t *testing.T) {
	f, ts, tok, sub := subscribed(t)
	f.set(func(f *fakeStripe) { f.subs[sub.id].status = "past_due" })
	w := sendEvent(t, ts.testServer, "evt_failed", "invoice.payment_failed", invoiceObject(sub.customer, sub.id), time.Now())
	if got := decodeMap(t, w); w.Code != 200 || got["outcome"] != "applied" {
		t.Fatalf("payment_failed: %d %s", w.Code, w.Body.String())
	}
	// Past due is not active: the allowance falls back to free's.
	if p := profileOfUser(t, ts.testServer, tok); p.SubscriptionStatus != "past_due" || p.MonthlyLimit != 3 {
		t.Fatalf("after payment failed %+v", p)
	}
	f.set(func(f *fakeStripe) { f.subs[sub.id].status = "active" })
	sendEvent(t, ts.testServer, "evt_paid", "invoice.paid", invoiceObject(sub.customer, sub.id), time.Now())
	if p := profileOfUser(t, ts.testServer, tok); p.SubscriptionStatus != "active" || p.MonthlyLimit != 20 {
		t.Fatalf("after invoice paid %+v", p)
	}
}

func TestWebhookReplayIsAppliedOnce(t *testing.T) {
	f, ts, tok, sub := subscribed(t)
	f.set(func(f *fakeStripe) { f.subs[sub.id].status = "past_due" })
	first := sendEvent(t, ts.testServer, "evt_once", "invoice.payment_failed", invoiceObject(sub.customer, sub.id), time.Now())
	if got := decodeMap(t, first); got["outcome"] != "applied" {
		t.Fatalf("first delivery %s", first.Body.String())
	}
	// The user pays, and the plan is set active locally by another path;
	// a replay of the old event must not apply it again.
	f.set(func(f *fakeStripe) { f.subs[sub.id].status = "active" })
	sendEvent(t, ts.testServer, "evt_paid", "invoice.paid", invoiceObject(sub.customer, sub.id), time.Now())
	f.set(func(f *fakeStripe) { f.subs[sub.id].status = "past_due" })
	reads := len(f.requests("GET", "/v1/subscriptions/"))
	again := sendEvent(t, ts.testServer, "evt_once", "invoice.payment_failed", invoiceObject(sub.customer, sub.id), time.Now())
	if got := decodeMap(t, again); again.Code != 200 || got["outcome"] != "duplicate" {
		t.Fatalf("replay %d %s", again.Code, again.Body.String())
	}
	if p := profileOfUser(t, ts.testServer, tok); p.SubscriptionStatus != "active" {
		t.Fatalf("replay was applied: %+v", p)
	}
	if len(f.requests("GET", "/v1/subscriptions/")) != reads {
		t.Fatal("a replay was re-read from Stripe")
	}
}

func TestWebhookOutOfOrderDelivery(t *testing.T) {
	f, ts, tok, sub := subscribed(t)
	created := time.Now().Add(-2 * time.Minute)
	// Stripe's current truth: the subscription has ended.
	f.set(func(f *fakeStripe) { f.subs[sub.id].status = "canceled" })
	w := sendEvent(t, ts.testServer, "evt_2_deleted", "customer.subscription.deleted", subObject(sub.id, sub.customer, "canceled"), time.Now())
	if w.Code != 200 {
		t.Fatalf("deleted: %d %s", w.Code, w.Body.String())
	}
	// An older "updated: active" event arrives late; its payload says
	// active, but the state is re-read from Stripe, so nothing reverts.
	w = sendEvent(t, ts.testServer, "evt_1_updated", "customer.subscription.updated", subObject(sub.id, sub.customer, "active"), created)
	if w.Code != 200 {
		t.Fatalf("late updated: %d %s", w.Code, w.Body.String())
	}
	if p := profileOfUser(t, ts.testServer, tok); p.SubscriptionTier != "free" || p.SubscriptionStatus != "canceled" || p.MonthlyLimit != 3 {
		t.Fatalf("a late event reverted the state: %+v", p)
	}
}

func TestWebhookLateEventOfAbandonedSubscription(t *testing.T) {
	f, ts, tok, sub := subscribed(t)
	// An earlier attempt whose first payment was never completed expires
	// after the user subscribed again: it must not downgrade the user.
	f.set(func(f *fakeStripe) {
		f.subs["sub_old"] = &fakeSub{id: "sub_old", customer: sub.customer, status: "incomplete_expired", price: "price_pro", pi: sub.pi}
	})
	w := sendEvent(t, ts.testServer, "evt_old", "customer.subscription.updated", subObject("sub_old", sub.customer, "incomplete_expired"), time.Now())
	if got := decodeMap(t, w); w.Code != 200 || got["outcome"] != "ignored" {
		t.Fatalf("old subscription event: %d %s", w.Code, w.Body.String())
	}
	if p := profileOfUser(t, ts.testServer, tok); p.SubscriptionTier != "hobby" || p.SubscriptionStatus != "active" {
		t.Fatalf("downgraded by an abandoned subscription: %+v", p)
	}
}

func TestWebhookAcknowledgesWhatItDoesNotHandle(t *testing.T) {
	_, ts, tok, sub := subscribed(t)
	cases := []struct{ name, typ, object, outcome string }{
		{"unknown customer", "customer.subscription.updated", subObject("sub_x", "cus_stranger", "active"), "unknown_customer"},
		{"unhandled type", "charge.refunded", `{"id":"ch_1","object":"charge","customer":"` + sub.customer + `"}`, "ignored"},
		{"invoice outside a subscription", "invoice.paid", `{"id":"in_2","object":"invoice","customer":"` + sub.customer + `","parent":null}`, "ignored"},
	}
	for _, tc := range cases {
		w := sendEvent(t, ts.testServer, "evt_"+strings.ReplaceAll(tc.name, " ", "_"), tc.typ, tc.object, time.Now())
		if got := decodeMap(t, w); w.Code != 200 || got["outcome"] != tc.outcome {
			t.Fatalf("%s: %d %s", tc.name, w.Code, w.Body.String())
		}
	}
	if p := profileOfUser(t, ts.testServer, tok); p.SubscriptionTier != "hobby" || p.SubscriptionStatus != "active" {
		t.Fatalf("plan changed: %+v", p)
	}
}

// TestDelayedReadCannotResurrectACanceledPlan: an invoice.paid whose read of
// the subscription is slow, overtaken by customer.subscription.deleted,
// must not write the stale active state after the cancellation.
func TestDelayedReadCannotResurrectACanceledPlan(t *testing.T) {
	f, ts, tok, sub := subscribed(t)
	hold := &readHold{reached: make(chan struct{}), release: make(chan struct{})}
	f.set(func(f *fakeStripe) { f.hold = hold })
	paid := make(chan int, 1)
	go func() {
		paid <- sendEvent(t, ts.testServer, "evt_paid", "invoice.paid", invoiceObject(sub.customer, sub.id), time.Now()).Code
	}()
	<-hold.reached // invoice.paid has read "active" and its answer is on the way
	f.set(func(f *fakeStripe) { f.subs[sub.id].status = "canceled" })
	deleted := make(chan int, 1)
	go func() {
		deleted <- sendEvent(t, ts.testServer, "evt_deleted", "customer.subscription.deleted", subObject(sub.id, sub.customer, "canceled"), time.Now()).Code
	}()
	time.Sleep(150 * time.Millisecond) // let the deletion run as far as it can
	close(hold.release)
	if a, b := <-paid, <-deleted; a != 200 || b != 200 {
		t.Fatalf("events answered %d and %d", a, b)
	}
	if p := profileOfUser(t, ts.testServer, tok); p.SubscriptionStatus != "canceled" || p.SubscriptionTier != "free" {
		t.Fatalf("Stripe says canceled, the account says %s/%s", p.SubscriptionStatus, p.SubscriptionTier)
	}
}

// TestFutureDatedSignatureRefused: a signature dated an hour ahead is
// refused like a stale one.
func TestFutureDatedSignatureRefused(t *testing.T) {
	f, ts, tok, sub := subscribed(t)
	f.set(func(f *fakeStripe) { f.subs[sub.id].status = "canceled" })
	w := sendEvent(t, ts.testServer, "evt_future", "customer.subscription.deleted", subObject(sub.id, sub.customer, "canceled"), time.Now().Add(time.Hour))
	if e := decodeError(t, w); w.Code != 400 || e.Code != CodeBadSignature {
		t.Fatalf("future-dated signature: %d %+v", w.Code, e)
	}
	if p := profileOfUser(t, ts.testServer, tok); p.SubscriptionStatus != "active" {
		t.Fatalf("a refused event changed the plan: %+v", p)
	}
}
