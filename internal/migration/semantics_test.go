package migration_test

import (
	"context"
	"errors"
	"strings"
	"testing"
	"time"

	"github.com/schemagen/schemagen/dialects/hazard"
	"github.com/schemagen/schemagen/internal/dbtest"
	"github.com/schemagen/schemagen/internal/migration"
	"github.com/schemagen/schemagen/internal/migration/deploy"
	"github.com/schemagen/schemagen/internal/testproject"
)

const invoicesBefore = `
table "invoices" {
  column "id" {
    type = int
  }
  column "n" {
    type = int
    null = true
  }
  primary_key {
    columns = ["id"]
  }
}
`

// withRows applies the project's migrations to a new database of each
// dialect and inserts the same rows into both.
func withRows(t *testing.T, p *testproject.Project, rows ...string) map[string]*dbtest.DB {
	t.Helper()
	dbs := map[string]*dbtest.DB{"postgres": dbtest.Postgres(t), "tidb": dbtest.TiDB(t)}
	for d, db := range dbs {
		p.Apply(d, db.URL)
		for _, q := range rows {
			if _, err := db.Exec(q); err != nil {
				t.Fatalf("%s: %s: %v", d, q, err)
			}
		}
	}
	return dbs
}

// applyErr applies the pending files of a dialect and returns the error.
func applyErr(p *testproject.Project, d, url string) error {
	_, err := deploy.Apply(context.Background(), p.Target(d), deploy.ApplyOptions{URL: url, LockTimeout: 10 * time.Minute})
	return err
}

// TestNotNullWithoutDefaultRefused: a NOT NULL column without a default
// added to a table with rows made PostgreSQL fail (23502) and TiDB fill
// the rows with ” (issue 30, item 1). migrate diff refuses it on both,
// naming the column and what to write instead; the two steps it says to
// write apply on both with the same rows.
func TestNotNullWithoutDefaultRefused(t *testing.T) {
	t.Parallel()
	p := testproject.New(t, invoicesBefore)
	p.Diff("init")
	dbs := withRows(t, p, "INSERT INTO invoices (id, n) VALUES (1, 5)")

	p.Generate(strings.Replace(invoicesBefore, `  primary_key {`, "  column \"code\" {\n    type = varchar(10)\n  }\n  primary_key {", 1))
	_, err := migration.Plan(context.Background(), p.Dev, nil, p.Targets, p.Model(), "code")
	if !migration.Refused(err) {
		t.Fatalf("migrate diff of a NOT NULL column without a default: want a refusal, got %v", err)
	}
	var pe *migration.PlanError
	if !errors.As(err, &pe) || len(pe.Errs) != 2 {
		t.Fatalf("want a refusal of each dialect, got %v", err)
	}
	for _, e := range pe.Errs {
		var r *hazard.Refusal
		if !errors.As(e, &r) || r.Table != "invoices" || r.Column != "code" || !strings.Contains(r.Instead, "default") || !strings.Contains(r.Instead, "data migration") {
			t.Errorf("refusal %v: want table invoices, column code, and what to write instead", e)
		}
	}

	// Instead: nullable, filled, then NOT NULL.
	p.Generate(strings.Replace(invoicesBefore, `  primary_key {`, "  column \"code\" {\n    type = varchar(10)\n    null = true\n  }\n  primary_key {", 1))
	p.Diff("code_nullable")
	for d, db := range dbs {
		p.Apply(d, db.URL)
		if _, err := db.Exec("UPDATE invoices SET code = 'A1'"); err != nil {
			t.Fatal(err)
		}
	}
	p.Generate(strings.Replace(invoicesBefore, `  primary_key {`, "  column \"code\" {\n    type = varchar(10)\n  }\n  primary_key {", 1))
	p.Diff("code_not_null")
	for d, db := range dbs {
		p.Apply(d, db.URL)
		if got := rowsOf(t, db, "SELECT id, code FROM invoices"); strings.Join(got, ",") != "1 A1" {
			t.Errorf("%s: rows %q", d, got)
		}
	}
}

// checksModel is invoicesBefore with CHECKs of the forms TiDB checked the
// rows of wrongly (issue 30, item 2; pingcap/tidb#71050).
func checksModel(col string, checks ...string) string {
	m := strings.ReplaceAll(invoicesBefore, `column "n" {`, `column "`+col+`" {`)
	if col != "n" {
		m = strings.Replace(m, `column "`+col+`" {`, "column \""+col+"\" {\n    renamed_from = \"n\"", 1)
	}
	var b strings.Builder
	for i, c := range checks {
		b.WriteString("  check \"invoices_" + string(rune('a'+i)) + "_ck\" {\n    expr = \"" + strings.ReplaceAll(c, "n", col) + "\"\n  }\n")
	}
	return strings.Replace(m, "  primary_key {", b.String()+"  primary_key {", 1)
}

// TestTiDBCheckOrOverRows: TiDB checked the rows of a CHECK it adds with
// WHERE NOT <expr> unparenthesised, so `n IS NULL OR n > 0` and
// `n = 6 OR n = 5` failed (3819) on rows that satisfy them, and a CHECK with
// a top-level AND was added over rows breaking it. The plan writes such a
// CHECK so that TiDB checks what it means, on both databases; a rename-only
// release keeps the CHECKs, and the next diff plans nothing.
func TestTiDBCheckOrOverRows(t *testing.T) {
	t.Parallel()
	p := testproject.New(t, invoicesBefore)
	p.Diff("init")
	dbs := withRows(t, p, "INSERT INTO invoices (id, n) VALUES (1, 5), (2, NULL)")

	p.Generate(checksModel("n", "n IS NULL OR n > 0", "n = 6 OR n = 5 OR n IS NULL"))
	p.Diff("checks")
	for d, db := range dbs {
		if err := applyErr(p, d, db.URL); err != nil {
			t.Fatalf("%s: the CHECKs that every row satisfies: %v", d, err)
		}
		if _, err := db.Exec("INSERT INTO invoices (id, n) VALUES (3, -1)"); err == nil {
			t.Errorf("%s: a row breaking the CHECK was inserted", d)
		}
	}
	if again := p.Diff("again"); len(again) != 0 {
		t.Fatalf("a diff after the CHECKs plans %v", again)
	}

	// A rename only: the CHECKs over the column are dropped and added again
	// (TiDB refuses to rename a column a CHECK uses, 3959); they apply.
	p.Generate(checksModel("amount", "n IS NULL OR n > 0", "n = 6 OR n = 5 OR n IS NULL"))
	p.Diff("rename")
	for d, db := range dbs {
		if err := applyErr(p, d, db.URL); err != nil {
			t.Fatalf("%s: the rename: %v", d, err)
		}
		if _, err := db.Exec("INSERT INTO invoices (id, amount) VALUES (4, 7)"); err == nil {
			t.Errorf("%s: the CHECKs were lost by the rename", d)
		}
	}
	if again := p.Diff("again2"); len(again) != 0 {
		t.Fatalf("a diff after the rename plans %v", again)
	}

	// A CHECK with a top-level AND that row 1 (amount 5) breaks: both
	// databases refuse it, TiDB by its pre-check, before anything runs.
	p.Generate(checksModel("amount", "n IS NULL OR n > 0", "n = 6 OR n = 5 OR n IS NULL", "n > 0 AND n < 3"))
	p.Diff("and")
	for d, db := range dbs {
		if err := applyErr(p, d, db.URL); err == nil {
			t.Errorf("%s: a CHECK that row 1 breaks was added", d)
		}
	}
}

// TestTiDBAddsBeforeDrops: a unique key, an index and a CHECK replaced by
// others of other names are added before the old ones are dropped on TiDB,
// which commits each statement: a file stopping half-way leaves the table
// at least as constrained as before (issue 30, item 2). The plan applies
// on both databases over rows.
func TestTiDBAddsBeforeDrops(t *testing.T) {
	t.Parallel()
	before := strings.Replace(invoicesBefore, "  primary_key {", `  column "m" {
    type = int
    null = true
  }
  unique "invoices_n_key" {
    columns = ["n"]
  }
  index "invoices_m_idx" {
    columns = ["m"]
  }
  check "invoices_old_ck" {
    expr = "n > 0"
  }
  primary_key {`, 1)
	p := testproject.New(t, before)
	p.Diff("init")
	dbs := withRows(t, p, "INSERT INTO invoices (id, n, m) VALUES (1, 5, 1), (2, 6, 2)")
	after := strings.NewReplacer(`unique "invoices_n_key" {
    columns = ["n"]`, `unique "invoices_n_m_key" {
    columns = ["n", "m"]`, `index "invoices_m_idx" {
    columns = ["m"]`, `index "invoices_m_n_idx" {
    columns = ["m", "n"]`, `check "invoices_old_ck" {
    expr = "n > 0"`, `check "invoices_new_ck" {
    expr = "n > 1"`).Replace(before)
	p.Generate(after)
	stmts := p.Diff("replace")
	at := func(sub string) int {
		for i, s := range stmts["tidb"] {
			if strings.Contains(s, sub) {
				return i
			}
		}
		t.Fatalf("tidb: no statement with %q in %q", sub, stmts["tidb"])
		return -1
	}
	for _, pair := range [][2]string{
		{"ADD UNIQUE INDEX `invoices_n_m_key`", "DROP INDEX `invoices_n_key`"},
		{"ADD INDEX `invoices_m_n_idx`", "DROP INDEX `invoices_m_idx`"},
		{"ADD CONSTRAINT `invoices_new_ck`", "DROP CONSTRAINT `invoices_old_ck`"},
	} {
		if at(pair[0]) > at(pair[1]) {
			t.Errorf("tidb: %s after %s:\n%s", pair[0], pair[1], strings.Join(stmts["tidb"], "\n"))
		}
	}
	for d, db := range dbs {
		if err := applyErr(p, d, db.URL); err != nil {
			t.Fatalf("%s: %v", d, err)
		}
	}
	if again := p.Diff("again"); len(again) != 0 {
		t.Fatalf("a diff after the change plans %v", again)
	}
}

// TestStringToIntegerSameResult: a varchar column changed to an integer
// converted '2.5' to 3 on TiDB while PostgreSQL's USING s::integer fails on
// it (issue 30, item 1: a type change that converts values differently).
// TiDB's pre-check now stops on the rows PostgreSQL fails on; once they
// hold integers, both convert alike.
func TestStringToIntegerSameResult(t *testing.T) {
	t.Parallel()
	before := strings.Replace(invoicesBefore, "  primary_key {", "  column \"s\" {\n    type = varchar(10)\n    null = true\n  }\n  primary_key {", 1)
	p := testproject.New(t, before)
	p.Diff("init")
	dbs := withRows(t, p, "INSERT INTO invoices (id, s) VALUES (1, '2.5'), (2, ' 7 '), (3, NULL)")
	p.Generate(strings.Replace(before, "type = varchar(10)", "type = int", 1))
	p.Diff("to_int")
	for d, db := range dbs {
		if err := applyErr(p, d, db.URL); err == nil {
			t.Errorf("%s: '2.5' was converted to an integer", d)
		}
		if _, err := db.Exec("UPDATE invoices SET s = '3' WHERE id = 1"); err != nil {
			t.Fatal(err)
		}
		if err := applyErr(p, d, db.URL); err != nil {
			t.Fatalf("%s: %v", d, err)
		}
		if got := rowsOf(t, db, "SELECT id, s FROM invoices ORDER BY id"); strings.Join(got, ",") != "1 3,2 7,3 NULL" {
			t.Errorf("%s: rows %q", d, got)
		}
	}
}
