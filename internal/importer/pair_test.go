package importer_test

import (
	"context"
	"os"
	"slices"
	"strings"
	"testing"

	"github.com/schemagen/schemagen/compiler"
	"github.com/schemagen/schemagen/compiler/expr/render"
	"github.com/schemagen/schemagen/dialects/all"
	"github.com/schemagen/schemagen/internal/dbtest"
	"github.com/schemagen/schemagen/internal/gen"
	"github.com/schemagen/schemagen/internal/importer"
	"github.com/schemagen/schemagen/internal/testproject"
)

// TestHandwrittenPair imports one application's schema as its team wrote it
// by hand for PostgreSQL and for TiDB, both at the same version, from both
// databases at once. The model written compiles with no edit; generated and
// applied to fresh databases, it gives back each original object for object
// (tables, columns, indexes, checks and foreign keys by name and by
// definition), except what the import said it had to leave out.
func TestHandwrittenPair(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	orig := map[string]*dbtest.DB{}
	for _, d := range []string{"postgres", "tidb"} {
		ddl, err := os.ReadFile("testdata/pair_" + d + ".sql")
		if err != nil {
			t.Fatal(err)
		}
		orig[d] = dbtest.New(t, d)
		testproject.RunSQL(t, orig[d], ddl)
	}
	// Each database alone gives a model that compiles too.
	for _, d := range []string{"postgres", "tidb"} {
		one, err := importer.Import(ctx, []string{orig[d].URL}, nil)
		if err != nil {
			t.Fatal(err)
		}
		if out := gen.CompileSource(d+".hcl", compiler.Write(one.Schema, one.Notes)); out.Failed() {
			t.Errorf("the model imported from %s alone does not compile: %v", d, out.Diags)
		}
	}
	r, model, out := importAndCompile(t, orig["postgres"].URL, orig["tidb"].URL)
	if n := len(r.Schema.Tables); n < 40 {
		t.Errorf("%d tables, want at least 40", n)
	}

	// The one thing TiDB's model cannot keep: a CHECK on a column of a
	// foreign key with ON DELETE CASCADE, which TiDB only holds because the
	// key came after the CHECK. It is left out of TiDB, said in a comment
	// above the table and in the summary.
	var leftOut []string
	for _, line := range r.Summary {
		table, rest, _ := strings.Cut(line, ": ")
		if name, ok := strings.CutPrefix(rest, "check "); ok && strings.Contains(rest, ": left out of tidb") {
			name, _, _ = strings.Cut(name, ":")
			if !strings.Contains(string(model), "# check "+name+": left out of tidb") {
				t.Errorf("no comment in the model on check %s left out of tidb", name)
			}
			// TiDB's own name for it.
			if _, own, ok := strings.Cut(rest, "left out of tidb ("); ok {
				name, _, _ = strings.Cut(own, " there)")
			}
			leftOut = append(leftOut, table+" check "+name)
		}
	}
	if want := []string{"review_requests check review_requests_chk_2"}; !slices.Equal(leftOut, want) {
		t.Errorf("left out of tidb: %q, want %q", leftOut, want)
	}

	// Objects that mean the same were paired, whatever each database named
	// them: no foreign key, index or check is in the model twice.
	for _, tb := range r.Schema.Tables {
		seen := map[string]string{}
		for _, fk := range tb.ForeignKeys {
			k := strings.Join(fk.Columns, ",") + ">" + fk.RefTable
			if prev, dup := seen[k]; dup {
				t.Errorf("%s: foreign keys %s and %s are the same key", tb.Name, prev, fk.Name)
			}
			seen[k] = fk.Name
		}
	}

	// TiDB's VIRTUAL generated column that exists only to be indexed is the
	// expression PostgreSQL indexes: one neutral index, which gives TiDB its
	// generated column again under its own name.
	ce := r.Schema.Table("chunk_embeddings")
	if ce.Column("model_key") != nil {
		t.Error("chunk_embeddings.model_key, TiDB's generated key column, is a column of the model")
	}
	if i := slices.IndexFunc(ce.Indexes, func(x *compiler.Index) bool { return x.Name == "chunk_embeddings_model_key" }); i < 0 {
		t.Error("no index chunk_embeddings_model_key")
	} else if x := ce.Indexes[i]; x.Overrides.Skipped("tidb") || len(x.Parts) != 3 || x.Parts[2].Expr == nil || x.Parts[2].Overrides["tidb"] == nil || x.Parts[2].Overrides["tidb"].Column != "model_key" {
		t.Errorf("index chunk_embeddings_model_key is not the expression index of both dialects with TiDB's column model_key:\n%s", model)
	}
	// The same for a CASE, which TiDB could index directly: the part names
	// TiDB's column, so that generate gives it back.
	docs := r.Schema.Table("documents")
	if docs.Column("is_published") != nil {
		t.Error("documents.is_published, TiDB's generated key column, is a column of the model")
	}
	if i := slices.IndexFunc(docs.Indexes, func(x *compiler.Index) bool { return x.Name == "documents_published_idx" }); i < 0 {
		t.Errorf("no index documents_published_idx:\n%s", model)
	} else if x := docs.Indexes[i]; x.Overrides.Skipped("tidb") || x.Overrides.Skipped("postgres") || len(x.Parts) != 2 || x.Parts[1].Expr == nil ||
		render.String(x.Parts[1].Expr) != "CASE WHEN status = 'published' THEN 1 ELSE 0 END" || x.Parts[1].Overrides["tidb"] == nil || x.Parts[1].Overrides["tidb"].Column != "is_published" {
		t.Errorf("index documents_published_idx is not the CASE expression index of both dialects with TiDB's column is_published:\n%s", model)
	}

	// Two uuid columns of many have a CHECK of their shape on TiDB:
	// uuid_check (on by default) would add it to all: the model says
	// uuid_check = false. The hand-written pair has no value-domain CHECKs:
	// value_domains = false.
	if ds := r.Schema.Dialect["tidb"]; ds == nil || ds.Attrs["uuid_check"] == nil {
		t.Errorf("no uuid_check = false although most uuid columns have no CHECK of their shape:\n%s", model)
	}
	for _, d := range []string{"postgres", "tidb"} {
		if ds := r.Schema.Dialect[d]; ds == nil || ds.Attrs["value_domains"] == nil {
			t.Errorf("%s: no value_domains = false for a hand-written database:\n%s", d, model)
		}
	}
	if !slices.ContainsFunc(r.Summary, func(s string) bool { return strings.Contains(s, "uuid_check = false: ") }) {
		t.Error("the summary does not say why uuid_check is false")
	}

	// TiDB's emulations of partial unique indexes (a unique key over VIRTUAL
	// generated columns CASE WHEN p THEN x END) are PostgreSQL's partial
	// unique indexes: one neutral index each, with TiDB's column names.
	for _, want := range []struct {
		table, index string
		wrapped      map[int]string // part: TiDB's generated column
	}{
		{"invitations", "invitations_open_key", map[int]string{1: "open_email"}},
		{"workspaces", "workspaces_live_name_key", map[int]string{0: "live_tenant_id", 1: "live_parent_id", 2: "live_name"}},
		{"exports", "exports_pending_key", map[int]string{2: "pending_format"}},
	} {
		tb := r.Schema.Table(want.table)
		i := slices.IndexFunc(tb.Indexes, func(x *compiler.Index) bool { return x.Name == want.index })
		if i < 0 {
			t.Errorf("no index %s.%s in\n%s", want.table, want.index, model)
			continue
		}
		x := tb.Indexes[i]
		if !x.Unique || x.Where == nil || x.Overrides.Skipped("tidb") || x.Overrides.Skipped("postgres") {
			t.Errorf("%s.%s is not one partial unique index of both dialects:\n%s", want.table, want.index, model)
			continue
		}
		for k, p := range x.Parts {
			col := ""
			if o := p.Overrides["tidb"]; o != nil {
				col = o.Column
			}
			if col != want.wrapped[k] {
				t.Errorf("%s.%s part %d: TiDB column %q, want %q", want.table, want.index, k, col, want.wrapped[k])
			}
			if want.wrapped[k] != "" && tb.Column(want.wrapped[k]) != nil {
				t.Errorf("%s.%s, TiDB's generated key column, is a column of the model", want.table, want.wrapped[k])
			}
		}
	}

	for _, d := range []string{"postgres", "tidb"} {
		rebuilt := dbtest.New(t, d)
		testproject.RunSQL(t, rebuilt, out.Outputs[d].SQL)
		var lo []string
		if d == "tidb" {
			lo = leftOut
		}
		compareDatabases(t, all.Get(d), orig[d], rebuilt, lo)
	}
}
