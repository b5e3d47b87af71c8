package lint_test

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/schemagen/schemagen/internal/atlasconf"
	"github.com/schemagen/schemagen/internal/dbtest"
	"github.com/schemagen/schemagen/internal/lint"
	"github.com/schemagen/schemagen/internal/migration"
	"github.com/schemagen/schemagen/internal/scratch"
)

// lintProject is a temporary project with one env per dialect, whose dev
// databases are the test servers.
type lintProject struct {
	t    *testing.T
	dir  string
	cfg  string // atlas.hcl
	seq  int
	urls map[string]string // env url per dialect, "" for none
}

func newLintProject(t *testing.T) *lintProject {
	t.Helper()
	return &lintProject{t: t, dir: t.TempDir(), urls: map[string]string{}}
}

// file adds a migration file to a dialect's directory and rehashes it.
func (p *lintProject) file(dialect, name, content string) string {
	p.t.Helper()
	p.seq++
	dir := filepath.Join(p.dir, "migrations", dialect)
	if err := os.MkdirAll(dir, 0o755); err != nil {
		p.t.Fatal(err)
	}
	file := fmt.Sprintf("20260101%06d_%s.sql", p.seq, name)
	if err := os.WriteFile(filepath.Join(dir, file), []byte(content), 0o644); err != nil {
		p.t.Fatal(err)
	}
	p.hash(dialect)
	return filepath.Join(dir, file)
}

func (p *lintProject) hash(dialect string) {
	p.t.Helper()
	d, err := migration.OpenDir(filepath.Join(p.dir, "migrations", dialect), false)
	if err != nil {
		p.t.Fatal(err)
	}
	if err := migration.Hash(d); err != nil {
		p.t.Fatal(err)
	}
}

func (p *lintProject) targets(dialect string) []migration.Target {
	p.t.Helper()
	cfg := fmt.Sprintf(`
env %q {
  dev = %q
  url = %q
  migration {
    dir = "file://migrations/%s"
  }
}
`, dialect, dbtest.ServerURL(p.t, dialect), p.urls[dialect], dialect)
	path := filepath.Join(p.dir, "atlas.hcl")
	if err := os.WriteFile(path, []byte(cfg), 0o644); err != nil {
		p.t.Fatal(err)
	}
	c, diags := atlasconf.Load(path, nil)
	if diags.HasErrors() {
		p.t.Fatal(diags)
	}
	targets, err := migration.Targets(c, nil)
	if err != nil {
		p.t.Fatal(err)
	}
	return targets
}

func (p *lintProject) lint(dialect string, opts lint.Options) *lint.Report {
	p.t.Helper()
	dev := &scratch.Dev{}
	defer dev.Close()
	ctx, cancel := context.WithTimeout(context.Background(), 5*time.Minute)
	defer cancel()
	r, err := lint.Run(ctx, dev, p.targets(dialect), opts)
	if err != nil {
		p.t.Fatalf("lint: %v", err)
	}
	return r
}

// find returns the findings of a code.
func find(r *lint.Report, code string) []lint.Finding {
	var out []lint.Finding
	for _, f := range r.Findings {
		if f.Code == code {
			out = append(out, f)
		}
	}
	return out
}

func dump(r *lint.Report) string {
	var b bytes.Buffer
	lint.Write(&b, r, "text")
	for _, n := range r.Notes {
		b.WriteString("note: " + n + "\n")
	}
	return b.String()
}

// want checks that r has exactly one finding of code, at line, with the
// severity and suppression given, whose message contains text.
func want(t *testing.T, r *lint.Report, code string, line int, suppressed bool, text string) lint.Finding {
	t.Helper()
	fs := find(r, code)
	if len(fs) != 1 {
		t.Fatalf("want one %s, got %d:\n%s", code, len(fs), dump(r))
	}
	f := fs[0]
	if f.Line != line || f.Suppressed != suppressed || !strings.Contains(f.Message, text) {
		t.Fatalf("%s: got line %d, suppressed %v, message %q; want line %d, suppressed %v, %q\n%s",
			code, f.Line, f.Suppressed, f.Message, line, suppressed, text, dump(r))
	}
	return f
}

func none(t *testing.T, r *lint.Report, codes ...string) {
	t.Helper()
	for _, c := range codes {
		if fs := find(r, c); len(fs) > 0 {
			t.Errorf("unexpected %s:\n%s", c, dump(r))
		}
	}
}

var dialects = []struct {
	name  string
	table string // a table with two columns
}{
	{"postgres", `CREATE TABLE "items" ("id" integer NOT NULL, "note" text NULL, PRIMARY KEY ("id"));`},
	{"tidb", "CREATE TABLE `items` (`id` int NOT NULL, `note` text NULL, PRIMARY KEY (`id`));"},
}

func q(dialect, s string) string {
	if dialect == "tidb" {
		return strings.ReplaceAll(s, `"`, "`")
	}
	return s
}

func TestLintDropColumnIsDestructive(t *testing.T) {
	for _, d := range dialects {
		t.Run(d.name, func(t *testing.T) {
			t.Parallel()
			p := newLintProject(t)
			p.file(d.name, "init", d.table+"\n")
			path := p.file(d.name, "drop_note", q(d.name, "-- Drop the note.\nALTER TABLE \"items\" DROP COLUMN \"note\";\n"))
			r := p.lint(d.name, lint.Options{})
			if len(r.Files) != 1 || r.Files[0].File != path || r.Files[0].Statements != 1 {
				t.Fatalf("files linted: %+v, want %s only", r.Files, path)
			}
			f := want(t, r, "DS103", 2, false, `Dropping non-virtual column "note"`)
			if f.Severity != lint.SeverityError || f.Statement != 1 || f.Column != 1 || f.File != path {
				t.Errorf("DS103: %+v", f)
			}
			if errs, _, _ := r.Counts(); errs != 1 {
				t.Errorf("%d errors, want 1:\n%s", errs, dump(r))
			}

			// Reviewed: the nolint comment above the statement accepts it.
			os.WriteFile(path, []byte(q(d.name, "-- Drop the note.\n-- schemagen:nolint DS103 nothing has read the note since v2\nALTER TABLE \"items\" DROP COLUMN \"note\";\n")), 0o644)
			p.hash(d.name)
			r = p.lint(d.name, lint.Options{})
			f = want(t, r, "DS103", 3, true, "note")
			if f.Reason != "nothing has read the note since v2" {
				t.Errorf("reason %q", f.Reason)
			}
			if errs, _, suppressed := r.Counts(); errs != 0 || suppressed != 1 {
				t.Errorf("%d errors, %d suppressed:\n%s", errs, suppressed, dump(r))
			}
		})
	}
}

// TestLintAtlasAnalyzers: each of Atlas's analyzers gets the changes of
// each statement.
func TestLintAtlasAnalyzers(t *testing.T) {
	base := `CREATE TABLE "owners" ("id" integer NOT NULL, PRIMARY KEY ("id"));
CREATE TABLE "items" ("id" integer NOT NULL, "owner_id" integer NULL, "email" varchar(100) NULL, PRIMARY KEY ("id"),
  CONSTRAINT "items_owner_fk" FOREIGN KEY ("owner_id") REFERENCES "owners" ("id"));
CREATE INDEX "items_email" ON "items" ("email");
`
	cases := []struct {
		dialect, base, sql, code, text string
		sev                            lint.Severity
	}{
		{"postgres", `CREATE SCHEMA "archive";` + "\n" + `CREATE TABLE "archive"."old" ("id" integer);`, `DROP SCHEMA "archive" CASCADE;`,
			"DS101", `Dropping non-empty schema "archive" with 1 table`, lint.SeverityError},
		{"postgres", "", `DROP TABLE "items";`, "DS102", `Dropping table "items"`, lint.SeverityError},
		{"tidb", "", `DROP TABLE "items";`, "DS102", `Dropping table "items"`, lint.SeverityError},
		{"postgres", "", `ALTER TABLE "items" DROP CONSTRAINT "items_owner_fk";`, "CD101", `Dropping foreign-key constraint "items_owner_fk"`, lint.SeverityWarning},
		{"tidb", "", `ALTER TABLE "items" DROP FOREIGN KEY "items_owner_fk";`, "CD101", `Dropping foreign-key constraint "items_owner_fk"`, lint.SeverityWarning},
		{"postgres", "", `CREATE UNIQUE INDEX "items_email_uq" ON "items" ("email");`, "MF101", `Adding a unique index "items_email_uq"`, lint.SeverityWarning},
		{"tidb", "", `CREATE UNIQUE INDEX "items_email_uq" ON "items" ("email");`, "MF101", `Adding a unique index "items_email_uq"`, lint.SeverityWarning},
		{"postgres", "", `ALTER TABLE "items" ALTER COLUMN "email" SET NOT NULL;`, "MF104", `Modifying nullable column "email" to non-nullable`, lint.SeverityWarning},
		{"tidb", "", `ALTER TABLE "items" MODIFY COLUMN "email" varchar(100) NOT NULL;`, "MF104", `Modifying nullable column "email" to non-nullable`, lint.SeverityWarning},
	}
	for _, c := range cases {
		t.Run(c.dialect+"/"+c.code, func(t *testing.T) {
			t.Parallel()
			p := newLintProject(t)
			p.file(c.dialect, "init", q(c.dialect, base+c.base))
			p.file(c.dialect, "change", "\n"+q(c.dialect, c.sql)+"\n")
			r := p.lint(c.dialect, lint.Options{})
			if f := want(t, r, c.code, 2, false, c.text); f.Severity != c.sev {
				t.Errorf("%s: severity %s", c.code, f.Severity)
			}
		})
	}
}

// TiDB's own RENAME TABLE statement is a rename too, not a drop (DS102).
func TestLintRenameTableStatement(t *testing.T) {
	d := dialects[1]
	p := newLintProject(t)
	p.file(d.name, "init", d.table+"\n")
	p.file(d.name, "rename", "RENAME TABLE `items` TO `things`;\n")
	r := p.lint(d.name, lint.Options{})
	want(t, r, "BC101", 1, false, `Renaming table "items" to "things"`)
	none(t, r, "DS102", "DS103")
}

func TestLintRenameIsIncompatibleNotDestructive(t *testing.T) {
	for _, d := range dialects {
		t.Run(d.name, func(t *testing.T) {
			t.Parallel()
			p := newLintProject(t)
			p.file(d.name, "init", d.table+"\n")
			p.file(d.name, "rename", q(d.name, "ALTER TABLE \"items\" RENAME COLUMN \"note\" TO \"remark\";\nALTER TABLE \"items\" RENAME TO \"things\";\n"))
			r := p.lint(d.name, lint.Options{})
			want(t, r, "BC102", 1, false, `Renaming column "note" to "remark"`)
			want(t, r, "BC101", 2, false, `Renaming table "items" to "things"`)
			none(t, r, "DS102", "DS103")
		})
	}
}

func TestLintNotNullWithoutDefault(t *testing.T) {
	for _, d := range dialects {
		t.Run(d.name, func(t *testing.T) {
			t.Parallel()
			p := newLintProject(t)
			p.file(d.name, "init", d.table+"\n")
			p.file(d.name, "add_rank", q(d.name, "ALTER TABLE \"items\" ADD COLUMN \"rank\" integer NOT NULL;\n"))
			r := p.lint(d.name, lint.Options{})
			f := want(t, r, "SG102", 1, false, `NOT NULL column "rank" is added without a default to table "items"`)
			if f.Severity != lint.SeverityError {
				t.Errorf("SG102 severity %s", f.Severity)
			}
			// Atlas's own analyzer says so too, as a warning.
			atlasCode := map[string]string{"postgres": "MF103", "tidb": "MY101"}[d.name]
			if len(find(r, atlasCode)) != 1 {
				t.Errorf("no %s:\n%s", atlasCode, dump(r))
			}

			// Clean: a default, a nullable column, a table of this file.
			p.file(d.name, "clean", q(d.name, `ALTER TABLE "items" ADD COLUMN "level" integer NOT NULL DEFAULT 0;
ALTER TABLE "items" ADD COLUMN "label" text NULL;
CREATE TABLE "tags" ("id" integer NOT NULL, PRIMARY KEY ("id"));
ALTER TABLE "tags" ADD COLUMN "name" varchar(20) NOT NULL;
`))
			r = p.lint(d.name, lint.Options{})
			none(t, r, "SG102", "SG100", "SG103")
			if errs, _, _ := r.Counts(); errs != 0 {
				t.Errorf("clean file:\n%s", dump(r))
			}
		})
	}
}

func TestLintDialectMismatch(t *testing.T) {
	cases := []struct {
		dialect, sql string
		line, col    int
		text         string
	}{
		// Lexical checks.
		{"postgres", "CREATE TABLE `tags` (\"id\" integer);", 1, 14, "backquoted identifier `tags`"},
		{"postgres", "CREATE TABLE \"tags\" (\n  \"id\" integer AUTO_INCREMENT\n);", 2, 16, "AUTO_INCREMENT"},
		{"postgres", "CREATE TABLE \"tags\" (\"id\" integer) ENGINE=InnoDB;", 1, 36, "ENGINE"},
		{"postgres", "ALTER TABLE \"items\" ADD COLUMN \"at\" datetime;", 1, 37, "DATETIME is a MySQL/TiDB type"},
		{"tidb", "CREATE TABLE \"tags\" (`id` int);", 1, 14, `double-quoted identifier "tags"`},
		{"tidb", "UPDATE `items` SET `note` = `id`::text;", 1, 33, "the :: cast"},
		{"tidb", "ALTER TABLE `items` ADD COLUMN `at` TIMESTAMPTZ NULL;", 1, 37, "TIMESTAMPTZ is a PostgreSQL type"},
		{"tidb", "ALTER TABLE `items` ADD COLUMN `doc` jsonb NULL;", 1, 38, "JSONB is a PostgreSQL type"},
		{"tidb", "CREATE INDEX `items_open` ON `items` (`id`)\n  WHERE `note` IS NULL;", 2, 3, "partial indexes"},
		{"tidb", "DO $$\nBEGIN\n  RAISE EXCEPTION 'no';\nEND\n$$;", 1, 1, "DO blocks are PostgreSQL only"},
		// Syntax errors the dev database reports, with their position.
		{"postgres", "ALTER TABLE \"items\"\n  MODIFY COLUMN \"note\" varchar(10);", 2, 3, `syntax error at or near "MODIFY"`},
		{"tidb", "ALTER TABLE `items`\n  ALTER COLUMN `note` TYPE varchar(10);", 2, 23, `syntax error near "TYPE varchar(10)"`},
	}
	for _, c := range cases {
		t.Run(c.dialect+"/"+c.text, func(t *testing.T) {
			t.Parallel()
			p := newLintProject(t)
			table := dialects[0].table
			if c.dialect == "tidb" {
				table = dialects[1].table
			}
			p.file(c.dialect, "init", table+"\n")
			p.file(c.dialect, "mismatch", "-- header\n\n"+c.sql+"\n")
			r := p.lint(c.dialect, lint.Options{})
			fs := find(r, "SG103")
			// TiDB's scanner splits a DO block at its semicolons: each part
			// is reported.
			if len(fs) == 0 || len(fs) > 1 && !strings.HasPrefix(c.sql, "DO") {
				t.Fatalf("want one SG103:\n%s", dump(r))
			}
			f := fs[0]
			if f.Line != c.line+2 || f.Column != c.col || f.Severity != lint.SeverityError || !strings.Contains(f.Message, c.text) {
				t.Errorf("got %d:%d %s %q, want %d:%d error %q\n%s", f.Line, f.Column, f.Severity, f.Message, c.line+2, c.col, c.text, dump(r))
			}
		})
	}

	// The same statements written for their own dialect are clean.
	clean := map[string]string{
		"postgres": `CREATE TABLE "tags" ("id" integer GENERATED BY DEFAULT AS IDENTITY, "at" timestamptz NULL, "doc" jsonb NULL, "note" text NULL, PRIMARY KEY ("id"));
CREATE INDEX "tags_open" ON "tags" ("id") WHERE "note" IS NULL;
ALTER TABLE "items" ALTER COLUMN "note" TYPE varchar(10);
UPDATE "items" SET "note" = "id"::text;`,
		"tidb": "CREATE TABLE `tags` (`id` int NOT NULL AUTO_INCREMENT, `at` datetime(3) NULL, `doc` json NULL, `note` text NULL, PRIMARY KEY (`id`)) ENGINE=InnoDB CHARSET utf8mb4;\n" +
			"CREATE INDEX `tags_note` ON `tags` (`id`);\n" +
			"ALTER TABLE `items` MODIFY COLUMN `note` varchar(10) NULL;\n" +
			"UPDATE `items` SET `note` = CAST(`id` AS CHAR) WHERE `note` = \"x\";",
	}
	for i, d := range dialects {
		t.Run(d.name+"/clean", func(t *testing.T) {
			t.Parallel()
			p := newLintProject(t)
			p.file(d.name, "init", dialects[i].table+"\n")
			p.file(d.name, "clean", clean[d.name]+"\n")
			r := p.lint(d.name, lint.Options{})
			none(t, r, "SG103", "SG100")
		})
	}
}

// TestLintDataMigration lints the seed workflow: a planned change with a
// hand-written backfill and a DO block that aborts on inconsistent rows.
func TestLintDataMigration(t *testing.T) {
	t.Parallel()
	p := newLintProject(t)
	p.file("postgres", "init", `CREATE TABLE "sources" ("id" uuid NOT NULL, "credential_ref" text NULL, PRIMARY KEY ("id"));`)
	path := p.file("postgres", "refs", `-- Create "source_refs" table
CREATE TABLE "source_refs" ("id" uuid NOT NULL, "ref" text NOT NULL, PRIMARY KEY ("id"));

-- Backfill, added by hand.
INSERT INTO "source_refs" ("id", "ref")
SELECT src."id", src."credential_ref" || ':' || src."id"::TEXT
FROM "sources" src
WHERE src."credential_ref" IS NOT NULL
ON CONFLICT DO NOTHING;

DO $guard$
BEGIN
  IF EXISTS (SELECT 1 FROM "sources" s LEFT JOIN "source_refs" r ON r."id" = s."id"
             WHERE s."credential_ref" IS NOT NULL AND r."id" IS NULL) THEN
    RAISE EXCEPTION 'source without ref';
  END IF;
END
$guard$;
`)
	r := p.lint("postgres", lint.Options{})
	data := find(r, "SG104")
	if len(data) != 2 || data[0].Line != 5 || data[1].Line != 11 ||
		!strings.Contains(data[0].Message, `INSERT on "source_refs"`) || !strings.Contains(data[1].Message, "DO block") {
		t.Fatalf("data statements:\n%s", dump(r))
	}
	if errs, warnings, _ := r.Counts(); errs != 0 || warnings != 2 || len(r.Findings) != 2 {
		t.Errorf("%d errors, %d warnings:\n%s", errs, warnings, dump(r))
	}
	if r.Files[0].File != path || r.Files[0].Statements != 3 {
		t.Errorf("files: %+v", r.Files)
	}
}

// TestLintTiDBCheckSetting starts a TiDB of its own whose
// tidb_enable_check_constraint is OFF, as the env's url.
func TestLintTiDBCheckSetting(t *testing.T) {
	checksOff := dbtest.TiDBChecksOff(t)
	p := newLintProject(t)
	p.file("tidb", "init", dialects[1].table+"\n")
	p.file("tidb", "checks", "CREATE TABLE `tags` (`id` int NOT NULL, CONSTRAINT `tags_id_ck` CHECK (`id` > 0));\n"+
		"ALTER TABLE `items` ADD CONSTRAINT `items_id_ck` CHECK (`id` > 0);\n"+
		"ALTER TABLE `items` ADD COLUMN `check_at` datetime NULL;\n")
	p.urls["tidb"] = checksOff
	r := p.lint("tidb", lint.Options{})
	fs := find(r, "SG101")
	if len(fs) != 2 || fs[0].Line != 1 || fs[0].Column != 65 || fs[1].Line != 2 ||
		fs[0].Severity != lint.SeverityError || !strings.Contains(fs[0].Message, "tidb_enable_check_constraint is OFF on the env's url") {
		t.Fatalf("SG101:\n%s", dump(r))
	}

	// The test TiDB enforces CHECKs: no finding, whether asked as the url
	// or as the dev database.
	p.urls["tidb"] = dbtest.ServerURL(t, "tidb")
	none(t, p.lint("tidb", lint.Options{}), "SG101")
	p.urls["tidb"] = ""
	none(t, p.lint("tidb", lint.Options{}), "SG101")
}

func TestLintNolintPlacement(t *testing.T) {
	t.Parallel()
	p := newLintProject(t)
	p.file("postgres", "init", dialects[0].table+"\nCREATE TABLE \"old\" (\"id\" integer);\n")
	p.file("postgres", "cleanup", `-- Cleanup after v2.
-- schemagen:nolint DS102 the old table was archived to cold storage in v2.1

-- schemagen:nolint DS103
ALTER TABLE "items" DROP COLUMN "note";
-- schemagen:nolint SG104,XX999 the rows are fixtures
DELETE FROM "items";
DROP TABLE "old";
-- schemagen:nolint SG104 applies to nothing

UPDATE "items" SET "id" = 2;
`)
	r := p.lint("postgres", lint.Options{})
	want(t, r, "DS103", 5, false, `Dropping non-virtual column "note"`) // no reason: not suppressed
	want(t, r, "DS102", 8, true, `Dropping table "old"`)                // the file's header
	sg104 := find(r, "SG104")
	if len(sg104) != 2 || sg104[0].Line != 7 || !sg104[0].Suppressed || sg104[0].Reason != "the rows are fixtures" ||
		sg104[1].Line != 11 || sg104[1].Suppressed {
		t.Errorf("SG104:\n%s", dump(r))
	}
	sg105 := find(r, "SG105")
	if len(sg105) != 2 || sg105[0].Line != 4 || !strings.Contains(sg105[0].Message, "no reason") ||
		sg105[1].Line != 6 || !strings.Contains(sg105[1].Message, `unknown code "XX999"`) {
		t.Errorf("SG105:\n%s", dump(r))
	}
	// Line 9 is attached to nothing: a blank line follows it.
	if fs := find(r, "SG106"); len(fs) != 1 || fs[0].Line != 9 {
		t.Errorf("SG106:\n%s", dump(r))
	}
	if errs, warnings, suppressed := r.Counts(); errs != 3 || warnings != 2 || suppressed != 2 {
		t.Errorf("%d errors, %d warnings, %d suppressed:\n%s", errs, warnings, suppressed, dump(r))
	}
}

func TestLintFileSelection(t *testing.T) {
	if _, err := exec.LookPath("git"); err != nil {
		t.Skip("no git")
	}
	t.Parallel()
	p := newLintProject(t)
	git := func(args ...string) {
		t.Helper()
		cmd := exec.Command("git", append([]string{"-C", p.dir, "-c", "user.name=t", "-c", "user.email=t@example.com"}, args...)...)
		if out, err := cmd.CombinedOutput(); err != nil {
			t.Fatalf("git %v: %v\n%s", args, err, out)
		}
	}
	git("init", "-q")
	p.file("postgres", "one", dialects[0].table+"\n")
	p.file("postgres", "two", `ALTER TABLE "items" ADD COLUMN "a" integer NULL;`+"\n")
	os.WriteFile(filepath.Join(p.dir, ".gitignore"), []byte("atlas.hcl\n"), 0o644)
	git("add", ".")
	git("commit", "-q", "-m", "base")
	git("tag", "base")
	if r := p.lint("postgres", lint.Options{GitBase: "base"}); len(r.Files) != 0 ||
		len(r.Notes) != 1 || !strings.Contains(r.Notes[0], "nothing to lint in ") || !strings.Contains(r.Notes[0], "no file was added or changed since base") {
		t.Errorf("nothing new: %+v", r)
	}
	three := p.file("postgres", "three", `ALTER TABLE "items" DROP COLUMN "a";`+"\n")
	git("add", ".")
	git("commit", "-q", "-m", "three")
	four := p.file("postgres", "four", `ALTER TABLE "items" DROP COLUMN "note";`+"\n") // untracked

	names := func(r *lint.Report) []string {
		var out []string
		for _, f := range r.Files {
			out = append(out, filepath.Base(f.File))
		}
		return out
	}
	r := p.lint("postgres", lint.Options{GitBase: "base"})
	if got := names(r); !slices.Equal(got, []string{filepath.Base(three), filepath.Base(four)}) {
		t.Errorf("--git-base base linted %v", got)
	}
	if len(find(r, "DS103")) != 2 {
		t.Errorf("findings:\n%s", dump(r))
	}
	r = p.lint("postgres", lint.Options{GitBase: "HEAD"})
	if got := names(r); !slices.Equal(got, []string{filepath.Base(four)}) {
		t.Errorf("--git-base HEAD linted %v", got)
	}
	r = p.lint("postgres", lint.Options{Latest: 3})
	if got := names(r); len(got) != 3 || got[0] != "20260101000002_two.sql" {
		t.Errorf("--latest 3 linted %v", got)
	}
	r = p.lint("postgres", lint.Options{Latest: 10})
	if len(r.Files) != 4 || len(find(r, "DS103")) != 2 {
		t.Errorf("--latest 10 linted %v:\n%s", names(r), dump(r))
	}

	dev := &scratch.Dev{}
	defer dev.Close()
	if _, err := lint.Run(context.Background(), dev, p.targets("postgres"), lint.Options{GitBase: "nope"}); err == nil ||
		!strings.Contains(err.Error(), "--git-base nope: not a commit") {
		t.Errorf("unknown ref: %v", err)
	}
	// A directory that does not match atlas.sum is refused.
	os.WriteFile(four, []byte(`ALTER TABLE "items" DROP COLUMN "id";`), 0o644)
	_, err := lint.Run(context.Background(), dev, p.targets("postgres"), lint.Options{})
	var sum *migration.SumError
	if !errors.As(err, &sum) || len(sum.Edited) != 1 {
		t.Errorf("edited file: %v", err)
	}
}

// TestLintFailingStatement: a statement that fails on the dev database
// stops the replay; later statements are checked lexically only.
func TestLintFailingStatement(t *testing.T) {
	t.Parallel()
	p := newLintProject(t)
	p.file("postgres", "init", dialects[0].table+"\n")
	p.file("postgres", "broken", `ALTER TABLE "missing" ADD COLUMN "a" integer;
ALTER TABLE "items" DROP COLUMN "note";
INSERT INTO "items" VALUES (1, 'x');
`)
	r := p.lint("postgres", lint.Options{})
	want(t, r, "SG100", 1, false, `relation "missing" does not exist`)
	none(t, r, "DS103")
	want(t, r, "SG104", 3, false, "INSERT")
	if len(r.Notes) != 1 || !strings.Contains(r.Notes[0], "statements after 1 were only checked lexically") {
		t.Errorf("notes: %q", r.Notes)
	}
}

func sampleReport() *lint.Report {
	return &lint.Report{
		Files: []lint.File{{Env: "postgres", Dialect: "postgres", File: "migrations/postgres/1_a.sql", Statements: 2}},
		Findings: []lint.Finding{
			{Env: "postgres", Dialect: "postgres", File: "migrations/postgres/1_a.sql", Line: 3, Column: 1, Statement: 1,
				Code: "DS103", Severity: lint.SeverityError, Message: `Dropping non-virtual column "note"`},
			{Env: "postgres", Dialect: "postgres", File: "migrations/postgres/1_a.sql", Line: 5, Column: 1, Statement: 2,
				Code: "SG104", Severity: lint.SeverityWarning, Message: "data change to review: DELETE, 100%,\nreally",
				Suppressed: true, Reason: "fixtures: only test rows"},
		},
		Notes: []string{"a note"},
	}
}

func TestLintFormats(t *testing.T) {
	r := sampleReport()
	out := func(format string) string {
		var b bytes.Buffer
		if err := lint.Write(&b, r, format); err != nil {
			t.Fatal(err)
		}
		return b.String()
	}

	text := out("text")
	for _, line := range []string{
		`migrations/postgres/1_a.sql:3: DS103 [error] Dropping non-virtual column "note"`,
		`migrations/postgres/1_a.sql:5: SG104 [suppressed: fixtures: only test rows] data change to review`,
		"1 file linted: 1 error, 0 warnings, 1 suppressed",
	} {
		if !strings.Contains(text, line) {
			t.Errorf("text lacks %q:\n%s", line, text)
		}
	}

	var j lint.JSON
	if err := json.Unmarshal([]byte(out("json")), &j); err != nil {
		t.Fatal(err)
	}
	if len(j.Files) != 1 || len(j.Findings) != 2 || j.Findings[1].Reason != "fixtures: only test rows" ||
		j.Summary.Errors != 1 || j.Summary.Suppressed != 1 || j.Notes[0] != "a note" {
		t.Errorf("json: %+v", j)
	}
	var empty lint.JSON
	var b bytes.Buffer
	lint.Write(&b, &lint.Report{}, "json")
	if err := json.Unmarshal(b.Bytes(), &empty); err != nil || empty.Findings == nil || empty.Files == nil {
		t.Errorf("empty json: %s", b.String())
	}

	gh := out("github")
	ghLine := regexp.MustCompile(`^::(error|warning|notice) file=[^,:]+,line=\d+,col=\d+,title=[A-Z]+\d+::[^\n\r]*$`)
	lines := strings.Split(strings.TrimSpace(gh), "\n")
	for _, l := range lines[:len(lines)-1] {
		if !ghLine.MatchString(l) {
			t.Errorf("github: malformed line %q", l)
		}
	}
	if !strings.HasPrefix(lines[0], "::error file=migrations/postgres/1_a.sql,line=3,col=1,title=DS103::") ||
		!strings.Contains(lines[1], "::notice ") || !strings.Contains(lines[1], "100%25,%0Areally") {
		t.Errorf("github:\n%s", gh)
	}

	checkSARIF(t, []byte(out("sarif")), 2)
}

// checkSARIF validates the shape of a SARIF 2.1.0 log: one run, rules with
// ids, results pointing at their rules, with locations and levels.
func checkSARIF(t *testing.T, data []byte, results int) {
	t.Helper()
	var log struct {
		Schema  string `json:"$schema"`
		Version string `json:"version"`
		Runs    []struct {
			Tool struct {
				Driver struct {
					Name  string `json:"name"`
					Rules []struct {
						ID               string `json:"id"`
						ShortDescription struct {
							Text string `json:"text"`
						} `json:"shortDescription"`
						DefaultConfiguration struct {
							Level string `json:"level"`
						} `json:"defaultConfiguration"`
					} `json:"rules"`
				} `json:"driver"`
			} `json:"tool"`
			Results []struct {
				RuleID    string `json:"ruleId"`
				RuleIndex *int   `json:"ruleIndex"`
				Level     string `json:"level"`
				Message   struct {
					Text string `json:"text"`
				} `json:"message"`
				Locations []struct {
					PhysicalLocation struct {
						ArtifactLocation struct {
							URI string `json:"uri"`
						} `json:"artifactLocation"`
						Region struct {
							StartLine   int `json:"startLine"`
							StartColumn int `json:"startColumn"`
						} `json:"region"`
					} `json:"physicalLocation"`
				} `json:"locations"`
				Suppressions []struct {
					Kind          string `json:"kind"`
					Justification string `json:"justification"`
				} `json:"suppressions"`
			} `json:"results"`
		} `json:"runs"`
	}
	if err := json.Unmarshal(data, &log); err != nil {
		t.Fatalf("sarif: %v\n%s", err, data)
	}
	if log.Version != "2.1.0" || !strings.Contains(log.Schema, "sarif-2.1.0") || len(log.Runs) != 1 {
		t.Fatalf("sarif header: %s %s %d runs", log.Version, log.Schema, len(log.Runs))
	}
	run := log.Runs[0]
	if run.Tool.Driver.Name != "schemagen" || len(run.Tool.Driver.Rules) < len(lint.Rules) {
		t.Errorf("sarif driver: %s, %d rules", run.Tool.Driver.Name, len(run.Tool.Driver.Rules))
	}
	for _, rule := range run.Tool.Driver.Rules {
		if rule.ID == "" || rule.ShortDescription.Text == "" || (rule.DefaultConfiguration.Level != "error" && rule.DefaultConfiguration.Level != "warning") {
			t.Errorf("sarif rule: %+v", rule)
		}
	}
	if len(run.Results) != results {
		t.Fatalf("sarif: %d results, want %d", len(run.Results), results)
	}
	for _, res := range run.Results {
		if res.RuleIndex == nil || *res.RuleIndex < 0 || *res.RuleIndex >= len(run.Tool.Driver.Rules) || run.Tool.Driver.Rules[*res.RuleIndex].ID != res.RuleID {
			t.Errorf("sarif result %s: rule index %v", res.RuleID, res.RuleIndex)
		}
		if res.Level != "error" && res.Level != "warning" || res.Message.Text == "" || len(res.Locations) != 1 ||
			res.Locations[0].PhysicalLocation.ArtifactLocation.URI == "" || res.Locations[0].PhysicalLocation.Region.StartLine < 1 {
			t.Errorf("sarif result: %+v", res)
		}
		for _, s := range res.Suppressions {
			if s.Kind != "inSource" || s.Justification == "" {
				t.Errorf("sarif suppression: %+v", s)
			}
		}
	}
}

// TestLintDocs: docs/lint.md documents every code.
func TestLintDocs(t *testing.T) {
	doc, err := os.ReadFile("../../docs/lint.md")
	if err != nil {
		t.Fatal(err)
	}
	for _, r := range lint.Rules {
		if !regexp.MustCompile(`(?m)^### ` + r.Code + `\b`).Match(doc) {
			t.Errorf("docs/lint.md has no section for %s", r.Code)
		}
	}
}

// TestLintCheckpoint: lint replays from the last checkpoint before the
// files it lints (the files before it are not run: one that no longer
// replays would fail), lints a checkpoint that is the newest file on a
// clean database, and skips a checkpoint after the start of the replay.
func TestLintCheckpoint(t *testing.T) {
	for _, d := range dialects {
		t.Run(d.name, func(t *testing.T) {
			t.Parallel()
			p := newLintProject(t)
			p.file(d.name, "init", "THIS DOES NOT REPLAY;\n")
			p.file(d.name, "base", "-- atlas:checkpoint base\n\n"+d.table+"\n")
			r := p.lint(d.name, lint.Options{})
			if len(r.Files) != 1 || !strings.HasSuffix(r.Files[0].File, "_base.sql") {
				t.Fatalf("files linted: %+v, want the checkpoint", r.Files)
			}
			path := p.file(d.name, "drop_note", q(d.name, "ALTER TABLE \"items\" DROP COLUMN \"note\";\n"))
			r = p.lint(d.name, lint.Options{})
			if len(r.Files) != 1 || r.Files[0].File != path {
				t.Fatalf("files linted: %+v, want %s", r.Files, path)
			}
			want(t, r, "DS103", 1, false, `Dropping non-virtual column "note"`)
			r = p.lint(d.name, lint.Options{Latest: 3})
			if len(r.Files) != 2 {
				t.Errorf("lint --latest 3 linted %+v, want the checkpoint and the file after it", r.Files)
			}
		})
	}
}

// TestLintColumnMadeGenerated: a column made generated by dropping and
// adding it, in one ALTER TABLE or in two statements, is linted as that
// drop (DS103) and add: Atlas's PostgreSQL diff of the states before and
// after refuses the column ("changing column ... to generated column is not
// supported"), which made lint fail (plan oracle seed 31313, evolution 14).
func TestLintColumnMadeGenerated(t *testing.T) {
	t.Parallel()
	for name, stmts := range map[string]string{
		"one_statement":  `ALTER TABLE "items" DROP COLUMN "n", ADD COLUMN "n" bigint GENERATED ALWAYS AS ("id" * 2) STORED;`,
		"two_statements": `ALTER TABLE "items" DROP COLUMN "n";` + "\n" + `ALTER TABLE "items" ADD COLUMN "n" bigint GENERATED ALWAYS AS ("id" * 2) STORED;`,
	} {
		t.Run(name, func(t *testing.T) {
			t.Parallel()
			p := newLintProject(t)
			p.file("postgres", "init", `CREATE TABLE "items" ("id" bigint NOT NULL, "n" bigint NULL, PRIMARY KEY ("id"));`+"\n")
			p.file("postgres", "generated", stmts+"\n")
			r := p.lint("postgres", lint.Options{})
			if len(find(r, "DS103")) != 1 {
				t.Errorf("want one DS103 (the drop of n):\n%s", dump(r))
			}
		})
	}
}
