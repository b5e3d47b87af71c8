package plantest_test

import (
	"context"
	"errors"
	"strings"
	"testing"

	"github.com/schemagen/schemagen/dialects/hazard"
	"github.com/schemagen/schemagen/internal/migration"
	"github.com/schemagen/schemagen/internal/plantest"
)

// partitioned holds a table partitioned by range of a date, one by list of
// a code and one by hash of its key.
const partitioned = `
table "events" {
  column "id" {
    type = bigint
  }
  column "day" {
    type = date
  }
  column "body" {
    type = varchar(40)
    null = true
  }
  primary_key {
    columns = ["id", "day"]
  }
  partition {
    type   = "range"
    column = "day"
    part "events_2000" {
      less_than = "2001-01-01"
    }
    part "events_3000" {
      less_than = "3001-01-01"
    }
  }
}
table "regions" {
  column "id" {
    type = int
  }
  column "code" {
    type = varchar(8)
  }
  primary_key {
    columns = ["id", "code"]
  }
  partition {
    type   = "list"
    column = "code"
    part "regions_eu" {
      values = ["de", "fr"]
    }
    part "regions_rest" {
      rest = true
    }
  }
}
table "hits" {
  column "id" {
    type = bigint
  }
  primary_key {
    columns = ["id"]
  }
  partition {
    type   = "hash"
    column = "id"
    count  = 4
  }
}
`

// TestPartitions creates the tables on both databases (with rows, where
// they fit a part), then plans and applies a range part added at the end
// and one dropped (with its rows), as such: ADD and DROP PARTITION on
// TiDB, CREATE TABLE ... PARTITION OF and DROP TABLE on PostgreSQL (the
// next part detached and attached again from MINVALUE); and an index
// (on PostgreSQL ON ONLY the table, then each part's).
func TestPartitions(t *testing.T) {
	t.Parallel()
	plantest.Replay(t, 1, "", partitioned)
	added := strings.Replace(partitioned, "    part \"events_3000\" {\n      less_than = \"3001-01-01\"\n    }\n", "    part \"events_3000\" {\n      less_than = \"3001-01-01\"\n    }\n    part \"events_rest\" {\n      rest = true\n    }\n", 1)
	plantest.Replay(t, 1, partitioned, added)
	dropped := strings.Replace(partitioned, "    part \"events_2000\" {\n      less_than = \"2001-01-01\"\n    }\n", "", 1)
	plantest.Replay(t, 1, partitioned, dropped)
	// An index of a partitioned table: PostgreSQL builds none CONCURRENTLY
	// (0A000), so it is created ON ONLY the table in the file's
	// transaction, and each part's built CONCURRENTLY and attached in the
	// online file.
	indexed := strings.Replace(partitioned, "  partition {\n    type   = \"range\"", "  index \"events_body_idx\" {\n    columns = [\"body\"]\n  }\n  partition {\n    type   = \"range\"", 1)
	plantest.Replay(t, 1, partitioned, indexed)
}

// TestPartitionRefusals: what neither database changes in place is
// refused at migrate diff, naming the change and what to write instead.
func TestPartitionRefusals(t *testing.T) {
	t.Parallel()
	cases := []struct{ name, after, change string }{
		{"key", strings.Replace(strings.Replace(partitioned, `    type   = "hash"`, `    type   = "range"`, 1), "    count  = 4\n", "    part \"hits_low\" {\n      less_than = 100\n    }\n", 1), "partition key"},
		{"bound", strings.Replace(partitioned, `less_than = "3001-01-01"`, `less_than = "3002-01-01"`, 1), "bound of part events_3000"},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			r := plantest.NewRunner(t)
			f, err := r.Reproduce(context.Background(), 1, partitioned, c.after, c.name)
			if err != nil {
				t.Fatal(err)
			}
			if f != nil {
				t.Fatalf("a file was written and failed: %s", f.What)
			}
			if len(r.Refusals) == 0 {
				t.Fatal("migrate diff refused nothing")
			}
			for _, e := range r.Refusals {
				var ref *hazard.Refusal
				msg := e.Error()
				if !errors.As(e, &ref) || !strings.Contains(msg, "PostgreSQL: cannot plan "+c.change) && !strings.Contains(msg, "PostgreSQL: cannot plan changing the "+c.change) || !strings.Contains(msg, "TiDB: cannot plan") || ref.Instead == "" {
					t.Fatalf("the refusal does not name the change on both databases and what to write: %v", e)
				}
			}
		})
	}
}

// byFunction holds a table partitioned by range of the year of a date, one
// by list of the month of a datetime and one by hash of the month.
const byFunction = `
table "logs" {
  column "id" {
    type = bigint
  }
  column "day" {
    type = date
  }
  partition {
    type     = "range"
    column   = "day"
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
  column "at" {
    type = datetime
  }
  partition {
    type     = "list"
    column   = "at"
    function = "month"
    part "seasons_winter" {
      values = [12, 1, 2]
    }
    part "seasons_summer" {
      values = [6, 7, 8]
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
    count    = 2
  }
}
`

// TestFunctionPartitions: tables partitioned by the year or month of a
// column are created on both databases with rows, and a range part added
// at the end, a range part dropped and a list part dropped (with their
// rows) are planned as such and applied.
func TestFunctionPartitions(t *testing.T) {
	t.Parallel()
	plantest.Replay(t, 1, "", byFunction)
	added := strings.Replace(byFunction, "    part \"logs_3000\" {\n      less_than = 3001\n    }\n", "    part \"logs_3000\" {\n      less_than = 3001\n    }\n    part \"logs_rest\" {\n      rest = true\n    }\n", 1)
	plantest.Replay(t, 1, byFunction, added)
	dropped := strings.Replace(strings.Replace(byFunction, "    part \"logs_2000\" {\n      less_than = 2001\n    }\n", "", 1), "    part \"seasons_summer\" {\n      values = [6, 7, 8]\n    }\n", "", 1)
	plantest.Replay(t, 1, byFunction, dropped)
}

// TestFunctionPartitionRefused: partitioning by another function of the
// column is refused at migrate diff on both databases.
func TestFunctionPartitionRefused(t *testing.T) {
	t.Parallel()
	r := plantest.NewRunner(t)
	after := strings.Replace(byFunction, "    function = \"month\"\n    count    = 2\n", "    function = \"year\"\n    count    = 2\n", 1)
	f, err := r.Reproduce(context.Background(), 1, byFunction, after, "function")
	if err != nil {
		t.Fatal(err)
	}
	if f != nil {
		t.Fatalf("a file was written and failed: %s", f.What)
	}
	if len(r.Refusals) == 0 {
		t.Fatal("migrate diff refused nothing")
	}
	for _, e := range r.Refusals {
		if msg := e.Error(); !strings.Contains(msg, "PostgreSQL: cannot plan changing the partition key") || !strings.Contains(msg, "TiDB: cannot plan") {
			t.Fatalf("the refusal does not name the change on both databases: %v", e)
		}
	}
}

// TestListPartBesideDefault: TiDB adds a list part beside a kept DEFAULT
// part only by REORGANIZE PARTITION (error 8200), so migrate diff refuses
// it on TiDB, naming the change, rather than writing a file that fails.
func TestListPartBesideDefault(t *testing.T) {
	t.Parallel()
	r := plantest.NewRunner(t)
	after := strings.Replace(partitioned, "    part \"regions_rest\" {", "    part \"regions_us\" {\n      values = [\"us\"]\n    }\n    part \"regions_rest\" {", 1)
	f, err := r.Reproduce(context.Background(), 1, partitioned, after, "list part")
	if err != nil {
		t.Fatal(err)
	}
	if f != nil {
		t.Fatalf("a file was written and failed: %s", f.What)
	}
	if len(r.Refusals) == 0 {
		t.Fatal("migrate diff refused nothing")
	}
	for _, e := range r.Refusals {
		var pe *migration.ProofError
		if msg := e.Error(); errors.As(e, &pe) || !strings.Contains(msg, "TiDB: cannot plan adding part regions_us beside the list's DEFAULT part") {
			t.Fatalf("the refusal does not name the change on TiDB: %v", e)
		}
	}
}

// TestPartitionEveryPartRefused: a change that drops every part of a table
// (its only part, a range's MAXVALUE part or a list's DEFAULT part, for new
// ones) is refused on TiDB, which keeps at least one part (error 1508) and
// then cannot add a part beside the one left (1481, 8200). It was planned
// as DROP and ADD PARTITION, which did not prove (the plan oracle's
// change_partition steps, SCHEMAGEN_PLANTEST_SEED=95959).
func TestPartitionEveryPartRefused(t *testing.T) {
	table := func(typ, parts string) string {
		return "table \"p0\" {\n  column \"id\" {\n    type = bigint\n  }\n  primary_key {\n    columns = [\"id\"]\n  }\n  partition {\n    type   = \"" + typ + "\"\n    column = \"id\"\n" + parts + "  }\n}\n"
	}
	rest := "    part \"p0_rest\" {\n      rest = true\n    }\n"
	cases := []struct{ name, before, after string }{
		{"range", table("range", rest), table("range", "    part \"p0_p1\" {\n      less_than = 100\n    }\n")},
		{"list", table("list", rest), table("list", "    part \"p0_p0\" {\n      values = [0]\n    }\n    part \"p0_p1\" {\n      values = [-1, 7]\n    }\n")},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			r := plantest.NewRunner(t)
			f, err := r.Reproduce(context.Background(), 1, c.before, c.after, c.name)
			if err != nil {
				t.Fatal(err)
			}
			if f != nil {
				t.Fatalf("a file was written and failed: %s", f.What)
			}
			refused := false
			for _, e := range r.Refusals {
				var ref *hazard.Refusal
				if pe := (*migration.ProofError)(nil); errors.As(e, &pe) {
					t.Fatalf("a plan that did not prove: %v", e)
				}
				if errors.As(e, &ref) && strings.Contains(e.Error(), "TiDB: cannot plan dropping every part of the table") {
					refused = true
				}
			}
			if !refused {
				t.Fatalf("TiDB refused nothing: %v", r.Refusals)
			}
		})
	}
}
