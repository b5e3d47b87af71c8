package tidb_test

import (
	"context"
	"fmt"
	"github.com/schemagen/schemagen/compiler"
	"strings"
	"testing"

	"ariga.io/atlas/sql/migrate"
	"github.com/schemagen/schemagen/dialects/postgres"
	"github.com/schemagen/schemagen/dialects/tidb"
	"github.com/schemagen/schemagen/internal/dbtest"
	"github.com/schemagen/schemagen/internal/gen"
)

// chain is a model of n tables, each with a row key to the one before it
// that cascades deletes, and the name of each table's key.
func chain(n int) (string, []string) {
	var b strings.Builder
	var keys []string
	for i := range n {
		fmt.Fprintf(&b, "table \"t%d\" {\n  column \"id\" {\n    type = int\n  }\n", i)
		if i > 0 {
			fmt.Fprintf(&b, "  column \"up\" {\n    type = int\n  }\n  foreign_key \"t%d_up_fk\" {\n    columns     = [\"up\"]\n    ref_table   = \"t%d\"\n    ref_columns = [\"id\"]\n    on_delete   = \"cascade\"\n  }\n", i, i-1)
			keys = append(keys, fmt.Sprintf("t%d_up_fk", i))
		}
		b.WriteString("  primary_key {\n    columns = [\"id\"]\n  }\n}\n\n")
	}
	return b.String(), keys
}

// TestCascadeChain shows the depth limit of TiDB's cascades on chains of
// tables, on the real servers: a DELETE at the start of a chain of 16
// cascading keys with a row at every level fails on TiDB (3008) and not on
// PostgreSQL, one of 15 passes on both; and the TiDB file names the limit
// on the 16th key and on none before it (PostgreSQL's names nothing).
func TestCascadeChain(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	for _, tc := range []struct {
		tables  int
		refused bool
	}{{16, false}, {17, true}} {
		src, keys := chain(tc.tables)
		res := gen.CompileSource("schema.hcl", []byte(src))
		if res.Failed() {
			t.Fatal(res.Diags)
		}
		noted := map[string]bool{}
		for _, d := range res.Outputs[tidb.Name].Decisions {
			if d.Object.Kind == compiler.KindForeignKey && strings.Contains(d.Text, "error 3008") {
				noted[d.Object.Name] = true
			}
		}
		for i, k := range keys {
			if want := i+1 > 15; noted[k] != want {
				t.Errorf("%d tables: key %s (level %d) named the limit: %v, want %v", tc.tables, k, i+1, noted[k], want)
			}
		}
		for _, d := range res.Outputs[postgres.Name].Decisions {
			if strings.Contains(d.Text, "3008") {
				t.Errorf("the PostgreSQL file names TiDB's limit: %s", d.Text)
			}
		}
		for _, dialect := range []string{postgres.Name, tidb.Name} {
			db := dbtest.New(t, dialect)
			stmts, err := migrate.Stmts(string(res.Outputs[dialect].SQL))
			if err != nil {
				t.Fatal(err)
			}
			for _, st := range stmts {
				if _, err := db.ExecContext(ctx, st.Text); err != nil {
					t.Fatalf("%s: %v\n%s", dialect, err, st.Text)
				}
			}
			for i := range tc.tables {
				q := fmt.Sprintf("INSERT INTO t%d (id) VALUES (1)", i)
				if i > 0 {
					q = fmt.Sprintf("INSERT INTO t%d (id, up) VALUES (1, 1)", i)
				}
				if _, err := db.ExecContext(ctx, q); err != nil {
					t.Fatalf("%s: %s: %v", dialect, q, err)
				}
			}
			_, err = db.ExecContext(ctx, "DELETE FROM t0")
			refused := err != nil && strings.Contains(err.Error(), "3008")
			if want := tc.refused && dialect == tidb.Name; refused != want || err != nil && !refused {
				t.Errorf("%s, %d tables: DELETE at the chain's start: %v, want refused by the depth limit: %v", dialect, tc.tables, err, want)
			}
		}
	}
}
