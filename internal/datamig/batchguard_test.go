package datamig_test

import (
	"testing"
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
	pg, ti := p.run(t, `UPDATE "t0" SET "c1" = 'k' || "t0"."c0"::text WHERE "t0"."id0" = "t0"."c0" BATCH = 3;`)
	if pg.err != nil || ti.err != nil {
		t.Fatalf("postgres %v, tidb %v", pg.err, ti.err)
	}
	if pg.rows != ti.rows {
		t.Errorf("rows set: postgres %d, tidb %d", pg.rows, ti.rows)
	}
	if pgN, tiN := p.count(t, "SELECT count(*) FROM t0 WHERE c1 IN ('k1', 'k2', 'k3')"); pgN != 3 || tiN != 3 {
		t.Errorf("rows holding the new value: postgres %d, tidb %d; want 3", pgN, tiN)
	}
}
