package gen_test

import (
	"context"
	"database/sql"
	"os"
	"slices"
	"strings"
	"testing"

	"github.com/schemagen/schemagen/dialects/postgres"
	"github.com/schemagen/schemagen/dialects/tidb"
	"github.com/schemagen/schemagen/internal/dbtest"
	"github.com/schemagen/schemagen/internal/gen"
)

// everydayStep is a statement run on both databases (in the text of each
// where they differ), with the outcome both must give: "ok", or "refused";
// a query's rows are compared between the databases and with rows.
type everydayStep struct {
	sql, pg, tidb string
	want          string
	rows          []string
}

func (s everydayStep) text(d string) string {
	switch {
	case d == postgres.Name && s.pg != "":
		return s.pg
	case d == tidb.Name && s.tidb != "":
		return s.tidb
	}
	return s.sql
}

// everydaySteps are the statements of TestEverydayConstructs: identity
// values, enum refusals (issue 19).
var everydaySteps = []everydayStep{
	// Identity: the database numbers rows from start, one after another.
	{sql: "INSERT INTO accounts (name) VALUES ('a')", want: "ok"},
	{sql: "INSERT INTO accounts (name) VALUES ('b')", want: "ok"},
	{sql: "INSERT INTO invoices (account_id, total) VALUES (1, 10)", want: "ok"},
	// A refused row takes a number on both (PostgreSQL's nextval and TiDB's
	// allocation happen before the CHECK).
	{sql: "INSERT INTO invoices (account_id, total) VALUES (1, -1)", want: "refused"},
	{sql: "INSERT INTO invoices (account_id, total) VALUES (2, 20)", want: "ok"},
	{sql: "SELECT id, account_id, total FROM invoices ORDER BY id", rows: []string{"1000 1 10.00", "1002 2 20.00"}},
	{sql: "SELECT id, name FROM accounts ORDER BY id", rows: []string{"1 a", "2 b"}},
	// An UPDATE of another column keeps the id.
	{sql: "UPDATE accounts SET name = 'c' WHERE id = 2", want: "ok"},
	{sql: "SELECT id, name FROM accounts ORDER BY id", rows: []string{"1 a", "2 c"}},
	// Enum: one enum in two tables; values it lacks are refused alike,
	// ORDER BY follows the declared order.
	{sql: "UPDATE invoices SET status = 'paid' WHERE id = 1000", want: "ok"},
	{sql: "UPDATE invoices SET status = 'lost' WHERE id = 1000", want: "refused"},
	{sql: "UPDATE invoices SET status = 'PAID' WHERE id = 1000", want: "refused"},
	{sql: "UPDATE invoices SET status = '' WHERE id = 1000", want: "refused"},
	{sql: "UPDATE invoices SET status = 'cancelled' WHERE id = 1002", want: "refused"},
	{sql: "INSERT INTO invoices (account_id, total, status) VALUES (1, 0, 'cancelled')", want: "ok"},
	{sql: "SELECT id, status FROM invoices ORDER BY status, id", rows: []string{"1002 NULL", "1000 paid", "1003 cancelled"}, pg: "SELECT id, status FROM invoices ORDER BY status NULLS FIRST, id"},
	{sql: "SELECT id FROM invoices WHERE status IN ('paid', 'cancelled') ORDER BY id", rows: []string{"1000", "1003"}},
}

// TestEverydayConstructs applies testdata/everyday.hcl, which uses the
// everyday column kinds together, on fresh PostgreSQL and TiDB databases and
// runs the same statements on both, with the same results.
func TestEverydayConstructs(t *testing.T) {
	src, err := os.ReadFile("testdata/everyday.hcl")
	if err != nil {
		t.Fatal(err)
	}
	res := gen.CompileSource("everyday.hcl", src)
	if res.Failed() {
		t.Fatalf("everyday.hcl does not compile: %v", res.Diags)
	}
	dbs := []*dbtest.DB{dbtest.Postgres(t), dbtest.TiDB(t)}
	for _, db := range dbs {
		apply(t, db, res.Outputs[db.Dialect].SQL)
	}
	ctx := context.Background()
	for i, s := range everydaySteps {
		var got [2][]string
		for k, db := range dbs {
			q := s.text(db.Dialect)
			if s.rows != nil {
				got[k] = queryRows(t, ctx, db.DB, q)
				if !slices.Equal(got[k], s.rows) {
					t.Errorf("step %d, %s: %s\n got  %q\n want %q", i+1, db.Dialect, q, got[k], s.rows)
				}
				continue
			}
			_, err := db.ExecContext(ctx, q)
			outcome := "ok"
			if err != nil {
				outcome = "refused"
			}
			if outcome != s.want {
				t.Errorf("step %d, %s: %s: %s (%v), want %s", i+1, db.Dialect, q, outcome, err, s.want)
			}
		}
	}
}

// queryRows reads a query's rows, each as its values joined by spaces.
func queryRows(t *testing.T, ctx context.Context, db *sql.DB, q string) []string {
	t.Helper()
	rs, err := db.QueryContext(ctx, q)
	if err != nil {
		t.Fatalf("%s: %v", q, err)
	}
	defer rs.Close()
	cols, _ := rs.Columns()
	out := []string{}
	for rs.Next() {
		vs := make([]sql.NullString, len(cols))
		ptrs := make([]any, len(vs))
		for i := range vs {
			ptrs[i] = &vs[i]
		}
		if err := rs.Scan(ptrs...); err != nil {
			t.Fatal(err)
		}
		parts := make([]string, len(vs))
		for i, v := range vs {
			parts[i] = v.String
			if !v.Valid {
				parts[i] = "NULL"
			}
		}
		out = append(out, strings.Join(parts, " "))
	}
	if err := rs.Err(); err != nil {
		t.Fatal(err)
	}
	return out
}
