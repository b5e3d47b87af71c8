package datamig_test

import (
	"testing"

	"ariga.io/atlas/sql/migrate"

	"github.com/schemagen/schemagen/dialects/tidb"
	"github.com/schemagen/schemagen/internal/datamig"
	"github.com/schemagen/schemagen/internal/dbtest"
	"github.com/schemagen/schemagen/internal/gen"
)

// TestBatchedUpdateComparesBytes: a batched UPDATE skips the rows that hold
// their new value already. TiDB's guard compared the column with the value
// by <=>, which refused to mix the column's collation with CONCAT's (1267;
// plan oracle, seed 96969, evolution 96969291105), so the statement failed
// on TiDB alone. The guard compares bytes now; both databases set the same
// rows.
func TestBatchedUpdateComparesBytes(t *testing.T) {
	t.Parallel()
	p := newPair(t, `
table "t0" {
  column "id0" {
    type = bigint
  }
  column "c0" {
    type = bigint
  }
  column "c1" {
    type = varchar(20)
    null = true
  }
  primary_key {
    columns = ["id0"]
  }
}
`)
	p.exec(t, "INSERT INTO t0 (id0, c0, c1) VALUES (1, 1, 'x'), (2, 2, 'k2'), (3, 3, NULL)")
	sameRowsSet(t, p, `UPDATE "t0" SET "c1" = 'k' || "t0"."c0"::text WHERE "t0"."id0" = "t0"."c0" BATCH = 3;`)
	if pgN, tiN := p.count(t, "SELECT count(*) FROM t0 WHERE c1 IN ('k1', 'k2', 'k3')"); pgN != 3 || tiN != 3 {
		t.Errorf("rows holding the new value: postgres %d, tidb %d; want 3", pgN, tiN)
	}
}

// sameRowsSet runs the portable stmt on both databases, which must apply
// it and set as many rows.
func sameRowsSet(t *testing.T, p *pair, stmt string) {
	t.Helper()
	pg, ti := p.run(t, stmt)
	if pg.err != nil || ti.err != nil {
		t.Fatalf("%s: postgres %v, tidb %v", stmt, pg.err, ti.err)
	}
	if pg.rows != ti.rows {
		t.Errorf("%s: rows set: postgres %d, tidb %d", stmt, pg.rows, ti.rows)
	}
}

// TestBatchedUpdateMultibyteStrings: TiDB's CAST(... AS BINARY) of a
// char(n) or varchar(n) cuts it at n bytes, so the guard over a row of five
// emoji in a char(5) failed the UPDATE there alone (1406, or 1105 over a
// scan; plan oracle, evolution 97171291569), and would have compared a cut
// value. Strings are compared by CONVERT(... USING binary).
func TestBatchedUpdateMultibyteStrings(t *testing.T) {
	t.Parallel()
	p := newPair(t, `
table "t0" {
  column "id0" {
    type = bigint
  }
  column "c0" {
    type = char(5)
    null = true
  }
  column "c1" {
    type = varchar(5)
    null = true
  }
  primary_key {
    columns = ["id0"]
  }
}
`)
	p.exec(t, "INSERT INTO t0 (id0, c0, c1) VALUES (1, '😀😀😀😀😀', '😀😀😀😀😀'), (2, 'ab', 'ab'), (3, '😀😀😀😀a', '😀😀😀😀a')")
	for _, stmt := range []string{
		`UPDATE "t0" SET "c0" = 'ab', "c1" = 'ab' WHERE "t0"."id0" >= 1 BATCH = 3;`,
		`UPDATE "t0" SET "c1" = '😀😀😀😀b' WHERE "t0"."id0" = 3 BATCH = 3;`,
	} {
		sameRowsSet(t, p, stmt)
	}
	if pgN, tiN := p.count(t, "SELECT count(*) FROM t0 WHERE c0 = 'ab' AND (c1 = 'ab' OR id0 = 3 AND c1 = '😀😀😀😀b')"); pgN != 3 || tiN != 3 {
		t.Errorf("rows holding the new values: postgres %d, tidb %d; want 3", pgN, tiN)
	}
}

// TestBatchedUpdateVector: on TiDB (PostgreSQL's vector needs pgvector, not
// in CI), the guard keeps a vector whole, which CONVERT(... USING binary)
// would cut at the dimension's count of bytes, taking '[1,2,3]' and
// '[1,2,4]' both for '[1,': the row to change was skipped.
func TestBatchedUpdateVector(t *testing.T) {
	t.Parallel()
	r := gen.CompileSource("schema.hcl", []byte(`
table "t0" {
  column "id0" {
    type = bigint
  }
  column "v" {
    type = vector(3)
  }
  column "w" {
    type = vector(3)
  }
  primary_key {
    columns = ["id0"]
  }
}
`))
	if r.Failed() {
		t.Fatal(r.Diags)
	}
	db := dbtest.TiDB(t)
	ddl, err := migrate.Stmts(string(r.Outputs[tidb.Name].SQL))
	if err != nil {
		t.Fatal(err)
	}
	for _, s := range append(ddl, &migrate.Stmt{Text: "INSERT INTO t0 (id0, v, w) VALUES (1, '[1,2,3]', '[1,2,3]'), (2, '[1,2,4]', '[1,2,3]')"}) {
		if _, err := db.Exec(s.Text); err != nil {
			t.Fatalf("%s: %v", s.Text, err)
		}
	}
	stmts, diags := datamig.Compile("data.sql", []byte(`UPDATE "t0" SET "v" = "t0"."w" WHERE "t0"."id0" >= 1 BATCH = 3;`), r.Schema)
	if diags.HasErrors() {
		t.Fatal(diags)
	}
	sqls := tidb.Dialect{}.RenderData(stmts, datamig.Catalog(r.Schema), r.Outputs[tidb.Name].Exprs)
	res, err := db.Exec(sqls[0])
	if err != nil {
		t.Fatalf("%s: %v", sqls[0], err)
	}
	if n, _ := res.RowsAffected(); n != 1 {
		t.Errorf("rows set: %d, want 1 (the row holding [1,2,4])", n)
	}
	var n int
	if err := db.QueryRow("SELECT count(*) FROM t0 WHERE v = '[1,2,3]'").Scan(&n); err != nil || n != 2 {
		t.Errorf("rows holding [1,2,3]: %d, %v; want 2", n, err)
	}
}
