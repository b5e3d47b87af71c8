package cli_test

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/schemagen/schemagen/internal/dbtest"
	"github.com/schemagen/schemagen/internal/testproject"
)

// oddNames is a model whose names hold quotes: single quotes everywhere
// (tables, columns, keys, indexes, checks, foreign keys), and each
// dialect's other identifier quote in a table of that dialect alone (a
// backtick on PostgreSQL, a double quote on TiDB): the quotes a dialect
// does not quote names with, which work on it.
const oddNames = `
table "pa'r'ent" {
  column "id" {
    type = int
  }
  column "na'me" {
    type = varchar(40)
    null = true
  }
  primary_key {
    columns = ["id"]
  }
  unique "pa'r'ent_uq" {
    columns = ["na'me"]
  }
}

table "we'ird" {
  column "id" {
    type = int
  }
  column "pa'r'ent_id" {
    type = int
    null = true
  }
  column "le'vel" {
    type    = int
    default = 1
  }
  primary_key {
    columns = ["id"]
  }
  index "we'ird_idx" {
    columns = ["le'vel"]
  }
  check "we'ird_ck" {
    expr = "id > 0"
  }
  foreign_key "we'ird_fk" {
    columns     = ["pa'r'ent_id"]
    ref_table   = "pa'r'ent"
    ref_columns = ["id"]
  }
}

table "pg` + "`" + `o'nly" {
  column "c` + "`" + `o'l" {
    type = int
  }
  index "pg` + "`" + `o'nly_idx" {
    columns = ["c` + "`" + `o'l"]
  }
  tidb {
    skip = true
  }
}

table "ti\"d'b" {
  column "c\"o'l" {
    type = int
  }
  index "ti\"d'b_idx" {
    columns = ["c\"o'l"]
  }
  postgres {
    skip = true
  }
}
`

// TestOddNamesEveryCommand takes names holding quotes (oddNames) through
// generate, migrate diff, apply, a second diff that changes such objects,
// apply, drift and import, on both databases. A name holding the quote its
// dialect quotes names with is refused where it is written
// (TestQuoteInNameRefused; issue 29: TiDB's second diff failed with Error
// 1064, a statement Atlas built without doubling the backtick).
func TestOddNamesEveryCommand(t *testing.T) {
	dir := project(t, oddNames)
	cfg := testproject.AtlasHCL(dbtest.ServerURL(t, "postgres"), dbtest.ServerURL(t, "tidb"))
	if err := os.WriteFile(filepath.Join(dir, "atlas.hcl"), []byte(cfg), 0o644); err != nil {
		t.Fatal(err)
	}
	t.Setenv("XDG_CACHE_HOME", t.TempDir())
	live := map[string]*dbtest.DB{"postgres": dbtest.Postgres(t), "tidb": dbtest.TiDB(t)}
	step := func(want int, args ...string) run {
		t.Helper()
		r := schemagen(t, dir, args...)
		if r.code != want {
			t.Fatalf("schemagen %s: exit %d, want %d\n%s%s", strings.Join(args, " "), r.code, want, r.stdout, r.stderr)
		}
		return r
	}
	m := func(args ...string) []string {
		return append([]string{"migrate", "--config", filepath.Join(dir, "atlas.hcl")}, args...)
	}
	applyAll := func() {
		t.Helper()
		for d, db := range live {
			// TiDB's lock is the server's, which other tests share.
			step(0, m("apply", "--env", d, "--url", db.URL, "--lock-timeout", "10m")...)
			// Rows, so that the next apply's pre-checks read these tables.
			for _, table := range []string{"pa'r'ent", "we'ird"} {
				q := map[string]string{
					"postgres": `INSERT INTO "@" ("id") SELECT coalesce(max("id"), 0) + 1 FROM "@"`,
					"tidb":     "INSERT INTO `@` (`id`) SELECT coalesce(max(`id`), 0) + 1 FROM `@`",
				}[d]
				if _, err := db.Exec(strings.ReplaceAll(q, "@", table)); err != nil {
					t.Fatalf("%s: %v", d, err)
				}
			}
		}
	}
	drift := func() {
		t.Helper()
		for d, db := range live {
			if r := step(0, "drift", "--config", filepath.Join(dir, "atlas.hcl"), "--env", d, "--url", db.URL); !strings.Contains(r.stdout, "no drift") {
				t.Errorf("%s: drift:\n%s", d, r.stdout)
			}
		}
	}

	step(0, "generate", "--out", "OUT")
	step(0, m("diff", "init")...)
	applyAll()
	drift()

	// A second diff over the names: a column added, one renamed, one
	// retyped, an index and a check changed, the foreign key's actions.
	src := read(t, filepath.Join(dir, "schema.hcl"))
	for _, r := range [][2]string{
		{`type    = int
    default = 1`, `type    = bigint
    default = 2`},
		{`columns = ["le'vel"]`, `columns = ["le'vel", "id"]`},
		{`expr = "id > 0"`, `expr = "id >= 1"`},
		{`  index "we'ird_idx" {`, `  unique "we'ird_uq" {
    columns = ["le'vel", "id"]
  }
  index "we'ird_idx" {`},
		{`ref_columns = ["id"]`, `ref_columns = ["id"]
    on_delete   = "cascade"`},
		{`column "na'me" {`, `column "ot'her" {
    type = text
    null = true
  }
  column "na'me" {`},
	} {
		if !strings.Contains(src, r[0]) {
			t.Fatalf("the model has no %q", r[0])
		}
		src = strings.Replace(src, r[0], r[1], 1)
	}
	if err := os.WriteFile(filepath.Join(dir, "schema.hcl"), []byte(src), 0o644); err != nil {
		t.Fatal(err)
	}
	step(0, "generate", "--out", "OUT")
	step(0, m("diff", "change")...)
	applyAll()
	drift()
	if r := step(0, m("diff", "--check")...); strings.Count(r.stdout, "no changes") != 2 {
		t.Errorf("diff --check:\n%s", r.stdout)
	}

	// import gives the names back, and the model it writes compiles.
	out := filepath.Join(t.TempDir(), "imported.hcl")
	step(0, "import", "--url", live["postgres"].URL, "--url", live["tidb"].URL, "--out", out)
	imported := read(t, out)
	for _, name := range []string{`we'ird`, `pa'r'ent_uq`, `we'ird_fk`, `we'ird_ck`, `ot'her`, `pg` + "`" + `o'nly_idx`, `ti\"d'b_idx`} {
		if !strings.Contains(imported, `"`+name+`"`) {
			t.Errorf("the imported model lacks %q:\n%s", name, imported)
		}
	}
}
