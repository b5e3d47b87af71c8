package compiler

import (
	"fmt"
	"math"
	"math/big"
	"slices"
	"strconv"
	"strings"

	"github.com/hashicorp/hcl/v2"
	"github.com/zclconf/go-cty/cty"

	"github.com/schemagen/schemagen/compiler/expr"
)

// TypeKind is a neutral column type.
type TypeKind int

const (
	TypeInvalid TypeKind = iota
	TypeUUID
	TypeText
	TypeVarchar
	TypeChar
	TypeSmallint
	TypeInt
	TypeBigint
	TypeBool
	TypeDouble
	TypeDecimal
	TypeTimestamp
	TypeDate
	TypeJSON
	TypeBytes
	TypeVector
	TypeTime
	TypeFloat
	TypeDatetime
	// TypeEnum is `enum.NAME`: Type.Enum holds the enum.
	TypeEnum
)

type typeInfo struct {
	name string
	// args is the number of arguments: required ones, then optional ones.
	required, optional int
	kind               expr.Kind
}

var types = map[TypeKind]typeInfo{
	TypeUUID:      {"uuid", 0, 0, expr.KindUUID},
	TypeText:      {"text", 0, 0, expr.KindString},
	TypeVarchar:   {"varchar", 1, 0, expr.KindString},
	TypeChar:      {"char", 1, 0, expr.KindString},
	TypeSmallint:  {"smallint", 0, 0, expr.KindInteger},
	TypeInt:       {"int", 0, 0, expr.KindInteger},
	TypeBigint:    {"bigint", 0, 0, expr.KindInteger},
	TypeBool:      {"bool", 0, 0, expr.KindBool},
	TypeDouble:    {"double", 0, 0, expr.KindNumeric},
	TypeDecimal:   {"decimal", 2, 0, expr.KindNumeric},
	TypeTimestamp: {"timestamp", 0, 1, expr.KindTime},
	TypeDate:      {"date", 0, 0, expr.KindDate},
	TypeJSON:      {"json", 0, 0, expr.KindJSON},
	TypeBytes:     {"bytes", 0, 0, expr.KindBytes},
	TypeVector:    {"vector", 0, 1, expr.KindVector},
	TypeTime:      {"time", 0, 1, expr.KindClock},
	TypeFloat:     {"float", 0, 0, expr.KindNumeric},
	TypeDatetime:  {"datetime", 0, 1, expr.KindTime},
	TypeEnum:      {"enum", 0, 0, expr.KindEnum},
}

var typeByName = func() map[string]TypeKind {
	m := map[string]TypeKind{}
	for k, t := range types {
		m[t.name] = k
	}
	return m
}()

// Type is a neutral column type with its arguments.
type Type struct {
	Kind TypeKind
	// Args are the type's arguments: length for varchar and char, precision
	// and scale for decimal, fractional seconds for timestamp, dimensions for vector (none: a
	// vector of any dimension, as products with several embedding models keep).
	Args []int
	// Enum is the enum of a TypeEnum (only its name, until the loader
	// resolves it).
	Enum *Enum
}

// Name is the type's neutral name.
func (t Type) Name() string { return types[t.Kind].name }

// ExprKind is the type's category in expressions.
func (t Type) ExprKind() expr.Kind { return types[t.Kind].kind }

// Arg returns argument i, or def when it was not given.
func (t Type) Arg(i, def int) int {
	if i < len(t.Args) {
		return t.Args[i]
	}
	return def
}

func (t Type) String() string {
	if t.Kind == TypeEnum && t.Enum != nil {
		return "enum." + t.Enum.Name
	}
	if len(t.Args) == 0 {
		return t.Name()
	}
	parts := make([]string, len(t.Args))
	for i, a := range t.Args {
		parts[i] = fmt.Sprint(a)
	}
	return t.Name() + "(" + strings.Join(parts, ",") + ")"
}

// IsString reports whether values of t are character strings.
func (t Type) IsString() bool {
	return t.Kind == TypeText || t.Kind == TypeVarchar || t.Kind == TypeChar
}

// Compatible reports whether a foreign key column of type t may reference a
// column of type u: the same type, or character strings of any length.
func (t Type) Compatible(u Type) bool {
	if t.IsString() && u.IsString() {
		return true
	}
	if t.Kind == TypeEnum {
		return u.Kind == TypeEnum && t.Enum != nil && u.Enum != nil && t.Enum.Name == u.Enum.Name
	}
	return t.Kind == u.Kind && slices.Equal(t.Args, u.Args)
}

func typeNameList() []string {
	var names []string
	for _, t := range types {
		if t.name == "enum" {
			names = append(names, "enum.NAME")
			continue
		}
		names = append(names, t.name)
	}
	slices.Sort(names)
	return names
}

func typeNames() string { return strings.Join(typeNameList(), ", ") }

// DecodeType reads a neutral type written as a keyword (`uuid`) or a call
// (`varchar(255)`).
func DecodeType(e hcl.Expression) (Type, hcl.Diagnostics) {
	bad := func(detail string) (Type, hcl.Diagnostics) {
		r := e.Range()
		return Type{}, hcl.Diagnostics{{
			Severity: hcl.DiagError,
			Summary:  "Invalid column type",
			Detail:   detail,
			Subject:  &r,
		}}
	}
	if tr, d := hcl.AbsTraversalForExpr(e); !d.HasErrors() && len(tr) == 2 && tr.RootName() == "enum" {
		if a, ok := tr[1].(hcl.TraverseAttr); ok {
			return Type{Kind: TypeEnum, Enum: &Enum{Name: a.Name}}, nil
		}
	}
	if kw := hcl.ExprAsKeyword(e); kw == "enum" {
		return bad("An enum column names its enum: type = enum.NAME, with a top-level enum \"NAME\" { values = [...] } block.")
	}
	if kw := hcl.ExprAsKeyword(e); kw != "" {
		k, ok := typeByName[kw]
		if !ok {
			return bad(fmt.Sprintf("Unknown type %q.%s Neutral types are: %s. For a dialect's own type, use a per-dialect override, for example postgres { type = \"CITEXT\" }.", kw, Suggest(kw, typeNameList()), typeNames()))
		}
		if types[k].required > 0 {
			return bad(fmt.Sprintf("Type %s needs %d argument(s), for example %s.", kw, types[k].required, example(k)))
		}
		return Type{Kind: k}, nil
	}
	call, diags := hcl.ExprCall(e)
	if diags.HasErrors() {
		return bad(fmt.Sprintf("A type is a name such as uuid or a call such as varchar(255). Neutral types are: %s.", typeNames()))
	}
	k, ok := typeByName[call.Name]
	if k == TypeEnum {
		return bad("An enum column names its enum: type = enum.NAME, with a top-level enum \"NAME\" { values = [...] } block; the values are the enum's, not the column's.")
	}
	if !ok {
		return bad(fmt.Sprintf("Unknown type %q.%s Neutral types are: %s.", call.Name, Suggest(call.Name, typeNameList()), typeNames()))
	}
	info := types[k]
	if n := len(call.Arguments); n < info.required || n > info.required+info.optional {
		if info.required+info.optional == 0 {
			return bad(fmt.Sprintf("Type %s takes no arguments.", call.Name))
		}
		return bad(fmt.Sprintf("Type %s takes %s, for example %s.", call.Name, argCount(info), example(k)))
	}
	t := Type{Kind: k}
	for _, a := range call.Arguments {
		v, d := a.Value(nil)
		if d.HasErrors() || v.Type() != cty.Number || !v.IsKnown() || v.IsNull() {
			return bad(fmt.Sprintf("Arguments of %s must be whole numbers.", call.Name))
		}
		bf := v.AsBigFloat()
		n, acc := bf.Int64()
		if !bf.IsInt() || acc != 0 || n < 0 || n > 1<<30 {
			return bad(fmt.Sprintf("Arguments of %s must be whole numbers.", call.Name))
		}
		t.Args = append(t.Args, int(n))
	}
	if msg := t.check(); msg != "" {
		return bad(msg)
	}
	return t, nil
}

func argCount(info typeInfo) string {
	if info.optional == 0 {
		return fmt.Sprintf("%d argument(s)", info.required)
	}
	return fmt.Sprintf("%d to %d argument(s)", info.required, info.required+info.optional)
}

func example(k TypeKind) string {
	switch k {
	case TypeVarchar:
		return "varchar(255)"
	case TypeChar:
		return "char(36)"
	case TypeDecimal:
		return "decimal(12,2)"
	case TypeTimestamp:
		return "timestamp(6)"
	case TypeVector:
		return "vector(1536)"
	case TypeTime:
		return "time(6)"
	case TypeDatetime:
		return "datetime(6)"
	}
	return types[k].name
}

// check validates argument ranges that hold on every dialect; a dialect's
// own limits are in its rules (dialects.Rules).
func (t Type) check() string {
	switch t.Kind {
	case TypeVarchar, TypeChar:
		if t.Args[0] < 1 {
			return fmt.Sprintf("The length of %s must be at least 1.", t.Name())
		}
	case TypeDecimal:
		p, s := t.Args[0], t.Args[1]
		if p < 1 {
			return "The precision of decimal must be at least 1."
		}
		if s > p {
			return "The scale of decimal must not exceed its precision."
		}
	case TypeTimestamp, TypeTime, TypeDatetime:
		if len(t.Args) == 1 && t.Args[0] > 6 {
			return fmt.Sprintf("The fractional seconds precision of %s must be between 0 and 6.", t.Name())
		}
	case TypeVector:
		if len(t.Args) == 1 && (t.Args[0] < 1 || t.Args[0] > 16000) {
			return "The dimension of vector must be between 1 and 16000."
		}
	}
	return ""
}

// Integer ranges of the neutral integer types, the same on every dialect.
var intRanges = map[TypeKind][2]*big.Int{
	TypeSmallint: {big.NewInt(math.MinInt16), big.NewInt(math.MaxInt16)},
	TypeInt:      {big.NewInt(math.MinInt32), big.NewInt(math.MaxInt32)},
	TypeBigint:   {big.NewInt(math.MinInt64), big.NewInt(math.MaxInt64)},
}

// IntRange is the range of an integer type (the same on every dialect);
// ok is false for a type that is not an integer.
func (t Type) IntRange() (r [2]*big.Int, ok bool) {
	r, ok = intRanges[t.Kind]
	return r, ok
}

// ValueProblem says why default d is not a value of t that both databases
// store alike (out of range, too precise, malformed), or "" when it is one.
// Defaults are checked here, before any SQL exists: TiDB refuses a bad one
// at CREATE TABLE (error 1067), PostgreSQL at CREATE or at the first INSERT
// that uses it.
func (t Type) ValueProblem(d *Default) string {
	if d.Kind == DefaultString && strings.ContainsRune(d.Value, 0) {
		return "a NUL character, which PostgreSQL does not store in text."
	}
	switch d.Kind {
	case DefaultNumber:
		switch t.Kind {
		case TypeSmallint, TypeInt, TypeBigint:
			n, ok := new(big.Int).SetString(d.Value, 10)
			r := intRanges[t.Kind]
			if !ok || n.Cmp(r[0]) < 0 || n.Cmp(r[1]) > 0 {
				return fmt.Sprintf("%s is out of its range, %s to %s.", d.Value, r[0], r[1])
			}
		case TypeDecimal:
			p, s := t.Args[0], t.Args[1]
			whole, frac, _ := strings.Cut(strings.TrimPrefix(d.Value, "-"), ".")
			whole = strings.TrimLeft(whole, "0")
			if len(whole) > p-s {
				return fmt.Sprintf("%s has more than %d digit(s) before the point.", d.Value, p-s)
			}
			if len(strings.TrimRight(frac, "0")) > s {
				return fmt.Sprintf("%s has more than %d digit(s) after the point, and the databases would round it; write it rounded.", d.Value, s)
			}
		case TypeDouble:
			if _, err := strconv.ParseFloat(d.Value, 64); err != nil {
				return fmt.Sprintf("%s is out of the range of double.", d.Value)
			}
		case TypeFloat:
			f, err := strconv.ParseFloat(d.Value, 32)
			if err != nil {
				return fmt.Sprintf("%s is out of the range of float.", d.Value)
			}
			// PostgreSQL refuses a value that underflows real, TiDB stores 0.
			if f == 0 && strings.Trim(d.Value, "-0.") != "" {
				return fmt.Sprintf("%s is too close to 0 for float (PostgreSQL refuses it, TiDB stores 0).", d.Value)
			}
		}
	case DefaultString:
		if t.Kind == TypeEnum && t.Enum != nil && t.Enum.Values != nil && !slices.Contains(t.Enum.Values, d.Value) {
			return fmt.Sprintf("'%s' is not a value of enum %s (%s).", d.Value, t.Enum.Name, t.Enum.List())
		}
		if msg := expr.LiteralProblem(d.Value, t.ExprKind()); msg != "" {
			return msg + "."
		}
	}
	return ""
}

// List is the enum's values as written in SQL: 'a', 'b'.
func (e *Enum) List() string {
	q := make([]string, len(e.Values))
	for i, v := range e.Values {
		q[i] = "'" + strings.ReplaceAll(v, "'", "''") + "'"
	}
	return strings.Join(q, ", ")
}
