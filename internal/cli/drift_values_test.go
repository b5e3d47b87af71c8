package cli_test

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/schemagen/schemagen/internal/dbtest"
)

// Drift shows the two sides' values alike: a string default changed by hand
// on TiDB reads DEFAULT 'USD' against DEFAULT 'EUR', both quoted.
func TestDriftPrintsDefaultsAlike(t *testing.T) {
	model := `table "accounts" {
  column "id" {
    type = int
  }
  column "currency" {
    type    = varchar(3)
    default = "EUR"
  }
  primary_key {
    columns = ["id"]
  }
}
`
	pg, ti := dbtest.Postgres(t), dbtest.TiDB(t)
	dir := project(t, model)
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
	if r := schemagen(t, dir, "generate", "--out", "OUT"); r.code != 0 {
		t.Fatal(r.stderr)
	}
	t.Chdir(dir)
	if r := migrate(t, dir, "diff", "init"); r.code != 0 {
		t.Fatalf("diff: %d\n%s", r.code, r.stderr)
	}
	if r := migrate(t, dir, "apply", "--all", "-q"); r.code != 0 {
		t.Fatalf("apply: %d\n%s", r.code, r.stderr)
	}
	if _, err := ti.Exec("ALTER TABLE accounts ALTER COLUMN currency SET DEFAULT 'USD'"); err != nil {
		t.Fatal(err)
	}
	if _, err := pg.Exec("ALTER TABLE accounts ALTER COLUMN currency SET DEFAULT 'USD'"); err != nil {
		t.Fatal(err)
	}
	for _, env := range []string{"tidb", "postgres"} {
		r := schemagen(t, dir, "drift", "--config", filepath.Join(dir, "atlas.hcl"), "--env", env, "--no-cache")
		if r.code != 1 {
			t.Errorf("%s drift: exit %d\n%s%s", env, r.code, r.stdout, r.stderr)
		}
		t.Logf("%s drift:\n%s", env, r.stdout)
		for _, line := range strings.Split(r.stdout, "\n") {
			if !strings.Contains(line, "column accounts.currency differs") {
				continue
			}
			exp, found, ok := strings.Cut(line, ", found ")
			if !ok {
				t.Errorf("%s: %s", env, line)
				continue
			}
			if !strings.Contains(exp, "'EUR'") || !strings.Contains(found, "'USD'") {
				t.Errorf("%s: the two sides print the default differently: %s", env, line)
			}
		}
		if !strings.Contains(r.stdout, "column accounts.currency differs") {
			t.Errorf("%s: no finding for the default:\n%s", env, r.stdout)
		}
	}
}
