//go:build !cgo || sqlite_purego

package store

import (
	"errors"

	"gorm.io/driver/sqlite"
	"gorm.io/gorm"
	msqlite "modernc.org/sqlite" // registers the "sqlite" database/sql driver
)

// SQLiteDriver names the SQLite implementation compiled in: the pure-Go
// translation of SQLite (modernc.org/sqlite) here, so a binary needs no C
// compiler to build and no C library to run (release binaries).
const SQLiteDriver = "purego"

// sqliteDriverName is its database/sql driver name.
const sqliteDriverName = "sqlite"

// sqliteBusyParam makes a plain connection wait for locks (backups).
const sqliteBusyParam = "_pragma=busy_timeout(10000)"

// openSQLite sets the same connection settings as the cgo build: busy
// timeout first, WAL, synchronous=FULL, foreign keys, a 16 MB page cache,
// and IMMEDIATE transactions for the writer.
func openSQLite(path string, readOnly bool) gorm.Dialector {
	q := "_pragma=busy_timeout(10000)&_pragma=journal_mode(WAL)&_pragma=synchronous(FULL)&_pragma=foreign_keys(1)&_pragma=cache_size(-16000)"
	if readOnly {
		q += "&_pragma=query_only(1)&_txlock=deferred"
	} else {
		q += "&_txlock=immediate"
	}
	return pureGoDialector{sqlite.New(sqlite.Config{DriverName: "sqlite", DSN: "file:" + path + "?" + q}).(*sqlite.Dialector)}
}

// pureGoDialector maps modernc's constraint errors to GORM's, as the cgo
// driver's dialector does for mattn's.
type pureGoDialector struct{ *sqlite.Dialector }

// SQLite extended result codes.
const (
	sqliteConstraintForeignKey = 787
	sqliteConstraintPrimaryKey = 1555
	sqliteConstraintUnique     = 2067
)

func (d pureGoDialector) Translate(err error) error {
	var e *msqlite.Error
	if !errors.As(err, &e) {
		return err
	}
	switch e.Code() {
	case sqliteConstraintUnique, sqliteConstraintPrimaryKey:
		return gorm.ErrDuplicatedKey
	case sqliteConstraintForeignKey:
		return gorm.ErrForeignKeyViolated
	}
	return err
}
