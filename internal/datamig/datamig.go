// Package datamig compiles portable data migrations: files of INSERT ...
// SELECT, UPDATE, DELETE and ASSERT NOT EXISTS statements written once in
// the portable language (compiler/expr's data statements), checked against
// the model and rendered by each dialect.
package datamig

import (
	"crypto/sha256"
	"encoding/hex"
	"fmt"
	"slices"
	"strings"
	"unicode/utf8"

	"github.com/hashicorp/hcl/v2"

	"github.com/schemagen/schemagen/compiler"
	"github.com/schemagen/schemagen/compiler/expr"
	"github.com/schemagen/schemagen/compiler/expr/datacheck"
	"github.com/schemagen/schemagen/dialects"
)

// Catalog is what data statements know of the model's tables.
func Catalog(s *compiler.Schema) expr.Catalog {
	tables := map[string]*expr.CatalogTable{}
	for _, t := range s.Tables {
		ct := &expr.CatalogTable{Name: t.Name}
		for _, c := range t.Columns {
			ct.Columns = append(ct.Columns, expr.CatalogColumn{Name: c.Name, Kind: c.Type.ExprKind(), Type: c.Type.String(), Fits: fits(c.Type), Generated: c.Generated != nil})
		}
		if t.PrimaryKey != nil {
			ct.Key = t.PrimaryKey.Columns
		}
		for _, u := range t.Uniques {
			ct.Uniques = append(ct.Uniques, u.Columns)
		}
		for _, x := range t.Indexes {
			if !x.Unique || x.Where != nil {
				continue
			}
			var cols []string
			for _, p := range x.Parts {
				if p.Expr != nil {
					cols = nil
					break
				}
				cols = append(cols, p.Column)
			}
			if cols != nil {
				ct.Uniques = append(ct.Uniques, cols)
			}
		}
		tables[t.Name] = ct
	}
	return func(name string) *expr.CatalogTable { return tables[name] }
}

// fits checks a constant against the type t as a default is checked, and
// a string against the length of varchar and char.
func fits(t compiler.Type) func(string, bool) string {
	return func(v string, number bool) string {
		kind := compiler.DefaultString
		if number {
			kind = compiler.DefaultNumber
		}
		if msg := t.ValueProblem(&compiler.Default{Kind: kind, Value: v}); msg != "" {
			return msg
		}
		if n := utf8.RuneCountInString(v); !number && (t.Kind == compiler.TypeVarchar || t.Kind == compiler.TypeChar) && n > t.Args[0] {
			return fmt.Sprintf("the string has %d characters, the column holds %d", n, t.Args[0])
		}
		return ""
	}
}

// Compile reads the portable file path (its text src) and checks it
// against the model s. Errors are positioned diagnostics; no statement is
// returned with them.
func Compile(path string, src []byte, s *compiler.Schema) ([]expr.Stmt, hcl.Diagnostics) {
	text := string(src)
	if !utf8.Valid(src) {
		return nil, hcl.Diagnostics{{Severity: hcl.DiagError, Summary: "Invalid data migration", Detail: "The file is not valid UTF-8.", Subject: rangeAt(path, text, 0, 0).Ptr()}}
	}
	stmts, err := expr.ReadStmts(text)
	if err != nil {
		return nil, diags(path, text, []*expr.Error{asError(err)})
	}
	if len(stmts) == 0 {
		return nil, hcl.Diagnostics{{Severity: hcl.DiagError, Summary: "Empty data migration", Detail: "The file holds no statement; write INSERT ... SELECT, UPDATE, DELETE or ASSERT NOT EXISTS (SELECT ...) MESSAGE '...', or remove the file.", Subject: rangeAt(path, text, len(text), len(text)).Ptr()}}
	}
	if errs := expr.AnalyzeStmts(stmts, Catalog(s)); len(errs) > 0 {
		return nil, diags(path, text, errs)
	}
	if errs := unorderedIdentities(stmts, s); len(errs) > 0 {
		return nil, diags(path, text, errs)
	}
	if errs := onUpdateKept(stmts, s); len(errs) > 0 {
		return nil, diags(path, text, errs)
	}
	if errs := keyActionOnOwnValue(stmts, s); len(errs) > 0 {
		return nil, diags(path, text, errs)
	}
	if errs := unorderedFailures(stmts); len(errs) > 0 {
		return nil, diags(path, text, errs)
	}
	// A batched statement commits batch by batch: a file holding it runs
	// without a transaction, in which a guard could not roll back the
	// statements before it.
	if off := batchOffset(stmts); off >= 0 && len(stmts) > 1 {
		return nil, diags(path, text, []*expr.Error{{Offset: off, End: off + 5, Msg: "a batched statement commits each batch on its own, so it is the only statement of its file: put the others in files of their own (migrate new NAME --data)"}})
	}
	return stmts, nil
}

// unorderedIdentities refuses an INSERT that gives a value to a column
// numbered by `identity { ordered = false }`: TiDB's AUTO_RANDOM refuses
// it (8216, unless the session sets @@allow_auto_random_explicit_insert,
// and then the value may meet an id TiDB hands out later), PostgreSQL's
// sequence takes it. Leaving the column out lets each database number the
// rows, as the model says.
func unorderedIdentities(stmts []expr.Stmt, s *compiler.Schema) []*expr.Error {
	var errs []*expr.Error
	for _, st := range stmts {
		ins, ok := st.(*expr.Insert)
		if !ok || s.Table(ins.Table.Name) == nil {
			continue
		}
		for _, c := range ins.Columns {
			if col := s.Table(ins.Table.Name).Column(c.Name); col != nil && col.Identity != nil && col.Identity.Unordered {
				errs = append(errs, &expr.Error{Offset: c.Offset(), End: c.Offset() + len(c.Name), Msg: fmt.Sprintf("the column %q of table %q is an identity with ordered = false, which TiDB numbers with AUTO_RANDOM and refuses a value for (8216) while PostgreSQL takes one: leave it out of the INSERT, and each database numbers the rows", c.Name, ins.Table.Name)})
			}
		}
	}
	return errs
}

// onUpdateKept refuses an UPDATE that sets an `on_update = now()` column
// to its own value beside another column (SET price = 2, updated_at =
// updated_at): TiDB's ON UPDATE CURRENT_TIMESTAMP leaves a column the
// statement sets, so the row keeps its time, while PostgreSQL's trigger
// sees the same value as not set and writes now(). Both set now() when the
// column is left out, and keep a value it is set to that differs from the
// row's.
func onUpdateKept(stmts []expr.Stmt, s *compiler.Schema) []*expr.Error {
	var errs []*expr.Error
	for _, st := range stmts {
		up, ok := st.(*expr.Update)
		if !ok || len(up.Set) < 2 || s.Table(up.Table.Name) == nil {
			continue
		}
		t := s.Table(up.Table.Name)
		for _, a := range up.Set {
			col := t.Column(a.Column.Name)
			if col == nil || !col.OnUpdate || !ownValue(a.Value, a.Column.Name, up.Table.Ref()) {
				continue
			}
			errs = append(errs, &expr.Error{Offset: a.Column.Offset(), End: a.Column.Offset() + len(a.Column.Name), Msg: fmt.Sprintf("the column %q of table %q has on_update = now() and is set to its own value beside other columns: TiDB keeps the row's time, PostgreSQL's trigger cannot tell the value from one not set and writes now(). Leave %q out of SET (both set now() when the row changes), or set it to another value", a.Column.Name, up.Table.Name, a.Column.Name)})
		}
	}
	return errs
}

// keyActionOnOwnValue refuses an UPDATE that sets a column a foreign key
// references with on_update = set_null or set_default to its own value
// beside other columns (SET c0 = '08:00:00', id0 = id0): TiDB runs the
// key's action whenever the statement changes the row and sets the column,
// and sets the referencing rows' columns to NULL, while PostgreSQL runs it
// only when the column's value changes, and keeps them (plan oracle, seed
// 92929, evolution 92929278866). Left out of SET, or changed, both agree.
func keyActionOnOwnValue(stmts []expr.Stmt, s *compiler.Schema) []*expr.Error {
	var errs []*expr.Error
	for _, st := range stmts {
		up, ok := st.(*expr.Update)
		if !ok || len(up.Set) < 2 {
			continue
		}
		for _, a := range up.Set {
			if !ownValue(a.Value, a.Column.Name, up.Table.Ref()) {
				continue
			}
			if fk, t := actionOnUpdate(s, up.Table.Name, a.Column.Name); fk != nil {
				errs = append(errs, &expr.Error{Offset: a.Column.Offset(), End: a.Column.Offset() + len(a.Column.Name), Msg: fmt.Sprintf("the column %q of table %q is referenced by foreign key %q of table %q (on_update = %s) and is set to its own value beside other columns: TiDB runs the key's action when the row changes and the column is set, and sets the referencing rows' columns, PostgreSQL only when the value changes, and keeps them. Leave %q out of SET", a.Column.Name, up.Table.Name, fk.Name, t.Name, fk.OnUpdate, a.Column.Name)})
			}
		}
	}
	return errs
}

// unorderedFailures refuses a value that can fail for a row (a cast to
// integer, bigint, smallint or decimal(p,s); an integer argument of
// substring, left or right beyond PostgreSQL's integer) where the
// databases may or may not compute it: beside other conditions under AND
// or OR (PostgreSQL evaluates the cheaper first, TiDB in the written
// order: DELETE ... WHERE CAST(b AS integer) > 1 AND coalesce(up, 1) = 1
// stopped the file on TiDB alone, plan oracle, evolution 10303031179),
// in a BETWEEN's bounds or an IN list, in a join's condition or a WHERE
// beside joins, and in a subquery, which stops at the first row it finds
// in an order neither defines. CASE evaluates in order on both: CASE WHEN
// coalesce(up, 1) = 1 THEN CAST(b AS integer) > 1 ELSE false END.
func unorderedFailures(stmts []expr.Stmt) []*expr.Error {
	var errs []*expr.Error
	var walk func(n expr.Node, unordered bool)
	query := func(q *expr.Select, unordered bool) {
		if q == nil {
			return
		}
		for _, x := range q.Items {
			walk(x, unordered)
		}
		for _, j := range q.Joins {
			walk(j.On, true)
		}
		walk(q.Where, unordered || len(q.Joins) > 0)
	}
	walk = func(n expr.Node, unordered bool) {
		expr.Walk(n, func(x expr.Node) bool {
			switch x := x.(type) {
			case *expr.Binary:
				if x.Op == expr.OpAnd || x.Op == expr.OpOr {
					walk(x.L, true)
					walk(x.R, true)
					return false
				}
			case *expr.Between:
				walk(x.X, unordered)
				walk(x.Lo, true)
				walk(x.Hi, true)
				return false
			case *expr.In:
				walk(x.X, unordered)
				for _, v := range x.List {
					walk(v, true)
				}
				return false
			case *expr.Exists:
				query(x.Sub, true)
			case *expr.Subquery:
				query(x.Sub, true)
			case *expr.InSelect:
				query(x.Sub, true)
			}
			if why := mayFail(x); why != "" && unordered {
				errs = append(errs, &expr.Error{Offset: x.Offset(), End: x.Offset() + 1, Msg: why + " can fail for a row, and here the databases may or may not compute it for that row (PostgreSQL evaluates the conditions beside it under AND or OR in its own order, TiDB in the written one; a subquery or a join stops at rows neither orders): write the condition it needs first as CASE WHEN cond THEN ... ELSE false END, which both evaluate in order, at the top of the WHERE of a statement without joins"})
			}
			return true
		})
	}
	for _, st := range stmts {
		switch st := st.(type) {
		case *expr.Insert:
			query(st.Query, false)
		case *expr.Update:
			for _, a := range st.Set {
				walk(a.Value, false)
			}
			joined := st.From != nil
			if joined {
				query(st.From, true)
			}
			walk(st.Where, joined)
		case *expr.Delete:
			walk(st.Where, false)
		case *expr.Assert:
			// The guard stops at the first row it finds.
			query(st.Query, true)
		}
	}
	return errs
}

// mayFail names x when it can fail for a row on both databases, or is "".
func mayFail(x expr.Node) string {
	switch x := x.(type) {
	case *expr.Cast:
		if x.To == expr.KindInteger || x.To == expr.KindNumeric {
			return "the cast"
		}
	case *expr.Call:
		if x.Name == "substring" || x.Name == "left" || x.Name == "right" {
			for _, a := range x.Args[1:] {
				if !datacheck.Int4Const(a) {
					return "the integer argument of " + x.Name
				}
			}
		}
	}
	return ""
}

// actionOnUpdate is a foreign key (and its table) that references column
// of table with on_update = set_null or set_default, or nil.
func actionOnUpdate(s *compiler.Schema, table, column string) (*compiler.ForeignKey, *compiler.Table) {
	for _, t := range s.Tables {
		for _, fk := range t.ForeignKeys {
			if fk.RefTable == table && (fk.OnUpdate == compiler.SetNull || fk.OnUpdate == compiler.SetDefault) && slices.Contains(fk.RefColumns, column) {
				return fk, t
			}
		}
	}
	return nil, nil
}

// ownValue reports whether v reads column name of the updated table (ref:
// its name or alias) and nothing else.
func ownValue(v expr.Node, name, ref string) bool {
	for {
		p, ok := v.(*expr.Paren)
		if !ok {
			break
		}
		v = p.X
	}
	c, ok := v.(*expr.Column)
	return ok && c.Name == name && (c.Table == "" || c.Table == ref)
}

// batchOffset is the offset of the BATCH of a batched statement, or -1.
func batchOffset(stmts []expr.Stmt) int {
	for _, s := range stmts {
		switch s := s.(type) {
		case *expr.Update:
			if s.Batch > 0 {
				return s.BatchOff
			}
		case *expr.Delete:
			if s.Batch > 0 {
				return s.BatchOff
			}
		}
	}
	return -1
}

// BatchOf returns the walk of the batched statement of stmts (checked by
// Compile: then the only one), if there is one.
func BatchOf(stmts []expr.Stmt, cat expr.Catalog) (dialects.Batch, bool) {
	for _, s := range stmts {
		var table string
		var rows int
		switch s := s.(type) {
		case *expr.Update:
			table, rows = s.Table.Name, s.Batch
		case *expr.Delete:
			table, rows = s.Table.Name, s.Batch
		}
		if t := cat(table); rows > 0 && t != nil && len(t.Key) == 1 {
			return dialects.Batch{Table: table, Key: t.Key[0], Kind: t.Column(t.Key[0]).Kind, Rows: rows}, true
		}
	}
	return dialects.Batch{}, false
}

func asError(err error) *expr.Error {
	if e, ok := err.(*expr.Error); ok {
		return e
	}
	return &expr.Error{Offset: 0, End: 0, Msg: err.Error()}
}

func diags(path, text string, errs []*expr.Error) hcl.Diagnostics {
	var out hcl.Diagnostics
	for _, e := range errs {
		out = append(out, &hcl.Diagnostic{
			Severity: hcl.DiagError,
			Summary:  "Invalid data migration",
			Detail:   upperFirst(e.Msg) + ".",
			Subject:  rangeAt(path, text, e.Offset, e.End).Ptr(),
		})
	}
	return out
}

func upperFirst(s string) string {
	if s == "" {
		return s
	}
	return strings.ToUpper(s[:1]) + s[1:]
}

// rangeAt is the range of text[start:end] in file path, columns counted in
// characters as hcl does.
func rangeAt(path, text string, start, end int) hcl.Range {
	start = min(max(start, 0), len(text))
	end = min(max(end, start), len(text))
	return hcl.Range{Filename: path, Start: posAt(text, start), End: posAt(text, end)}
}

func posAt(text string, off int) hcl.Pos {
	line, col := 1, 1
	for _, r := range text[:off] {
		if r == '\n' {
			line, col = line+1, 1
		} else {
			col++
		}
	}
	return hcl.Pos{Line: line, Column: col, Byte: off}
}

// SumPrefix starts the line of a rendered file that records the hashes of
// its portable file and of its own statements, by which generate tells a
// rendered file that is current from one whose source or body changed.
const SumPrefix = "-- schemagen:portable sha256:"

// Sum is the hash of a text, as rendered files record it.
func Sum(src []byte) string {
	h := sha256.Sum256(src)
	return hex.EncodeToString(h[:])
}

// Render writes the file of dialect d for the statements of the portable
// file portable (its text src) over the tables cat knows, whose
// expressions in d's DDL are x: a header, then each statement. The header
// runs the file in one transaction (atlas:txmode file), so that a failed
// guard rolls back what the file changed before, on TiDB too, whose files
// otherwise run without one; it names the source and records the hashes.
func Render(d dialects.DataRenderer, portable string, src []byte, stmts []expr.Stmt, cat expr.Catalog, x *dialects.Exprs) []byte {
	var body strings.Builder
	for _, sql := range d.RenderData(stmts, cat, x) {
		body.WriteString("\n" + sql + ";\n")
	}
	var b strings.Builder
	bt, batched := BatchOf(stmts, cat)
	if batched {
		// Each batch commits on its own (migrate apply); see docs/data-migrations.md.
		b.WriteString("-- atlas:txmode none\n")
	} else {
		b.WriteString("-- atlas:txmode file\n")
	}
	fmt.Fprintf(&b, "-- Rendered by schemagen from %s; edit that file and run `schemagen generate`.\n", portable)
	if batched {
		b.WriteString(bt.Line() + "\n")
	}
	fmt.Fprintf(&b, "%s%s body:%s\n", SumPrefix, Sum(src), Sum([]byte(body.String())))
	return []byte(b.String() + body.String())
}

// Current reports whether rendered, a file Render wrote, holds the
// rendering of the portable text src and its own statements unedited.
func Current(rendered, src []byte) bool {
	text := string(rendered)
	for _, line := range strings.SplitN(text, "\n", 5)[:min(4, strings.Count(text, "\n"))] {
		sums, ok := strings.CutPrefix(line, SumPrefix)
		if !ok {
			continue
		}
		srcSum, bodySum, _ := strings.Cut(sums, " body:")
		_, body, ok := strings.Cut(text, line+"\n")
		return ok && srcSum == Sum(src) && bodySum == Sum([]byte(body))
	}
	return false
}

// Source returns the portable file a rendered file names, or "" when it is
// not one that Render wrote.
func Source(rendered []byte) string {
	lines := strings.SplitN(string(rendered), "\n", 3)
	if len(lines) < 3 {
		return ""
	}
	rest, ok := strings.CutPrefix(lines[1], "-- Rendered by schemagen from ")
	if !ok {
		return ""
	}
	src, _, _ := strings.Cut(rest, "; edit that file")
	return src
}
