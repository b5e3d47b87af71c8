package lower

import (
	"strings"

	"github.com/schemagen/schemagen/compiler/expr"
	"github.com/schemagen/schemagen/dialects/tidb/internal/lexical"
	"github.com/schemagen/schemagen/dialects/tidb/internal/readback"
)

type Syntax struct{}

func (Syntax) Ident(s string) string  { return lexical.Ident(s) }
func (Syntax) String(s string) string { return lexical.String(s) }
func (Syntax) Bool(v bool) string {
	if v {
		return "TRUE"
	}
	return "FALSE"
}
func (Syntax) TextOperand(sql string, _ expr.Kind) string { return sql }

func (Syntax) Regex(x, p string, not bool) string {
	if not {
		return "NOT (" + x + " REGEXP " + p + ")"
	}
	return x + " REGEXP " + p
}

func (Syntax) Distinct(l, r string, not bool) string {
	if not {
		return l + " <=> " + r
	}
	return "NOT (" + l + " <=> " + r + ")"
}

// Concat uses CONCAT: in TiDB's default SQL mode || means OR.
func (Syntax) Concat(l, r string) string { return "CONCAT(" + l + ", " + r + ")" }

func (Syntax) JSONType(x string, types []string, not bool) string {
	var names []string
	for _, t := range types {
		for _, n := range readback.JSONTypes[t] {
			names = append(names, lexical.String(n))
		}
	}
	f := "JSON_TYPE(" + x + ")"
	if len(names) == 1 {
		if not {
			return f + " <> " + names[0]
		}
		return f + " = " + names[0]
	}
	if not {
		return f + " NOT IN (" + strings.Join(names, ", ") + ")"
	}
	return f + " IN (" + strings.Join(names, ", ") + ")"
}
