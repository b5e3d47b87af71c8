package tidb

import (
	"strings"

	"ariga.io/atlas/sql/mysql"
	"ariga.io/atlas/sql/schema"

	"github.com/schemagen/schemagen/compiler"
	"github.com/schemagen/schemagen/dialects/internal/sqltext"
)

// types is TiDB's table of types, from which both Type and NeutralType
// come. An inspected time type without a precision keeps whole seconds.
//
// Two neutral types share a TiDB type, and read back as one of them:
// datetime is DATETIME as timestamp is (no time zone on TiDB), read as
// timestamp; char(36) is CHAR(36) as uuid is, read as uuid.
var types = sqltext.NewTypes(0,
	// CHAR(36) reads as uuid (NeutralType).
	sqltext.TypeRow{Kind: compiler.TypeUUID, SQL: "CHAR(36)", Note: "uuid as CHAR(36)"},
	sqltext.TypeRow{Kind: compiler.TypeText, SQL: "TEXT", Reads: []string{"text"},
		Note: "text as TEXT (at most 65,535 bytes on TiDB)"},
	sqltext.TypeRow{Kind: compiler.TypeVarchar, SQL: "VARCHAR", Args: sqltext.Size, Reads: []string{"varchar"}},
	sqltext.TypeRow{Kind: compiler.TypeChar, SQL: "CHAR", Args: sqltext.Size, Reads: []string{"char"}},
	sqltext.TypeRow{Kind: compiler.TypeSmallint, SQL: "SMALLINT", Reads: []string{"smallint"}},
	sqltext.TypeRow{Kind: compiler.TypeInt, SQL: "INT", Reads: []string{"int"}},
	sqltext.TypeRow{Kind: compiler.TypeBigint, SQL: "BIGINT", Reads: []string{"bigint"}},
	// Atlas reads TINYINT(1) as bool.
	sqltext.TypeRow{Kind: compiler.TypeBool, SQL: "TINYINT(1)", Reads: []string{"bool"}, Note: "bool as TINYINT(1)"},
	sqltext.TypeRow{Kind: compiler.TypeDouble, SQL: "DOUBLE", Reads: []string{"double"}},
	sqltext.TypeRow{Kind: compiler.TypeDecimal, SQL: "DECIMAL", Args: sqltext.PrecisionScale, Reads: []string{"decimal", "numeric"}},
	sqltext.TypeRow{Kind: compiler.TypeTimestamp, SQL: "DATETIME", Args: sqltext.Fraction, Precision: timestampPrecision, WritePrecision: true, Reads: []string{"datetime"},
		Note: "timestamp as DATETIME (no time zone: the application stores UTC; millisecond precision unless given)"},
	sqltext.TypeRow{Kind: compiler.TypeDate, SQL: "DATE", Reads: []string{"date"}},
	sqltext.TypeRow{Kind: compiler.TypeJSON, SQL: "JSON", Reads: []string{"json"}},
	sqltext.TypeRow{Kind: compiler.TypeBytes, SQL: "LONGBLOB", Reads: []string{"longblob"}, Note: "bytes as LONGBLOB"},
	// VECTOR and VECTOR(n) are read by their text (sqltext.VectorType).
	sqltext.TypeRow{Kind: compiler.TypeVector, SQL: "VECTOR", Args: sqltext.Dimension},
	sqltext.TypeRow{Kind: compiler.TypeTime, SQL: "TIME", Args: sqltext.Fraction, Precision: 6, WritePrecision: true, Reads: []string{"time"},
		Note: "time as TIME with a CHECK of PostgreSQL's range, 00:00:00 to 24:00:00 (TiDB's own reaches -838:59:59 to 838:59:59)"},
	sqltext.TypeRow{Kind: compiler.TypeFloat, SQL: "FLOAT", Reads: []string{"float"}, Note: "float as FLOAT (4-byte IEEE float)"},
	// DATETIME reads as timestamp.
	sqltext.TypeRow{Kind: compiler.TypeDatetime, SQL: "DATETIME", Args: sqltext.Fraction, Precision: 6, WritePrecision: true,
		Note: "datetime as DATETIME (wall-clock time without a time zone; microsecond precision unless given)"},
)

// Type returns the TiDB type of a neutral type.
func Type(t compiler.Type) string {
	if t.Kind == compiler.TypeEnum {
		q := make([]string, len(t.Enum.Values))
		for i, v := range t.Enum.Values {
			q[i] = String(v)
		}
		return "ENUM(" + strings.Join(q, ", ") + ")"
	}
	return types.SQL(t)
}

// precision is the fractional seconds a time type keeps on TiDB: timestamp
// keeps milliseconds unless given, as the hand-written schemas did; datetime
// and time keep microseconds, as on PostgreSQL.
func precision(t compiler.Type) int {
	if r := types.Row(t.Kind); r != nil && r.Args == sqltext.Fraction {
		return t.Arg(0, r.Precision)
	}
	return t.Arg(0, 6)
}

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
	if t, ok := types.Read(ct.Type); ok {
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
