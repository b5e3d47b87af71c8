package migration_test

import (
	"context"
	"fmt"
	"path/filepath"
	"strings"
	"testing"

	"ariga.io/atlas/sql/migrate"
	"ariga.io/atlas/sql/schema"

	sg "github.com/schemagen/schemagen/dialects"
	"github.com/schemagen/schemagen/dialects/all"
	"github.com/schemagen/schemagen/internal/dbtest"
	"github.com/schemagen/schemagen/internal/testproject"
)

// atlasAgrees does what the Atlas CLI does with an env, with its library
// code only: it replays the migration directory with migrate.Executor into
// one clean database, loads the env's src into another (as a directory of
// one file, run by the executor too), inspects both with the driver and
// diffs them with the driver's differ in its normalised mode. It fails t with every change found.
func atlasAgrees(t *testing.T, d sg.Dialect, dirPath string, src []byte) {
	t.Helper()
	ctx := context.Background()
	dir, err := migrate.NewLocalDir(dirPath)
	if err != nil {
		t.Fatal(err)
	}
	replayed := executeAll(t, d, dir)
	mem := &migrate.MemDir{}
	if err := mem.WriteFile("1_src.sql", src); err != nil {
		t.Fatal(err)
	}
	sum, err := mem.Checksum()
	if err != nil {
		t.Fatal(err)
	}
	if err := migrate.WriteSumFile(mem, sum); err != nil {
		t.Fatal(err)
	}
	loaded := executeAll(t, d, mem)
	drv, err := d.OpenAtlas(replayed.DB)
	if err != nil {
		t.Fatal(err)
	}
	// Both states come from a clean (dev) database: the CLI then compares
	// expressions too (DiffNormalized), which it does not otherwise.
	changes, err := drv.SchemaDiff(inspectAll(t, d, replayed), inspectAll(t, d, loaded), schema.DiffNormalized())
	if err != nil {
		t.Fatal(err)
	}
	if len(changes) == 0 {
		return
	}
	var b strings.Builder
	if plan, err := drv.PlanChanges(ctx, "agree", changes, func(o *migrate.PlanOptions) { o.SchemaQualifier = new(string) }); err == nil {
		for _, c := range plan.Changes {
			fmt.Fprintf(&b, "  %s\n", c.Cmd)
		}
	} else {
		fmt.Fprintf(&b, "  %d changes (%v)\n", len(changes), err)
	}
	t.Errorf("%s: Atlas finds the directory %s replayed differ from its src loaded:\n%s", d.Name(), dirPath, b.String())
}

// executeAll runs every file of dir on a new database with Atlas's
// executor, as the Atlas CLI replays a directory on its dev database.
func executeAll(t *testing.T, d sg.Dialect, dir migrate.Dir) *dbtest.DB {
	t.Helper()
	db := dbtest.New(t, d.Name())
	drv, err := d.OpenAtlas(db.DB)
	if err != nil {
		t.Fatal(err)
	}
	ex, err := migrate.NewExecutor(drv, dir, migrate.NopRevisionReadWriter{})
	if err != nil {
		t.Fatal(err)
	}
	if err := ex.ExecuteN(context.Background(), 0); err != nil && err != migrate.ErrNoPendingFiles {
		t.Fatalf("%s: executing %T: %v", d.Name(), dir, err)
	}
	return db
}

func inspectAll(t *testing.T, d sg.Dialect, db *dbtest.DB) *schema.Schema {
	t.Helper()
	drv, err := d.OpenAtlas(db.DB)
	if err != nil {
		t.Fatal(err)
	}
	s, err := drv.InspectSchema(context.Background(), "", nil)
	if err != nil {
		t.Fatal(err)
	}
	s.Name = ""
	return s
}

// TestAtlasAgreesRepository: the repository's own migrations, replayed by
// Atlas, build what its generated DDL builds, in both dialects.
func TestAtlasAgreesRepository(t *testing.T) {
	t.Parallel()
	for _, d := range all.Dialects() {
		t.Run(d.Name(), func(t *testing.T) {
			atlasAgrees(t, d, filepath.Join("../../migrations", d.Name()), mustReadFile(t, filepath.Join("../../generated", d.Name(), "schema.sql")))
		})
	}
}

// everyConstruct is internal/gen/testdata/constructs.hcl without pgvector,
// which cannot be installed here.
func everyConstruct(t *testing.T) string {
	t.Helper()
	m := string(mustReadFile(t, "../gen/testdata/constructs.hcl"))
	for _, cut := range []string{
		"raw \"vector_extension\" {\n  position = \"before_tables\"\n  postgres = \"CREATE EXTENSION IF NOT EXISTS vector\"\n}\n",
		"  column \"embedding\" {\n    type = vector(3)\n    null = true\n  }\n",
	} {
		if !strings.Contains(m, cut) {
			t.Fatalf("constructs.hcl changed: no %q", cut)
		}
		m = strings.Replace(m, cut, "", 1)
	}
	return m
}

func replaceAll(t *testing.T, m string, pairs ...string) string {
	t.Helper()
	for i := 0; i < len(pairs); i += 2 {
		if !strings.Contains(m, pairs[i]) {
			t.Fatalf("model has no %q", pairs[i])
		}
		m = strings.Replace(m, pairs[i], pairs[i+1], 1)
	}
	return m
}

// TestAtlasAgreesEveryConstruct builds a directory by successive migrate
// diffs of a model that uses every construct of the language (created, then
// every kind of expression changed, then added to existing tables) and
// checks after each that Atlas, replaying it, finds what the generated DDL
// builds, and that schemagen finds nothing left to do.
func TestAtlasAgreesEveryConstruct(t *testing.T) {
	t.Parallel()
	full := everyConstruct(t)
	// Every expression the model writes, first in another form.
	first := replaceAll(t, full,
		`expr = "age IS NULL OR NOT (age < 0 OR age > 150)"`, `expr = "age IS NULL OR age >= 0"`,
		`default = "it's new"`, `default = "new"`,
		"    default = 0\n", "    default = 1\n",
		`expr = "lower(email)"`, `expr = "upper(email)"`,
		`where   = "deleted_at IS NOT NULL AND name <> ''"`, `where   = "deleted_at IS NOT NULL"`,
		`expr = "previous_role IS DISTINCT FROM role OR previous_role IS NOT DISTINCT FROM NULL"`, `expr = "previous_role IS DISTINCT FROM role"`,
		"ON `groups` (`owner_id`, (CASE", "ON `groups` (`owner_id`, `name`, (CASE",
	)
	// Added to existing tables: a column with a default, an IN over varchar
	// (which PostgreSQL normalises twice differently), a partial index.
	more := replaceAll(t, full,
		"  primary_key {\n    columns = [\"id\"]\n  }\n  unique \"accounts_email_uq\"",
		"  column \"tier\" {\n    type    = varchar(8)\n    default = \"basic\"\n  }\n  primary_key {\n    columns = [\"id\"]\n  }\n  check \"accounts_tier_ck\" {\n    expr = \"tier IN ('basic', 'pro') AND tier <> ''\"\n  }\n  index \"accounts_tier_idx\" {\n    columns = [\"tier\", \"email\"]\n    where   = \"tier IN ('pro', 'basic')\"\n  }\n  index \"accounts_tier_lower_idx\" {\n    on {\n      expr = \"lower(tier)\"\n    }\n  }\n  index \"accounts_tier_raw_idx\" {\n    columns = [\"tier\"]\n    postgres {\n      sql = \"CREATE INDEX accounts_tier_raw_idx ON accounts (tier) WHERE tier IN ('pro', 'basic')\"\n    }\n  }\n  unique \"accounts_email_uq\"",
	)
	p := testproject.New(t, first)
	steps := []struct{ name, model string }{{"init", first}, {"change_exprs", full}, {"add_to_tables", more}}
	for _, s := range steps {
		p.Generate(s.model)
		got := p.Diff(s.name)
		if len(got["postgres"]) == 0 || len(got["tidb"]) == 0 {
			t.Fatalf("%s: diff wrote %d postgres and %d tidb statements", s.name, len(got["postgres"]), len(got["tidb"]))
		}
		if again := p.Diff(s.name + "_again"); len(again) != 0 {
			t.Fatalf("%s: a second diff found changes: %v", s.name, again)
		}
		for _, d := range all.Dialects() {
			atlasAgrees(t, d, filepath.Join(p.Dir, "migrations", d.Name()), mustReadFile(t, filepath.Join(p.Dir, "generated", d.Name(), "schema.sql")))
		}
	}
	// The files hold the model's text, not what PostgreSQL printed back.
	// The last diff wrote two files: the online plan's second one builds
	// its indexes outside a transaction.
	pg := files(t, p, "postgres")
	last := string(pg[len(pg)-2].Bytes()) + string(pg[len(pg)-1].Bytes())
	if !strings.HasSuffix(pg[len(pg)-1].Name(), "_add_to_tables_online.sql") {
		t.Errorf("the last postgres file is %s, want the online file of add_to_tables", pg[len(pg)-1].Name())
	}
	for _, want := range []string{"CREATE INDEX accounts_tier_raw_idx ON accounts (tier) WHERE tier IN ('pro', 'basic');", `CHECK ("tier" IN ('basic', 'pro') AND "tier" <> '')`, `WHERE "tier" IN ('pro', 'basic')`, `DEFAULT 'basic'`, `((LOWER("tier")))`} {
		if !strings.Contains(last, want) {
			t.Errorf("the last postgres migration has no %s:\n%s", want, last)
		}
	}
	if strings.Contains(last, "ANY (ARRAY") || strings.Contains(last, "::text") {
		t.Errorf("the last postgres migration holds text PostgreSQL printed back:\n%s", last)
	}
}
