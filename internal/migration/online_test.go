package migration_test

import (
	"context"
	"database/sql"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"

	"ariga.io/atlas/sql/migrate"

	sgdialects "github.com/schemagen/schemagen/dialects"
	"github.com/schemagen/schemagen/dialects/all"
	"github.com/schemagen/schemagen/internal/atlasconf"
	"github.com/schemagen/schemagen/internal/dbtest"
	"github.com/schemagen/schemagen/internal/migration"
	"github.com/schemagen/schemagen/internal/migration/deploy"
	"github.com/schemagen/schemagen/internal/scratch"
	"github.com/schemagen/schemagen/internal/testproject"
)

const onlineInit = `CREATE TABLE "spaces" ("id" bigint NOT NULL, PRIMARY KEY ("id"));
CREATE TABLE "docs" ("id" bigint NOT NULL, "space_id" bigint NOT NULL, "title" character varying(200) NULL, "slug" text NULL, PRIMARY KEY ("id"));
`

// onlineModel adds to onlineInit an index, a unique constraint, a foreign
// key, a CHECK and a NOT NULL on a table that holds rows.
const onlineModel = `CREATE TABLE "spaces" ("id" bigint NOT NULL, PRIMARY KEY ("id"));
CREATE TABLE "docs" (
  "id" bigint NOT NULL,
  "space_id" bigint NOT NULL,
  "title" character varying(200) NOT NULL,
  "slug" text NULL,
  PRIMARY KEY ("id"),
  CONSTRAINT "docs_slug_key" UNIQUE ("slug"),
  CONSTRAINT "docs_space_fk" FOREIGN KEY ("space_id") REFERENCES "spaces" ("id"),
  CONSTRAINT "docs_title_ck" CHECK (char_length((title)::text) > 0)
);
CREATE INDEX "docs_title_idx" ON "docs" ("title");
`

const onlineRows = `INSERT INTO spaces SELECT g FROM generate_series(1, 10) g;
INSERT INTO docs SELECT g, 1 + g % 10, 'title ' || g, 'slug-' || g FROM generate_series(1, 1000) g;`

// pgOnlineTarget is a PostgreSQL env whose directory holds onlineInit and
// whose generated DDL is model.
func pgOnlineTarget(t *testing.T, model string) migration.Target {
	t.Helper()
	root := t.TempDir()
	dir := filepath.Join(root, "migrations")
	if err := os.MkdirAll(dir, 0o755); err != nil {
		t.Fatal(err)
	}
	testproject.WriteMigrations(t, dir, testproject.File{Name: "20260101000001_init.sql", SQL: onlineInit})
	src := filepath.Join(root, "generated", "postgres", "schema.sql")
	if err := os.MkdirAll(filepath.Dir(src), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(src, []byte(model), 0o644); err != nil {
		t.Fatal(err)
	}
	return migration.Target{
		Env:     &atlasconf.Env{Name: "postgres", Dir: dir, Src: src, Dev: dbtest.ServerURL(t, "postgres")},
		Dialect: all.Get("postgres"),
	}
}

func planOnce(t *testing.T, tg migration.Target, opts ...migration.PlanOption) *migration.Planned {
	t.Helper()
	dev := &scratch.Dev{}
	t.Cleanup(dev.Close)
	// The DDL here is written by hand, not compiled: the model is that DDL.
	src, err := os.ReadFile(tg.Env.Src)
	if err != nil {
		t.Fatal(err)
	}
	model := migration.Model{tg.Dialect.Name(): &sgdialects.Output{SQL: src}}
	planned, err := migration.Plan(context.Background(), dev, nil, []migration.Target{tg}, model, "change", opts...)
	if err != nil {
		t.Fatal(err)
	}
	return planned[0]
}

func cmds(p *migrate.Plan) []string {
	if p == nil {
		return nil
	}
	var out []string
	for _, c := range p.Changes {
		out = append(out, c.Cmd)
	}
	return out
}

// TestOnlinePlanPostgres checks the default (online) plan of an index, a
// unique constraint, a foreign key, a CHECK and a NOT NULL: its two files,
// what each holds, that both the apply and the Atlas library's executor
// run them on a table with rows, and that they reach the model.
func TestOnlinePlanPostgres(t *testing.T) {
	tg := pgOnlineTarget(t, onlineModel)
	p := planOnce(t, tg)
	main, online := strings.Join(cmds(p.Plan), ";\n"), strings.Join(cmds(p.Online), ";\n")
	for _, want := range []string{
		`SET LOCAL lock_timeout = '5s'`,
		`CONSTRAINT "docs_space_fk" FOREIGN KEY ("space_id") REFERENCES "spaces" ("id") ON UPDATE NO ACTION ON DELETE NO ACTION NOT VALID`,
		`ADD CONSTRAINT "docs_title_ck" CHECK (char_length((title)::text) > 0) NOT VALID`,
		`ADD CONSTRAINT "docs_title_not_null" CHECK ("title" IS NOT NULL) NOT VALID`,
	} {
		if !strings.Contains(main, want) {
			t.Errorf("the main file lacks %s:\n%s", want, main)
		}
	}
	for _, want := range []string{
		`CREATE INDEX CONCURRENTLY "docs_title_idx" ON "docs" ("title")`,
		`CREATE UNIQUE INDEX CONCURRENTLY "docs_slug_key" ON "docs" ("slug")`,
		`SET lock_timeout = '5s'`,
		`ALTER TABLE "docs" ADD CONSTRAINT "docs_slug_key" UNIQUE USING INDEX "docs_slug_key"`,
		`ALTER TABLE "docs" VALIDATE CONSTRAINT "docs_space_fk"`,
		`ALTER TABLE "docs" VALIDATE CONSTRAINT "docs_title_ck"`,
		`ALTER TABLE "docs" VALIDATE CONSTRAINT "docs_title_not_null"`,
		`ALTER COLUMN "title" SET NOT NULL`,
		`DROP CONSTRAINT "docs_title_not_null"`,
		`RESET lock_timeout`,
	} {
		if !strings.Contains(online, want) {
			t.Errorf("the online file lacks %s:\n%s", want, online)
		}
	}
	for _, bad := range []string{"CONCURRENTLY", "VALIDATE"} {
		if strings.Contains(main, bad) {
			t.Errorf("the main file (one transaction) holds %s:\n%s", bad, main)
		}
	}
	// SET NOT NULL runs after its CHECK is validated.
	if strings.Index(online, `VALIDATE CONSTRAINT "docs_title_not_null"`) > strings.Index(online, "SET NOT NULL") {
		t.Errorf("SET NOT NULL before the validation of its CHECK:\n%s", online)
	}

	written, err := migration.Write([]*migration.Planned{p}, "change", time.Date(2026, 1, 2, 0, 0, 0, 0, time.UTC), nil)
	if err != nil {
		t.Fatal(err)
	}
	if len(written) != 2 {
		t.Fatalf("wrote %v, want the main file and the online file", written)
	}
	onlineFile, err := os.ReadFile(written[1])
	if err != nil {
		t.Fatal(err)
	}
	if !strings.HasPrefix(string(onlineFile), "-- atlas:txmode none\n\n") {
		t.Errorf("%s does not start with the txmode directive:\n%s", written[1], onlineFile)
	}
	mainFile, _ := os.ReadFile(written[0])
	for _, want := range []string{"-- hazard PG110 docs: ACCESS EXCLUSIVE lock briefly", "-- hazard PG112 docs: SHARE ROW EXCLUSIVE lock briefly (blocks writes)"} {
		if !strings.Contains(string(mainFile), want) {
			t.Errorf("%s lacks the comment %q:\n%s", written[0], want, mainFile)
		}
	}
	for _, want := range []string{"-- hazard PG109 docs: SHARE UPDATE EXCLUSIVE lock for the whole scan (blocks no reads or writes), scans the table", "-- hazard PG102 docs: can fail on existing rows", "-- hazard PG108 docs"} {
		if !strings.Contains(string(onlineFile), want) {
			t.Errorf("%s lacks the comment %q:\n%s", written[1], want, onlineFile)
		}
	}

	// The directory now replays to the model: nothing more to plan.
	if again := planOnce(t, tg); again.Plan != nil {
		t.Errorf("after the online files, diff still plans:\n%s", strings.Join(cmds(again.Plan), ";\n"))
	}

	// schemagen's apply, on a table with rows.
	db := dbtest.Postgres(t)
	onlineWithRows(t, db)
	if _, err := deploy.Apply(context.Background(), tg, deploy.ApplyOptions{URL: db.URL, Baseline: "20260101000001"}); err != nil {
		t.Fatal(err)
	}
	checkOnlineDone(t, db.DB)

	// The Atlas library's executor, file by file as the Atlas CLI runs it.
	db2 := dbtest.Postgres(t)
	onlineWithRows(t, db2)
	atlasExecute(t, tg, db2.DB)
	checkOnlineDone(t, db2.DB)
}

// onlineWithRows applies the init file and fills its tables.
func onlineWithRows(t *testing.T, db *dbtest.DB) {
	t.Helper()
	if _, err := db.Exec(onlineInit); err != nil {
		t.Fatal(err)
	}
	if _, err := db.Exec(onlineRows); err != nil {
		t.Fatal(err)
	}
}

// atlasExecute runs the directory's files after init with migrate.Executor
// as the Atlas CLI does (executeAsCLI).
func atlasExecute(t *testing.T, tg migration.Target, db *sql.DB) {
	t.Helper()
	dir, files := localFiles(t, tg)
	if err := executeAsCLI(tg, dir, db, files[1:]); err != nil {
		t.Fatal(err)
	}
}

// localFiles is target tg's migration directory and its files.
func localFiles(t *testing.T, tg migration.Target) (*migrate.LocalDir, []migrate.File) {
	t.Helper()
	dir, err := migrate.NewLocalDir(tg.Env.Dir)
	if err != nil {
		t.Fatal(err)
	}
	files, err := dir.Files()
	if err != nil {
		t.Fatal(err)
	}
	return dir, files
}

// executeAsCLI runs files of dir with migrate.Executor as the Atlas CLI
// does: each still pending in a transaction unless the file says `-- atlas:txmode none`,
// which is then run on one session. It stops at the first error.
func executeAsCLI(tg migration.Target, dir migrate.Dir, db *sql.DB, files []migrate.File) error {
	ctx := context.Background()
	for _, f := range files {
		if err := executeOne(ctx, tg, dir, db, f); err != nil {
			return fmt.Errorf("migrate.Executor on %s: %w", f.Name(), err)
		}
	}
	return nil
}

func executeOne(ctx context.Context, tg migration.Target, dir migrate.Dir, db *sql.DB, f migrate.File) error {
	conn, err := db.Conn(ctx)
	if err != nil {
		return err
	}
	defer conn.Close()
	var on interface {
		ExecContext(context.Context, string, ...any) (sql.Result, error)
		QueryContext(context.Context, string, ...any) (*sql.Rows, error)
	} = conn
	var tx *sql.Tx
	if !slices.Equal(f.(*migrate.LocalFile).Directive("txmode"), []string{"none"}) {
		if tx, err = conn.BeginTx(ctx, nil); err != nil {
			return err
		}
		defer tx.Rollback()
		on = tx
	}
	drv, err := tg.Dialect.OpenAtlas(on)
	if err != nil {
		return err
	}
	revs := tg.Dialect.Revisions(on)
	if err := revs.Init(ctx); err != nil {
		return err
	}
	// The files before the first one given may have been applied another
	// way, with no revision: the database is not clean then.
	ex, err := migrate.NewExecutor(drv, dir, revs, migrate.WithAllowDirty(true))
	if err != nil {
		return err
	}
	pending, err := ex.Pending(ctx)
	if err != nil && !errors.Is(err, migrate.ErrNoPendingFiles) {
		return err
	}
	if !slices.ContainsFunc(pending, func(p migrate.File) bool { return p.Name() == f.Name() }) {
		return nil
	}
	if err := ex.Execute(ctx, f); err != nil {
		return err
	}
	if tx != nil {
		return tx.Commit()
	}
	return nil
}

// checkOnlineDone checks that the online migration reached the model: every
// constraint validated, no invalid index, the NOT NULL set and its CHECK gone.
func checkOnlineDone(t *testing.T, db *sql.DB) {
	t.Helper()
	var notValid, invalid, helper int
	var nullable string
	if err := db.QueryRow(`SELECT
  (SELECT count(*) FROM pg_constraint WHERE NOT convalidated AND connamespace = current_schema()::regnamespace),
  (SELECT count(*) FROM pg_index i JOIN pg_class c ON c.oid = i.indexrelid WHERE NOT i.indisvalid AND c.relnamespace = current_schema()::regnamespace),
  (SELECT count(*) FROM pg_constraint WHERE conname = 'docs_title_not_null'),
  (SELECT is_nullable FROM information_schema.columns WHERE table_schema = current_schema() AND table_name = 'docs' AND column_name = 'title')`).Scan(&notValid, &invalid, &helper, &nullable); err != nil {
		t.Fatal(err)
	}
	if notValid != 0 || invalid != 0 || helper != 0 || nullable != "NO" {
		t.Errorf("after the online migration: %d constraints not valid, %d invalid indexes, %d helper CHECKs, title nullable %s", notValid, invalid, helper, nullable)
	}
	var n int
	if err := db.QueryRow(`SELECT count(*) FROM pg_constraint WHERE conname IN ('docs_slug_key', 'docs_space_fk', 'docs_title_ck') AND convalidated`).Scan(&n); err != nil || n != 3 {
		t.Errorf("validated constraints: %d (%v), want 3", n, err)
	}
}

// TestPlainPlanPostgres: --plain writes what Atlas plans, one file, with
// the hazards of each statement above it.
func TestPlainPlanPostgres(t *testing.T) {
	tg := pgOnlineTarget(t, onlineModel)
	p := planOnce(t, tg, migration.Plain(true))
	if p.Online != nil {
		t.Fatalf("a plain plan has an online file: %v", cmds(p.Online))
	}
	all := strings.Join(cmds(p.Plan), ";\n")
	for _, bad := range []string{"CONCURRENTLY", "NOT VALID", "VALIDATE", "lock_timeout"} {
		if strings.Contains(all, bad) {
			t.Errorf("the plain plan holds %s:\n%s", bad, all)
		}
	}
	var comments []string
	for _, c := range p.Plan.Changes {
		comments = append(comments, c.Comment)
	}
	text := strings.Join(comments, "\n")
	for _, code := range []string{"PG101", "PG102", "PG103", "PG104", "PG105", "PG111"} {
		if !strings.Contains(text, "hazard "+code+" docs") {
			t.Errorf("no %s hazard in the plain plan's comments:\n%s", code, text)
		}
	}
}

// TestOnlineLockTimeout: a long reader holds the table; the online plan's
// first statement needing ACCESS EXCLUSIVE gives up after lock_timeout
// instead of queueing every query behind it, the file is rolled back, and
// the error says what happened and how to find the blocker.
func TestOnlineLockTimeout(t *testing.T) {
	tg := pgOnlineTarget(t, onlineModel)
	p := planOnce(t, tg)
	if _, err := migration.Write([]*migration.Planned{p}, "change", time.Date(2026, 1, 2, 0, 0, 0, 0, time.UTC), nil); err != nil {
		t.Fatal(err)
	}
	db := dbtest.Postgres(t)
	onlineWithRows(t, db)
	ctx := context.Background()
	reader, err := db.Conn(ctx)
	if err != nil {
		t.Fatal(err)
	}
	defer reader.Close()
	tx, err := reader.BeginTx(ctx, nil)
	if err != nil {
		t.Fatal(err)
	}
	defer tx.Rollback()
	if _, err := tx.Exec(`SELECT count(*) FROM docs`); err != nil {
		t.Fatal(err)
	}
	// Without lock_timeout the apply would wait for the reader, which rolls
	// back only after it: the error below is the proof, not a clock.
	_, err = deploy.Apply(ctx, tg, deploy.ApplyOptions{URL: db.URL, Baseline: "20260101000001"})
	var ae *deploy.ApplyError
	if !errors.As(err, &ae) || !ae.RolledBack || !strings.Contains(ae.Error(), "gave up waiting for its lock (lock_timeout)") ||
		!strings.Contains(ae.Error(), "pg_blocking_pids") {
		t.Fatalf("want a rolled-back ApplyError explaining the lock timeout, got %v", err)
	}
	tx.Rollback()
	if _, err := deploy.Apply(ctx, tg, deploy.ApplyOptions{URL: db.URL}); err != nil {
		t.Fatalf("the apply once the reader is gone: %v", err)
	}
	checkOnlineDone(t, db.DB)
}

// TestOnlineDropIndex: an index dropped by an online plan is dropped
// CONCURRENTLY, alone in a file marked txmode none, and applies.
func TestOnlineDropIndex(t *testing.T) {
	withIndex := onlineInit + `CREATE INDEX "docs_title_idx" ON "docs" ("title");
`
	tg := pgOnlineTarget(t, onlineInit)
	testproject.WriteMigrations(t, tg.Env.Dir, testproject.File{Name: "20260101000001_init.sql", SQL: withIndex})
	p := planOnce(t, tg)
	if p.Online != nil || !slices.Equal(cmds(p.Plan), []string{`DROP INDEX CONCURRENTLY "docs_title_idx"`}) || !slices.Equal(p.Plan.Directives, []string{"-- atlas:txmode none"}) {
		t.Fatalf("plan: %v %v, online %v", p.Plan.Directives, cmds(p.Plan), cmds(p.Online))
	}
	if _, err := migration.Write([]*migration.Planned{p}, "drop", time.Date(2026, 1, 2, 0, 0, 0, 0, time.UTC), nil); err != nil {
		t.Fatal(err)
	}
	db := dbtest.Postgres(t)
	if _, err := db.Exec(withIndex + onlineRows); err != nil {
		t.Fatal(err)
	}
	if _, err := deploy.Apply(context.Background(), tg, deploy.ApplyOptions{URL: db.URL, Baseline: "20260101000001"}); err != nil {
		t.Fatal(err)
	}
	var n int
	if err := db.QueryRow(`SELECT count(*) FROM pg_class WHERE relname = 'docs_title_idx'`).Scan(&n); err != nil || n != 0 {
		t.Errorf("the index is still there (%d, %v)", n, err)
	}
}

// TestOnlineUniqueForNewForeignKey: a unique index that a foreign key added
// by the same migration references is built CONCURRENTLY like any other,
// and the key added (NOT VALID, then validated) after it, outside the
// transaction: the key finds the index (it was built in the first file,
// under a lock blocking writes, before TestUniqueKeyForNewForeignKeyOnline).
func TestOnlineUniqueForNewForeignKey(t *testing.T) {
	init := `CREATE TABLE "spaces" ("id" bigint NOT NULL, "code" text NOT NULL, PRIMARY KEY ("id"));
CREATE TABLE "docs" ("id" bigint NOT NULL, "space_code" text NOT NULL, PRIMARY KEY ("id"));
`
	model := init + `CREATE UNIQUE INDEX "spaces_code_key" ON "spaces" ("code");
ALTER TABLE "docs" ADD CONSTRAINT "docs_space_fk" FOREIGN KEY ("space_code") REFERENCES "spaces" ("code");
`
	tg := pgOnlineTarget(t, model)
	testproject.WriteMigrations(t, tg.Env.Dir, testproject.File{Name: "20260101000001_init.sql", SQL: init})
	p := planOnce(t, tg)
	all := strings.Join(append(cmds(p.Plan), cmds(p.Online)...), ";\n")
	if !strings.Contains(all, `CREATE UNIQUE INDEX CONCURRENTLY "spaces_code_key"`) || strings.Index(all, "spaces_code_key") > strings.Index(all, "docs_space_fk") {
		t.Errorf("the unique index is not built CONCURRENTLY before the key:\n%s", all)
	}
	if _, err := migration.Write([]*migration.Planned{p}, "fk", time.Date(2026, 1, 2, 0, 0, 0, 0, time.UTC), nil); err != nil {
		t.Fatal(err)
	}
	db := dbtest.Postgres(t)
	if _, err := db.Exec(init + `INSERT INTO spaces VALUES (1, 'a'); INSERT INTO docs VALUES (1, 'a');`); err != nil {
		t.Fatal(err)
	}
	if _, err := deploy.Apply(context.Background(), tg, deploy.ApplyOptions{URL: db.URL, Baseline: "20260101000001"}); err != nil {
		t.Fatal(err)
	}
}

// TestOnlineIndexMovedWithDroppedColumn: an index moved from a column the
// migration drops to a new one (a key moved to new columns) was dropped
// and built plainly in the transactional file, blocking writes for the
// build (lint's PG101 on migrate diff's file; the plan oracle, evolution
// seed 72727218223). The old index goes in the transaction of the DROP
// COLUMN (with the column), the new one is built CONCURRENTLY in the
// second file.
func TestOnlineIndexMovedWithDroppedColumn(t *testing.T) {
	init := onlineInit + `CREATE INDEX "docs_slug_idx" ON "docs" ("slug");
`
	model := `CREATE TABLE "spaces" ("id" bigint NOT NULL, PRIMARY KEY ("id"));
CREATE TABLE "docs" ("id" bigint NOT NULL, "space_id" bigint NOT NULL, "title" character varying(200) NULL, "code" text NULL, PRIMARY KEY ("id"));
CREATE INDEX "docs_slug_idx" ON "docs" ("code");
`
	tg := pgOnlineTarget(t, model)
	testproject.WriteMigrations(t, tg.Env.Dir, testproject.File{Name: "20260101000001_init.sql", SQL: init})
	p := planOnce(t, tg)
	main, online := strings.Join(cmds(p.Plan), ";\n"), strings.Join(cmds(p.Online), ";\n")
	if strings.Contains(main, "CREATE INDEX") || strings.Contains(online, "DROP INDEX") || !strings.Contains(online, `CREATE INDEX CONCURRENTLY "docs_slug_idx" ON "docs" ("code")`) {
		t.Fatalf("the index is not dropped in the first file and built CONCURRENTLY in the second:\n%s\n-- second file:\n%s", main, online)
	}
	if _, err := migration.Write([]*migration.Planned{p}, "move", time.Date(2026, 1, 2, 0, 0, 0, 0, time.UTC), nil); err != nil {
		t.Fatal(err)
	}
	db := dbtest.Postgres(t)
	if _, err := db.Exec(init + onlineRows); err != nil {
		t.Fatal(err)
	}
	if _, err := deploy.Apply(context.Background(), tg, deploy.ApplyOptions{URL: db.URL, Baseline: "20260101000001"}); err != nil {
		t.Fatal(err)
	}
	var def string
	if err := db.QueryRow(`SELECT pg_get_indexdef(i.indexrelid) FROM pg_index i JOIN pg_class c ON c.oid = i.indexrelid WHERE c.relname = 'docs_slug_idx' AND i.indisvalid`).Scan(&def); err != nil || !strings.Contains(def, "(code)") {
		t.Errorf("index docs_slug_idx after the migration: %q, %v; want a valid index over code", def, err)
	}
}
