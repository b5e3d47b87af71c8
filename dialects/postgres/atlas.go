package postgres

import (
	"context"

	"ariga.io/atlas/sql/migrate"
	"ariga.io/atlas/sql/postgres"
	"ariga.io/atlas/sql/schema"

	"github.com/schemagen/schemagen/dialects"
	"github.com/schemagen/schemagen/dialects/internal/describe"
	"github.com/schemagen/schemagen/dialects/internal/sqltext"
)

// OpenAtlas implements dialects.Dialect: Atlas's PostgreSQL driver sees
// every object the generated DDL declares, CHECKs included, and with
// atlasDriver foreign keys' deferrability too.
func (Dialect) OpenAtlas(conn schema.ExecQuerier) (migrate.Driver, error) {
	drv, err := postgres.Open(conn)
	if err != nil {
		return nil, err
	}
	return &atlasDriver{Driver: drv.(*postgres.Driver), conn: conn}, nil
}

// Renormalizes implements dialects.Dialect: PostgreSQL's deparsed CHECKs,
// defaults and predicates are not always stable when parsed again.
func (Dialect) Renormalizes() bool { return true }

// ServerWarnings implements dialects.Dialect: no PostgreSQL setting changes
// what the generated DDL means.
func (Dialect) ServerWarnings(context.Context, schema.ExecQuerier) ([]string, error) {
	return nil, nil
}

// MarshalState implements dialects.Dialect.
func (Dialect) MarshalState(s *schema.Schema) ([]byte, error) {
	return sqltext.MarshalState(s, postgres.MarshalHCL)
}

// UnmarshalState implements dialects.Dialect.
func (Dialect) UnmarshalState(b []byte) (*schema.Schema, error) {
	return sqltext.UnmarshalState(b, postgres.EvalHCLBytes)
}

// ScanStmts implements dialects.Dialect with the scanner of Atlas's
// PostgreSQL driver (dollar quotes, E” strings, BEGIN ATOMIC), which needs
// no connection.
func (Dialect) ScanStmts(input string) ([]*migrate.Stmt, error) {
	return (*postgres.Driver)(nil).ScanStmts(input)
}

// UseExprs implements dialects.Dialect. Defaults are written as raw text,
// which Atlas's planner writes as it is.
func (Dialect) UseExprs(s *schema.Schema, x *dialects.Exprs) {
	sqltext.UseExprs(s, x, sqltext.Using{
		Default: func(_ schema.Expr, text string) schema.Expr { return &schema.RawExpr{X: text} },
		Predicate: func(idx *schema.Index, text string) {
			for i, a := range idx.Attrs {
				if _, ok := a.(*postgres.IndexPredicate); ok {
					idx.Attrs[i] = &postgres.IndexPredicate{P: text}
				}
			}
		},
	})
}

// Describe implements dialects.Describer with Atlas's PostgreSQL type
// printer; an index shows its predicate.
func (Dialect) Describe(obj any) string { return printer.Object(obj) }

var printer = describe.Printer{
	FormatType: postgres.FormatType,
	Predicate: func(idx *schema.Index) string {
		for _, a := range idx.Attrs {
			if p, ok := a.(*postgres.IndexPredicate); ok {
				return p.P
			}
		}
		return ""
	},
}
