package cli_test

import (
	"context"
	"database/sql"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/schemagen/schemagen/internal/dbtest"
	"github.com/schemagen/schemagen/internal/testproject"
)

// The data part of ../shared/seeds' 0014_source_credential_refs: its
// backfill and both guards, written once (internal/datamig/testdata).
const (
	seedModel    = "../datamig/testdata/seed0014/schema.hcl"
	seedData     = "../datamig/testdata/seed0014/data.sql"
	guardMissing = "source credential_ref is missing a matching active lifecycle registry row"
)

const (
	space  = "11111111-1111-4111-8111-111111111111"
	srcOne = "22222222-2222-4222-8222-222222222201"
	srcTwo = "22222222-2222-4222-8222-222222222202"
	srcSix = "22222222-2222-4222-8222-222222222206"
	stray  = "33333333-3333-4333-8333-333333333333"
)

// seedRows fills the seed's tables: a space, a source with a credential
// ref, one without, and one whose lifecycle row an earlier run of the
// migration registered (the replay the backfill's ON CONFLICT is for).
// With inconsistent, a lifecycle row claims the first source's ref for
// another source: the backfill skips that source, and the first guard must
// stop the migration.
func seedRows(t *testing.T, db *dbtest.DB, inconsistent bool) {
	t.Helper()
	ctx := context.Background()
	conn, err := db.Conn(ctx)
	if err != nil {
		t.Fatal(err)
	}
	defer conn.Close()
	ts := "'2026-01-02 03:04:05'"
	if db.Dialect == "postgres" {
		ts = "'2026-01-02 03:04:05+00'"
		if _, err := conn.ExecContext(ctx, "SET TIME ZONE 'UTC'"); err != nil {
			t.Fatal(err)
		}
	} else if _, err := conn.ExecContext(ctx, "SET time_zone = '+00:00'"); err != nil {
		t.Fatal(err)
	}
	stmts := []string{
		"INSERT INTO knowledge_spaces (id, tenant_id, slug, name, revision, lifecycle_state, created_at, updated_at) VALUES ('" + space + "', 'tenant-a', 'docs', 'Docs', 1, 'active', " + ts + ", " + ts + ")",
	}
	for _, s := range []struct{ id, ref, version string }{{srcOne, "'ref-1'", "3"}, {srcTwo, "NULL", "1"}, {srcSix, "'ref-6'", "2"}} {
		stmts = append(stmts, "INSERT INTO sources (id, knowledge_space_id, type, status, name, uri, metadata, permission_scope, version, created_at, updated_at, credential_ref) VALUES ('"+
			s.id+"', '"+space+"', 'web', 'ready', 'n', 'https://example.com', '{}', '{}', "+s.version+", "+ts+", "+ts+", "+s.ref+")")
	}
	lifecycle := func(id, source, ref string) string {
		return "INSERT INTO source_secret_lifecycle_refs (id, tenant_id, knowledge_space_id, source_id, credential_ref, operation_id, purpose, state, source_version, recover_after, delete_attempts, row_version, created_at, updated_at) VALUES ('" +
			id + "', 'tenant-a', '" + space + "', '" + source + "', '" + ref + "', 'legacy-source:" + source + ":2', 'rotate', 'active', 2, " + ts + ", 0, 0, " + ts + ", " + ts + ")"
	}
	stmts = append(stmts, lifecycle(srcSix, srcSix, "ref-6"))
	if inconsistent {
		stmts = append(stmts, lifecycle(stray, srcSix, "ref-1"))
	}
	for _, q := range stmts {
		if _, err := conn.ExecContext(ctx, q); err != nil {
			t.Fatalf("%s: %s: %v", db.Dialect, q, err)
		}
	}
}

// lifecycleRows reads the registry as text both dialects write alike.
func lifecycleRows(t *testing.T, db *dbtest.DB) []string {
	t.Helper()
	cols := []string{"id", "tenant_id", "knowledge_space_id", "source_id", "credential_ref", "operation_id", "purpose", "state", "source_version", "recover_after", "delete_attempts", "row_version", "created_at", "updated_at"}
	var sel []string
	for _, c := range cols {
		switch {
		case strings.HasSuffix(c, "_after") || strings.HasSuffix(c, "_at"):
			if db.Dialect == "postgres" {
				sel = append(sel, "to_char("+c+" AT TIME ZONE 'UTC', 'YYYY-MM-DD HH24:MI:SS')")
			} else {
				sel = append(sel, "DATE_FORMAT("+c+", '%Y-%m-%d %H:%i:%s')")
			}
		case db.Dialect == "postgres":
			sel = append(sel, c+"::text")
		default:
			sel = append(sel, "CAST("+c+" AS CHAR)")
		}
	}
	rs, err := db.Query("SELECT " + strings.Join(sel, ", ") + " FROM source_secret_lifecycle_refs")
	if err != nil {
		t.Fatal(err)
	}
	defer rs.Close()
	var out []string
	for rs.Next() {
		vs := make([]sql.NullString, len(cols))
		ptrs := make([]any, len(vs))
		for i := range vs {
			ptrs[i] = &vs[i]
		}
		if err := rs.Scan(ptrs...); err != nil {
			t.Fatal(err)
		}
		parts := make([]string, len(vs))
		for i, v := range vs {
			parts[i] = v.String
			if !v.Valid {
				parts[i] = "NULL"
			}
		}
		out = append(out, strings.Join(parts, " | "))
	}
	if err := rs.Err(); err != nil {
		t.Fatal(err)
	}
	slices.Sort(out)
	return out
}

// TestSeedDataMigration: the seed's backfill and guards, written once as a
// portable file, rendered by generate, applied by Atlas's executor on both
// databases; consistent rows end alike, an inconsistent row stops the
// migration on both with the guard's message, before it is recorded.
func TestSeedDataMigration(t *testing.T) {
	model, err := os.ReadFile(seedModel)
	if err != nil {
		t.Fatal(err)
	}
	dir := project(t, string(model))
	config := filepath.Join(dir, "atlas.hcl")
	if err := os.WriteFile(config, []byte(testproject.AtlasHCL(dbtest.ServerURL(t, "postgres"), dbtest.ServerURL(t, "tidb"))), 0o644); err != nil {
		t.Fatal(err)
	}
	t.Setenv("XDG_CACHE_HOME", t.TempDir())
	gen := func(cmd string) run {
		return schemagen(t, dir, cmd, "--out", "OUT", "--erd", filepath.Join(dir, "erd.md"), "--config", config, "-q")
	}
	if r := gen("generate"); r.code != 0 {
		t.Fatal(r.stderr)
	}
	if r := migrate(t, dir, "diff", "init"); r.code != 0 {
		t.Fatalf("migrate diff init: exit %d\n%s", r.code, r.stderr)
	}
	type env struct {
		name string
		ok   *dbtest.DB // rows that match
		bad  *dbtest.DB // and an inconsistent one
	}
	envs := []env{{"postgres", dbtest.Postgres(t), nil}, {"tidb", dbtest.TiDB(t), nil}}
	envs[0].bad, envs[1].bad = dbtest.Postgres(t), dbtest.TiDB(t)
	for _, e := range envs {
		for _, db := range []*dbtest.DB{e.ok, e.bad} {
			if r := applyCLI(t, dir, "apply", "--env", e.name, "--url", db.URL); r.code != 0 {
				t.Fatalf("apply init to %s: exit %d\n%s", e.name, r.code, r.stderr)
			}
		}
		seedRows(t, e.ok, false)
		seedRows(t, e.bad, true)
	}

	r := migrate(t, dir, "new", "source_credential_refs", "--data")
	if r.code != 0 {
		t.Fatalf("migrate new --data: exit %d\n%s", r.code, r.stderr)
	}
	portable, _ := filepath.Glob(filepath.Join(dir, "migrations/portable/*_source_credential_refs.sql"))
	if len(portable) != 1 || !strings.Contains(r.stdout, "wrote "+portable[0]) {
		t.Fatalf("migrate new --data wrote %v:\n%s", portable, r.stdout)
	}
	data, err := os.ReadFile(seedData)
	if err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(portable[0], data, 0o644); err != nil {
		t.Fatal(err)
	}
	if r := gen("check"); r.code != 1 {
		t.Fatalf("check before generate: exit %d, want 1\n%s", r.code, r.stdout)
	}
	if r := gen("generate"); r.code != 0 {
		t.Fatalf("generate: exit %d\n%s", r.code, r.stderr)
	}
	if r := gen("check"); r.code != 0 {
		t.Fatalf("check after generate: exit %d\n%s%s", r.code, r.stdout, r.stderr)
	}
	name := filepath.Base(portable[0])
	for _, d := range []string{"postgres", "tidb"} {
		b := read(t, filepath.Join(dir, "migrations", d, name))
		wantIn(t, d+" rendering", b, "-- atlas:txmode file", guardMissing)
	}

	for _, e := range envs {
		r := applyCLI(t, dir, "apply", "--env", e.name, "--url", e.ok.URL)
		if r.code != 0 {
			t.Fatalf("apply to %s: exit %d\n%s", e.name, r.code, r.stderr)
		}
		r = applyCLI(t, dir, "apply", "--env", e.name, "--url", e.bad.URL)
		if r.code != 1 {
			t.Fatalf("apply to %s with an inconsistent row: exit %d, want 1", e.name, r.code)
		}
		wantIn(t, e.name+" stderr", r.stderr, name, guardMissing)
		r = applyCLI(t, dir, "status", "--env", e.name, "--url", e.bad.URL)
		wantIn(t, e.name+" status", r.stdout, "status:          FAILED", name+"  0 of 3 statements applied", guardMissing)
		if r.code != 1 {
			t.Errorf("status of %s: exit %d, want 1", e.name, r.code)
		}
	}
	pg, ti := lifecycleRows(t, envs[0].ok), lifecycleRows(t, envs[1].ok)
	t.Logf("rows: %q", pg)
	if len(pg) != 2 || !slices.Equal(pg, ti) {
		t.Errorf("the registries differ (or hold other than 2 rows):\n  postgres: %q\n  tidb:     %q", pg, ti)
	}
	want := srcOne + " | tenant-a | " + space + " | " + srcOne + " | ref-1 | legacy-source:" + srcOne + ":3 | rotate | active | 3 | 2026-01-02 03:04:05 | 0 | 0 | 2026-01-02 03:04:05 | 2026-01-02 03:04:05"
	if !slices.Contains(pg, want) {
		t.Errorf("the backfill did not register the first source as %q: %q", want, pg)
	}
	// The failed file changed nothing: the registry holds the rows written before.
	for _, e := range envs {
		if got := lifecycleRows(t, e.bad); len(got) != 2 {
			t.Errorf("%s: the failed migration left %d registry rows, want the 2 written before: %q", e.name, len(got), got)
		}
	}

	// An applied file that changes is refused, as any edited migration.
	if err := os.WriteFile(portable[0], append(data, []byte("\nDELETE FROM source_secret_lifecycle_refs WHERE state = 'deleted';\n")...), 0o644); err != nil {
		t.Fatal(err)
	}
	if r := gen("check"); r.code != 1 || !strings.Contains(r.stdout, filepath.Join("migrations", "tidb", name)) {
		t.Errorf("check after an edit of the portable file: exit %d, want 1 naming the rendered file\n%s", r.code, r.stdout)
	}
	if r := gen("generate"); r.code != 0 {
		t.Fatalf("generate after the edit: exit %d\n%s", r.code, r.stderr)
	}
	for _, e := range envs {
		r := applyCLI(t, dir, "apply", "--env", e.name, "--url", e.ok.URL)
		if r.code != 1 {
			t.Errorf("apply of an edited applied file to %s: exit %d, want 1", e.name, r.code)
		}
		wantIn(t, e.name+" stderr", r.stderr, name+" changed after it was applied")
	}
}
