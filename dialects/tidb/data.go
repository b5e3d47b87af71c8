package tidb

import (
	"slices"
	"strconv"
	"strings"

	"github.com/schemagen/schemagen/compiler/expr"
	"github.com/schemagen/schemagen/compiler/expr/render"
	"github.com/schemagen/schemagen/dialects"
	"github.com/schemagen/schemagen/dialects/tidb/internal/lexical"
	"github.com/schemagen/schemagen/dialects/tidb/internal/lower"
)

// dataSyntax renders the expressions of data statements.
type dataSyntax struct{ lower.Syntax }

func (dataSyntax) TextCast(x string, _ expr.Kind) string { return "CAST(" + x + " AS CHAR)" }

// Now keeps microseconds, as PostgreSQL's now() does, in UTC: timestamp
// columns are DATETIME holding UTC, whatever the session's time zone.
func (dataSyntax) Now() string { return "UTC_TIMESTAMP(6)" }

// RenderData implements dialects.DataRenderer.
func (Dialect) RenderData(stmts []expr.Stmt, cat expr.Catalog, x *dialects.Exprs) []string {
	sy := dataSyntax{}
	var out []string
	for _, s := range stmts {
		out = append(out, renderData(sy, s, cat, x))
	}
	return out
}

// rowsAlias names the derived table of INSERT ... ON DUPLICATE KEY UPDATE.
const rowsAlias = "schemagen_rows"

func renderData(sy dataSyntax, s expr.Stmt, cat expr.Catalog, x *dialects.Exprs) string {
	var b strings.Builder
	switch s := s.(type) {
	case *expr.Insert:
		cols := make([]string, len(s.Columns))
		for i, c := range s.Columns {
			cols[i] = Ident(c.Name)
		}
		b.WriteString("INSERT INTO " + Ident(s.Table.Name) + " (" + strings.Join(cols, ", ") + ")\n")
		if !s.DoNothing {
			b.WriteString(render.SelectSQL(sy, s.Query))
			break
		}
		// INSERT IGNORE would also turn NOT NULL, CHECK, foreign key and
		// conversion errors into warnings. A duplicate key that updates a
		// column to itself changes nothing and counts no row, as PostgreSQL's
		// DO NOTHING, also for two rows of the query with one key (the first
		// is inserted); every other error stays an error. The derived table
		// names the values, so that the UPDATE's column is the target's
		// alone, and ends the query before ON, which a JOIN's ON would take.
		named := make([]string, len(s.Columns))
		names := make([]string, len(s.Columns))
		for i, c := range s.Columns {
			names[i] = c.Name
			named[i] = Ident(rowsAlias) + "." + Ident(c.Name)
		}
		inner := render.SelectAs(sy, s.Query, names)
		t := cat(s.Table.Name)
		if checks := tableChecks(x, s.Table.Name); len(checks) > 0 && t != nil {
			b.WriteString("SELECT " + strings.Join(named, ", ") + " FROM (" + checkedRows(s, t, x, inner, checks) + ") AS " + Ident(rowsAlias))
			b.WriteString("\nON DUPLICATE KEY UPDATE " + checkedUpdate(s, t, x))
			break
		}
		b.WriteString("SELECT " + strings.Join(named, ", ") + " FROM (" + inner + ") AS " + Ident(rowsAlias))
		key := s.Columns[0].Name
		if t != nil && len(t.Key) > 0 {
			key = t.Key[0]
		}
		k := Ident(s.Table.Name) + "." + Ident(key)
		b.WriteString("\nON DUPLICATE KEY UPDATE " + k + " = " + k)
	case *expr.Update:
		b.WriteString("UPDATE " + Ident(s.Table.Name))
		target := ""
		if s.From != nil {
			// The multi-table UPDATE: each join keeps its ON.
			target = Ident(s.Table.Name) + "."
			b.WriteString(" JOIN " + tableRef(s.From.From) + " ON TRUE")
			for _, j := range s.From.Joins {
				b.WriteString(" JOIN " + tableRef(j.Table) + " ON " + render.SQL(sy, j.On))
			}
		}
		b.WriteString(" SET ")
		var conds, changes []string
		for i, a := range s.Set {
			if i > 0 {
				b.WriteString(", ")
			}
			v := render.SQL(sy, a.Value)
			b.WriteString(target + Ident(a.Column.Name) + " = " + v)
			// Bytes: <=> refuses mixed collations (1267; plan oracle,
			// seed 96969, evolution 96969291105) and a ci one keeps 'A'.
			text := a.Column.Kind == expr.KindString || a.Column.Kind == expr.KindUUID || a.Column.Kind == expr.KindEnum
			changes = append(changes, "NOT ("+lexical.Bytes(Ident(s.Table.Name)+"."+Ident(a.Column.Name), text)+" <=> "+lexical.Bytes("("+v+")", text)+")")
		}
		if s.Where != nil {
			conds = append(conds, render.SQL(sy, s.Where))
		}
		if s.Batch > 0 {
			conds = append(conds, batchCond(s.Table.Name, cat), strings.Join(changes, " OR "))
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
		b.WriteString(assertSQL(sy, s))
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

// MatchedSQL counts the rows of u's table that u matches (TiDB counts the
// rows an UPDATE changes, PostgreSQL those it matches), for the tests.
func MatchedSQL(u *expr.Update, cat expr.Catalog) string {
	sy := dataSyntax{}
	from := Ident(u.Table.Name)
	if u.From != nil {
		from += " JOIN " + tableRef(u.From.From) + " ON TRUE"
		for _, j := range u.From.Joins {
			from += " JOIN " + tableRef(j.Table) + " ON " + render.SQL(sy, j.On)
		}
	}
	var b strings.Builder
	b.WriteString("SELECT COUNT(*) FROM " + from)
	var conds []string
	if u.Where != nil {
		conds = append(conds, render.SQL(sy, u.Where))
	}
	if u.Batch > 0 {
		conds = append(conds, batchCond(u.Table.Name, cat))
	}
	whereAll(&b, conds)
	return b.String()
}

// The bounds of a batch are user variables of the session, of the key's
// type: unset (NULL), the statement runs over the whole table.
const (
	batchFrom  = "@schemagen_batch_from"
	batchUpto  = "@schemagen_batch_upto"
	batchAfter = "@schemagen_batch_after"
)

// batchCond limits a batched statement to the keys of its batch, when the
// session sets them (migrate apply does; the Atlas CLI does not): a range
// of the key, which the primary key's index finds.
func batchCond(table string, cat expr.Catalog) string {
	t := cat(table)
	k := Ident(table) + "." + Ident(t.Key[0])
	from, upto := batchBounds(t.Column(t.Key[0]).Kind)
	return k + " >= " + from + " AND " + k + " <= " + upto
}

// batchBounds are the expressions of a batch's first and last key in the
// statement (the whole key's range when the session sets none).
func batchBounds(key expr.Kind) (from, upto string) {
	least, greatest := "-9223372036854775808", "9223372036854775807"
	if key == expr.KindUUID {
		least, greatest = "'00000000-0000-0000-0000-000000000000'", "'ffffffff-ffff-ffff-ffff-ffffffffffff'"
	}
	return "COALESCE(" + batchFrom + ", " + least + ")", "COALESCE(" + batchUpto + ", " + greatest + ")"
}

// bindBatch writes a batch's keys into stmt in place of the bounds
// batchCond wrote, each found exactly once: TiDB plans an UPDATE or
// DELETE without reading user variables (a SELECT reads them), so the
// variables' range would be a full scan of the table for every batch.
func bindBatch(key expr.Kind, stmt, from, upto string) (string, bool) {
	lit := func(v string) (string, bool) {
		if key == expr.KindUUID {
			return String(v), true
		}
		_, err := strconv.ParseInt(v, 10, 64)
		return v, err == nil
	}
	fromExpr, uptoExpr := batchBounds(key)
	f, ok1 := lit(from)
	u, ok2 := lit(upto)
	if !ok1 || !ok2 || strings.Count(stmt, fromExpr) != 1 || strings.Count(stmt, uptoExpr) != 1 {
		return stmt, false
	}
	return strings.Replace(strings.Replace(stmt, fromExpr, f, 1), uptoExpr, u, 1), true
}

// BatchWalk implements dialects.Batcher.
func (Dialect) BatchWalk(b dialects.Batch) dialects.BatchWalk {
	k := Ident(b.Key)
	bounds := func(where string) string {
		chunk := "SELECT " + k + " FROM " + Ident(b.Table) + where + " ORDER BY " + k + " LIMIT " + strconv.Itoa(b.Rows)
		end := func(dir string) string {
			return "(SELECT schemagen_batch." + k + " FROM (" + chunk + ") AS schemagen_batch ORDER BY schemagen_batch." + k + dir + " LIMIT 1)"
		}
		return "SET " + batchFrom + " = " + end("") + ", " + batchUpto + " = " + end(" DESC")
	}
	clear := "SET " + batchFrom + " = NULL, " + batchUpto + " = NULL, " + batchAfter + " = NULL"
	return dialects.BatchWalk{
		Start:   clear,
		First:   bounds(""),
		Next:    bounds(" WHERE " + k + " > " + batchAfter),
		More:    "SELECT " + batchUpto + " IS NOT NULL",
		Advance: "SET " + batchAfter + " = " + batchUpto,
		End:     clear,
		Bounds:  "SELECT CAST(" + batchFrom + " AS CHAR), CAST(" + batchUpto + " AS CHAR)",
		Bind: func(stmt, from, upto string) (string, bool) {
			return bindBatch(b.Kind, stmt, from, upto)
		},
	}
}

// assertPrefix starts the value that TiDB refuses, so that no message is a
// valid setting.
const assertPrefix = "assertion failed: "

// MaxAssertMessage is the longest message TiDB's error shows in full: it
// cuts the value at 200 characters.
const MaxAssertMessage = 200 - len(assertPrefix)

// assertSQL fails, with the message in TiDB's error, only when the query
// finds a row: TiDB has no stored routines to raise an error with, and a
// temporary table's NOT NULL column (the hand-written way) loses the
// message. Setting a session variable to a value it refuses fails with
// error 1231, "Variable 'block_encryption_mode' can't be set to the value
// of '<the message>'"; when the query finds nothing, the variable is set
// to the value it holds.
func assertSQL(sy dataSyntax, s *expr.Assert) string {
	return "SET @@session.block_encryption_mode = (SELECT IF(EXISTS (" + render.SelectSQL(sy, s.Query) + "), " +
		String(assertPrefix+s.Message) + ", @@session.block_encryption_mode))"
}

// okColumn names the column of the derived table that tells whether a row
// passes the target's CHECKs.
const okColumn = "schemagen_checks_pass"

// tableChecks are the CHECK expressions of table as its DDL writes them,
// in a fixed order.
func tableChecks(x *dialects.Exprs, table string) []string {
	if x == nil {
		return nil
	}
	var names []string
	for k := range x.Checks {
		if k.Table == table {
			names = append(names, k.Name)
		}
	}
	slices.Sort(names)
	out := make([]string, len(names))
	for i, n := range names {
		out[i] = x.Checks[dialects.ObjectName{Table: table, Name: n}]
	}
	return out
}

// checkedRows is the query of INSERT ... ON CONFLICT DO NOTHING into a
// table with CHECKs: PostgreSQL checks a row's CHECKs before it looks for
// a conflict, so a row that duplicates a key and breaks a CHECK fails
// there, while ON DUPLICATE KEY UPDATE only sees the duplicate. The rows
// are completed as PostgreSQL builds them (a column not inserted takes its
// default, a generated column its expression), each CHECK is evaluated
// over them by its own text, whose names then mean the row's columns, and
// okColumn says whether all pass (a CHECK passes when it is not false).
func checkedRows(s *expr.Insert, t *expr.CatalogTable, x *dialects.Exprs, inner string, checks []string) string {
	inserted := map[string]bool{}
	for _, c := range s.Columns {
		inserted[c.Name] = true
	}
	// The row: the inserted values, then the defaults of the others.
	var cols []string
	for _, c := range t.Columns {
		key := dialects.ObjectName{Table: t.Name, Name: c.Name}
		if _, gen := x.Generated[key]; inserted[c.Name] || gen {
			continue
		}
		v := "NULL"
		if d, ok := x.Defaults[key]; ok {
			v = d
		}
		cols = append(cols, v+" AS "+Ident(c.Name))
	}
	q := inner
	n := 0
	level := func(extra string) {
		n++
		alias := Ident(rowsAlias + "_" + strconv.Itoa(n))
		q = "SELECT " + alias + ".*, " + extra + " FROM (" + q + ") AS " + alias
	}
	if len(cols) > 0 {
		level(strings.Join(cols, ", "))
	}
	// The strings compare as the table's columns do: a literal takes the
	// connection's collation (the driver's utf8mb4_general_ci ignores
	// letter case), a column the one its DDL names, else the database's
	// (plan oracle, evolution 11414034335: CONCAT('A', 'x') <> 'ax' failed
	// over the literal and passed in the table, so the row replaced the one
	// whose key it duplicated).
	n++
	alias := Ident(rowsAlias + "_" + strconv.Itoa(n))
	var typed []string
	for _, c := range t.Columns {
		key := dialects.ObjectName{Table: t.Name, Name: c.Name}
		if _, gen := x.Generated[key]; gen {
			continue
		}
		v := alias + "." + Ident(c.Name)
		if c.Kind == expr.KindString || c.Kind == expr.KindUUID || c.Kind == expr.KindEnum {
			coll, charset := x.Collations[key], "utf8mb4"
			if coll != "" {
				charset, _, _ = strings.Cut(coll, "_")
			}
			v = "CONVERT(" + v + " USING " + charset + ")"
			if coll != "" {
				v += " COLLATE " + coll
			}
		}
		typed = append(typed, v+" AS "+Ident(c.Name))
	}
	q = "SELECT " + strings.Join(typed, ", ") + " FROM (" + q + ") AS " + alias
	// Generated columns in table order: each may read the ones before.
	for _, c := range t.Columns {
		if g, ok := x.Generated[dialects.ObjectName{Table: t.Name, Name: c.Name}]; ok {
			level("(" + g + ") AS " + Ident(c.Name))
		}
	}
	pass := make([]string, len(checks))
	for i, c := range checks {
		pass[i] = "(" + c + ") IS NOT FALSE"
	}
	level(strings.Join(pass, " AND ") + " AS " + Ident(okColumn))
	return q
}

// checkedUpdate skips a duplicate as DO NOTHING does when the row passes
// the CHECKs (every column keeps its value: nothing changes, no row is
// counted); when it does not, it writes the row's values (those inserted,
// the defaults, and NULL in the other columns) over the duplicate, so that
// TiDB's own CHECK fails the statement, as PostgreSQL's does. A column
// without a default counts: a CHECK that fails on its NULL would pass on
// the duplicate's value (plan oracle, evolution 93737281213: CHECK (c1 IS
// NOT NULL), c1 not inserted).
func checkedUpdate(s *expr.Insert, t *expr.CatalogTable, x *dialects.Exprs) string {
	var sets []string
	for _, c := range t.Columns {
		key := dialects.ObjectName{Table: t.Name, Name: c.Name}
		if _, gen := x.Generated[key]; gen {
			continue
		}
		col := Ident(s.Table.Name) + "." + Ident(c.Name)
		sets = append(sets, col+" = IF("+Ident(rowsAlias)+"."+Ident(okColumn)+", "+col+", "+Ident(rowsAlias)+"."+Ident(c.Name)+")")
	}
	return strings.Join(sets, ", ")
}
