package importer_test

import (
	"context"
	"slices"
	"strings"
	"testing"

	"github.com/schemagen/schemagen/compiler"
	"github.com/schemagen/schemagen/dialects"
	"github.com/schemagen/schemagen/dialects/all"
	"github.com/schemagen/schemagen/internal/dbtest"
	"github.com/schemagen/schemagen/internal/gen"
	"github.com/schemagen/schemagen/internal/importer"
	"github.com/schemagen/schemagen/internal/testproject"
)

// TestImportObjects reads a PostgreSQL database's extension (citext) and
// views, and a TiDB database's views, into the model: extension blocks and
// one raw block per view with each dialect's statement. The model's DDL
// builds databases with the same extensions and view definitions as the
// ones read. A view that calls a function of the database's own is kept,
// after the function, which is a raw block of PostgreSQL's.
func TestImportObjects(t *testing.T) {
	src := map[string]string{
		"postgres": `CREATE EXTENSION IF NOT EXISTS citext;
CREATE TABLE users (id bigint PRIMARY KEY, email citext NOT NULL, active boolean NOT NULL);
CREATE VIEW active_users AS SELECT id, email FROM users WHERE active;
CREATE VIEW active_count AS SELECT count(*) AS n FROM active_users;
CREATE FUNCTION shout(t text) RETURNS text LANGUAGE sql IMMUTABLE AS 'SELECT upper(t)';
CREATE VIEW loud_users AS SELECT shout(email::text) AS e FROM users`,
		"tidb": `CREATE TABLE users (id BIGINT PRIMARY KEY, email VARCHAR(100) NOT NULL, active TINYINT(1) NOT NULL);
CREATE VIEW active_users AS SELECT id, email FROM users WHERE active;
CREATE VIEW active_count AS SELECT count(*) AS n FROM active_users`,
	}
	dbs := map[string]*dbtest.DB{}
	var urls []string
	for _, d := range []string{"postgres", "tidb"} {
		dbs[d] = dbtest.New(t, d)
		testproject.RunSQL(t, dbs[d], []byte(src[d]))
		urls = append(urls, dbs[d].URL)
	}
	r, err := importer.Import(context.Background(), urls, nil)
	if err != nil {
		t.Fatal(err)
	}
	model := string(compiler.Write(r.Schema, r.Notes))
	for _, want := range []string{`extension "citext" {`, `raw "active_users" {`, `raw "active_count" {`} {
		if !strings.Contains(model, want) {
			t.Errorf("the model has no %s:\n%s", want, model)
		}
	}
	if strings.Index(model, `raw "active_users"`) > strings.Index(model, `raw "active_count"`) {
		t.Errorf("active_count comes before the view it reads:\n%s", model)
	}
	if f, v := strings.Index(model, `raw "function shout(t text)"`), strings.Index(model, `raw "loud_users"`); f < 0 || v < f {
		t.Errorf("loud_users is not kept after the function it calls, shout: %v\n%s", r.Summary, model)
	}
	if !slices.ContainsFunc(r.Summary, func(s string) bool {
		return strings.Contains(s, "function shout(t text): kept as a postgres raw block")
	}) {
		t.Errorf("the summary does not say the function shout is a raw block: %v", r.Summary)
	}
	out := gen.CompileSource("imported.hcl", []byte(model))
	if out.Failed() {
		t.Fatalf("%v\n%s", out.Diags, model)
	}
	for _, d := range []string{"postgres", "tidb"} {
		built := dbtest.New(t, d)
		testproject.RunSQL(t, built, out.Outputs[d].SQL)
		od := all.Get(d).(dialects.ObjectDialect)
		want, err := od.ReadObjects(context.Background(), dbs[d].DB)
		if err != nil {
			t.Fatal(err)
		}
		got, err := od.ReadObjects(context.Background(), built.DB)
		if err != nil {
			t.Fatal(err)
		}
		if !slices.Equal(want.Extensions, got.Extensions) {
			t.Errorf("%s: extensions %v, the database read has %v", d, got.Extensions, want.Extensions)
		}
		for v, def := range want.Views {
			if got.Views[v] != def {
				t.Errorf("%s: view %s is %q built from the model, %q in the database read", d, v, got.Views[v], def)
			}
		}
		if len(got.Views) != len(want.Views) {
			t.Errorf("%s: views %v, want %v", d, got.Views, want.Views)
		}
	}
}
