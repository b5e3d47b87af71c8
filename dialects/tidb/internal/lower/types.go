package lower

import (
	"strings"

	"ariga.io/atlas/sql/schema"

	"github.com/schemagen/schemagen/compiler"
	"github.com/schemagen/schemagen/dialects/internal/sqltext"
	"github.com/schemagen/schemagen/dialects/tidb/internal/lexical"
)

const (
	// timestampPrecision keeps milliseconds, as the hand-written schemas did.
	timestampPrecision = 3
)

// ExactCollation compares strings by code point without padding (NO PAD).
const ExactCollation = "utf8mb4_0900_bin"

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
			q[i] = lexical.String(v)
		}
		return "ENUM(" + strings.Join(q, ", ") + ")"
	}
	return types.SQL(t)
}

// Precision is the fractional seconds a time type keeps on TiDB: timestamp
// keeps milliseconds unless given, as the hand-written schemas did; datetime
// and time keep microseconds, as on PostgreSQL.
func Precision(t compiler.Type) int {
	if r := types.Row(t.Kind); r != nil && r.Args == sqltext.Fraction {
		return t.Arg(0, r.Precision)
	}
	return t.Arg(0, 6)
}

// ReadType returns the neutral type whose TiDB type t is, from the table
// of types (NeutralType reads the types the table lacks).
func ReadType(t schema.Type) (compiler.Type, bool) { return types.Read(t) }

// keyBytes is the most bytes a value of t takes in an index key (utf8mb4).
func keyBytes(t compiler.Type) int {
	switch t.Kind {
	case compiler.TypeUUID:
		return 36 * 4
	case compiler.TypeVarchar, compiler.TypeChar:
		return t.Args[0] * 4
	case compiler.TypeSmallint:
		return 2
	case compiler.TypeInt:
		return 4
	case compiler.TypeBool:
		return 1
	case compiler.TypeDecimal:
		return t.Args[0]/2 + 1
	default:
		return 8
	}
}

// EffectiveType is the neutral type a column has on TiDB, and whether an
// override made it opaque (raw SQL).
func EffectiveType(c *compiler.Column) (compiler.Type, bool) {
	if o := c.Overrides.For(Name); o != nil {
		if o.RawType != "" {
			return compiler.Type{}, false
		}
		if o.Type != nil {
			return *o.Type, true
		}
	}
	return c.Type, true
}
