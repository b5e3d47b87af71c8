package tidb

import "github.com/schemagen/schemagen/dialects"

// limits are TiDB's limits and naming rules (see dialects.Rules).
var limits = &dialects.Rules{
	Product:    "TiDB",
	MaxIdent:   64,
	FoldCase:   true,
	IdentQuote: '`',
	Namespaces: []dialects.Namespace{
		{Kinds: []dialects.ObjectKind{dialects.KindTable}, Why: "table names are unique per database"},
		{Kinds: []dialects.ObjectKind{dialects.KindCheck}, Why: "CHECK names are unique per database (error 3822)"},
		{Kinds: []dialects.ObjectKind{dialects.KindIndex, dialects.KindUnique, dialects.KindCheck, dialects.KindForeignKey}, PerTable: true,
			Why: "a table's indexes and constraints share one name space (error 1061)"},
		{Kinds: []dialects.ObjectKind{dialects.KindColumn}, PerTable: true, Why: "column names are unique per table"},
	},
	FKIndexName: true,
	// max-index-length's default.
	MaxKeyBytes:         3072,
	MaxCharLength:       255,
	MaxDecimalPrecision: 65,
	MaxDecimalScale:     30,
	// tidb_allow_function_for_expression_index's default, among the portable
	// functions (|| is CONCAT, a function too); other calls are error 8200.
	// Operators are not checked.
	ExprIndexFunctions: map[string]bool{"lower": true, "upper": true, "json_type": true},
	// SHOW CREATE TABLE and information_schema.statistics drop it.
	IgnoresDesc: true,
}

// Rules implements dialects.RuleBook.
func (Dialect) Rules() *dialects.Rules { return limits }
