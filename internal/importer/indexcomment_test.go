package importer_test

import (
	"bytes"
	"context"
	"strings"
	"testing"

	"github.com/schemagen/schemagen/compiler"
	"github.com/schemagen/schemagen/internal/dbtest"
	"github.com/schemagen/schemagen/internal/gen"
	"github.com/schemagen/schemagen/internal/importer"
	"github.com/schemagen/schemagen/internal/testproject"
)

const commentedIndexes = `
table "docs" {
  column "id" {
    type = int
  }
  column "title" {
    type = varchar(100)
  }
  column "slug" {
    type = varchar(100)
  }
  column "deleted" {
    type = bool
  }
  primary_key {
    columns = ["id"]
  }
  index "docs_title_idx" {
    columns = ["title"]
    comment = "Search by title, for the it's list"
  }
  index "docs_slug_uq" {
    unique  = true
    columns = ["slug"]
    comment = "Finds a page by its URL"
  }
  index "docs_lower_title_idx" {
    on {
      expr = "lower(title)"
    }
    comment = "Case-blind search"
  }
}
`

// TestImportIndexComment imports databases whose indexes have comments,
// each alone and merged: the comments come back as the indexes' comments
// (a commented unique index stays an index, which keeps it), and the
// imported model generates the same DDL.
func TestImportIndexComment(t *testing.T) {
	t.Parallel()
	want := gen.CompileSource("docs.hcl", []byte(commentedIndexes))
	if want.Failed() {
		t.Fatal(want.Diags)
	}
	pg, ti := dbtest.Postgres(t), dbtest.TiDB(t)
	testproject.RunSQL(t, pg, want.Outputs["postgres"].SQL)
	testproject.RunSQL(t, ti, want.Outputs["tidb"].SQL)
	for _, tc := range []struct {
		name    string
		urls    []string
		compare []string
	}{
		{"postgres", []string{pg.URL}, []string{"postgres"}},
		{"tidb", []string{ti.URL}, []string{"tidb"}},
		{"merged", []string{pg.URL, ti.URL}, []string{"postgres", "tidb"}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			r, err := importer.Import(context.Background(), tc.urls, nil)
			if err != nil {
				t.Fatal(err)
			}
			model := compiler.Write(r.Schema, r.Notes)
			out := gen.CompileSource("docs.hcl", model)
			if out.Failed() {
				t.Fatalf("the imported model does not compile: %v\n%s", out.Diags, model)
			}
			for name, comment := range map[string]string{"docs_title_idx": "Search by title, for the it's list", "docs_slug_uq": "Finds a page by its URL", "docs_lower_title_idx": "Case-blind search"} {
				if got := indexComment(out.Schema, "docs", name); got != comment {
					t.Errorf("index %s: comment %q, want %q\n%s", name, got, comment, model)
				}
			}
			for _, d := range tc.compare {
				if !bytes.Equal(out.Outputs[d].SQL, want.Outputs[d].SQL) {
					t.Errorf("%s: generate after import differs:\n--- imported\n%s\n--- original\n%s\nmodel:\n%s", d, out.Outputs[d].SQL, want.Outputs[d].SQL, model)
				}
			}
		})
	}
}

func indexComment(s *compiler.Schema, table, index string) string {
	if t := s.Table(table); t != nil {
		for _, idx := range t.Indexes {
			if idx.Name == index {
				return idx.Comment
			}
		}
	}
	return "(no index " + index + ")"
}

// TestImportConstraintComment: a comment on the index of a unique
// constraint (PostgreSQL) has no place in the model: the constraint is
// imported, and a note says the comment is left out.
func TestImportConstraintComment(t *testing.T) {
	t.Parallel()
	pg := dbtest.Postgres(t)
	testproject.RunSQL(t, pg, []byte(`CREATE TABLE docs (id int PRIMARY KEY, slug varchar(100) NOT NULL, CONSTRAINT docs_slug_key UNIQUE (slug));
COMMENT ON INDEX docs_slug_key IS 'Finds a page by its URL';`))
	r, err := importer.Import(context.Background(), []string{pg.URL}, nil)
	if err != nil {
		t.Fatal(err)
	}
	tb := r.Schema.Table("docs")
	if tb == nil || len(tb.Uniques) != 1 || len(tb.Indexes) != 0 {
		t.Fatalf("imported %s", compiler.Write(r.Schema, r.Notes))
	}
	if notes := strings.Join(r.Notes["docs"], "\n"); !strings.Contains(notes, "docs_slug_key") || !strings.Contains(notes, "Finds a page by its URL") {
		t.Errorf("no note on the comment left out:\n%s", notes)
	}
}
