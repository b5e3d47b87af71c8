package erd_test

import (
	"strings"
	"testing"

	"github.com/schemagen/schemagen/internal/erd"
	"github.com/schemagen/schemagen/internal/gen"
)

const model = `table "users" {
  column "id" {
    type = uuid
  }
  column "email" {
    type = varchar(320)
  }
  column "search" {
    type = text
    null = true
    tidb {
      skip = true
    }
  }
  primary_key {
    columns = ["id"]
  }
  unique "users_email_uq" {
    columns = ["email"]
  }
}

table "profiles" {
  column "user_id" {
    type = uuid
  }
  column "balance" {
    type = decimal(12,2)
  }
  primary_key {
    columns = ["user_id"]
  }
  foreign_key "profiles_user_fk" {
    columns     = ["user_id"]
    ref_table   = "users"
    ref_columns = ["id"]
  }
}

table "posts" {
  column "id" {
    type = bigint
  }
  column "author_id" {
    type = uuid
    null = true
  }
  primary_key {
    columns = ["id"]
  }
  foreign_key "posts_author_fk" {
    columns     = ["author_id"]
    ref_table   = "users"
    ref_columns = ["id"]
    deferrable  = true
  }
}

table "pg_audit" {
  column "id" {
    type = bigint
  }
  column "user_id" {
    type = uuid
  }
  foreign_key "pg_audit_user_fk" {
    columns     = ["user_id"]
    ref_table   = "users"
    ref_columns = ["id"]
  }
  tidb {
    skip = true
  }
}
`

func compile(t *testing.T) *gen.Result {
	t.Helper()
	r := gen.CompileSource("m.hcl", []byte(model))
	if r.Failed() {
		t.Fatal(r.Diags)
	}
	return r
}

func TestMermaid(t *testing.T) {
	r := compile(t)
	got := erd.Mermaid(r.Schema, erd.Options{})
	for _, want := range []string{
		"erDiagram\n  users {\n    uuid id PK\n    varchar(320) email UK\n    text search \"null\"\n  }\n",
		// Mermaid types take no commas: the exact type goes in the comment.
		"    decimal balance \"decimal(12,2)\"\n",
		"    uuid user_id PK, FK\n",
		// One to one (the key is the primary key), one to many with a
		// nullable key, and a mandatory one.
		`  users ||--o| profiles : "profiles_user_fk"`,
		`  users |o--o{ posts : "posts_author_fk"`,
		`  users ||--o{ pg_audit : "pg_audit_user_fk"`,
	} {
		if !strings.Contains(got, want) {
			t.Errorf("mermaid lacks %q:\n%s", want, got)
		}
	}
	if strings.Contains(got, "not in") || strings.Contains(got, "%%") {
		t.Errorf("the neutral diagram marks a dialect:\n%s", got)
	}
}

// Per dialect, what the model or the dialect leaves out is marked.
func TestMermaidDialect(t *testing.T) {
	r := compile(t)
	got := erd.Mermaid(r.Schema, erd.Options{Dialect: "tidb", Decisions: r.Outputs["tidb"].Decisions})
	for _, want := range []string{
		`    text search "null; not in tidb"`,
		`    bigint id "table not in tidb"`,
		`  users ||..o{ pg_audit : "pg_audit_user_fk (not in tidb)"`,
		"  %% tidb leaves out posts foreign key posts_author_fk: DEFERRABLE left out",
	} {
		if !strings.Contains(got, want) {
			t.Errorf("tidb diagram lacks %q:\n%s", want, got)
		}
	}
	pg := erd.Mermaid(r.Schema, erd.Options{Dialect: "postgres", Decisions: r.Outputs["postgres"].Decisions})
	if strings.Contains(pg, "not in") || strings.Contains(pg, "%%") {
		t.Errorf("postgres leaves nothing out, yet:\n%s", pg)
	}
}

func TestTablesAndDot(t *testing.T) {
	r := compile(t)
	got := erd.Mermaid(r.Schema, erd.Options{Tables: []string{"users", "posts"}})
	if strings.Contains(got, "profiles") || !strings.Contains(got, "posts_author_fk") {
		t.Errorf("tables users, posts:\n%s", got)
	}
	dot := erd.Dot(r.Schema, erd.Options{Dialect: "tidb", Decisions: r.Outputs["tidb"].Decisions})
	for _, want := range []string{
		"digraph schema {",
		`<tr><td port="email" align="left">email varchar(320) <b>UK</b></td></tr>`,
		`"posts" -> "users" [label="posts_author_fk", arrowhead=odot];`,
		`"pg_audit" -> "users" [label="pg_audit_user_fk (not in tidb)", style=dashed];`,
		"<b>pg_audit (not in tidb)</b>",
	} {
		if !strings.Contains(dot, want) {
			t.Errorf("dot lacks %q:\n%s", want, dot)
		}
	}
	if u := erd.UnknownTables(r.Schema, []string{"users", "nope"}); len(u) != 1 || u[0] != "nope" {
		t.Errorf("UnknownTables: %v", u)
	}
}

func TestMarkdown(t *testing.T) {
	r := compile(t)
	left := map[string][]string{}
	for _, d := range []string{"postgres", "tidb"} {
		left[d] = erd.LeftOut(r.Schema, d, r.Outputs[d].Decisions)
	}
	got := erd.Markdown(r.Schema, []string{"postgres", "tidb"}, left)
	for _, want := range []string{
		"<!-- Generated from m.hcl by `schemagen erd --out`.",
		"```mermaid\nerDiagram\n",
		"- **postgres**: nothing.\n",
		"- **tidb**:\n  - column users.search\n  - table pg_audit\n  - posts foreign key posts_author_fk: DEFERRABLE left out",
	} {
		if !strings.Contains(got, want) {
			t.Errorf("markdown lacks %q:\n%s", want, got)
		}
	}
}
