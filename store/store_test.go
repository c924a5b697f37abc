package store

import (
	"context"
	"errors"
	"fmt"
	"io"
	"log/slog"
	"strings"
	"sync"
	"testing"
	"time"

	"gorm.io/gorm"

	"github.com/layerfix/layerfix/store/pgtest"
)

// testStores opens a fresh store on a temp SQLite file and, when
// LAYERFIX_TEST_POSTGRES_URL is set, one on a fresh PostgreSQL schema.
func testStores(t *testing.T) map[string]*Store {
	t.Helper()
	out := map[string]*Store{SQLite: openTestSQLite(t)}
	if pgtest.Available() {
		out[Postgres] = openTestPostgres(t)
	}
	return out
}

func openTestSQLite(t *testing.T) *Store {
	t.Helper()
	s, err := Open(context.Background(), Options{DataDir: t.TempDir(), Logger: slog.New(slog.NewTextHandler(io.Discard, nil))})
	if err != nil {
		t.Fatalf("open test store: %v", err)
	}
	t.Cleanup(func() { s.Close() })
	return s
}

func openTestPostgres(t *testing.T) *Store {
	t.Helper()
	s, err := Open(context.Background(), Options{DatabaseURL: pgtest.SchemaURL(t), Logger: slog.New(slog.NewTextHandler(io.Discard, nil))})
	if err != nil {
		t.Fatalf("open postgres store: %v", err)
	}
	t.Cleanup(func() { s.Close() })
	return s
}

func eachStore(t *testing.T, f func(t *testing.T, s *Store)) {
	for name, s := range testStores(t) {
		t.Run(name, func(t *testing.T) { f(t, s) })
	}
}

func TestMigrationsApplyAndRefuseNewerSchema(t *testing.T) {
	dir := t.TempDir()
	ctx := context.Background()
	s, err := Open(ctx, Options{DataDir: dir})
	if err != nil {
		t.Fatal(err)
	}
	var v int
	s.w.Raw("SELECT MAX(version) FROM schema_migrations").Scan(&v)
	if v != SchemaVersion() || v < 1 {
		t.Fatalf("schema version %d, want %d", v, SchemaVersion())
	}
	if err := s.w.Exec("INSERT INTO schema_migrations (version, name) VALUES (?, 'future')", v+1).Error; err != nil {
		t.Fatal(err)
	}
	s.Close()
	_, err = Open(ctx, Options{DataDir: dir})
	if err == nil || !strings.Contains(err.Error(), "newer layerfix") {
		t.Fatalf("opening a newer database: err = %v, want a refusal naming the versions", err)
	}
	// Re-opening a current database applies nothing and works.
	s.w.Exec("DELETE FROM schema_migrations WHERE name = 'future'")
}

func TestSQLitePragmas(t *testing.T) {
	s := openTestSQLite(t)
	for _, db := range []*gorm.DB{s.w, s.r} {
		var mode string
		var fk, sync, busy int
		db.Raw("PRAGMA journal_mode").Scan(&mode)
		db.Raw("PRAGMA foreign_keys").Scan(&fk)
		db.Raw("PRAGMA synchronous").Scan(&sync)
		db.Raw("PRAGMA busy_timeout").Scan(&busy)
		if mode != "wal" || fk != 1 || sync != 2 || busy < 5000 {
			t.Fatalf("pragmas: journal=%s foreign_keys=%d synchronous=%d busy_timeout=%d", mode, fk, sync, busy)
		}
	}
	if err := s.r.Exec("INSERT INTO shared_results (share_id, troubleshooting_data) VALUES ('x', '{}')").Error; err == nil {
		t.Fatal("the read pool accepted a write")
	}
}

func TestAnonymousQuota(t *testing.T) {
	eachStore(t, func(t *testing.T, s *Store) {
		ctx := context.Background()
		nov := time.Date(2026, 11, 30, 23, 59, 0, 0, time.UTC)
		for i := 1; i <= 4; i++ {
			ok, err := s.ConsumeAnonymous(ctx, "203.0.113.9", nov, 3)
			if err != nil {
				t.Fatal(err)
			}
			if ok != (i <= 3) {
				t.Fatalf("use %d: ok=%v", i, ok)
			}
		}
		if n, _ := s.AnonymousUsage(ctx, "203.0.113.9", nov); n != 3 {
			t.Fatalf("usage = %d, want 3", n)
		}
		if err := s.RefundAnonymous(ctx, "203.0.113.9", nov); err != nil {
			t.Fatal(err)
		}
		if n, _ := s.AnonymousUsage(ctx, "203.0.113.9", nov); n != 2 {
			t.Fatalf("usage after refund = %d, want 2", n)
		}
		dec := nov.Add(2 * time.Minute)
		if n, _ := s.AnonymousUsage(ctx, "203.0.113.9", dec); n != 0 {
			t.Fatalf("a new month starts at %d, want 0", n)
		}
		if ok, _ := s.ConsumeAnonymous(ctx, "203.0.113.9", dec, 3); !ok {
			t.Fatal("new month refused")
		}
		if n, _ := s.AnonymousUsage(ctx, "2001:db8::1", nov); n != 0 {
			t.Fatalf("other IP usage = %d", n)
		}
	})
}

func TestAnonymousQuotaRace(t *testing.T) {
	eachStore(t, func(t *testing.T, s *Store) {
		ctx := context.Background()
		now := time.Now()
		var wg sync.WaitGroup
		var mu sync.Mutex
		got := 0
		for i := 0; i < 20; i++ {
			wg.Add(1)
			go func() {
				defer wg.Done()
				ok, err := s.ConsumeAnonymous(ctx, "198.51.100.7", now, 3)
				if err != nil {
					t.Error(err)
				}
				if ok {
					mu.Lock()
					got++
					mu.Unlock()
				}
			}()
		}
		wg.Wait()
		if got != 3 {
			t.Fatalf("%d of 20 parallel requests got a credit, want exactly 3", got)
		}
	})
}

func TestConcurrentWritesNeverLock(t *testing.T) {
	eachStore(t, func(t *testing.T, s *Store) {
		ctx := context.Background()
		var wg sync.WaitGroup
		errs := make(chan error, 200)
		for g := 0; g < 50; g++ {
			wg.Add(1)
			go func(g int) {
				defer wg.Done()
				for i := 0; i < 4; i++ {
					if _, err := s.ConsumeAnonymous(ctx, fmt.Sprintf("10.0.%d.%d", g, i), time.Now(), 3); err != nil {
						errs <- err
					}
					sr := &SharedResult{ShareID: fmt.Sprintf("s-%d-%d", g, i), Title: "t", TroubleshootingData: JSON(`{"summary":"x"}`)}
					if err := s.CreateShare(ctx, sr); err != nil {
						errs <- err
					}
					if _, err := s.Share(ctx, sr.ShareID); err != nil {
						errs <- err
					}
				}
			}(g)
		}
		wg.Wait()
		close(errs)
		for err := range errs {
			t.Errorf("concurrent write failed: %v", err)
		}
		var n int64
		s.r.Model(&SharedResult{}).Count(&n)
		if n != 200 {
			t.Fatalf("%d shares stored, want 200", n)
		}
	})
}

func TestShares(t *testing.T) {
	eachStore(t, func(t *testing.T, s *Store) {
		ctx := context.Background()
		in := &SharedResult{ShareID: "abc", Title: "Stringing", TroubleshootingData: JSON(`{"summary":"s","steps":[],"additionalTips":["a"]}`)}
		if err := s.CreateShare(ctx, in); err != nil {
			t.Fatal(err)
		}
		got, err := s.Share(ctx, "abc")
		if err != nil {
			t.Fatal(err)
		}
		if got.Title != "Stringing" || !strings.Contains(string(got.TroubleshootingData), `"additionalTips"`) {
			t.Fatalf("got %+v", got)
		}
		if _, err := s.Share(ctx, "nope"); !errors.Is(err, ErrNotFound) {
			t.Fatalf("unknown share: %v", err)
		}
		if err := s.CreateShare(ctx, &SharedResult{ShareID: "abc", TroubleshootingData: JSON(`{}`)}); err == nil {
			t.Fatal("duplicate share id accepted")
		}
	})
}

func TestIssueListsAndJSONRoundTrip(t *testing.T) {
	eachStore(t, func(t *testing.T, s *Store) {
		ctx := context.Background()
		u := &User{Email: "maker@example.com", DisplayName: "Maker"}
		if err := s.w.Create(u).Error; err != nil {
			t.Fatal(err)
		}
		var back User
		s.r.Take(&back, u.ID)
		if back.SubscriptionStatus != "inactive" || back.SubscriptionTier != "free" || back.MonthlyUsage != 0 {
			t.Fatalf("user defaults: %+v", back)
		}
		is := &Issue{UserID: u.ID, Category: "stringing", Description: "strings everywhere",
			PhotoURLs: StringList{"/uploads/a.jpg", "/uploads/b.jpg"}, AIChecklist: JSON(`{"summary":"x","steps":[{"title":"Dry"}]}`)}
		if err := s.w.WithContext(ctx).Create(is).Error; err != nil {
			t.Fatal(err)
		}
		var got Issue
		if err := s.r.Take(&got, is.ID).Error; err != nil {
			t.Fatal(err)
		}
		if len(got.PhotoURLs) != 2 || got.PhotoURLs[1] != "/uploads/b.jpg" || got.Status != "pending" || len(got.WorkingRecommendations) != 0 {
			t.Fatalf("issue round trip: %+v", got)
		}
		if !strings.Contains(string(got.AIChecklist), `"Dry"`) {
			t.Fatalf("aiChecklist = %s", got.AIChecklist)
		}
		if err := s.w.Create(&User{Email: "maker@example.com"}).Error; err == nil {
			t.Fatal("duplicate email accepted")
		}
	})
}

func TestFirebaseUpsertAdoptsOnlyVerifiedEmails(t *testing.T) {
	eachStore(t, func(t *testing.T, s *Store) {
		ctx := context.Background()
		local := &User{Email: "victim@example.com", DisplayName: "Victim"}
		if err := s.CreateUser(ctx, local); err != nil {
			t.Fatal(err)
		}
		if _, err := s.UpsertFirebaseUser(ctx, "attacker-uid", "victim@example.com", "Mallory", false); !errors.Is(err, ErrDuplicate) {
			t.Fatalf("unverified identity with a taken email: err = %v, want ErrDuplicate", err)
		}
		u, err := s.UpsertFirebaseUser(ctx, "owner-uid", "Victim@example.com", "", true)
		if err != nil || u.ID != local.ID || u.FirebaseUID == nil || *u.FirebaseUID != "owner-uid" || u.DisplayName != "Victim" {
			t.Fatalf("verified owner adopts the account: %+v %v", u, err)
		}
		again, err := s.UpsertFirebaseUser(ctx, "owner-uid", "victim@example.com", "V", true)
		if err != nil || again.ID != local.ID || again.DisplayName != "V" {
			t.Fatalf("second call: %+v %v", again, err)
		}
		fresh, err := s.UpsertFirebaseUser(ctx, "new-uid", "", "", false)
		if err != nil || fresh.ID == local.ID || !strings.HasSuffix(fresh.Email, "@users.invalid") {
			t.Fatalf("identity without email: %+v %v", fresh, err)
		}
	})
}

// TestTransferOnlyEarlierAnonymousUse: a new account takes over the
// anonymous analyses its maker made before signing up, never those its
// network made after the account existed.
func TestTransferOnlyEarlierAnonymousUse(t *testing.T) {
	eachStore(t, func(t *testing.T, s *Store) {
		ctx := context.Background()
		t0 := time.Date(2026, 11, 10, 12, 0, 0, 0, time.UTC)
		const window = time.Hour
		newUser := func(email string, at time.Time) int64 {
			u := &User{Email: email, CreatedAt: at}
			if err := s.CreateUser(ctx, u); err != nil {
				t.Fatal(err)
			}
			return u.ID
		}
		use := func(ip string, at time.Time) {
			if ok, err := s.ConsumeAnonymous(ctx, ip, at, 3); err != nil || !ok {
				t.Fatalf("anonymous use: %v %v", ok, err)
			}
		}
		// Signed up at 12:00, a stranger on the same IP analysed at 12:20, the
		// account signs in at 12:30: none of it is the account's.
		early := newUser("early@example.com", t0)
		use("203.0.113.50", t0.Add(20*time.Minute))
		use("203.0.113.50", t0.Add(21*time.Minute))
		if n, err := s.TransferAnonymous(ctx, early, "203.0.113.50", t0.Add(30*time.Minute), window); err != nil || n != 0 {
			t.Fatalf("account older than the use: transferred %d, %v", n, err)
		}
		// The uses stay with the IP for the maker who did make them.
		late := newUser("late@example.com", t0.Add(25*time.Minute))
		if n, err := s.TransferAnonymous(ctx, late, "203.0.113.50", t0.Add(26*time.Minute), window); err != nil || n != 2 {
			t.Fatalf("account made after the use: transferred %d, %v", n, err)
		}
	})
}
