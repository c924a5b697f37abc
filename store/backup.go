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

	"github.com/jackc/pgx/v5"
)

// Backups: one .tar.gz holding backup.json first (what the archive holds
// and how big each part is, so a restore can bound what it unpacks before
// writing anything), then the database (a consistent SQLite copy made with
// VACUUM INTO while the server keeps writing, or a pg_dump custom archive
// for PostgreSQL), then every photo under photos/.

const (
	backupManifest = "backup.json"
	backupSQLite   = "layerfix.db"
	backupPgDump   = "layerfix.pgdump"
	photosDir      = "photos"
	lockFile       = "layerfix.lock"
	backupFormat   = 2
	// restoreReserve is kept free on the data dir's disk after a restore
	// has unpacked everything (the server must still be able to write).
	restoreReserve = 64 << 20
)

// BackupManifest describes a backup archive. The sizes are exact: a restore
// refuses an archive whose entries do not match them.
type BackupManifest struct {
	Format        int       `json:"format"`
	Dialect       string    `json:"dialect"`
	Schema        int       `json:"schemaVersion"`
	CreatedAt     time.Time `json:"createdAt"`
	DatabaseBytes int64     `json:"databaseBytes"`
	Photos        int       `json:"photos"`
	PhotoBytes    int64     `json:"photoBytes"`
	LargestPhoto  int64     `json:"largestPhotoBytes"`
	Version       string    `json:"layerfixVersion"`
}

// BackupOptions say what to back up.
type BackupOptions struct {
	DataDir     string // the SQLite file and photos/
	DatabaseURL string // PostgreSQL when set
	Version     string // the binary's version, recorded in the manifest
}

type backupPhoto struct {
	name string // photos/<dir>/<file>
	src  string // the file to copy: a hard link in the snapshot dir when one could be made
	size int64
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
	m := &BackupManifest{Format: backupFormat, CreatedAt: time.Now().UTC(), Version: opts.Version}
	var dbFile, dbName string
	if isPostgresURL(opts.DatabaseURL) {
		m.Dialect, dbName, dbFile = Postgres, backupPgDump, filepath.Join(tmp, backupPgDump)
		if m.Schema, err = pgDump(ctx, opts.DatabaseURL, dbFile); err != nil {
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
	st, err := os.Stat(dbFile)
	if err != nil {
		return nil, fmt.Errorf("backup: %w", err)
	}
	m.DatabaseBytes = st.Size()
	photos, err := listPhotos(opts.DataDir, filepath.Join(tmp, "links"))
	if err != nil {
		return nil, fmt.Errorf("backup photos: %w", err)
	}
	for _, p := range photos {
		m.Photos++
		m.PhotoBytes += p.size
		m.LargestPhoto = max(m.LargestPhoto, p.size)
	}

	gz := gzip.NewWriter(w)
	tw := tar.NewWriter(gz)
	mb, _ := json.MarshalIndent(m, "", "  ")
	if err := tw.WriteHeader(&tar.Header{Name: backupManifest, Mode: 0o600, Size: int64(len(mb)), ModTime: m.CreatedAt, Typeflag: tar.TypeReg}); err != nil {
		return nil, err
	}
	if _, err := tw.Write(mb); err != nil {
		return nil, err
	}
	if err := addFile(tw, dbFile, dbName, m.DatabaseBytes); err != nil {
		return nil, err
	}
	for _, p := range photos {
		if err := addFile(tw, p.src, p.name, p.size); err != nil {
			if errors.Is(err, fs.ErrNotExist) {
				return nil, fmt.Errorf("backup: %s was deleted while the backup ran: run the backup again", p.name)
			}
			return nil, fmt.Errorf("backup photos: %w", err)
		}
	}
	if err := tw.Close(); err != nil {
		return nil, err
	}
	if err := gz.Close(); err != nil {
		return nil, err
	}
	return m, nil
}

// listPhotos lists the photo files under dataDir/photos. Each is hard-linked
// into linkDir, so a photo deleted while the archive is written is still
// there to copy and the manifest's count and sizes stay exact; where links
// cannot be made (another file system), the photo is read in place.
func listPhotos(dataDir, linkDir string) ([]backupPhoto, error) {
	var out []backupPhoto
	link := true
	photos := filepath.Join(dataDir, photosDir)
	err := filepath.WalkDir(photos, func(p string, d fs.DirEntry, err error) error {
		if err != nil {
			if errors.Is(err, fs.ErrNotExist) && p == photos {
				return fs.SkipDir
			}
			return err
		}
		if !d.Type().IsRegular() || strings.HasPrefix(d.Name(), ".") {
			return nil // directories, and half-written temporary files
		}
		rel, err := filepath.Rel(dataDir, p)
		if err != nil {
			return err
		}
		src := p
		if link {
			dst := filepath.Join(linkDir, rel)
			err := os.MkdirAll(filepath.Dir(dst), 0o700)
			if err == nil {
				err = os.Link(p, dst) //nolint:gosec // the server's own data dir, writable by this user only
			}
			switch {
			case err == nil:
				src = dst
			case errors.Is(err, fs.ErrNotExist):
				return nil // deleted since it was listed, together with its row
			default:
				link = false
			}
		}
		st, err := os.Stat(src)
		if errors.Is(err, fs.ErrNotExist) {
			return nil
		}
		if err != nil {
			return err
		}
		out = append(out, backupPhoto{name: filepath.ToSlash(rel), src: src, size: st.Size()})
		return nil
	})
	return out, err
}

// backupTempDir keeps the snapshot on the data dir's disk when it exists
// (no copy across file systems, and /tmp may be small on a Pi).
func backupTempDir(dataDir string) string {
	if st, err := os.Stat(dataDir); err == nil && st.IsDir() {
		if f, err := os.CreateTemp(dataDir, ".write-test-*"); err == nil {
			_ = f.Close() // an empty probe file, removed at once
			os.Remove(f.Name())
			return dataDir
		}
	}
	return os.TempDir()
}

// addFile adds src as name; its size must still be the one listed.
func addFile(tw *tar.Writer, src, name string, size int64) error {
	f, err := os.Open(src)
	if err != nil {
		return err
	}
	defer f.Close() //nolint:errcheck // opened for reading
	st, err := f.Stat()
	if err != nil {
		return err
	}
	if err := tw.WriteHeader(&tar.Header{Name: name, Mode: 0o600, Size: size, ModTime: st.ModTime(), Typeflag: tar.TypeReg}); err != nil {
		return err
	}
	if _, err := io.CopyN(tw, f, size); err != nil {
		return fmt.Errorf("%s: %w", name, err)
	}
	return nil
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

// pgDump dumps the schema Layerfix uses (the connection's current schema)
// and returns its migration version.
func pgDump(ctx context.Context, url, out string) (int, error) {
	bin, err := pgTool("pg_dump")
	if err != nil {
		return 0, err
	}
	db, err := sql.Open("pgx", url)
	if err != nil {
		return 0, fmt.Errorf("backup: connect to postgres: %w", err)
	}
	defer db.Close()
	var schema string
	var version int
	if err := db.QueryRowContext(ctx, "SELECT current_schema()").Scan(&schema); err != nil {
		return 0, fmt.Errorf("backup: connect to postgres: %w", err)
	}
	if err := db.QueryRowContext(ctx, "SELECT COALESCE(MAX(version), 0) FROM schema_migrations").Scan(&version); err != nil {
		return 0, fmt.Errorf("backup: no Layerfix schema in schema %q of LAYERFIX_DATABASE_URL: %w", schema, err)
	}
	cmd := exec.CommandContext(ctx, bin, "--format=custom", "--no-owner", "--no-privileges",
		"--schema="+pgx.Identifier{schema}.Sanitize(), "--file="+out, "--dbname="+url)
	if b, err := cmd.CombinedOutput(); err != nil {
		return 0, fmt.Errorf("pg_dump: %v: %s", err, strings.TrimSpace(string(b)))
	}
	return version, nil
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
// server holds the data dir's lock. Nothing goes live before the archive
// matches its manifest and its database has Layerfix's own schema at the
// manifest's version.
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
		if err := checkSQLiteSchema(ctx, db, m.Schema, filepath.Join(stage, ".reference.db")); err != nil {
			return nil, err
		}
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
		if err := pgRestore(ctx, opts.DatabaseURL, filepath.Join(stage, backupPgDump), m.Schema, opts.Force); err != nil {
			return nil, err
		}
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

// readManifest reads and checks backup.json, the archive's first entry.
func readManifest(tr *tar.Reader) (*BackupManifest, error) {
	h, err := tr.Next()
	if err != nil {
		return nil, fmt.Errorf("restore: not a Layerfix backup (damaged archive): %w", err)
	}
	if path.Clean(h.Name) != backupManifest || h.Typeflag != tar.TypeReg || h.Size > 64<<10 {
		return nil, fmt.Errorf("restore: not a Layerfix backup of this version: the archive starts with %q, not backup.json (make a new backup with this layerfix)", h.Name)
	}
	m := &BackupManifest{}
	if err := json.NewDecoder(tr).Decode(m); err != nil {
		return nil, fmt.Errorf("restore: backup.json: %w", err)
	}
	switch {
	case m.Format != backupFormat:
		return nil, fmt.Errorf("restore: backup.json has format %d; this layerfix reads format %d (make a new backup with this layerfix)", m.Format, backupFormat)
	case m.Dialect != SQLite && m.Dialect != Postgres:
		return nil, fmt.Errorf("restore: unknown database %q in the backup", m.Dialect)
	case m.Schema < 1 || m.Schema > SchemaVersion():
		return nil, fmt.Errorf("restore: the backup has database schema %d; this layerfix knows schemas 1 to %d (restore it with a newer layerfix)", m.Schema, SchemaVersion())
	case m.DatabaseBytes <= 0 || m.Photos < 0 || m.PhotoBytes < 0 || m.LargestPhoto < 0 || m.LargestPhoto > m.PhotoBytes ||
		m.DatabaseBytes > 1<<50 || m.PhotoBytes > 1<<50:
		return nil, errors.New("restore: backup.json's sizes are not those of a backup")
	}
	return m, nil
}

// unpack extracts a backup into dir, accepting only the files a backup
// holds (no links, no paths outside dir) at the sizes its manifest lists,
// and only when they fit on the disk (dir is a staging dir inside the data
// dir). No entry is written beyond what the manifest allows.
func unpack(r io.Reader, dir string) (*BackupManifest, error) {
	gz, err := gzip.NewReader(r)
	if err != nil {
		return nil, fmt.Errorf("restore: not a Layerfix backup (gzip): %w", err)
	}
	tr := tar.NewReader(gz)
	m, err := readManifest(tr)
	if err != nil {
		return nil, err
	}
	need := m.DatabaseBytes + m.PhotoBytes
	free, _, err := diskSpace(dir)
	if err != nil {
		return nil, fmt.Errorf("restore: free space in %s: %w", dir, err)
	}
	if uint64(need)+restoreReserve > free {
		return nil, fmt.Errorf("restore: the backup unpacks to %s but the disk of %s has %s free (%s must stay free): free some space first",
			byteSize(uint64(need)), filepath.Dir(dir), byteSize(free), byteSize(restoreReserve))
	}
	dbName := backupSQLite
	if m.Dialect == Postgres {
		dbName = backupPgDump
	}
	var (
		haveDB     bool
		photos     int
		photoBytes int64
	)
	for {
		h, err := tr.Next()
		if errors.Is(err, io.EOF) {
			break
		}
		if err != nil {
			return nil, fmt.Errorf("restore: damaged archive: %w", err)
		}
		name := path.Clean(h.Name)
		isPhoto := strings.HasPrefix(name, photosDir+"/") && strings.Count(name, "/") == 2 && !strings.Contains(name, "..")
		if (name != dbName && !isPhoto) || h.Typeflag != tar.TypeReg {
			return nil, fmt.Errorf("restore: unexpected entry %q in the archive", h.Name)
		}
		if name == dbName {
			if haveDB || h.Size != m.DatabaseBytes {
				return nil, fmt.Errorf("restore: %s is %d bytes but backup.json says %d", name, h.Size, m.DatabaseBytes)
			}
			haveDB = true
		} else {
			photos++
			photoBytes += h.Size
			switch {
			case photos > m.Photos:
				return nil, fmt.Errorf("restore: the archive holds more photos than the %d backup.json lists", m.Photos)
			case h.Size > m.LargestPhoto:
				return nil, fmt.Errorf("restore: %s is %d bytes, larger than the largest photo backup.json lists (%d bytes)", name, h.Size, m.LargestPhoto)
			case photoBytes > m.PhotoBytes:
				return nil, fmt.Errorf("restore: the archive's photos exceed the %d bytes backup.json lists", m.PhotoBytes)
			}
		}
		if err := writeEntry(tr, filepath.Join(dir, filepath.FromSlash(name)), h.Size); err != nil {
			return nil, fmt.Errorf("restore: %s: %w", name, err)
		}
	}
	if !haveDB {
		return nil, fmt.Errorf("restore: the archive holds no %s", dbName)
	}
	if photos != m.Photos || photoBytes != m.PhotoBytes {
		return nil, fmt.Errorf("restore: the archive holds %d photos (%d bytes) but backup.json lists %d (%d bytes): the backup is incomplete", photos, photoBytes, m.Photos, m.PhotoBytes)
	}
	return m, nil
}

// writeEntry writes exactly size bytes of the current entry to a new file.
func writeEntry(tr io.Reader, dst string, size int64) error {
	if err := os.MkdirAll(filepath.Dir(dst), 0o700); err != nil {
		return err
	}
	f, err := os.OpenFile(dst, os.O_CREATE|os.O_EXCL|os.O_WRONLY, 0o600)
	if err != nil {
		return err
	}
	n, err := io.Copy(f, io.LimitReader(tr, size))
	if cerr := f.Close(); err == nil {
		err = cerr
	}
	if err == nil && n != size {
		err = io.ErrUnexpectedEOF
	}
	return err
}

func byteSize(n uint64) string {
	if n >= 10e9 {
		return fmt.Sprintf("%.0f GB", float64(n)/1e9)
	}
	return fmt.Sprintf("%.1f MB", float64(n)/1e6)
}

// LockDataDir takes the data dir's lock: a server holds it while it runs,
// so a restore (or a second server) on the same data dir is refused.
// A data dir that cannot hold the lock file is left to Open, whose
// message says what is wrong with it.
func LockDataDir(dir string) (unlock func(), err error) {
	_ = os.MkdirAll(dir, 0o700) // a failure shows in OpenFile below
	f, err := os.OpenFile(filepath.Join(dir, lockFile), os.O_CREATE|os.O_RDWR, 0o600)
	if err != nil {
		return func() {}, nil
	}
	if err := syscall.Flock(int(f.Fd()), syscall.LOCK_EX|syscall.LOCK_NB); err != nil {
		_ = f.Close() // the lock file stays; only the lock matters
		return nil, fmt.Errorf("another layerfix process is using the data directory %s: stop it first", dir)
	}
	// Unlocking at exit: closing the file releases the lock even if LOCK_UN failed.
	return func() { _ = syscall.Flock(int(f.Fd()), syscall.LOCK_UN); _ = f.Close() }, nil
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
