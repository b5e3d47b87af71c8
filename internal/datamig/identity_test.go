package datamig_test

import (
	"strings"
	"testing"

	"github.com/schemagen/schemagen/internal/datamig"
)

// TestUnorderedIdentityRefused: an INSERT that gives a value to an
// identity with ordered = false is refused at the column: TiDB's
// AUTO_RANDOM refuses the value (8216), PostgreSQL's sequence takes it
// (TestDataDifferential, model seed 58585175789). Leaving the column out
// runs on both; an ordered identity still takes a value.
func TestUnorderedIdentityRefused(t *testing.T) {
	t.Parallel()
	p := newPair(t, `
table "t" {
  column "id" {
    type = bigint
    identity {
      ordered = false
    }
  }
  column "n" {
    type = int
  }
  primary_key {
    columns = ["id"]
  }
}
table "u" {
  column "id" {
    type = bigint
    identity {}
  }
  column "n" {
    type = int
  }
  primary_key {
    columns = ["id"]
  }
}
`)
	// The reason, on the real databases.
	if _, err := p.ti.Exec("INSERT INTO t (id, n) VALUES (7, 1)"); err == nil || !strings.Contains(err.Error(), "8216") {
		t.Fatalf("tidb took an explicit AUTO_RANDOM value: %v", err)
	}
	if _, err := p.pg.Exec("INSERT INTO t (id, n) VALUES (7, 1)"); err != nil {
		t.Fatalf("postgres: %v", err)
	}
	p.pg.Exec("DELETE FROM t")

	src := "INSERT INTO t (n, id) SELECT 1, u.id FROM u;"
	_, diags := datamig.Compile("data.sql", []byte(src), p.schema)
	if !diags.HasErrors() || !strings.Contains(diags.Error(), "data.sql:1,19-21") || !strings.Contains(diags.Error(), "ordered = false") || !strings.Contains(diags.Error(), "8216") {
		t.Errorf("%s: %v, want it refused at the column id", src, diags)
	}
	p.exec(t, "INSERT INTO u (n) VALUES (1), (2)")
	if pg, ti := p.run(t, "INSERT INTO t (n) SELECT u.n FROM u;"); pg.err != nil || ti.err != nil || pg.rows != 2 || ti.rows != 2 {
		t.Errorf("leaving the identity out: postgres %v, tidb %v", pg, ti)
	}
	if pg, ti := p.run(t, "INSERT INTO u (id, n) SELECT u.id + 10, u.n FROM u;"); pg.err != nil || ti.err != nil {
		t.Errorf("an ordered identity: postgres %v, tidb %v", pg, ti)
	}
}
