package lower

import (
	"github.com/schemagen/schemagen/compiler"
	"github.com/schemagen/schemagen/dialects"
)

// limits are TiDB's limits and naming rules (see dialects.Rules).
var limits = &dialects.Rules{
	Product:    "TiDB",
	MaxIdent:   64,
	FoldCase:   true,
	IdentQuote: '`',
	Namespaces: []compiler.NameScope{
		{Kinds: []compiler.ObjectKind{compiler.KindTable}, Why: "table names are unique per database"},
		{Kinds: []compiler.ObjectKind{compiler.KindCheck}, Why: "CHECK names are unique per database (error 3822)"},
		{Kinds: []compiler.ObjectKind{compiler.KindIndex, compiler.KindUnique, compiler.KindCheck, compiler.KindForeignKey}, PerTable: true,
			Why: "a table's indexes and constraints share one name space (error 1061)"},
		{Kinds: []compiler.ObjectKind{compiler.KindColumn}, PerTable: true, Why: "column names are unique per table"},
	},
	FKIndexName: true,
	// max-index-length's default.
	MaxKeyBytes: 3072,
	// The TiDB Limitations page and the data type docs; each has a test on
	// the real server (dialects/limits_test.go).
	MaxCharLength:       255,
	MaxVarcharLength:    16383,
	MaxDecimalPrecision: 65,
	MaxDecimalScale:     30,
	// Comments are counted in bytes: 512 'é' fit a column comment, 513 not.
	// AUTO_INCREMENT (AUTO_ID_CACHE 1) on BIGINT: an INSERT that would be
	// given 9223372036854775807 fails (1105, "auto increment action failed").
	MaxBigintIdentity: 9223372036854775806,
	MaxColumnComment:  1024,
	MaxTableComment:   2048,
	MaxIndexComment:   1024,
	CommentBytes:      true,
	// table-column-count-limit and index-limit's defaults; VIRTUAL columns
	// count, an expression index's hidden column does not.
	MaxColumns:  1017,
	MaxIndexes:  64,
	MaxKeyParts: 16,
	// A statement cascades through at most 14 levels of rows (15 is error
	// 3008, "exceeds max depth of 15"); PostgreSQL has no limit.
	MaxCascadeDepth: 14,
	IntHandle:       true,
	FKIndexes:       true,
	FKLeadingIndex:  true,
	// TiDB stores values PostgreSQL refuses: 2 in TINYINT(1), year 0.
	Domains: map[string]dialects.Domain{
		"bool":      {Suffix: "bool", Check: "%[1]s IN (0, 1)", Why: "only true and false, as PostgreSQL's boolean (TINYINT(1) also takes 2)"},
		"timestamp": yearOne,
		"datetime":  yearOne,
		"date":      yearOne,
	},
	Errors: map[string]string{
		"char": "1074", "varchar": "1074", "decimal precision": "1426", "decimal scale": "1425",
		"column comment": "1629", "table comment": "1628", "index comment": "1688", "columns": "1117", "indexes": "1069",
		"key parts": "1070", "foreign key index": "1822", "identity": "1105",
	},
	// tidb_allow_function_for_expression_index's default, among the portable
	// functions (|| is CONCAT, a function too); other calls are error 8200.
	// Operators are not checked.
	ExprIndexFunctions: map[string]bool{"lower": true, "upper": true, "json_type": true},
	// SHOW CREATE TABLE and information_schema.statistics drop it.
	IgnoresDesc: true,
}

var yearOne = dialects.Domain{Suffix: "range", Check: "%[1]s >= '0001-01-01'", Why: "from year 1, as on PostgreSQL (TiDB also takes year 0)"}

// Rules returns TiDB's limits and naming rules (dialects.RuleBook's Rules).
func Rules() *dialects.Rules { return limits }
