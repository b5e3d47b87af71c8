package dialects_test

import (
	"strings"
	"testing"

	"github.com/schemagen/schemagen/compiler"
	"github.com/schemagen/schemagen/compiler/load"
	"github.com/schemagen/schemagen/dialects/all"
	"github.com/schemagen/schemagen/internal/dbtest"
	"github.com/schemagen/schemagen/internal/testproject"
)

// A column's null in one dialect's block, which import writes where two
// live databases disagree (Kratos: NOT NULL on PostgreSQL, nullable on
// TiDB), and a primary key's name (a renamed table keeps its key's): each
// dialect's DDL has them, both apply, and the model writes them back.
const dialectNullModel = `
table "tokens" {
  column "id" {
    type = int
  }
  column "token" {
    type = varchar(64)
    tidb {
      null = true
    }
  }
  column "flow" {
    type = int
    null = true
    postgres {
      null = false
    }
  }
  primary_key {
    columns = ["id"]
    name    = "old_tokens_pkey"
  }
}
`

func TestDialectNull(t *testing.T) {
	t.Parallel()
	pg, diags := generate(t, "postgres", dialectNullModel)
	if diags.HasErrors() {
		t.Fatal(diags)
	}
	ti, diags := generate(t, "tidb", dialectNullModel)
	if diags.HasErrors() {
		t.Fatal(diags)
	}
	for _, want := range []string{`"token" VARCHAR(64) NOT NULL`, `"flow" INTEGER NOT NULL`, `CONSTRAINT "old_tokens_pkey" PRIMARY KEY ("id")`} {
		if !strings.Contains(pg, want) {
			t.Errorf("postgres DDL has no %s:\n%s", want, pg)
		}
	}
	for _, want := range []string{"`token` VARCHAR(64) COLLATE utf8mb4_0900_bin,", "`flow` INT,", "PRIMARY KEY (`id`)"} {
		if !strings.Contains(ti, want) {
			t.Errorf("tidb DDL has no %s:\n%s", want, ti)
		}
	}
	testproject.RunSQL(t, dbtest.Postgres(t), []byte(pg))
	testproject.RunSQL(t, dbtest.TiDB(t), []byte(ti))

	s, diags := load.Source(load.Options{Dialects: all.Names()}, "m.hcl", []byte(dialectNullModel))
	if diags.HasErrors() {
		t.Fatal(diags)
	}
	again, diags := load.Source(load.Options{Dialects: all.Names()}, "m.hcl", compiler.Write(s, nil))
	if diags.HasErrors() {
		t.Fatal(diags)
	}
	if c := again.Table("tokens").Column("token"); !c.NullIn("tidb") || c.NullIn("postgres") {
		t.Errorf("written and read again, token is null %v on tidb and %v on postgres", c.NullIn("tidb"), c.NullIn("postgres"))
	}
	if n := again.Table("tokens").PrimaryKey.Name; n != "old_tokens_pkey" {
		t.Errorf("written and read again, the primary key is named %q", n)
	}
}

// A dialect's null the column cannot have there is an error at the block.
func TestDialectNullRefused(t *testing.T) {
	t.Parallel()
	for _, c := range []struct{ name, column, want string }{
		{"primary key", `column "id" {
    type = int
    tidb {
      null = true
    }
  }`, "is in the primary key, so it cannot be null = true on tidb"},
		{"identity", `column "id" {
    type = int
  }
  column "n" {
    type = int
    identity {}
    postgres {
      null = true
    }
  }`, "has an identity, so it cannot be null = true on postgres"},
	} {
		t.Run(c.name, func(t *testing.T) {
			src := "table \"t\" {\n  " + c.column + "\n  primary_key {\n    columns = [\"id\"]\n  }\n}\n"
			_, diags := load.Source(load.Options{Dialects: all.Names()}, "m.hcl", []byte(src))
			if !diags.HasErrors() || !strings.Contains(diags.Error(), c.want) {
				t.Fatalf("got %v, want an error with %q", diags, c.want)
			}
			for _, d := range diags {
				if d.Subject == nil || d.Subject.Start.Line < 4 {
					t.Errorf("the error is not at the dialect's block: %v", d.Subject)
				}
			}
		})
	}
}
