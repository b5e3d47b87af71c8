package migration_test

import (
	"context"
	"strings"
	"testing"

	"github.com/schemagen/schemagen/internal/dbtest"
	"github.com/schemagen/schemagen/internal/migration"
	"github.com/schemagen/schemagen/internal/testproject"
)

// enumOrders is one enum used by two tables; #VALUES are its values, #MORE
// more of the model.
const enumOrders = `
enum "order_status" {
  values = [#VALUES]
}

table "orders" {
  column "id" {
    type = int
  }
  column "status" {
    type    = enum.order_status
    default = "pending"
  }
  primary_key {
    columns = ["id"]
  }
}

table "refunds" {
  column "id" {
    type = int
  }
  column "status" {
    type = enum.order_status
    null = true
  }
  primary_key {
    columns = ["id"]
  }
}
#MORE
`

func enumStep(values, more string) string {
	return strings.Replace(strings.Replace(enumOrders, "#VALUES", values, 1), "#MORE", more, 1)
}

const ticketsText = `
enum "level" {
  values = ["low", "high"]
}

table "tickets" {
  column "id" {
    type = int
  }
  column "level" {
    type    = #TYPE
    default = "low"
  }
  primary_key {
    columns = ["id"]
  }
}
`

// TestDiffEnum changes an enum used by two tables with rows present, on
// both databases: values added at the end and in the middle (ALTER TYPE ...
// ADD VALUE on PostgreSQL, MODIFY COLUMN of each column on TiDB), a new enum
// with a new table, a column changed to an enum and back, a dropped enum.
// The rows are kept and every step's second diff is empty. Removing or
// reordering values, and using a value in the migration that adds it, are
// refused at diff with what to write instead.
func TestDiffEnum(t *testing.T) {
	t.Parallel()
	p := testproject.New(t, enumStep(`"pending", "paid"`, ""))
	p.Diff("init")
	dbs := map[string]*dbtest.DB{"postgres": dbtest.Postgres(t), "tidb": dbtest.TiDB(t)}
	for d, db := range dbs {
		p.Apply(d, db.URL)
		testproject.RunSQL(t, db, []byte("INSERT INTO orders (id, status) VALUES (1, 'paid'), (2, 'pending');\nINSERT INTO refunds (id, status) VALUES (1, 'paid'), (2, NULL);"))
	}
	rows := func(step, q, want string) {
		t.Helper()
		for d, db := range dbs {
			var got []string
			rs, err := db.Query(q)
			if err != nil {
				t.Fatalf("%s, %s: %v", step, d, err)
			}
			for rs.Next() {
				var a, b *string
				if err := rs.Scan(&a, &b); err != nil {
					t.Fatal(err)
				}
				s := "NULL"
				if b != nil {
					s = *b
				}
				got = append(got, *a+":"+s)
			}
			rs.Close()
			if strings.Join(got, " ") != want {
				t.Errorf("%s, %s: %s gives %v, want %s", step, d, q, got, want)
			}
		}
	}
	steps := []struct {
		name, model string
		want        map[string]string // a statement each dialect's plan must hold
		inserts     string            // run after the step on both
		q, rows     string
		// refused is a model that migrate diff must refuse after the step,
		// on PostgreSQL, saying refusal.
		refused, refusal string
	}{
		{name: "append", model: enumStep(`"pending", "paid", "shipped"`, ""),
			want:    map[string]string{"postgres": `ALTER TYPE "order_status" ADD VALUE 'shipped'`, "tidb": "ALTER TABLE `refunds` MODIFY COLUMN `status` enum('pending','paid','shipped') NULL"},
			inserts: "INSERT INTO orders (id, status) VALUES (3, 'shipped')",
			q:       "SELECT id, status FROM orders ORDER BY status, id", rows: "2:pending 1:paid 3:shipped"},
		{name: "middle", model: enumStep(`"new", "pending", "on_hold", "paid", "shipped"`, ""),
			want:    map[string]string{"postgres": `ALTER TYPE "order_status" ADD VALUE 'on_hold' AFTER 'pending'`, "tidb": "ALTER TABLE `orders` MODIFY COLUMN `status` enum('new','pending','on_hold','paid','shipped') NOT NULL DEFAULT 'pending'"},
			inserts: "INSERT INTO orders (id, status) VALUES (4, 'on_hold'), (5, 'new')",
			q:       "SELECT id, status FROM orders ORDER BY status, id", rows: "5:new 2:pending 4:on_hold 1:paid 3:shipped"},
		{name: "new_enum", model: enumStep(`"new", "pending", "on_hold", "paid", "shipped"`, strings.Replace(ticketsText, "#TYPE", "enum.level", 1)),
			want:    map[string]string{"postgres": `CREATE TYPE "level" AS ENUM ('low', 'high')`},
			inserts: "INSERT INTO tickets (id, level) VALUES (1, 'high'), (2, 'low')",
			q:       "SELECT id, level FROM tickets ORDER BY level, id", rows: "2:low 1:high"},
		{name: "to_text", model: enumStep(`"new", "pending", "on_hold", "paid", "shipped"`, strings.Replace(ticketsText, "#TYPE", "varchar(10)", 1)),
			inserts: "INSERT INTO tickets (id, level) VALUES (3, 'other')",
			q:       "SELECT id, level FROM tickets ORDER BY id", rows: "1:high 2:low 3:other",
			// Converting the column to an enum gains the value it adds.
			refused: enumStep(`"new", "pending", "on_hold", "paid", "shipped"`, strings.Replace(strings.Replace(ticketsText, "#TYPE", "enum.level", 1), `"low", "high"`, `"low", "high", "other"`, 1)), refusal: "then change the column"},
		{name: "add_other", model: enumStep(`"new", "pending", "on_hold", "paid", "shipped"`, strings.Replace(strings.Replace(ticketsText, "#TYPE", "varchar(10)", 1), `"low", "high"`, `"low", "high", "other"`, 1)),
			want: map[string]string{"postgres": `ALTER TYPE "level" ADD VALUE 'other'`},
			q:    "SELECT id, level FROM tickets ORDER BY id", rows: "1:high 2:low 3:other"},
		{name: "to_enum", model: enumStep(`"new", "pending", "on_hold", "paid", "shipped"`, strings.Replace(strings.Replace(ticketsText, "#TYPE", "enum.level", 1), `"low", "high"`, `"low", "high", "other"`, 1)),
			want: map[string]string{"postgres": `ALTER COLUMN "level" TYPE "level" USING "level"::text::"level"`},
			q:    "SELECT id, level FROM tickets ORDER BY level, id", rows: "2:low 1:high 3:other"},
		{name: "drop_enum", model: enumStep(`"new", "pending", "on_hold", "paid", "shipped"`, ""),
			want: map[string]string{"postgres": `DROP TYPE "level"`},
			q:    "SELECT id, status FROM refunds ORDER BY id", rows: "1:paid 2:NULL"},
	}
	for _, s := range steps {
		p.Generate(s.model)
		plan := p.Diff(s.name)
		for d, stmt := range s.want {
			if !strings.Contains(strings.Join(plan[d], "\n"), stmt) {
				t.Errorf("%s, %s: the plan has no %s:\n%s", s.name, d, stmt, strings.Join(plan[d], "\n"))
			}
		}
		for d, db := range dbs {
			p.Apply(d, db.URL)
			if s.inserts != "" {
				if _, err := db.Exec(s.inserts); err != nil {
					t.Fatalf("%s, %s: %s: %v", s.name, d, s.inserts, err)
				}
			}
		}
		rows(s.name, s.q, s.rows)
		if again := p.Diff(s.name + "_again"); len(again) != 0 {
			t.Errorf("%s: a second diff found changes: %v", s.name, again)
		}
		if s.refused != "" {
			p.Generate(s.refused)
			_, err := migration.Plan(context.Background(), p.Dev, nil, p.Targets, p.Model(), "refused")
			if err == nil || !strings.Contains(err.Error(), s.refusal) || !strings.Contains(err.Error(), "env postgres") {
				t.Errorf("after %s: migrate diff gave %v, want a refusal on postgres saying %q", s.name, err, s.refusal)
			}
		}
	}
	rows("end", "SELECT id, status FROM orders ORDER BY id", "1:paid 2:pending 3:shipped 4:on_hold 5:new")

	// Refused on PostgreSQL: removing a value (also the last one, which
	// Atlas would leave in place), reordering values, and using a new value
	// in the migration that adds it.
	for _, tc := range []struct{ name, model, want string }{
		{"remove", enumStep(`"new", "pending", "on_hold", "paid"`, ""), "it removes ('shipped')"},
		{"remove_middle", enumStep(`"new", "pending", "paid", "shipped"`, ""), "it removes ('on_hold')"},
		{"reorder", enumStep(`"new", "pending", "paid", "on_hold", "shipped"`, ""), "it reorders"},
		{"use_new", strings.Replace(enumStep(`"new", "pending", "on_hold", "paid", "shipped", "lost"`, ""), `default = "pending"`, `default = "lost"`, 1), "Make two migrations"},
	} {
		p.Generate(tc.model)
		_, err := migration.Plan(context.Background(), p.Dev, nil, p.Targets, p.Model(), tc.name)
		// A typed refusal (hazard.Refusal): the plan oracle skips the
		// change instead of failing (it failed on the reorder before).
		if err == nil || !strings.Contains(err.Error(), tc.want) || !strings.Contains(err.Error(), "env postgres") || !migration.Refused(err) {
			t.Errorf("%s: migrate diff gave %v, want a typed refusal on postgres saying %q", tc.name, err, tc.want)
		}
	}
}
