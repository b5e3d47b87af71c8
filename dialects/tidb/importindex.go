package tidb

import (
	"ariga.io/atlas/sql/schema"

	"github.com/schemagen/schemagen/dialects"
)

// ModelTerms implements dialects.Importer: TiDB's types are narrower than
// the model's (uuid is CHAR(36)).
func (Dialect) ModelTerms() bool { return false }

// ReadIndex implements dialects.Importer: TiDB's indexes carry no method,
// operator class or predicate the model reads, and its unique constraints
// are unique indexes.
func (Dialect) ReadIndex(*schema.Index) dialects.IndexFacts { return dialects.IndexFacts{} }

// InspectAdvice implements dialects.Importer.
func (Dialect) InspectAdvice(string) string { return "" }
