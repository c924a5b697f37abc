package store

import (
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"
)

// TestDataFilesArePrivate: a data dir the server creates is 0700 and the
// database 0600: it holds password and session hashes and signing keys.
func TestDataFilesArePrivate(t *testing.T) {
	dir := filepath.Join(t.TempDir(), "data")
	s, err := Open(context.Background(), Options{DataDir: dir})
	if err != nil {
		t.Fatal(err)
	}
	defer s.Close()
	if fi, _ := os.Stat(dir); fi.Mode().Perm() != 0o700 {
		t.Errorf("data dir %v", fi.Mode().Perm())
	}
	for _, f := range []string{"layerfix.db", "layerfix.db-wal"} {
		if fi, err := os.Stat(filepath.Join(dir, f)); err == nil && fi.Mode().Perm() != 0o600 {
			t.Errorf("%s is %v", f, fi.Mode().Perm())
		}
	}
}

// TestReadOnlyDataDirSaysSo: a data dir this user cannot write names the
// problem and the uid, not "unable to open database file".
func TestReadOnlyDataDirSaysSo(t *testing.T) {
	if os.Getuid() == 0 {
		// root writes anywhere; check the message through a read-only bind instead.
		err := prepareDataDir("/proc/self")
		if err == nil || !strings.Contains(err.Error(), "read-only") && !strings.Contains(err.Error(), "not writable") {
			t.Fatalf("err = %v", err)
		}
		return
	}
	dir := t.TempDir()
	os.Chmod(dir, 0o500)
	defer os.Chmod(dir, 0o700)
	_, err := Open(context.Background(), Options{DataDir: dir})
	if err == nil || !strings.Contains(err.Error(), "read-only") || !strings.Contains(err.Error(), "uid") {
		t.Fatalf("err = %v", err)
	}
}

func TestPurgeExpired(t *testing.T) {
	for name, s := range testStores(t) {
		t.Run(name, func(t *testing.T) { testPurgeExpired(t, s) })
	}
}

func testPurgeExpired(t *testing.T, s *Store) {
	ctx := context.Background()
	now := time.Date(2026, 5, 20, 12, 0, 0, 0, time.UTC)
	u := &User{Email: "p@example.com"}
	if err := s.CreateUser(ctx, u); err != nil {
		t.Fatal(err)
	}
	s.CreateSession(ctx, u.ID, "old", now.Add(-time.Hour))
	s.CreateSession(ctx, u.ID, "live", now.Add(time.Hour))
	s.CreateAuthToken(ctx, u.ID, "reset", "expired", now.Add(-time.Minute))
	s.CreateAuthToken(ctx, u.ID, "reset", "live", now.Add(time.Hour))
	for _, m := range []time.Time{now.AddDate(0, -3, 0), now.AddDate(0, -1, 0), now} {
		s.ConsumeAnonymous(ctx, "198.51.100.1", m, 3)
	}
	s.writer(ctx).Exec(`INSERT INTO stripe_events (event_id, type, processed_at) VALUES ('evt_old','x',?), ('evt_new','x',?)`,
		now.Add(-40*24*time.Hour), now.Add(-time.Hour))
	p, err := s.PurgeExpired(ctx, now)
	if err != nil {
		t.Fatal(err)
	}
	if p != (Purged{Sessions: 1, Tokens: 1, AnonymousRows: 1, StripeEvents: 1}) {
		t.Fatalf("purged %+v", p)
	}
	if _, err := s.SessionUser(ctx, "live", now); err != nil {
		t.Fatalf("a live session was purged: %v", err)
	}
	if n, _ := s.AnonymousUsage(ctx, "198.51.100.1", now.AddDate(0, -1, 0)); n != 1 {
		t.Fatal("last month's anonymous usage was purged")
	}
}
