package postgres

import (
	"strings"

	"github.com/schemagen/schemagen/compiler/expr"
	"github.com/schemagen/schemagen/compiler/expr/render"
	"github.com/schemagen/schemagen/dialects"
	"github.com/schemagen/schemagen/dialects/postgres/internal/lower"
)

// dataSyntax renders the expressions of data statements.
type dataSyntax struct{ lower.Syntax }

func (dataSyntax) TextCast(x string, _ expr.Kind) string { return "CAST(" + x + " AS text)" }

// Now is the transaction's start, as TiDB's NOW(6) is the statement's: a
// migration file runs in one transaction, whose statements take no time
// that a test could tell apart.
func (dataSyntax) Now() string { return "now()" }

// RenderData implements dialects.DataRenderer.
func (Dialect) RenderData(stmts []expr.Stmt, _ expr.Catalog, _ *dialects.Exprs) []string {
	sy := dataSyntax{}
	var out []string
	for _, s := range stmts {
		out = append(out, renderData(sy, s))
	}
	return out
}

func renderData(sy dataSyntax, s expr.Stmt) string {
	var b strings.Builder
	switch s := s.(type) {
	case *expr.Insert:
		b.WriteString("INSERT INTO " + Ident(s.Table.Name) + " (")
		for i, c := range s.Columns {
			if i > 0 {
				b.WriteString(", ")
			}
			b.WriteString(Ident(c.Name))
		}
		b.WriteString(")\n" + render.SelectSQL(sy, s.Query))
		if s.DoNothing {
			b.WriteString("\nON CONFLICT DO NOTHING")
		}
	case *expr.Update:
		b.WriteString("UPDATE " + Ident(s.Table.Name) + " SET ")
		for i, a := range s.Set {
			if i > 0 {
				b.WriteString(", ")
			}
			b.WriteString(Ident(a.Column.Name) + " = " + render.SQL(sy, a.Value))
		}
		where(&b, sy, s.Where)
	case *expr.Delete:
		b.WriteString("DELETE FROM " + Ident(s.Table.Name))
		where(&b, sy, s.Where)
	case *expr.Assert:
		// A DO block raises the message when the query finds a row: the
		// migration stops, and its transaction with the file's other
		// statements rolls back before Atlas records the file.
		body := "BEGIN\n  IF EXISTS (" + render.SelectSQL(sy, s.Query) + ") THEN\n    RAISE EXCEPTION USING ERRCODE = 'P0001', MESSAGE = " + String(s.Message) + ";\n  END IF;\nEND"
		tag := "$schemagen_assert$"
		for strings.Contains(body, tag) {
			tag = tag[:len(tag)-1] + "_$"
		}
		b.WriteString("DO " + tag + "\n" + body + "\n" + tag)
	}
	return b.String()
}

func where(b *strings.Builder, sy dataSyntax, w expr.Node) {
	if w != nil {
		b.WriteString(" WHERE " + render.SQL(sy, w))
	}
}
