package dialects_test

import (
	"fmt"
	"strings"
	"testing"

	"github.com/schemagen/schemagen/compiler/load"
	"github.com/schemagen/schemagen/dialects/all"
	"github.com/schemagen/schemagen/internal/dbtest"
	"github.com/schemagen/schemagen/internal/testproject"
)

// Raw texts are checked at generate: a raw default drawing from a sequence
// the model does not create (an import once wrote nextval of a sequence it
// did not keep, and the DDL failed with 42P01 on a fresh database), and a
// raw TiDB type, default or CHECK that TiDB's parser rejects or that names
// a column the table lacks, are errors at their override, not failures
// when the DDL runs.
func TestRawTextsChecked(t *testing.T) {
	t.Parallel()
	const table = `
table "t" {
  column "id" {
    type = int
    %s
  }
  primary_key {
    columns = ["id"]
  }
  %s
}
%s`
	for _, c := range []struct {
		name, column, check, raw, dialect, want string
	}{
		{"unknown sequence", `postgres {
      default = "nextval('t_id_seq1'::regclass)"
    }`, "", "", "postgres", `Unknown sequence (postgres); The default nextval('t_id_seq1'::regclass) of t.id draws from sequence "t_id_seq1"`},
		{"sequence of a raw block", `postgres {
      default = "nextval('shared_seq'::regclass)"
    }`, "", `raw "sequence shared_seq" {
  postgres = "CREATE SEQUENCE shared_seq AS integer"
  position = "before_tables"
}`, "postgres", ""},
		{"tidb type", `tidb {
      type = "varchar(10"
    }`, "", "", "tidb", `Invalid raw type (tidb); TiDB's parser rejects the type "varchar(10" of t.id`},
		{"tidb default", `tidb {
      default = "'a"
    }`, "", "", "tidb", `Invalid raw default (tidb)`},
		{"tidb check column", "", `check "t_ck" {
    expr = "id > 0"
    tidb {
      expr = "idd > 0"
    }
  }`, "", "tidb", `Unknown column (tidb); The expression "idd > 0" of check t_ck names column "idd"`},
	} {
		t.Run(c.name, func(t *testing.T) {
			src := strings.Replace(strings.Replace(strings.Replace(table, "%s", c.column, 1), "%s", c.check, 1), "%s", c.raw, 1)
			_, diags := generate(t, c.dialect, src)
			if c.want == "" {
				if diags.HasErrors() {
					t.Fatal(diags)
				}
				return
			}
			if !diags.HasErrors() || !strings.Contains(diags.Error(), c.want) {
				t.Fatalf("got %v, want an error with %q", diags, c.want)
			}
			for _, d := range diags.Errs() {
				if !strings.Contains(d.Error(), "limits.hcl:") || strings.Contains(d.Error(), "limits.hcl:0") {
					t.Errorf("the error has no position: %v", d)
				}
			}
		})
	}
}

// Raw PostgreSQL texts are resolved at generate: the functions a raw
// default, CHECK or index statement calls are PostgreSQL's (its catalog's
// snapshot), a declared extension's, or created by a raw block before the
// tables; the relations it names are the model's. Before, each of the
// refused ones compiled and failed when the DDL ran (42883, 42P01); each
// accepted one is applied to PostgreSQL.
func TestRawPostgresTextsResolved(t *testing.T) {
	t.Parallel()
	const model = `
%s
table "t" {
  column "id" {
    type = int
    %s
  }
  column "name" {
    type = varchar(40)
    null = true
  }
  primary_key {
    columns = ["id"]
  }
  %s
}
table "u" {
  column "id" {
    type = int
  }
  primary_key {
    columns = ["id"]
  }
}
%s`
	for _, c := range []struct {
		name, top, column, table, raw, want string
	}{
		{name: "builtin functions", column: `postgres {
      default = "floor(random() * 1000)::integer"
    }`, table: `check "t_name_ck" {
    expr = "name <> ''"
    postgres {
      expr = "length(btrim(name)) > 0 AND name IS NOT NULL OR COALESCE(name, '') = ''"
    }
  }`},
		{name: "unknown function in a default", column: `postgres {
      default = "next_number()"
    }`, want: `Unknown function (postgres); The default next_number() of t.id calls function next_number`},
		{name: "unknown function in a check", table: `check "t_name_ck" {
    expr = "name <> ''"
    postgres {
      expr = "is_valid_name(name)"
    }
  }`, want: `Unknown function (postgres); The expression "is_valid_name(name)" of check t_name_ck calls function is_valid_name`},
		{name: "function of a raw block before the tables", column: `postgres {
      default = "next_number()"
    }`, raw: `raw "function next_number" {
  postgres = "CREATE FUNCTION next_number() RETURNS integer LANGUAGE sql AS 'SELECT 7'"
  position = "before_tables"
}`},
		{name: "function of a raw block after the tables", column: `postgres {
      default = "next_number()"
    }`, raw: `raw "function next_number" {
  postgres = "CREATE FUNCTION next_number() RETURNS integer LANGUAGE sql AS 'SELECT 7'"
}`, want: `Created after the tables (postgres); The default next_number() of t.id calls function next_number, which raw block "function next_number" creates after the tables`},
		{name: "function of a declared extension", top: `extension "pgcrypto" {}`, table: `check "t_name_ck" {
    expr = "name <> ''"
    postgres {
      expr = "name <> encode(digest('', 'sha256'), 'hex')"
    }
  }`},
		{name: "function of an undeclared extension", table: `check "t_name_ck" {
    expr = "name <> ''"
    postgres {
      expr = "name <> encode(digest('', 'sha256'), 'hex')"
    }
  }`, want: `Unknown function (postgres); The expression "name <> encode(digest('', 'sha256'), 'hex')" of check t_name_ck calls function digest`},
		{name: "unknown relation", table: `check "t_name_ck" {
    expr = "name <> ''"
    postgres {
      expr = "pg_relation_size('v'::regclass) >= 0"
    }
  }`, want: `Unknown relation (postgres); The expression "pg_relation_size('v'::regclass) >= 0" of check t_name_ck names relation "v"`},
		{name: "index statement", table: `index "t_name_idx" {
    columns = ["name"]
    postgres {
      sql = "CREATE INDEX t_name_idx ON ONLY t USING btree (lower(name) text_pattern_ops) INCLUDE (id) WITH (fillfactor = 90) WHERE (name IS NOT NULL)"
    }
  }`},
		{name: "index statement with an unknown function", table: `index "t_name_idx" {
    columns = ["name"]
    postgres {
      sql = "CREATE INDEX t_name_idx ON t (fold_name(name))"
    }
  }`, want: `Unknown function (postgres); The statement of index t_name_idx calls function fold_name`},
	} {
		t.Run(c.name, func(t *testing.T) {
			t.Parallel()
			src := fmt.Sprintf(model, c.top, c.column, c.table, c.raw)
			sql, diags := generate(t, "postgres", src)
			if c.want == "" {
				if diags.HasErrors() {
					t.Fatal(diags)
				}
				testproject.RunSQL(t, dbtest.Postgres(t), []byte(sql))
				return
			}
			if !diags.HasErrors() || !strings.Contains(diags.Error(), c.want) {
				t.Fatalf("got %v, want an error with %q", diags, c.want)
			}
			for _, d := range diags.Errs() {
				if !strings.Contains(d.Error(), "limits.hcl:") || strings.Contains(d.Error(), "limits.hcl:0") {
					t.Errorf("the error has no position: %v", d)
				}
			}
		})
	}
}

// What a raw PostgreSQL text names and schemagen cannot resolve (a
// function that an extension it has no snapshot of may create) is listed
// by explain, and is no error.
func TestRawPostgresTextsUnresolvedExplained(t *testing.T) {
	t.Parallel()
	s, diags := load.Source(load.Options{Dialects: all.Names()}, "x.hcl", []byte(`
extension "some_vendor_extension" {}
table "t" {
  column "id" {
    type = int
    postgres {
      default = "vendor_next_id()"
    }
  }
  primary_key {
    columns = ["id"]
  }
}`))
	if diags.HasErrors() {
		t.Fatal(diags)
	}
	o, diags := all.Get("postgres").Generate(s)
	if diags.HasErrors() {
		t.Fatal(diags)
	}
	var found bool
	for _, d := range o.Decisions {
		if strings.Contains(d.Text, "not resolved") && strings.Contains(d.Text, "function vendor_next_id") && strings.Contains(d.Text, "some_vendor_extension") {
			found = true
		}
	}
	if !found {
		t.Errorf("explain does not list vendor_next_id as not resolved: %v", o.Decisions)
	}
}
