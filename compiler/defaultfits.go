package compiler

import (
	"math/big"
	"slices"
	"strings"

	"github.com/schemagen/schemagen/compiler/expr"
)

// DefaultFits reports whether a neutral default fits a column of neutral type t in
// every dialect, as the compiler checks it: TiDB allows no default on text,
// json and bytes, so those stay the dialect's own.
func DefaultFits(d *Default, t Type) bool {
	k := t.ExprKind()
	switch t.Kind {
	case TypeText, TypeJSON, TypeBytes, TypeVector:
		return false
	}
	switch d.Kind {
	case DefaultNow:
		return k == expr.KindTime
	case DefaultUUID:
		return t.Kind == TypeUUID
	case DefaultBool:
		return k == expr.KindBool
	case DefaultNumber:
		// The model writes a number in its shortest form: 0.00 would come
		// back as 0, another default to the database.
		n, _, err := big.ParseFloat(d.Value, 10, 512, big.ToNearestEven)
		if err != nil || n.Text('f', -1) != d.Value {
			return false
		}
		return k == expr.KindNumeric || k == expr.KindInteger && !strings.Contains(d.Value, ".")
	case DefaultString:
		if (t.Kind == TypeVarchar || t.Kind == TypeChar) && len([]rune(d.Value)) > t.Args[0] {
			return false
		}
		if t.Kind == TypeEnum {
			return t.Enum != nil && slices.Contains(t.Enum.Values, d.Value)
		}
		return k == expr.KindString || k == expr.KindDate || k == expr.KindUUID || k == expr.KindClock
	}
	return false
}
