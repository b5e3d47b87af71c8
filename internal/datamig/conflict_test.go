package datamig_test

import (
	"errors"
	"strings"
	"testing"
	"unicode/utf8"

	"ariga.io/atlas/sql/migrate"
	"github.com/go-sql-driver/mysql"
	"github.com/jackc/pgx/v5/pgconn"

	"github.com/schemagen/schemagen/compiler"
	"github.com/schemagen/schemagen/compiler/expr/parse"
	"github.com/schemagen/schemagen/dialects"
	"github.com/schemagen/schemagen/dialects/postgres"
	"github.com/schemagen/schemagen/dialects/tidb"
	"github.com/schemagen/schemagen/internal/datamig"
	"github.com/schemagen/schemagen/internal/dbtest"
	"github.com/schemagen/schemagen/internal/gen"
)

const conflictModel = `
table "items" {
  column "id" {
    type = int
  }
  column "code" {
    type = varchar(10)
  }
  column "qty" {
    type = int
  }
  column "level" {
    type    = int
    default = 1
  }
  column "tag" {
    type = varchar(5)
    null = true
  }
  primary_key {
    columns = ["id"]
  }
  check "items_tag_ck" {
    expr = "tag IS NOT NULL OR qty < 50"
  }
  check "items_level_ck" {
    expr = "qty <= level * 100"
  }
  unique "items_code_uq" {
    columns = ["code"]
  }
  check "items_qty_ck" {
    expr = "qty >= 0"
  }
}
table "incoming" {
  column "id" {
    type = int
  }
  column "code" {
    type = varchar(10)
    null = true
  }
  column "qty" {
    type = int
  }
  primary_key {
    columns = ["id"]
  }
}
`

// pair is one database of each dialect holding a model's tables.
type pair struct {
	pg, ti *dbtest.DB
	schema *compiler.Schema
	out    map[string]*dialects.Output
}

func newPair(t *testing.T, model string) *pair {
	t.Helper()
	r := gen.CompileSource("schema.hcl", []byte(model))
	if r.Failed() {
		t.Fatal(r.Diags)
	}
	p := &pair{pg: dbtest.Postgres(t), ti: dbtest.TiDB(t), schema: r.Schema, out: r.Outputs}
	for _, db := range []*dbtest.DB{p.pg, p.ti} {
		stmts, err := migrate.Stmts(string(r.Outputs[db.Dialect].SQL))
		if err != nil {
			t.Fatal(err)
		}
		for _, s := range stmts {
			if _, err := db.Exec(s.Text); err != nil {
				t.Fatalf("%s: %s: %v", db.Dialect, s.Text, err)
			}
		}
	}
	return p
}

// exec runs the same plain SQL on both.
func (p *pair) exec(t *testing.T, qs ...string) {
	t.Helper()
	for _, q := range qs {
		for _, db := range []*dbtest.DB{p.pg, p.ti} {
			if _, err := db.Exec(q); err != nil {
				t.Fatalf("%s: %s: %v", db.Dialect, q, err)
			}
		}
	}
}

// outcome is what one rendered statement did on one database.
type outcome struct {
	rows int64
	err  error
}

// run renders the portable statement src for each dialect and runs it.
func (p *pair) run(t *testing.T, src string) (pg, ti outcome) {
	t.Helper()
	stmts, diags := datamig.Compile("data.sql", []byte(src), p.schema)
	if diags.HasErrors() {
		t.Fatalf("%s: %v", src, diags)
	}
	do := func(d dialects.DataRenderer, db *dbtest.DB) outcome {
		sqls := d.RenderData(stmts, datamig.Catalog(p.schema), p.out[db.Dialect].Exprs)
		if len(sqls) != 1 {
			t.Fatalf("%d statements rendered from %s", len(sqls), src)
		}
		res, err := db.Exec(sqls[0])
		if err != nil {
			t.Logf("%s: %s\n  -> %v", db.Dialect, sqls[0], err)
			return outcome{-1, err}
		}
		n, _ := res.RowsAffected()
		return outcome{n, nil}
	}
	return do(postgres.Dialect{}, p.pg), do(tidb.Dialect{}, p.ti)
}

func (p *pair) count(t *testing.T, q string) (pg, ti int) {
	t.Helper()
	if err := p.pg.QueryRow(q).Scan(&pg); err != nil {
		t.Fatal(err)
	}
	if err := p.ti.QueryRow(q).Scan(&ti); err != nil {
		t.Fatal(err)
	}
	return pg, ti
}

func isCheck(err error) bool {
	var pe *pgconn.PgError
	var me *mysql.MySQLError
	return errors.As(err, &pe) && pe.Code == "23514" || errors.As(err, &me) && me.Number == 3819
}

// TestOnConflictDoNothing: on TiDB, INSERT ... ON CONFLICT DO NOTHING skips
// rows that duplicate a key (the primary key, another unique key, or a row
// of the same query) as PostgreSQL does, counting only the rows inserted,
// and still fails on a CHECK or NOT NULL violation, which INSERT IGNORE
// would turn into a warning and a skipped or clipped row.
func TestOnConflictDoNothing(t *testing.T) {
	t.Parallel()
	p := newPair(t, conflictModel)
	p.exec(t, "INSERT INTO items (id, code, qty) VALUES (1, 'a', 1), (2, 'b', 2)")
	backfill := "INSERT INTO items (id, code, qty) SELECT i.id, i.code, i.qty FROM incoming i WHERE i.id BETWEEN %s ON CONFLICT DO NOTHING"
	sql := func(r string) string { return strings.Replace(backfill, "%s", r, 1) }

	// 10: the primary key of row 1; 11: the code of row 2; 12, 13: one
	// code twice in the query; 14: new.
	p.exec(t, "INSERT INTO incoming (id, code, qty) VALUES (1, 'x', 5), (11, 'b', 5), (12, 'c', 5), (13, 'c', 5), (14, 'd', 5)")
	pg, ti := p.run(t, sql("1 AND 14"))
	if pg.err != nil || ti.err != nil || pg.rows != 2 || ti.rows != 2 {
		t.Errorf("duplicates: postgres %+v, tidb %+v; want 2 rows inserted on both (12 and 14)", pg, ti)
	}
	if a, b := p.count(t, "SELECT COUNT(*) FROM items"); a != 4 || b != 4 {
		t.Errorf("items: postgres %d, tidb %d rows, want 4", a, b)
	}
	if a, b := p.count(t, "SELECT COUNT(*) FROM items WHERE id = 1 AND code = 'a' AND qty = 1"); a != 1 || b != 1 {
		t.Errorf("the existing row 1 changed: postgres %d, tidb %d", a, b)
	}

	// A CHECK violation is an error, and nothing of the statement stays.
	p.exec(t, "INSERT INTO incoming (id, code, qty) VALUES (20, 'e', 1), (21, 'f', -1)")
	pg, ti = p.run(t, sql("20 AND 21"))
	if !isCheck(pg.err) || !isCheck(ti.err) {
		t.Errorf("a CHECK violation: postgres %v, tidb %v; want the CHECK's error on both", pg.err, ti.err)
	}
	if a, b := p.count(t, "SELECT COUNT(*) FROM items WHERE id >= 20"); a != 0 || b != 0 {
		t.Errorf("after the failed INSERT: postgres %d, tidb %d rows from it, want 0", a, b)
	}
	// A row that duplicates a key and breaks a CHECK fails too, as
	// PostgreSQL checks a row before it looks for a conflict: row 1's code
	// with qty -1, and row 10's key with qty 500, which breaks
	// items_level_ck with the default level (1) of the row PostgreSQL
	// builds, though not with row 10's level.
	p.exec(t, "UPDATE items SET level = 10 WHERE id = 1", "INSERT INTO incoming (id, code, qty) VALUES (40, 'a', -1), (41, 'x', 500)")
	for _, r := range []string{"40 AND 40", "41 AND 41"} {
		before, _ := p.count(t, "SELECT COUNT(*) FROM items WHERE id = 1 AND code = 'a' AND qty = 1 AND level = 10")
		pg, ti = p.run(t, strings.Replace(sql(r), "i.id,", map[string]string{"40 AND 40": "i.id + 100,", "41 AND 41": "1,"}[r], 1))
		if !isCheck(pg.err) || !isCheck(ti.err) {
			t.Errorf("a duplicate that breaks a CHECK (incoming %s): postgres %v, tidb %v; want the CHECK's error on both", r, pg.err, ti.err)
		}
		if a, b := p.count(t, "SELECT COUNT(*) FROM items WHERE id = 1 AND code = 'a' AND qty = 1 AND level = 10"); before != 1 || a != 1 || b != 1 {
			t.Errorf("row 1 changed: postgres %d, tidb %d", a, b)
		}
	}
	// The row PostgreSQL builds holds NULL in a column without a default
	// that the INSERT leaves out: row 2's key with qty 60 breaks
	// items_tag_ck there, though not with row 2's tag (plan oracle,
	// evolution 93737281213).
	p.exec(t, "UPDATE items SET tag = 't' WHERE id = 2", "INSERT INTO incoming (id, code, qty) VALUES (50, 'z', 60)")
	pg, ti = p.run(t, strings.Replace(sql("50 AND 50"), "i.id,", "2,", 1))
	if !isCheck(pg.err) || !isCheck(ti.err) {
		t.Errorf("a duplicate that breaks a CHECK by a column left out: postgres %v, tidb %v; want the CHECK's error on both", pg.err, ti.err)
	}
	if a, b := p.count(t, "SELECT COUNT(*) FROM items WHERE id = 2 AND code = 'b' AND qty = 2 AND tag = 't'"); a != 1 || b != 1 {
		t.Errorf("row 2 changed: postgres %d, tidb %d", a, b)
	}
	// And a NULL in a NOT NULL column the INSERT leaves out, though the
	// row duplicates a key.
	pg, ti = p.run(t, "INSERT INTO items (id, code) SELECT 2, 'zz' FROM incoming i WHERE i.id = 50 ON CONFLICT DO NOTHING")
	if pg.err == nil || ti.err == nil {
		t.Errorf("a duplicate without qty: postgres %v, tidb %v; want an error on both", pg.err, ti.err)
	}
	// So is a NULL in a NOT NULL column.
	p.exec(t, "INSERT INTO incoming (id, code, qty) VALUES (30, NULL, 1)")
	pg, ti = p.run(t, sql("30 AND 30"))
	if pg.err == nil || ti.err == nil {
		t.Errorf("a NULL code: postgres %v, tidb %v; want an error on both", pg.err, ti.err)
	}
}

// TestAssert: a guard fails with its message on both databases when its
// query finds a row, whatever the message holds, and passes otherwise.
func TestAssert(t *testing.T) {
	t.Parallel()
	p := newPair(t, conflictModel)
	p.exec(t, "INSERT INTO items (id, code, qty) VALUES (1, 'a', 1)")
	// The longest message, with what quoting could lose.
	msg := `it's 100% \ "wrong": 日本`
	msg += strings.Repeat("x", parse.MaxMessage-utf8.RuneCountInString(msg))
	if parse.MaxMessage > tidb.MaxAssertMessage {
		t.Fatalf("messages may have %d characters, TiDB's error shows %d", parse.MaxMessage, tidb.MaxAssertMessage)
	}
	guard := func(where string) string {
		return "ASSERT NOT EXISTS (SELECT 1 FROM items i WHERE " + where + ") MESSAGE '" + strings.ReplaceAll(msg, "'", "''") + "'"
	}
	pg, ti := p.run(t, guard("i.qty > 1"))
	if pg.err != nil || ti.err != nil {
		t.Errorf("a guard that finds nothing failed: postgres %v, tidb %v", pg.err, ti.err)
	}
	pg, ti = p.run(t, guard("i.qty = 1"))
	for d, err := range map[string]error{"postgres": pg.err, "tidb": ti.err} {
		if err == nil || !strings.Contains(err.Error(), msg) {
			t.Errorf("%s: a guard that finds a row gave %v, want an error holding %q", d, err, msg)
		}
	}
}
