package tidb

import (
	"strings"

	"ariga.io/atlas/sql/mysql"
	"ariga.io/atlas/sql/schema"

	"github.com/schemagen/schemagen/compiler"
	"github.com/schemagen/schemagen/dialects/internal/sqltext"
	"github.com/schemagen/schemagen/dialects/tidb/internal/lower"
)

// Type returns the TiDB type of a neutral type (internal/lower's table of
// types, from which NeutralType reads too).
func Type(t compiler.Type) string { return lower.Type(t) }

// NeutralType implements dialects.Importer: the types of the table read as
// themselves, CHAR(36) as uuid, the type schemagen writes it for; the
// others, below, as the neutral type that holds their values, not exactly.
func (Dialect) NeutralType(ct *schema.ColumnType) (compiler.Type, string, bool) {
	raw := tidbType(ct)
	switch t := ct.Type.(type) {
	case *schema.StringType:
		if t.T == "char" && t.Size == 36 {
			return compiler.Type{Kind: compiler.TypeUUID}, raw, true
		}
	case *schema.EnumType:
		// Unnamed: the importer names it after its table and column, or
		// pairs it with another database's enum of the same values.
		return compiler.Type{Kind: compiler.TypeEnum, Enum: &compiler.Enum{Values: enumValues(t.Values)}}, raw, true
	case *schema.FloatType:
		if t.T == "float" && t.Precision != 0 {
			// FLOAT(p) is no neutral type.
			return compiler.Type{}, raw, false
		}
	}
	if t, ok := lower.ReadType(ct.Type); ok {
		return t, raw, true
	}
	switch t := ct.Type.(type) {
	case *schema.StringType:
		switch t.T {
		case "tinytext", "mediumtext", "longtext":
			return compiler.Type{Kind: compiler.TypeText}, raw, false
		case "varchar":
			return compiler.Type{Kind: compiler.TypeVarchar, Args: []int{t.Size}}, raw, false
		case "char":
			return compiler.Type{Kind: compiler.TypeChar, Args: []int{t.Size}}, raw, false
		}
	case *schema.IntegerType:
		if t.Unsigned {
			// No neutral type counts: the other dialects get the next wider
			// integer, which holds every value.
			switch t.T {
			case "tinyint":
				return compiler.Type{Kind: compiler.TypeSmallint}, raw, false
			case "smallint", "mediumint":
				return compiler.Type{Kind: compiler.TypeInt}, raw, false
			case "int":
				return compiler.Type{Kind: compiler.TypeBigint}, raw, false
			case "bigint":
				return compiler.Type{Kind: compiler.TypeDecimal, Args: []int{20, 0}}, raw, false
			}
			break
		}
		switch t.T {
		case "mediumint":
			return compiler.Type{Kind: compiler.TypeInt}, raw, false
		case "tinyint":
			if strings.HasPrefix(raw, "tinyint(1)") {
				return compiler.Type{Kind: compiler.TypeBool}, raw, true
			}
			return compiler.Type{Kind: compiler.TypeSmallint}, raw, false
		}
	case *schema.TimeType:
		p := 0
		if t.Precision != nil {
			p = *t.Precision
		}
		switch t.T {
		case "timestamp":
			// An instant, which TiDB converts from and to the session's
			// time zone: the model's timestamp means it; TIMESTAMP's own
			// range (1970 to 2038) stays TiDB's type.
			if p == 6 {
				return compiler.Type{Kind: compiler.TypeTimestamp}, raw, false
			}
			return compiler.Type{Kind: compiler.TypeTimestamp, Args: []int{p}}, raw, false
		case "year":
			return compiler.Type{Kind: compiler.TypeSmallint}, raw, false
		}
	case *schema.BinaryType:
		switch t.T {
		case "tinyblob", "blob", "mediumblob":
			return compiler.Type{Kind: compiler.TypeBytes}, raw, false
		}
	}
	if t, ok := sqltext.VectorType(strings.ToLower(raw)); ok {
		return t, raw, true
	}
	return compiler.Type{}, raw, false
}

// enumValues are an enum's values as TiDB means them. Atlas splits the
// column's type as TiDB prints it without undoing its one escape: a quote
// in a value is printed twice (a backslash is printed as it is).
func enumValues(printed []string) []string {
	out := make([]string, len(printed))
	for i, v := range printed {
		out[i] = strings.ReplaceAll(v, "''", "'")
	}
	return out
}

func tidbType(ct *schema.ColumnType) string {
	if s, err := mysql.FormatType(ct.Type); err == nil && s != "" {
		return s
	}
	return ct.Raw
}
