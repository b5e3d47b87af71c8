package lower

import (
	"ariga.io/atlas/sql/schema"

	"github.com/schemagen/schemagen/compiler"
	"github.com/schemagen/schemagen/dialects/internal/sqltext"
	"github.com/schemagen/schemagen/dialects/postgres/internal/lexical"
)

// types is PostgreSQL's table of types, from which both Type and
// NeutralType come. An inspected time type without a precision keeps
// microseconds.
var types = sqltext.NewTypes(6,
	sqltext.TypeRow{Kind: compiler.TypeUUID, SQL: "UUID", Reads: []string{"uuid"}},
	sqltext.TypeRow{Kind: compiler.TypeText, SQL: "TEXT", Reads: []string{"text"}},
	sqltext.TypeRow{Kind: compiler.TypeVarchar, SQL: "VARCHAR", Args: sqltext.Size, Reads: []string{"character varying", "varchar"}},
	// A CHAR wider than TiDB's is read as a varchar (NeutralType).
	sqltext.TypeRow{Kind: compiler.TypeChar, SQL: "CHAR", Args: sqltext.Size, MaxSize: 255, Reads: []string{"character", "char", "bpchar"}},
	sqltext.TypeRow{Kind: compiler.TypeSmallint, SQL: "SMALLINT", Reads: []string{"smallint"}},
	sqltext.TypeRow{Kind: compiler.TypeInt, SQL: "INTEGER", Reads: []string{"integer"}},
	sqltext.TypeRow{Kind: compiler.TypeBigint, SQL: "BIGINT", Reads: []string{"bigint"}},
	sqltext.TypeRow{Kind: compiler.TypeBool, SQL: "BOOLEAN", Reads: []string{"boolean", "bool"}},
	sqltext.TypeRow{Kind: compiler.TypeDouble, SQL: "DOUBLE PRECISION", Reads: []string{"double precision"}},
	// numeric without precision, or wider than the model's decimal, is read
	// as the widest decimal (NeutralType).
	sqltext.TypeRow{Kind: compiler.TypeDecimal, SQL: "NUMERIC", Args: sqltext.PrecisionScale, MaxPrecision: 65, MaxScale: 30, Reads: []string{"numeric", "decimal"}},
	sqltext.TypeRow{Kind: compiler.TypeTimestamp, SQL: "TIMESTAMPTZ", Args: sqltext.Fraction, Precision: 6, Reads: []string{"timestamp with time zone", "timestamptz"},
		Note: "timestamp as TIMESTAMPTZ (an instant; microsecond precision unless given)"},
	sqltext.TypeRow{Kind: compiler.TypeDate, SQL: "DATE", Reads: []string{"date"}},
	sqltext.TypeRow{Kind: compiler.TypeJSON, SQL: "JSONB", Reads: []string{"jsonb"},
		Note: "json as JSONB (normalised binary JSON)"},
	sqltext.TypeRow{Kind: compiler.TypeBytes, SQL: "BYTEA", Reads: []string{"bytea"}},
	// vector and vector(n) are read by their text (sqltext.VectorType).
	sqltext.TypeRow{Kind: compiler.TypeVector, SQL: "vector", Args: sqltext.Dimension,
		Needs: "the pgvector extension (CREATE EXTENSION vector)"},
	sqltext.TypeRow{Kind: compiler.TypeTime, SQL: "TIME", Args: sqltext.Fraction, Precision: 6, Reads: []string{"time without time zone", "time"},
		Note: "time as TIME (a time of day, 00:00:00 to 24:00:00; microsecond precision unless given)"},
	sqltext.TypeRow{Kind: compiler.TypeFloat, SQL: "REAL", Reads: []string{"real"},
		Note: "float as REAL (4-byte IEEE float)"},
	sqltext.TypeRow{Kind: compiler.TypeDatetime, SQL: "TIMESTAMP", Args: sqltext.Fraction, Precision: 6, Reads: []string{"timestamp without time zone", "timestamp"},
		Note: "datetime as TIMESTAMP (wall-clock time without a time zone; microsecond precision unless given)"},
)

// Type returns the PostgreSQL type of a neutral type.
func Type(t compiler.Type) string {
	if t.Kind == compiler.TypeEnum {
		return lexical.Ident(t.Enum.Name)
	}
	return types.SQL(t)
}

// ReadType returns the neutral type whose PostgreSQL type t is, from the
// table of types (NeutralType reads the types the table lacks).
func ReadType(t schema.Type) (compiler.Type, bool) { return types.Read(t) }
