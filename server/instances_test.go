package server

import (
	"bytes"
	"fmt"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/layerfix/layerfix/store/blob/blobtest"
	"github.com/layerfix/layerfix/store/pgtest"
	"github.com/layerfix/layerfix/store/storetest"
)

// TestTwoInstancesBehindALoadBalancer runs two servers, each with its own
// connection pool, on one PostgreSQL database and one S3-compatible object
// store, as a hosted deployment does, and checks that nothing multiplies
// or goes missing between them.
func TestTwoInstancesBehindALoadBalancer(t *testing.T) {
	url := pgtest.SchemaURL(t)
	s3 := blobtest.StartS3(t, "layerfix")
	f := newFakeStripe(t)
	env := map[string]string{"LAYERFIX_BLOB_URL": s3.URL, "LAYERFIX_S3_ACCESS_KEY": s3.AccessKey, "LAYERFIX_S3_SECRET_KEY": s3.SecretKey}
	a := newBillingServerOn(t, f.srv.URL, storetest.OpenShared(t, url), env)
	b := newBillingServerOn(t, f.srv.URL, storetest.OpenShared(t, url), env)
	both := []*billingServer{a, b}

	t.Run("20 analyses from one address across both give exactly 3", func(t *testing.T) {
		count := concurrently(20, func(i int) int {
			return both[i%2].do(t, "POST", "/api/troubleshoot", validTroubleshoot(nil), "RemoteAddr", "203.0.113.7:5000").Code
		})
		if count[200] != 3 || count[429] != 17 {
			t.Fatalf("answers %v, want 3×200 and 17×429", count)
		}
	})

	tok := signup(t, a.testServer, "ada@example.com", "gears-and-layers").Token

	t.Run("a lockout reached on one holds on the other", func(t *testing.T) {
		// Wrong passwords from many addresses through A lock the email...
		for i := range loginFailures {
			if code := login(t, a.testServer, "ada@example.com", fmt.Sprintf("guess-%d", i), fmt.Sprintf("198.51.100.%d:1", i+1)); code != 401 {
				t.Fatalf("guess %d: %d", i, code)
			}
		}
		// ...so B refuses even the right one, from a fresh address.
		if code := login(t, b.testServer, "ada@example.com", "gears-and-layers", "192.0.2.200:1"); code != 429 {
			t.Fatalf("B after the lockout on A: %d, want 429", code)
		}
		// One address's failures through B lock it on A.
		for i := range loginFailures {
			login(t, b.testServer, fmt.Sprintf("nobody%d@example.com", i), "wrong-password", "203.0.113.99:1")
		}
		if code := login(t, a.testServer, "someone@example.com", "wrong-password", "203.0.113.99:1"); code != 429 {
			t.Fatalf("A after the address was locked on B: %d, want 429", code)
		}
		// The lock ends after its backoff on both.
		a.advance(2 * time.Minute)
		b.advance(2 * time.Minute)
		if code := login(t, b.testServer, "ada@example.com", "gears-and-layers", "192.0.2.201:1"); code != 200 {
			t.Fatalf("after the backoff: %d", code)
		}
	})

	t.Run("a photo uploaded through one is served by the other", func(t *testing.T) {
		url := a.uploadPNG(t, bearer(tok), 40, 30)
		fromA := a.do(t, "GET", url, "")
		fromB := b.do(t, "GET", url, "")
		if fromA.Code != 200 || fromB.Code != 200 || fromB.Body.Len() == 0 || !bytes.Equal(fromA.Body.Bytes(), fromB.Body.Bytes()) {
			t.Fatalf("served by A %d (%d bytes), by B %d (%d bytes)", fromA.Code, fromA.Body.Len(), fromB.Code, fromB.Body.Len())
		}
		if ct := fromB.Header().Get("Content-Type"); ct != "image/jpeg" {
			t.Fatalf("content type %q", ct)
		}
	})

	t.Run("a webhook delivered to both is applied once", func(t *testing.T) {
		subscribe(t, a, f, tok, "hobby")
		sub := f.onlySub(t)
		f.set(func(f *fakeStripe) { f.subs[sub.id].status = "past_due" })
		outcomes := make([]string, 2)
		var wg sync.WaitGroup
		for i, srv := range both {
			wg.Add(1)
			go func() {
				defer wg.Done()
				w := sendEvent(t, srv.testServer, "evt_both", "invoice.payment_failed", invoiceObject(sub.customer, sub.id), time.Now())
				if w.Code != 200 {
					t.Errorf("instance %d: %d %s", i, w.Code, w.Body.String())
					return
				}
				outcomes[i], _ = decodeMap(t, w)["outcome"].(string)
			}()
		}
		wg.Wait()
		got := strings.Join(outcomes, ",")
		if got != "applied,duplicate" && got != "duplicate,applied" {
			t.Fatalf("outcomes %q, want one applied and one duplicate", got)
		}
		for _, srv := range both {
			if p := profileOfUser(t, srv.testServer, tok); p.SubscriptionStatus != "past_due" {
				t.Fatalf("plan %+v", p)
			}
		}
	})
}
