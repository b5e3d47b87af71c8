package datamig_test

import (
	"strconv"
	"strings"
	"testing"

	"github.com/schemagen/schemagen/internal/datamig"
)

// TestOnUpdateKeptRefused: an UPDATE that sets an on_update = now() column
// to its own value beside another column keeps the row's time on TiDB
// (ON UPDATE CURRENT_TIMESTAMP leaves a column the statement sets) and
// writes now() on PostgreSQL (its trigger sees the value as not set). A
// data migration drawn by the plan oracle did so (seed 61616, evolution
// 61616184896: SET "u0" = "n0"."u0", "id0" = ...), leaving a NULL on TiDB
// and a time on PostgreSQL, so the next step's NOT NULL stopped on TiDB
// alone. The checker refuses it at the column; leaving the column out, or
// setting it alone, does the same on both.
func TestOnUpdateKeptRefused(t *testing.T) {
	t.Parallel()
	p := newPair(t, `
table "t" {
  column "id" {
    type = int
  }
  column "price" {
    type = int
  }
  column "updated_at" {
    type      = timestamp(6)
    null      = true
    on_update = now()
  }
  primary_key {
    columns = ["id"]
  }
}
`)
	reset := func() {
		p.exec(t, "DELETE FROM t", "INSERT INTO t (id, price, updated_at) VALUES (1, 1, '2020-01-01 00:00:00'), (2, 1, NULL)")
	}
	kept := "SELECT count(*) FROM t WHERE updated_at = '2020-01-01 00:00:00'"
	nulls := "SELECT count(*) FROM t WHERE updated_at IS NULL"

	// The reason, on the real databases: the same statement on the same
	// rows keeps the time and the NULL on TiDB, writes now() on PostgreSQL.
	reset()
	p.exec(t, "UPDATE t SET price = 2, updated_at = updated_at")
	if pg, ti := p.count(t, kept); pg != 0 || ti != 1 {
		t.Errorf("rows keeping their time after SET price = 2, updated_at = updated_at: postgres %d, tidb %d; want 0 and 1", pg, ti)
	}
	if pg, ti := p.count(t, nulls); pg != 0 || ti != 1 {
		t.Errorf("rows keeping their NULL: postgres %d, tidb %d; want 0 and 1", pg, ti)
	}

	for _, src := range []string{
		"UPDATE t SET price = 2, updated_at = t.updated_at;",
		"UPDATE t SET updated_at = (updated_at), price = t.price + 1 WHERE t.id = 1;",
	} {
		_, diags := datamig.Compile("data.sql", []byte(src), p.schema)
		at := strings.Index(src, "updated_at")
		want := "data.sql:1," + itoa(at+1) + "-" + itoa(at+1+len("updated_at"))
		if !diags.HasErrors() || !strings.Contains(diags.Error(), want) || !strings.Contains(diags.Error(), "on_update = now()") {
			t.Errorf("%s: %v, want it refused at %s", src, diags, want)
		}
	}

	// What the message says to write instead, and the column set alone,
	// run alike on both.
	reset()
	if pg, ti := p.run(t, "UPDATE t SET price = 3;"); pg.err != nil || ti.err != nil {
		t.Fatalf("postgres %v, tidb %v", pg, ti)
	}
	if pg, ti := p.count(t, kept+" OR updated_at IS NULL"); pg != 0 || ti != 0 {
		t.Errorf("rows not given now() by SET price = 3: postgres %d, tidb %d", pg, ti)
	}
	reset()
	if pg, ti := p.run(t, "UPDATE t SET price = 3, updated_at = '2021-05-05 00:00:00';"); pg.err != nil || ti.err != nil {
		t.Fatalf("postgres %v, tidb %v", pg, ti)
	}
	if pg, ti := p.count(t, "SELECT count(*) FROM t WHERE updated_at = '2021-05-05 00:00:00'"); pg != 2 || ti != 2 {
		t.Errorf("rows set to a new time: postgres %d, tidb %d; want 2", pg, ti)
	}
	reset()
	if pg, ti := p.run(t, "UPDATE t SET updated_at = t.updated_at;"); pg.err != nil || ti.err != nil {
		t.Fatalf("postgres %v, tidb %v", pg, ti)
	}
	if pg, ti := p.count(t, kept); pg != 1 || ti != 1 {
		t.Errorf("rows keeping their time after setting it alone to itself: postgres %d, tidb %d; want 1", pg, ti)
	}
}

func itoa(n int) string { return strconv.Itoa(n) }
