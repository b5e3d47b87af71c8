package cli_test

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/schemagen/schemagen/internal/dbtest"
)

const decimalModel = `table "prices" {
  column "id" {
    type = int
  }
  column "price" {
    type = decimal(14,2)
  }
  primary_key {
    columns = ["id"]
  }
}
`

// Narrowing a decimal's scale rounds on both databases (20.05 becomes 20.1),
// and the migration says so; narrowing its integer digits can fail, and
// TiDB's pre-check (TD103) names the rows before anything runs.
func TestDecimalNarrowing(t *testing.T) {
	pg, ti := dbtest.Postgres(t), dbtest.TiDB(t)
	dir := project(t, decimalModel)
	cfg := fmt.Sprintf(`
env "postgres" {
  src = "file://generated/postgres/schema.sql"
  dev = %q
  url = %q
  migration {
    dir = "file://migrations/postgres"
  }
}
env "tidb" {
  src = "file://generated/tidb/schema.sql"
  dev = %q
  url = %q
  migration {
    dir = "file://migrations/tidb"
  }
}
`, dbtest.ServerURL(t, "postgres"), pg.URL, dbtest.ServerURL(t, "tidb"), ti.URL)
	os.WriteFile(filepath.Join(dir, "atlas.hcl"), []byte(cfg), 0o644)
	t.Setenv("XDG_CACHE_HOME", t.TempDir())
	step := func(model, name string) (pgFile, tiFile string) {
		t.Helper()
		os.WriteFile(filepath.Join(dir, "schema.hcl"), []byte(model), 0o644)
		if r := schemagen(t, dir, "generate", "--out", "OUT"); r.code != 0 {
			t.Fatal(r.stderr)
		}
		t.Chdir(dir) // the env's src is relative to atlas.hcl's directory
		if r := migrate(t, dir, "diff", name); r.code != 0 {
			t.Fatalf("diff %s: exit %d\n%s", name, r.code, r.stderr)
		}
		pgs, _ := filepath.Glob(filepath.Join(dir, "migrations/postgres/*_"+name+".sql"))
		tis, _ := filepath.Glob(filepath.Join(dir, "migrations/tidb/*_"+name+".sql"))
		if len(pgs) != 1 || len(tis) != 1 {
			t.Fatalf("files %v %v", pgs, tis)
		}
		return read(t, pgs[0]), read(t, tis[0])
	}
	step(decimalModel, "init")
	if r := migrate(t, dir, "apply", "--all"); r.code != 0 {
		t.Fatalf("apply: %d\n%s", r.code, r.stderr)
	}
	for _, db := range []*dbtest.DB{pg, ti} {
		if _, err := db.Exec("INSERT INTO prices VALUES (1, 20.05)"); err != nil {
			t.Fatal(err)
		}
	}

	p, x := step(strings.Replace(decimalModel, "decimal(14,2)", "decimal(14,1)", 1), "scale")
	for _, f := range []string{p, x} {
		wantIn(t, "the scale migration", f, "the values of column price are rounded to 1 decimal place, silently (20.05 becomes 20.1)")
		// The CHECKs over the column, added again, have their pre-checks;
		// the type change none.
		if strings.Contains(f, "can fail on existing rows") || strings.Contains(f, "schemagen:precheck values of") {
			t.Errorf("a scale narrowing that cannot fail says it can:\n%s", f)
		}
	}
	if r := migrate(t, dir, "apply", "--all", "-q"); r.code != 0 {
		t.Fatalf("apply: %d\n%s", r.code, r.stderr)
	}
	for _, db := range []*dbtest.DB{pg, ti} {
		var v string
		if err := db.QueryRow("SELECT CAST(price AS CHAR(20)) FROM prices WHERE id = 1").Scan(&v); err != nil {
			if err := db.QueryRow("SELECT price::text FROM prices WHERE id = 1").Scan(&v); err != nil {
				t.Fatal(err)
			}
		}
		if v = strings.TrimSpace(v); v != "20.1" {
			t.Errorf("20.05 became %s", v)
		}
		if _, err := db.Exec("INSERT INTO prices VALUES (2, 123.4)"); err != nil {
			t.Fatal(err)
		}
	}

	p, x = step(strings.Replace(decimalModel, "decimal(14,2)", "decimal(3,1)", 1), "digits")
	for _, f := range []string{p, x} {
		wantIn(t, "the digits migration", f, "a value of price needing more than 2 digits before the point, once rounded, makes it fail")
	}
	wantIn(t, "the TiDB digits migration", x, "-- schemagen:precheck values of prices.price that its new type refuses: SELECT `price` FROM `prices` WHERE ABS(ROUND(`price`, 1)) >= 100 LIMIT 10")
	r := migrate(t, dir, "apply", "--env", "tidb")
	if r.code != 1 {
		t.Errorf("TiDB apply: exit %d, want 1", r.code)
	}
	wantIn(t, "TiDB apply", r.stderr, "price=123.4")
	r = migrate(t, dir, "apply", "--env", "postgres")
	if r.code != 1 {
		t.Errorf("PostgreSQL apply: exit %d, want 1", r.code)
	}
	wantIn(t, "PostgreSQL apply", r.stderr, "numeric field overflow", "DETAIL: A field with precision 3, scale 1 must round to an absolute value less than 10^2.")
}
