package cli_test

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/schemagen/schemagen/internal/dbtest"
	"github.com/schemagen/schemagen/internal/testproject"
)

// TestDataMigrationBadInput: a portable data migration that names what the
// model lacks, mixes kinds, or uses SQL with no portable form gives an
// error at its file, line and column, and generate writes nothing.
func TestDataMigrationBadInput(t *testing.T) {
	dir := project(t, model)
	config := filepath.Join(dir, "atlas.hcl")
	if err := os.WriteFile(config, []byte(testproject.AtlasHCL(dbtest.ServerURL(t, "postgres"), dbtest.ServerURL(t, "tidb"))), 0o644); err != nil {
		t.Fatal(err)
	}
	t.Setenv("XDG_CACHE_HOME", t.TempDir())
	// The portable file is checked against the schema the files before it
	// create: a first migration, of an older version, creates the model's
	// tables.
	if r := schemagen(t, dir, "generate", "--out", "OUT", "--config", config, "-q"); r.code != 0 {
		t.Fatal(r.stderr)
	}
	sums := map[string]string{}
	for _, d := range []string{"postgres", "tidb"} {
		mdir := filepath.Join(dir, "migrations", d)
		if err := os.MkdirAll(mdir, 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(filepath.Join(mdir, "20260101000001_init.sql"), []byte(read(t, filepath.Join(dir, "generated", d, "schema.sql"))), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	if r := migrate(t, dir, "hash"); r.code != 0 {
		t.Fatalf("migrate hash: exit %d\n%s", r.code, r.stderr)
	}
	for _, d := range []string{"postgres", "tidb"} {
		sums[d] = read(t, filepath.Join(dir, "migrations", d, "atlas.sum"))
	}
	portable := filepath.Join(dir, "migrations", "portable", "20260101000002_fix.sql")
	if err := os.MkdirAll(filepath.Dir(portable), 0o755); err != nil {
		t.Fatal(err)
	}
	for _, c := range []struct {
		src  string
		want []string
	}{
		{"-- fix the states\nUPDATE items SET state = 'done'\nWHERE sate = 'open';\n",
			[]string{"20260101000002_fix.sql:3:7: error: Invalid data migration", `Unknown column "sate": no table of the query (items) has it.`}},
		{"INSERT INTO items (id, state) SELECT i.id, i.nope FROM items i;",
			[]string{"20260101000002_fix.sql:1:44:", `Unknown column "nope" in table "items" (alias i).`}},
		{"DELETE FROM itmes WHERE id = 1;",
			[]string{"20260101000002_fix.sql:1:13:", `Unknown table "itmes".`}},
		{"UPDATE items SET id = state;",
			[]string{"20260101000002_fix.sql:1:23:", "Type mismatch: items.id is uuid, the value is string."}},
		{"UPDATE items SET state = 'seventeen chars!!'\nWHERE state = 'new';",
			[]string{"20260101000002_fix.sql:1:26:", "The value does not fit items.state (varchar(16)): the string has 17 characters, the column holds 16."}},
		{"UPDATE items SET state = 'x'\n  WHERE id = 'one';",
			[]string{"20260101000002_fix.sql:2:14:", "'one' is not a UUID as both databases read it"}},
		{"UPDATE items SET state = 'x' WHERE state = 1;",
			[]string{"20260101000002_fix.sql:1:44:", "= compares string with integer."}},
		{"UPDATE items SET state = 'x' WHERE id IN (SELECT DISTINCT i.id FROM items i);",
			[]string{"20260101000002_fix.sql:1:50:", "SELECT DISTINCT has no portable form here."}},
		{"INSERT INTO items (id, state) SELECT a.id, b.state FROM items a RIGHT JOIN items b ON b.id = a.id;",
			[]string{"20260101000002_fix.sql:1:65:", "RIGHT JOIN has no portable form here; write an inner or a left join."}},
		{"UPDATE items SET state = CAST(id AS varchar(10));",
			[]string{"20260101000002_fix.sql:1:26:", "A cast to varchar(10) has no portable form"}},
		{"UPDATE items SET state = 'x' WHERE id / 2 = 1;",
			[]string{"20260101000002_fix.sql:1:39:", "Division is not portable"}},
		{"ASSERT NOT EXISTS (SELECT 1 FROM items WHERE state = 'open') MESSAGE '';",
			[]string{"20260101000002_fix.sql:1:70:", "The message is empty"}},
		{"CREATE TABLE t (id int);",
			[]string{"20260101000002_fix.sql:1:1:", "CREATE has no place in a portable data migration"}},
	} {
		if err := os.WriteFile(portable, []byte(c.src), 0o644); err != nil {
			t.Fatal(err)
		}
		r := schemagen(t, dir, "generate", "--out", "OUT", "--config", config, "--color", "never")
		if r.code != 1 {
			t.Errorf("%q: exit %d, want 1\n%s", c.src, r.code, r.stderr)
		}
		wantIn(t, "stderr of "+c.src, r.stderr, c.want...)
		for _, d := range []string{"postgres", "tidb"} {
			if _, err := os.Stat(filepath.Join(dir, "migrations", d, "20260101000002_fix.sql")); !os.IsNotExist(err) {
				t.Errorf("%q: generate rendered the file for %s", c.src, d)
			}
			if got := read(t, filepath.Join(dir, "migrations", d, "atlas.sum")); got != sums[d] {
				t.Errorf("%q: generate rewrote the atlas.sum of %s", c.src, d)
			}
		}
		if strings.Count(r.stderr, "error:") != 1 {
			t.Errorf("%q: want one error:\n%s", c.src, r.stderr)
		}
	}
}
