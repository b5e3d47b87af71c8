package tidb

import (
	"github.com/schemagen/schemagen/compiler/expr"
	"github.com/schemagen/schemagen/dialects/tidb/internal/readback"
)

// ParseExpr implements dialects.Dialect: it reads an expression as TiDB
// reports it (CHECK_CLAUSE of information_schema.tidb_check_constraints, the
// EXPRESSION of an index part, a generated column's expression) with TiDB's
// own parser (see package readback).
//
// a <=> b becomes IS NOT DISTINCT FROM and NOT (a <=> b) IS DISTINCT FROM,
// REGEXP the regex match, CONCAT(a, b) a || b, and JSON_TYPE's type names
// the portable ones ('number' for INTEGER, UNSIGNED INTEGER, DOUBLE and
// DECIMAL together). Any other function or operator, a cast or a COLLATE is
// an error.
func (Dialect) ParseExpr(text string, cols expr.Resolver) (expr.Node, error) {
	return readback.Expr(text, cols)
}
