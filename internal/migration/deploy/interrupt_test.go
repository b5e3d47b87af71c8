package deploy_test

import (
	"context"
	"database/sql"
	"errors"
	"slices"
	"strings"
	"testing"
	"time"

	"ariga.io/atlas/sql/migrate"

	"github.com/schemagen/schemagen/dialects/all"
	"github.com/schemagen/schemagen/internal/dbtest"
	"github.com/schemagen/schemagen/internal/migration"
	"github.com/schemagen/schemagen/internal/migration/deploy"
	"github.com/schemagen/schemagen/internal/testproject"
)

// slowInit makes a table whose index builds and updates take seconds: its
// function sleeps 10 ms a row (IMMUTABLE, so that it can be indexed).
const slowInit = `CREATE FUNCTION slow(x integer) RETURNS integer LANGUAGE plpgsql IMMUTABLE AS $$ BEGIN PERFORM pg_sleep(0.01); RETURN x; END $$;
CREATE TABLE "big" ("id" integer NOT NULL, "s" integer NOT NULL, PRIMARY KEY ("id"));
INSERT INTO "big" SELECT g, g FROM generate_series(1, 400) g;
`

const (
	slowIndex  = "-- atlas:txmode none\n\nCREATE INDEX CONCURRENTLY \"big_s_idx\" ON \"big\" (slow(s));\n"
	slowUpdate = "UPDATE \"big\" SET \"s\" = slow(\"s\") + 1;\n"
)

// interruptDuring runs an apply and cancels its context once the server
// has run a statement matching like for 300 ms. It returns the apply's
// error and the statements still running on the server like that one the
// moment the apply returned.
func interruptDuring(t *testing.T, db *sql.DB, tg migration.Target, url, like string) (error, int) {
	t.Helper()
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	done := make(chan error, 1)
	go func() {
		_, err := deploy.Apply(ctx, tg, deploy.ApplyOptions{URL: url, LockTimeout: 10 * time.Minute})
		done <- err
	}()
	waitActive(t, db, like, done)
	cancel()
	err := <-done
	var running int
	if qerr := db.QueryRow(`SELECT count(*) FROM pg_stat_activity WHERE state = 'active' AND query LIKE $1`, like).Scan(&running); qerr != nil {
		t.Fatal(qerr)
	}
	return err, running
}

// waitActive waits until the server has run a statement like like for
// 300 ms.
func waitActive(t *testing.T, db *sql.DB, like string, done <-chan error) {
	t.Helper()
	deadline := time.Now().Add(time.Minute)
	for {
		var n int
		if err := db.QueryRow(`SELECT count(*) FROM pg_stat_activity WHERE state = 'active' AND query LIKE $1 AND now() - query_start > interval '300 ms'`, like).Scan(&n); err != nil {
			t.Fatal(err)
		}
		if n > 0 {
			return
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
}

func revision(t *testing.T, db *sql.DB, tg migration.Target, version string) *migrate.Revision {
	t.Helper()
	conn, err := db.Conn(context.Background())
	if err != nil {
		t.Fatal(err)
	}
	defer conn.Close()
	r, err := tg.Dialect.Revisions(conn).ReadRevision(context.Background(), version)
	if err != nil {
		t.Fatalf("revision %s: %v", version, err)
	}
	return r
}

// TestInterruptCancelsOnServer: an interrupt during CREATE INDEX
// CONCURRENTLY and during a transactional UPDATE cancels each statement on
// the server before Apply returns; the revisions record what ran; the next
// apply finishes the job (the invalid index dropped and rebuilt).
func TestInterruptCancelsOnServer(t *testing.T) {
	t.Parallel()
	dir := testproject.MigrationDir(t,
		testproject.File{Name: "20260101000001_init.sql", SQL: slowInit},
		testproject.File{Name: "20260101000002_index.sql", SQL: slowIndex},
		testproject.File{Name: "20260101000003_update.sql", SQL: slowUpdate},
	)
	tg := applyTarget("postgres", dir)
	db := dbtest.Postgres(t)
	ctx := context.Background()

	err, running := interruptDuring(t, db.DB, tg, db.URL, "CREATE INDEX CONCURRENTLY%")
	if running != 0 {
		t.Errorf("the index build goes on on the server after the apply returned")
	}
	var ae *deploy.ApplyError
	if !errors.As(err, &ae) || !ae.Interrupted || ae.Version != "20260101000002" {
		t.Fatalf("interrupted index build: %v", err)
	}
	t.Logf("interrupted: %v", err)
	if r := revision(t, db.DB, tg, "20260101000002"); r.Applied != 0 || !strings.HasPrefix(r.Error, "interrupted: ") {
		t.Errorf("revision of the interrupted file: applied %d, error %q", r.Applied, r.Error)
	}
	st, err := deploy.ReadStatus(ctx, tg, db.URL)
	if err != nil {
		t.Fatal(err)
	}
	if !slices.ContainsFunc(st.Unfinished, func(l string) bool { return strings.Contains(l, "index big_s_idx of table big is invalid") }) {
		t.Errorf("status after the interrupted build: unfinished %q", st.Unfinished)
	}

	// The next apply drops the invalid index and builds it; it is
	// interrupted in the UPDATE, rolled back on the server.
	err, running = interruptDuring(t, db.DB, tg, db.URL, "UPDATE%")
	if !errors.As(err, &ae) || !ae.Interrupted || !ae.RolledBack || ae.Version != "20260101000003" {
		t.Fatalf("interrupted update: %v", err)
	}
	if running != 0 {
		t.Errorf("the UPDATE goes on on the server after the apply returned")
	}
	var changed int
	if err := db.QueryRow(`SELECT count(*) FROM big WHERE s <> id`).Scan(&changed); err != nil || changed != 0 {
		t.Errorf("rows the rolled back UPDATE changed: %d (%v)", changed, err)
	}
	var valid bool
	if err := db.QueryRow(`SELECT indisvalid FROM pg_index WHERE indexrelid = 'big_s_idx'::regclass`).Scan(&valid); err != nil || !valid {
		t.Errorf("big_s_idx after the resumed build: valid %v (%v)", valid, err)
	}

	if _, err := deploy.Apply(ctx, tg, deploy.ApplyOptions{URL: db.URL}); err != nil {
		t.Fatalf("the apply after the interrupts: %v", err)
	}
	if err := db.QueryRow(`SELECT count(*) FROM big WHERE s <> id + 1`).Scan(&changed); err != nil || changed != 0 {
		t.Errorf("rows the UPDATE did not change once: %d (%v)", changed, err)
	}
	if st, err := deploy.ReadStatus(ctx, tg, db.URL); err != nil || st.State != deploy.StateUpToDate || len(st.Unfinished) > 0 {
		t.Errorf("status at the end: %+v, %v", st, err)
	}
}

// TestResumeIndexFinishedAfterAll: the server finished a CREATE INDEX
// CONCURRENTLY whose apply died before recording it (the revision says the
// statement is next): the next apply records it as applied instead of
// failing with `relation "big_s_idx" already exists`.
func TestResumeIndexFinishedAfterAll(t *testing.T) {
	t.Parallel()
	const fast = "CREATE TABLE \"big\" (\"id\" integer NOT NULL, \"s\" integer NOT NULL, PRIMARY KEY (\"id\"));\n"
	const index = "-- atlas:txmode none\n\nCREATE INDEX CONCURRENTLY \"big_s_idx\" ON \"big\" (\"s\");\n\nCREATE INDEX CONCURRENTLY \"big_id_s_idx\" ON \"big\" (\"id\", \"s\");\n"
	dir := testproject.MigrationDir(t, testproject.File{Name: "20260101000001_init.sql", SQL: fast}, testproject.File{Name: "20260101000002_index.sql", SQL: index})
	tg := applyTarget("postgres", dir)
	db := dbtest.Postgres(t)
	ctx := context.Background()
	if _, err := deploy.Apply(ctx, tg, deploy.ApplyOptions{URL: db.URL}); err != nil {
		t.Fatal(err)
	}
	// Back to the state of an apply that died in the first index build,
	// which the server finished.
	conn, err := db.Conn(ctx)
	if err != nil {
		t.Fatal(err)
	}
	defer conn.Close()
	revs := all.Get("postgres").Revisions(conn)
	r, err := revs.ReadRevision(ctx, "20260101000002")
	if err != nil {
		t.Fatal(err)
	}
	r.Applied, r.PartialHashes = 0, nil
	if err := revs.WriteRevision(ctx, r); err != nil {
		t.Fatal(err)
	}
	if _, err := db.Exec(`DROP INDEX big_id_s_idx`); err != nil {
		t.Fatal(err)
	}
	res, err := deploy.Apply(ctx, tg, deploy.ApplyOptions{URL: db.URL})
	if err != nil {
		t.Fatalf("resuming after an index the server finished: %v", err)
	}
	if len(res.Files) != 1 || res.Files[0].Stmts != 1 {
		t.Errorf("resumed: %+v, want the file with one statement run", res.Files)
	}
	if r := revision(t, db.DB, tg, "20260101000002"); r.Applied != 2 || r.Error != "" {
		t.Errorf("revision: %+v", r)
	}
	// A failure the file recorded of its own is no interruption: the next
	// apply runs the statement again, and fails as it did.
	r.Applied, r.PartialHashes, r.Error, r.ErrorStmt = 0, nil, `ERROR: relation "big_s_idx" already exists (SQLSTATE 42P07)`, strings.TrimSpace(index)
	if err := revs.WriteRevision(ctx, r); err != nil {
		t.Fatal(err)
	}
	if _, err := deploy.Apply(ctx, tg, deploy.ApplyOptions{URL: db.URL}); err == nil || !strings.Contains(err.Error(), "already exists") {
		t.Errorf("a statement that failed of its own: %v", err)
	}
}

// TestInterruptCancelsOnServerTiDB: an interrupt during a long UPDATE on
// TiDB kills the query on the server (KILL QUERY) before Apply returns; the
// revision records the statements before it, and the next apply resumes at
// the UPDATE.
func TestInterruptCancelsOnServerTiDB(t *testing.T) {
	t.Parallel()
	const init = "CREATE TABLE `big` (`id` int NOT NULL, `s` int NOT NULL, PRIMARY KEY (`id`));\n"
	// 300 rows, 10 ms each: three seconds.
	const update = "INSERT INTO `big` WITH RECURSIVE g (n) AS (SELECT 1 UNION ALL SELECT n + 1 FROM g WHERE n < 300) SELECT n, n FROM g;\n" +
		"UPDATE `big` SET `s` = `s` + 1 + SLEEP(0.01);\n"
	dir := testproject.MigrationDir(t, testproject.File{Name: "20260101000001_init.sql", SQL: init}, testproject.File{Name: "20260101000002_update.sql", SQL: update})
	tg := applyTarget("tidb", dir)
	db := dbtest.TiDB(t)
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	done := make(chan error, 1)
	go func() {
		_, err := deploy.Apply(ctx, tg, deploy.ApplyOptions{URL: db.URL, LockTimeout: 10 * time.Minute})
		done <- err
	}()
	running := func() int {
		var n int
		if err := db.QueryRow("SELECT count(*) FROM information_schema.processlist WHERE db = DATABASE() AND info LIKE 'UPDATE%' AND time >= 1").Scan(&n); err != nil {
			t.Fatal(err)
		}
		return n
	}
	deadline := time.Now().Add(time.Minute)
	for running() == 0 {
		select {
		case err := <-done:
			t.Fatalf("the apply ended before the UPDATE ran a second: %v", err)
		default:
		}
		if time.Now().After(deadline) {
			t.Fatal("the UPDATE never ran")
		}
		time.Sleep(50 * time.Millisecond)
	}
	cancel()
	err := <-done
	var n int
	if qerr := db.QueryRow("SELECT count(*) FROM information_schema.processlist WHERE db = DATABASE() AND info LIKE 'UPDATE%'").Scan(&n); qerr != nil {
		t.Fatal(qerr)
	}
	if n != 0 {
		t.Errorf("the UPDATE goes on on the server after the apply returned")
	}
	var ae *deploy.ApplyError
	if !errors.As(err, &ae) || !ae.Interrupted || ae.Stmt != 2 || ae.Applied != 1 {
		t.Fatalf("interrupted update: %v", err)
	}
	t.Logf("interrupted: %v", err)
	if r := revision(t, db.DB, tg, "20260101000002"); r.Applied != 1 || !strings.HasPrefix(r.Error, "interrupted: ") {
		t.Errorf("revision of the interrupted file: applied %d, error %q", r.Applied, r.Error)
	}
	var changed int
	if err := db.QueryRow("SELECT count(*) FROM big WHERE s <> id").Scan(&changed); err != nil {
		t.Fatal(err)
	}
	t.Logf("rows the killed UPDATE changed: %d (TiDB's statement is atomic: want 0)", changed)
	if changed != 0 {
		t.Errorf("the killed UPDATE changed %d rows", changed)
	}
	res, err := deploy.Apply(context.Background(), tg, deploy.ApplyOptions{URL: db.URL, LockTimeout: 10 * time.Minute})
	if err != nil {
		t.Fatalf("the apply after the interrupt: %v", err)
	}
	if len(res.Files) != 1 || res.Files[0].Resumed != 1 || res.Files[0].Stmts != 1 {
		t.Errorf("resumed: %+v", res.Files)
	}
	if err := db.QueryRow("SELECT count(*) FROM big WHERE s <> id + 1").Scan(&changed); err != nil || changed != 0 {
		t.Errorf("rows the UPDATE did not change once: %d (%v)", changed, err)
	}
}
