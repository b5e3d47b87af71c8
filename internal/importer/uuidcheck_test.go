package importer_test

import (
	"context"
	"slices"
	"strings"
	"testing"

	"github.com/schemagen/schemagen/compiler"
	"github.com/schemagen/schemagen/dialects/all"
	"github.com/schemagen/schemagen/internal/dbtest"
	"github.com/schemagen/schemagen/internal/gen"
	"github.com/schemagen/schemagen/internal/importer"
	"github.com/schemagen/schemagen/internal/testproject"
)

// A TiDB schema that checks the shape of every uuid column by hand (CHAR(36)
// with REGEXP, the hex classes written the usual ways) is read as
// uuid_check = true, beside PostgreSQL's uuid columns; the CHECKs keep their
// names and text, uuid_check adds none beside them, and generating gives
// both databases back object for object. A column of a foreign key with
// ON DELETE CASCADE, which TiDB lets have no CHECK, needs none.
func TestUUIDCheckInferred(t *testing.T) {
	t.Parallel()
	ddl := map[string]string{
		"postgres": `
CREATE TABLE owners (
  id uuid NOT NULL PRIMARY KEY,
  name varchar(50) NOT NULL
);
CREATE TABLE docs (
  id uuid NOT NULL PRIMARY KEY,
  owner_id uuid NOT NULL REFERENCES owners (id) ON DELETE CASCADE,
  reviewer_id uuid,
  title varchar(100) NOT NULL
);
`,
		"tidb": `
CREATE TABLE owners (
  id CHAR(36) NOT NULL PRIMARY KEY,
  name VARCHAR(50) NOT NULL,
  CHECK (id REGEXP '^[0-9a-fA-F]{8}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{12}$')
);
CREATE TABLE docs (
  id CHAR(36) NOT NULL PRIMARY KEY,
  owner_id CHAR(36) NOT NULL,
  reviewer_id CHAR(36),
  title VARCHAR(100) NOT NULL,
  CONSTRAINT docs_id_shape CHECK (id regexp '^[0-9A-Fa-f]{8}-[0-9A-Fa-f]{4}-[0-9A-Fa-f]{4}-[0-9A-Fa-f]{4}-[0-9A-Fa-f]{12}$'),
  CHECK (reviewer_id RLIKE '^[a-fA-F0-9]{8}-[a-fA-F0-9]{4}-[a-fA-F0-9]{4}-[a-fA-F0-9]{4}-[a-fA-F0-9]{12}$'),
  FOREIGN KEY (owner_id) REFERENCES owners (id) ON DELETE CASCADE
);
`,
	}
	orig := map[string]*dbtest.DB{}
	for _, d := range []string{"postgres", "tidb"} {
		orig[d] = dbtest.New(t, d)
		testproject.RunSQL(t, orig[d], []byte(ddl[d]))
	}
	// TiDB alone.
	one, err := importer.Import(context.Background(), []string{orig["tidb"].URL}, nil)
	if err != nil {
		t.Fatal(err)
	}
	// uuid_check is on by default: the model writes no setting for it.
	if ds := one.Schema.Dialect["tidb"]; ds != nil && ds.Attrs["uuid_check"] != nil {
		t.Errorf("TiDB alone: uuid_check written in\n%s", compiler.Write(one.Schema, nil))
	}
	r, model, out := importAndCompile(t, orig["postgres"].URL, orig["tidb"].URL)
	if ds := r.Schema.Dialect["tidb"]; ds != nil && ds.Attrs["uuid_check"] != nil {
		t.Errorf("uuid_check written in\n%s", model)
	}
	if !slices.ContainsFunc(r.Summary, func(s string) bool { return strings.Contains(s, "uuid_check (the default) stands") }) {
		t.Errorf("the summary does not say uuid_check was inferred:\n%s", strings.Join(r.Summary, "\n"))
	}
	for _, d := range []string{"postgres", "tidb"} {
		rebuilt := dbtest.New(t, d)
		testproject.RunSQL(t, rebuilt, out.Outputs[d].SQL)
		compareDatabases(t, all.Get(d), orig[d], rebuilt, nil)
	}
}

// The value-domain CHECKs (value_domains) on an import. A database
// schemagen made has them all: they are left to the dialects, not read as
// user CHECKs, and the model gets no setting. A database written by hand
// has none: the model says value_domains = false for each dialect, so
// generating gives both databases back object for object.
func TestImportValueDomains(t *testing.T) {
	t.Parallel()
	model := `
table "events" {
  column "id" {
    type = int
  }
  column "score" {
    type = double
    null = true
  }
  column "price" {
    type = decimal(8, 2)
  }
  column "at" {
    type = timestamp
  }
  column "day" {
    type = date
    null = true
  }
  column "done" {
    type = bool
  }
  primary_key {
    columns = ["id"]
  }
  check "events_price_ck" {
    expr = "price >= 0"
  }
}
`
	made := gen.CompileSource("imported.hcl", []byte(model))
	if made.Failed() {
		t.Fatal(made.Diags)
	}
	orig := map[string]*dbtest.DB{}
	for _, d := range []string{"postgres", "tidb"} {
		orig[d] = dbtest.New(t, d)
		testproject.RunSQL(t, orig[d], made.Outputs[d].SQL)
	}
	r, text, out := importAndCompile(t, orig["postgres"].URL, orig["tidb"].URL)
	var body []string
	for _, line := range strings.Split(string(text), "\n") {
		if !strings.HasPrefix(strings.TrimSpace(line), "#") {
			body = append(body, line)
		}
	}
	for _, bad := range []string{"_finite_ck", "_range_ck", "_bool_ck", "value_domains"} {
		if strings.Contains(strings.Join(body, "\n"), bad) {
			t.Errorf("schemagen's own database: the model has %s:\n%s", bad, text)
		}
	}
	if !slices.ContainsFunc(r.Summary, func(s string) bool { return strings.Contains(s, "left to the dialect") }) {
		t.Errorf("the summary does not say the value-domain CHECKs were left to the dialects:\n%s", strings.Join(r.Summary, "\n"))
	}
	for _, d := range []string{"postgres", "tidb"} {
		if want, got := string(made.Outputs[d].SQL), string(out.Outputs[d].SQL); got != want {
			t.Errorf("%s: generate after import differs:\n%s", d, testproject.FirstDiff(want, got))
		}
	}

	ddl := map[string]string{
		"postgres": `CREATE TABLE events (id int PRIMARY KEY, score double precision, price numeric(8,2) NOT NULL CHECK (price >= 0), at timestamptz NOT NULL, day date, done boolean NOT NULL);`,
		"tidb":     "CREATE TABLE events (id INT PRIMARY KEY, score DOUBLE, price DECIMAL(8,2) NOT NULL, at DATETIME(3) NOT NULL, day DATE, done TINYINT(1) NOT NULL, CONSTRAINT events_price_ck CHECK (price >= 0));",
	}
	hand := map[string]*dbtest.DB{}
	for _, d := range []string{"postgres", "tidb"} {
		hand[d] = dbtest.New(t, d)
		testproject.RunSQL(t, hand[d], []byte(ddl[d]))
	}
	_, text, out = importAndCompile(t, hand["postgres"].URL, hand["tidb"].URL)
	for _, d := range []string{"postgres", "tidb"} {
		if !strings.Contains(string(text), "dialect \""+d+"\" {\n  value_domains = false") && !strings.Contains(string(text), "value_domains = false") {
			t.Errorf("hand-written %s: no value_domains = false in\n%s", d, text)
		}
		if strings.Contains(string(out.Outputs[d].SQL), "_range_ck") || strings.Contains(string(out.Outputs[d].SQL), "_finite_ck") || strings.Contains(string(out.Outputs[d].SQL), "_bool_ck") {
			t.Errorf("hand-written %s: generate adds value-domain CHECKs:\n%s", d, out.Outputs[d].SQL)
		}
		rebuilt := dbtest.New(t, d)
		testproject.RunSQL(t, rebuilt, out.Outputs[d].SQL)
		compareDatabases(t, all.Get(d), hand[d], rebuilt, nil)
	}
}
