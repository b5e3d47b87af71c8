package importer_test

import (
	"context"
	"testing"

	"github.com/schemagen/schemagen/compiler"
	"github.com/schemagen/schemagen/internal/dbtest"
	"github.com/schemagen/schemagen/internal/gen"
	"github.com/schemagen/schemagen/internal/importer"
	"github.com/schemagen/schemagen/internal/testproject"
)

// TestImportKeepsSettings imports a TiDB database that schemagen built with
// exact_strings and uuid_check: the settings come back, every COLLATE
// utf8mb4_0900_bin becomes them again, and generating from the imported
// model gives TiDB's DDL byte for byte. (The import read them as columns
// of TiDB's own type before, and lost the setting.) The unique key is a
// unique constraint here: TiDB reads a constraint and a unique index alike,
// and a TiDB import writes the constraint (TestImportTiDBUniqueKeys).
func TestImportKeepsSettings(t *testing.T) {
	t.Parallel()
	src := []byte(`dialect "tidb" {
  exact_strings = true
  uuid_check    = true
}

table "users" {
  column "id" {
    type = uuid
  }
  column "email" {
    type = varchar(200)
  }
  column "bio" {
    type = text
    null = true
  }
  column "code" {
    type = char(4)
  }
  primary_key {
    columns = ["id"]
  }
  unique "users_email_key" {
    columns = ["email"]
  }
}
`)
	first := gen.CompileSource("schema.hcl", src)
	if first.Failed() {
		t.Fatal(first.Diags)
	}
	db := dbtest.TiDB(t)
	testproject.RunSQL(t, db, first.Outputs["tidb"].SQL)
	r, err := importer.Import(context.Background(), []string{db.URL}, nil)
	if err != nil {
		t.Fatal(err)
	}
	model := compiler.Write(r.Schema, r.Notes)
	second := gen.CompileSource("schema.hcl", model)
	if second.Failed() {
		t.Fatalf("%v\n%s", second.Diags, model)
	}
	if want, got := string(first.Outputs["tidb"].SQL), string(second.Outputs["tidb"].SQL); got != want {
		t.Errorf("tidb: generated again from the imported model differs at %s\nmodel:\n%s", testproject.FirstDiff(want, got), model)
	}
	ds := r.Schema.Dialect["tidb"]
	for _, name := range []string{"exact_strings", "uuid_check"} {
		if ds == nil || ds.Attrs[name] == nil {
			t.Errorf("the imported model has no %s:\n%s", name, model)
		}
	}
}
