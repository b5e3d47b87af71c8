package deploy_test

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/schemagen/schemagen/dialects"
	"github.com/schemagen/schemagen/internal/datamig"
	"github.com/schemagen/schemagen/internal/dbtest"
	"github.com/schemagen/schemagen/internal/gen"
	"github.com/schemagen/schemagen/internal/migration/deploy"
	"github.com/schemagen/schemagen/internal/testproject"
)

const batchModel = `
table "users" {
  column "id" {
    type = bigint
  }
  column "email" {
    type = varchar(255)
  }
  primary_key {
    columns = ["id"]
  }
}
table "customers" {
  column "id" {
    type = bigint
  }
  column "owner_id" {
    type = bigint
    null = true
  }
  column "billing_email" {
    type = varchar(255)
    null = true
  }
  primary_key {
    columns = ["id"]
  }
}
`

const batchBackfill = `UPDATE customers SET billing_email = u.email
FROM users u
WHERE u.id = customers.owner_id AND customers.billing_email IS NULL
BATCH = 7`

// cancelAt cancels an apply when its progress shows the line holding at.
type cancelAt struct {
	mu     sync.Mutex
	b      bytes.Buffer
	at     string
	cancel func()
}

func (c *cancelAt) Write(p []byte) (int, error) {
	c.mu.Lock()
	defer c.mu.Unlock()
	c.b.Write(p)
	if c.at != "" && strings.Contains(c.b.String(), c.at) {
		c.cancel()
	}
	return len(p), nil
}

// TestBatchedBackfill: a batched backfill, rendered as generate renders it,
// runs batch by batch under migrate apply on both databases, each batch
// committed; interrupted after its second batch it keeps those, and the
// next apply finishes it, with the rows one plain UPDATE gives.
func TestBatchedBackfill(t *testing.T) {
	t.Parallel()
	r := gen.CompileSource("schema.hcl", []byte(batchModel))
	if r.Failed() {
		t.Fatal(r.Diags)
	}
	stmts, diags := datamig.Compile("migrations/portable/20260101000002_billing.sql", []byte(batchBackfill), r.Schema)
	if diags.HasErrors() {
		t.Fatal(diags)
	}
	var rows strings.Builder
	rows.WriteString("INSERT INTO users (id, email) VALUES (1, 'a@example.com'), (2, 'b@example.com'), (3, 'c@example.com');\n")
	rows.WriteString("INSERT INTO customers (id, owner_id, billing_email) VALUES ")
	for i := 1; i <= 50; i++ {
		if i > 1 {
			rows.WriteString(", ")
		}
		owner, email := fmt.Sprint(i%4), "NULL"
		if i%4 == 0 {
			owner = "NULL"
		}
		if i%10 == 0 {
			email = "'kept@example.com'"
		}
		fmt.Fprintf(&rows, "(%d, %s, %s)", i*3, owner, email)
	}
	rows.WriteString(";\n")
	for _, d := range []string{"postgres", "tidb"} {
		t.Run(d, func(t *testing.T) {
			t.Parallel()
			dialect := dialects.DataRenderer(nil)
			var db *dbtest.DB
			if d == "postgres" {
				db = dbtest.Postgres(t)
			} else {
				db = dbtest.TiDB(t)
			}
			tg := applyTarget(d, "")
			dialect = tg.Dialect.(dialects.DataRenderer)
			rendered := datamig.Render(dialect, "migrations/portable/20260101000002_billing.sql", []byte(batchBackfill), stmts, datamig.Catalog(r.Schema), r.Outputs[d].Exprs)
			if !strings.HasPrefix(string(rendered), "-- atlas:txmode none\n") || !strings.Contains(string(rendered), dialects.BatchPrefix) {
				t.Fatalf("rendered:\n%s", rendered)
			}
			dir := testproject.MigrationDir(t,
				testproject.File{Name: "20260101000001_init.sql", SQL: string(r.Outputs[d].SQL) + "\n" + rows.String()},
				testproject.File{Name: "20260101000002_billing.sql", SQL: string(rendered)},
			)
			tg = applyTarget(d, dir)
			ctx, cancel := context.WithCancel(context.Background())
			defer cancel()
			progress := &cancelAt{at: "batch 2 of customers", cancel: cancel}
			_, err := deploy.Apply(ctx, tg, deploy.ApplyOptions{URL: db.URL, LockTimeout: time.Minute, Progress: progress})
			t.Logf("interrupted apply:\n%s", progress.b.String())
			var ae *deploy.ApplyError
			if !errors.As(err, &ae) || !ae.Interrupted || ae.Version != "20260101000002" {
				t.Fatalf("interrupted after batch 2: %v", err)
			}
			if !strings.Contains(err.Error(), "after 2 batch(es)") {
				t.Errorf("the error does not say how far the batches went: %v", err)
			}
			var filled int
			if err := db.QueryRow("SELECT COUNT(*) FROM customers WHERE billing_email IS NOT NULL AND billing_email <> 'kept@example.com'").Scan(&filled); err != nil {
				t.Fatal(err)
			}
			// The first 14 keys (3 to 42), less the ones without owner (12,
			// 24, 36) and the one kept (30).
			if filled != 10 {
				t.Errorf("after two batches of 7 keys: %d rows filled, want 10", filled)
			}

			var out bytes.Buffer
			res, err := deploy.Apply(context.Background(), tg, deploy.ApplyOptions{URL: db.URL, LockTimeout: time.Minute, Progress: &out})
			t.Logf("resumed apply:\n%s", out.String())
			if err != nil || len(res.Files) != 1 {
				t.Fatalf("resumed: %+v, %v", res, err)
			}
			if n := strings.Count(out.String(), "batch "); n != 8 {
				t.Errorf("the resumed apply ran %d batches, want 8 (50 keys by 7)", n)
			}
			if !strings.Contains(out.String(), "batch 1 of customers (7 keys by id): 0 row(s) changed") {
				t.Errorf("the resumed apply changed the rows of the first batch again:\n%s", out.String())
			}
			// The rows one plain UPDATE gives.
			var wrong int
			q := "SELECT COUNT(*) FROM customers c LEFT JOIN users u ON u.id = c.owner_id WHERE NOT (c.billing_email <=> CASE WHEN MOD(c.id, 30) = 0 THEN 'kept@example.com' ELSE u.email END)"
			if d == "postgres" {
				q = strings.Replace(q, "NOT (c.billing_email <=> ", "c.billing_email IS DISTINCT FROM (", 1)
			}
			if err := db.QueryRow(q).Scan(&wrong); err != nil || wrong != 0 {
				t.Errorf("rows that differ from one plain UPDATE: %d (%v)", wrong, err)
			}
		})
	}
}

// TestBatchReadsItsBatch: on TiDB, every batch of a batched backfill reads
// the keys of its batch, not the whole table (TiDB plans an UPDATE without
// reading the session's variables, so a range written with them was a
// full scan per batch: a million-row backfill took 11 times one plain
// UPDATE). Read from the plans TiDB's statement summary keeps for the
// statement.
func TestBatchReadsItsBatch(t *testing.T) {
	t.Parallel()
	const rows, batch = 3000, 100
	r := gen.CompileSource("schema.hcl", []byte(batchModel))
	if r.Failed() {
		t.Fatal(r.Diags)
	}
	src := strings.Replace(batchBackfill, "BATCH = 7", fmt.Sprintf("BATCH = %d", batch), 1)
	stmts, diags := datamig.Compile("migrations/portable/20260101000002_billing.sql", []byte(src), r.Schema)
	if diags.HasErrors() {
		t.Fatal(diags)
	}
	db := dbtest.TiDB(t)
	tg := applyTarget("tidb", "")
	rendered := datamig.Render(tg.Dialect.(dialects.DataRenderer), "migrations/portable/20260101000002_billing.sql", []byte(src), stmts, datamig.Catalog(r.Schema), r.Outputs["tidb"].Exprs)
	var load strings.Builder
	load.WriteString("INSERT INTO users (id, email) VALUES (1, 'a@example.com'), (2, 'b@example.com'), (3, 'c@example.com');\n")
	for i := 0; i < rows; i += 500 {
		load.WriteString("INSERT INTO customers (id, owner_id) VALUES ")
		for j := i + 1; j <= i+500; j++ {
			if j > i+1 {
				load.WriteString(", ")
			}
			fmt.Fprintf(&load, "(%d, %d)", j, j%3+1)
		}
		load.WriteString(";\n")
	}
	dir := testproject.MigrationDir(t,
		testproject.File{Name: "20260101000001_init.sql", SQL: string(r.Outputs["tidb"].SQL) + "\n" + load.String()},
		testproject.File{Name: "20260101000002_billing.sql", SQL: string(rendered)},
	)
	var out bytes.Buffer
	if _, err := deploy.Apply(context.Background(), applyTarget("tidb", dir), deploy.ApplyOptions{URL: db.URL, LockTimeout: time.Minute, Progress: &out}); err != nil {
		t.Fatalf("apply: %v\n%s", err, out.String())
	}
	if n := strings.Count(out.String(), "batch "); n != rows/batch {
		t.Fatalf("%d batches, want %d:\n%s", n, rows/batch, out.String())
	}
	rs, err := db.Query(`SELECT EXEC_COUNT, PLAN FROM information_schema.statements_summary
WHERE SCHEMA_NAME = ? AND LOWER(DIGEST_TEXT) LIKE 'update %customers%'`, db.Name)
	if err != nil {
		t.Fatal(err)
	}
	defer rs.Close()
	var execs int64
	for rs.Next() {
		var n int64
		var plan string
		if err := rs.Scan(&n, &plan); err != nil {
			t.Fatal(err)
		}
		execs += n
		for _, line := range strings.Split(plan, "\n") {
			if strings.Contains(line, "table:customers") && strings.Contains(line, "TableFullScan") {
				t.Errorf("%d run(s) of the batched UPDATE scan the whole table:\n%s", n, plan)
				break
			}
		}
	}
	if err := rs.Err(); err != nil {
		t.Fatal(err)
	}
	if execs < rows/batch {
		t.Fatalf("the statement summary shows %d runs of the UPDATE, want %d", execs, rows/batch)
	}
}
