package store

import (
	"context"
	"embed"
	"fmt"
	"io/fs"
	"path"
	"sort"
	"strconv"
	"strings"

	"gorm.io/gorm"
)

//go:embed migrations
var migrationFS embed.FS

type migration struct {
	version int
	name    string
	sql     string
}

func loadMigrations(dialect string) ([]migration, error) {
	dir := path.Join("migrations", dialect)
	entries, err := fs.ReadDir(migrationFS, dir)
	if err != nil {
		return nil, err
	}
	var out []migration
	for _, e := range entries {
		name := e.Name()
		if !strings.HasSuffix(name, ".sql") {
			continue
		}
		num, _, ok := strings.Cut(name, "_")
		v, err := strconv.Atoi(num)
		if !ok || err != nil {
			return nil, fmt.Errorf("migration %s: name must start with a number and '_'", name)
		}
		b, err := migrationFS.ReadFile(path.Join(dir, name))
		if err != nil {
			return nil, err
		}
		out = append(out, migration{version: v, name: name, sql: string(b)})
	}
	sort.Slice(out, func(i, j int) bool { return out[i].version < out[j].version })
	for i := 1; i < len(out); i++ {
		if out[i].version == out[i-1].version {
			return nil, fmt.Errorf("migrations %s and %s share a number", out[i-1].name, out[i].name)
		}
	}
	return out, nil
}

// SchemaVersion is the newest migration this binary knows.
func SchemaVersion() int {
	ms, _ := loadMigrations(SQLite)
	if len(ms) == 0 {
		return 0
	}
	return ms[len(ms)-1].version
}

func (s *Store) migrate(ctx context.Context) error {
	ms, err := loadMigrations(s.dialect)
	if err != nil {
		return fmt.Errorf("load migrations: %w", err)
	}
	if s.dialect == SQLite && len(ms) > 0 {
		if err := s.backupBeforeMigrating(ctx, ms[len(ms)-1].version); err != nil {
			return err
		}
	}
	return s.writer(ctx).Transaction(func(tx *gorm.DB) error {
		if s.dialect == Postgres {
			// Several instances may start at once: one migrates, the others wait.
			if err := tx.Exec("SELECT pg_advisory_xact_lock(4711001)").Error; err != nil {
				return fmt.Errorf("lock migrations: %w", err)
			}
		}
		exec := func(q string, args ...any) error { return tx.Exec(q, args...).Error }
		if err := exec(createSchemaMigrations); err != nil {
			return fmt.Errorf("create schema_migrations: %w", err)
		}
		var current int
		if err := tx.Raw("SELECT COALESCE(MAX(version), 0) FROM schema_migrations").Scan(&current).Error; err != nil {
			return fmt.Errorf("read schema version: %w", err)
		}
		latest := 0
		if len(ms) > 0 {
			latest = ms[len(ms)-1].version
		}
		if current > latest {
			return fmt.Errorf("the database schema is version %d but this layerfix binary knows only up to version %d: run a newer layerfix (or restore a backup made by this version)", current, latest)
		}
		for _, m := range ms {
			if m.version <= current {
				continue
			}
			if err := applyMigration(exec, m); err != nil {
				return err
			}
			s.log.Info("applied migration", "name", m.name, "dialect", s.dialect)
		}
		return nil
	})
}

const createSchemaMigrations = `CREATE TABLE IF NOT EXISTS schema_migrations (version INTEGER PRIMARY KEY, name TEXT NOT NULL, applied_at TIMESTAMP NOT NULL DEFAULT CURRENT_TIMESTAMP)`

// applyMigration runs one migration's statements and records it.
func applyMigration(exec func(q string, args ...any) error, m migration) error {
	for _, stmt := range splitStatements(m.sql) {
		if err := exec(stmt); err != nil {
			return fmt.Errorf("migration %s: %w", m.name, err)
		}
	}
	if err := exec("INSERT INTO schema_migrations (version, name) VALUES (?, ?)", m.version, m.name); err != nil {
		return fmt.Errorf("record migration %s: %w", m.name, err)
	}
	return nil
}

// backupBeforeMigrating copies an existing SQLite database that is about to
// be migrated into DataDir/backups, so an upgrade can be undone.
func (s *Store) backupBeforeMigrating(ctx context.Context, latest int) error {
	var current int
	// No schema_migrations table yet: a new database, nothing to keep.
	if err := s.writer(ctx).Raw("SELECT COALESCE(MAX(version), 0) FROM schema_migrations").Scan(&current).Error; err != nil || current == 0 || current >= latest {
		return nil
	}
	dst, err := preMigrationBackup(ctx, s.path, current, latest)
	if err != nil {
		return fmt.Errorf("back up the database before migrating it from schema %d to %d: %w", current, latest, err)
	}
	s.log.Info("backed up the database before migrating", "from", current, "to", latest, "backup", dst)
	return nil
}

// splitStatements splits a migration file on semicolons at line ends and
// drops comment lines. Migrations hold no procedural code.
func splitStatements(sql string) []string {
	var out []string
	var cur strings.Builder
	for _, line := range strings.Split(sql, "\n") {
		t := strings.TrimSpace(line)
		if t == "" || strings.HasPrefix(t, "--") {
			continue
		}
		cur.WriteString(line)
		cur.WriteByte('\n')
		if strings.HasSuffix(t, ";") {
			out = append(out, strings.TrimSpace(cur.String()))
			cur.Reset()
		}
	}
	if rest := strings.TrimSpace(cur.String()); rest != "" {
		out = append(out, rest)
	}
	return out
}
