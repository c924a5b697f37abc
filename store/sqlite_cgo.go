//go:build cgo && !sqlite_purego

package store

import (
	"gorm.io/driver/sqlite"
	"gorm.io/gorm"
)

// SQLiteDriver names the SQLite implementation compiled in: the C library
// through cgo (mattn/go-sqlite3) here; the pure-Go translation (modernc)
// in builds without cgo or with the sqlite_purego tag (release binaries).
const SQLiteDriver = "cgo"

// sqliteDriverName is its database/sql driver name.
const sqliteDriverName = "sqlite3"

// sqliteBusyParam makes a plain connection wait for locks (backups).
const sqliteBusyParam = "_busy_timeout=10000"

// openSQLite sets busy_timeout first (mattn/go-sqlite3 applies it right
// after opening), then WAL, synchronous and foreign keys. synchronous=FULL:
// quota and payment rows must survive a power cut on a Pi with a cheap SD
// card; the cost is one extra fsync per commit, measured in docs/performance.md.
func openSQLite(path string, readOnly bool) gorm.Dialector {
	q := "_busy_timeout=10000&_journal_mode=WAL&_synchronous=FULL&_foreign_keys=on&_cache_size=-16000"
	if readOnly {
		q += "&_query_only=1&_txlock=deferred"
	} else {
		q += "&_txlock=immediate"
	}
	return sqlite.Open("file:" + path + "?" + q)
}
