package postgres

import (
	"regexp"
	"strings"

	"github.com/schemagen/schemagen/compiler/expr"
	"github.com/schemagen/schemagen/compiler/expr/parse"
	"github.com/schemagen/schemagen/compiler/expr/render"
	"github.com/schemagen/schemagen/dialects/internal/sqltext"
	"github.com/schemagen/schemagen/dialects/postgres/internal/lexical"
)

// ParseExpr implements dialects.Dialect: it reads an expression as
// PostgreSQL prints it (pg_get_constraintdef, pg_get_expr, pg_get_indexdef,
// which Atlas's inspection passes on) with standard_conforming_strings on.
//
// PostgreSQL writes the implicit casts it added, which are dropped: casts of
// character and uuid columns to text, of integer columns to bigint, numeric
// and double precision, of numeric ones to double precision, and of
// literals to the type of what they are compared with. x = ANY (ARRAY[...])
// and x <> ALL (ARRAY[...]) become IN and NOT IN, ~~ and !~~ LIKE and NOT
// LIKE, jsonb_typeof json_type, NOT (a IS DISTINCT FROM b) IS NOT DISTINCT
// FROM. Any other cast, function or operator is an error.
func (Dialect) ParseExpr(text string, cols expr.Resolver) (expr.Node, error) {
	return reader.Read(text, cols)
}

// grammar is what PostgreSQL prints (lexical.Grammar).
var grammar = lexical.Grammar

var reader = &expr.Reader{
	Grammar: grammar,
	Binary: map[string]expr.Op{
		"=": expr.OpEq, "<>": expr.OpNe, "!=": expr.OpNe,
		"<": expr.OpLt, "<=": expr.OpLe, ">": expr.OpGt, ">=": expr.OpGe,
		"and": expr.OpAnd, "or": expr.OpOr,
		"+": expr.OpAdd, "-": expr.OpSub, "*": expr.OpMul, "%": expr.OpMod,
		"||": expr.OpConcat,
		"~~": expr.OpLike, "like": expr.OpLike, "!~~": expr.OpNotLike, "not like": expr.OpNotLike,
		"~": expr.OpRegex, "!~": expr.OpNotRegex,
		"is distinct from": expr.OpDistinct, "is not distinct from": expr.OpNotDistinct,
	},
	Functions: map[string]string{
		"char_length":      "char_length",
		"character_length": "char_length",
		"lower":            "lower",
		"upper":            "upper",
		"abs":              "abs",
		"coalesce":         "coalesce",
		"jsonb_typeof":     "json_type",
		"json_typeof":      "json_type",
	},
	Cast:          cast,
	Not:           not,
	BetweenGroups: true,
}

// not folds PostgreSQL's NOT (a IS DISTINCT FROM b), its form of IS NOT
// DISTINCT FROM.
var not = sqltext.Negation(map[expr.Op]expr.Op{expr.OpDistinct: expr.OpNotDistinct})

type family int

const (
	famOther    family = iota
	famText            // text, character varying: what character and uuid values read as
	famChar            // character(n), bpchar: only literals are read
	famSmallInt        // smallint, integer: could narrow an integer value
	famBigint
	famNumeric
	famDouble
	famUUID
	famDate
	famTimestamp
	famBool
	famClock
)

var families = map[string]family{
	"text": famText, "character varying": famText, "varchar": famText,
	"character": famChar, "char": famChar, "bpchar": famChar,
	"smallint": famSmallInt, "int2": famSmallInt, "integer": famSmallInt, "int": famSmallInt, "int4": famSmallInt,
	"bigint": famBigint, "int8": famBigint,
	"numeric": famNumeric, "decimal": famNumeric,
	"double precision": famDouble, "float8": famDouble,
	"uuid":                     famUUID,
	"date":                     famDate,
	"timestamp with time zone": famTimestamp, "timestamptz": famTimestamp,
	"timestamp without time zone": famTimestamp, "timestamp": famTimestamp,
	"boolean": famBool, "bool": famBool,
	"time without time zone": famClock, "time": famClock,
}

var (
	integerText = regexp.MustCompile(`^-?[0-9]+$`)
	decimalText = regexp.MustCompile(`^-?[0-9]+(\.[0-9]+)?$`)
)

// castTypeName is a type's name as PostgreSQL prints it in a cast: an
// identifier, or a quoted one. builtinTypes are the names of PostgreSQL's
// own types that such a name may be, which are not enum types.
var (
	castTypeName = regexp.MustCompile(`^([A-Za-z_][A-Za-z0-9_$]*|"(?:[^"]|"")+")$`)
	builtinTypes = map[string]bool{
		"real": true, "float4": true, "json": true, "jsonb": true, "bytea": true, "money": true, "interval": true,
		"inet": true, "cidr": true, "macaddr": true, "macaddr8": true, "xml": true, "bit": true, "varbit": true,
		"point": true, "line": true, "lseg": true, "box": true, "path": true, "polygon": true, "circle": true,
		"tsvector": true, "tsquery": true, "oid": true, "regclass": true, "regtype": true, "name": true,
		"timetz": true, "citext": true, "vector": true, "pg_lsn": true, "txid_snapshot": true, "int4range": true,
		"int8range": true, "numrange": true, "tsrange": true, "tstzrange": true, "daterange": true, "unknown": true,
	}
)

// cast drops the casts that do not change what the expression means, which
// are those PostgreSQL adds to the portable expressions it is given.

func cast(rd *expr.Read, x expr.Node, typ string, at *parse.Term) (expr.Node, error) {
	if strings.Contains(typ, "(") {
		return nil, rd.Errorf(at, "the cast to %s has a type modifier, which can change the value; it has no portable form", typ)
	}
	fam := families[typ]
	if lit, ok := x.(*expr.Literal); ok {
		switch lit.Kind {
		case expr.LitNull:
			return lit, nil
		case expr.LitString:
			switch fam {
			case famText, famChar, famUUID, famDate, famTimestamp, famClock:
				return lit, nil
			case famSmallInt, famBigint:
				if integerText.MatchString(lit.Value) {
					return &expr.Literal{Kind: expr.LitNumber, Value: lit.Value}, nil
				}
			case famNumeric, famDouble:
				if decimalText.MatchString(lit.Value) {
					return &expr.Literal{Kind: expr.LitNumber, Value: lit.Value}, nil
				}
			default:
				// A label of an enum type ('paid'::order_status): PostgreSQL
				// prints the literals compared with an enum column so. The
				// loaded model checks that it is one of the enum's values.
				if _, known := families[typ]; !known && !builtinTypes[typ] && castTypeName.MatchString(typ) {
					return lit, nil
				}
			}
		case expr.LitNumber:
			switch fam {
			case famSmallInt, famBigint:
				if integerText.MatchString(lit.Value) {
					return lit, nil
				}
			case famNumeric, famDouble:
				return lit, nil
			}
		case expr.LitBool:
			if fam == famBool {
				return lit, nil
			}
		}
		return nil, rd.Errorf(at, "the literal %s cast to %s has no portable form", render.String(lit), typ)
	}
	if c, ok := x.(*expr.Column); ok {
		if _, known := rd.Cols(c.Name); !known {
			return nil, rd.Errorf(at, "unknown column %q", c.Name)
		}
	}
	k := rd.Kind(x)
	switch {
	case fam == famText && (k == expr.KindString || k == expr.KindUUID || k == expr.KindEnum),
		// COALESCE(smallint_col, 0): PostgreSQL casts its arguments to the
		// widest of their types.
		rd.Unifying && fam == famSmallInt && k == expr.KindInteger && (typ == "integer" || typ == "int4"),
		fam == famBigint && k == expr.KindInteger,
		fam == famNumeric && k == expr.KindInteger,
		fam == famDouble && (k == expr.KindInteger || k == expr.KindNumeric):
		return x, nil
	}
	return nil, rd.Errorf(at, "the cast to %s of a value of kind %s changes it; it has no portable form", typ, k)
}
