// Package pgtest gives tests a fresh schema on the PostgreSQL server named
// by LAYERFIX_TEST_POSTGRES_URL (scripts/with-postgres.sh starts one).
package pgtest

import (
	"context"
	"crypto/rand"
	"database/sql"
	"encoding/hex"
	"os"
	"strings"
	"testing"

	_ "github.com/jackc/pgx/v5/stdlib" // database/sql driver "pgx"
)

// Env is the variable holding the server's URL.
const Env = "LAYERFIX_TEST_POSTGRES_URL"

// Available reports whether a test server is configured.
func Available() bool { return os.Getenv(Env) != "" }

// SchemaURL creates an empty schema, dropped when the test ends, and
// returns a URL whose connections use it. It skips the test without a
// server.
func SchemaURL(t testing.TB) string {
	t.Helper()
	base := os.Getenv(Env)
	if base == "" {
		t.Skip(Env + " not set (scripts/with-postgres.sh starts a server)")
	}
	b := make([]byte, 6)
	rand.Read(b)
	schema := "t_" + hex.EncodeToString(b)
	admin, err := sql.Open("pgx", base)
	if err != nil {
		t.Fatalf("connect postgres: %v", err)
	}
	if _, err := admin.ExecContext(context.Background(), "CREATE SCHEMA "+schema); err != nil {
		t.Fatalf("create schema: %v", err)
	}
	t.Cleanup(func() {
		admin.ExecContext(context.Background(), "DROP SCHEMA "+schema+" CASCADE")
		admin.Close()
	})
	sep := "?"
	if strings.Contains(base, "?") {
		sep = "&"
	}
	return base + sep + "search_path=" + schema
}
