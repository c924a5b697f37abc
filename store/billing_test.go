package store

import (
	"context"
	"errors"
	"fmt"
	"sync"
	"testing"
	"time"
)

func newBillingUser(t *testing.T, s *Store, email string) *User {
	t.Helper()
	u := &User{Email: email, DisplayName: "Maker"}
	if err := s.CreateUser(context.Background(), u); err != nil {
		t.Fatal(err)
	}
	return u
}

func TestStripeCustomerIsSetOnce(t *testing.T) {
	eachStore(t, func(t *testing.T, s *Store) {
		ctx := context.Background()
		a, b := newBillingUser(t, s, "a@example.com"), newBillingUser(t, s, "b@example.com")
		got, err := s.SetStripeCustomer(ctx, a.ID, "cus_A")
		if err != nil || got != "cus_A" {
			t.Fatalf("first set: %q %v", got, err)
		}
		// A second customer made concurrently loses: the stored one stays.
		if got, err = s.SetStripeCustomer(ctx, a.ID, "cus_A2"); err != nil || got != "cus_A" {
			t.Fatalf("second set: %q %v", got, err)
		}
		if _, err := s.SetStripeCustomer(ctx, b.ID, "cus_A"); !errors.Is(err, ErrDuplicate) {
			t.Fatalf("customer shared by two users: %v", err)
		}
		u, err := s.UserByStripeCustomer(ctx, "cus_A")
		if err != nil || u.ID != a.ID {
			t.Fatalf("by customer: %+v %v", u, err)
		}
		if _, err := s.UserByStripeCustomer(ctx, "cus_nobody"); !errors.Is(err, ErrNotFound) {
			t.Fatalf("unknown customer: %v", err)
		}
	})
}

func TestSaveSubscriptionRoundTrip(t *testing.T) {
	eachStore(t, func(t *testing.T, s *Store) {
		ctx := context.Background()
		u := newBillingUser(t, s, "a@example.com")
		end := time.Date(2026, 3, 14, 9, 30, 0, 0, time.UTC)
		if err := s.SaveSubscription(ctx, u.ID, SubscriptionUpdate{SubscriptionID: "sub_1", Status: "active", Tier: "pro", CurrentPeriodEnd: &end}); err != nil {
			t.Fatal(err)
		}
		// An empty tier keeps the stored one; the cancel flag is recorded.
		if err := s.SaveSubscription(ctx, u.ID, SubscriptionUpdate{SubscriptionID: "sub_1", Status: "active", CurrentPeriodEnd: &end, CancelAtPeriodEnd: true}); err != nil {
			t.Fatal(err)
		}
		got, err := s.SubscriptionOf(ctx, u.ID)
		if err != nil {
			t.Fatal(err)
		}
		if got.SubscriptionID != "sub_1" || got.Status != "active" || got.Tier != "pro" || !got.CancelAtPeriodEnd ||
			got.CurrentPeriodEnd == nil || !got.CurrentPeriodEnd.Equal(end) {
			t.Fatalf("stored %+v", got)
		}
		if err := s.SaveSubscription(ctx, 9999, SubscriptionUpdate{Status: "active"}); !errors.Is(err, ErrNotFound) {
			t.Fatalf("unknown user: %v", err)
		}
	})
}

func TestApplyStripeEvent(t *testing.T) {
	now := time.Date(2026, 2, 1, 12, 0, 0, 0, time.UTC)
	end := now.AddDate(0, 1, 0)
	active := &SubscriptionUpdate{SubscriptionID: "sub_new", Status: "active", Tier: "hobby", CurrentPeriodEnd: &end}
	canceledOld := &SubscriptionUpdate{SubscriptionID: "sub_old", Status: "canceled", Tier: "free"}
	canceledNew := &SubscriptionUpdate{SubscriptionID: "sub_new", Status: "canceled", Tier: "free"}
	steps := []struct {
		name, event, customer string
		update                *SubscriptionUpdate
		want                  EventOutcome
		status, tier          string
	}{
		{"applies", "evt_1", "cus_A", active, EventApplied, "active", "hobby"},
		{"replay is applied once", "evt_1", "cus_A", canceledNew, EventDuplicate, "active", "hobby"},
		{"unknown customer", "evt_2", "cus_nobody", active, EventUnknownCustomer, "active", "hobby"},
		{"abandoned subscription cannot downgrade", "evt_3", "cus_A", canceledOld, EventIgnored, "active", "hobby"},
		{"own subscription ends", "evt_4", "cus_A", canceledNew, EventApplied, "canceled", "free"},
	}
	eachStore(t, func(t *testing.T, s *Store) {
		ctx := context.Background()
		u := newBillingUser(t, s, "a@example.com")
		if _, err := s.SetStripeCustomer(ctx, u.ID, "cus_A"); err != nil {
			t.Fatal(err)
		}
		for _, st := range steps {
			got, err := s.ApplyStripeEvent(ctx, st.event, "customer.subscription.updated", st.customer, st.update, now)
			if err != nil || got != st.want {
				t.Fatalf("%s: outcome %q, %v; want %q", st.name, got, err, st.want)
			}
			sub, _ := s.SubscriptionOf(ctx, u.ID)
			if sub.Status != st.status || sub.Tier != st.tier {
				t.Fatalf("%s: user is %s/%s, want %s/%s", st.name, sub.Status, sub.Tier, st.status, st.tier)
			}
			if ok, _ := s.StripeEventProcessed(ctx, st.event); !ok {
				t.Fatalf("%s: event %s not recorded", st.name, st.event)
			}
		}
	})
}

func TestApplyStripeEventConcurrentReplays(t *testing.T) {
	eachStore(t, func(t *testing.T, s *Store) {
		ctx := context.Background()
		u := newBillingUser(t, s, "a@example.com")
		if _, err := s.SetStripeCustomer(ctx, u.ID, "cus_A"); err != nil {
			t.Fatal(err)
		}
		var mu sync.Mutex
		outcomes := map[EventOutcome]int{}
		var wg sync.WaitGroup
		for i := 0; i < 12; i++ {
			wg.Add(1)
			go func(i int) {
				defer wg.Done()
				up := &SubscriptionUpdate{SubscriptionID: "sub_1", Status: "active", Tier: fmt.Sprintf("tier%d", i)}
				got, err := s.ApplyStripeEvent(ctx, "evt_same", "invoice.paid", "cus_A", up, time.Now())
				mu.Lock()
				defer mu.Unlock()
				if err != nil {
					t.Error(err)
				}
				outcomes[got]++
			}(i)
		}
		wg.Wait()
		if outcomes[EventApplied] != 1 || outcomes[EventDuplicate] != 11 {
			t.Fatalf("outcomes %v", outcomes)
		}
	})
}
