package importer_test

import (
	"context"
	"slices"
	"strings"
	"testing"

	"github.com/schemagen/schemagen/compiler"
	"github.com/schemagen/schemagen/dialects/all"
	"github.com/schemagen/schemagen/internal/dbtest"
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
	if !strings.Contains(string(compiler.Write(one.Schema, nil)), "uuid_check = true") {
		t.Errorf("TiDB alone: no uuid_check = true in\n%s", compiler.Write(one.Schema, nil))
	}
	r, model, out := importAndCompile(t, orig["postgres"].URL, orig["tidb"].URL)
	if !strings.Contains(string(model), "uuid_check = true") {
		t.Errorf("no uuid_check = true in\n%s", model)
	}
	if !slices.ContainsFunc(r.Summary, func(s string) bool { return strings.Contains(s, "uuid_check = true inferred") }) {
		t.Errorf("the summary does not say uuid_check was inferred:\n%s", strings.Join(r.Summary, "\n"))
	}
	for _, d := range []string{"postgres", "tidb"} {
		rebuilt := dbtest.New(t, d)
		testproject.RunSQL(t, rebuilt, out.Outputs[d].SQL)
		compareDatabases(t, all.Get(d), orig[d], rebuilt, nil)
	}
}
