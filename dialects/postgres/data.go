package postgres

import (
	"strconv"
	"strings"

	"github.com/schemagen/schemagen/compiler/expr"
	"github.com/schemagen/schemagen/compiler/expr/render"
	"github.com/schemagen/schemagen/dialects"
	"github.com/schemagen/schemagen/dialects/postgres/internal/lexical"
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
func (Dialect) RenderData(stmts []expr.Stmt, cat expr.Catalog, _ *dialects.Exprs) []string {
	sy := dataSyntax{}
	var out []string
	for _, s := range stmts {
		out = append(out, renderData(sy, s, cat))
	}
	return out
}

func renderData(sy dataSyntax, s expr.Stmt, cat expr.Catalog) string {
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
		var conds, changes []string
		for i, a := range s.Set {
			if i > 0 {
				b.WriteString(", ")
			}
			v := render.SQL(sy, a.Value)
			b.WriteString(Ident(a.Column.Name) + " = " + v)
			changes = append(changes, Ident(s.Table.Name)+"."+Ident(a.Column.Name)+" IS DISTINCT FROM ("+v+")")
		}
		if s.From != nil {
			// PostgreSQL's FROM cannot join to the target: the inner joins'
			// conditions go to WHERE (the checker refuses a left join).
			tables := []string{tableRef(s.From.From)}
			for _, j := range s.From.Joins {
				tables = append(tables, tableRef(j.Table))
				conds = append(conds, render.SQL(sy, j.On))
			}
			b.WriteString(" FROM " + strings.Join(tables, ", "))
		}
		if s.Where != nil {
			conds = append(conds, render.SQL(sy, s.Where))
		}
		if s.Batch > 0 {
			conds = append(conds, batchCond(s.Table.Name, cat), "("+strings.Join(changes, " OR ")+")")
		}
		whereAll(&b, conds)
	case *expr.Delete:
		b.WriteString("DELETE FROM " + Ident(s.Table.Name))
		var conds []string
		if s.Where != nil {
			conds = append(conds, render.SQL(sy, s.Where))
		}
		if s.Batch > 0 {
			conds = append(conds, batchCond(s.Table.Name, cat))
		}
		whereAll(&b, conds)
	case *expr.Assert:
		// The migration stops, and its transaction with the file's other
		// statements rolls back before Atlas records the file.
		b.WriteString(lexical.RaiseIfAny(render.SelectSQL(sy, s.Query), s.Message))
	}
	return b.String()
}

// whereAll writes WHERE and the conditions, each parenthesised.
func whereAll(b *strings.Builder, conds []string) {
	if len(conds) == 1 {
		b.WriteString(" WHERE " + conds[0])
	} else if len(conds) > 1 {
		b.WriteString(" WHERE (" + strings.Join(conds, ") AND (") + ")")
	}
}

func tableRef(t *expr.TableRef) string {
	if t.Alias != "" {
		return Ident(t.Name) + " AS " + Ident(t.Alias)
	}
	return Ident(t.Name)
}

// The bounds of a batch are settings of the session (text, read back as
// the key's type): unset, the statement runs over the whole table.
const (
	batchFrom  = "'schemagen.batch_from'"
	batchUpto  = "'schemagen.batch_upto'"
	batchAfter = "'schemagen.batch_after'"
)

func setting(name, typ string) string {
	return "CAST(NULLIF(current_setting(" + name + ", true), '') AS " + typ + ")"
}

// keyType is the type a batch's key is read back as, with its least and
// greatest values, the bounds of the whole table.
func keyType(k expr.Kind) (typ, least, greatest string) {
	if k == expr.KindUUID {
		return "uuid", "'00000000-0000-0000-0000-000000000000'", "'ffffffff-ffff-ffff-ffff-ffffffffffff'"
	}
	return "bigint", "-9223372036854775808", "9223372036854775807"
}

// batchCond limits a batched statement to the keys of its batch, when the
// session sets them (migrate apply does; the Atlas CLI does not): a range
// of the key, which the primary key's index finds.
func batchCond(table string, cat expr.Catalog) string {
	t := cat(table)
	k := Ident(table) + "." + Ident(t.Key[0])
	typ, least, greatest := keyType(t.Column(t.Key[0]).Kind)
	return k + " >= COALESCE(" + setting(batchFrom, typ) + ", " + least + ") AND " + k + " <= COALESCE(" + setting(batchUpto, typ) + ", " + greatest + ")"
}

// BatchWalk implements dialects.Batcher.
func (Dialect) BatchWalk(b dialects.Batch) dialects.BatchWalk {
	k := Ident(b.Key)
	typ, _, _ := keyType(b.Kind)
	bounds := func(where string) string {
		chunk := "SELECT " + k + " FROM " + Ident(b.Table) + where + " ORDER BY " + k + " LIMIT " + strconv.Itoa(b.Rows)
		end := func(name, dir string) string {
			return "set_config(" + name + ", COALESCE((SELECT CAST(schemagen_batch." + k + " AS text) AS schemagen_key FROM (" + chunk + ") AS schemagen_batch ORDER BY schemagen_batch." + k + dir + " LIMIT 1), ''), false)"
		}
		return "SELECT " + end(batchFrom, "") + ", " + end(batchUpto, " DESC")
	}
	clear := "SELECT set_config(" + batchFrom + ", '', false), set_config(" + batchUpto + ", '', false), set_config(" + batchAfter + ", '', false)"
	return dialects.BatchWalk{
		Start:   clear,
		First:   bounds(""),
		Next:    bounds(" WHERE " + k + " > " + setting(batchAfter, typ)),
		More:    "SELECT current_setting(" + batchUpto + ") <> ''",
		Advance: "SELECT set_config(" + batchAfter + ", current_setting(" + batchUpto + "), false)",
		End:     clear,
	}
}
