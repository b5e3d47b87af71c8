package plantest_test

import (
	"strings"
	"testing"

	"github.com/schemagen/schemagen/internal/plantest"
)

// TestRegression7000023: a CHECK whose expression is one parenthesised
// whole (a OR b, lowered to ((...) OR (...))) lost a pair of parentheses in
// migrations, which TiDB keeps in the text it stores: a migrated database
// differed from a fresh one (found by the plan oracle, seed 7).
func TestRegression7000023(t *testing.T) {
	t.Parallel()
	plantest.Replay(t, 55433182138, `
dialect "tidb" {
  uuid_check    = true
  exact_strings = true
}

table "n0" {
  column "id0" {
    type = smallint
  }
  column "c0" {
    type = json
  }
  column "u0" {
    type = timestamp(3)
  }
  primary_key {
    columns = ["id0"]
  }
}

`, `
dialect "tidb" {
  uuid_check    = true
  exact_strings = true
}

table "n0" {
  column "id0" {
    type = smallint
  }
  column "c0" {
    type = json
  }
  column "u0" {
    type = timestamp(3)
  }
  primary_key {
    columns = ["id0"]
  }
  check "n0_ck1" {
    expr = "(u0 < '2020-06-15 10:20:30.5' AND id0 <= 32768 OR json_type(c0) NOT IN ('number', 'string') AND u0 <> '2020-01-01')"
  }
}

`)
}

// TestRegression3000012: a uuid column with default uuid() added to an
// existing table was planned as ADD COLUMN ... DEFAULT (UUID()), which TiDB
// refuses (1674, "Statement is unsafe"; found by the plan oracle, seed 3):
// it is added without the default, given it, and the existing rows their
// own UUIDs, as on PostgreSQL.
func TestRegression3000012(t *testing.T) {
	t.Parallel()
	plantest.Replay(t, 23757095029, `
dialect "tidb" {
  uuid_check    = true
  exact_strings = true
}

table "t1" {
  column "id0" {
    type = int
  }
  primary_key {
    columns = ["id0"]
  }
}

`, `
dialect "tidb" {
  uuid_check    = true
  exact_strings = true
}

table "t1" {
  column "id0" {
    type = int
  }
  column "u0" {
    type = uuid
    default = uuid()
  }
  primary_key {
    columns = ["id0"]
  }
}

`)
}

// TestRegression2000007: a column's default changed alone was planned on
// TiDB as MODIFY COLUMN, which TiDB refuses for a column that an
// expression index uses (3106 over 3837; found by the plan oracle, seed 2):
// it is ALTER COLUMN ... SET DEFAULT.
func TestRegression2000007(t *testing.T) {
	t.Parallel()
	before := `
table "t0" {
  column "id0" {
    type = int
  }
  column "c0" {
    type = varchar(10)
    null = true
  }
  primary_key {
    columns = ["id0"]
  }
  index "t0_ix0" {
    on {
      expr = "lower(c0)"
    }
  }
}
`
	withDefault := strings.Replace(before, "    null = true\n", "    null = true\n    default = \"é\"\n", 1)
	t.Run("set", func(t *testing.T) { plantest.Replay(t, 1, before, withDefault) })
	t.Run("dropped", func(t *testing.T) { plantest.Replay(t, 1, withDefault, before) })
}

// TestRegression92323277221: timestamp to timestamp(0) over a row at
// '9999-12-31 23:59:59.x' stopped PostgreSQL (its range CHECK, 23514)
// while TiDB wrote the year 10000. Both plans now guard the change
// (hazard.TimeRounding); lint on, as the oracle ran it.
func TestRegression92323277221(t *testing.T) {
	t.Parallel()
	plantest.ReplayEvolution(t, 92323277221, 5)
}

// TestRegression94141282586: a foreign key redirected to a unique key
// added in the same step (a new uuid column of its own table) had that key
// built by ADD CONSTRAINT ... UNIQUE in the first file, under ACCESS
// EXCLUSIVE for the build: lint's PG111 on the file migrate diff wrote.
// The key is now built CONCURRENTLY and the redirected foreign key added
// after it, in the second file.
func TestRegression94141282586(t *testing.T) {
	t.Parallel()
	plantest.ReplayEvolution(t, 94141282586, 5)
}

// TestRegression95353286301: a char(5) column made varchar(15) under a
// partial index whose predicate names it, in a table rebuilt with 62 index
// renames: lint's PG101 on the first file migrate diff wrote.
func TestRegression95353286301(t *testing.T) {
	t.Parallel()
	plantest.ReplayEvolution(t, 95353286301, 5)
}

// TestRegression98383295347: a data migration's UPDATE gave a key that an
// ON UPDATE CASCADE foreign key references a value another row held.
// PostgreSQL refused it (23505); TiDB, inside the file's transaction, took
// the statement and failed the commit (8141), which the oracle read as a
// failure of its own. Both stop the file; migrate apply explains TiDB's
// error (TestCascadingKeyDuplicateAtCommit).
func TestRegression98383295347(t *testing.T) {
	t.Parallel()
	plantest.ReplayEvolution(t, 98383295347, 3)
}

// TestRegression99494298641: the rows drawn after a step ignored the
// model's settings; under exact_strings = false a key 'a ' was drawn, and a
// data migration's WHERE id0 = 'a' found it on TiDB alone, a documented
// difference the oracle took for a failure (TestRowsKeepToSettings).
func TestRegression99494298641(t *testing.T) {
	t.Parallel()
	plantest.ReplayEvolution(t, 99494298641, 5)
}

// TestRegression11414034335: TiDB's ON CONFLICT DO NOTHING evaluated a
// CHECK over the new row's literals under the connection's collation,
// found 'A' || 'x' equal to 'ax', and wrote the row over the one it
// duplicated, where the table's CHECK passed
// (datamig.TestOnConflictChecksCompareAsColumns).
func TestRegression11414034335(t *testing.T) {
	t.Parallel()
	plantest.ReplayEvolution(t, 11414034335, 2)
}
