package store

import (
	"bufio"
	"bytes"
	"context"
	"database/sql"
	"io"
	"os/exec"
	"regexp"
	"strings"
	"testing"

	"github.com/layerfix/layerfix/store/pgtest"
)

// pgToolURL gives a fresh schema as a URL that both pgx and the PostgreSQL
// client tools understand (libpq takes the search path as "options").
func pgToolURL(t *testing.T) string {
	t.Helper()
	if _, err := exec.LookPath("pg_restore"); err != nil {
		t.Skip("the PostgreSQL client tools are not installed")
	}
	u := pgtest.SchemaURL(t)
	return regexp.MustCompile(`search_path=([a-z0-9_]+)`).ReplaceAllString(u, "options=-csearch_path%3D$1")
}

func pgExec(t *testing.T, url string, stmts ...string) {
	t.Helper()
	db, err := sql.Open("pgx", url)
	if err != nil {
		t.Fatal(err)
	}
	defer db.Close()
	for _, q := range stmts {
		if _, err := db.Exec(q); err != nil {
			t.Fatalf("%s: %v", q, err)
		}
	}
}

func pgCount(t *testing.T, url, q string) int {
	t.Helper()
	db, err := sql.Open("pgx", url)
	if err != nil {
		t.Fatal(err)
	}
	defer db.Close()
	var n int
	if err := db.QueryRow(q).Scan(&n); err != nil {
		t.Fatalf("%s: %v", q, err)
	}
	return n
}

// pgBackup makes a PostgreSQL store with one account, lets extra change
// its schema, and backs it up.
func pgBackup(t *testing.T, extra ...string) []byte {
	t.Helper()
	ctx := context.Background()
	src := pgToolURL(t)
	s, err := Open(ctx, Options{DatabaseURL: src})
	if err != nil {
		t.Fatal(err)
	}
	u := &User{Email: "pg@example.com", DisplayName: "Pg", PasswordHash: new("hash"), SubscriptionTier: "free", SubscriptionStatus: "inactive"}
	if err := s.CreateUser(ctx, u); err != nil {
		t.Fatal(err)
	}
	// Rows whose foreign keys need their parents loaded first.
	p := &Printer{UserID: u.ID, Name: "Mk4", Brand: "Prusa", NozzleSize: 0.4, FilamentDiameter: 1.75}
	if err := s.CreatePrinter(ctx, p); err != nil {
		t.Fatal(err)
	}
	is := &Issue{UserID: u.ID, PrinterID: &p.ID, Category: "stringing", Description: "strings\teverywhere\n\\.", AIChecklist: JSON(`{"summary":"s"}`)}
	if err := s.CreateIssue(ctx, is); err != nil {
		t.Fatal(err)
	}
	s.Close()
	pgExec(t, src, extra...)
	var archive bytes.Buffer
	if _, err := Backup(ctx, BackupOptions{DataDir: t.TempDir(), DatabaseURL: src, Version: "test"}, &archive); err != nil {
		t.Fatal(err)
	}
	return archive.Bytes()
}

// A PostgreSQL backup restores its rows into Layerfix's own schema; one
// carrying a trigger, a function or a view is refused, nothing of it runs
// or stays.
func TestPostgresRestoreLoadsOnlyLayerfixsData(t *testing.T) {
	ctx := context.Background()
	archive := pgBackup(t)
	dst := pgToolURL(t)
	if _, err := Restore(ctx, RestoreOptions{DataDir: t.TempDir(), DatabaseURL: dst}, bytes.NewReader(archive)); err != nil {
		t.Fatal(err)
	}
	if _, err := Restore(ctx, RestoreOptions{DataDir: t.TempDir(), DatabaseURL: dst}, bytes.NewReader(archive)); err == nil || !strings.Contains(err.Error(), "--force") {
		t.Fatalf("restore over Layerfix tables: %v", err)
	}
	if _, err := Restore(ctx, RestoreOptions{DataDir: t.TempDir(), DatabaseURL: dst, Force: true}, bytes.NewReader(archive)); err != nil {
		t.Fatal(err)
	}
	s, err := Open(ctx, Options{DatabaseURL: dst})
	if err != nil {
		t.Fatal(err)
	}
	defer s.Close()
	u, err := s.UserByEmail(ctx, "pg@example.com")
	if err != nil {
		t.Fatalf("restored account: %v", err)
	}
	var issues []IssueView
	err = s.EachIssue(ctx, u.ID, func(v *IssueView) error { issues = append(issues, *v); return nil })
	if err != nil || len(issues) != 1 || issues[0].Description != "strings\teverywhere\n\\." || issues[0].PrinterName == nil {
		t.Fatalf("restored issues: %+v %v", issues, err)
	}
	// The sequences were restored too: a new account gets a new id.
	if err := s.CreateUser(ctx, &User{Email: "next@example.com", DisplayName: "Next", SubscriptionTier: "free", SubscriptionStatus: "inactive"}); err != nil {
		t.Fatal(err)
	}

	for _, tc := range []struct {
		name  string
		extra []string
		want  string
	}{
		{"trigger", []string{
			`CREATE FUNCTION steal() RETURNS trigger LANGUAGE plpgsql AS $$ BEGIN NEW.display_name := NEW.password_hash; RETURN NEW; END $$`,
			`CREATE TRIGGER steal BEFORE INSERT ON users FOR EACH ROW EXECUTE FUNCTION steal()`,
		}, "an extra TRIGGER"},
		{"view", []string{`CREATE VIEW hashes AS SELECT email, password_hash FROM users`}, `an extra VIEW`},
		{"table", []string{`CREATE TABLE loot (h TEXT)`}, `an extra table "loot"`},
	} {
		t.Run(tc.name, func(t *testing.T) {
			target := pgToolURL(t)
			_, err := Restore(ctx, RestoreOptions{DataDir: t.TempDir(), DatabaseURL: target}, bytes.NewReader(pgBackup(t, tc.extra...)))
			if err == nil || !strings.Contains(err.Error(), tc.want) {
				t.Fatalf("restore: err = %v, want a refusal with %q", err, tc.want)
			}
			t.Logf("refused: %v", err)
			if n := pgCount(t, target, "SELECT count(*) FROM information_schema.tables WHERE table_schema = current_schema()"); n != 0 {
				t.Fatalf("a refused restore left %d tables", n)
			}
			if n := pgCount(t, target, "SELECT count(*) FROM pg_proc p JOIN pg_namespace n ON n.oid = p.pronamespace WHERE n.nspname = current_schema()"); n != 0 {
				t.Fatalf("a refused restore left %d functions", n)
			}
		})
	}
}

// The data script pg_restore writes is loaded only as table data: any
// other statement, table, column or sequence is refused before it reaches
// the database.
func TestPostgresDataScriptRefusesStatements(t *testing.T) {
	ref := &pgReference{schema: "public", columns: map[string]map[string]bool{"users": {"id": true, "email": true}}, sequences: map[string]bool{"users_id_seq": true}}
	for _, script := range []string{
		"SET client_encoding = 'UTF8';\nCREATE TRIGGER steal BEFORE INSERT ON users FOR EACH ROW EXECUTE FUNCTION steal();\n",
		"COPY public.loot (h) FROM stdin;\nx\n\\.\n",
		"COPY public.users (id, password_hash) FROM stdin;\n1\tx\n\\.\n",
		"COPY public.users (id) FROM PROGRAM 'sh';\n",
		"SELECT pg_catalog.setval('public.other_seq', 5, true);\n",
		"SELECT pg_catalog.setval('public.users_id_seq', 5, true); DROP TABLE users;\n",
		"SET client_encoding = 'LATIN1';\n",
		"-- comment\n" + strings.Repeat("x", 100<<10) + "\n",
	} {
		_, err := loadPgData(context.Background(), nil, bufio.NewReaderSize(strings.NewReader(script), 64<<10), ref)
		if err == nil || !strings.Contains(err.Error(), "restore: the PostgreSQL backup") {
			t.Errorf("%.60q: err = %v", script, err)
		}
	}
}

// COPY rows pass through whole, however long, up to the end marker.
func TestCopyDataStopsAtItsEndMarker(t *testing.T) {
	long := strings.Repeat("y", 200<<10)
	r := bufio.NewReaderSize(strings.NewReader("1\t"+long+"\n2\t\\.x\n\\.\nSELECT 1;\n"), 16)
	b, err := io.ReadAll(&copyData{r: r, lineStart: true})
	if err != nil || string(b) != "1\t"+long+"\n2\t\\.x\n" {
		t.Fatalf("copy data: %d bytes, %v", len(b), err)
	}
	if rest, _ := io.ReadAll(r); string(rest) != "SELECT 1;\n" {
		t.Fatalf("after the marker: %q", rest)
	}
	if _, err := io.ReadAll(&copyData{r: bufio.NewReader(strings.NewReader("1\n2\n")), lineStart: true}); err == nil {
		t.Fatal("rows without their end marker were accepted")
	}
}
