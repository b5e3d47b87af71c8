package lower

import (
	"strings"

	"github.com/schemagen/schemagen/compiler"
	"github.com/schemagen/schemagen/compiler/expr"
	"github.com/schemagen/schemagen/dialects/postgres/internal/lexical"
)

// Syntax renders expressions; chars holds the quoted names of the char(n)
// columns of the expression's table (for paddedMatch), widen the names of
// its smallint and int columns that arithmetic uses.
type Syntax struct{ chars, widen map[string]bool }

// syntaxFor returns the syntax of expression n over t.
func syntaxFor(t *compiler.Table, n expr.Node) Syntax {
	sy := Syntax{chars: map[string]bool{}, widen: map[string]bool{}}
	plain := func(c *compiler.Column) bool {
		o := c.Overrides.For(Name)
		return o == nil || o.RawType == "" && o.Type == nil
	}
	for _, c := range t.Columns {
		if c.Type.Kind == compiler.TypeChar && plain(c) {
			sy.chars[lexical.Ident(c.Name)] = true
		}
	}
	// TiDB computes integer arithmetic in BIGINT; PostgreSQL in the
	// operands' type, where int + 1 overflows at 2^31. Reading smallint and
	// int columns as bigint in arithmetic makes both overflow at 2^63.
	expr.Walk(n, func(x expr.Node) bool {
		var operands []expr.Node
		switch x := x.(type) {
		case *expr.Binary:
			if x.Op == expr.OpAdd || x.Op == expr.OpSub || x.Op == expr.OpMul || x.Op == expr.OpMod {
				operands = []expr.Node{x.L, x.R}
			}
		case *expr.Neg:
			operands = []expr.Node{x.X}
		case *expr.Call:
			if x.Name == "abs" {
				operands = x.Args
			}
		}
		for _, o := range operands {
			for _, name := range expr.Columns(o) {
				if c := t.Column(name); c != nil && plain(c) && (c.Type.Kind == compiler.TypeSmallint || c.Type.Kind == compiler.TypeInt) {
					sy.widen[name] = true
				}
			}
		}
		return true
	})
	return sy
}

func (sy Syntax) Ident(s string) string {
	if sy.widen[s] {
		return lexical.Ident(s) + "::bigint"
	}
	return lexical.Ident(s)
}
func (Syntax) String(s string) string { return lexical.String(s) }
func (Syntax) Bool(v bool) string {
	if v {
		return "TRUE"
	}
	return "FALSE"
}

// TextOperand casts uuid columns: PostgreSQL has no text operators on uuid.
func (sy Syntax) TextOperand(sql string, k expr.Kind) string {
	if k == expr.KindUUID {
		return sql + "::text"
	}
	return sql
}

func (Syntax) Regex(x, p string, not bool) string {
	if not {
		return x + " !~ " + p
	}
	return x + " ~ " + p
}

func (Syntax) Distinct(l, r string, not bool) string {
	if not {
		return l + " IS NOT DISTINCT FROM " + r
	}
	return l + " IS DISTINCT FROM " + r
}

func (Syntax) Concat(l, r string) string { return l + " || " + r }

func (Syntax) JSONType(x string, types []string, not bool) string {
	f := "jsonb_typeof(" + x + ")"
	if len(types) == 1 {
		if not {
			return f + " <> " + lexical.String(types[0])
		}
		return f + " = " + lexical.String(types[0])
	}
	q := make([]string, len(types))
	for i, t := range types {
		q[i] = lexical.String(t)
	}
	if not {
		return f + " NOT IN (" + strings.Join(q, ", ") + ")"
	}
	return f + " IN (" + strings.Join(q, ", ") + ")"
}
