package datamig_test

import (
	"strings"
	"testing"

	"github.com/schemagen/schemagen/internal/datamig"
)

// TestUnorderedFailureRefused: a cast that fails for a row beside another
// condition under AND stopped a file on TiDB alone: PostgreSQL evaluates
// the cheaper condition first and never computed the cast for the row,
// TiDB computes in the written order (plan oracle, evolution
// 10303031179). The checker refuses such a value wherever the databases
// may or may not compute it, and the CASE it suggests runs alike on both.
func TestUnorderedFailureRefused(t *testing.T) {
	t.Parallel()
	p := newPair(t, `
table "t0" {
  column "id0" {
    type = int
  }
  column "b" {
    type = bigint
  }
  column "up" {
    type = int
    null = true
  }
  column "d" {
    type = decimal(10,2)
    null = true
  }
  column "s" {
    type = varchar(20)
    null = true
  }
  primary_key {
    columns = ["id0"]
  }
}
`)
	reset := func() {
		p.exec(t, "DELETE FROM t0", "INSERT INTO t0 (id0, b, up, s) VALUES (3, 9223372036854775807, 3, 'abc'), (4, 5, 1, 'abc')")
	}
	// The rows left, as the sum of their keys' squares: 9 + 16 for both.
	left := "SELECT COALESCE(SUM(id0 * id0), 0) FROM t0"

	// The reason, on the real databases: the same statement, rendered,
	// fails on one alone.
	reset()
	const where = " WHERE CAST(b AS integer) > 1 AND coalesce(up, 1) = 1"
	_, pgErr := p.pg.Exec("SELECT id0 FROM t0" + where)
	_, tiErr := p.ti.Exec("SELECT id0 FROM t0 WHERE (CAST(b AS SIGNED) * 4294967296 DIV 4294967296) > 1 AND COALESCE(up, 1) = 1")
	if pgErr != nil || tiErr == nil {
		t.Errorf("the cast beside a cheaper condition: postgres %v, tidb %v; want postgres to skip it and tidb to fail", pgErr, tiErr)
	}

	for _, src := range []string{
		"DELETE FROM t0" + where + ";",
		"DELETE FROM t0 WHERE coalesce(up, 1) = 1 OR CAST(b AS integer) > 1;",
		"DELETE FROM t0 WHERE NOT (up = 1 AND CAST(d AS decimal(3,1)) > 1);",
		"DELETE FROM t0 WHERE up BETWEEN 0 AND CAST(b AS integer);",
		"DELETE FROM t0 WHERE up IN (1, CAST(b AS smallint));",
		"DELETE FROM t0 WHERE EXISTS (SELECT 1 FROM t0 AS o WHERE CAST(o.b AS integer) = 5);",
		"UPDATE t0 SET up = 1 WHERE t0.id0 IN (SELECT o.id0 FROM t0 AS o WHERE left(o.s, o.up) = 'a');",
		"ASSERT NOT EXISTS (SELECT 1 FROM t0 WHERE CAST(b AS integer) = 5) MESSAGE 'x';",
		"UPDATE t0 SET up = 2 FROM t0 AS o WHERE o.id0 = t0.id0 AND CAST(o.b AS integer) > 1;",
		"UPDATE t0 SET up = CASE WHEN up = 1 AND substring(s, up, b) = 'a' THEN 1 END;",
	} {
		_, diags := datamig.Compile("data.sql", []byte(src), p.schema)
		if !diags.HasErrors() || !strings.Contains(diags.Error(), "can fail for a row") {
			t.Errorf("%s: %v, want it refused", src, diags)
		}
	}

	// What the checker still takes: the value computed for every row the
	// statement reads, and the CASE the message suggests. Each runs alike.
	for _, tc := range []struct {
		src  string
		left int
	}{
		{"DELETE FROM t0 WHERE CASE WHEN coalesce(up, 1) = 1 THEN CAST(b AS integer) > 1 ELSE false END;", 9},
		{"UPDATE t0 SET up = CAST(b AS integer) WHERE t0.id0 = 4;", 25},
		{"DELETE FROM t0 WHERE CAST(up AS bigint) = 1;", 9},
	} {
		reset()
		pg, ti := p.run(t, tc.src)
		if pg.err != nil || ti.err != nil {
			t.Errorf("%s: postgres %v, tidb %v; want both to apply", tc.src, pg.err, ti.err)
			continue
		}
		if pg, ti := p.count(t, left); pg != tc.left || ti != tc.left {
			t.Errorf("%s: rows left (sum of the keys' squares) postgres %d, tidb %d; want %d", tc.src, pg, ti, tc.left)
		}
	}
	// A cast computed for every row fails on both.
	reset()
	if pg, ti := p.run(t, "DELETE FROM t0 WHERE CAST(b AS integer) > 1;"); pg.err == nil || ti.err == nil {
		t.Errorf("the cast of every row: postgres %v, tidb %v; want both to fail", pg.err, ti.err)
	}
}

// TestDecimalCastOfLeastBigint: TiDB's cast to decimal(p,s) checks that the
// rounded value fits with ABS, which overflows BIGINT's least value
// (1690), where PostgreSQL casts it (plan oracle, evolution 11414034364).
func TestDecimalCastOfLeastBigint(t *testing.T) {
	t.Parallel()
	p := newPair(t, `
table "t0" {
  column "id0" {
    type = int
  }
  column "b" {
    type = bigint
  }
  column "d" {
    type = decimal(65,30)
    null = true
  }
  primary_key {
    columns = ["id0"]
  }
}
`)
	p.exec(t, "INSERT INTO t0 (id0, b) VALUES (1, -9223372036854775808), (2, 9223372036854775807), (3, -1)")
	if pg, ti := p.run(t, "UPDATE t0 SET d = CAST(t0.b AS decimal(65,30));"); pg.err != nil || ti.err != nil {
		t.Fatalf("postgres %v, tidb %v; want both to apply", pg.err, ti.err)
	}
	if pg, ti := p.count(t, "SELECT count(*) FROM t0 WHERE d = b"); pg != 3 || ti != 3 {
		t.Errorf("rows with d = b: postgres %d, tidb %d; want 3", pg, ti)
	}
	// Beyond the digits before the point, both still fail.
	if pg, ti := p.run(t, "UPDATE t0 SET d = CAST(CAST(t0.b AS decimal(65,30)) AS decimal(20,2)) WHERE t0.id0 = 1;"); pg.err == nil || ti.err == nil {
		t.Errorf("-9223372036854775808 as decimal(20,2): postgres %v, tidb %v; want both to fail", pg.err, ti.err)
	}
}
