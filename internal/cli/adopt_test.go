package cli_test

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/schemagen/schemagen/internal/dbtest"
	"github.com/schemagen/schemagen/internal/testproject"
)

// The databases of a team that migrated by hand, one per dialect, with rows.
// (On TiDB the index on team_id comes with the table; created later, it
// sits beside the index TiDB made for the foreign key, which import then
// keeps: see importer's TestTiDBForeignKeyIndexKeptWhenCovered.)
const (
	handPostgres = `
CREATE TABLE teams (
  id uuid PRIMARY KEY,
  name varchar(100) NOT NULL,
  plan varchar(16) NOT NULL DEFAULT 'free',
  created_at timestamptz NOT NULL DEFAULT now(),
  CONSTRAINT teams_plan_ck CHECK (plan IN ('free', 'pro', 'enterprise'))
);
CREATE UNIQUE INDEX teams_name_uq ON teams (name);
CREATE TABLE members (
  id uuid PRIMARY KEY,
  team_id uuid NOT NULL REFERENCES teams (id) ON DELETE CASCADE,
  email varchar(320) NOT NULL,
  left_at timestamptz,
  CONSTRAINT members_email_ck CHECK (char_length(email) > 3 AND email LIKE '%@%')
);
CREATE INDEX members_lower_email_idx ON members (lower(email));
CREATE INDEX members_active_idx ON members (team_id) WHERE left_at IS NULL;
INSERT INTO teams (id, name) VALUES ('0b8c6f0e-4e43-4b55-9a0c-0c4f7d1e2a10', 'core');
INSERT INTO members (id, team_id, email) VALUES ('5f1d2c3b-6a7e-4f80-9b1c-2d3e4f5a6b7c', '0b8c6f0e-4e43-4b55-9a0c-0c4f7d1e2a10', 'ada@example.com');
`
	handTiDB = `
CREATE TABLE teams (
  id char(36) NOT NULL PRIMARY KEY,
  name varchar(100) NOT NULL,
  plan varchar(16) NOT NULL DEFAULT 'free',
  created_at datetime(3) NOT NULL DEFAULT CURRENT_TIMESTAMP(3),
  CONSTRAINT teams_plan_ck CHECK (plan IN ('free', 'pro', 'enterprise'))
);
CREATE UNIQUE INDEX teams_name_uq ON teams (name);
CREATE TABLE members (
  id char(36) NOT NULL PRIMARY KEY,
  team_id char(36) NOT NULL,
  email varchar(320) NOT NULL,
  left_at datetime(3) NULL,
  INDEX members_active_idx (team_id),
  CONSTRAINT members_team_id_fkey FOREIGN KEY (team_id) REFERENCES teams (id) ON DELETE CASCADE,
  CONSTRAINT members_email_ck CHECK (char_length(email) > 3 AND email LIKE '%@%')
);
CREATE INDEX members_lower_email_idx ON members ((lower(email)));
INSERT INTO teams (id, name) VALUES ('0b8c6f0e-4e43-4b55-9a0c-0c4f7d1e2a10', 'core');
INSERT INTO members (id, team_id, email) VALUES ('5f1d2c3b-6a7e-4f80-9b1c-2d3e4f5a6b7c', '0b8c6f0e-4e43-4b55-9a0c-0c4f7d1e2a10', 'ada@example.com');
`
)

// TestAdopting follows docs/adopting.md on two live databases migrated by
// hand: import, generate, a baseline migration recorded as applied without
// running it, then a model change migrated as usual; drift finds both
// databases clean at every stage.
func TestAdopting(t *testing.T) {
	pg, ti := dbtest.Postgres(t), dbtest.TiDB(t)
	testproject.RunSQL(t, pg, []byte(handPostgres))
	testproject.RunSQL(t, ti, []byte(handTiDB))
	live := map[string]*dbtest.DB{"postgres": pg, "tidb": ti}

	dir := t.TempDir()
	cfg := testproject.AtlasHCL(dbtest.ServerURL(t, "postgres"), dbtest.ServerURL(t, "tidb"))
	if err := os.WriteFile(filepath.Join(dir, "atlas.hcl"), []byte(cfg), 0o644); err != nil {
		t.Fatal(err)
	}
	t.Setenv("XDG_CACHE_HOME", t.TempDir())
	step := func(want int, args ...string) run {
		t.Helper()
		r := schemagen(t, dir, args...)
		t.Logf("schemagen %s: exit %d\n%s%s", strings.Join(args, " "), r.code, r.stdout, r.stderr)
		if r.code != want {
			t.Fatalf("schemagen %s: exit %d, want %d", strings.Join(args, " "), r.code, want)
		}
		return r
	}
	m := func(args ...string) []string {
		return append([]string{"migrate", "--config", filepath.Join(dir, "atlas.hcl")}, args...)
	}
	drift := func(d string) run {
		t.Helper()
		return step(0, "drift", "--config", filepath.Join(dir, "atlas.hcl"), "--env", d, "--url", live[d].URL)
	}

	// 1. import both databases into one model; 2. generate.
	step(0, "import", "--url", pg.URL, "--url", ti.URL, "--out", filepath.Join(dir, "schema.hcl"))
	step(0, "generate", "--out", "OUT")
	// 3. the baseline: the whole schema as the first migration.
	step(0, m("diff", "baseline")...)
	files, _ := filepath.Glob(filepath.Join(dir, "migrations", "postgres", "*_baseline.sql"))
	if len(files) != 1 {
		t.Fatalf("baseline files: %v", files)
	}
	version, _, _ := strings.Cut(filepath.Base(files[0]), "_")

	for _, d := range []string{"postgres", "tidb"} {
		// A first apply without --baseline is refused: the database has tables.
		r := step(1, m("apply", "--env", d, "--url", live[d].URL)...)
		wantIn(t, "apply without --baseline", r.stderr, "--baseline VERSION")
		// 4. record the baseline as applied, running nothing.
		r = step(0, m("apply", "--env", d, "--url", live[d].URL, "--baseline", version)...)
		if strings.Contains(r.stdout+r.stderr, "->") {
			t.Errorf("%s: the baseline apply ran statements:\n%s%s", d, r.stdout, r.stderr)
		}
		r = step(0, m("status", "--env", d, "--url", live[d].URL)...)
		wantIn(t, d+" status after the baseline", r.stdout, version+"_baseline.sql", "baseline")
		var rows int
		if err := live[d].QueryRow("SELECT count(*) FROM members").Scan(&rows); err != nil || rows != 1 {
			t.Fatalf("%s: members has %d rows after the baseline (%v)", d, rows, err)
		}
		drift(d)
	}

	// 5. a model change, its migration, applied to both.
	editModel(t, dir, "table \"teams\" {\n", "table \"teams\" {\n  column \"seats\" {\n    type    = int\n    default = 5\n  }\n  check \"teams_seats_ck\" {\n    expr = \"seats BETWEEN 1 AND 500\"\n  }\n")
	step(0, "generate", "--out", "OUT")
	step(0, m("diff", "add_seats")...)
	for _, d := range []string{"postgres", "tidb"} {
		r := step(0, m("apply", "--env", d, "--url", live[d].URL)...)
		wantIn(t, d+" apply", r.stdout+r.stderr, "_add_seats.sql")
		if r := drift(d); !strings.Contains(r.stdout, "no drift") {
			t.Errorf("%s: drift after the model change:\n%s", d, r.stdout)
		}
	}
	if r := step(0, m("diff", "--check")...); strings.Count(r.stdout, "no changes") != 2 {
		t.Errorf("diff --check after adopting:\n%s", r.stdout)
	}
}
