package migration_test

import (
	"strings"
	"testing"

	"github.com/schemagen/schemagen/internal/dbtest"
	"github.com/schemagen/schemagen/internal/testproject"
)

const linesModel = `
table "order_items" {
  column "id" {
    type = int
  }
  column "price" {
    type = decimal(10,2)
  }
  column "qty" {
    type = int
  }
  column "total" {
    type = decimal(14,2)
    null = true
    #TOTAL
  }
  primary_key {
    columns = ["id"]
  }
}
`

// TestDiffGeneratedColumn turns a plain column into a generated one with
// rows present, on both databases: the rows are kept and the generated
// values computed. Back to plain, PostgreSQL keeps the values; TiDB cannot
// make a VIRTUAL column plain (nor add a STORED one), and the diff says so.
func TestDiffGeneratedColumn(t *testing.T) {
	t.Parallel()
	testGeneratedColumn(t, linesModel, []string{"postgres", "tidb"}, false)
}

func TestDiffGeneratedColumnBackPostgres(t *testing.T) {
	t.Parallel()
	testGeneratedColumn(t, strings.Replace(linesModel, "  primary_key {", "  tidb {\n    skip = true\n  }\n  primary_key {", 1), []string{"postgres"}, true)
}

func testGeneratedColumn(t *testing.T, linesModel string, dialects []string, back bool) {
	p := testproject.New(t, strings.Replace(linesModel, "    #TOTAL\n", "", 1))
	p.Diff("init")
	dbs := map[string]*dbtest.DB{}
	for _, d := range dialects {
		dbs[d] = dbtest.New(t, d)
	}
	for d, db := range dbs {
		p.Apply(d, db.URL)
		if _, err := db.Exec("INSERT INTO order_items (id, price, qty, total) VALUES (1, 2.50, 3, NULL), (2, 1.25, 4, 99)"); err != nil {
			t.Fatal(err)
		}
	}
	totals := func(step string) {
		t.Helper()
		for d, db := range dbs {
			var got []string
			rows, err := db.Query("SELECT id, total FROM order_items ORDER BY id")
			if err != nil {
				t.Fatal(err)
			}
			for rows.Next() {
				var id, total string
				if err := rows.Scan(&id, &total); err != nil {
					t.Fatal(err)
				}
				got = append(got, id+":"+total)
			}
			rows.Close()
			if strings.Join(got, " ") != "1:7.50 2:5.00" {
				t.Errorf("%s, %s: rows %v, want 1:7.50 2:5.00", step, d, got)
			}
		}
	}
	steps := []struct{ name, attrs string }{
		{"generated", "    as     = \"price * qty\"\n    stored = false\n"},
	}
	if back {
		steps = append(steps, struct{ name, attrs string }{"plain", ""})
	}
	for _, step := range steps {
		p.Generate(strings.Replace(linesModel, "    #TOTAL\n", step.attrs, 1))
		plan := p.Diff(step.name)
		t.Logf("%s: %v", step.name, plan)
		for d, db := range dbs {
			p.Apply(d, db.URL)
		}
		totals(step.name)
		if again := p.Diff(step.name + "_again"); len(again) != 0 {
			t.Errorf("%s: a second diff found changes: %v", step.name, again)
		}
	}
}
