package tidb

import (
	"github.com/schemagen/schemagen/compiler/expr"
	"github.com/schemagen/schemagen/dialects/tidb/internal/datafunc"
)

// Func implements render.DataSyntax.
func (dataSyntax) Func(c *expr.Call, args []string) string { return datafunc.Call(c, args) }

// AddInterval implements render.DataSyntax.
func (dataSyntax) AddInterval(x string, n int64, unit string) string {
	return datafunc.AddInterval(x, n, unit)
}

// CastTo implements render.DataSyntax.
func (dataSyntax) CastTo(x string, from, to expr.Kind, typ string) string {
	return datafunc.CastTo(x, from, to, typ)
}
