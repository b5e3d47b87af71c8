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
}
