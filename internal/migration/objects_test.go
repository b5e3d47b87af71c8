package migration_test

import (
	"context"
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/schemagen/schemagen/dialects"
	"github.com/schemagen/schemagen/dialects/all"
	"github.com/schemagen/schemagen/internal/dbtest"
	"github.com/schemagen/schemagen/internal/migration"
	"github.com/schemagen/schemagen/internal/testproject"
)

// objectsOf reads the extensions and views of a database.
func objectsOf(t *testing.T, dialect string, db *dbtest.DB) *dialects.Objects {
	t.Helper()
	o, err := all.Get(dialect).(dialects.ObjectDialect).ReadObjects(context.Background(), db.DB)
	if err != nil {
		t.Fatal(err)
	}
	return o
}

// builtFromGenerated is a fresh database of dialect built from the
// project's generated DDL.
func builtFromGenerated(t *testing.T, p *testproject.Project, dialect string) *dbtest.DB {
	t.Helper()
	db := dbtest.New(t, dialect)
	testproject.RunSQL(t, db, mustReadFile(t, filepath.Join(p.Dir, "generated", dialect, "schema.sql")))
	return db
}

// sameObjects fails t unless the migrated database has the extensions and
// views, with the same definitions, of one built from generated/.
func sameObjects(t *testing.T, p *testproject.Project, dialect string, live *dbtest.DB) {
	t.Helper()
	want, got := objectsOf(t, dialect, builtFromGenerated(t, p, dialect)), objectsOf(t, dialect, live)
	if strings.Join(want.Extensions, ",") != strings.Join(got.Extensions, ",") {
		t.Errorf("%s: the migrated database has extensions %v, the generated DDL %v", dialect, got.Extensions, want.Extensions)
	}
	if len(want.Views) != len(got.Views) {
		t.Errorf("%s: the migrated database has views %v, the generated DDL %v", dialect, got.Views, want.Views)
	}
	for v, def := range want.Views {
		if got.Views[v] != def {
			t.Errorf("%s: view %s is %q in the migrated database, %q in one built from generated/", dialect, v, got.Views[v], def)
		}
	}
}

// inOrder returns the first of prefixes that no statement of stmts after
// the previous one's starts with, "" when all are there in order.
func inOrder(stmts []string, prefixes ...string) string {
	i := 0
	for _, s := range stmts {
		if i < len(prefixes) && strings.HasPrefix(s, prefixes[i]) {
			i++
		}
	}
	if i < len(prefixes) {
		return prefixes[i]
	}
	return ""
}

const extensionModel = `extension "citext" {}

table "users" {
  column "id" {
    type = bigint
  }
  column "email" {
    type = varchar(100)
    postgres {
      type = "CITEXT"
    }
  }
  primary_key {
    columns = ["id"]
  }
}
`

// TestExtensionThroughMigrations: an extension that ships with PostgreSQL
// (citext) reaches the migrations before the table that uses it, is dropped
// after it, and never reaches TiDB, which has no extensions.
func TestExtensionThroughMigrations(t *testing.T) {
	p := testproject.New(t, extensionModel)
	got := p.Diff("init")
	if len(got["postgres"]) < 2 || got["postgres"][0] != `CREATE EXTENSION IF NOT EXISTS "citext"` || !strings.Contains(strings.ToLower(got["postgres"][1]), `"email" citext`) {
		t.Fatalf("postgres plan does not create citext first:\n%s", strings.Join(got["postgres"], "\n"))
	}
	if strings.Contains(strings.Join(got["tidb"], "\n"), "EXTENSION") {
		t.Errorf("tidb plan has an extension:\n%s", strings.Join(got["tidb"], "\n"))
	}
	if again := p.Diff("again"); len(again) != 0 {
		t.Fatalf("a second diff found changes: %v", again)
	}
	live := dbtest.New(t, "postgres")
	p.Apply("postgres", live.URL)
	if _, err := live.Exec(`INSERT INTO users VALUES (1, 'A@x.org')`); err != nil {
		t.Fatal(err)
	}
	var n int
	if err := live.QueryRow(`SELECT count(*) FROM users WHERE email = 'a@X.ORG'`).Scan(&n); err != nil || n != 1 {
		t.Fatalf("citext does not compare without case in the migrated database: %d rows, %v", n, err)
	}
	sameObjects(t, p, "postgres", live)

	// The extension goes, after the column that needs it.
	p.Generate(strings.Replace(strings.Replace(extensionModel, "extension \"citext\" {}\n", "", 1), "    postgres {\n      type = \"CITEXT\"\n    }\n", "", 1))
	got = p.Diff("no_citext")
	pg := got["postgres"]
	if missing := inOrder(pg, `ALTER TABLE "users" ALTER COLUMN "email" TYPE`, `DROP EXTENSION "citext"`); missing != "" || pg[len(pg)-1] != `DROP EXTENSION "citext"` {
		t.Fatalf("postgres plan does not drop citext after the column:\n%s", strings.Join(pg, "\n"))
	}
	if again := p.Diff("again2"); len(again) != 0 {
		t.Fatalf("a second diff found changes: %v", again)
	}
	p.Apply("postgres", live.URL)
	sameObjects(t, p, "postgres", live)
	if err := live.QueryRow(`SELECT count(*) FROM users WHERE email = 'A@x.org'`).Scan(&n); err != nil || n != 1 {
		t.Fatalf("row lost: %d rows, %v", n, err)
	}
}

func viewModel(def, emailType string) string {
	view := ""
	if def != "" {
		view = `
raw "active_users_view" {
  postgres = "CREATE VIEW active_users AS ` + def + `"
  tidb     = "CREATE VIEW active_users AS ` + def + `"
}
raw "active_count_view" {
  postgres = "CREATE VIEW active_count AS SELECT count(*) AS n FROM active_users"
  tidb     = "CREATE VIEW active_count AS SELECT count(*) AS n FROM active_users"
}
`
	}
	return `table "users" {
  column "id" {
    type = bigint
  }
  column "email" {
    type = ` + emailType + `
  }
  column "active" {
    type    = bool
    default = true
  }
  primary_key {
    columns = ["id"]
  }
}
` + view
}

// TestViewsThroughMigrations: views that raw blocks create are added,
// changed (dropped and created again, with the view that reads them),
// created again around a change to a column they read (which PostgreSQL
// refuses under a view), and removed, by migrate diff, on both databases;
// each migrated database then has the views of one built from generated/.
func TestViewsThroughMigrations(t *testing.T) {
	t.Parallel()
	p := testproject.New(t, viewModel("", "varchar(100)"))
	p.Diff("init")
	lives := map[string]*dbtest.DB{}
	for _, d := range []string{"postgres", "tidb"} {
		lives[d] = dbtest.New(t, d)
		p.Apply(d, lives[d].URL)
		if _, err := lives[d].Exec(`INSERT INTO users (id, email, active) VALUES (1, 'a', true), (2, 'b', false)`); err != nil {
			t.Fatal(err)
		}
	}
	steps := []struct {
		name, model string
		want        map[string][]string // statements each plan must hold, in order
		count       int                 // rows of active_users afterwards, -1 for no view
	}{
		{"add_views", viewModel("SELECT id, email FROM users WHERE active", "varchar(100)"),
			map[string][]string{"postgres": {"CREATE VIEW active_users", "CREATE VIEW active_count"}, "tidb": {"CREATE VIEW active_users", "CREATE VIEW active_count"}}, 1},
		{"change_view", viewModel("SELECT id, email, active FROM users", "varchar(100)"),
			map[string][]string{"postgres": {`DROP VIEW "active_count"`, `DROP VIEW "active_users"`, "CREATE VIEW active_users", "CREATE VIEW active_count"},
				"tidb": {"DROP VIEW `active_users`", "CREATE VIEW active_users"}}, 2},
		{"widen_column", viewModel("SELECT id, email, active FROM users", "varchar(200)"),
			map[string][]string{"postgres": {`DROP VIEW "active_count"`, `DROP VIEW "active_users"`, `ALTER TABLE "users" ALTER COLUMN "email" TYPE`, "CREATE VIEW active_users", "CREATE VIEW active_count"},
				"tidb": {"ALTER TABLE `users` MODIFY COLUMN `email`"}}, 2},
		{"remove_views", viewModel("", "varchar(200)"),
			map[string][]string{"postgres": {`DROP VIEW "active_count"`, `DROP VIEW "active_users"`}, "tidb": {"DROP VIEW `active_count`", "DROP VIEW `active_users`"}}, -1},
	}
	for _, s := range steps {
		p.Generate(s.model)
		got := p.Diff(s.name)
		for d, want := range s.want {
			if missing := inOrder(got[d], want...); missing != "" {
				t.Fatalf("%s: the %s plan has no %q (in this order):\n%s", s.name, d, missing, strings.Join(got[d], "\n"))
			}
		}
		if again := p.Diff(s.name + "_again"); len(again) != 0 {
			t.Fatalf("%s: a second diff found changes: %v", s.name, again)
		}
		for d, live := range lives {
			p.Apply(d, live.URL)
			sameObjects(t, p, d, live)
			var n int
			err := live.QueryRow(`SELECT count(*) FROM active_users`).Scan(&n)
			switch {
			case s.count < 0 && err == nil:
				t.Errorf("%s: %s still has active_users", s.name, d)
			case s.count >= 0 && (err != nil || n != s.count):
				t.Errorf("%s: %s active_users has %d rows (%v), want %d", s.name, d, n, err, s.count)
			}
		}
		for _, d := range all.Dialects() {
			atlasAgrees(t, d, filepath.Join(p.Dir, "migrations", d.Name()), mustReadFile(t, filepath.Join(p.Dir, "generated", d.Name(), "schema.sql")))
		}
	}
}

const seqModel = `table "tickets" {
  column "id" {
    type = bigint
  }
  primary_key {
    columns = ["id"]
  }
}
`

func seqRaw(start string) string {
	return `
raw "ticket_seq" {
  postgres = "CREATE SEQUENCE ticket_seq START WITH ` + start + `"
  tidb     = "CREATE SEQUENCE ticket_seq START WITH ` + start + `"
}
`
}

// TestRawStatementThroughMigrations: a raw statement that creates no view
// (a sequence) is run by the migration that first sees it, marked so that
// the directory remembers it; a change or removal of it, which schemagen
// cannot undo, is refused with what to write, and a migration written by
// hand as it says is accepted.
func TestRawStatementThroughMigrations(t *testing.T) {
	p := testproject.New(t, seqModel)
	p.Diff("init")
	p.Generate(seqModel + seqRaw("100"))
	got := p.Diff("add_seq")
	for _, d := range []string{"postgres", "tidb"} {
		if len(got[d]) != 1 || got[d][0] != "CREATE SEQUENCE ticket_seq START WITH 100" {
			t.Fatalf("%s plan: %q, want the raw statement", d, got[d])
		}
	}
	if again := p.Diff("again"); len(again) != 0 {
		t.Fatalf("a second diff found changes: %v", again)
	}
	lives := map[string]*dbtest.DB{}
	for _, d := range []string{"postgres", "tidb"} {
		lives[d] = dbtest.New(t, d)
		p.Apply(d, lives[d].URL)
		var n int64
		q := map[string]string{"postgres": "SELECT nextval('ticket_seq')", "tidb": "SELECT NEXTVAL(ticket_seq)"}[d]
		if err := lives[d].QueryRow(q).Scan(&n); err != nil || n != 100 {
			t.Fatalf("%s: the migrated database's sequence gives %d (%v), want 100", d, n, err)
		}
	}
	plan := func() error {
		_, err := migration.Plan(context.Background(), p.Dev, nil, p.Targets, p.Model(), "x")
		return err
	}
	// Changed: refused, naming the block, the file that ran it and what to write.
	p.Generate(seqModel + seqRaw("200"))
	err := plan()
	var re *migration.RawError
	if !errors.As(err, &re) || re.Name != "ticket_seq" || !strings.Contains(err.Error(), "_add_seq.sql ran it") || !strings.Contains(err.Error(), `-- raw "ticket_seq"`) {
		t.Fatalf("a changed raw statement: %v", err)
	}
	// Removed: refused too, never dropped silently.
	p.Generate(seqModel)
	if err := plan(); !errors.As(err, &re) || !strings.Contains(err.Error(), "no longer has it") || !strings.Contains(err.Error(), `-- raw "ticket_seq" removed`) {
		t.Fatalf("a removed raw statement: %v", err)
	}
	// Undone by hand as the message says: accepted.
	for _, d := range []string{"postgres", "tidb"} {
		dir := filepath.Join(p.Dir, "migrations", d)
		if err := os.WriteFile(filepath.Join(dir, "20270101000000_drop_seq.sql"), []byte("-- raw \"ticket_seq\" removed\nDROP SEQUENCE ticket_seq;\n"), 0o644); err != nil {
			t.Fatal(err)
		}
		ld, err := migration.OpenDir(dir, false)
		if err != nil {
			t.Fatal(err)
		}
		if err := migration.Hash(ld); err != nil {
			t.Fatal(err)
		}
	}
	if err := plan(); err != nil {
		t.Fatalf("after the hand-written migration: %v", err)
	}
	if again := p.Diff("after_drop"); len(again) != 0 {
		t.Fatalf("after the hand-written migration, diff found changes: %v", again)
	}
	for d, live := range lives {
		p.Apply(d, live.URL)
	}
}
