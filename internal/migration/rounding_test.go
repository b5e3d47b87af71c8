package migration_test

import (
	"path/filepath"
	"strings"
	"testing"

	"ariga.io/atlas/sql/migrate"

	"github.com/schemagen/schemagen/internal/dbtest"
	"github.com/schemagen/schemagen/internal/migration"
	"github.com/schemagen/schemagen/internal/testproject"
)

// TestTimeNarrowingSameResult: a timestamp's fraction narrowed rounds an
// exact half before 2000 down on PostgreSQL and up on TiDB, and past the
// year 9999 stops PostgreSQL alone (plan oracle, evolution 92323277221).
// Both plans stop on such rows, by schemagen's apply (its pre-check) and
// by Atlas's executor (the guard before the change); without them both
// apply alike.
func TestTimeNarrowingSameResult(t *testing.T) {
	t.Parallel()
	for _, typ := range []string{"timestamp(3)", "datetime"} {
		t.Run(strings.TrimSuffix(typ, "(3)"), func(t *testing.T) {
			t.Parallel()
			timeNarrowing(t, typ)
		})
	}
}

func timeNarrowing(t *testing.T, typ string) {
	before := strings.Replace(invoicesBefore, "  primary_key {", "  column \"at\" {\n    type = "+typ+"\n    null = true\n  }\n  primary_key {", 1)
	p := testproject.New(t, before)
	p.Diff("init")
	appliers := withRowsByBoth(t, p, "INSERT INTO invoices (id, at) VALUES (1, '1999-12-31 23:59:59.5'), (2, '9999-12-31 23:59:59.7'), (3, '2020-01-01 00:00:00.5'), (4, '1999-12-31 23:59:59.25')")
	narrowed := typ[:strings.IndexByte(typ+"(", '(')] + "(0)"
	p.Generate(strings.Replace(before, "type = "+typ, "type = "+narrowed, 1))
	p.Diff("narrow")
	want := "1 1999-12-31 23:59:59,2 9999-12-31 23:59:58,3 2020-01-01 00:00:01,4 1999-12-31 23:59:59"
	for _, a := range appliers {
		if err := a.apply(); err == nil {
			t.Errorf("%s: an exact half before 2000 was rounded", a)
		} else {
			t.Logf("%s: %v", a, firstLine(err.Error()))
		}
		exec(t, a.db, "UPDATE invoices SET at = '1999-12-31 23:59:59' WHERE id = 1")
		if err := a.apply(); err == nil {
			t.Errorf("%s: a value rounding past 9999 was rounded", a)
		}
		exec(t, a.db, "UPDATE invoices SET at = '9999-12-31 23:59:58' WHERE id = 2")
		if err := a.apply(); err != nil {
			t.Fatalf("%s: %v", a, err)
		}
		q := "SELECT id, to_char(at, 'YYYY-MM-DD HH24:MI:SS') FROM invoices ORDER BY id"
		if a.dialect == "tidb" {
			q = "SELECT id, DATE_FORMAT(at, '%Y-%m-%d %H:%i:%s') FROM invoices ORDER BY id"
		}
		if got := strings.Join(rowsOf(t, a.db, q), ","); got != want {
			t.Errorf("%s: rows %s, want %s", a, got, want)
		}
	}
}

// applier is a database of a dialect holding the project's first
// migrations and some rows, with a way to apply the later files to it.
type applier struct {
	dialect, by string
	db          *dbtest.DB
	apply       func() error
}

func (a applier) String() string { return a.dialect + " by " + a.by }

// withRowsByBoth is withRows twice: for each dialect, a database that
// schemagen's apply migrates (its pre-checks on) and one that Atlas's
// executor migrates as the Atlas CLI does (no pre-check).
func withRowsByBoth(t *testing.T, p *testproject.Project, rows ...string) []applier {
	t.Helper()
	byApply, byAtlas := withRows(t, p, rows...), withRows(t, p, rows...)
	done := filesOf(t, p)
	var out []applier
	for _, d := range []string{"postgres", "tidb"} {
		out = append(out,
			applier{dialect: d, by: "schemagen's apply", db: byApply[d], apply: func() error { return applyErr(p, d, byApply[d].URL) }},
			applier{dialect: d, by: "Atlas's executor", db: byAtlas[d], apply: func() error { return executeNew(t, p, d, byAtlas[d], done) }})
	}
	return out
}

func exec(t *testing.T, db *dbtest.DB, q string) {
	t.Helper()
	if _, err := db.Exec(q); err != nil {
		t.Fatalf("%s: %s: %v", db.Dialect, q, err)
	}
}

func firstLine(s string) string {
	line, _, _ := strings.Cut(s, "\n")
	return line
}

// filesOf is the set of the project's migration files, by dialect and name.
func filesOf(t *testing.T, p *testproject.Project) map[string]bool {
	t.Helper()
	seen := map[string]bool{}
	for _, tg := range p.Targets {
		dir, err := migration.OpenDir(tg.Env.Dir, false)
		if err != nil {
			t.Fatal(err)
		}
		files, err := dir.Files()
		if err != nil {
			t.Fatal(err)
		}
		for _, f := range files {
			seen[filepath.Join(tg.Env.Dir, f.Name())] = true
		}
	}
	return seen
}

// executeNew runs the files of dialect d's directory not in done on db
// as the Atlas CLI does, which runs no pre-check.
func executeNew(t *testing.T, p *testproject.Project, d string, db *dbtest.DB, done map[string]bool) error {
	t.Helper()
	tg := p.Target(d)
	dir, files := localFiles(t, tg)
	var pending []migrate.File
	for _, f := range files {
		if !done[filepath.Join(tg.Env.Dir, f.Name())] {
			pending = append(pending, f)
		}
	}
	return executeAsCLI(tg, dir, db.DB, pending)
}

// TestVirtualNotNullSameResult: a plain column made generated, VIRTUAL on
// TiDB and NOT NULL, over rows where its expression is NULL: PostgreSQL
// refused to store the NULL (23502) and TiDB, which computes a VIRTUAL
// column when read, added it (plan oracle, evolution 94141282462). TiDB's
// file now stops there too, by either applier; once the rows give a
// value, both add it alike.
func TestVirtualNotNullSameResult(t *testing.T) {
	t.Parallel()
	before := strings.Replace(invoicesBefore, "  primary_key {", "  column \"code\" {\n    type = varchar(10)\n    null = true\n  }\n  column \"tag\" {\n    type = varchar(10)\n    null = true\n  }\n  primary_key {", 1)
	p := testproject.New(t, before)
	p.Diff("init")
	appliers := withRowsByBoth(t, p, "INSERT INTO invoices (id, code, tag) VALUES (1, NULL, 'x'), (2, 'b', NULL)")
	p.Generate(strings.Replace(before, "  column \"tag\" {\n    type = varchar(10)\n    null = true\n  }", "  column \"tag\" {\n    type   = varchar(10)\n    as     = \"upper(code)\"\n    stored = false\n  }", 1))
	p.Diff("generated")
	for _, a := range appliers {
		if err := a.apply(); err == nil {
			t.Errorf("%s: a NOT NULL generated column was added over a NULL", a)
		} else {
			t.Logf("%s: %v", a, firstLine(err.Error()))
		}
		exec(t, a.db, "UPDATE invoices SET code = 'a' WHERE id = 1")
		if err := a.apply(); err != nil {
			t.Fatalf("%s: %v", a, err)
		}
		if got := strings.Join(rowsOf(t, a.db, "SELECT id, tag FROM invoices ORDER BY id"), ","); got != "1 A,2 B" {
			t.Errorf("%s: rows %s", a, got)
		}
	}
}
