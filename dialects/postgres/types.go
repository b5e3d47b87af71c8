package postgres

import (
	"slices"

	"ariga.io/atlas/sql/postgres"
	"ariga.io/atlas/sql/schema"

	"github.com/schemagen/schemagen/compiler"
	"github.com/schemagen/schemagen/dialects/internal/sqltext"
	"github.com/schemagen/schemagen/dialects/postgres/internal/lower"
)

// Type returns the PostgreSQL type of a neutral type (internal/lower's
// table of types, from which NeutralType reads too).
func Type(t compiler.Type) string { return lower.Type(t) }

// NeutralType implements dialects.Importer: the types of the table read as
// themselves; the others, below, as the neutral type that holds their
// values, not exactly.
func (Dialect) NeutralType(ct *schema.ColumnType) (compiler.Type, string, bool) {
	raw := postgresType(ct)
	if t, ok := ct.Type.(*schema.EnumType); ok {
		return compiler.Type{Kind: compiler.TypeEnum, Enum: &compiler.Enum{Name: t.T, Values: slices.Clone(t.Values)}}, raw, true
	}
	if t, ok := lower.ReadType(ct.Type); ok {
		return t, raw, true
	}
	switch t := ct.Type.(type) {
	case *schema.StringType:
		if (t.T == "character" || t.T == "char" || t.T == "bpchar") && t.Size > 255 {
			// Wider than TiDB's CHAR: a varchar holds the values.
			return compiler.Type{Kind: compiler.TypeVarchar, Args: []int{t.Size}}, raw, false
		}
	case *schema.DecimalType:
		// The widest decimal elsewhere, which rounds what it cannot hold.
		return compiler.Type{Kind: compiler.TypeDecimal, Args: []int{65, 30}}, raw, false
	case *schema.JSONType:
		// json keeps its text as written; elsewhere it is json.
		return compiler.Type{Kind: compiler.TypeJSON}, raw, false
	case *postgres.SerialType:
		// The integer, which Identity makes an identity; the serial type
		// stays PostgreSQL's override, so that the database keeps its
		// sequence default.
		switch t.T {
		case "smallserial", "serial2":
			return compiler.Type{Kind: compiler.TypeSmallint}, raw, false
		case "serial", "serial4":
			return compiler.Type{Kind: compiler.TypeInt}, raw, false
		case "bigserial", "serial8":
			return compiler.Type{Kind: compiler.TypeBigint}, raw, false
		}
	}
	if t, ok := sqltext.VectorType(raw); ok {
		return t, raw, true
	}
	return compiler.Type{}, raw, false
}

// postgresType spells an inspected type as PostgreSQL does.
func postgresType(ct *schema.ColumnType) string {
	if s, err := postgres.FormatType(ct.Type); err == nil && s != "" {
		return s
	}
	return ct.Raw
}
