package tidb

import (
	"context"
	"slices"
	"strconv"
	"strings"

	"ariga.io/atlas/sql/mysql"
	"ariga.io/atlas/sql/schema"

	"github.com/schemagen/schemagen/dialects"
	"github.com/schemagen/schemagen/dialects/tidb/internal/atlasdrv"
	"github.com/schemagen/schemagen/dialects/tidb/internal/catalog"
)

// ModelTerms implements dialects.Importer: TiDB's types are narrower than
// the model's (uuid is CHAR(36)).
func (Dialect) ModelTerms() bool { return false }

// ReadIndex implements dialects.Importer: TiDB's indexes carry no method,
// operator class or predicate the model reads. Its catalog cannot tell a
// unique constraint from a unique index (both are a UNIQUE KEY): a unique
// key is read as the constraint, which the model's DDL makes the same key
// again and a foreign key may reference; but a key over generated columns,
// which stand for an expression or a predicate TiDB cannot index directly,
// is read as the index they are for.
//
// A part's prefix length, which the model has no construct for, is one of
// the index's own clauses.
func (Dialect) ReadIndex(idx *schema.Index) dialects.IndexFacts {
	var prefixes []string
	generated := false
	for _, p := range idx.Parts {
		for _, a := range p.Attrs {
			if sp, ok := a.(*mysql.SubPart); ok && p.C != nil {
				prefixes = append(prefixes, Ident(p.C.Name)+"("+strconv.Itoa(sp.Len)+")")
			}
		}
		if p.C == nil || slices.ContainsFunc(p.C.Attrs, func(a schema.Attr) bool { _, ok := a.(*schema.GeneratedExpr); return ok }) {
			generated = true
		}
	}
	// TiDB keeps every unique key as an index: one with a comment is read
	// as a unique index, which holds the comment (a unique constraint of
	// the model has none).
	commented := slices.ContainsFunc(idx.Attrs, func(a schema.Attr) bool { c, ok := a.(*schema.Comment); return ok && c.Text != "" })
	f := dialects.IndexFacts{Unique: idx.Unique && !generated && !commented}
	if len(prefixes) > 0 {
		f.Own = []string{"the prefix " + strings.Join(prefixes, ", ")}
	}
	// An invisible unique key is a unique index with visible = false (a
	// unique constraint of the model has no visibility).
	f.Invisible = atlasdrv.InvisibleOf(idx)
	f.Unique = f.Unique && !f.Invisible
	if v := atlasdrv.VectorOf(idx); v != nil {
		// pgvector's hnsw over the operator class of the same distance,
		// which the TiDB dialect writes back as this VECTOR INDEX.
		f.Using, f.VectorColumn, f.Unique = "hnsw", v.Column, false
		f.OpClasses = []string{map[string]string{"VEC_COSINE_DISTANCE": "vector_cosine_ops", "VEC_L2_DISTANCE": "vector_l2_ops"}[v.Distance]}
	}
	return f
}

// InspectAdvice implements dialects.Importer.
func (Dialect) InspectAdvice(string) string { return "" }

// ReadIndexes implements dialects.IndexReader (catalog.Indexes).
func (Dialect) ReadIndexes(ctx context.Context, conn schema.ExecQuerier) (map[[2]string]dialects.IndexCatalog, error) {
	return catalog.Indexes(ctx, conn)
}
