package migration_test

import (
	"context"
	"path/filepath"
	"strings"
	"testing"

	"ariga.io/atlas/sql/migrate"

	"github.com/schemagen/schemagen/internal/atlasconf"
	"github.com/schemagen/schemagen/internal/dbtest"
	"github.com/schemagen/schemagen/internal/gen"
	"github.com/schemagen/schemagen/internal/migration"
	"github.com/schemagen/schemagen/internal/scratch"
	"github.com/schemagen/schemagen/internal/testproject"
)

func files(t *testing.T, p *testproject.Project, dialect string) []migrate.File {
	t.Helper()
	dir, err := migrate.NewLocalDir(filepath.Join(p.Dir, "migrations", dialect))
	if err != nil {
		t.Fatal(err)
	}
	fs, err := dir.Files()
	if err != nil {
		t.Fatal(err)
	}
	return fs
}

const baseModel = `
table "spaces" {
  column "id" {
    type = uuid
  }
  column "tenant_id" {
    type = varchar(64)
  }
  column "kind" {
    type = varchar(16)
  }
  primary_key {
    columns = ["id"]
  }
  check "spaces_kind_ck" {
    expr = "kind IN ('a', 'b')"
  }
}

table "docs" {
  column "id" {
    type = uuid
  }
  column "space_id" {
    type = uuid
  }
  column "title" {
    type = varchar(200)
  }
  column "body" {
    type = text
    null = true
  }
  primary_key {
    columns = ["id"]
  }
  #EXTRA
}
`

func edit(model, extra string) string {
	return strings.Replace(model, "  #EXTRA\n", extra+"  #EXTRA\n", 1)
}

// TestDiffSequence runs the model edits a team makes, checking that each
// migration holds exactly the expected statements in both dialects.
func TestDiffSequence(t *testing.T) {
	t.Parallel()
	p := testproject.New(t, baseModel)

	init := p.Diff("init")
	if len(init["postgres"]) == 0 || len(init["tidb"]) == 0 {
		t.Fatalf("init wrote %d postgres and %d tidb statements", len(init["postgres"]), len(init["tidb"]))
	}
	pf, tf := files(t, p, "postgres"), files(t, p, "tidb")
	if len(pf) != 1 || len(tf) != 1 || pf[0].Name() != tf[0].Name() {
		t.Fatalf("init files: %v / %v, want one each with the same name", names(pf), names(tf))
	}
	if !strings.Contains(string(tf[0].Bytes()), "CONSTRAINT `spaces_kind_ck` CHECK") {
		t.Errorf("the TiDB init migration lost the CHECK:\n%s", tf[0].Bytes())
	}
	// Applying the init files gives the generated schema: nothing to do.
	if again := p.Diff("again"); len(again) != 0 {
		t.Fatalf("a second diff found changes: %v", again)
	}

	model := baseModel
	steps := []struct {
		name  string
		model func(string) string
		want  map[string][]string
	}{
		{"add_nullable_column", func(m string) string {
			return edit(m, "  column \"summary\" {\n    type = varchar(100)\n    null = true\n  }\n")
		}, map[string][]string{
			"postgres": {`ALTER TABLE "docs" ADD COLUMN "summary" character varying(100) NULL`},
			// exact_strings (the default) gives it TiDB's collation that
			// compares trailing spaces as PostgreSQL does.
			"tidb": {"ALTER TABLE `docs` ADD COLUMN `summary` varchar(100) NULL COLLATE utf8mb4_0900_bin"},
		}},
		{"add_index", func(m string) string {
			return edit(m, "  index \"docs_space_title_idx\" {\n    columns = [\"space_id\", \"title\"]\n  }\n")
		}, map[string][]string{
			"postgres": {`CREATE INDEX "docs_space_title_idx" ON "docs" ("space_id", "title")`},
			"tidb":     {"ALTER TABLE `docs` ADD INDEX `docs_space_title_idx` (`space_id`, `title`)"},
		}},
		{"add_check", func(m string) string {
			return edit(m, "  check \"docs_title_ck\" {\n    expr = \"char_length(title) > 0\"\n  }\n")
		}, map[string][]string{
			"postgres": {`ALTER TABLE "docs" ADD CONSTRAINT "docs_title_ck" CHECK (CHAR_LENGTH("title") > 0)`},
			"tidb":     {"ALTER TABLE `docs` ADD CONSTRAINT `docs_title_ck` CHECK (CHAR_LENGTH(`title`) > 0)"},
		}},
		{"change_check", func(m string) string {
			return strings.Replace(m, `"char_length(title) > 0"`, `"char_length(title) BETWEEN 1 AND 150"`, 1)
		}, map[string][]string{
			"postgres": {`ALTER TABLE "docs" DROP CONSTRAINT "docs_title_ck", ADD CONSTRAINT "docs_title_ck" CHECK (CHAR_LENGTH("title") BETWEEN 1 AND 150)`},
			"tidb": {
				"ALTER TABLE `docs` DROP CONSTRAINT `docs_title_ck`",
				"ALTER TABLE `docs` ADD CONSTRAINT `docs_title_ck` CHECK (CHAR_LENGTH(`title`) BETWEEN 1 AND 150)",
			},
		}},
		{"drop_check", func(m string) string {
			return strings.Replace(m, "  check \"docs_title_ck\" {\n    expr = \"char_length(title) BETWEEN 1 AND 150\"\n  }\n", "", 1)
		}, map[string][]string{
			"postgres": {`ALTER TABLE "docs" DROP CONSTRAINT "docs_title_ck"`},
			"tidb":     {"ALTER TABLE `docs` DROP CONSTRAINT `docs_title_ck`"},
		}},
		{"drop_column", func(m string) string {
			return strings.Replace(m, "  column \"body\" {\n    type = text\n    null = true\n  }\n", "", 1)
		}, map[string][]string{
			"postgres": {`ALTER TABLE "docs" DROP COLUMN "body"`},
			"tidb":     {"ALTER TABLE `docs` DROP COLUMN `body`"},
		}},
		{"add_expression_index", func(m string) string {
			return edit(m, "  index \"docs_lower_title_idx\" {\n    on {\n      expr = \"lower(title)\"\n    }\n  }\n")
		}, map[string][]string{
			"postgres": {`CREATE INDEX "docs_lower_title_idx" ON "docs" ((LOWER("title")))`},
			"tidb":     {"ALTER TABLE `docs` ADD INDEX `docs_lower_title_idx` ((LOWER(`title`)))"},
		}},
		{"add_column_with_default", func(m string) string {
			return edit(m, "  column \"created_at\" {\n    type    = timestamp\n    default = now()\n  }\n")
		}, map[string][]string{
			// value_domains (the default) keeps the years to 1-9999 on both.
			"postgres": {`ALTER TABLE "docs" ADD COLUMN "created_at" timestamptz NOT NULL DEFAULT now()`, `ALTER TABLE "docs" ADD CONSTRAINT "docs_created_at_range_ck" CHECK ("created_at" >= '0001-01-01 00:00:00+00' AND "created_at" < '10000-01-01 00:00:00+00')`},
			"tidb":     {"ALTER TABLE `docs` ADD COLUMN `created_at` datetime(3) NOT NULL DEFAULT CURRENT_TIMESTAMP(3)", "ALTER TABLE `docs` ADD CONSTRAINT `docs_created_at_range_ck` CHECK (`created_at` >= '0001-01-01')"},
		}},
		{"add_foreign_key", func(m string) string {
			return edit(m, "  foreign_key \"docs_space_fk\" {\n    columns     = [\"space_id\"]\n    ref_table   = \"spaces\"\n    ref_columns = [\"id\"]\n    on_delete   = \"cascade\"\n  }\n")
		}, map[string][]string{
			"postgres": {"ALTER TABLE \"docs\" ADD\nCONSTRAINT \"docs_space_fk\" FOREIGN KEY (\"space_id\") REFERENCES \"spaces\" (\"id\") ON UPDATE NO ACTION ON DELETE CASCADE"},
			// docs_space_title_idx starts with space_id, so TiDB needs no
			// index of its own for the key. uuid_check (the default) drops
			// its CHECK of space_id, which TiDB forbids beside a key with an
			// action (3823) and the key covers.
			"tidb": {"ALTER TABLE `docs` DROP CONSTRAINT `docs_space_id_uuid_ck`", "ALTER TABLE `docs` ADD CONSTRAINT `docs_space_fk` FOREIGN KEY (`space_id`) REFERENCES `spaces` (`id`) ON DELETE CASCADE"},
		}},
	}
	for _, s := range steps {
		model = s.model(model)
		p.Generate(model)
		got := p.Diff(s.name, migration.Plain(true))
		for _, d := range []string{"postgres", "tidb"} {
			if strings.Join(got[d], "\n") != strings.Join(s.want[d], "\n") {
				t.Errorf("%s on %s:\n got: %q\nwant: %q", s.name, d, got[d], s.want[d])
			}
		}
		for _, stmt := range got["tidb"] {
			if strings.Count(stmt, ", ADD ")+strings.Count(stmt, ", DROP ")+strings.Count(stmt, ", MODIFY ") > 0 {
				t.Errorf("%s: a TiDB ALTER holds more than one change: %s", s.name, stmt)
			}
		}
	}
	if again := p.Diff("final"); len(again) != 0 {
		t.Fatalf("after the sequence, diff found changes: %v", again)
	}
	if pf, tf := files(t, p, "postgres"), files(t, p, "tidb"); len(pf) != len(steps)+1 || len(tf) != len(steps)+1 {
		t.Errorf("got %d postgres and %d tidb files, want %d each", len(pf), len(tf), len(steps)+1)
	}
}

func names(files []migrate.File) []string {
	var out []string
	for _, f := range files {
		out = append(out, f.Name())
	}
	return out
}

// TestRepositoryMigrationsUpToDate is the CI check for the repository's own
// migrations: replaying migrations/ gives exactly generated/, in both dialects.
func TestRepositoryMigrationsUpToDate(t *testing.T) {
	t.Setenv("SCHEMAGEN_DEV_POSTGRES_URL", dbtest.ServerURL(t, "postgres"))
	t.Setenv("SCHEMAGEN_DEV_TIDB_URL", dbtest.ServerURL(t, "tidb"))
	cfg, diags := atlasconf.Load("../../atlas.hcl", nil)
	if diags.HasErrors() {
		t.Fatal(diags)
	}
	targets, err := migration.Targets(cfg, nil)
	if err != nil {
		t.Fatal(err)
	}
	if len(targets) != 2 {
		t.Fatalf("atlas.hcl has %d envs, want postgres and tidb", len(targets))
	}
	dev := &scratch.Dev{}
	defer dev.Close()
	model := gen.Compile("../../schema.hcl")
	if model.Failed() {
		t.Fatal(model.Diags)
	}
	planned, err := migration.Plan(context.Background(), dev, nil, targets, migration.Model(model.Outputs), "check")
	if err != nil {
		t.Fatal(err)
	}
	for _, p := range planned {
		if p.Plan != nil {
			var stmts []string
			for _, c := range p.Plan.Changes {
				stmts = append(stmts, c.Cmd)
			}
			t.Errorf("%s: migrations/ is behind generated/; run `schemagen migrate diff NAME`:\n%s", p.Target.Env.Name, strings.Join(stmts, ";\n"))
		}
	}
}
