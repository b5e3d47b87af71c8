package tidb

import (
	"ariga.io/atlas/sql/mysql"
	"ariga.io/atlas/sql/schema"

	"github.com/schemagen/schemagen/dialects"
)

// ModelTerms implements dialects.Importer: TiDB's types are narrower than
// the model's (uuid is CHAR(36)).
func (Dialect) ModelTerms() bool { return false }

// ReadIndex implements dialects.Importer: TiDB's indexes carry no method,
// operator class or predicate the model reads, and its unique constraints
// are unique indexes.
//
// A unique index of plain columns is a unique key: TiDB makes no
// difference between UNIQUE constraints and unique indexes, and the model
// writes it as a unique constraint, which reads back the same.
func (Dialect) ReadIndex(idx *schema.Index) dialects.IndexFacts {
	unique := idx.Unique && len(idx.Parts) > 0
	for _, p := range idx.Parts {
		unique = unique && p.C != nil && !p.Desc && !prefixed(p)
	}
	return dialects.IndexFacts{Unique: unique}
}

// prefixed reports whether an index part indexes a prefix of its column.
func prefixed(p *schema.IndexPart) bool {
	for _, a := range p.Attrs {
		if _, ok := a.(*mysql.SubPart); ok {
			return true
		}
	}
	return false
}

// InspectAdvice implements dialects.Importer.
func (Dialect) InspectAdvice(string) string { return "" }
