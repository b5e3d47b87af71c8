package lint_test

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/schemagen/schemagen/internal/difftest/draw"
	"github.com/schemagen/schemagen/internal/gen"
	"github.com/schemagen/schemagen/internal/lint"
	"github.com/schemagen/schemagen/internal/testproject"
)

// lintErrors lints the latest migration of every env of p and returns the
// unsuppressed errors, as text.
func lintErrors(t *testing.T, p *testproject.Project, latest int) (string, *lint.Report) {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), 5*time.Minute)
	defer cancel()
	r, err := lint.Run(ctx, p.Dev, p.Targets, lint.Options{Latest: latest})
	if err != nil {
		t.Fatalf("lint: %v", err)
	}
	var errs []string
	for _, f := range r.Findings {
		if f.Severity == lint.SeverityError && !f.Suppressed {
			errs = append(errs, fmt.Sprintf("%s:%d: %s %s", filepath.Base(f.File), f.Line, f.Code, f.Message))
		}
	}
	return strings.Join(errs, "\n"), r
}

// TestLintOwnComments: schemagen's first migration of a model whose comments
// hold quotes, backslashes and comment markers, and the migration changing
// them, lint clean on both dialects (TiDB's COMMENT "..." strings were read
// as PostgreSQL identifiers, SG103).
func TestLintOwnComments(t *testing.T) {
	t.Parallel()
	model := `
table "items" {
  comment = "the \"items\" table; it's a \\ test -- # /* */"
  column "id" {
    type = int
  }
  column "name" {
    type    = varchar(100)
    comment = "shown as \"Name\""
  }
  column "note" {
    type    = text
    null    = true
    comment = "it's \"quoted\"\nover two lines"
  }
  primary_key {
    columns = ["id"]
  }
}
`
	p := testproject.New(t, model)
	p.Diff("init")
	if errs, r := lintErrors(t, p, 1); errs != "" || len(r.Files) != 2 {
		t.Errorf("lint of schemagen's own first migration, %d files:\n%s", len(r.Files), errs)
	}
	// The first migration is the generated DDL, whose strings are single
	// quoted; Atlas plans a changed comment in TiDB's double quotes.
	p.Generate(strings.NewReplacer(`shown as \"Name\"`, `shown as \"Full name\"`, `the \"items\" table`, `the \"items\" list`).Replace(model))
	stmts := p.Diff("comments")
	if !strings.Contains(strings.Join(stmts["tidb"], "\n"), `\"Full name\"`) {
		t.Fatalf("the TiDB plan does not quote the comment as this test expects: %q", stmts["tidb"])
	}
	if errs, r := lintErrors(t, p, 1); errs != "" || len(r.Files) != 2 {
		t.Errorf("lint of schemagen's migration of comments, %d files:\n%s", len(r.Files), errs)
	}
}

// TestLintLatestCountsMigrations: --latest 1 lints a PostgreSQL migration
// planned as two files (the online file with the indexes built
// CONCURRENTLY) as one: the DROP COLUMN in the first file is reported.
func TestLintLatestCountsMigrations(t *testing.T) {
	t.Parallel()
	const v1 = `
table "items" {
  column "id" {
    type = int
  }
  column "a" {
    type = int
  }
  column "b" {
    type = int
  }
  primary_key {
    columns = ["id"]
  }
}
`
	p := testproject.New(t, v1)
	p.Diff("init")
	// Column b dropped, an index added: the index goes into the _online
	// file, built CONCURRENTLY.
	p.Generate(strings.Replace(strings.Replace(v1, "  column \"b\" {\n    type = int\n  }\n", "", 1),
		"  primary_key {", "  index \"items_a_idx\" {\n    columns = [\"a\"]\n  }\n  primary_key {", 1))
	p.Diff("drop_b")
	pg := p.Target("postgres")
	files, err := os.ReadDir(pg.Env.Dir)
	if err != nil {
		t.Fatal(err)
	}
	var names []string
	for _, f := range files {
		names = append(names, f.Name())
	}
	if len(names) != 4 || !strings.HasSuffix(names[2], "_drop_b_online.sql") {
		t.Fatalf("want init, drop_b and drop_b_online: %v", names)
	}
	_, r := lintErrors(t, p, 1)
	var pgFiles []string
	for _, f := range r.Files {
		if f.Dialect == "postgres" {
			pgFiles = append(pgFiles, filepath.Base(f.File))
		}
	}
	if len(pgFiles) != 2 {
		t.Errorf("--latest 1 linted %v on postgres, want the migration's two files", pgFiles)
	}
	if fs := find(r, "DS103"); len(fs) != 2 {
		t.Errorf("want the dropped column reported on both dialects:\n%s", dump(r))
	}
	_, r = lintErrors(t, p, 2)
	if len(r.Files) != 5 {
		t.Errorf("--latest 2: %d files, want 5 (3 postgres, 2 tidb)", len(r.Files))
	}
}

// TestLintOwnMigrations: every first migration schemagen writes for the
// differential tester's random models (of seed 1) lints without errors on
// both dialects.
func TestLintOwnMigrations(t *testing.T) {
	models := 12
	if testing.Short() {
		models = 4
	}
	linted := 0
	for i := 0; linted < models && i < 4*models; i++ {
		m, _ := draw.Random(uint64(1000+i), 0)
		src := m.HCL()
		if r := gen.CompileSource("schema.hcl", []byte(src)); r.Failed() {
			continue // a model the compiler refuses, on purpose
		}
		linted++
		t.Run(fmt.Sprint(1000+i), func(t *testing.T) {
			t.Parallel()
			p := testproject.New(t, src)
			p.Diff("init")
			if errs, r := lintErrors(t, p, 1); errs != "" || len(r.Files) < 2 {
				t.Errorf("model:\n%s\nlint, %d files:\n%s", src, len(r.Files), errs)
			}
		})
	}
}
