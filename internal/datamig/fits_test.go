package datamig_test

import (
	"strings"
	"testing"

	"github.com/schemagen/schemagen/internal/datamig"
	"github.com/schemagen/schemagen/internal/gen"
)

// TestConstantsFit: a constant that fills a column must be a value of the
// column's exact type. PostgreSQL converts it when it plans the statement,
// TiDB for each row it writes, so one that does not fit would fail on
// PostgreSQL alone when the query finds no row (found by TestDataDifferential).
func TestConstantsFit(t *testing.T) {
	r := gen.CompileSource("schema.hcl", []byte(`
enum "e" {
  values = ["a", "b"]
}

table "t" {
  column "id" {
    type = smallint
  }
  column "n" {
    type = int
    null = true
  }
  column "d" {
    type = decimal(3,3)
    null = true
  }
  column "s" {
    type = varchar(3)
    null = true
  }
  column "c" {
    type = char(2)
    null = true
  }
  column "e" {
    type = enum.e
    null = true
  }
  primary_key {
    columns = ["id"]
  }
}
`))
	if r.Failed() {
		t.Fatal(r.Diags)
	}
	for _, c := range []struct{ src, want string }{
		{"INSERT INTO t (id) SELECT 32768 FROM t x WHERE x.id = 1", "data.sql:1,27- The value does not fit t.id (smallint): 32768 is out of its range, -32768 to 32767"},
		{"INSERT INTO t (id) SELECT -32769 FROM t x WHERE x.id = 1", "data.sql:1,27- The value does not fit t.id (smallint): -32769 is out of its range"},
		{"INSERT INTO t (id) SELECT (-32768) FROM t x WHERE x.id = 1", ""},
		{"UPDATE t SET n = 2147483648 WHERE id = 1", "data.sql:1,18- The value does not fit t.n (int): 2147483648 is out of its range"},
		{"UPDATE t SET d = 1 WHERE id = 1", "data.sql:1,18- The value does not fit t.d (decimal(3,3)): 1 has more than 0 digit(s) before the point"},
		{"UPDATE t SET d = -0.999 WHERE id = 1", ""},
		{"UPDATE t SET d = 0.0005 WHERE id = 1", "data.sql:1,18- The value does not fit t.d (decimal(3,3)): 0.0005 has more than 3 digit(s) after the point"},
		{"UPDATE t SET s = 'abcd' WHERE id = 1", "data.sql:1,18- The value does not fit t.s (varchar(3)): the string has 4 characters, the column holds 3"},
		{"UPDATE t SET s = 'äöü', c = 'ab' WHERE id = 1", ""},
		{"UPDATE t SET c = 'abc' WHERE id = 1", "data.sql:1,18- The value does not fit t.c (char(2))"},
		// An enum's values only: PostgreSQL refuses another when it plans
		// the statement, TiDB when it writes a row.
		{"UPDATE t SET e = 'c' WHERE id = 1", "data.sql:1,18- The value does not fit t.e (enum.e): 'c' is not a value of enum e ('a', 'b')"},
		{"UPDATE t SET e = 'b' WHERE id = 1", ""},
		// Only constants: a value computed per row fails per row on both.
		{"UPDATE t SET n = coalesce(n, 5) + 2147483647, s = s || 'abcd' WHERE id = 1", ""},
	} {
		_, diags := datamig.Compile("data.sql", []byte(c.src), r.Schema)
		got := diags.Error()
		if c.want == "" {
			if diags.HasErrors() {
				t.Errorf("%s: %s", c.src, got)
			}
			continue
		}
		at, msg, _ := strings.Cut(c.want, " ")
		if !diags.HasErrors() || !strings.HasPrefix(got, at) || !strings.Contains(got, msg) {
			t.Errorf("%s:\n  got  %s\n  want %s", c.src, got, c.want)
		}
	}
}
