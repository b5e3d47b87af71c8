package migration_test

import (
	"context"
	"database/sql"
	"os"
	"strings"
	"testing"
	"time"

	"github.com/schemagen/schemagen/internal/dbtest"
	"github.com/schemagen/schemagen/internal/migration"
	"github.com/schemagen/schemagen/internal/migration/deploy"
	"github.com/schemagen/schemagen/internal/testproject"
)

const resumeInit = `CREATE TABLE "docs" ("id" bigint NOT NULL, "n" integer NOT NULL, PRIMARY KEY ("id"));
`

const resumeIndex = resumeInit + `CREATE INDEX "docs_n_idx" ON "docs" ("n");
`

// resumeCheck adds a CHECK that sleeps 5 ms a row, so that validating it
// takes seconds on a few hundred rows: long enough to kill the session
// mid-statement.
const resumeCheck = resumeIndex + `ALTER TABLE "docs" ADD CONSTRAINT "docs_n_ck" CHECK ((n > 0) AND (pg_sleep(0.005) IS NOT NULL));
`

// TestOnlineResume kills the apply's session during CREATE INDEX
// CONCURRENTLY (waiting for a writer's transaction), then during VALIDATE
// CONSTRAINT (scanning), with pg_terminate_backend from another session:
// each time `migrate status` says what is left, and the next apply finishes
// the job (the invalid index dropped and rebuilt, the constraint validated).
func TestOnlineResume(t *testing.T) {
	ctx := context.Background()
	tg := pgOnlineTarget(t, resumeIndex)
	testproject.WriteMigrations(t, tg.Env.Dir, testproject.File{Name: "20260101000001_init.sql", SQL: resumeInit})
	day := time.Date(2026, 1, 2, 0, 0, 0, 0, time.UTC)
	for _, model := range []string{resumeIndex, resumeCheck} {
		if err := os.WriteFile(tg.Env.Src, []byte(model), 0o644); err != nil {
			t.Fatal(err)
		}
		p := planOnce(t, tg)
		if p.Online == nil && !strings.Contains(strings.Join(cmds(p.Plan), ""), "CONCURRENTLY") {
			t.Fatalf("not an online plan: %v", cmds(p.Plan))
		}
		if _, err := migration.Write([]*migration.Planned{p}, "step", day, nil); err != nil {
			t.Fatal(err)
		}
		day = day.AddDate(0, 0, 1)
	}
	db := dbtest.Postgres(t)
	if _, err := db.Exec(resumeInit + `INSERT INTO docs SELECT g, g FROM generate_series(1, 300) g;`); err != nil {
		t.Fatal(err)
	}
	opts := deploy.ApplyOptions{URL: db.URL, Baseline: "20260101000001"}

	// A writer's open transaction makes the concurrent build wait, after it
	// has created the (invalid) index.
	writer, err := db.Conn(ctx)
	if err != nil {
		t.Fatal(err)
	}
	tx, err := writer.BeginTx(ctx, nil)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := tx.Exec(`INSERT INTO docs VALUES (100000, 1)`); err != nil {
		t.Fatal(err)
	}
	killDuring(t, db.DB, tg, opts, `CREATE INDEX CONCURRENTLY%`)
	tx.Rollback()
	writer.Close()
	st, err := deploy.ReadStatus(ctx, tg, db.URL)
	if err != nil {
		t.Fatal(err)
	}
	if !containsLine(st.Unfinished, "index docs_n_idx of table docs is invalid") || len(st.Pending) != 3 {
		t.Errorf("status after the killed index build: unfinished %q, pending %v", st.Unfinished, st.Pending)
	}

	opts.Baseline = ""
	killDuring(t, db.DB, tg, opts, `ALTER TABLE "docs" VALIDATE CONSTRAINT%`)
	if st, err = deploy.ReadStatus(ctx, tg, db.URL); err != nil {
		t.Fatal(err)
	}
	if !containsLine(st.Unfinished, "constraint docs_n_ck of table docs is NOT VALID") || containsLine(st.Unfinished, "invalid") || len(st.Pending) != 1 {
		t.Errorf("status after the killed validation: unfinished %q, pending %v", st.Unfinished, st.Pending)
	}

	if _, err := deploy.Apply(ctx, tg, opts); err != nil {
		t.Fatalf("the apply after the interruptions: %v", err)
	}
	var invalid, notValid, idx int
	if err := db.QueryRow(`SELECT
  (SELECT count(*) FROM pg_index i JOIN pg_class c ON c.oid = i.indexrelid WHERE NOT i.indisvalid AND c.relnamespace = current_schema()::regnamespace),
  (SELECT count(*) FROM pg_constraint WHERE NOT convalidated AND connamespace = current_schema()::regnamespace),
  (SELECT count(*) FROM pg_class WHERE relname = 'docs_n_idx')`).Scan(&invalid, &notValid, &idx); err != nil {
		t.Fatal(err)
	}
	if invalid != 0 || notValid != 0 || idx != 1 {
		t.Errorf("after the resumed apply: %d invalid indexes, %d constraints not valid, %d docs_n_idx", invalid, notValid, idx)
	}
	if st, err = deploy.ReadStatus(ctx, tg, db.URL); err != nil || st.State != deploy.StateUpToDate || len(st.Unfinished) > 0 {
		t.Errorf("status after the resumed apply: %+v, %v", st, err)
	}
}

// killDuring runs an apply and terminates its session once it has run a
// statement matching like for 300 ms; the apply must fail.
func killDuring(t *testing.T, db *sql.DB, tg migration.Target, opts deploy.ApplyOptions, like string) {
	t.Helper()
	done := make(chan error, 1)
	go func() {
		_, err := deploy.Apply(context.Background(), tg, opts)
		done <- err
	}()
	deadline := time.Now().Add(30 * time.Second)
	for {
		var pid int
		err := db.QueryRow(`SELECT pid FROM pg_stat_activity WHERE state = 'active' AND query LIKE $1 AND now() - query_start > interval '300 ms'`, like).Scan(&pid)
		if err == nil {
			if _, err := db.Exec(`SELECT pg_terminate_backend($1)`, pid); err != nil {
				t.Fatal(err)
			}
			break
		}
		if err != sql.ErrNoRows {
			t.Fatal(err)
		}
		select {
		case err := <-done:
			t.Fatalf("the apply ended before a statement like %q ran long enough: %v", like, err)
		default:
		}
		if time.Now().After(deadline) {
			t.Fatalf("no statement like %q ran", like)
		}
		time.Sleep(50 * time.Millisecond)
	}
	err := <-done
	if err == nil {
		t.Fatalf("the apply killed during %q succeeded", like)
	}
	t.Logf("killed during %s: %v", like, err)
}

func containsLine(lines []string, sub string) bool {
	for _, l := range lines {
		if strings.Contains(l, sub) {
			return true
		}
	}
	return false
}
