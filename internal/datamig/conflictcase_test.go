package datamig_test

import "testing"

// TestOnConflictChecksCompareAsColumns: TiDB's rendering of ON CONFLICT DO
// NOTHING evaluates the target's CHECKs over the new row, and writes the
// row over the duplicate (for the CHECK to refuse it, as PostgreSQL does)
// when one fails. Over literals, CONCAT('A', 'x') <> 'ax' compared under
// the connection's collation, which ignores letter case, and failed; in
// the table it passed, so the new row replaced the one it duplicated
// (plan oracle, evolution 11414034335). The values now compare as the
// columns do, under each collation the DDL gives them.
func TestOnConflictChecksCompareAsColumns(t *testing.T) {
	t.Parallel()
	for _, settings := range []string{"", "dialect \"tidb\" {\n  exact_strings = false\n}\n"} {
		p := newPair(t, settings+`
table "t2" {
  column "id0" {
    type = varchar(10)
  }
  column "c2" {
    type = char(1)
  }
  column "s" {
    type = varchar(10)
    null = true
  }
  primary_key {
    columns = ["id0"]
  }
  check "t2_ck0" {
    expr = "c2 || 'x' <> 'ax'"
  }
  check "t2_ck1" {
    expr = "s IS NULL OR s <> 'b'"
  }
}
`)
		kept := "SELECT count(*) FROM t2 WHERE id0 = 'a' AND c2 = 'é' AND s = 'x'"
		for _, src := range []string{
			"INSERT INTO t2 (id0, c2) SELECT 'a', 'A' FROM t2 AS o WHERE o.id0 < 'b' ON CONFLICT DO NOTHING;",
			"INSERT INTO t2 (id0, c2, s) SELECT 'a', 'A', 'B' FROM t2 AS o WHERE o.id0 < 'b' ON CONFLICT DO NOTHING;",
		} {
			p.exec(t, "DELETE FROM t2", "INSERT INTO t2 (id0, c2, s) VALUES ('a', 'é', 'x')")
			if pg, ti := p.run(t, src); pg.err != nil || ti.err != nil {
				t.Fatalf("%s%s: postgres %v, tidb %v; want both to do nothing", settings, src, pg.err, ti.err)
			}
			if pg, ti := p.count(t, kept); pg != 1 || ti != 1 {
				t.Errorf("%s%s: the row the new one duplicates kept: postgres %d, tidb %d; want 1", settings, src, pg, ti)
			}
		}
		// A row that breaks a CHECK fails on both, as before.
		p.exec(t, "DELETE FROM t2", "INSERT INTO t2 (id0, c2, s) VALUES ('a', 'é', 'x')")
		if pg, ti := p.run(t, "INSERT INTO t2 (id0, c2) SELECT 'a', 'a' FROM t2 AS o WHERE o.id0 < 'b' ON CONFLICT DO NOTHING;"); pg.err == nil || ti.err == nil {
			t.Errorf("%sa new row breaking t2_ck0: postgres %v, tidb %v; want both to fail", settings, pg.err, ti.err)
		}
	}
}
