package scratch_test

import (
	"context"
	"errors"
	"strings"
	"testing"

	"ariga.io/atlas/sql/migrate"

	"github.com/schemagen/schemagen/dialects/all"
	"github.com/schemagen/schemagen/internal/dbtest"
	"github.com/schemagen/schemagen/internal/scratch"
)

// TestReplay: Atlas's executor runs the files in order, split by the
// dialect's scanner (a ; inside a dollar-quoted body or a backslash-escaped
// string does not end a statement), and a refused statement is reported by
// file path and 1-based number.
func TestReplay(t *testing.T) {
	files := map[string][]string{
		"postgres": {
			"CREATE TABLE t (id int PRIMARY KEY);\nCREATE FUNCTION f() RETURNS int LANGUAGE plpgsql AS $$ BEGIN RETURN 1; END; $$;\n",
			"INSERT INTO t VALUES (f());\nALTER TABLE t ADD COLUMN note text DEFAULT 'a;b';\nINSERT INTO t VALUES (1);\n",
		},
		"tidb": {
			"CREATE TABLE t (id int PRIMARY KEY);\nCREATE TABLE u (s varchar(20) DEFAULT 'it\\'s; fine');\n",
			"INSERT INTO t VALUES (1);\nINSERT INTO u VALUES (DEFAULT);\nINSERT INTO t VALUES (1);\n",
		},
	}
	for name, srcs := range files {
		t.Run(name, func(t *testing.T) {
			t.Parallel()
			d := all.Get(name)
			db := dbtest.New(t, name)
			drv, err := d.OpenAtlas(db.DB)
			if err != nil {
				t.Fatal(err)
			}
			mf := []migrate.File{
				migrate.NewLocalFile("1_a.sql", []byte(srcs[0])),
				migrate.NewLocalFile("2_b.sql", []byte(srcs[1])),
			}
			err = scratch.Replay(context.Background(), drv, mf, []string{"dir/1_a.sql", "dir/2_b.sql"})
			var ee *scratch.ExecError
			if !errors.As(err, &ee) {
				t.Fatalf("Replay = %v, want an *ExecError", err)
			}
			if ee.Source != "dir/2_b.sql" || ee.Stmt != 3 || !strings.HasPrefix(ee.SQL, "INSERT INTO t VALUES (1)") {
				t.Errorf("ExecError at %s statement %d (%q), want dir/2_b.sql statement 3", ee.Source, ee.Stmt, ee.SQL)
			}
			// Statements 1 and 2 of the second file ran.
			var n int
			if err := db.QueryRow("SELECT COUNT(*) FROM t").Scan(&n); err != nil || n != 1 {
				t.Errorf("t has %d rows (%v), want 1", n, err)
			}
			// A file the scanner refuses is named by its path.
			bad := []migrate.File{migrate.NewLocalFile("3_c.sql", []byte("SELECT (1;\n"))}
			err = scratch.Replay(context.Background(), drv, bad, []string{"dir/3_c.sql"})
			if err == nil || !strings.HasPrefix(err.Error(), "dir/3_c.sql: ") || !strings.Contains(err.Error(), "unclosed '('") {
				t.Errorf("Replay of an unclosed parenthesis = %v, want an error naming dir/3_c.sql", err)
			}
		})
	}
}
