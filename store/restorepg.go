package store

import (
	"bufio"
	"context"
	"errors"
	"fmt"
	"io"
	"os"
	"os/exec"
	"regexp"
	"slices"
	"strconv"
	"strings"

	"github.com/jackc/pgx/v5"
)

// A PostgreSQL backup is restored as data only. The schema comes from this
// binary's migrations up to the backup's version; of the dump, only table
// rows (COPY data) for Layerfix's tables and columns and the positions of
// its sequences are loaded, all in one transaction. No SQL from the dump
// runs: its list of contents is checked first, and a trigger, view,
// function or any other object Layerfix does not make is refused by name.

// pgReference is Layerfix's schema as migrated into the target.
type pgReference struct {
	schema    string
	columns   map[string]map[string]bool // table -> columns
	sequences map[string]bool
	order     []string // tables, each after the tables its foreign keys name
}

// pgTOCEntry is one line of pg_restore --list.
type pgTOCEntry struct {
	line, desc, tag string
}

// pgAllowedDesc are the kinds of entries a dump of Layerfix's schema holds;
// only TABLE DATA and SEQUENCE SET are loaded.
var pgAllowedDesc = []string{"TABLE DATA", "TABLE", "SEQUENCE OWNED BY", "SEQUENCE SET", "SEQUENCE",
	"FK CONSTRAINT", "CONSTRAINT", "INDEX", "DEFAULT", "SCHEMA", "COMMENT"}

var (
	pgTOCLine  = regexp.MustCompile(`^\d+; \d+ \d+ (.*)$`)
	pgCopyLine = regexp.MustCompile(`^COPY ("(?:[^"]|"")+"|[a-z_][a-z0-9_$]*)\.("(?:[^"]|"")+"|[a-z_][a-z0-9_$]*) \((.*)\) FROM stdin;$`)
	pgSetval   = regexp.MustCompile(`^SELECT pg_catalog\.setval\('((?:[^']|'')+)', (\d+), (true|false)\);$`)
	pgCreate   = regexp.MustCompile(`(?i)CREATE TABLE (?:IF NOT EXISTS )?([a-z_][a-z0-9_]*)`)
)

func pgRestore(ctx context.Context, url, dump string, version int, force bool) error {
	bin, err := pgTool("pg_restore")
	if err != nil {
		return err
	}
	out, err := exec.CommandContext(ctx, bin, "--list", dump).Output()
	if err != nil {
		return fmt.Errorf("restore: pg_restore --list: %v", err)
	}
	toc, err := parsePgTOC(string(out))
	if err != nil {
		return err
	}
	conn, err := pgx.Connect(ctx, url)
	if err != nil {
		return fmt.Errorf("restore: connect to postgres: %w", err)
	}
	defer conn.Close(context.Background()) //nolint:errcheck // the restore's outcome is the commit's
	tx, err := conn.Begin(ctx)
	if err != nil {
		return fmt.Errorf("restore: %w", err)
	}
	defer tx.Rollback(context.Background()) //nolint:errcheck // a no-op after Commit
	var schema string
	var exists bool
	if err := tx.QueryRow(ctx, "SELECT current_schema(), EXISTS (SELECT 1 FROM information_schema.tables WHERE table_schema = current_schema() AND table_name = 'schema_migrations')").Scan(&schema, &exists); err != nil {
		return fmt.Errorf("restore: %w", err)
	}
	if exists && !force {
		return errors.New("restore: the PostgreSQL database already holds Layerfix tables; use --force to replace them")
	}
	if exists {
		if err := dropPgTables(ctx, tx); err != nil {
			return err
		}
	}
	ref, err := migratePgReference(ctx, tx, schema, version)
	if err != nil {
		return err
	}
	load, err := checkPgTOC(toc, ref, version)
	if err != nil {
		return err
	}
	list := dump + ".list"
	if err := os.WriteFile(list, []byte(strings.Join(load, "\n")+"\n"), 0o600); err != nil {
		return err
	}
	ctx, cancel := context.WithCancel(ctx)
	defer cancel()
	cmd := exec.CommandContext(ctx, bin, "--data-only", "--use-list="+list, "--file=-", dump)
	var stderr strings.Builder
	cmd.Stderr = &limitedWriter{w: &stderr, n: 4 << 10}
	stdout, err := cmd.StdoutPipe()
	if err != nil {
		return err
	}
	if err := cmd.Start(); err != nil {
		return fmt.Errorf("restore: pg_restore: %w", err)
	}
	versions, lerr := loadPgData(ctx, tx, bufio.NewReaderSize(stdout, 64<<10), ref)
	if lerr != nil {
		cancel()
	}
	werr := cmd.Wait()
	if lerr != nil {
		return lerr
	}
	if werr != nil {
		return fmt.Errorf("restore: pg_restore: %v: %s", werr, strings.TrimSpace(stderr.String()))
	}
	if err := compareMigrations(versions, version); err != nil {
		return err
	}
	if err := tx.Commit(ctx); err != nil {
		return fmt.Errorf("restore: commit: %w", err)
	}
	return nil
}

// parsePgTOC reads pg_restore --list.
func parsePgTOC(list string) ([]pgTOCEntry, error) {
	var out []pgTOCEntry
	for _, line := range strings.Split(list, "\n") {
		if line == "" || strings.HasPrefix(line, ";") {
			continue
		}
		m := pgTOCLine.FindStringSubmatch(line)
		if m == nil {
			return nil, fmt.Errorf("restore: unreadable entry in the PostgreSQL backup: %.80q", line)
		}
		e := pgTOCEntry{line: line, desc: m[1]}
		for _, d := range pgAllowedDesc {
			if rest, ok := strings.CutPrefix(m[1], d+" "); ok {
				// rest is "<schema> <tag> <owner>".
				e.desc = d
				if f := strings.Fields(rest); len(f) >= 3 {
					e.tag = strings.Join(f[1:len(f)-1], " ")
				}
				break
			}
		}
		out = append(out, e)
	}
	return out, nil
}

// checkPgTOC refuses a dump with objects Layerfix's schema does not have,
// or without its tables, and returns the entries to load in load order.
func checkPgTOC(toc []pgTOCEntry, ref *pgReference, version int) ([]string, error) {
	var problems []string
	data := map[string]string{}
	var first, seqs []string // schema_migrations' rows first: they say which version the rows are
	seen := map[string]bool{}
	for _, e := range toc {
		switch e.desc {
		case "TABLE", "TABLE DATA":
			if ref.columns[e.tag] == nil {
				if e.desc == "TABLE" {
					problems = append(problems, fmt.Sprintf("an extra table %q", e.tag))
				}
				continue
			}
			seen[e.tag] = true
			switch {
			case e.desc == "TABLE DATA" && e.tag == "schema_migrations":
				first = append(first, e.line)
			case e.desc == "TABLE DATA":
				data[e.tag] = e.line
			}
		case "SEQUENCE":
			if !ref.sequences[e.tag] {
				problems = append(problems, fmt.Sprintf("an extra sequence %q", e.tag))
			}
		case "SEQUENCE SET":
			if ref.sequences[e.tag] {
				seqs = append(seqs, e.line)
			}
		default:
			if !slices.Contains(pgAllowedDesc, e.desc) {
				f := strings.Fields(e.desc) // kind, schema, name, owner
				problems = append(problems, "an extra "+strings.Join(f[:max(len(f)-1, 1)], " "))
			}
		}
	}
	for _, t := range ref.order {
		if !seen[t] {
			problems = append(problems, fmt.Sprintf("no table %q", t))
		}
	}
	if len(problems) > 0 {
		if len(problems) > 8 {
			problems = append(problems[:8], fmt.Sprintf("and %d more", len(problems)-8))
		}
		return nil, fmt.Errorf("restore: the PostgreSQL backup does not have Layerfix's schema %d: %s; nothing was restored", version, strings.Join(problems, "; "))
	}
	load := first
	for _, t := range ref.order {
		if l, ok := data[t]; ok {
			load = append(load, l)
		}
	}
	return append(load, seqs...), nil
}

// dropPgTables drops the tables Layerfix's migrations create (--force).
func dropPgTables(ctx context.Context, tx pgx.Tx) error {
	ms, err := loadMigrations(Postgres)
	if err != nil {
		return err
	}
	names := []string{"schema_migrations"}
	for _, m := range ms {
		for _, c := range pgCreate.FindAllStringSubmatch(m.sql, -1) {
			names = append(names, strings.ToLower(c[1]))
		}
	}
	for _, n := range names {
		if _, err := tx.Exec(ctx, "DROP TABLE IF EXISTS "+pgx.Identifier{n}.Sanitize()+" CASCADE"); err != nil {
			return fmt.Errorf("restore: drop %s: %w", n, err)
		}
	}
	return nil
}

// migratePgReference applies this binary's migrations up to version in the
// target's current schema and returns what they made there.
func migratePgReference(ctx context.Context, tx pgx.Tx, schema string, version int) (*pgReference, error) {
	before, err := pgNames(ctx, tx, "SELECT table_name FROM information_schema.tables WHERE table_schema = current_schema() UNION ALL SELECT sequence_name FROM information_schema.sequences WHERE sequence_schema = current_schema()")
	if err != nil {
		return nil, err
	}
	ms, err := migrationsUpTo(Postgres, version)
	if err != nil {
		return nil, err
	}
	exec := func(q string, args ...any) error {
		for i := range args {
			q = strings.Replace(q, "?", "$"+strconv.Itoa(i+1), 1)
		}
		_, err := tx.Exec(ctx, q, args...)
		return err
	}
	if err := exec(createSchemaMigrations); err != nil {
		return nil, fmt.Errorf("restore: %w", err)
	}
	for _, m := range ms {
		if err := applyMigration(exec, m); err != nil {
			return nil, fmt.Errorf("restore: %w", err)
		}
	}
	ref := &pgReference{schema: schema, columns: map[string]map[string]bool{}, sequences: map[string]bool{}}
	rows, err := tx.Query(ctx, "SELECT table_name, column_name FROM information_schema.columns WHERE table_schema = current_schema()")
	if err != nil {
		return nil, fmt.Errorf("restore: %w", err)
	}
	for rows.Next() {
		var t, c string
		if err := rows.Scan(&t, &c); err != nil {
			return nil, err
		}
		if before[t] {
			continue
		}
		if ref.columns[t] == nil {
			ref.columns[t] = map[string]bool{}
		}
		ref.columns[t][c] = true
	}
	if err := rows.Err(); err != nil {
		return nil, fmt.Errorf("restore: %w", err)
	}
	seqs, err := pgNames(ctx, tx, "SELECT sequence_name FROM information_schema.sequences WHERE sequence_schema = current_schema()")
	if err != nil {
		return nil, err
	}
	for s := range seqs {
		if !before[s] {
			ref.sequences[s] = true
		}
	}
	// Foreign keys: a table loads after the tables it refers to.
	deps := map[string][]string{}
	rows, err = tx.Query(ctx, `SELECT cl.relname, rf.relname FROM pg_constraint co
		JOIN pg_class cl ON cl.oid = co.conrelid JOIN pg_class rf ON rf.oid = co.confrelid
		JOIN pg_namespace n ON n.oid = cl.relnamespace
		WHERE co.contype = 'f' AND n.nspname = current_schema()`)
	if err != nil {
		return nil, fmt.Errorf("restore: %w", err)
	}
	for rows.Next() {
		var t, r string
		if err := rows.Scan(&t, &r); err != nil {
			return nil, err
		}
		deps[t] = append(deps[t], r)
	}
	if err := rows.Err(); err != nil {
		return nil, fmt.Errorf("restore: %w", err)
	}
	ref.order = loadOrder(ref.columns, deps)
	return ref, nil
}

// loadOrder sorts tables so that each follows the tables it depends on
// (by name among equals; a cycle keeps the rest in name order).
func loadOrder(tables map[string]map[string]bool, deps map[string][]string) []string {
	var names []string
	for t := range tables {
		names = append(names, t)
	}
	slices.Sort(names)
	done := map[string]bool{}
	var out []string
	for len(out) < len(names) {
		progress := false
		for _, t := range names {
			if done[t] {
				continue
			}
			ready := true
			for _, d := range deps[t] {
				if d != t && !done[d] && tables[d] != nil {
					ready = false
				}
			}
			if ready {
				done[t], progress = true, true
				out = append(out, t)
			}
		}
		if !progress {
			for _, t := range names {
				if !done[t] {
					done[t] = true
					out = append(out, t)
				}
			}
		}
	}
	return out
}

func pgNames(ctx context.Context, tx pgx.Tx, q string) (map[string]bool, error) {
	rows, err := tx.Query(ctx, q)
	if err != nil {
		return nil, fmt.Errorf("restore: %w", err)
	}
	names, err := pgx.CollectRows(rows, pgx.RowTo[string])
	if err != nil {
		return nil, fmt.Errorf("restore: %w", err)
	}
	out := map[string]bool{}
	for _, n := range names {
		out[n] = true
	}
	return out, nil
}

// loadPgData reads pg_restore's data-only script and loads it: COPY data
// into Layerfix's tables and columns through a COPY statement made here,
// sequence positions through setval. Any other statement is refused. It
// returns the migration versions the dump's schema_migrations holds.
func loadPgData(ctx context.Context, tx pgx.Tx, r *bufio.Reader, ref *pgReference) ([]int, error) {
	var versions []int
	loaded := map[string]bool{}
	for {
		line, err := r.ReadSlice('\n')
		if errors.Is(err, io.EOF) && len(line) == 0 {
			return versions, nil
		}
		if errors.Is(err, bufio.ErrBufferFull) {
			return nil, fmt.Errorf("restore: the PostgreSQL backup holds a statement that is not table data: %.80q…; nothing was restored", line)
		}
		if err != nil && !errors.Is(err, io.EOF) {
			return nil, fmt.Errorf("restore: read the PostgreSQL backup: %w", err)
		}
		l := strings.TrimSuffix(string(line), "\n")
		switch {
		case strings.HasPrefix(l, "SET client_encoding = ") && l != "SET client_encoding = 'UTF8';":
			return nil, fmt.Errorf("restore: the PostgreSQL backup's data is not UTF-8 (%s)", l)
		case l == "", strings.HasPrefix(l, "--"), strings.HasPrefix(l, "SET "),
			strings.HasPrefix(l, "SELECT pg_catalog.set_config('search_path', '', false);"),
			strings.HasPrefix(l, `\restrict `), strings.HasPrefix(l, `\unrestrict `):
			// Session settings and comments of the script: not run.
		case pgCopyLine.MatchString(l):
			m := pgCopyLine.FindStringSubmatch(l)
			table, cols, err := ref.copyTarget(unquotePgIdent(m[2]), m[3])
			if err != nil {
				return nil, err
			}
			if loaded[table] {
				return nil, fmt.Errorf("restore: the PostgreSQL backup holds the rows of %s twice", table)
			}
			loaded[table] = true
			data := &copyData{r: r, lineStart: true}
			if table == "schema_migrations" {
				if versions, err = readMigrationVersions(data, cols); err != nil {
					return nil, err
				}
				continue
			}
			stmt := "COPY " + pgx.Identifier{ref.schema, table}.Sanitize() + " (" + strings.Join(quoteAll(cols), ", ") + ") FROM STDIN"
			if _, err := tx.Conn().PgConn().CopyFrom(ctx, data, stmt); err != nil {
				return nil, fmt.Errorf("restore: load the rows of %s: %w", table, err)
			}
		case pgSetval.MatchString(l):
			m := pgSetval.FindStringSubmatch(l)
			name := strings.ReplaceAll(m[1], "''", "'")
			if i := strings.LastIndex(name, "."); i >= 0 {
				name = name[i+1:]
			}
			name = unquotePgIdent(name)
			if !ref.sequences[name] {
				return nil, fmt.Errorf("restore: the PostgreSQL backup sets sequence %q, which is not Layerfix's", name)
			}
			n, err := strconv.ParseInt(m[2], 10, 64)
			if err != nil {
				return nil, fmt.Errorf("restore: sequence %s: %w", name, err)
			}
			if _, err := tx.Exec(ctx, "SELECT setval($1::regclass, $2, $3)", pgx.Identifier{ref.schema, name}.Sanitize(), n, m[3] == "true"); err != nil {
				return nil, fmt.Errorf("restore: sequence %s: %w", name, err)
			}
		default:
			return nil, fmt.Errorf("restore: the PostgreSQL backup holds a statement that is not table data: %.80q; nothing was restored", l)
		}
	}
}

// copyTarget checks a COPY statement's table and columns against
// Layerfix's schema.
func (ref *pgReference) copyTarget(table, colList string) (string, []string, error) {
	known := ref.columns[table]
	if known == nil {
		return "", nil, fmt.Errorf("restore: the PostgreSQL backup holds rows for %q, which is not Layerfix's table", table)
	}
	var cols []string
	for _, c := range strings.Split(colList, ", ") {
		c = unquotePgIdent(c)
		if !known[c] || slices.Contains(cols, c) {
			return "", nil, fmt.Errorf("restore: the PostgreSQL backup holds column %q of %s, which Layerfix's schema does not have", c, table)
		}
		cols = append(cols, c)
	}
	return table, cols, nil
}

func quoteAll(names []string) []string {
	out := make([]string, len(names))
	for i, n := range names {
		out[i] = pgx.Identifier{n}.Sanitize()
	}
	return out
}

// unquotePgIdent undoes pg_dump's quoting of an identifier.
func unquotePgIdent(s string) string {
	if len(s) >= 2 && s[0] == '"' && s[len(s)-1] == '"' {
		return strings.ReplaceAll(s[1:len(s)-1], `""`, `"`)
	}
	return s
}

// readMigrationVersions reads the COPY rows of schema_migrations.
func readMigrationVersions(data io.Reader, cols []string) ([]int, error) {
	vi := slices.Index(cols, "version")
	if vi < 0 {
		return nil, errors.New("restore: the PostgreSQL backup's schema_migrations has no version column")
	}
	sc := bufio.NewScanner(data)
	var out []int
	for sc.Scan() {
		f := strings.Split(sc.Text(), "\t")
		v, err := 0, error(nil)
		if vi < len(f) {
			v, err = strconv.Atoi(f[vi])
		}
		if vi >= len(f) || err != nil {
			return nil, fmt.Errorf("restore: the PostgreSQL backup's schema_migrations holds %.40q", sc.Text())
		}
		if out = append(out, v); len(out) > maxSchemaObjects {
			return nil, errors.New("restore: the PostgreSQL backup's schema_migrations is not Layerfix's")
		}
	}
	if err := sc.Err(); err != nil {
		return nil, fmt.Errorf("restore: read the PostgreSQL backup: %w", err)
	}
	slices.Sort(out)
	return out, nil
}

// copyData passes COPY rows from the script through to its end marker
// (a line holding only \.), whatever the length of a row.
type copyData struct {
	r         *bufio.Reader
	lineStart bool
	done      bool
	pending   []byte
	buf       []byte
}

func (c *copyData) Read(p []byte) (int, error) {
	if len(c.pending) == 0 {
		if c.done {
			return 0, io.EOF
		}
		line, err := c.r.ReadSlice('\n')
		if c.lineStart && string(line) == "\\.\n" {
			c.done = true
			return 0, io.EOF
		}
		switch {
		case err == nil:
			c.lineStart = true
		case errors.Is(err, bufio.ErrBufferFull):
			c.lineStart = false
		case errors.Is(err, io.EOF):
			return 0, errors.New("restore: the PostgreSQL backup's table data ends without its end marker")
		default:
			return 0, err
		}
		c.buf = append(c.buf[:0], line...)
		c.pending = c.buf
	}
	n := copy(p, c.pending)
	c.pending = c.pending[n:]
	return n, nil
}

// limitedWriter keeps the first n bytes written to it.
type limitedWriter struct {
	w io.Writer
	n int
}

func (l *limitedWriter) Write(p []byte) (int, error) {
	if l.n > 0 {
		k := min(len(p), l.n)
		_, _ = l.w.Write(p[:k]) // keeps what fits; the command's exit status decides
		l.n -= k
	}
	return len(p), nil
}
