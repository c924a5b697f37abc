// Package store holds all SQL of Layerfix: the schema, its migrations and
// every query, on SQLite (the default, one file under the data dir) or
// PostgreSQL (multi-instance deployments), through GORM.
package store

import (
	"context"
	"database/sql"
	"errors"
	"fmt"
	"log/slog"
	"path/filepath"
	"strings"
	"syscall"
	"time"

	"gorm.io/driver/postgres"
	"gorm.io/gorm"
	"gorm.io/gorm/logger"
)

// Dialects.
const (
	SQLite   = "sqlite"
	Postgres = "postgres"
)

// ErrNotFound is returned when a row does not exist (or is not the caller's).
var ErrNotFound = errors.New("not found")

// Options configure Open.
type Options struct {
	// DataDir holds the SQLite file when DatabaseURL is empty.
	DataDir string
	// DatabaseURL selects PostgreSQL when it starts with postgres:// or postgresql://.
	DatabaseURL string
	Logger      *slog.Logger
	// ReadConns is the size of the SQLite read pool (default 4).
	ReadConns int
}

// Store is the database. On SQLite it keeps one writer connection (every
// write transaction starts IMMEDIATE, so writers queue in Go instead of
// failing with "database is locked") and a separate read-only pool.
type Store struct {
	w, r     *gorm.DB
	dialect  string
	keyLocks chan struct{} // PostgreSQL: KeyLock's connections
	path     string        // the SQLite file
	gc       *groupCommitter
	log      *slog.Logger
	// Now is the clock; tests replace it.
	Now func() time.Time
}

// Open connects, applies pending migrations and returns the store.
func Open(ctx context.Context, opts Options) (*Store, error) {
	if opts.Logger == nil {
		opts.Logger = slog.Default()
	}
	cfg := &gorm.Config{Logger: logger.Discard, TranslateError: true, NowFunc: func() time.Time { return time.Now().UTC() }}
	s := &Store{log: opts.Logger, Now: func() time.Time { return time.Now().UTC() }}
	var err error
	if isPostgresURL(opts.DatabaseURL) {
		s.dialect = Postgres
		s.w, err = gorm.Open(postgres.Open(opts.DatabaseURL), cfg)
		if err != nil {
			return nil, fmt.Errorf("connect to postgres: %w", err)
		}
		s.r = s.w
		sqlDB, _ := s.w.DB()
		sqlDB.SetMaxOpenConns(20)
		sqlDB.SetMaxIdleConns(10)
		sqlDB.SetConnMaxLifetime(30 * time.Minute)
		s.keyLocks = make(chan struct{}, maxKeyLocks)
	} else {
		s.dialect = SQLite
		if err := prepareDataDir(opts.DataDir); err != nil {
			return nil, err
		}
		path := filepath.Join(opts.DataDir, backupSQLite)
		s.path = path
		// New files (the database, its WAL) are created 0600.
		old := syscall.Umask(0o077)
		defer syscall.Umask(old)
		s.w, err = gorm.Open(openSQLite(path, false), cfg)
		if err != nil {
			return nil, fmt.Errorf("open %s: %w", path, err)
		}
		wdb, _ := s.w.DB()
		wdb.SetMaxOpenConns(1)
		wdb.SetMaxIdleConns(1)
		wdb.SetConnMaxLifetime(0)
		// Create the file and switch it to WAL before readers connect.
		if err := wdb.PingContext(ctx); err != nil {
			return nil, fmt.Errorf("open %s: %w", path, err)
		}
		restrictDBFiles(path)
		s.r, err = gorm.Open(openSQLite(path, true), cfg)
		if err != nil {
			return nil, fmt.Errorf("open %s for reading: %w", path, err)
		}
		n := opts.ReadConns
		if n <= 0 {
			n = 4
		}
		rdb, _ := s.r.DB()
		rdb.SetMaxOpenConns(n)
		rdb.SetMaxIdleConns(n)
		rdb.SetConnMaxLifetime(0)
		s.gc = newGroupCommitter(s.w)
	}
	if err := s.migrate(ctx); err != nil {
		_ = s.Close() // the migration error is the one returned
		return nil, err
	}
	return s, nil
}

func isPostgresURL(u string) bool {
	return strings.HasPrefix(u, "postgres://") || strings.HasPrefix(u, "postgresql://")
}

// Dialect is SQLite or Postgres.
func (s *Store) Dialect() string { return s.dialect }

// Ping checks that the database answers. It asks a read connection, so a
// busy writer does not make health probes wait.
func (s *Store) Ping(ctx context.Context) error {
	db, err := s.r.DB()
	if err != nil {
		return err
	}
	return db.PingContext(ctx)
}

// DBs are the writer and reader pools (the same one on PostgreSQL), for
// pool metrics.
func (s *Store) DBs() (writer, reader *sql.DB) {
	writer, _ = s.w.DB()
	reader, _ = s.r.DB()
	return writer, reader
}

// Close closes every connection.
func (s *Store) Close() error {
	if s.gc != nil {
		s.gc.close()
		s.gc = nil
	}
	var errs []error
	for _, g := range []*gorm.DB{s.w, s.r} {
		if g == nil {
			continue
		}
		if db, err := g.DB(); err == nil {
			errs = append(errs, db.Close())
		}
		if s.r == s.w {
			break
		}
	}
	return errors.Join(errs...)
}

// Writer and Reader expose the GORM handles to this package's files.
func (s *Store) writer(ctx context.Context) *gorm.DB { return s.w.WithContext(ctx) }
func (s *Store) reader(ctx context.Context) *gorm.DB { return s.r.WithContext(ctx) }

// notFound maps gorm's not-found error to ErrNotFound.
func notFound(err error) error {
	if errors.Is(err, gorm.ErrRecordNotFound) {
		return ErrNotFound
	}
	return err
}
