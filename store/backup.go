package store

import (
	"archive/tar"
	"compress/gzip"
	"context"
	"database/sql"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"os/exec"
	"path"
	"path/filepath"
	"sort"
	"strings"
	"syscall"
	"time"
)

// Backups: one .tar.gz holding the database (a consistent SQLite copy made
// with VACUUM INTO while the server keeps writing, or a pg_dump custom
// archive for PostgreSQL), every photo under photos/, and backup.json.

const (
	backupManifest = "backup.json"
	backupSQLite   = "layerfix.db"
	backupPgDump   = "layerfix.pgdump"
	photosDir      = "photos"
	lockFile       = "layerfix.lock"
	// A restored entry larger than this is not a Layerfix backup.
	maxBackupEntry = 64 << 30
)

// BackupManifest describes a backup archive.
type BackupManifest struct {
	Format    int       `json:"format"`
	Dialect   string    `json:"dialect"`
	Schema    int       `json:"schemaVersion"`
	CreatedAt time.Time `json:"createdAt"`
	Photos    int       `json:"photos"`
	Version   string    `json:"layerfixVersion"`
}

// BackupOptions say what to back up.
type BackupOptions struct {
	DataDir     string // the SQLite file and photos/
	DatabaseURL string // PostgreSQL when set
	Version     string // the binary's version, recorded in the manifest
}

// Backup writes a backup archive to w while a server may be running and
// writing: the database first (a snapshot), then the photos, so every photo
// row in the snapshot finds its file (photos are written before their rows
// and never changed).
func Backup(ctx context.Context, opts BackupOptions, w io.Writer) (*BackupManifest, error) {
	tmp, err := os.MkdirTemp(backupTempDir(opts.DataDir), ".backup-")
	if err != nil {
		return nil, fmt.Errorf("backup: %w", err)
	}
	defer os.RemoveAll(tmp)
	m := &BackupManifest{Format: 1, CreatedAt: time.Now().UTC(), Version: opts.Version}
	var dbFile, dbName string
	if isPostgresURL(opts.DatabaseURL) {
		m.Dialect, dbName, dbFile = Postgres, backupPgDump, filepath.Join(tmp, backupPgDump)
		if err := pgDump(ctx, opts.DatabaseURL, dbFile); err != nil {
			return nil, err
		}
	} else {
		m.Dialect, dbName, dbFile = SQLite, backupSQLite, filepath.Join(tmp, backupSQLite)
		src := filepath.Join(opts.DataDir, backupSQLite)
		if _, err := os.Stat(src); err != nil {
			return nil, fmt.Errorf("backup: no database at %s (set LAYERFIX_DATA_DIR): %w", src, err)
		}
		if err := vacuumInto(ctx, src, dbFile); err != nil {
			return nil, err
		}
		if m.Schema, err = sqliteSchemaVersion(ctx, dbFile); err != nil {
			return nil, err
		}
	}

	gz := gzip.NewWriter(w)
	tw := tar.NewWriter(gz)
	if err := addFile(tw, dbFile, dbName); err != nil {
		return nil, err
	}
	photos := filepath.Join(opts.DataDir, photosDir)
	err = filepath.WalkDir(photos, func(p string, d fs.DirEntry, err error) error {
		if err != nil {
			if errors.Is(err, fs.ErrNotExist) && p == photos {
				return fs.SkipDir
			}
			return err
		}
		if !d.Type().IsRegular() || strings.HasPrefix(d.Name(), ".") {
			return nil // directories, and half-written temporary files
		}
		rel, err := filepath.Rel(opts.DataDir, p)
		if err != nil {
			return err
		}
		if err := addFile(tw, p, filepath.ToSlash(rel)); err != nil {
			if errors.Is(err, fs.ErrNotExist) {
				return nil // deleted since the snapshot together with its row
			}
			return err
		}
		m.Photos++
		return nil
	})
	if err != nil {
		return nil, fmt.Errorf("backup photos: %w", err)
	}
	mb, _ := json.MarshalIndent(m, "", "  ")
	if err := tw.WriteHeader(&tar.Header{Name: backupManifest, Mode: 0o600, Size: int64(len(mb)), ModTime: m.CreatedAt, Typeflag: tar.TypeReg}); err != nil {
		return nil, err
	}
	if _, err := tw.Write(mb); err != nil {
		return nil, err
	}
	if err := tw.Close(); err != nil {
		return nil, err
	}
	if err := gz.Close(); err != nil {
		return nil, err
	}
	return m, nil
}

// backupTempDir keeps the snapshot on the data dir's disk when it exists
// (no copy across file systems, and /tmp may be small on a Pi).
func backupTempDir(dataDir string) string {
	if st, err := os.Stat(dataDir); err == nil && st.IsDir() {
		if f, err := os.CreateTemp(dataDir, ".write-test-*"); err == nil {
			f.Close()
			os.Remove(f.Name())
			return dataDir
		}
	}
	return os.TempDir()
}

func addFile(tw *tar.Writer, src, name string) error {
	f, err := os.Open(src)
	if err != nil {
		return err
	}
	defer f.Close()
	st, err := f.Stat()
	if err != nil {
		return err
	}
	if err := tw.WriteHeader(&tar.Header{Name: name, Mode: 0o600, Size: st.Size(), ModTime: st.ModTime(), Typeflag: tar.TypeReg}); err != nil {
		return err
	}
	_, err = io.Copy(tw, f)
	return err
}

// openRawSQLite opens a plain connection to a SQLite file (no migrations).
func openRawSQLite(p string) (*sql.DB, error) {
	db, err := sql.Open(sqliteDriverName, "file:"+p+"?"+sqliteBusyParam)
	if err != nil {
		return nil, err
	}
	db.SetMaxOpenConns(1)
	return db, nil
}

// vacuumInto copies a live SQLite database into dst as one consistent
// snapshot (a read transaction: the server's writers are not blocked).
func vacuumInto(ctx context.Context, src, dst string) error {
	db, err := openRawSQLite(src)
	if err != nil {
		return fmt.Errorf("backup: open %s: %w", src, err)
	}
	defer db.Close()
	if _, err := db.ExecContext(ctx, "VACUUM INTO ?", dst); err != nil {
		return fmt.Errorf("backup: copy the database: %w", err)
	}
	return nil
}

func sqliteSchemaVersion(ctx context.Context, p string) (int, error) {
	db, err := openRawSQLite(p)
	if err != nil {
		return 0, err
	}
	defer db.Close()
	var v int
	if err := db.QueryRowContext(ctx, "SELECT COALESCE(MAX(version), 0) FROM schema_migrations").Scan(&v); err != nil {
		return 0, fmt.Errorf("read the schema version of %s: %w", p, err)
	}
	return v, nil
}

// IntegrityCheck runs PRAGMA integrity_check on a SQLite file.
func IntegrityCheck(ctx context.Context, p string) error {
	db, err := openRawSQLite(p)
	if err != nil {
		return err
	}
	defer db.Close()
	var res string
	if err := db.QueryRowContext(ctx, "PRAGMA integrity_check").Scan(&res); err != nil {
		return fmt.Errorf("integrity check of %s: %w", p, err)
	}
	if res != "ok" {
		return fmt.Errorf("integrity check of %s: %s", p, res)
	}
	return nil
}

func pgTool(name string) (string, error) {
	p, err := exec.LookPath(name)
	if err != nil {
		return "", fmt.Errorf("%s is not installed: PostgreSQL backups use the PostgreSQL client tools (Debian: apt-get install postgresql-client, of the server's major version or newer)", name)
	}
	return p, nil
}

func pgDump(ctx context.Context, url, out string) error {
	bin, err := pgTool("pg_dump")
	if err != nil {
		return err
	}
	cmd := exec.CommandContext(ctx, bin, "--format=custom", "--no-owner", "--no-privileges", "--file="+out, "--dbname="+url)
	if b, err := cmd.CombinedOutput(); err != nil {
		return fmt.Errorf("pg_dump: %v: %s", err, strings.TrimSpace(string(b)))
	}
	return nil
}

// RestoreOptions say where to restore.
type RestoreOptions struct {
	DataDir     string
	DatabaseURL string
	// Force replaces an existing database (the old files are kept beside,
	// renamed); without it a data dir that holds a database is refused.
	Force bool
}

// Restore unpacks a backup archive into the data dir (and the PostgreSQL
// database for a PostgreSQL backup). The server must be stopped: a running
// server holds the data dir's lock.
func Restore(ctx context.Context, opts RestoreOptions, r io.Reader) (*BackupManifest, error) {
	if err := prepareDataDir(opts.DataDir); err != nil {
		return nil, err
	}
	unlock, err := LockDataDir(opts.DataDir)
	if err != nil {
		return nil, err
	}
	defer unlock()
	stage, err := os.MkdirTemp(opts.DataDir, ".restore-")
	if err != nil {
		return nil, err
	}
	defer os.RemoveAll(stage)
	m, err := unpack(r, stage)
	if err != nil {
		return nil, err
	}
	stamp := time.Now().UTC().Format("20060102-150405")
	switch m.Dialect {
	case SQLite:
		if isPostgresURL(opts.DatabaseURL) {
			return nil, errors.New("restore: this is a SQLite backup but LAYERFIX_DATABASE_URL points at PostgreSQL")
		}
		db := filepath.Join(stage, backupSQLite)
		if err := IntegrityCheck(ctx, db); err != nil {
			return nil, fmt.Errorf("restore: the backup's database is damaged: %w", err)
		}
		live := filepath.Join(opts.DataDir, backupSQLite)
		if _, err := os.Stat(live); err == nil {
			if !opts.Force {
				return nil, fmt.Errorf("restore: %s already holds a database; stop the server and use --force to replace it (the old files are kept as *.replaced-<time>)", opts.DataDir)
			}
			for _, suffix := range []string{"", "-wal", "-shm"} {
				if err := os.Rename(live+suffix, live+suffix+".replaced-"+stamp); err != nil && !errors.Is(err, fs.ErrNotExist) {
					return nil, err
				}
			}
		}
		if err := os.Rename(db, live); err != nil {
			return nil, err
		}
		restrictDBFiles(live)
	case Postgres:
		if !isPostgresURL(opts.DatabaseURL) {
			return nil, errors.New("restore: this is a PostgreSQL backup: set LAYERFIX_DATABASE_URL to the (empty) database to restore into")
		}
		if err := pgRestore(ctx, opts.DatabaseURL, filepath.Join(stage, backupPgDump), opts.Force); err != nil {
			return nil, err
		}
	default:
		return nil, fmt.Errorf("restore: unknown database %q in the backup", m.Dialect)
	}
	// Photos: the backup's set replaces the current one.
	livePhotos := filepath.Join(opts.DataDir, photosDir)
	if _, err := os.Stat(livePhotos); err == nil {
		if err := os.Rename(livePhotos, livePhotos+".replaced-"+stamp); err != nil {
			return nil, err
		}
	}
	if _, err := os.Stat(filepath.Join(stage, photosDir)); err == nil {
		if err := os.Rename(filepath.Join(stage, photosDir), livePhotos); err != nil {
			return nil, err
		}
	}
	return m, nil
}

// unpack extracts a backup into dir, accepting only the files a backup
// holds (no links, no paths outside dir).
func unpack(r io.Reader, dir string) (*BackupManifest, error) {
	gz, err := gzip.NewReader(r)
	if err != nil {
		return nil, fmt.Errorf("restore: not a Layerfix backup (gzip): %w", err)
	}
	tr := tar.NewReader(gz)
	var m *BackupManifest
	for {
		h, err := tr.Next()
		if errors.Is(err, io.EOF) {
			break
		}
		if err != nil {
			return nil, fmt.Errorf("restore: damaged archive: %w", err)
		}
		name := path.Clean(h.Name)
		ok := name == backupManifest || name == backupSQLite || name == backupPgDump ||
			(strings.HasPrefix(name, photosDir+"/") && !strings.Contains(name, ".."))
		if !ok || h.Typeflag != tar.TypeReg || h.Size > maxBackupEntry {
			return nil, fmt.Errorf("restore: unexpected entry %q in the archive", h.Name)
		}
		if name == backupManifest {
			m = &BackupManifest{}
			if err := json.NewDecoder(io.LimitReader(tr, 1<<20)).Decode(m); err != nil {
				return nil, fmt.Errorf("restore: backup.json: %w", err)
			}
			continue
		}
		dst := filepath.Join(dir, filepath.FromSlash(name))
		if err := os.MkdirAll(filepath.Dir(dst), 0o700); err != nil {
			return nil, err
		}
		f, err := os.OpenFile(dst, os.O_CREATE|os.O_EXCL|os.O_WRONLY, 0o600)
		if err != nil {
			return nil, err
		}
		_, err = io.Copy(f, io.LimitReader(tr, h.Size))
		if cerr := f.Close(); err == nil {
			err = cerr
		}
		if err != nil {
			return nil, fmt.Errorf("restore: %s: %w", name, err)
		}
	}
	if m == nil || m.Format != 1 {
		return nil, errors.New("restore: not a Layerfix backup (no backup.json)")
	}
	return m, nil
}

func pgRestore(ctx context.Context, url, dump string, force bool) error {
	bin, err := pgTool("pg_restore")
	if err != nil {
		return err
	}
	db, err := sql.Open("pgx", url)
	if err == nil {
		var n int
		if db.QueryRowContext(ctx, "SELECT count(*) FROM information_schema.tables WHERE table_name = 'schema_migrations'").Scan(&n) == nil && n > 0 && !force {
			db.Close()
			return errors.New("restore: the PostgreSQL database already holds Layerfix tables; use --force to replace them")
		}
		db.Close()
	}
	cmd := exec.CommandContext(ctx, bin, "--clean", "--if-exists", "--no-owner", "--no-privileges", "--exit-on-error", "--dbname="+url, dump)
	if b, err := cmd.CombinedOutput(); err != nil {
		return fmt.Errorf("pg_restore: %v: %s", err, strings.TrimSpace(string(b)))
	}
	return nil
}

// LockDataDir takes the data dir's lock: a server holds it while it runs,
// so a restore (or a second server) on the same data dir is refused.
// A data dir that cannot hold the lock file is left to Open, whose
// message says what is wrong with it.
func LockDataDir(dir string) (unlock func(), err error) {
	os.MkdirAll(dir, 0o700)
	f, err := os.OpenFile(filepath.Join(dir, lockFile), os.O_CREATE|os.O_RDWR, 0o600)
	if err != nil {
		return func() {}, nil
	}
	if err := syscall.Flock(int(f.Fd()), syscall.LOCK_EX|syscall.LOCK_NB); err != nil {
		f.Close()
		return nil, fmt.Errorf("another layerfix process is using the data directory %s: stop it first", dir)
	}
	return func() { syscall.Flock(int(f.Fd()), syscall.LOCK_UN); f.Close() }, nil
}

// preMigrationBackup keeps a copy of a SQLite database before migrations
// change it, in DataDir/backups (the newest five are kept).
func preMigrationBackup(ctx context.Context, dbPath string, from, to int) (string, error) {
	dir := filepath.Join(filepath.Dir(dbPath), "backups")
	if err := os.MkdirAll(dir, 0o700); err != nil {
		return "", err
	}
	dst := filepath.Join(dir, fmt.Sprintf("layerfix-schema%d-before-%d-%s.db", from, to, time.Now().UTC().Format("20060102-150405")))
	if err := vacuumInto(ctx, dbPath, dst); err != nil {
		return "", err
	}
	old, _ := filepath.Glob(filepath.Join(dir, "layerfix-schema*-before-*.db"))
	modTime := func(p string) time.Time {
		st, err := os.Stat(p)
		if err != nil {
			return time.Time{}
		}
		return st.ModTime()
	}
	sort.Slice(old, func(i, j int) bool { return modTime(old[i]).Before(modTime(old[j])) })
	for len(old) > 5 {
		os.Remove(old[0])
		old = old[1:]
	}
	return dst, nil
}
