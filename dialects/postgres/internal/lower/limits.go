package lower

import (
	"github.com/schemagen/schemagen/compiler"
	"github.com/schemagen/schemagen/dialects"
)

// limits are PostgreSQL's limits and naming rules (see dialects.Rules).
var limits = &dialects.Rules{
	Product: "PostgreSQL",
	// NAMEDATALEN - 1: longer names are silently cut.
	MaxIdent:      63,
	IdentBytes:    true,
	TrailingSpace: true,
	IdentQuote:    '"',
	LowerUnquoted: true,
	Namespaces: []compiler.NameScope{
		{Kinds: []compiler.ObjectKind{compiler.KindTable, compiler.KindIndex, compiler.KindUnique},
			Why: "tables and indexes, unique constraints' included, share one name space per schema"},
		{Kinds: []compiler.ObjectKind{compiler.KindCheck, compiler.KindForeignKey, compiler.KindUnique}, PerTable: true,
			Why: "constraint names are unique per table"},
		{Kinds: []compiler.ObjectKind{compiler.KindColumn}, PerTable: true, Why: "column names are unique per table"},
	},
	// A B-tree entry holds at most 2704 bytes (a third of a page); a longer
	// value fails at INSERT, so keys are bounded by their declared sizes.
	MaxKeyBytes: 2704,
	// Appendix K "PostgreSQL Limits" and the data type docs; each has a
	// test on the real server (dialects/limits_test.go). Comments, indexes
	// per table: no limit a model reaches (a field holds 1 GB).
	MaxCharLength:       10485760,
	MaxVarcharLength:    10485760,
	MaxDecimalPrecision: 1000,
	MaxColumns:          1600,
	MaxKeyParts:         32,
	// PostgreSQL stores values TiDB refuses: special floats and NaN in
	// numeric (1366), years before 1 (BC), after 9999 and infinities (1292).
	Domains: map[string]dialects.Domain{
		"double":    finite,
		"float":     finite,
		"decimal":   {Suffix: "finite", Check: "%[1]s <> 'NaN'", Why: "no NaN, which TiDB's DECIMAL does not store (1366)"},
		"timestamp": {Suffix: "range", Check: "%[1]s >= '0001-01-01 00:00:00+00' AND %[1]s < '10000-01-01 00:00:00+00'", Why: yearsWhy},
		"datetime":  {Suffix: "range", Check: "%[1]s >= '0001-01-01 00:00:00' AND %[1]s < '10000-01-01 00:00:00'", Why: yearsWhy},
		"date":      {Suffix: "range", Check: "%[1]s BETWEEN '0001-01-01' AND '9999-12-31'", Why: yearsWhy},
	},
	IndexMethods:  []string{"btree", "hash", "gist", "spgist", "gin", "brin", "hnsw", "ivfflat"},
	UniqueMethods: []string{"btree"},
	// hash and SP-GiST indexes take one column.
	SingleColumnMethods: []string{"hash", "spgist"},
	MethodTypes: map[string][]string{
		"gin": {"json"}, "gist": {}, "spgist": {"text", "varchar"},
		"hnsw": {"vector"}, "ivfflat": {"vector"},
	},
	RegexDotNewline: true,
	OpClasses: []string{
		"text_pattern_ops", "varchar_pattern_ops", "bpchar_pattern_ops",
		"text_ops", "varchar_ops", "bpchar_ops", "int2_ops", "int4_ops", "int8_ops", "numeric_ops", "float8_ops",
		"uuid_ops", "bool_ops", "date_ops", "timestamptz_ops", "bytea_ops",
		"jsonb_ops", "jsonb_path_ops", "tsvector_ops", "array_ops",
		// pg_trgm and pgvector, whose types and indexes need the extension anyway.
		"gin_trgm_ops", "gist_trgm_ops", "vector_l2_ops", "vector_ip_ops", "vector_cosine_ops", "vector_l1_ops",
	},
}

const yearsWhy = "years 1 to 9999 as on TiDB (PostgreSQL also takes BC years, later years and infinity; TiDB refuses them, 1292)"

var finite = dialects.Domain{Suffix: "finite", Check: "%[1]s NOT IN ('NaN', 'Infinity', '-Infinity')", Why: "no NaN or infinities, which TiDB does not store (1366)"}

// Rules returns PostgreSQL's limits and naming rules (dialects.RuleBook's
// Rules).
func Rules() *dialects.Rules { return limits }
