package deploy_test

import (
	"bytes"
	"context"
	"database/sql"
	"errors"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"

	"ariga.io/atlas/sql/migrate"

	"github.com/schemagen/schemagen/dialects/all"
	"github.com/schemagen/schemagen/internal/atlasconf"
	"github.com/schemagen/schemagen/internal/dbtest"
	"github.com/schemagen/schemagen/internal/migration"
	"github.com/schemagen/schemagen/internal/migration/deploy"
	"github.com/schemagen/schemagen/internal/testproject"
)

func applyTarget(dialect, dir string) migration.Target {
	return migration.Target{Env: &atlasconf.Env{Name: dialect, Dir: dir}, Dialect: all.Get(dialect)}
}

func runApply(t *testing.T, tg migration.Target, db *dbtest.DB) (*deploy.ApplyResult, error) {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), 2*time.Minute)
	defer cancel()
	var out bytes.Buffer
	res, err := deploy.Apply(ctx, tg, deploy.ApplyOptions{URL: db.URL, LockTimeout: 10 * time.Minute, Progress: &out})
	t.Logf("apply to %s:\n%s", db.Name, out.String())
	return res, err
}

func mustRunApply(t *testing.T, tg migration.Target, db *dbtest.DB) *deploy.ApplyResult {
	t.Helper()
	res, err := runApply(t, tg, db)
	if err != nil {
		t.Fatalf("apply: %v", err)
	}
	return res
}

// revisionRow is a row of atlas_schema_revisions, read with plain SQL.
type revisionRow struct {
	version, description string
	typ, applied, total  int64
	executedAt           int64 // Unix seconds
	executionTime        int64
	err, errStmt         sql.NullString
	hash                 string
	partial              sql.NullString
	operator             string
}

func revisionRows(t *testing.T, db *dbtest.DB) map[string]revisionRow {
	t.Helper()
	q := `SELECT version, description, type, applied, total, CAST(EXTRACT(EPOCH FROM executed_at) AS bigint), execution_time,
	        error, error_stmt, hash, CAST(partial_hashes AS text), operator_version
	      FROM atlas_schema_revisions.atlas_schema_revisions`
	if db.Dialect == "tidb" {
		q = `SELECT version, description, type, applied, total, UNIX_TIMESTAMP(executed_at), execution_time,
		        error, error_stmt, hash, CAST(partial_hashes AS CHAR), operator_version
		      FROM atlas_schema_revisions`
	}
	rows, err := db.Query(q)
	if err != nil {
		t.Fatal(err)
	}
	defer rows.Close()
	out := map[string]revisionRow{}
	for rows.Next() {
		var r revisionRow
		if err := rows.Scan(&r.version, &r.description, &r.typ, &r.applied, &r.total, &r.executedAt, &r.executionTime,
			&r.err, &r.errStmt, &r.hash, &r.partial, &r.operator); err != nil {
			t.Fatal(err)
		}
		out[r.version] = r
	}
	if err := rows.Err(); err != nil {
		t.Fatal(err)
	}
	return out
}

func fileSum(t *testing.T, dir, name string) string {
	t.Helper()
	d, err := migration.OpenDir(dir, false)
	if err != nil {
		t.Fatal(err)
	}
	sum, err := d.Checksum()
	if err != nil {
		t.Fatal(err)
	}
	h, err := sum.SumByName(name)
	if err != nil {
		t.Fatal(err)
	}
	return h
}

func queryCount(t *testing.T, db *dbtest.DB, q string) int64 {
	t.Helper()
	var n int64
	if err := db.QueryRow(q).Scan(&n); err != nil {
		t.Fatalf("%s: %v", q, err)
	}
	return n
}

var applyDialects = []string{"postgres", "tidb"}

func applyDB(t *testing.T, dialect string) *dbtest.DB {
	if dialect == "tidb" {
		return dbtest.TiDB(t)
	}
	return dbtest.Postgres(t)
}

// revisionColumns are the Atlas CLI's columns of atlas_schema_revisions:
// name, type, nullable, default.
var revisionColumns = map[string][]string{
	"postgres": {
		"version|character varying|NO|",
		"description|character varying|NO|",
		"type|bigint|NO|2",
		"applied|bigint|NO|0",
		"total|bigint|NO|0",
		"executed_at|timestamp with time zone|NO|",
		"execution_time|bigint|NO|",
		"error|text|YES|",
		"error_stmt|text|YES|",
		"hash|character varying|NO|",
		"partial_hashes|jsonb|YES|",
		"operator_version|character varying|NO|",
	},
	"tidb": {
		"version|varchar(255)|NO|",
		"description|varchar(255)|NO|",
		"type|bigint unsigned|NO|2",
		"applied|bigint|NO|0",
		"total|bigint|NO|0",
		"executed_at|timestamp|NO|",
		"execution_time|bigint|NO|",
		"error|longtext|YES|",
		"error_stmt|longtext|YES|",
		"hash|varchar(255)|NO|",
		"partial_hashes|json|YES|",
		"operator_version|varchar(255)|NO|",
	},
}

func revisionTableColumns(t *testing.T, db *dbtest.DB) []string {
	t.Helper()
	q := `SELECT column_name, data_type, is_nullable, COALESCE(column_default, '')
	      FROM information_schema.columns
	      WHERE table_schema = 'atlas_schema_revisions' AND table_name = 'atlas_schema_revisions'
	      ORDER BY ordinal_position`
	if db.Dialect == "tidb" {
		q = `SELECT COLUMN_NAME, COLUMN_TYPE, IS_NULLABLE, COALESCE(COLUMN_DEFAULT, '')
		     FROM INFORMATION_SCHEMA.COLUMNS
		     WHERE TABLE_SCHEMA = DATABASE() AND TABLE_NAME = 'atlas_schema_revisions'
		     ORDER BY ORDINAL_POSITION`
	}
	rows, err := db.Query(q)
	if err != nil {
		t.Fatal(err)
	}
	defer rows.Close()
	var cols []string
	for rows.Next() {
		var name, typ, null, def string
		if err := rows.Scan(&name, &typ, &null, &def); err != nil {
			t.Fatal(err)
		}
		cols = append(cols, strings.Join([]string{name, typ, null, def}, "|"))
	}
	return cols
}

// TestApplyFreshDatabase applies three files to an empty database, checks
// the revisions recorded as the Atlas CLI records them, and applies again.
func TestApplyFreshDatabase(t *testing.T) {
	for _, dialect := range applyDialects {
		t.Run(dialect, func(t *testing.T) {
			t.Parallel()
			db := applyDB(t, dialect)
			dir := testproject.MigrationDir(t,
				testproject.File{Name: "20260101000001_create.sql", SQL: "CREATE TABLE items (id int PRIMARY KEY, code varchar(10));\nCREATE TABLE counter (n int);\n"},
				testproject.File{Name: "20260101000002_index.sql", SQL: "CREATE INDEX items_code_idx ON items (code);\n"},
				testproject.File{Name: "20260101000003_seed.sql", SQL: "-- seed rows\nINSERT INTO items VALUES (1, 'a'), (2, 'b');\nINSERT INTO counter VALUES (1);\n"},
			)
			tg := applyTarget(dialect, dir)
			start := time.Now().Add(-time.Second)
			res := mustRunApply(t, tg, db)
			if res.From != "" || res.To != "20260101000003" || len(res.Files) != 3 {
				t.Fatalf("first apply: %+v", res)
			}
			for i, want := range []int{2, 1, 2} {
				if f := res.Files[i]; f.Stmts != want || f.Resumed != 0 {
					t.Errorf("%s: %d statements run, %d resumed; want %d, 0", f.Name, f.Stmts, f.Resumed, want)
				}
			}
			if n := queryCount(t, db, "SELECT COUNT(*) FROM items"); n != 2 {
				t.Errorf("items has %d rows, want 2", n)
			}

			if got, want := revisionTableColumns(t, db), revisionColumns[dialect]; strings.Join(got, "\n") != strings.Join(want, "\n") {
				t.Errorf("atlas_schema_revisions columns:\n%s\nwant (the Atlas CLI's):\n%s", strings.Join(got, "\n"), strings.Join(want, "\n"))
			}
			rows := revisionRows(t, db)
			if len(rows) != 3 {
				t.Fatalf("%d revisions, want 3: %v", len(rows), rows)
			}
			for _, f := range []struct {
				version, desc, name string
				total               int64
			}{
				{"20260101000001", "create", "20260101000001_create.sql", 2},
				{"20260101000002", "index", "20260101000002_index.sql", 1},
				{"20260101000003", "seed", "20260101000003_seed.sql", 2},
			} {
				r := rows[f.version]
				if r.description != f.desc || r.typ != int64(migrate.RevisionTypeExecute) || r.applied != f.total || r.total != f.total {
					t.Errorf("revision %s: %+v", f.version, r)
				}
				if want := fileSum(t, dir, f.name); r.hash != want {
					t.Errorf("revision %s: hash %q, want atlas.sum's %q", f.version, r.hash, want)
				}
				if r.err.Valid || r.errStmt.Valid || r.partial.Valid {
					t.Errorf("revision %s: error %v, error_stmt %v, partial_hashes %v; want NULLs", f.version, r.err, r.errStmt, r.partial)
				}
				if r.operator != deploy.OperatorVersion {
					t.Errorf("revision %s: operator_version %q", f.version, r.operator)
				}
				if at := time.Unix(r.executedAt, 0); at.Before(start.Truncate(time.Second)) || at.After(time.Now().Add(time.Second)) {
					t.Errorf("revision %s: executed_at %s, want about %s", f.version, at, start)
				}
				if r.executionTime < 0 || r.executionTime > int64(time.Minute) {
					t.Errorf("revision %s: execution_time %d ns", f.version, r.executionTime)
				}
			}

			// The Atlas CLI keeps an identifier row in the table; it is no
			// revision, for the CLI or for schemagen.
			if _, err := db.Exec(insertIdentifier[dialect]); err != nil {
				t.Fatal(err)
			}
			res = mustRunApply(t, tg, db)
			if res.From != "20260101000003" || res.To != res.From || len(res.Files) != 0 {
				t.Fatalf("second apply: %+v", res)
			}
			if n := queryCount(t, db, "SELECT COUNT(*) FROM counter"); n != 1 {
				t.Errorf("counter has %d rows after the second apply, want 1", n)
			}
			st, err := deploy.ReadStatus(context.Background(), tg, db.URL)
			if err != nil {
				t.Fatal(err)
			}
			if st.State != deploy.StateUpToDate || len(st.Applied) != 3 || len(st.Pending) != 0 || st.Current != "20260101000003" {
				t.Errorf("status: %+v", st)
			}
		})
	}
}

var insertIdentifier = map[string]string{
	"postgres": `INSERT INTO atlas_schema_revisions.atlas_schema_revisions (version, description, executed_at, execution_time, hash, operator_version, type)
	             VALUES ('.atlas_cloud_identifier', '5f0e3c1e-8a57-4a8c-9b5e-2f3c9d8f1a11', now(), 0, '', 'Atlas CLI v0.30.0', 0)`,
	"tidb": `INSERT INTO atlas_schema_revisions (version, description, executed_at, execution_time, hash, operator_version, type)
	         VALUES ('.atlas_cloud_identifier', '5f0e3c1e-8a57-4a8c-9b5e-2f3c9d8f1a11', NOW(), 0, '', 'Atlas CLI v0.30.0', 0)`,
}

// TestConcurrentApply starts four applies of one directory on one database at
// once, each with its own connections: the lock lets one run the files and
// the others wait, then find nothing pending. A file run twice would insert
// its row twice.
func TestConcurrentApply(t *testing.T) {
	// Long enough for the others to find the lock taken, even on a loaded
	// machine (TiDB's GET_LOCK with a zero timeout takes about a second to
	// give up).
	sleep := map[string]string{"postgres": "SELECT pg_sleep(2);", "tidb": "SELECT SLEEP(3);"}
	for _, dialect := range applyDialects {
		t.Run(dialect, func(t *testing.T) {
			t.Parallel()
			db := applyDB(t, dialect)
			dir := testproject.MigrationDir(t,
				testproject.File{Name: "20260101000001_counter.sql", SQL: "CREATE TABLE counter (n int NOT NULL);\n"},
				testproject.File{Name: "20260101000002_first.sql", SQL: "INSERT INTO counter (n) VALUES (1);\n" + sleep[dialect] + "\n"},
				testproject.File{Name: "20260101000003_second.sql", SQL: "INSERT INTO counter (n) VALUES (2);\n"},
			)
			tg := applyTarget(dialect, dir)
			const n = 4
			var (
				wg      sync.WaitGroup
				results [n]*deploy.ApplyResult
				errs    [n]error
				notices [n]bytes.Buffer
			)
			for i := range n {
				wg.Go(func() {
					ctx, cancel := context.WithTimeout(context.Background(), 2*time.Minute)
					defer cancel()
					results[i], errs[i] = deploy.Apply(ctx, tg, deploy.ApplyOptions{URL: db.URL, LockTimeout: 10 * time.Minute, Notices: &notices[i]})
				})
			}
			wg.Wait()
			applied, waited := 0, 0
			for i := range n {
				if errs[i] != nil {
					t.Fatalf("apply %d: %v", i, errs[i])
				}
				applied += len(results[i].Files)
				if strings.Contains(notices[i].String(), "waiting up to 10m0s") {
					waited++
				}
				if results[i].To != "20260101000003" {
					t.Errorf("apply %d ended at version %q", i, results[i].To)
				}
			}
			if applied != 3 {
				t.Errorf("the applies ran %d files in all, want each of the 3 once", applied)
			}
			if waited == 0 {
				t.Errorf("no apply waited for the lock; the test proves nothing")
			}
			if got := queryCount(t, db, "SELECT COUNT(*) FROM counter"); got != 2 {
				t.Errorf("counter has %d rows, want 2 (one per file)", got)
			}
			if got := queryCount(t, db, "SELECT SUM(n) FROM counter"); got != 3 {
				t.Errorf("counter sums to %d, want 3", got)
			}
		})
	}
}

// duplicateCodes is a first file leaving data that a unique index refuses.
var duplicateCodes = testproject.File{Name: "20260101000001_items.sql", SQL: "CREATE TABLE items (id int PRIMARY KEY, code varchar(10) NOT NULL);\nINSERT INTO items VALUES (1, 'a'), (2, 'a');\n"}

// TestTiDBResumesAfterFailedStatement: TiDB commits each DDL statement, so a
// failure in the middle of a file leaves the statements before it applied.
// The revision records them, and the next apply resumes at the failed one:
// the first two statements would fail if they ran again.
func TestTiDBResumesAfterFailedStatement(t *testing.T) {
	t.Parallel()
	db := dbtest.TiDB(t)
	const name = "20260101000002_unique_codes.sql"
	dir := testproject.MigrationDir(t, duplicateCodes, testproject.File{Name: name, SQL: "CREATE TABLE audit (id int PRIMARY KEY);\n" +
		"INSERT INTO audit VALUES (1);\n" +
		"CREATE UNIQUE INDEX items_code_uq ON items (code);\n" +
		"ALTER TABLE items ADD CONSTRAINT items_code_ck CHECK (code <> '');\n"})
	tg := applyTarget("tidb", dir)

	res, err := runApply(t, tg, db)
	var ae *deploy.ApplyError
	if !errors.As(err, &ae) {
		t.Fatalf("apply over duplicate codes: %v, want an *ApplyError", err)
	}
	if ae.File != filepath.Join(dir, name) || ae.Stmt != 3 || ae.Total != 4 || ae.Line != 3 || ae.Applied != 2 || ae.RolledBack ||
		!strings.HasPrefix(ae.SQL, "CREATE UNIQUE INDEX items_code_uq") || !strings.Contains(ae.Err.Error(), "Duplicate entry") {
		t.Errorf("ApplyError: %+v", ae)
	}
	for _, want := range []string{filepath.Join(dir, name) + ":3: statement 3 of 4 failed", "CREATE UNIQUE INDEX items_code_uq", "resumes at statement 3"} {
		if !strings.Contains(err.Error(), want) {
			t.Errorf("error lacks %q:\n%v", want, err)
		}
	}
	if len(res.Files) != 1 || res.To != "20260101000001" {
		t.Errorf("result: %+v", res)
	}
	r := revisionRows(t, db)["20260101000002"]
	if r.applied != 2 || r.total != 4 || !strings.Contains(r.err.String, "Duplicate entry") ||
		r.errStmt.String != "CREATE UNIQUE INDEX items_code_uq ON items (code);" || strings.Count(r.partial.String, `"h1:`) != 2 {
		t.Errorf("revision of the failed file: %+v", r)
	}
	st, err := deploy.ReadStatus(context.Background(), tg, db.URL)
	if err != nil {
		t.Fatal(err)
	}
	if st.State != deploy.StateFailed || st.Partial == nil || st.Partial.Applied != 2 || st.Partial.Total != 4 ||
		st.Partial.ErrorStmt != r.errStmt.String || len(st.Pending) != 1 || st.Current != "20260101000001" {
		t.Errorf("status after the failure: %+v (partial %+v)", st, st.Partial)
	}

	// Fix the data, and edit a statement not yet applied (then hash); the
	// next apply runs statements 3 and 4 only.
	if _, err := db.Exec("DELETE FROM items WHERE id = 2"); err != nil {
		t.Fatal(err)
	}
	testproject.WriteMigrations(t, dir, testproject.File{Name: name, SQL: "CREATE TABLE audit (id int PRIMARY KEY);\n" +
		"INSERT INTO audit VALUES (1);\n" +
		"CREATE UNIQUE INDEX items_code_uq ON items (code);\n" +
		"ALTER TABLE items ADD CONSTRAINT items_code_ck CHECK (code <> '' AND code <> '-');\n"})
	res = mustRunApply(t, tg, db)
	if len(res.Files) != 1 || res.Files[0].Resumed != 2 || res.Files[0].Stmts != 2 {
		t.Fatalf("resumed apply: %+v", res)
	}
	r = revisionRows(t, db)["20260101000002"]
	if r.applied != 4 || r.total != 4 || r.err.Valid || r.errStmt.Valid || r.partial.Valid || r.hash != fileSum(t, dir, name) {
		t.Errorf("revision after the resumed apply: %+v; want the edited file's hash %s", r, fileSum(t, dir, name))
	}
	if n := queryCount(t, db, "SELECT COUNT(*) FROM audit"); n != 1 {
		t.Errorf("audit has %d rows, want 1", n)
	}
	if _, err := db.Exec("INSERT INTO items VALUES (3, 'a')"); err == nil {
		t.Error("the unique index was not created")
	}
	if _, err := db.Exec("INSERT INTO items VALUES (4, '-')"); err == nil {
		t.Error("the edited CHECK was not added")
	}
}

// TestPostgresRollsBackFailedFile: PostgreSQL runs a file in one
// transaction, so a failure leaves no trace of the file but the recorded
// error, and the next apply runs the whole file.
func TestPostgresRollsBackFailedFile(t *testing.T) {
	t.Parallel()
	db := dbtest.Postgres(t)
	const name = "20260101000002_unique_codes.sql"
	dir := testproject.MigrationDir(t, duplicateCodes, testproject.File{Name: name, SQL: "CREATE TABLE audit (id int PRIMARY KEY);\n" +
		"INSERT INTO audit VALUES (1);\n" +
		"CREATE UNIQUE INDEX items_code_uq ON items (code);\n"})
	tg := applyTarget("postgres", dir)

	_, err := runApply(t, tg, db)
	var ae *deploy.ApplyError
	if !errors.As(err, &ae) {
		t.Fatalf("apply over duplicate codes: %v, want an *ApplyError", err)
	}
	if ae.Stmt != 3 || ae.Total != 3 || ae.Applied != 0 || !ae.RolledBack || ae.RecordErr != nil ||
		!strings.Contains(ae.Err.Error(), "could not create unique index") {
		t.Errorf("ApplyError: %+v", ae)
	}
	if !strings.Contains(err.Error(), "rolled back") {
		t.Errorf("error does not say the file was rolled back:\n%v", err)
	}
	if n := queryCount(t, db, "SELECT COUNT(*) FROM pg_tables WHERE tablename = 'audit'"); n != 0 {
		t.Error("table audit, created by the failed file, survived the rollback")
	}
	r := revisionRows(t, db)["20260101000002"]
	if r.applied != 0 || r.total != 3 || !strings.Contains(r.err.String, "could not create unique index") ||
		r.errStmt.String != "CREATE UNIQUE INDEX items_code_uq ON items (code);" || r.partial.Valid {
		t.Errorf("revision of the failed file: %+v", r)
	}
	st, err := deploy.ReadStatus(context.Background(), tg, db.URL)
	if err != nil {
		t.Fatal(err)
	}
	if st.State != deploy.StateFailed || st.Partial == nil || st.Partial.Applied != 0 || len(st.Pending) != 1 {
		t.Errorf("status after the failure: %+v", st)
	}

	if _, err := db.Exec("DELETE FROM items WHERE id = 2"); err != nil {
		t.Fatal(err)
	}
	res := mustRunApply(t, tg, db)
	if len(res.Files) != 1 || res.Files[0].Resumed != 0 || res.Files[0].Stmts != 3 {
		t.Fatalf("apply after the fix: %+v", res)
	}
	if n := queryCount(t, db, "SELECT COUNT(*) FROM audit"); n != 1 {
		t.Errorf("audit has %d rows, want 1", n)
	}
	r = revisionRows(t, db)["20260101000002"]
	if r.applied != 3 || r.err.Valid || r.errStmt.Valid {
		t.Errorf("revision after the fix: %+v", r)
	}
}

// TestPostgresTxModeNone: a file marked `-- atlas:txmode none`, as the Atlas
// CLI reads it, runs outside a transaction, which CREATE INDEX CONCURRENTLY
// needs; without the directive it fails.
func TestPostgresTxModeNone(t *testing.T) {
	t.Parallel()
	db := dbtest.Postgres(t)
	dir := testproject.MigrationDir(t,
		testproject.File{Name: "20260101000001_items.sql", SQL: "CREATE TABLE items (id int PRIMARY KEY, code text);\n"},
		testproject.File{Name: "20260101000002_concurrently.sql", SQL: "CREATE INDEX CONCURRENTLY items_code_idx ON items (code);\n"},
	)
	tg := applyTarget("postgres", dir)
	_, err := runApply(t, tg, db)
	var ae *deploy.ApplyError
	if !errors.As(err, &ae) || !strings.Contains(ae.Err.Error(), "cannot run inside a transaction block") {
		t.Fatalf("CREATE INDEX CONCURRENTLY in a transaction: %v", err)
	}
	testproject.WriteMigrations(t, dir, testproject.File{Name: "20260101000002_concurrently.sql", SQL: "-- atlas:txmode none\n\nCREATE INDEX CONCURRENTLY items_code_idx ON items (code);\n"})
	res := mustRunApply(t, tg, db)
	if len(res.Files) != 1 {
		t.Fatalf("apply with txmode none: %+v", res)
	}
	if n := queryCount(t, db, "SELECT COUNT(*) FROM pg_indexes WHERE indexname = 'items_code_idx'"); n != 1 {
		t.Error("the index was not created")
	}
	// The revision has the hash of the file that ran, not of the one that
	// failed.
	if r, want := revisionRows(t, db)["20260101000002"], fileSum(t, dir, "20260101000002_concurrently.sql"); r.hash != want || r.err.Valid {
		t.Errorf("revision: %+v; want hash %q", r, want)
	}
}

// TestApplyRefusesEditedDirectory: a file edited, added or removed after
// atlas.sum was written is refused before connecting, until `migrate hash`.
func TestApplyRefusesEditedDirectory(t *testing.T) {
	t.Parallel()
	db := dbtest.Postgres(t)
	dir := testproject.MigrationDir(t, testproject.File{Name: "20260101000001_items.sql", SQL: "CREATE TABLE items (id int);\n"})
	tg := applyTarget("postgres", dir)
	mustRunApply(t, tg, db)

	os.WriteFile(filepath.Join(dir, "20260101000001_items.sql"), []byte("CREATE TABLE items (id bigint);\n"), 0o644)
	os.WriteFile(filepath.Join(dir, "20260101000002_more.sql"), []byte("CREATE TABLE more (id int);\n"), 0o644)
	_, err := runApply(t, tg, db)
	var se *migration.SumError
	if !errors.As(err, &se) {
		t.Fatalf("apply of an edited directory: %v, want a *SumError", err)
	}
	if strings.Join(se.Edited, ",") != "20260101000001_items.sql" || strings.Join(se.Added, ",") != "20260101000002_more.sql" {
		t.Errorf("SumError: %+v", se)
	}
	if n := queryCount(t, db, "SELECT COUNT(*) FROM pg_tables WHERE tablename = 'more'"); n != 0 {
		t.Error("the refused apply ran a file")
	}
	// Reviewed: restore the applied file, hash the new one.
	testproject.WriteMigrations(t, dir, testproject.File{Name: "20260101000001_items.sql", SQL: "CREATE TABLE items (id int);\n"})
	if res := mustRunApply(t, tg, db); len(res.Files) != 1 || res.Files[0].Name != "20260101000002_more.sql" {
		t.Errorf("apply after migrate hash: %+v", res)
	}
}

// TestApplyConnectionErrors: a URL of the wrong dialect, or one that does not
// connect, fails without showing its password.
func TestApplyConnectionErrors(t *testing.T) {
	dir := testproject.MigrationDir(t, testproject.File{Name: "20260101000001_items.sql", SQL: "CREATE TABLE items (id int);\n"})
	ctx := context.Background()
	_, err := deploy.Apply(ctx, applyTarget("postgres", dir), deploy.ApplyOptions{URL: "mysql://root:s3cret@127.0.0.1:1/app"})
	if err == nil || !strings.Contains(err.Error(), "env \"postgres\" is postgres") || strings.Contains(err.Error(), "s3cret") {
		t.Errorf("apply with a TiDB URL to a postgres env: %v", err)
	}
	_, err = deploy.Apply(ctx, applyTarget("tidb", dir), deploy.ApplyOptions{URL: "mysql://root:s3cret@127.0.0.1:1/"})
	if err == nil || !strings.Contains(err.Error(), "names no database") || strings.Contains(err.Error(), "s3cret") {
		t.Errorf("apply with a TiDB URL without a database: %v", err)
	}
	_, err = deploy.Apply(ctx, applyTarget("postgres", dir), deploy.ApplyOptions{URL: "postgres://bob:s3cret@127.0.0.1:1/app?sslmode=disable"})
	var ce *deploy.ConnError
	if !errors.As(err, &ce) || strings.Contains(err.Error(), "s3cret") || !strings.Contains(err.Error(), "postgres://bob:xxxxx@127.0.0.1:1/app") {
		t.Errorf("apply to a closed port: %v", err)
	}
}

// TestTiDBSplitsStatementsAsMySQL: files are split into statements as the
// Atlas CLI splits them for the MySQL family, where a backslash escapes a
// quote in a string, so that both tools count and hash the same statements.
func TestTiDBSplitsStatementsAsMySQL(t *testing.T) {
	t.Parallel()
	db := dbtest.TiDB(t)
	dir := testproject.MigrationDir(t, testproject.File{Name: "20260101000001_notes.sql", SQL: "CREATE TABLE notes (body text);\nINSERT INTO notes VALUES ('it\\'s; done');\n"})
	res := mustRunApply(t, applyTarget("tidb", dir), db)
	if len(res.Files) != 1 || res.Files[0].Stmts != 2 {
		t.Fatalf("apply: %+v", res)
	}
	var body string
	if err := db.QueryRow("SELECT body FROM notes").Scan(&body); err != nil || body != "it's; done" {
		t.Errorf("notes holds %q (%v)", body, err)
	}
}

// TestApplyLockTimeout: while another session holds the Atlas CLI's lock, an
// apply waits up to its timeout, then gives up without running anything.
func TestApplyLockTimeout(t *testing.T) {
	for _, dialect := range applyDialects {
		t.Run(dialect, func(t *testing.T) {
			t.Parallel()
			ctx := context.Background()
			db := applyDB(t, dialect)
			dir := testproject.MigrationDir(t, testproject.File{Name: "20260101000001_items.sql", SQL: "CREATE TABLE items (id int);\n"})
			tg := applyTarget(dialect, dir)
			conn, err := db.Conn(ctx)
			if err != nil {
				t.Fatal(err)
			}
			defer conn.Close()
			drv, err := tg.Dialect.OpenAtlas(conn)
			if err != nil {
				t.Fatal(err)
			}
			// TiDB's lock is server-wide, so the test waits its turn as
			// every other apply of the run does, then holds it.
			unlock, err := drv.Lock(ctx, deploy.LockName, 10*time.Minute)
			if err != nil {
				t.Fatal(err)
			}
			var notices bytes.Buffer
			start := time.Now()
			_, err = deploy.Apply(ctx, tg, deploy.ApplyOptions{URL: db.URL, LockTimeout: 2 * time.Second, Notices: &notices})
			var le *deploy.LockError
			if !errors.As(err, &le) {
				t.Fatalf("apply while the lock is held: %v, want a *LockError", err)
			}
			if took := time.Since(start); took < 2*time.Second {
				t.Errorf("apply gave up after %s, before its timeout", took)
			}
			if !strings.Contains(notices.String(), "waiting up to 2s") {
				t.Errorf("notices: %q", notices.String())
			}
			if n := queryCount(t, db, tableCount[dialect]); n != 0 {
				t.Errorf("%d tables after the refused apply", n)
			}
			if err := unlock(); err != nil {
				t.Fatal(err)
			}
			mustRunApply(t, tg, db)
		})
	}
}

var tableCount = map[string]string{
	"postgres": "SELECT COUNT(*) FROM pg_tables WHERE schemaname NOT IN ('pg_catalog', 'information_schema')",
	"tidb":     "SELECT COUNT(*) FROM INFORMATION_SCHEMA.TABLES WHERE TABLE_SCHEMA = DATABASE()",
}
