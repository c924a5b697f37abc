package store

import (
	"archive/tar"
	"bytes"
	"compress/gzip"
	"context"
	"fmt"
	"io"
	"log/slog"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/layerfix/layerfix/store/blob"
)

func openAt(t *testing.T, dir string) *Store {
	t.Helper()
	s, err := Open(context.Background(), Options{DataDir: dir, Logger: slog.New(slog.NewTextHandler(io.Discard, nil))})
	if err != nil {
		t.Fatal(err)
	}
	return s
}

// A backup taken while four writers keep adding photos (file first, then
// its row) restores into an empty data dir with every row acknowledged
// before the backup began, every photo file, and a sound database.
func TestBackupDuringWritesRestoresEverything(t *testing.T) {
	ctx := context.Background()
	dir := t.TempDir()
	s := openAt(t, dir)
	u := &User{Email: "backup@example.com", DisplayName: "B", SubscriptionTier: "free", SubscriptionStatus: "inactive"}
	if err := s.CreateUser(ctx, u); err != nil {
		t.Fatal(err)
	}
	disk := blob.NewDisk(filepath.Join(dir, "photos"))
	content := func(name string) []byte { return []byte("photo bytes of " + name) }

	var (
		mu    sync.Mutex
		acked []string
		stop  = make(chan struct{})
		wg    sync.WaitGroup
	)
	for w := 0; w < 4; w++ {
		wg.Add(1)
		go func(w int) {
			defer wg.Done()
			for i := 0; ; i++ {
				select {
				case <-stop:
					return
				default:
				}
				name := fmt.Sprintf("w%d-%05d.jpg", w, i)
				if err := disk.Put(ctx, name, content(name)); err != nil {
					t.Error(err)
					return
				}
				if err := s.CreatePhotos(ctx, []Photo{{ID: name, UserID: u.ID, SizeBytes: len(content(name))}}); err != nil {
					t.Error(err)
					return
				}
				mu.Lock()
				acked = append(acked, name)
				mu.Unlock()
			}
		}(w)
	}
	waitFor := func(n int) {
		for {
			mu.Lock()
			l := len(acked)
			mu.Unlock()
			if l >= n {
				return
			}
			time.Sleep(5 * time.Millisecond)
		}
	}
	waitFor(40)
	mu.Lock()
	before := append([]string(nil), acked...)
	mu.Unlock()
	var archive bytes.Buffer
	m, err := Backup(ctx, BackupOptions{DataDir: dir, Version: "test"}, &archive)
	if err != nil {
		t.Fatal(err)
	}
	mu.Lock()
	duringBackup := len(acked) - len(before)
	mu.Unlock()
	close(stop)
	wg.Wait()
	s.Close()
	if m.Dialect != SQLite || m.Schema == 0 || m.Photos < len(before) {
		t.Fatalf("manifest %+v for %d acknowledged photos", m, len(before))
	}
	t.Logf("backup: %d photos acknowledged before, %d written during the backup, %d in the archive (%d bytes)", len(before), duringBackup, m.Photos, archive.Len())

	// A restore into a data dir that already has a database needs --force.
	if _, err := Restore(ctx, RestoreOptions{DataDir: dir}, bytes.NewReader(archive.Bytes())); err == nil || !strings.Contains(err.Error(), "--force") {
		t.Fatalf("restore over a live database: err = %v, want a --force refusal", err)
	}

	target := filepath.Join(t.TempDir(), "restored")
	if _, err := Restore(ctx, RestoreOptions{DataDir: target}, bytes.NewReader(archive.Bytes())); err != nil {
		t.Fatal(err)
	}
	if err := IntegrityCheck(ctx, filepath.Join(target, "layerfix.db")); err != nil {
		t.Fatal(err)
	}
	r := openAt(t, target)
	defer r.Close()
	var rows []Photo
	if err := r.r.Find(&rows).Error; err != nil {
		t.Fatal(err)
	}
	have := map[string]bool{}
	restored := blob.NewDisk(filepath.Join(target, "photos"))
	for _, p := range rows {
		have[p.ID] = true
		// Every row in the backup has its file, with its bytes.
		f, err := restored.Open(ctx, p.ID)
		if err != nil {
			t.Fatalf("photo %s: row restored but not its file: %v", p.ID, err)
		}
		b, _ := io.ReadAll(f)
		f.Close()
		if !bytes.Equal(b, content(p.ID)) {
			t.Fatalf("photo %s: restored bytes differ", p.ID)
		}
	}
	for _, name := range before {
		if !have[name] {
			t.Fatalf("photo %s was acknowledged before the backup but is not restored", name)
		}
	}
	var users int64
	r.r.Model(&User{}).Count(&users)
	if users != 1 {
		t.Fatalf("restored %d users, want 1", users)
	}

	// With --force the old database is kept beside, renamed.
	if _, err := Restore(ctx, RestoreOptions{DataDir: dir, Force: true}, bytes.NewReader(archive.Bytes())); err != nil {
		t.Fatal(err)
	}
	if kept, _ := filepath.Glob(filepath.Join(dir, "layerfix.db.replaced-*")); len(kept) != 1 {
		t.Fatalf("the replaced database was not kept: %v", kept)
	}
}

func TestRestoreRefusesARunningServerAndForeignArchives(t *testing.T) {
	ctx := context.Background()
	dir := t.TempDir()
	s := openAt(t, dir)
	var archive bytes.Buffer
	if _, err := Backup(ctx, BackupOptions{DataDir: dir}, &archive); err != nil {
		t.Fatal(err)
	}
	s.Close()

	target := t.TempDir()
	unlock, err := LockDataDir(target) // a server running on the target
	if err != nil {
		t.Fatal(err)
	}
	if _, err := Restore(ctx, RestoreOptions{DataDir: target}, bytes.NewReader(archive.Bytes())); err == nil || !strings.Contains(err.Error(), "another layerfix process") {
		t.Fatalf("restore while a server runs: err = %v", err)
	}
	unlock()

	for name, data := range map[string][]byte{
		"not gzip":    []byte("hello"),
		"traversal":   tarGz(t, map[string]string{"../escape": "x", "backup.json": `{"format":1,"dialect":"sqlite"}`}),
		"no manifest": tarGz(t, map[string]string{"layerfix.db": "x"}),
	} {
		if _, err := Restore(ctx, RestoreOptions{DataDir: t.TempDir()}, bytes.NewReader(data)); err == nil {
			t.Errorf("%s: restored", name)
		}
	}
	if _, err := os.Stat(filepath.Join(filepath.Dir(target), "escape")); err == nil {
		t.Fatal("a ../ entry was written outside the data dir")
	}
}

// Before migrations change an existing database, a copy is kept.
func TestBackupBeforeMigrating(t *testing.T) {
	ctx := context.Background()
	dir := t.TempDir()
	s := openAt(t, dir)
	defer s.Close()
	var current int
	s.w.Raw("SELECT MAX(version) FROM schema_migrations").Scan(&current)
	if err := s.backupBeforeMigrating(ctx, current+1); err != nil {
		t.Fatal(err)
	}
	kept, _ := filepath.Glob(filepath.Join(dir, "backups", fmt.Sprintf("layerfix-schema%d-before-%d-*.db", current, current+1)))
	if len(kept) != 1 {
		t.Fatalf("backups: %v", kept)
	}
	if err := IntegrityCheck(ctx, kept[0]); err != nil {
		t.Fatal(err)
	}
	// Nothing to keep when there is nothing to migrate.
	if err := s.backupBeforeMigrating(ctx, current); err != nil {
		t.Fatal(err)
	}
	if again, _ := filepath.Glob(filepath.Join(dir, "backups", "*.db")); len(again) != 1 {
		t.Fatalf("backups after a no-op: %v", again)
	}
}

func tarGz(t *testing.T, files map[string]string) []byte {
	t.Helper()
	var buf bytes.Buffer
	gz := gzip.NewWriter(&buf)
	tw := tar.NewWriter(gz)
	for name, body := range files {
		tw.WriteHeader(&tar.Header{Name: name, Mode: 0o600, Size: int64(len(body)), Typeflag: tar.TypeReg})
		tw.Write([]byte(body))
	}
	tw.Close()
	gz.Close()
	return buf.Bytes()
}
