package store

import (
	"archive/tar"
	"bytes"
	"compress/gzip"
	"context"
	"database/sql"
	"encoding/json"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/layerfix/layerfix/store/blob"
)

// archiveEntry is one file of a backup archive, for tests that take a
// genuine backup apart and change it as an attacker would.
type archiveEntry struct {
	name string
	body []byte
}

func readArchive(t *testing.T, archive []byte) []archiveEntry {
	t.Helper()
	gz, err := gzip.NewReader(bytes.NewReader(archive))
	if err != nil {
		t.Fatal(err)
	}
	tr := tar.NewReader(gz)
	var out []archiveEntry
	for {
		h, err := tr.Next()
		if err == io.EOF {
			return out
		}
		if err != nil {
			t.Fatal(err)
		}
		b, err := io.ReadAll(tr)
		if err != nil {
			t.Fatal(err)
		}
		out = append(out, archiveEntry{h.Name, b})
	}
}

func writeArchive(t *testing.T, entries []archiveEntry) []byte {
	t.Helper()
	var buf bytes.Buffer
	gz := gzip.NewWriter(&buf)
	tw := tar.NewWriter(gz)
	for _, e := range entries {
		if err := tw.WriteHeader(&tar.Header{Name: e.name, Mode: 0o600, Size: int64(len(e.body)), Typeflag: tar.TypeReg}); err != nil {
			t.Fatal(err)
		}
		tw.Write(e.body)
	}
	tw.Close()
	gz.Close()
	return buf.Bytes()
}

// editManifest changes the fields backup.json already has (an attacker
// who knows the format keeps it consistent with what they changed).
func editManifest(t *testing.T, entries []archiveEntry, set map[string]any) {
	t.Helper()
	for i, e := range entries {
		if e.name != "backup.json" {
			continue
		}
		m := map[string]any{}
		if err := json.Unmarshal(e.body, &m); err != nil {
			t.Fatal(err)
		}
		for k, v := range set {
			if _, ok := m[k]; ok {
				m[k] = v
			}
		}
		entries[i].body, _ = json.Marshal(m)
	}
}

// entryTotals are the sizes backup.json describes, measured on entries.
func entryTotals(entries []archiveEntry) map[string]any {
	var db, photos, bytes, largest int64
	for _, e := range entries {
		switch {
		case e.name == "layerfix.db":
			db = int64(len(e.body))
		case strings.HasPrefix(e.name, "photos/"):
			photos++
			bytes += int64(len(e.body))
			largest = max(largest, int64(len(e.body)))
		}
	}
	return map[string]any{"databaseBytes": db, "photos": photos, "photoBytes": bytes, "largestPhotoBytes": largest}
}

// genuineBackup makes a data dir with one account and three photos, lets
// tamper change its database file directly, and backs it up.
func genuineBackup(t *testing.T, tamper func(db *sql.DB)) []byte {
	t.Helper()
	ctx := context.Background()
	dir := t.TempDir()
	s := openAt(t, dir)
	u := &User{Email: "owner@example.com", DisplayName: "Owner", PasswordHash: new("hash-of-owner"), SubscriptionTier: "free", SubscriptionStatus: "inactive"}
	if err := s.CreateUser(ctx, u); err != nil {
		t.Fatal(err)
	}
	disk := blob.NewDisk(filepath.Join(dir, "photos"))
	for i := 0; i < 3; i++ {
		name := fmt.Sprintf("ph%d.jpg", i)
		body := bytes.Repeat([]byte{byte(i)}, 1000*(i+1))
		if err := disk.Put(ctx, name, body); err != nil {
			t.Fatal(err)
		}
		if err := s.CreatePhotos(ctx, []Photo{{ID: name, UserID: u.ID, SizeBytes: len(body)}}); err != nil {
			t.Fatal(err)
		}
	}
	s.Close()
	if tamper != nil {
		db, err := openRawSQLite(filepath.Join(dir, "layerfix.db"))
		if err != nil {
			t.Fatal(err)
		}
		tamper(db)
		db.Close()
	}
	var archive bytes.Buffer
	if _, err := Backup(ctx, BackupOptions{DataDir: dir, Version: "test"}, &archive); err != nil {
		t.Fatal(err)
	}
	return archive.Bytes()
}

func mustExec(t *testing.T, db *sql.DB, stmts ...string) {
	t.Helper()
	for _, q := range stmts {
		if _, err := db.Exec(q); err != nil {
			t.Fatalf("%s: %v", q, err)
		}
	}
}

// A database that is not Layerfix's own, or carries a trigger or view of
// someone else's, or whose migrations are not those its backup.json names,
// is refused and nothing of it reaches the data dir.
func TestRestoreRefusesDatabasesNotLayerfixs(t *testing.T) {
	ctx := context.Background()
	foreign := func(t *testing.T) []byte {
		p := filepath.Join(t.TempDir(), "other.db")
		db, err := openRawSQLite(p)
		if err != nil {
			t.Fatal(err)
		}
		mustExec(t, db, "CREATE TABLE users (id INTEGER PRIMARY KEY, email TEXT)", "INSERT INTO users (email) VALUES ('x@example.com')")
		db.Close()
		b, err := os.ReadFile(p)
		if err != nil {
			t.Fatal(err)
		}
		entries := readArchive(t, genuineBackup(t, nil))
		for i := range entries {
			if entries[i].name == "layerfix.db" {
				entries[i].body = b
			}
		}
		editManifest(t, entries, entryTotals(entries))
		return writeArchive(t, entries)
	}
	for _, tc := range []struct {
		name    string
		archive func(t *testing.T) []byte
		want    string
	}{
		{"foreign database", foreign, "no schema_migrations table"},
		{"trigger", func(t *testing.T) []byte {
			return genuineBackup(t, func(db *sql.DB) {
				mustExec(t, db, `CREATE TRIGGER steal AFTER INSERT ON users BEGIN UPDATE users SET display_name = NEW.password_hash WHERE id = NEW.id; END`)
			})
		}, `an extra trigger "steal" on users`},
		{"view", func(t *testing.T) []byte {
			return genuineBackup(t, func(db *sql.DB) {
				mustExec(t, db, `CREATE VIEW hashes AS SELECT email, password_hash FROM users`)
			})
		}, `an extra view "hashes"`},
		{"extra table", func(t *testing.T) []byte {
			return genuineBackup(t, func(db *sql.DB) { mustExec(t, db, `CREATE TABLE loot (h TEXT)`) })
		}, `an extra table "loot"`},
		{"changed table", func(t *testing.T) []byte {
			return genuineBackup(t, func(db *sql.DB) { mustExec(t, db, `DROP TABLE server_keys`, `CREATE TABLE server_keys (id TEXT)`) })
		}, `table "server_keys" is defined differently`},
		{"missing migration", func(t *testing.T) []byte {
			return genuineBackup(t, func(db *sql.DB) { mustExec(t, db, `DELETE FROM schema_migrations WHERE version = 3`) })
		}, "records migrations [1 2 4"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			target := filepath.Join(t.TempDir(), "data")
			_, err := Restore(ctx, RestoreOptions{DataDir: target}, bytes.NewReader(tc.archive(t)))
			if err == nil || !strings.Contains(err.Error(), tc.want) {
				t.Fatalf("restore: err = %v, want a refusal naming %q", err, tc.want)
			}
			t.Logf("refused: %v", err)
			if _, err := os.Stat(filepath.Join(target, "layerfix.db")); err == nil {
				t.Fatal("the refused database was put in place")
			}
			if _, err := os.Stat(filepath.Join(target, "photos")); err == nil {
				t.Fatal("the refused backup's photos were put in place")
			}
			// The server then starts on a new database where the trigger
			// never runs: a new account keeps its name.
			s := openAt(t, target)
			defer s.Close()
			u := &User{Email: "new@example.com", DisplayName: "New", PasswordHash: new("secret-hash"), SubscriptionTier: "free", SubscriptionStatus: "inactive"}
			if err := s.CreateUser(ctx, u); err != nil {
				t.Fatal(err)
			}
			var name string
			var triggers int64
			s.r.Raw("SELECT display_name FROM users WHERE id = ?", u.ID).Scan(&name)
			s.r.Raw("SELECT count(*) FROM sqlite_master WHERE type IN ('trigger', 'view')").Scan(&triggers)
			if name != "New" || triggers != 0 {
				t.Fatalf("after the refusal: display name %q, %d triggers or views", name, triggers)
			}
		})
	}
}

// dirBytes sums the sizes of the files under dir.
func dirBytes(t *testing.T, dir string) int64 {
	t.Helper()
	var n int64
	filepath.WalkDir(dir, func(_ string, d fs.DirEntry, err error) error {
		if err == nil && d.Type().IsRegular() {
			if st, err := d.Info(); err == nil {
				n += st.Size()
			}
		}
		return nil
	})
	return n
}

// An archive whose entries do not match its backup.json is refused, and
// no more is written than the genuine backup's size.
func TestRestoreBoundsWhatItUnpacks(t *testing.T) {
	ctx := context.Background()
	genuine := genuineBackup(t, nil)
	var genuineSize int64
	for _, e := range readArchive(t, genuine) {
		genuineSize += int64(len(e.body))
	}
	photoIndex := func(entries []archiveEntry) int {
		for i, e := range entries {
			if strings.HasPrefix(e.name, "photos/") {
				return i
			}
		}
		t.Fatal("no photo in the backup")
		return 0
	}
	for _, tc := range []struct {
		name string
		edit func(entries []archiveEntry) []archiveEntry
		want string
	}{
		{"photo bomb", func(es []archiveEntry) []archiveEntry {
			es[photoIndex(es)].body = make([]byte, 32<<20) // 32 MiB of zeros: 32 KB compressed
			return es
		}, "larger than the largest photo"},
		{"database bigger than listed", func(es []archiveEntry) []archiveEntry {
			for i := range es {
				if es[i].name == "layerfix.db" {
					es[i].body = append(es[i].body, make([]byte, 8<<20)...)
				}
			}
			return es
		}, "layerfix.db is"},
		{"more photos", func(es []archiveEntry) []archiveEntry {
			for i := 0; i < 2000; i++ {
				es = append(es, archiveEntry{fmt.Sprintf("photos/zz/zz%05d.jpg", i), []byte("x")})
			}
			return es
		}, "more photos than"},
		{"fewer photos", func(es []archiveEntry) []archiveEntry {
			i := photoIndex(es)
			return append(es[:i], es[i+1:]...)
		}, "the backup is incomplete"},
		{"more than the disk holds", func(es []archiveEntry) []archiveEntry {
			editManifest(t, es, map[string]any{"photoBytes": int64(1) << 49, "largestPhotoBytes": int64(1) << 49})
			for i := 0; i < 8; i++ {
				es = append(es, archiveEntry{fmt.Sprintf("photos/zz/big%d.jpg", i), make([]byte, 8<<20)})
			}
			return es
		}, "free"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			archive := writeArchive(t, tc.edit(readArchive(t, genuine)))
			dir := t.TempDir()
			_, err := unpack(bytes.NewReader(archive), dir)
			written := dirBytes(t, dir)
			t.Logf("archive %d bytes, unpacked %d bytes (genuine backup %d): %v", len(archive), written, genuineSize, err)
			if err == nil || !strings.Contains(err.Error(), tc.want) {
				t.Fatalf("unpack: err = %v, want a refusal with %q", err, tc.want)
			}
			if written > genuineSize {
				t.Fatalf("wrote %d bytes before refusing; the backup's manifest allows %d", written, genuineSize)
			}
			// Restore says the same and leaves nothing behind.
			target := t.TempDir()
			if _, err := Restore(ctx, RestoreOptions{DataDir: target}, bytes.NewReader(archive)); err == nil || !strings.Contains(err.Error(), tc.want) {
				t.Fatalf("restore: err = %v", err)
			}
			if n := dirBytes(t, target); n != 0 {
				t.Fatalf("a refused restore left %d bytes in the data dir", n)
			}
		})
	}
}

// A photo deleted after the backup listed it is still copied (through its
// hard link), so the archive holds exactly what backup.json lists.
func TestBackupKeepsPhotosDeletedWhileItRuns(t *testing.T) {
	ctx := context.Background()
	dir := t.TempDir()
	disk := blob.NewDisk(filepath.Join(dir, "photos"))
	for _, name := range []string{"aa1.jpg", "bb2.jpg"} {
		if err := disk.Put(ctx, name, []byte("bytes of "+name)); err != nil {
			t.Fatal(err)
		}
	}
	photos, err := listPhotos(dir, filepath.Join(dir, ".backup-test", "links"))
	if err != nil || len(photos) != 2 {
		t.Fatalf("listed %v, %v", photos, err)
	}
	for _, p := range photos {
		if err := disk.Delete(ctx, filepath.Base(p.name)); err != nil {
			t.Fatal(err)
		}
		b, err := os.ReadFile(p.src)
		if err != nil || int64(len(b)) != p.size || string(b) != "bytes of "+filepath.Base(p.name) {
			t.Fatalf("%s after its deletion: %q, %v", p.name, b, err)
		}
	}
}
