package drift_test

import (
	"context"
	"slices"
	"strings"
	"testing"

	"github.com/schemagen/schemagen/internal/dbtest"
	"github.com/schemagen/schemagen/internal/drift"
	"github.com/schemagen/schemagen/internal/migration"
	"github.com/schemagen/schemagen/internal/testproject"
)

const partModel = `
table "events" {
  column "id" {
    type = bigint
  }
  column "day" {
    type = date
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
`

// TestDriftPartitions: a partitioned table does not drift at head on
// either database (PostgreSQL's parts are not tables of their own), and a
// part dropped by hand is reported, with a fix that adds it back.
func TestDriftPartitions(t *testing.T) {
	drop := map[string]string{"postgres": `DROP TABLE "events_new"`, "tidb": "ALTER TABLE `events` DROP PARTITION `events_new`"}
	want := map[string]string{
		"postgres": "table attribute events differs: expected part events_new FOR VALUES FROM ('2001-01-01') TO ('3001-01-01'), found no part events_new",
		"tidb":     "table attribute events differs: expected PARTITION events_new VALUES LESS THAN ('3001-01-01'), found no PARTITION events_new",
	}
	for _, d := range []string{"postgres", "tidb"} {
		t.Run(d, func(t *testing.T) {
			t.Parallel()
			p := testproject.New(t, partModel)
			p.Diff("init")
			db := dbtest.New(t, d)
			p.Apply(d, db.URL)
			f := &fixture{p: p, dialect: d}
			if r := f.check(t, db.URL)[0]; r.Status != drift.NoDrift || r.Error != "" {
				t.Fatalf("at head: status %d %s %+v %+v", r.Status, r.Error, r.Migrations, r.Model)
			}
			exec(t, db, drop[d])
			r := f.check(t, db.URL)[0]
			if r.Status != drift.Drift {
				t.Fatalf("after the hand change: status %d %s", r.Status, r.Error)
			}
			for _, c := range []*drift.Comparison{r.Migrations, r.Model} {
				var lines []string
				for _, fd := range c.Findings {
					lines = append(lines, fd.Describe())
				}
				if !slices.Equal(lines, []string{want[d]}) {
					t.Errorf("against %s: findings\n%q\nwant\n%q", c.Against, lines, want[d])
				}
				if fix := strings.Join(c.Fix, "\n"); !strings.Contains(fix, "events_new") || !strings.Contains(fix, "3001-01-01") {
					t.Errorf("against %s: fix %q", c.Against, c.Fix)
				}
			}
		})
	}
}

const exprPartModel = `
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
    part "logs_old" {
      less_than = 2001
    }
    part "logs_new" {
      less_than = 3001
    }
  }
}
`

// TestDriftFunctionPartitions: a table partitioned by the year of a column
// does not drift at head on either database, and a part dropped by hand
// is reported, with a fix that adds it back.
func TestDriftFunctionPartitions(t *testing.T) {
	drop := map[string]string{"postgres": `DROP TABLE "logs_new"`, "tidb": "ALTER TABLE `logs` DROP PARTITION `logs_new`"}
	want := map[string]string{
		"postgres": "table attribute logs differs: expected part logs_new FOR VALUES FROM ('2001') TO ('3001'), found no part logs_new",
		"tidb":     "table attribute logs differs: expected PARTITION logs_new VALUES LESS THAN (3001), found no PARTITION logs_new",
	}
	for _, d := range []string{"postgres", "tidb"} {
		t.Run(d, func(t *testing.T) {
			t.Parallel()
			p := testproject.New(t, exprPartModel)
			p.Diff("init")
			db := dbtest.New(t, d)
			p.Apply(d, db.URL)
			f := &fixture{p: p, dialect: d}
			if r := f.check(t, db.URL)[0]; r.Status != drift.NoDrift || r.Error != "" {
				t.Fatalf("at head: status %d %s %+v %+v", r.Status, r.Error, r.Migrations, r.Model)
			}
			exec(t, db, drop[d])
			r := f.check(t, db.URL)[0]
			if r.Status != drift.Drift {
				t.Fatalf("after the hand change: status %d %s", r.Status, r.Error)
			}
			for _, c := range []*drift.Comparison{r.Migrations, r.Model} {
				var lines []string
				for _, fd := range c.Findings {
					lines = append(lines, fd.Describe())
				}
				if !slices.Equal(lines, []string{want[d]}) {
					t.Errorf("against %s: findings\n%q\nwant\n%q", c.Against, lines, want[d])
				}
				if fix := strings.Join(c.Fix, "\n"); !strings.Contains(fix, "logs_new") || !strings.Contains(fix, "3001") {
					t.Errorf("against %s: fix %q", c.Against, c.Fix)
				}
			}
		})
	}
}

// TestDriftPartitionIndexOnline: indexes added to a partitioned table
// holding rows by migrate diff's online plan (created ON ONLY the table,
// each part's built CONCURRENTLY, named as PostgreSQL would, and
// attached) leave no drift against the directory nor the model, whose
// database PostgreSQL indexes itself, and migrate diff plans nothing more.
func TestDriftPartitionIndexOnline(t *testing.T) {
	t.Parallel()
	p := testproject.New(t, partModel)
	p.Diff("init")
	db := dbtest.Postgres(t)
	p.Apply("postgres", db.URL)
	exec(t, db, `INSERT INTO events SELECT g, DATE '1990-01-01' + g * 10 FROM generate_series(1, 2000) g`)
	p.Generate(strings.Replace(partModel, "  partition {", `  index "events_day_idx" {
    columns = ["day"]
  }
  index "events_day_id_uq" {
    unique  = true
    columns = ["day", "id"]
  }
  partition {`, 1))
	stmts := strings.Join(p.Diff("index")["postgres"], "\n")
	for _, want := range []string{`CREATE INDEX "events_day_idx" ON ONLY`, `CREATE UNIQUE INDEX CONCURRENTLY "events_old_day_id_idx" ON "events_old"`, `ATTACH PARTITION "events_new_day_idx"`} {
		if !strings.Contains(stmts, want) {
			t.Fatalf("no %q in the plan:\n%s", want, stmts)
		}
	}
	p.Apply("postgres", db.URL)
	var invalid int
	if err := db.QueryRow(`SELECT count(*) FROM pg_index WHERE NOT indisvalid`).Scan(&invalid); err != nil || invalid != 0 {
		t.Fatalf("%d invalid indexes (%v)", invalid, err)
	}
	f := &fixture{p: p, dialect: "postgres"}
	if r := f.check(t, db.URL)[0]; r.Status != drift.NoDrift || r.Error != "" {
		t.Fatalf("status %d %s %+v %+v", r.Status, r.Error, r.Migrations, r.Model)
	}
	planned, err := migration.Plan(context.Background(), p.Dev, nil, p.Targets, p.Model(), "again")
	if err != nil {
		t.Fatal(err)
	}
	for _, pl := range planned {
		if pl.Plan != nil {
			t.Errorf("%s: migrate diff plans more: %v", pl.Target.Dialect.Name(), pl.Plan.Changes)
		}
	}
}
