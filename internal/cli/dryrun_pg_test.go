package cli_test

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/schemagen/schemagen/internal/dbtest"
)

const kidsBefore = `
table "parents" {
  column "id" {
    type = int
  }
  primary_key {
    columns = ["id"]
  }
}

table "kids" {
  column "id" {
    type = int
  }
  column "n" {
    type = int
    null = true
  }
  column "code" {
    type = varchar(10)
    null = true
  }
  column "parent_id" {
    type = int
    null = true
  }
  primary_key {
    columns = ["id"]
  }
}
`

// TestDryRunPrechecksPostgres: on PostgreSQL, apply --dry-run predicted
// success for a migration whose CHECK, NOT NULL, unique key and foreign key
// existing rows break, and the apply left the constraints NOT VALID for the
// next file's VALIDATE to fail without naming a row (issue 30, item 5).
// The PostgreSQL plan now has pre-checks, as TiDB's: the dry run and the
// apply list the first offending rows, and nothing is applied.
func TestDryRunPrechecksPostgres(t *testing.T) {
	dir := migrateProject(t)
	write := func(src string) {
		if err := os.WriteFile(filepath.Join(dir, "schema.hcl"), []byte(src), 0o644); err != nil {
			t.Fatal(err)
		}
		if r := schemagen(t, dir, "generate", "--out", "OUT"); r.code != 0 {
			t.Fatal(r.stderr)
		}
	}
	write(kidsBefore)
	if r := migrate(t, dir, "diff", "init"); r.code != 0 {
		t.Fatalf("migrate diff init: exit %d\n%s", r.code, r.stderr)
	}
	pg := dbtest.Postgres(t)
	if r := applyCLI(t, dir, "apply", "--env", "postgres", "--url", pg.URL); r.code != 0 {
		t.Fatalf("apply init: exit %d", r.code)
	}
	for _, q := range []string{
		"INSERT INTO parents VALUES (1)",
		"INSERT INTO kids VALUES (1, 5, 'a', 1), (2, -1, 'a', 1), (3, 7, NULL, 9)",
	} {
		if _, err := pg.Exec(q); err != nil {
			t.Fatal(err)
		}
	}
	after := strings.NewReplacer(
		"    type = varchar(10)\n    null = true\n", "    type = varchar(10)\n",
		"  primary_key {\n    columns = [\"id\"]\n  }\n}\n`", "",
	).Replace(kidsBefore)
	after = strings.TrimSuffix(after, "  primary_key {\n    columns = [\"id\"]\n  }\n}\n") + `  primary_key {
    columns = ["id"]
  }
  check "kids_n_ck" {
    expr = "n > 0"
  }
  unique "kids_code_key" {
    columns = ["code"]
  }
  foreign_key "kids_parent_fk" {
    columns     = ["parent_id"]
    ref_table   = "parents"
    ref_columns = ["id"]
  }
}
`
	write(after)
	if r := migrate(t, dir, "diff", "constraints"); r.code != 0 {
		t.Fatalf("migrate diff: exit %d\n%s", r.code, r.stderr)
	}
	wants := []string{
		"rows breaking CHECK kids_n_ck: id=2, n=-1",
		"duplicates for unique key kids_code_key: code=a, rows=2",
		"rows without a match for foreign key kids_parent_fk: parent_id=9",
		"id=3",
	}
	r := applyCLI(t, dir, "apply", "--env", "postgres", "--url", pg.URL, "--dry-run")
	if r.code != 1 {
		t.Errorf("dry run: exit %d, want 1", r.code)
	}
	wantIn(t, "dry run", r.stdout+r.stderr, wants...)
	r = applyCLI(t, dir, "apply", "--env", "postgres", "--url", pg.URL)
	if r.code != 1 {
		t.Errorf("apply: exit %d, want 1", r.code)
	}
	wantIn(t, "apply", r.stdout+r.stderr, append(wants, "not applied")...)
	if n := countRows(t, pg.DB, "SELECT COUNT(*) FROM pg_constraint WHERE conrelid = 'kids'::regclass AND contype IN ('c', 'f', 'u')"); n != 0 {
		t.Errorf("the refused apply left %d constraints", n)
	}
}
