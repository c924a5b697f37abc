package store

import (
	"context"
	"errors"
	"io"
	"log/slog"
	"sync"
	"testing"
	"time"

	"github.com/layerfix/layerfix/store/pgtest"
)

func bump(t *testing.T, s *Store, key string) {
	t.Helper()
	err := s.UpdateLimit(context.Background(), key, time.Now().Add(time.Hour), func(st *LimitState) {
		if st.N == 0 {
			st.Start = time.Date(2026, 11, 24, 10, 0, 0, 0, time.UTC)
		}
		st.N++
		st.Excess += 2
	})
	if err != nil {
		t.Error(err)
	}
}

func limitOf(t *testing.T, s *Store, key string) LimitState {
	t.Helper()
	var got LimitState
	if err := s.UpdateLimit(context.Background(), key, time.Now().Add(time.Hour), func(st *LimitState) { got = *st }); err != nil {
		t.Fatal(err)
	}
	return got
}

// TestUpdateLimitCountsExactly: concurrent updates of one key add up.
func TestUpdateLimitCountsExactly(t *testing.T) {
	eachStore(t, func(t *testing.T, s *Store) {
		var wg sync.WaitGroup
		for range 30 {
			wg.Add(1)
			go func() { defer wg.Done(); bump(t, s, "login-email:abc") }()
		}
		wg.Wait()
		got := limitOf(t, s, "login-email:abc")
		if got.N != 30 || got.Excess != 60 || !got.Start.Equal(time.Date(2026, 11, 24, 10, 0, 0, 0, time.UTC)) || !got.Next.IsZero() {
			t.Fatalf("state %+v", got)
		}
		if err := s.DeleteLimit(context.Background(), "login-email:abc"); err != nil {
			t.Fatal(err)
		}
		if got := limitOf(t, s, "login-email:abc"); got.N != 0 {
			t.Fatalf("after delete %+v", got)
		}
		// Expired rows go with the janitor's purge.
		if err := s.UpdateLimit(context.Background(), "old", time.Now().Add(-time.Minute), func(st *LimitState) { st.N = 1 }); err != nil {
			t.Fatal(err)
		}
		p, err := s.PurgeExpired(context.Background(), time.Now())
		if err != nil || p.Limits != 1 {
			t.Fatalf("purge %+v %v", p, err)
		}
	})
}

// TestInstancesShareLimitsAndLocks: two stores on one PostgreSQL database,
// as two instances behind a load balancer, count one limit together and
// exclude each other from the janitor and from a key's lock.
func TestInstancesShareLimitsAndLocks(t *testing.T) {
	url := pgtest.SchemaURL(t)
	open := func() *Store {
		s, err := Open(context.Background(), Options{DatabaseURL: url, Logger: slog.New(slog.NewTextHandler(io.Discard, nil))})
		if err != nil {
			t.Fatal(err)
		}
		t.Cleanup(func() { s.Close() })
		return s
	}
	a, b := open(), open()
	var wg sync.WaitGroup
	for i := range 40 {
		wg.Add(1)
		go func() {
			defer wg.Done()
			bump(t, []*Store{a, b}[i%2], "share:net")
		}()
	}
	wg.Wait()
	if got := limitOf(t, b, "share:net"); got.N != 40 {
		t.Fatalf("40 updates across two instances counted %d", got.N)
	}

	ctx := context.Background()
	ran := false
	err := a.WithJanitorLock(ctx, func(context.Context) error {
		if err := b.WithJanitorLock(ctx, func(context.Context) error { t.Error("both instances swept at once"); return nil }); !errors.Is(err, ErrJanitorBusy) {
			t.Errorf("second janitor: %v", err)
		}
		ran = true
		return nil
	})
	if err != nil || !ran {
		t.Fatalf("janitor: %v", err)
	}
	if err := b.WithJanitorLock(ctx, func(context.Context) error { return nil }); err != nil {
		t.Fatalf("janitor after release: %v", err)
	}

	unlock, err := a.KeyLock(ctx, "stripe-customer:cus_1")
	if err != nil {
		t.Fatal(err)
	}
	short, cancel := context.WithTimeout(ctx, 300*time.Millisecond)
	if _, err := b.KeyLock(short, "stripe-customer:cus_1"); err == nil {
		t.Fatal("the other instance took a held lock")
	}
	cancel()
	other, err := b.KeyLock(ctx, "stripe-customer:cus_2")
	if err != nil {
		t.Fatalf("another key: %v", err)
	}
	other()
	unlock()
	again, err := b.KeyLock(ctx, "stripe-customer:cus_1")
	if err != nil {
		t.Fatalf("after unlock: %v", err)
	}
	again()
}

// TestLimitGivenBackLeavesNoRow: a state that counts nothing after an
// update (an attempt reserved and given back) keeps no row, and a peek
// creates none and sees no expired one.
func TestLimitGivenBackLeavesNoRow(t *testing.T) {
	eachStore(t, func(t *testing.T, s *Store) {
		ctx := context.Background()
		now := time.Now()
		rows := func() (n int64) {
			t.Helper()
			if err := s.reader(ctx).Raw(`SELECT COUNT(*) FROM rate_limits`).Scan(&n).Error; err != nil {
				t.Fatal(err)
			}
			return n
		}
		if err := s.UpdateLimit(ctx, "ip:a", now.Add(time.Hour), func(st *LimitState) { st.N++ }); err != nil {
			t.Fatal(err)
		}
		if err := s.UpdateLimit(ctx, "ip:a", now.Add(time.Hour), func(st *LimitState) { st.N-- }); err != nil {
			t.Fatal(err)
		}
		if err := s.UpdateLimit(ctx, "ip:b", now.Add(time.Hour), func(st *LimitState) {}); err != nil {
			t.Fatal(err)
		}
		if n := rows(); n != 0 {
			t.Fatalf("%d rows for states that count nothing", n)
		}
		if _, found, err := s.PeekLimit(ctx, "ip:c", now); found || err != nil {
			t.Fatalf("peek of an absent key: %v %v", found, err)
		}
		if n := rows(); n != 0 {
			t.Fatalf("a peek created %d rows", n)
		}
		if err := s.UpdateLimit(ctx, "net:d", now.Add(time.Hour), func(st *LimitState) { st.N, st.Start = 1, now }); err != nil {
			t.Fatal(err)
		}
		if st, found, err := s.PeekLimit(ctx, "net:d", now); !found || err != nil || st.N != 1 || st.Start.Sub(now).Abs() > time.Millisecond {
			t.Fatalf("peek of a live key: %+v %v %v", st, found, err)
		}
		if _, found, _ := s.PeekLimit(ctx, "net:d", now.Add(2*time.Hour)); found {
			t.Fatal("peek found an expired key")
		}
	})
}
