package dialects_test

import (
	"context"
	"fmt"
	"strings"
	"testing"

	"ariga.io/atlas/sql/migrate"

	"github.com/schemagen/schemagen/internal/dbtest"
)

const partModel = `table "events" {
  column "id" {
    type = bigint
  }
  column "day" {
    type = date
  }
  column "code" {
    type = varchar(8)
  }
  column "note" {
    type = varchar(8)
    null = true
  }
  primary_key {
    columns = ["id", "day"]
  }
  partition {
    type   = "range"
    column = "day"
    part "events_old" {
      less_than = "2001-01-01"
    }
    part "events_new" {
      less_than = "3001-01-01"
    }
  }
}
table "other" {
  column "id" {
    type = bigint
  }
  primary_key {
    columns = ["id"]
  }
}
`

// TestPartitionRefused: a partitioning either database would refuse, or
// take with another meaning, is refused where it is written.
func TestPartitionRefused(t *testing.T) {
	cases := []struct{ name, old, new, want string }{
		{"key without the column", `columns = ["id", "day"]`, `columns = ["id"]`, "error 1503"},
		{"unique without the column", "  partition {", "  unique \"events_code_key\" {\n    columns = [\"code\"]\n  }\n  partition {", "error 1503"},
		{"unknown column", `column = "day"`, `column = "days"`, "does not have"},
		{"nullable", `column = "day"`, `column = "note"`, "NOT NULL"},
		{"string range", `column = "day"`, `column = "code"`, "range partition column"},
		{"hash of a date", `type   = "range"`, `type   = "hash"`, "hash"},
		{"bounds not increasing", `"3001-01-01"`, `"2000-01-01"`, "increasing"},
		{"bound of another kind", `"3001-01-01"`, `3001`, "does not fit"},
		{"part named like a table", `part "events_new"`, `part "other"`, "named like a table"},
		{"partial unique index", "  partition {", "  index \"events_code_key\" {\n    unique  = true\n    columns = [\"code\", \"day\"]\n    where   = \"note IS NULL\"\n  }\n  partition {", "error 8264"},
		{"foreign key", "table \"other\" {\n", "table \"other\" {\n  column \"event_id\" {\n    type = bigint\n  }\n  column \"event_day\" {\n    type = date\n  }\n  foreign_key \"other_event_fk\" {\n    columns = [\"event_id\", \"event_day\"]\n    ref_table = \"events\"\n    ref_columns = [\"id\", \"day\"]\n  }\n", "error 1506"},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			src := strings.Replace(partModel, c.old, c.new, 1)
			if src == partModel {
				t.Fatal("the case changes nothing")
			}
			_, diags := generate(t, "postgres", src)
			if !diags.HasErrors() || !strings.Contains(diags.Error(), c.want) {
				t.Fatalf("want an error with %q, got %v", c.want, diags)
			}
			for _, d := range diags {
				if d.Subject == nil || d.Subject.Start.Line < 2 {
					t.Errorf("the error has no position: %v", d)
				}
			}
		})
	}
}

// TestPartitionByUnorderedIdentity: a range or list partitioning by an
// identity with ordered = false is refused, as TiDB's ids (AUTO_RANDOM)
// fall in other parts than PostgreSQL's, or in none (found by
// TestDifferential, seed 98181: TiDB refused the first INSERT with 1526);
// a hash partitioning by it spreads the rows on both, and compiles.
func TestPartitionByUnorderedIdentity(t *testing.T) {
	const src = `table "t" {
  column "id" {
    type = bigint
    identity {
      ordered = false
    }
  }
  primary_key {
    columns = ["id"]
  }
  partition {
    type   = "range"
    column = "id"
    part "t_low" {
      less_than = 10
    }
  }
}
`
	_, diags := generate(t, "tidb", src)
	if !diags.HasErrors() || !strings.Contains(diags.Error(), "ordered = false") || diags[0].Subject == nil || diags[0].Subject.Start.Line != 13 {
		t.Fatalf("want an error at line 13 (column = \"id\") naming ordered = false, got %v", diags)
	}
	hash := strings.Replace(src, "    type   = \"range\"\n    column = \"id\"\n    part \"t_low\" {\n      less_than = 10\n    }\n", "    type   = \"hash\"\n    column = \"id\"\n    count  = 2\n", 1)
	if hash == src {
		t.Fatal("the hash case changes nothing")
	}
	for _, d := range []string{"postgres", "tidb"} {
		if _, diags := generate(t, d, hash); diags.HasErrors() {
			t.Errorf("%s: hash partitioning refused: %v", d, diags)
		}
	}
}

// TestPartitionOnServer applies the model's DDL on both databases (rows go
// to their parts; one past every part is refused by both), and shows what
// the compiler's rules stand for: a key without the partition column
// (PostgreSQL 0A000, TiDB 1503), a generated partition column (PostgreSQL
// 42P17), a foreign key to a partitioned table (TiDB 1506) and a unique key
// over a generated column computed from the partition column, as TiDB's
// partial index is (TiDB 8264).
func TestPartitionOnServer(t *testing.T) {
	ctx := context.Background()
	refusals := map[string][]struct{ ddl, want string }{
		"postgres": {
			{`CREATE TABLE u (id bigint PRIMARY KEY, d date NOT NULL) PARTITION BY RANGE (d)`, "0A000 unique constraint on partitioned table must include all partitioning columns"},
			{`CREATE TABLE g (id bigint NOT NULL, d date NOT NULL, e date GENERATED ALWAYS AS (d) STORED) PARTITION BY RANGE (e)`, "42P17 cannot use generated column in partition key"},
			{`INSERT INTO events (id, day, code) VALUES (3, '3500-01-01', 'x')`, "23514 no partition of relation"},
		},
		"tidb": {
			{"CREATE TABLE u (id BIGINT PRIMARY KEY, d DATE NOT NULL) PARTITION BY RANGE COLUMNS(d) (PARTITION p0 VALUES LESS THAN ('2025-01-01'))", "1503"},
			{"CREATE TABLE f (id BIGINT PRIMARY KEY, eid BIGINT, ed DATE, FOREIGN KEY (eid, ed) REFERENCES events (id, day))", "1506"},
			{"INSERT INTO events (id, day, code) VALUES (3, '3500-01-01', 'x')", "1526"},
			{"CREATE TABLE w (id BIGINT, d DATE NOT NULL, n INT, w_d DATE AS (CASE WHEN n IS NULL THEN d END) VIRTUAL, UNIQUE KEY (w_d, id)) PARTITION BY RANGE COLUMNS(d) (PARTITION p0 VALUES LESS THAN ('2025-01-01'))", "8264"},
		},
	}
	for _, d := range []string{"postgres", "tidb"} {
		t.Run(d, func(t *testing.T) {
			db := dbtest.New(t, d)
			ddl, diags := generate(t, d, partModel)
			if diags.HasErrors() {
				t.Fatal(diags)
			}
			stmts, err := migrate.Stmts(ddl)
			if err != nil {
				t.Fatal(err)
			}
			for _, st := range append(stmts, &migrate.Stmt{Text: "INSERT INTO events (id, day, code) VALUES (1, '2000-05-01', 'a'), (2, '2026-05-01', 'b')"}) {
				if _, err := db.ExecContext(ctx, st.Text); err != nil {
					t.Fatalf("%v\n%s", err, ddl)
				}
			}
			for _, c := range refusals[d] {
				if _, err := db.ExecContext(ctx, c.ddl); !refusedAs(err, c.want) {
					t.Errorf("%s: %v, want %s", c.ddl, err, c.want)
				}
			}
		})
	}
}

// exprModel partitions tables by the year (range), the month (list) and
// the month (hash) of a date or datetime column; none has a unique key.
const exprModel = `table "logs" {
  column "id" {
    type = bigint
  }
  column "at" {
    type = datetime
  }
  partition {
    type     = "range"
    column   = "at"
    function = "year"
    part "logs_2000" {
      less_than = 2001
    }
    part "logs_3000" {
      less_than = 3001
    }
  }
}
table "seasons" {
  column "day" {
    type = date
  }
  partition {
    type     = "list"
    column   = "day"
    function = "month"
    part "seasons_winter" {
      values = [12, 1, 2]
    }
    part "seasons_rest" {
      rest = true
    }
  }
}
table "marks" {
  column "day" {
    type = date
    null = true
  }
  partition {
    type     = "hash"
    column   = "day"
    function = "month"
    count    = 3
  }
}
`

// TestPartitionFunctionRefused: a partitioning by a function either
// database would refuse, or take with another meaning, is refused where
// it is written.
func TestPartitionFunctionRefused(t *testing.T) {
	cases := []struct{ name, old, new, want string }{
		{"unknown function", `function = "year"`, `function = "day"`, `"year" or "month"`},
		{"integer column", "  column \"at\" {\n    type = datetime", "  column \"at\" {\n    type = bigint", "takes a date or datetime"},
		{"string bound", `less_than = 3001`, `less_than = "3001-01-01"`, "whole number"},
		{"primary key", "  partition {\n    type     = \"range\"", "  primary_key {\n    columns = [\"id\", \"at\"]\n  }\n  partition {\n    type     = \"range\"", "0A000"},
		{"hash part with a bound", "    count    = 3\n", "    count    = 1\n    part \"marks_a\" {\n      rest = true\n    }\n", "a hash part has none"},
		{"hash parts not the count", "    count    = 3\n", "    count    = 3\n    part \"marks_a\" {\n    }\n", "1 blocks for count = 3"},
		{"unique index", "  partition {\n    type     = \"list\"", "  index \"seasons_day_idx\" {\n    columns = [\"day\"]\n    unique  = true\n  }\n  partition {\n    type     = \"list\"", "0A000"},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			src := strings.Replace(exprModel, c.old, c.new, 1)
			if src == exprModel {
				t.Fatal("the case changes nothing")
			}
			_, diags := generate(t, "postgres", src)
			if !diags.HasErrors() || !strings.Contains(diags.Error(), c.want) {
				t.Fatalf("want an error with %q, got %v", c.want, diags)
			}
			for _, d := range diags {
				if d.Subject == nil || d.Subject.Start.Line < 2 {
					t.Errorf("the error has no position: %v", d)
				}
			}
		})
	}
}

// TestPartitionFunctionOnServer applies the model's DDL on both databases:
// each row goes to the part of its year or month, the same on both; one
// past every range part is refused by both; and PostgreSQL refuses a
// primary key on a table partitioned by an expression (0A000), which the
// compiler's rule stands for.
func TestPartitionFunctionOnServer(t *testing.T) {
	ctx := context.Background()
	partOf := map[string]string{
		"postgres": `SELECT tableoid::regclass::text FROM %s WHERE %s`,
		"tidb":     ``,
	}
	refusals := map[string][]struct{ ddl, want string }{
		"postgres": {
			{`CREATE TABLE u (id bigint NOT NULL, d date NOT NULL, PRIMARY KEY (id, d)) PARTITION BY RANGE (EXTRACT(YEAR FROM d))`, "0A000 unsupported PRIMARY KEY constraint with partition key definition"},
			{`INSERT INTO logs (id, at) VALUES (3, '3500-01-01 00:00:00')`, "23514 no partition of relation"},
		},
		"tidb": {
			{"INSERT INTO logs (id, at) VALUES (3, '3500-01-01 00:00:00')", "1526"},
		},
	}
	rows := []struct{ table, where, part string }{
		{"logs", "id = 1", "logs_2000"},
		{"logs", "id = 2", "logs_3000"},
		{"seasons", "day = '2024-01-15'", "seasons_winter"},
		{"seasons", "day = '2024-07-15'", "seasons_rest"},
	}
	for _, d := range []string{"postgres", "tidb"} {
		t.Run(d, func(t *testing.T) {
			db := dbtest.New(t, d)
			ddl, diags := generate(t, d, exprModel)
			if diags.HasErrors() {
				t.Fatal(diags)
			}
			stmts, err := migrate.Stmts(ddl)
			if err != nil {
				t.Fatal(err)
			}
			for _, st := range append(stmts,
				&migrate.Stmt{Text: "INSERT INTO logs (id, at) VALUES (1, '2000-05-01 10:00:00'), (2, '2026-05-01 10:00:00')"},
				&migrate.Stmt{Text: "INSERT INTO seasons (day) VALUES ('2024-01-15'), ('2024-07-15')"},
				&migrate.Stmt{Text: "INSERT INTO marks (day) VALUES ('2024-01-15'), (NULL)"}) {
				if _, err := db.ExecContext(ctx, st.Text); err != nil {
					t.Fatalf("%v\n%s", err, ddl)
				}
			}
			for _, r := range rows {
				q := fmt.Sprintf(partOf[d], r.table, r.where)
				if d == "tidb" {
					q = fmt.Sprintf("SELECT '%s' FROM %s PARTITION (%s) WHERE %s", r.part, r.table, r.part, r.where)
				}
				var got string
				if err := db.QueryRowContext(ctx, q).Scan(&got); err != nil || got != r.part {
					t.Errorf("%s: the row of %s is in %q (%v), want %s", d, r.where, got, err, r.part)
				}
			}
			for _, c := range refusals[d] {
				if _, err := db.ExecContext(ctx, c.ddl); !refusedAs(err, c.want) {
					t.Errorf("%s: %v, want %s", c.ddl, err, c.want)
				}
			}
		})
	}
}
