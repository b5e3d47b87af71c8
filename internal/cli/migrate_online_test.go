package cli_test

import (
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/schemagen/schemagen/internal/dbtest"
)

// TestMigrateStatusUnfinished: `migrate status` lists what interrupted
// online statements left: an invalid index (a failed CREATE INDEX
// CONCURRENTLY) and a constraint not validated, in text and JSON.
func TestMigrateStatusUnfinished(t *testing.T) {
	t.Parallel()
	pg, ti := dbtest.Postgres(t), dbtest.TiDB(t)
	dir := applyProject(t, ti.URL)
	if r := applyCLI(t, dir, "apply", "--env", "postgres", "--url", pg.URL); r.code != 0 {
		t.Fatalf("apply: exit %d", r.code)
	}
	// The seed holds code 'a' twice: the unique build fails, leaving its
	// index invalid.
	if _, err := pg.Exec(`CREATE UNIQUE INDEX CONCURRENTLY items_code_key ON items (code)`); err == nil {
		t.Fatal("a unique index over duplicates was built")
	}
	if _, err := pg.Exec(`ALTER TABLE items ADD CONSTRAINT items_code_ck CHECK (code <> '') NOT VALID`); err != nil {
		t.Fatal(err)
	}
	r := applyCLI(t, dir, "status", "--env", "postgres", "--url", pg.URL)
	wantIn(t, "status", r.stdout, "Left by interrupted online statements:",
		"index items_code_key of table items is invalid",
		"constraint items_code_ck of table items is NOT VALID")
	r = applyCLI(t, dir, "status", "--env", "postgres", "--url", pg.URL, "--format", "json")
	var st struct {
		Unfinished []string `json:"unfinished"`
	}
	if err := json.Unmarshal([]byte(r.stdout), &st); err != nil || len(st.Unfinished) != 2 {
		t.Errorf("status --format json: unfinished %q (%v)", st.Unfinished, err)
	}
}

// TestMigrateDiffOnlineAndPlain: `migrate diff` writes the online plan
// (PostgreSQL: a second file marked txmode none), `--plain` Atlas's plan,
// each with hazard comments.
func TestMigrateDiffOnlineAndPlain(t *testing.T) {
	dir := migrateProject(t)
	if r := migrate(t, dir, "diff", "init"); r.code != 0 {
		t.Fatalf("migrate diff init: exit %d\n%s", r.code, r.stderr)
	}
	edit := func(extra string) {
		t.Helper()
		m := strings.Replace(model, "  primary_key {", extra+"  primary_key {", 1)
		if err := os.WriteFile(filepath.Join(dir, "schema.hcl"), []byte(m), 0o644); err != nil {
			t.Fatal(err)
		}
		if r := schemagen(t, dir, "generate", "--out", "OUT"); r.code != 0 {
			t.Fatal(r.stderr)
		}
	}
	edit("  index \"items_state_idx\" {\n    columns = [\"state\"]\n  }\n")
	r := migrate(t, dir, "diff", "--plain", "add_index")
	plain, _ := filepath.Glob(filepath.Join(dir, "migrations/postgres/*_add_index*.sql"))
	if r.code != 0 || len(plain) != 1 {
		t.Fatalf("diff --plain: exit %d, files %v\n%s", r.code, plain, r.stderr)
	}
	b, _ := os.ReadFile(plain[0])
	wantIn(t, plain[0], string(b), "-- hazard PG101 items: SHARE lock for the whole scan (blocks writes)", `CREATE INDEX "items_state_idx" ON "items" ("state");`)

	edit("  index \"items_state_idx\" {\n    columns = [\"state\"]\n  }\n  index \"items_state_id_idx\" {\n    columns = [\"state\", \"id\"]\n  }\n")
	if r := migrate(t, dir, "diff", "add_index2"); r.code != 0 {
		t.Fatalf("diff: exit %d\n%s", r.code, r.stderr)
	}
	online, _ := filepath.Glob(filepath.Join(dir, "migrations/postgres/*_add_index2*.sql"))
	if len(online) != 1 {
		t.Fatalf("online files %v", online)
	}
	b, _ = os.ReadFile(online[0])
	wantIn(t, online[0], string(b), "-- atlas:txmode none\n", "-- hazard PG109", `CREATE INDEX CONCURRENTLY "items_state_id_idx"`)
	ti, _ := filepath.Glob(filepath.Join(dir, "migrations/tidb/*_add_index2.sql"))
	if len(ti) != 1 {
		t.Fatalf("tidb files %v", ti)
	}
	b, _ = os.ReadFile(ti[0])
	wantIn(t, ti[0], string(b), "-- hazard TD101 items")
}
