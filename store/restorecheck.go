package store

import (
	"context"
	"database/sql"
	"fmt"
	"slices"
	"strings"
)

// A restored database must be Layerfix's own: the tables, indexes, triggers
// and views of a fresh database migrated to the same schema version, and
// nothing else (a trigger or view from elsewhere would run inside the
// server), with exactly the migrations its backup.json names.

// schemaObject is one row of sqlite_master.
type schemaObject struct {
	kind, name, table, sql string
}

func (o schemaObject) String() string {
	if (o.kind == "trigger" || o.kind == "index") && o.table != "" {
		return fmt.Sprintf("%s %q on %s", o.kind, o.name, o.table)
	}
	return fmt.Sprintf("%s %q", o.kind, o.name)
}

// maxSchemaObjects bounds what is read of a schema from elsewhere; Layerfix's
// own has a few dozen objects.
const maxSchemaObjects = 10000

// sqliteStatTables are written by ANALYZE: planner statistics, no code.
var sqliteStatTables = map[string]bool{"sqlite_stat1": true, "sqlite_stat4": true}

// checkSQLiteSchema compares the database at dbPath with a reference built
// at refPath from this binary's migrations up to version.
func checkSQLiteSchema(ctx context.Context, dbPath string, version int, refPath string) error {
	if err := buildSQLiteReference(ctx, refPath, version); err != nil {
		return fmt.Errorf("restore: build the reference schema: %w", err)
	}
	want, err := readSQLiteSchema(ctx, refPath)
	if err != nil {
		return err
	}
	db, err := openCheckedSQLite(ctx, dbPath)
	if err != nil {
		return err
	}
	defer db.Close()
	got, err := sqliteSchema(ctx, db)
	if err != nil {
		return fmt.Errorf("restore: read the backup's schema: %w", err)
	}
	if o, ok := got["table schema_migrations"]; !ok || o.kind != "table" {
		return fmt.Errorf("restore: the backup's database is not a Layerfix database (it has no schema_migrations table); nothing was restored")
	}
	var problems []string
	for _, k := range sortedKeys(got) {
		o := got[k]
		w, ok := want[k]
		switch {
		case !ok && o.kind == "table" && sqliteStatTables[o.name]:
		case !ok:
			problems = append(problems, "an extra "+o.String())
		case normalizeSQL(o.sql) != normalizeSQL(w.sql) || o.table != w.table:
			problems = append(problems, o.String()+" is defined differently")
		}
	}
	for _, k := range sortedKeys(want) {
		if _, ok := got[k]; !ok {
			problems = append(problems, "no "+want[k].String())
		}
	}
	if len(problems) > 0 {
		if len(problems) > 8 {
			problems = append(problems[:8], fmt.Sprintf("and %d more", len(problems)-8))
		}
		return fmt.Errorf("restore: the backup's database does not have Layerfix's schema %d: %s; nothing was restored", version, strings.Join(problems, "; "))
	}
	return checkMigrationRows(ctx, db, version)
}

// checkMigrationRows requires schema_migrations to list exactly this
// binary's migrations up to version.
func checkMigrationRows(ctx context.Context, db *sql.DB, version int) error {
	rows, err := db.QueryContext(ctx, "SELECT version FROM schema_migrations ORDER BY version")
	if err != nil {
		return fmt.Errorf("restore: read the backup's migrations: %w", err)
	}
	defer rows.Close()
	var got []int
	for rows.Next() {
		var v int
		if err := rows.Scan(&v); err != nil {
			return fmt.Errorf("restore: read the backup's migrations: %w", err)
		}
		if got = append(got, v); len(got) > maxSchemaObjects {
			break
		}
	}
	if err := rows.Err(); err != nil {
		return fmt.Errorf("restore: read the backup's migrations: %w", err)
	}
	return compareMigrations(got, version)
}

// compareMigrations checks applied migration versions against this binary's
// migrations up to version.
func compareMigrations(got []int, version int) error {
	ms, err := migrationsUpTo(SQLite, version)
	if err != nil {
		return err
	}
	var want []int
	for _, m := range ms {
		want = append(want, m.version)
	}
	if !slices.Equal(got, want) {
		return fmt.Errorf("restore: the backup's database records migrations %s but its backup.json says schema %d (migrations %s); nothing was restored", versionList(got), version, versionList(want))
	}
	return nil
}

func versionList(vs []int) string {
	if len(vs) == 0 {
		return "none"
	}
	if len(vs) > 20 {
		return fmt.Sprintf("%v … (%d)", vs[:20], len(vs))
	}
	return fmt.Sprint(vs)
}

// migrationsUpTo returns this binary's migrations for dialect up to version.
func migrationsUpTo(dialect string, version int) ([]migration, error) {
	ms, err := loadMigrations(dialect)
	if err != nil {
		return nil, fmt.Errorf("load migrations: %w", err)
	}
	n := 0
	for n < len(ms) && ms[n].version <= version {
		n++
	}
	return ms[:n], nil
}

// buildSQLiteReference creates a new database at p migrated to version.
func buildSQLiteReference(ctx context.Context, p string, version int) error {
	ms, err := migrationsUpTo(SQLite, version)
	if err != nil {
		return err
	}
	db, err := openRawSQLite(p)
	if err != nil {
		return err
	}
	defer db.Close()
	tx, err := db.BeginTx(ctx, nil)
	if err != nil {
		return err
	}
	defer tx.Rollback()
	exec := func(q string, args ...any) error { _, err := tx.ExecContext(ctx, q, args...); return err }
	if err := exec(createSchemaMigrations); err != nil {
		return err
	}
	for _, m := range ms {
		if err := applyMigration(exec, m); err != nil {
			return err
		}
	}
	return tx.Commit()
}

// openCheckedSQLite opens a database from elsewhere for reading only, with
// its schema untrusted (no function with side effects runs from it).
func openCheckedSQLite(ctx context.Context, p string) (*sql.DB, error) {
	db, err := openRawSQLite(p)
	if err != nil {
		return nil, err
	}
	for _, pragma := range []string{"PRAGMA trusted_schema = OFF", "PRAGMA query_only = ON"} {
		if _, err := db.ExecContext(ctx, pragma); err != nil {
			db.Close()
			return nil, fmt.Errorf("restore: open the backup's database: %w", err)
		}
	}
	return db, nil
}

func readSQLiteSchema(ctx context.Context, p string) (map[string]schemaObject, error) {
	db, err := openCheckedSQLite(ctx, p)
	if err != nil {
		return nil, err
	}
	defer db.Close()
	return sqliteSchema(ctx, db)
}

// sqliteSchema lists sqlite_master by "kind name".
func sqliteSchema(ctx context.Context, db *sql.DB) (map[string]schemaObject, error) {
	rows, err := db.QueryContext(ctx, "SELECT type, name, COALESCE(tbl_name, ''), COALESCE(sql, '') FROM sqlite_master")
	if err != nil {
		return nil, err
	}
	defer rows.Close()
	out := map[string]schemaObject{}
	for rows.Next() {
		var o schemaObject
		if err := rows.Scan(&o.kind, &o.name, &o.table, &o.sql); err != nil {
			return nil, err
		}
		out[o.kind+" "+o.name] = o
		if len(out) > maxSchemaObjects {
			return nil, fmt.Errorf("more than %d tables, indexes, triggers and views", maxSchemaObjects)
		}
	}
	return out, rows.Err()
}

func normalizeSQL(s string) string { return strings.Join(strings.Fields(s), " ") }

func sortedKeys(m map[string]schemaObject) []string {
	keys := make([]string, 0, len(m))
	for k := range m {
		keys = append(keys, k)
	}
	slices.Sort(keys)
	return keys
}
