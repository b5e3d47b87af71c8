package dialects_test

import (
	"context"
	"fmt"
	"testing"

	"ariga.io/atlas/sql/migrate"

	"github.com/schemagen/schemagen/internal/dbtest"
)

// identityModel has an identity column beside a NOT NULL column, a CHECK,
// a unique key, a foreign key and a timestamp, whose value-domain CHECK
// refuses on one database what the other refuses as input.
const identityModel = `
table "p" {
  column "id" {
    type = int
  }
  primary_key {
    columns = ["id"]
  }
}

table "t" {
  column "id" {
    type = bigint
    identity {}
  }
  column "n" {
    type = int
  }
  column "u" {
    type = int
    null = true
  }
  column "c" {
    type = int
    null = true
  }
  column "p" {
    type = int
    null = true
  }
  column "ts" {
    type = timestamp(6)
    null = true
  }
  primary_key {
    columns = ["id"]
  }
  unique "t_u_key" {
    columns = ["u"]
  }
  check "t_c_ck" {
    expr = "c > 0"
  }
  foreign_key "t_p_fkey" {
    columns     = ["p"]
    ref_table   = "p"
    ref_columns = ["id"]
  }
}
`

// refusedInserts are INSERTs both databases refuse, and which of them
// takes an identity value for the refused row, as docs/semantics.md
// ("Identity after a refused INSERT") says.
var refusedInserts = []struct {
	what, cols, vals string
	takes            map[string]bool
}{
	{"a CHECK", "n, c", "1, -1", map[string]bool{"postgres": true, "tidb": true}},
	{"a unique key", "n, u", "1, 5", map[string]bool{"postgres": true, "tidb": true}},
	{"a foreign key", "n, p", "1, 42", map[string]bool{"postgres": true, "tidb": true}},
	{"an integer out of range", "n", "99999999999", map[string]bool{}},
	{"an integer written as a word", "n", "'abc'", map[string]bool{}},
	{"NULL in a NOT NULL column", "n", "NULL", map[string]bool{"postgres": true}},
	{"NULL in a NOT NULL column, and a duplicate", "n, u", "NULL, 5", map[string]bool{"postgres": true}},
	{"year 0: PostgreSQL's input, TiDB's value-domain CHECK", "n, ts", "1, '0000-01-01 00:00:00'", map[string]bool{"tidb": true}},
	{"year 10000: TiDB's input, PostgreSQL's value-domain CHECK", "n, ts", "1, '10000-01-01 00:00:00'", map[string]bool{"postgres": true}},
}

// TestIdentityAfterRefusedInsert shows, on both real servers, which refused
// INSERTs take an identity value (PostgreSQL's sequence, TiDB's
// AUTO_INCREMENT with AUTO_ID_CACHE = 1): the difference the differential
// tester allows for by setting both to the same next value after an INSERT
// both refused, and which generate's comment on identity columns names.
// Should a server change, this test fails and the documentation with it.
func TestIdentityAfterRefusedInsert(t *testing.T) {
	ctx := context.Background()
	for _, d := range []string{"postgres", "tidb"} {
		t.Run(d, func(t *testing.T) {
			db := dbtest.New(t, d)
			conn, err := db.Conn(ctx)
			if err != nil {
				t.Fatal(err)
			}
			defer conn.Close()
			ddl, diags := generate(t, d, identityModel)
			if diags.HasErrors() {
				t.Fatal(diags)
			}
			stmts, err := migrate.Stmts(ddl)
			if err != nil {
				t.Fatal(err)
			}
			for _, st := range stmts {
				if _, err := conn.ExecContext(ctx, st.Text); err != nil {
					t.Fatalf("%v\n%s", err, ddl)
				}
			}
			good := func() int64 {
				t.Helper()
				if _, err := conn.ExecContext(ctx, "INSERT INTO t (n) VALUES (1)"); err != nil {
					t.Fatal(err)
				}
				var id int64
				if err := conn.QueryRowContext(ctx, "SELECT MAX(id) FROM t").Scan(&id); err != nil {
					t.Fatal(err)
				}
				return id
			}
			if _, err := conn.ExecContext(ctx, "INSERT INTO t (n, u) VALUES (1, 5)"); err != nil {
				t.Fatal(err)
			}
			last := int64(1)
			for _, c := range refusedInserts {
				_, err := conn.ExecContext(ctx, fmt.Sprintf("INSERT INTO t (%s) VALUES (%s)", c.cols, c.vals))
				if err == nil {
					t.Fatalf("%s: the INSERT is not refused", c.what)
				}
				id := good()
				want := last + 1
				if c.takes[d] {
					want++
				}
				if id != want {
					t.Errorf("%s (%v): the next row has id %d after %d, want %d (the refused row takes an id: %v)", c.what, err, id, last, want, c.takes[d])
				}
				last = id
			}
		})
	}
}
