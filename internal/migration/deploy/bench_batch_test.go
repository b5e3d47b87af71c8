package deploy_test

import (
	"context"
	"errors"
	"os"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/schemagen/schemagen/dialects"
	"github.com/schemagen/schemagen/internal/datamig"
	"github.com/schemagen/schemagen/internal/dbtest"
	"github.com/schemagen/schemagen/internal/gen"
	"github.com/schemagen/schemagen/internal/migration/deploy"
	"github.com/schemagen/schemagen/internal/testproject"
)

// BenchmarkBackfill (scripts/bench-backfill.sh) fills customers.billing_email
// from the owning user on a table of SCHEMAGEN_BENCH_ROWS rows (default
// 100,000), on each dialect of SCHEMAGEN_BENCH_DIALECTS: once as one plain
// UPDATE, then as the same backfill with BATCH = 10000 under migrate
// apply, interrupted halfway and resumed. It reports the times side by
// side (plain-ms, batched-ms) and fails unless both give the same rows.
func BenchmarkBackfill(b *testing.B) {
	rows := 100_000
	if v := os.Getenv("SCHEMAGEN_BENCH_ROWS"); v != "" {
		n, err := strconv.Atoi(v)
		if err != nil {
			b.Fatal(err)
		}
		rows = n
	}
	ds := []string{"postgres", "tidb"}
	if v := os.Getenv("SCHEMAGEN_BENCH_DIALECTS"); v != "" {
		ds = strings.Split(v, ",")
	}
	r := gen.CompileSource("schema.hcl", []byte(batchModel))
	if r.Failed() {
		b.Fatal(r.Diags)
	}
	const plainSrc = "UPDATE customers SET billing_email = u.email FROM users u WHERE u.id = customers.owner_id AND customers.billing_email IS NULL"
	const batchSrc = plainSrc + " BATCH = 10000"
	for _, d := range ds {
		b.Run(d, func(b *testing.B) {
			var db *dbtest.DB
			if d == "postgres" {
				db = dbtest.Postgres(b)
			} else {
				db = dbtest.TiDB(b)
			}
			tg := applyTarget(d, "")
			dr := tg.Dialect.(dialects.DataRenderer)
			render := func(src string) []byte {
				stmts, diags := datamig.Compile("backfill.sql", []byte(src), r.Schema)
				if diags.HasErrors() {
					b.Fatal(diags)
				}
				return datamig.Render(dr, "migrations/portable/20260101000002_billing.sql", []byte(src), stmts, datamig.Catalog(r.Schema), r.Outputs[d].Exprs)
			}
			dir := testproject.MigrationDir(b, testproject.File{Name: "20260101000001_init.sql", SQL: string(r.Outputs[d].SQL)})
			tg = applyTarget(d, dir)
			ctx := context.Background()
			if _, err := deploy.Apply(ctx, tg, deploy.ApplyOptions{URL: db.URL}); err != nil {
				b.Fatal(err)
			}
			load(b, db, d, rows)
			reset := func() {
				if _, err := db.Exec("UPDATE customers SET billing_email = NULL WHERE billing_email IS NOT NULL AND MOD(id, 10) <> 0"); err != nil {
					b.Fatal(err)
				}
				// Both runs start from a table without the dead rows of the
				// other (PostgreSQL's batches read them through the index).
				if d == "postgres" {
					if _, err := db.Exec("VACUUM ANALYZE customers"); err != nil {
						b.Fatal(err)
					}
				}
			}
			reset()
			b.ResetTimer()
			for range b.N {
				// One plain UPDATE, as the rendered file runs it (one
				// transaction).
				plain := render(plainSrc)
				_, body, _ := strings.Cut(string(plain), "\n\n")
				start := time.Now()
				tx, err := db.Begin()
				if err != nil {
					b.Fatal(err)
				}
				if _, err := tx.Exec(strings.TrimSuffix(strings.TrimSpace(body), ";")); err != nil {
					tx.Rollback()
					b.Logf("%s: the plain UPDATE of %d rows failed: %v", d, rows, err)
					b.ReportMetric(-1, "plain-ms")
				} else if err := tx.Commit(); err != nil {
					b.Logf("%s: the plain UPDATE of %d rows failed at COMMIT: %v", d, rows, err)
					b.ReportMetric(-1, "plain-ms")
				} else {
					b.ReportMetric(float64(time.Since(start).Milliseconds()), "plain-ms")
				}
				want := checksum(b, db)
				reset()

				// Batched under migrate apply, interrupted halfway, resumed.
				testproject.WriteMigrations(b, dir, testproject.File{Name: "20260101000002_billing.sql", SQL: string(render(batchSrc))})
				half := rows / 10000 / 2
				c, cancel := context.WithCancel(ctx)
				progress := &cancelAt{at: "batch " + strconv.Itoa(max(half, 1)) + " of", cancel: cancel}
				start = time.Now()
				_, err = deploy.Apply(c, tg, deploy.ApplyOptions{URL: db.URL, Progress: progress})
				cancel()
				var ae *deploy.ApplyError
				if !errors.As(err, &ae) || !ae.Interrupted {
					b.Fatalf("the interrupted apply: %v", err)
				}
				first := time.Since(start)
				b.Logf("%s: the interrupted apply:\n%s", d, progress.b.String())
				if _, err := deploy.Apply(ctx, tg, deploy.ApplyOptions{URL: db.URL}); err != nil {
					b.Fatalf("the resumed apply: %v", err)
				}
				batched := time.Since(start)
				b.ReportMetric(float64(batched.Milliseconds()), "batched-ms")
				b.ReportMetric(float64(first.Milliseconds()), "interrupted-at-ms")
				if got := checksum(b, db); got != want {
					b.Fatalf("%s: the batched backfill gave other rows than the plain UPDATE: %s, want %s", d, got, want)
				}
				b.Logf("%s, %d rows: plain UPDATE %s; batched, interrupted after %s and resumed: %s in all; same rows (%s)", d, rows, "see plain-ms", first.Round(time.Millisecond), batched.Round(time.Millisecond), want)
				// Undo the backfill and its revision for the next round.
				b.StopTimer()
				reset()
				if _, err := db.Exec(map[string]string{"postgres": "DELETE FROM atlas_schema_revisions.atlas_schema_revisions WHERE version = '20260101000002'", "tidb": "DELETE FROM atlas_schema_revisions WHERE version = '20260101000002'"}[d]); err != nil {
					b.Fatal(err)
				}
				b.StartTimer()
			}
		})
	}
}

// load fills users (1,000) and customers (rows; every tenth keeps its
// e-mail, every fourth has no owner).
func load(b *testing.B, db *dbtest.DB, d string, rows int) {
	b.Helper()
	start := time.Now()
	qs := []string{
		"INSERT INTO users (id, email) SELECT g, CONCAT('user', g, '@example.com') FROM generate_series(1, 1000) g",
		"INSERT INTO customers (id, owner_id, billing_email) SELECT g, CASE WHEN g % 4 = 0 THEN NULL ELSE g % 1000 + 1 END, CASE WHEN g % 10 = 0 THEN 'kept@example.com' END FROM generate_series(1, " + strconv.Itoa(rows) + ") g",
	}
	if d == "tidb" {
		// No generate_series: the digits, crossed.
		digits := "(SELECT 0 AS x UNION ALL SELECT 1 UNION ALL SELECT 2 UNION ALL SELECT 3 UNION ALL SELECT 4 UNION ALL SELECT 5 UNION ALL SELECT 6 UNION ALL SELECT 7 UNION ALL SELECT 8 UNION ALL SELECT 9)"
		seq := func(n int) string {
			var from []string
			var sum []string
			for i, p := 0, 1; p < n; i, p = i+1, p*10 {
				from = append(from, digits+" AS d"+strconv.Itoa(i))
				sum = append(sum, "d"+strconv.Itoa(i)+".x * "+strconv.Itoa(p))
			}
			return "(SELECT " + strings.Join(sum, " + ") + " + 1 AS g FROM " + strings.Join(from, ", ") + ") AS s WHERE g <= " + strconv.Itoa(n)
		}
		qs = []string{
			"INSERT INTO users (id, email) SELECT g, CONCAT('user', g, '@example.com') FROM " + seq(1000),
		}
		// TiDB's transactions are limited in size: load by 50,000.
		for lo := 0; lo < rows; lo += 50000 {
			qs = append(qs, "INSERT INTO customers (id, owner_id, billing_email) SELECT g + "+strconv.Itoa(lo)+", CASE WHEN (g + "+strconv.Itoa(lo)+") % 4 = 0 THEN NULL ELSE (g + "+strconv.Itoa(lo)+") % 1000 + 1 END, CASE WHEN (g + "+strconv.Itoa(lo)+") % 10 = 0 THEN 'kept@example.com' END FROM "+seq(min(50000, rows-lo)))
		}
	}
	for _, q := range qs {
		if _, err := db.Exec(q); err != nil {
			b.Fatalf("%s: loading: %v\n%s", d, err, q)
		}
	}
	b.Logf("%s: loaded %d rows in %s", d, rows, time.Since(start).Round(time.Millisecond))
}

// checksum sums what the rows hold, alike on both dialects.
func checksum(b *testing.B, db *dbtest.DB) string {
	b.Helper()
	var n, filled, kept int64
	if err := db.QueryRow("SELECT COUNT(*), COUNT(billing_email), SUM(CASE WHEN billing_email = CONCAT('user', owner_id, '@example.com') THEN 1 ELSE 0 END) FROM customers").Scan(&n, &filled, &kept); err != nil {
		b.Fatal(err)
	}
	return strconv.FormatInt(n, 10) + " rows, " + strconv.FormatInt(filled, 10) + " e-mails, " + strconv.FormatInt(kept, 10) + " the owner's"
}
