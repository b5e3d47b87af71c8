package difftest_test

import (
	"testing"

	"github.com/schemagen/schemagen/internal/difftest"
)

// Regression tests: models and statements on which the databases disagreed
// (from the issue, or printed by TestDifferential), now lowered to the same
// meaning. Models now refused are in internal/gen/invalid_test.go.

// CHECK (b) over a bool column: TiDB refused it (3812); now b = TRUE there.
func TestRegressionBoolCondition(t *testing.T) {
	difftest.Replay(t, `
table "t" {
  column "id" {
    type = int
  }
  column "b" {
    type = bool
    null = true
  }
  primary_key {
    columns = ["id"]
  }
  check "t_b_ck" {
    expr = "b"
  }
  check "t_nb_ck" {
    expr = "NOT b OR b"
  }
}
`, []difftest.Stmt{
		{Kind: "insert", Table: "t", Cols: []string{"id", "b"}, Vals: []difftest.Value{{S: "1"}, {S: "true"}}},
		{Kind: "insert", Table: "t", Cols: []string{"id", "b"}, Vals: []difftest.Value{{S: "2"}, {S: "false"}}},
		{Kind: "insert", Table: "t", Cols: []string{"id", "b"}, Vals: []difftest.Value{{S: "3"}, {Null: true}}},
		{Kind: "update", Table: "t", Cols: []string{"b"}, Vals: []difftest.Value{{S: "false"}}, WhereCol: "id", WhereVal: difftest.Value{S: "1"}},
	})
}

// A regex with . over a value with a newline: PostgreSQL matched, TiDB did
// not; now TiDB's pattern starts with (?s).
func TestRegressionRegexDotNewline(t *testing.T) {
	difftest.Replay(t, `
table "t" {
  column "id" {
    type = int
  }
  column "s" {
    type = varchar(10)
  }
  primary_key {
    columns = ["id"]
  }
  check "t_s_ck" {
    expr = "s ~ '^a.b$' AND s !~ 'x.y'"
  }
}
`, []difftest.Stmt{
		{Kind: "insert", Table: "t", Cols: []string{"id", "s"}, Vals: []difftest.Value{{S: "1"}, {S: "a\nb"}}},
		{Kind: "insert", Table: "t", Cols: []string{"id", "s"}, Vals: []difftest.Value{{S: "2"}, {S: "a\nbx\ny"}}},
		{Kind: "insert", Table: "t", Cols: []string{"id", "s"}, Vals: []difftest.Value{{S: "3"}, {S: "acb"}}},
		{Kind: "insert", Table: "t", Cols: []string{"id", "s"}, Vals: []difftest.Value{{S: "4"}, {S: "a\n\nb"}}},
	})
}
