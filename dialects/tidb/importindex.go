package tidb

import (
	"slices"

	"ariga.io/atlas/sql/schema"

	"github.com/schemagen/schemagen/dialects"
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
func (Dialect) ReadIndex(idx *schema.Index) dialects.IndexFacts {
	for _, p := range idx.Parts {
		if p.C == nil || slices.ContainsFunc(p.C.Attrs, func(a schema.Attr) bool { _, ok := a.(*schema.GeneratedExpr); return ok }) {
			return dialects.IndexFacts{}
		}
	}
	return dialects.IndexFacts{Unique: idx.Unique}
}

// InspectAdvice implements dialects.Importer.
func (Dialect) InspectAdvice(string) string { return "" }
