package datamig_test

import (
	"strings"
	"testing"

	"github.com/schemagen/schemagen/internal/datamig"
)

// TestKeyActionOnOwnValueRefused: an UPDATE that sets a column a foreign
// key references with on_update = set_null to its own value, beside
// another column, sets the referencing rows' column to NULL on TiDB (which
// runs the key's action when the row changes and the column is set) and
// keeps it on PostgreSQL (which runs it only when the value changes). A
// data migration drawn by the plan oracle did so (seed 92929, evolution
// 92929278866: SET "c0" = '08:00:00', "id0" = "t0"."id0"). The checker
// refuses it at the column; leaving the column out, or changing its
// value, does the same on both.
func TestKeyActionOnOwnValueRefused(t *testing.T) {
	t.Parallel()
	p := newPair(t, `
table "t0" {
  column "id0" {
    type = int
  }
  column "c0" {
    type = int
  }
  primary_key {
    columns = ["id0"]
  }
}
table "t1" {
  column "id" {
    type = int
  }
  column "r" {
    type = int
    null = true
  }
  primary_key {
    columns = ["id"]
  }
  foreign_key "t1_r_fk" {
    columns     = ["r"]
    ref_table   = "t0"
    ref_columns = ["id0"]
    on_update   = "set_null"
  }
}
`)
	reset := func() {
		p.exec(t, "DELETE FROM t1", "DELETE FROM t0", "INSERT INTO t0 (id0, c0) VALUES (1, 1), (2, 1)", "INSERT INTO t1 (id, r) VALUES (10, 1), (11, 2)")
	}
	nulls := "SELECT count(*) FROM t1 WHERE r IS NULL"

	// The reason, on the real databases.
	reset()
	p.exec(t, "UPDATE t0 SET c0 = 2, id0 = id0")
	if pg, ti := p.count(t, nulls); pg != 0 || ti != 2 {
		t.Errorf("referencing rows set to NULL after SET c0 = 2, id0 = id0: postgres %d, tidb %d; want 0 and 2", pg, ti)
	}

	for _, src := range []string{
		"UPDATE t0 SET c0 = 2, id0 = t0.id0;",
		"UPDATE t0 SET id0 = (id0), c0 = t0.c0 + 1 WHERE t0.id0 = 1;",
	} {
		_, diags := datamig.Compile("data.sql", []byte(src), p.schema)
		at := strings.Index(src, "id0")
		want := "data.sql:1," + itoa(at+1) + "-" + itoa(at+1+len("id0"))
		if !diags.HasErrors() || !strings.Contains(diags.Error(), want) || !strings.Contains(diags.Error(), `foreign key "t1_r_fk"`) {
			t.Errorf("%s: %v, want it refused at %s", src, diags, want)
		}
	}

	// What the message says to write instead, and a changed key, run
	// alike on both.
	reset()
	if pg, ti := p.run(t, "UPDATE t0 SET c0 = 3;"); pg.err != nil || ti.err != nil {
		t.Fatalf("postgres %v, tidb %v", pg, ti)
	}
	if pg, ti := p.count(t, nulls); pg != 0 || ti != 0 {
		t.Errorf("referencing rows set to NULL by SET c0 = 3: postgres %d, tidb %d; want 0", pg, ti)
	}
	reset()
	if pg, ti := p.run(t, "UPDATE t0 SET c0 = 3, id0 = t0.id0 + 10 WHERE t0.id0 = 1;"); pg.err != nil || ti.err != nil {
		t.Fatalf("postgres %v, tidb %v", pg, ti)
	}
	if pg, ti := p.count(t, nulls); pg != 1 || ti != 1 {
		t.Errorf("referencing rows set to NULL by a changed key: postgres %d, tidb %d; want 1", pg, ti)
	}
}
