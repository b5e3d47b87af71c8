package lower

import (
	"strings"

	"github.com/pingcap/tidb/pkg/parser/ast"

	"github.com/schemagen/schemagen/compiler"
	"github.com/schemagen/schemagen/dialects/tidb/internal/readback"
)

// rawType checks the raw SQL an override gives a TiDB column with TiDB's
// own parser, the one the server runs: a type or a default it rejects would
// fail only when the DDL runs. Each is an error at the override.
func (l *lowerer) rawType(t *compiler.Table, c *compiler.Column, o *compiler.Override) {
	if o == nil || o.Skip {
		return
	}
	if o.RawType != "" {
		stmts, err := readback.Parse("CREATE TABLE t (c "+o.RawType+")", readback.DefaultMode)
		if err != nil || len(stmts) != 1 {
			l.rec.Errorf(o.Range, "Invalid raw type", "TiDB's parser rejects the type %q of %s.%s: %s", o.RawType, t.Name, c.Name, parseWhy(err))
		}
	}
	if o.Default != "" {
		if _, err := readback.ParseExpr(o.Default, readback.DefaultMode); err != nil {
			l.rec.Errorf(o.Range, "Invalid raw default", "TiDB's parser rejects the default %q of %s.%s: %s", o.Default, t.Name, c.Name, parseWhy(err))
		}
	}
}

// rawCheck checks a CHECK's raw TiDB expression: TiDB's parser reads it,
// and every column it names is one of the table's.
func (l *lowerer) rawCheck(t *compiler.Table, c *compiler.Check, o *compiler.Override) {
	x, err := readback.ParseExpr(o.Expr, readback.DefaultMode)
	if err != nil {
		l.rec.Errorf(o.Range, "Invalid raw expression", "TiDB's parser rejects the expression %q of check %s: %s", o.Expr, c.Name, parseWhy(err))
		return
	}
	v := &columnNames{}
	x.Accept(v)
	for _, n := range v.names {
		if t.Column(n) == nil {
			l.rec.Errorf(o.Range, "Unknown column", "The expression %q of check %s names column %q, which table %s does not have.", o.Expr, c.Name, n, t.Name)
		}
	}
}

func parseWhy(err error) string {
	if err == nil {
		return "not one definition"
	}
	msg := err.Error()
	if re, ok := err.(*readback.ReadError); ok {
		msg = re.Msg
		if re.Near != "" {
			msg += " at " + re.Near
		}
	}
	return strings.TrimSpace(msg)
}

// columnNames collects the columns an expression names.
type columnNames struct{ names []string }

func (v *columnNames) Enter(n ast.Node) (ast.Node, bool) {
	if c, ok := n.(*ast.ColumnNameExpr); ok && c.Name != nil {
		v.names = append(v.names, c.Name.Name.O)
	}
	return n, false
}

func (v *columnNames) Leave(n ast.Node) (ast.Node, bool) { return n, true }
