package dialects_test

import (
	"strings"
	"testing"
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
