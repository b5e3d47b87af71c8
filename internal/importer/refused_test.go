package importer_test

import (
	"context"
	"slices"
	"strings"
	"testing"

	"github.com/schemagen/schemagen/compiler"
	"github.com/schemagen/schemagen/internal/dbtest"
	"github.com/schemagen/schemagen/internal/gen"
	"github.com/schemagen/schemagen/internal/importer"
	"github.com/schemagen/schemagen/internal/testproject"
)

// What a live TiDB holds but the model's own rules refuse in every dialect
// (a foreign key to a column that is not unique, % over a double) is left
// out of the model alone, each object with a comment above its table and a
// line of the summary, in one import; everything else stays, and the model
// compiles.
func TestImportLeavesOutRefused(t *testing.T) {
	t.Parallel()
	db := dbtest.TiDB(t)
	testproject.RunSQL(t, db, []byte(`
CREATE TABLE p (
  id INT NOT NULL PRIMARY KEY,
  code INT NOT NULL,
  ratio DOUBLE NOT NULL,
  KEY p_code (code),
  CONSTRAINT p_ratio_even CHECK (ratio % 2 = 0),
  CONSTRAINT p_ratio_pos CHECK (ratio >= 0)
);
CREATE TABLE c (
  id INT NOT NULL PRIMARY KEY,
  code INT NOT NULL,
  CONSTRAINT c_code_fk FOREIGN KEY (code) REFERENCES p (code),
  CONSTRAINT c_id_pos CHECK (id > 0)
);
`))
	r, err := importer.Import(context.Background(), []string{db.URL}, nil)
	if err != nil {
		t.Fatal(err)
	}
	model := compiler.Write(r.Schema, r.Notes)
	if out := gen.CompileSource("imported.hcl", model); out.Failed() {
		t.Fatalf("the model does not compile: %v\n%s", out.Diags, model)
	}
	for _, want := range []struct{ table, comment string }{
		{"p", "# check p_ratio_even: left out of the model, which refuses it: Invalid expression"},
		{"c", "# foreign key c_code_fk: left out of the model, which refuses it: Foreign key target is not unique"},
	} {
		if !strings.Contains(string(model), want.comment) {
			t.Errorf("no comment %q in\n%s", want.comment, model)
		}
		if !slices.ContainsFunc(r.Summary, func(s string) bool {
			return strings.HasPrefix(s, want.table+": "+strings.TrimPrefix(want.comment, "# "))
		}) {
			t.Errorf("no summary line for %q:\n%s", want.comment, strings.Join(r.Summary, "\n"))
		}
	}
	p, c := r.Schema.Table("p"), r.Schema.Table("c")
	if p == nil || c == nil {
		t.Fatalf("a table is missing:\n%s", model)
	}
	var checks []string
	for _, ch := range append(p.Checks, c.Checks...) {
		checks = append(checks, ch.Name)
	}
	if !slices.Equal(checks, []string{"p_ratio_pos", "c_id_pos"}) {
		t.Errorf("checks %q, want the two the model accepts", checks)
	}
	if len(c.ForeignKeys) != 0 || c.Column("code") == nil || len(p.Indexes) != 1 {
		t.Errorf("more than the foreign key was left out, or not it:\n%s", model)
	}
}
