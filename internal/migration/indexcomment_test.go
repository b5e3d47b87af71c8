package migration_test

import (
	"context"
	"slices"
	"strings"
	"testing"

	"github.com/schemagen/schemagen/internal/dbtest"
	"github.com/schemagen/schemagen/internal/lint"
	"github.com/schemagen/schemagen/internal/testproject"
)

const commentedModel = `
table "docs" {
  column "id" {
    type = int
  }
  column "title" {
    type = varchar(100)
  }
  primary_key {
    columns = ["id"]
  }
  index "docs_title_idx" {
    columns = ["title"]
    #COMMENT
  }
}
`

// TestDiffIndexComment: migrate diff plans an index's comment added,
// changed and removed, on both databases (PostgreSQL's COMMENT ON INDEX;
// TiDB sets an index's comment only when it creates it, so the index is
// dropped and added again); once applied, the next diff plans nothing.
func TestDiffIndexComment(t *testing.T) {
	t.Parallel()
	model := func(comment string) string {
		if comment == "" {
			return strings.Replace(commentedModel, "    #COMMENT\n", "", 1)
		}
		return strings.Replace(commentedModel, "#COMMENT", "comment = "+comment, 1)
	}
	p := testproject.New(t, model(""))
	p.Diff("init")
	dbs := map[string]*dbtest.DB{"postgres": dbtest.New(t, "postgres"), "tidb": dbtest.New(t, "tidb")}
	for d, db := range dbs {
		p.Apply(d, db.URL)
	}
	for _, step := range []struct{ comment, postgres, tidb string }{
		{`"Search by title, for the it's list"`, `COMMENT ON INDEX "docs_title_idx" IS 'Search by title, for the it''s list'`, "ADD INDEX `docs_title_idx` (`title`) COMMENT \"Search by title, for the it's list\""},
		{`"Search by title"`, `COMMENT ON INDEX "docs_title_idx" IS 'Search by title'`, "ADD INDEX `docs_title_idx` (`title`) COMMENT \"Search by title\""},
		{"", `COMMENT ON INDEX "docs_title_idx" IS ''`, "ADD INDEX `docs_title_idx` (`title`)"},
	} {
		p.Generate(model(step.comment))
		stmts := p.Diff("comment")
		for d, want := range map[string]string{"postgres": step.postgres, "tidb": step.tidb} {
			if got := strings.Join(stmts[d], "\n"); !strings.Contains(got, want) {
				t.Errorf("comment %s, %s: the plan lacks %q:\n%s", step.comment, d, want, got)
			}
			p.Apply(d, dbs[d].URL)
		}
		if again := p.Diff("again"); len(again["postgres"])+len(again["tidb"]) > 0 {
			t.Errorf("comment %s: the applied migration leaves a difference: %v", step.comment, again)
		}
	}
	var comment string
	if err := dbs["postgres"].QueryRow(`SELECT coalesce(obj_description('docs_title_idx'::regclass, 'pg_class'), '')`).Scan(&comment); err != nil || comment != "" {
		t.Errorf("postgres: the removed comment reads %q (%v)", comment, err)
	}
}

// TestIndexCommentLintsClean: a comment alone changed on an index is
// COMMENT ON INDEX, and lint claimed it rebuilt the index (PG101, CREATE
// INDEX without CONCURRENTLY) on the file migrate diff wrote. Found by
// the plan oracle's lint, seed 71717 (evolution seed 71717215152).
func TestIndexCommentLintsClean(t *testing.T) {
	p := testproject.New(t, strings.Replace(commentedModel, "    #COMMENT\n", "", 1))
	p.Diff("init")
	p.Generate(strings.Replace(commentedModel, "#COMMENT", `comment = "a \\ b"`, 1))
	if st := p.Diff("comment"); !slices.ContainsFunc(st["postgres"], func(s string) bool { return strings.HasPrefix(s, "COMMENT ON INDEX") }) {
		t.Fatalf("postgres plan: %q, want COMMENT ON INDEX", st["postgres"])
	}
	r, err := lint.Run(context.Background(), p.Dev, p.Targets, lint.Options{})
	if err != nil {
		t.Fatal(err)
	}
	for _, f := range r.Findings {
		if f.Severity == lint.SeverityError {
			t.Errorf("%s: %s %s", f.File, f.Code, f.Message)
		}
	}
}
