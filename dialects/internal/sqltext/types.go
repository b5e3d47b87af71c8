package sqltext

import (
	"fmt"
	"strings"

	"ariga.io/atlas/sql/schema"

	"github.com/schemagen/schemagen/compiler"
	"github.com/schemagen/schemagen/dialects"
)

// TypeArgs is how a type's arguments are written and read back.
type TypeArgs int

const (
	NoArgs         TypeArgs = iota
	Size                    // (n), required: a string's length
	PrecisionScale          // (p,s), required: a decimal's
	Fraction                // (p), optional: fractional seconds
	Dimension               // (n), optional: a vector's
)

// TypeRow is one neutral type on a dialect: how the dialect writes it and
// which inspected types read back as exactly it. A dialect's table of rows
// is the one place both directions come from, so that a type written is a
// type read.
type TypeRow struct {
	Kind compiler.TypeKind
	// SQL is the type as written, before its arguments.
	SQL  string
	Args TypeArgs
	// Precision is, for Fraction, the fractional seconds the dialect keeps
	// when the model gives none; WritePrecision writes it even then.
	Precision      int
	WritePrecision bool
	// MaxSize (Size) and MaxPrecision, MaxScale (PrecisionScale) bound the
	// arguments read back as exactly this type; 0: no bound.
	MaxSize, MaxPrecision, MaxScale int
	// Reads are the inspected types, as Atlas names them (the T of its
	// type, in lower case), that read back as this type. None: a type read
	// otherwise (see the dialect's NeutralType).
	Reads []string
	// Note is how the type is written, the decision explain lists (with
	// the type as rendered) for a column of this type, or "".
	Note string
	// Needs is what the database needs for the type ("the pgvector
	// extension"), a decision of its own, or "".
	Needs string
}

// Types is a dialect's table of types.
type Types struct {
	byKind map[compiler.TypeKind]*TypeRow
	byRead map[string]*TypeRow
	// unfixed is the precision an inspected time type without one has.
	unfixed int
}

// NewTypes makes the table of rows; unfixed is the fractional seconds of an
// inspected time type that states none (6 on PostgreSQL, 0 on MySQL).
func NewTypes(unfixed int, rows ...TypeRow) *Types {
	tt := &Types{byKind: map[compiler.TypeKind]*TypeRow{}, byRead: map[string]*TypeRow{}, unfixed: unfixed}
	for i := range rows {
		r := &rows[i]
		if tt.byKind[r.Kind] != nil {
			panic(fmt.Sprintf("sqltext: type kind %d twice", r.Kind))
		}
		tt.byKind[r.Kind] = r
		for _, name := range r.Reads {
			if tt.byRead[name] != nil {
				panic(fmt.Sprintf("sqltext: %q read as two types", name))
			}
			tt.byRead[name] = r
		}
	}
	return tt
}

// Row is the row of a type kind, or nil.
func (tt *Types) Row(k compiler.TypeKind) *TypeRow { return tt.byKind[k] }

// Decide records the decisions of the row of type kind k for column c of
// table t: its note about the type, what it needs.
func (tt *Types) Decide(rec *Recorder, t, c string, k compiler.TypeKind) {
	r := tt.byKind[k]
	if r == nil {
		return
	}
	if r.Note != "" {
		rec.DecideType(t, c, dialects.Lowered, "%s", r.Note)
	}
	if r.Needs != "" {
		rec.Decide(compiler.ObjectRef{Table: t, Kind: compiler.KindColumn, Name: c}, dialects.Lowered, "%s needs %s", compiler.Type{Kind: k}.Name(), r.Needs)
	}
}

// SQL writes t, or "?" for a type the table lacks.
func (tt *Types) SQL(t compiler.Type) string {
	r := tt.byKind[t.Kind]
	if r == nil {
		return "?"
	}
	switch r.Args {
	case Size:
		return fmt.Sprintf("%s(%d)", r.SQL, t.Args[0])
	case PrecisionScale:
		return fmt.Sprintf("%s(%d,%d)", r.SQL, t.Args[0], t.Args[1])
	case Fraction:
		if r.WritePrecision || len(t.Args) == 1 {
			return fmt.Sprintf("%s(%d)", r.SQL, t.Arg(0, r.Precision))
		}
	case Dimension:
		if len(t.Args) == 1 {
			return fmt.Sprintf("%s(%d)", r.SQL, t.Args[0])
		}
	}
	return r.SQL
}

// Read reads an inspected type back as the neutral type it is exactly, by
// the table: false for a type of no row, an unsigned integer or decimal,
// or arguments out of the row's bounds.
func (tt *Types) Read(st schema.Type) (compiler.Type, bool) {
	name, ok := inspectedName(st)
	if !ok {
		return compiler.Type{}, false
	}
	r := tt.byRead[strings.ToLower(name)]
	if r == nil {
		return compiler.Type{}, false
	}
	out := compiler.Type{Kind: r.Kind}
	switch r.Args {
	case Size:
		t, ok := st.(*schema.StringType)
		if !ok || t.Size <= 0 || r.MaxSize > 0 && t.Size > r.MaxSize {
			return compiler.Type{}, false
		}
		out.Args = []int{t.Size}
	case PrecisionScale:
		t, ok := st.(*schema.DecimalType)
		if !ok || t.Precision <= 0 || r.MaxPrecision > 0 && t.Precision > r.MaxPrecision || r.MaxScale > 0 && t.Scale > r.MaxScale {
			return compiler.Type{}, false
		}
		out.Args = []int{t.Precision, t.Scale}
	case Fraction:
		t, ok := st.(*schema.TimeType)
		if !ok {
			return compiler.Type{}, false
		}
		p := tt.unfixed
		if t.Precision != nil {
			p = *t.Precision
		}
		if p != r.Precision {
			out.Args = []int{p}
		}
	case Dimension:
		return compiler.Type{}, false
	}
	return out, true
}

// inspectedName is Atlas's name of an inspected type that may be read back
// exactly: not of an unsigned integer or decimal, which no neutral type
// counts.
func inspectedName(st schema.Type) (string, bool) {
	switch t := st.(type) {
	case *schema.IntegerType:
		return t.T, !t.Unsigned
	case *schema.DecimalType:
		return t.T, !t.Unsigned
	case *schema.UUIDType:
		return t.T, true
	case *schema.StringType:
		return t.T, true
	case *schema.BoolType:
		return t.T, true
	case *schema.FloatType:
		return t.T, true
	case *schema.TimeType:
		return t.T, true
	case *schema.JSONType:
		return t.T, true
	case *schema.BinaryType:
		return t.T, true
	}
	return "", false
}
