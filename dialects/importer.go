package dialects

import (
	"ariga.io/atlas/sql/schema"

	"github.com/schemagen/schemagen/compiler"
)

// Importer reads what a database of the dialect reports back into neutral
// forms, for `schemagen import`. Each returns ok = false where no neutral
// form means the same; the caller then keeps the dialect's own SQL.
type Importer interface {
	// NeutralType maps an inspected column type, and returns the dialect's
	// own spelling of it for messages and overrides. With ok = false,
	// neutral is still the type the other dialects get (an integer wide
	// enough for an unsigned or serial column, else text).
	NeutralType(t *schema.ColumnType) (neutral compiler.Type, raw string, ok bool)
	// NeutralDefault maps an inspected column default for a column of
	// neutral type t, and returns the dialect's SQL of it.
	NeutralDefault(x schema.Expr, t compiler.Type) (d *compiler.Default, raw string, ok bool)
	// Implicit reports indexes the database made by itself (TiDB's indexes
	// for foreign keys), which the model does not declare.
	Implicit(t *schema.Table, idx *schema.Index) bool
	// ModelTerms reports whether the dialect's types are the model's own
	// terms where the dialects differ (PostgreSQL's uuid, timestamptz,
	// jsonb are richer): a merge of two imports starts from its reading.
	ModelTerms() bool
	// ReadIndex reads what the dialect's attributes of an inspected index
	// say.
	ReadIndex(idx *schema.Index) IndexFacts
	// InspectAdvice is what to do about an error inspecting a database
	// (msg), as a phrase to put before it, or "".
	InspectAdvice(msg string) string
}

// IndexFacts are what the dialect's attributes of an inspected index say.
type IndexFacts struct {
	// OpClasses are the parts' operator classes, "" for the default; nil
	// when there are none.
	OpClasses []string
	// Using is the index method, "" for the default one.
	Using string
	// Predicate is a partial index's condition as the database prints it.
	Predicate    string
	HasPredicate bool
	// Unique: the index is a unique constraint's, not an index of its own.
	Unique bool
}
