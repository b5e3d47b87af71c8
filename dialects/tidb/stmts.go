package tidb

import (
	"ariga.io/atlas/sql/migrate"
	"ariga.io/atlas/sql/mysql"
	"ariga.io/atlas/sql/schema"

	"github.com/schemagen/schemagen/dialects"
	"github.com/schemagen/schemagen/dialects/internal/sqltext"
)

// ScanStmts implements dialects.Dialect with the scanner of Atlas's MySQL
// driver (backslash escapes, # comments), which needs no connection. Atlas's
// generic scanner would break statements such as 'it\'s; fine'.
func (Dialect) ScanStmts(input string) ([]*migrate.Stmt, error) {
	return (*mysql.Driver)(nil).ScanStmts(input)
}

// ScanStmts implements migrate.StmtScanner, which the embedded interface
// hides: without it Atlas's executor splits files with its generic scanner
// and would count and hash statements differently from the Atlas CLI.
func (d *atlasDriver) ScanStmts(input string) ([]*migrate.Stmt, error) {
	return Dialect{}.ScanStmts(input)
}

// UseExprs implements dialects.Dialect. A default keeps the kind Atlas
// inspected (literal or expression), which decides how its planner quotes
// it; TiDB has no index predicates.
func (Dialect) UseExprs(s *schema.Schema, x *dialects.Exprs) {
	sqltext.UseExprs(s, x, sqltext.Using{
		Default: func(old schema.Expr, text string) schema.Expr {
			if _, ok := old.(*schema.Literal); ok {
				return &schema.Literal{V: text}
			}
			return &schema.RawExpr{X: text}
		},
	})
}
