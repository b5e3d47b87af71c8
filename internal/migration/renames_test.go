package migration_test

import (
	"context"
	"errors"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/schemagen/schemagen/internal/dbtest"
	"github.com/schemagen/schemagen/internal/lint"
	"github.com/schemagen/schemagen/internal/migration"
	"github.com/schemagen/schemagen/internal/scratch"
	"github.com/schemagen/schemagen/internal/testproject"
)

const kindsBefore = `
table "customers" {
  column "id" {
    type = bigint
    identity {}
  }
  column "name" {
    type = varchar(100)
  }
  column "email" {
    type = varchar(200)
  }
  primary_key {
    columns = ["id"]
  }
  unique "customers_email_key" {
    columns = ["email"]
  }
  check "customers_name_ck" {
    expr = "char_length(name) > 0"
  }
  index "customers_name_idx" {
    columns = ["name"]
  }
  index "customers_lower_name_idx" {
    on {
      expr = "lower(name)"
    }
  }
}

table "orders" {
  column "id" {
    type = int
  }
  column "customer_id" {
    type = bigint
  }
  primary_key {
    columns = ["id"]
  }
  foreign_key "orders_customer_fk" {
    columns     = ["customer_id"]
    ref_table   = "customers"
    ref_columns = ["id"]
  }
}
`

// kindsAfter renames table customers to clients and its column name to
// full_name (with the CHECK, indexes and foreign key that name them), and
// adds a table numbered by an identity.
var kindsAfter = strings.NewReplacer(
	`table "customers" {`, "table \"clients\" {\n  renamed_from = \"customers\"",
	`  column "name" {`, "  column \"full_name\" {\n    renamed_from = \"name\"",
	`char_length(name)`, `char_length(full_name)`,
	`columns = ["name"]`, `columns = ["full_name"]`,
	`lower(name)`, `lower(full_name)`,
	`ref_table   = "customers"`, `ref_table   = "clients"`,
).Replace(kindsBefore) + `
table "tags" {
  column "id" {
    type = int
    identity {
      start = 100
    }
  }
  column "label" {
    type = varchar(40)
  }
  primary_key {
    columns = ["id"]
  }
}
`

// TestDiffEverydayKinds plans, on both databases holding rows, a migration
// that renames a table and a column and adds an identity table: the rows
// are kept, the plan drops nothing, lint finds nothing destructive, and a
// second diff with renamed_from still in the model plans nothing.
func TestDiffEverydayKinds(t *testing.T) {
	t.Parallel()
	p := testproject.New(t, kindsBefore)
	p.Diff("init")
	dbs := map[string]*dbtest.DB{"postgres": dbtest.Postgres(t), "tidb": dbtest.TiDB(t)}
	for d, db := range dbs {
		p.Apply(d, db.URL)
		for _, q := range []string{
			"INSERT INTO customers (name, email) VALUES ('Ada', 'ada@example.com')",
			"INSERT INTO customers (name, email) VALUES ('Bob', 'bob@example.com')",
			"INSERT INTO orders (id, customer_id) VALUES (1, 2)",
		} {
			if _, err := db.Exec(q); err != nil {
				t.Fatalf("%s: %s: %v", d, q, err)
			}
		}
	}

	p.Generate(kindsAfter)
	stmts := p.Diff("rename")
	for _, d := range []string{"postgres", "tidb"} {
		if len(stmts[d]) == 0 {
			t.Fatalf("%s: no migration planned", d)
		}
		all := strings.Join(stmts[d], "\n")
		t.Logf("%s:\n%s", d, all)
		for _, s := range stmts[d] {
			up := strings.ToUpper(s)
			if strings.Contains(up, "DROP TABLE") || strings.Contains(up, "DROP COLUMN") {
				t.Errorf("%s: the plan drops: %s", d, s)
			}
		}
		if !strings.Contains(strings.ToUpper(all), "RENAME") {
			t.Errorf("%s: the plan renames nothing", d)
		}
	}

	for _, f := range lintFindings(t, p) {
		if strings.HasPrefix(f.Code, "DS") {
			t.Errorf("lint: destructive finding %s in %s: %s", f.Code, f.File, f.Message)
		}
	}

	for d, db := range dbs {
		p.Apply(d, db.URL)
		got := rowsOf(t, db, "SELECT c.id, c.full_name, c.email, o.id FROM clients c LEFT JOIN orders o ON o.customer_id = c.id ORDER BY c.id")
		want := []string{"1 Ada ada@example.com NULL", "2 Bob bob@example.com 1"}
		if !slices.Equal(got, want) {
			t.Errorf("%s: rows after the rename: %q, want %q", d, got, want)
		}
		// The CHECK and the key follow the renamed column; the identity
		// table numbers from its start.
		if _, err := db.Exec("INSERT INTO clients (full_name, email) VALUES ('', 'x@example.com')"); err == nil {
			t.Errorf("%s: the CHECK on the renamed column no longer holds", d)
		}
		if _, err := db.Exec("INSERT INTO clients (full_name, email) VALUES ('Cy', 'ada@example.com')"); err == nil {
			t.Errorf("%s: the unique key no longer holds", d)
		}
		if _, err := db.Exec("INSERT INTO tags (label) VALUES ('a')"); err != nil {
			t.Errorf("%s: %v", d, err)
		}
		if got := rowsOf(t, db, "SELECT id, label FROM tags"); !slices.Equal(got, []string{"100 a"}) {
			t.Errorf("%s: identity table rows %q, want [100 a]", d, got)
		}
	}

	// renamed_from stays in the model: nothing more to do.
	if again := p.Diff("again"); len(again) != 0 {
		t.Errorf("a diff after the rename plans %v", again)
	}
}

func rowsOf(t *testing.T, db *dbtest.DB, q string) []string {
	t.Helper()
	rs, err := db.Query(q)
	if err != nil {
		t.Fatalf("%s: %s: %v", db.Dialect, q, err)
	}
	defer rs.Close()
	cols, _ := rs.Columns()
	var out []string
	for rs.Next() {
		vs := make([]*string, len(cols))
		ptrs := make([]any, len(vs))
		for i := range vs {
			ptrs[i] = &vs[i]
		}
		if err := rs.Scan(ptrs...); err != nil {
			t.Fatal(err)
		}
		parts := make([]string, len(vs))
		for i, v := range vs {
			parts[i] = "NULL"
			if v != nil {
				parts[i] = *v
			}
		}
		out = append(out, strings.Join(parts, " "))
	}
	return out
}

// TestRenameIntoDroppedName: a column renamed to the name of a column the
// same step drops (c2 becomes n, the old n goes) cannot be told from a
// rename made long ago and a later c2 dropped. The plan dropped c2 and kept
// the old n's rows; now migrate diff refuses it on both databases, naming
// the column, and a model that keeps c2 still plans.
func TestRenameIntoDroppedName(t *testing.T) {
	t.Parallel()
	const before = `
table "items" {
  column "id" {
    type = int
  }
  column "n" {
    type = int
    null = true
  }
  column "c2" {
    type = int
    null = true
  }
  primary_key {
    columns = ["id"]
  }
}
`
	p := testproject.New(t, before)
	p.Diff("init")
	p.Generate(strings.Replace(strings.Replace(before, "  column \"n\" {\n    type = int\n    null = true\n  }\n", "", 1),
		`column "c2" {`, "column \"n\" {\n    renamed_from = \"c2\"", 1))
	_, err := migration.Plan(context.Background(), p.Dev, nil, p.Targets, p.Model(), "rename")
	var re *migration.AmbiguousRenameError
	if !errors.As(err, &re) || !migration.Refused(err) {
		t.Fatalf("migrate diff: %v, want an *AmbiguousRenameError refusal", err)
	}
	if re.Table != "items" || re.Column != "n" || re.From != "c2" {
		t.Errorf("refusal names %+v", re)
	}
	for _, env := range []string{"env postgres", "env tidb"} {
		if !strings.Contains(err.Error(), env) {
			t.Errorf("no refusal for %s: %v", env, err)
		}
	}

	// With c2 kept in the model, n's renamed_from is a rename made long
	// ago: n stays and nothing is refused.
	p.Generate(strings.Replace(before, `column "n" {`, "column \"n\" {\n    renamed_from = \"c2\"", 1))
	if _, err := migration.Plan(context.Background(), p.Dev, nil, p.Targets, p.Model(), "keep"); err != nil {
		t.Fatalf("migrate diff with c2 kept: %v", err)
	}
}

const renamedKeysBefore = `
table "spaces" {
  column "id" {
    type = bigint
  }
  column "slug" {
    type = varchar(40)
  }
  column "title" {
    type = varchar(40)
  }
  column "n" {
    type = int
  }
  primary_key {
    columns = ["id"]
  }
  unique "spaces_slug_uq" {
    columns = ["slug"]
  }
  index "spaces_title_n_key" {
    unique  = true
    columns = ["title", "n"]
  }
  index "spaces_n_idx" {
    columns = ["n"]
  }
}
table "items" {
  column "id" {
    type = bigint
  }
  column "space_slug" {
    type = varchar(40)
  }
  primary_key {
    columns = ["id"]
  }
  foreign_key "items_space_fk" {
    columns     = ["space_slug"]
    ref_table   = "spaces"
    ref_columns = ["slug"]
  }
}
`

// TestRenamedKeys plans keys and an index that change only their names (a
// table rebuilt through a backup table and a copy names every one anew),
// with the action of a foreign key over the renamed unique key changed in
// the same step, as RENAMEs: no key is built again, under a lock or not
// (plan oracle, seed 92929, evolution 92929278969: PostgreSQL built the
// unique constraint under ACCESS EXCLUSIVE, PG111, and lint refused the
// file). The rows stay and the renamed keys still hold on both databases.
func TestRenamedKeys(t *testing.T) {
	t.Parallel()
	p := testproject.New(t, renamedKeysBefore)
	p.Diff("init")
	dbs := map[string]*dbtest.DB{"postgres": dbtest.Postgres(t), "tidb": dbtest.TiDB(t)}
	for d, db := range dbs {
		p.Apply(d, db.URL)
		for _, q := range []string{
			"INSERT INTO spaces (id, slug, title, n) VALUES (1, 'a', 'A', 1), (2, 'b', 'B', 2)",
			"INSERT INTO items (id, space_slug) VALUES (10, 'a'), (11, 'b')",
		} {
			if _, err := db.Exec(q); err != nil {
				t.Fatalf("%s: %s: %v", d, q, err)
			}
		}
	}
	after := strings.NewReplacer(
		`unique "spaces_slug_uq"`, `unique "spaces_slug_key2"`,
		`index "spaces_title_n_key"`, `index "spaces_title_n_uq2"`,
		`index "spaces_n_idx"`, `index "spaces_n_idx2"`,
		`ref_columns = ["slug"]`, "ref_columns = [\"slug\"]\n    on_delete   = \"cascade\"",
	).Replace(renamedKeysBefore)
	p.Generate(after)
	stmts := p.Diff("rename_keys")
	for _, d := range []string{"postgres", "tidb"} {
		all := strings.Join(stmts[d], "\n")
		t.Logf("%s:\n%s", d, all)
		for _, s := range stmts[d] {
			up := strings.ToUpper(s)
			if strings.Contains(up, "CREATE") || strings.Contains(up, "ADD UNIQUE") || strings.Contains(up, "ADD INDEX") ||
				strings.Contains(up, "UNIQUE (") || strings.Contains(up, "DROP INDEX") {
				t.Errorf("%s: the plan builds or drops a key that is only renamed: %s", d, s)
			}
		}
		if n := strings.Count(strings.ToUpper(all), "RENAME"); n != 3 {
			t.Errorf("%s: %d renames, want 3", d, n)
		}
	}

	for _, f := range lintFindings(t, p) {
		if f.Severity == lint.SeverityError {
			t.Errorf("lint: %s in %s: %s", f.Code, f.File, f.Message)
		}
	}

	for d, db := range dbs {
		p.Apply(d, db.URL)
		if got, want := rowsOf(t, db, "SELECT i.id, s.slug FROM items i JOIN spaces s ON s.slug = i.space_slug ORDER BY i.id"), []string{"10 a", "11 b"}; !slices.Equal(got, want) {
			t.Errorf("%s: rows after the renames: %q, want %q", d, got, want)
		}
		for _, q := range []string{
			"INSERT INTO spaces (id, slug, title, n) VALUES (3, 'a', 'C', 3)",
			"INSERT INTO spaces (id, slug, title, n) VALUES (4, 'd', 'A', 1)",
		} {
			if _, err := db.Exec(q); err == nil {
				t.Errorf("%s: a renamed unique key no longer holds: %s", d, q)
			}
		}
		// The foreign key's new action holds over the renamed key.
		if _, err := db.Exec("DELETE FROM spaces WHERE id = 1"); err != nil {
			t.Fatalf("%s: %v", d, err)
		}
		if got := rowsOf(t, db, "SELECT id FROM items ORDER BY id"); !slices.Equal(got, []string{"11"}) {
			t.Errorf("%s: items after deleting a space: %q, want [11] (on_delete cascade)", d, got)
		}
	}
	// The databases reached the model: the next diff plans nothing.
	planned, err := migration.Plan(context.Background(), p.Dev, nil, p.Targets, p.Model(), "again")
	if err != nil {
		t.Fatal(err)
	}
	for _, pl := range planned {
		if pl.Plan != nil && len(pl.Plan.Changes) > 0 {
			t.Errorf("%s: a second diff plans %d changes", pl.Target.Dialect.Name(), len(pl.Plan.Changes))
		}
	}
}

// lintFindings is what migrate lint finds in p's directories.
func lintFindings(t *testing.T, p *testproject.Project) []lint.Finding {
	t.Helper()
	dev := &scratch.Dev{}
	defer dev.Close()
	ctx, cancel := context.WithTimeout(context.Background(), 5*time.Minute)
	defer cancel()
	r, err := lint.Run(ctx, dev, p.Targets, lint.Options{})
	if err != nil {
		t.Fatal(err)
	}
	return r.Findings
}
