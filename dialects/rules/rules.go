// Package rules validates a model against one dialect's Rules (name length
// and case, name scopes, key sizes, expression index functions, index
// methods and operator classes), so that every dialect is checked by the
// same code asking its own description instead of by special cases.
package rules

import (
	"fmt"
	"slices"
	"strings"
	"unicode/utf8"

	"github.com/hashicorp/hcl/v2"

	"github.com/schemagen/schemagen/compiler"
	"github.com/schemagen/schemagen/dialects"
	"github.com/schemagen/schemagen/dialects/internal/sqltext"
)

// Object is a named object of the model as one dialect sees it.
type Object struct {
	// ObjectRef names it by its name in the dialect; a table's Table and
	// Name are its name.
	compiler.ObjectRef
	// Model is the model's name of the object, where Name is the
	// dialect's.
	Model string
	Range hcl.Range
	// Cols are the columns of a foreign key, or the leading plain columns
	// of an index.
	Cols []string
}

// Objects returns the named objects of s that exist in dialect d, in the
// order of the source, so that a clash is reported at the later object.
func Objects(s *compiler.Schema, d string) []Object {
	out := objects(s, d)
	slices.SortStableFunc(out, func(a, b Object) int {
		if c := strings.Compare(a.Range.Filename, b.Range.Filename); c != 0 {
			return c
		}
		return a.Range.Start.Byte - b.Range.Start.Byte
	})
	return out
}

func objects(s *compiler.Schema, d string) []Object {
	var out []Object
	for _, t := range s.Tables {
		if t.Overrides.Skipped(d) {
			continue
		}
		out = append(out, Object{ObjectRef: compiler.ObjectRef{Table: t.Name, Kind: compiler.KindTable, Name: t.Name}, Range: t.Range})
		for _, c := range t.Columns {
			if !c.Overrides.Skipped(d) {
				out = append(out, Object{ObjectRef: compiler.ObjectRef{Table: t.Name, Kind: compiler.KindColumn, Name: c.Name}, Range: c.Range})
			}
		}
		for _, u := range t.Uniques {
			out = append(out, Object{ObjectRef: compiler.ObjectRef{Table: t.Name, Kind: compiler.KindUnique, Name: u.Overrides.NameIn(d, u.Name)}, Model: u.Name, Range: u.Range})
		}
		for _, c := range t.Checks {
			if !c.Overrides.Skipped(d) {
				out = append(out, Object{ObjectRef: compiler.ObjectRef{Table: t.Name, Kind: compiler.KindCheck, Name: c.Overrides.NameIn(d, c.Name)}, Model: c.Name, Range: c.Range})
			}
		}
		for _, fk := range t.ForeignKeys {
			out = append(out, Object{ObjectRef: compiler.ObjectRef{Table: t.Name, Kind: compiler.KindForeignKey, Name: fk.Overrides.NameIn(d, fk.Name)}, Model: fk.Name, Range: fk.Range, Cols: fk.Columns})
		}
		for _, idx := range t.Indexes {
			if !idx.Overrides.Skipped(d) {
				var cols []string
				for _, p := range idx.Parts {
					if p.Expr != nil {
						break
					}
					cols = append(cols, p.Column)
				}
				out = append(out, Object{ObjectRef: compiler.ObjectRef{Table: t.Name, Kind: compiler.KindIndex, Name: idx.Overrides.NameIn(d, idx.Name)}, Model: idx.Name, Range: idx.Range, Cols: cols})
			}
		}
	}
	return out
}

// keyIndex reports whether idx is an index led by the columns of foreign
// key fk, which may carry the key's name.
func keyIndex(fk, idx Object) bool {
	if fk.Kind != compiler.KindForeignKey || idx.Kind != compiler.KindIndex || len(fk.Cols) == 0 || len(idx.Cols) < len(fk.Cols) {
		return false
	}
	return slices.Equal(idx.Cols[:len(fk.Cols)], fk.Cols)
}

// clashes reports whether a and b must have different names under ns.
func clashes(ns []compiler.NameScope, a, b Object) bool {
	for _, n := range ns {
		if !n.Has(a.Kind) || !n.Has(b.Kind) {
			continue
		}
		if !n.PerTable || a.Table == b.Table {
			return true
		}
	}
	return false
}

// Reporter records a dialect's diagnostics (sqltext.Recorder does).
type Reporter interface {
	Errorf(rng hcl.Range, summary, format string, args ...any)
}

// abouter is a Reporter that names the subject of the errors that follow
// (sqltext.Recorder).
type abouter interface {
	About(table string, kind compiler.ObjectKind, name string)
	Forget()
}

// Names checks the identifiers of s against dialect d's rules: length,
// trailing spaces, the dialect's identifier quote, and every name scope, with names compared as d compares
// them. Clashes the compiler already reports are left to it.
func Names(s *compiler.Schema, d string, r *dialects.Rules, rep Reporter) {
	objs := Objects(s, d)
	for _, o := range objs {
		n, unit := utf8.RuneCountInString(o.Name), "characters"
		if r.IdentBytes {
			n, unit = len(o.Name), "bytes"
		}
		if r.MaxIdent > 0 && n > r.MaxIdent {
			rep.Errorf(o.Range, "Identifier too long", "The %s name %q is %d %s; %s allows at most %d. Use a shorter name.", o.Kind, o.Name, n, unit, r.Product, r.MaxIdent)
		}
		if r.IdentQuote != 0 && strings.IndexByte(o.Name, r.IdentQuote) >= 0 {
			// Atlas (v1.2.3) writes names between the dialect's quotes
			// without doubling one inside, in the statements it plans
			// and the queries it inspects with: no migration could name
			// this object (issue 29).
			rep.Errorf(o.Range, "Quote in a name", "The %s name %q holds %c, the character %s quotes names with, which schemagen's migrations (planned with Atlas) cannot write inside a name. Rename it without %c.", o.Kind, o.Name, r.IdentQuote, r.Product, r.IdentQuote)
		}
		if !r.TrailingSpace && strings.TrimRight(o.Name, " ") != o.Name {
			rep.Errorf(o.Range, "Name ends in a space", "The %s name %q ends in a space, which %s does not allow in names. Remove the trailing space.", o.Kind, o.Name, r.Product)
		}
	}
	for _, ns := range r.Namespaces {
		// Objects by scope (table or schema) and folded name.
		seen := map[[2]string]Object{}
		for _, o := range objs {
			if !ns.Has(o.Kind) {
				continue
			}
			scope := ""
			if ns.PerTable {
				scope = o.Table
			}
			key := [2]string{r.Fold(scope), r.Fold(o.Name)}
			prev, dup := seen[key]
			if !dup {
				seen[key] = o
				continue
			}
			if prev.Name == o.Name && clashes(compiler.NameScopes, prev, o) {
				continue // the compiler reports it
			}
			if r.FKIndexName && prev.Table == o.Table && (keyIndex(prev, o) || keyIndex(o, prev)) {
				continue
			}
			where := ""
			if prev.Kind != compiler.KindTable {
				where = fmt.Sprintf(" of table %q", prev.Table)
			}
			same := "the same name"
			if prev.Name != o.Name {
				same = "names that differ only in letter case, which " + r.Product + " treats as the same name"
			}
			if ab, ok := rep.(abouter); ok && o.Model != "" {
				// The later object is the error's subject (import renames it).
				ab.About(o.Table, o.Kind, o.Model)
			}
			rep.Errorf(o.Range, "Duplicate name", "The %s name %q is already used by the %s %q%s at %s: %s gives them %s (%s). Rename one of them.", o.Kind, o.Name, prev.Kind, prev.Name, where, prev.Range, r.Product, same, ns.Why)
			if ab, ok := rep.(abouter); ok {
				ab.Forget()
			}
		}
	}
	for _, t := range s.Tables {
		if t.Overrides.Skipped(d) || len(t.Columns) == 0 {
			continue
		}
		kept := 0
		for _, c := range t.Columns {
			if !c.Overrides.Skipped(d) {
				kept++
			}
		}
		if kept == 0 {
			rep.Errorf(t.Range, "Table without columns", "Every column of table %q is left out of %s, which would create a table without columns. Keep a column there, or leave the table out: %s { skip = true }.", t.Name, r.Product, d)
		}
	}
}

// Indexes checks index methods and operator classes against d's rules.
func Indexes(s *compiler.Schema, d string, r *dialects.Rules, rep Reporter) {
	if r.IndexMethods == nil && r.OpClasses == nil {
		return
	}
	for _, t := range s.Tables {
		if t.Overrides.Skipped(d) {
			continue
		}
		for _, idx := range t.Indexes {
			if idx.Overrides.Skipped(d) || idx.Overrides.For(d) != nil && idx.Overrides.For(d).SQL != "" {
				continue
			}
			// The index is the subject of what follows (import keeps or
			// leaves out the object a dialect refuses).
			if ab, ok := rep.(abouter); ok {
				ab.About(t.Name, compiler.KindIndex, idx.Name)
			}
			if m := strings.ToLower(idx.Method()); m != "" && r.IndexMethods != nil {
				switch {
				case !slices.Contains(r.IndexMethods, m):
					rep.Errorf(idx.Range, "Unknown index method", "Index %q uses %q, which is not an index method of %s; use one of %s, or give raw SQL: %s { sql = \"CREATE INDEX ...\" }.", idx.Name, idx.Method(), r.Product, strings.Join(r.IndexMethods, ", "), d)
				case idx.Unique && !slices.Contains(r.UniqueMethods, m):
					rep.Errorf(idx.Range, "Unique index method", "Unique index %q uses %q, but %s builds unique indexes only with %s. Remove using, or make the index not unique.", idx.Name, idx.Method(), r.Product, strings.Join(r.UniqueMethods, ", "))
				case len(idx.Parts) > 1 && slices.Contains(r.SingleColumnMethods, m):
					rep.Errorf(idx.Range, "Index method with one key part", "Index %q uses %q, which on %s indexes one key part, but it has %d. Remove using, or split the index.", idx.Name, idx.Method(), r.Product, len(idx.Parts))
				}
			}
			if types, ok := r.MethodTypes[strings.ToLower(idx.Method())]; ok {
				for _, p := range idx.Parts {
					if p.OpClass() != "" {
						continue
					}
					c := t.Column(p.Column)
					if p.Expr == nil && c != nil && (slices.Contains(types, c.Type.Name()) || c.Overrides.For(d) != nil && c.Overrides.For(d).RawType != "") {
						continue
					}
					what := "this expression"
					if p.Expr == nil {
						what = fmt.Sprintf("column %s (%s)", p.Column, typeName(c))
					}
					rep.Errorf(p.Range, "No operator class", "Index %q uses %q, which has no default operator class for %s on %s. Give an opclass, or use another method.", idx.Name, idx.Method(), what, r.Product)
				}
			}
			if r.OpClasses == nil {
				continue
			}
			for _, p := range idx.Parts {
				if p.OpClass() != "" && !slices.Contains(r.OpClasses, strings.ToLower(p.OpClass())) {
					rep.Errorf(p.Range, "Unknown operator class", "Operator class %q of index %q is not one %s knows (%s); for another operator class give raw SQL: %s { sql = \"CREATE INDEX ...\" }.", p.OpClass(), idx.Name, r.Product, strings.Join(r.OpClasses, ", "), d)
				}
			}
		}
	}
	if ab, ok := rep.(abouter); ok {
		ab.Forget()
	}
}

// Types checks the column types against d's limits (char length, decimal
// precision and scale), each column with the type it has in d.
func Types(s *compiler.Schema, d string, r *dialects.Rules, rep Reporter) {
	if r.MaxCharLength == 0 && r.MaxVarcharLength == 0 && r.MaxDecimalPrecision == 0 && r.MaxDecimalScale == 0 {
		return
	}
	for _, t := range s.Tables {
		if t.Overrides.Skipped(d) {
			continue
		}
		for _, c := range t.Columns {
			typ, rng := c.Type, c.TypeRange
			if o := c.Overrides.For(d); o != nil {
				switch {
				case o.Skip || o.RawType != "":
					continue
				case o.Type != nil:
					typ, rng = *o.Type, o.Range
				}
			}
			if msg := typeLimit(typ, r); msg != "" {
				rep.Errorf(rng, "Invalid column type", "%s", msg)
			}
		}
	}
}

func typeLimit(t compiler.Type, r *dialects.Rules) string {
	switch {
	case len(t.Args) == 0:
	case t.Kind == compiler.TypeChar && r.MaxCharLength > 0 && t.Args[0] > r.MaxCharLength:
		return fmt.Sprintf("The length of char is at most %d (%s); use varchar(n) or text.", r.MaxCharLength, r.Limit("char"))
	case t.Kind == compiler.TypeVarchar && r.MaxVarcharLength > 0 && t.Args[0] > r.MaxVarcharLength:
		return fmt.Sprintf("The length of varchar is at most %d characters (%s); use text.", r.MaxVarcharLength, r.Limit("varchar"))
	case t.Kind == compiler.TypeDecimal && r.MaxDecimalPrecision > 0 && t.Args[0] > r.MaxDecimalPrecision:
		return fmt.Sprintf("The precision of decimal must be between 1 and %d (%s).", r.MaxDecimalPrecision, r.Limit("decimal precision"))
	case t.Kind == compiler.TypeDecimal && len(t.Args) > 1 && r.MaxDecimalScale > 0 && t.Args[1] > r.MaxDecimalScale:
		return fmt.Sprintf("The scale of decimal must not exceed its precision or %d (%s).", r.MaxDecimalScale, r.Limit("decimal scale"))
	}
	return ""
}

func typeName(c *compiler.Column) string {
	if c == nil {
		return "unknown"
	}
	return c.Type.String()
}

// Limits checks what of s is bounded by d's limits before any SQL exists:
// comment lengths and the columns of every key (primary, unique, index,
// foreign key).
func Limits(s *compiler.Schema, d string, r *dialects.Rules, rep Reporter) {
	length := func(c string) (int, string) {
		if r.CommentBytes {
			return len(c), "bytes"
		}
		return utf8.RuneCountInString(c), "characters"
	}
	parts := func(rng hcl.Range, what string, n int) {
		if r.MaxKeyParts > 0 && n > r.MaxKeyParts {
			rep.Errorf(rng, "Too many key parts", "The %s has %d key parts; %s allows at most %d in one key (%s). Use fewer columns.", what, n, r.Product, r.MaxKeyParts, r.Limit("key parts"))
		}
	}
	for _, t := range s.Tables {
		if t.Overrides.Skipped(d) {
			continue
		}
		if n, unit := length(t.Comment); r.MaxTableComment > 0 && n > r.MaxTableComment {
			rep.Errorf(t.Range, "Comment too long", "The comment of table %q is %d %s; %s allows at most %d (%s). Shorten it.", t.Name, n, unit, r.Product, r.MaxTableComment, r.Limit("table comment"))
		}
		for _, c := range t.Columns {
			if c.Overrides.Skipped(d) {
				continue
			}
			if id := c.Identity; id != nil && r.MaxBigintIdentity > 0 && c.Type.Kind == compiler.TypeBigint && id.Start > r.MaxBigintIdentity {
				rep.Errorf(id.Range, "Invalid identity", "The identity of %s.%s starts at %d; %s gives a bigint identity at most %d (%s). Start lower.", t.Name, c.Name, id.Start, r.Product, r.MaxBigintIdentity, r.Limit("identity"))
			}
			if n, unit := length(c.Comment); r.MaxColumnComment > 0 && n > r.MaxColumnComment {
				rep.Errorf(c.Range, "Comment too long", "The comment of column %s.%s is %d %s; %s allows at most %d (%s). Shorten it.", t.Name, c.Name, n, unit, r.Product, r.MaxColumnComment, r.Limit("column comment"))
			}
		}
		if pk := t.PrimaryKey; pk != nil {
			parts(pk.Range, fmt.Sprintf("primary key of table %q", t.Name), len(pk.Columns))
		}
		for _, u := range t.Uniques {
			if !u.Overrides.Skipped(d) {
				parts(u.Range, fmt.Sprintf("unique constraint %q", u.Name), len(u.Columns))
			}
		}
		for _, idx := range t.Indexes {
			if !idx.Overrides.Skipped(d) && (idx.Overrides.For(d) == nil || idx.Overrides.For(d).SQL == "") {
				parts(idx.Range, fmt.Sprintf("index %q", idx.Name), len(idx.Parts))
				if n, unit := length(idx.Comment); r.MaxIndexComment > 0 && n > r.MaxIndexComment {
					rep.Errorf(idx.Range, "Comment too long", "The comment of index %q is %d %s; %s allows at most %d (%s). Shorten it.", idx.Name, n, unit, r.Product, r.MaxIndexComment, r.Limit("index comment"))
				}
			}
		}
		for _, fk := range t.ForeignKeys {
			if !fk.Overrides.Skipped(d) {
				parts(fk.Range, fmt.Sprintf("foreign key %q", fk.Name), len(fk.Columns))
			}
		}
	}
}

// Sizes checks a table as dialect d creates it: its columns (generated ones
// the dialect adds included) and its indexes, counted as the database
// counts them (see dialects.Rules).
func Sizes(t *compiler.Table, d string, r *dialects.Rules, columns, indexes int, rep Reporter) {
	if r.MaxColumns > 0 && columns > r.MaxColumns {
		rep.Errorf(t.Range, "Too many columns", "Table %q has %d columns on %s (with the generated columns schemagen adds there); %s allows at most %d (%s). Split the table.", t.Name, columns, r.Product, r.Product, r.MaxColumns, r.Limit("columns"))
	}
	if r.MaxIndexes > 0 && indexes > r.MaxIndexes {
		rep.Errorf(t.Range, "Too many indexes", "Table %q has %d indexes on %s (its unique constraints, foreign keys' indexes and non-integer primary key included); %s allows at most %d (%s). Drop some, or leave some out of %s: %s { skip = true }.", t.Name, indexes, r.Product, r.Product, r.MaxIndexes, r.Limit("indexes"), r.Product, d)
	}
}

// IndexCount is the number of indexes the database keeps for table t in
// dialect d, as its limit counts them.
func indexCount(t *compiler.Table, d string, r *dialects.Rules) int {
	n := 0
	var leads [][]string
	if pk := t.PrimaryKey; pk != nil {
		leads = append(leads, pk.Columns)
		if !r.IntHandle || len(pk.Columns) != 1 || !integer(t.Column(pk.Columns[0]), d) {
			n++
		}
	}
	for _, u := range t.Uniques {
		if !u.Overrides.Skipped(d) {
			n++
			leads = append(leads, u.Columns)
		}
	}
	for _, idx := range t.Indexes {
		if idx.Overrides.Skipped(d) {
			continue
		}
		n++
		var cols []string
		for _, p := range idx.Parts {
			if p.Expr != nil {
				break
			}
			cols = append(cols, p.Column)
		}
		if idx.Where == nil || !idx.Unique {
			leads = append(leads, cols)
		}
	}
	if r.FKIndexes {
		for _, fk := range t.ForeignKeys {
			if fk.Overrides.Skipped(d) {
				continue
			}
			if !slices.ContainsFunc(leads, func(l []string) bool {
				return len(l) >= len(fk.Columns) && slices.Equal(l[:len(fk.Columns)], fk.Columns)
			}) {
				n++
				leads = append(leads, fk.Columns)
			}
		}
	}
	return n
}

func integer(c *compiler.Column, d string) bool {
	if c == nil {
		return false
	}
	typ := c.Type
	if o := c.Overrides.For(d); o != nil {
		if o.RawType != "" {
			return false
		}
		if o.Type != nil {
			typ = *o.Type
		}
	}
	return typ.Kind == compiler.TypeSmallint || typ.Kind == compiler.TypeInt || typ.Kind == compiler.TypeBigint
}

// Tables checks every table of a lowered script with Sizes.
func Tables(s *compiler.Schema, d string, r *dialects.Rules, sc *sqltext.Script, rep Reporter) {
	for _, lt := range sc.Tables {
		if t := s.Table(lt.Name); t != nil {
			Sizes(t, d, r, len(lt.Columns), indexCount(t, d, r), rep)
		}
	}
}

// ForeignKeyTarget finds the key of the referenced table that foreign key
// fk uses in dialect d. With FKLeadingIndex (TiDB) that is an index led by
// the referenced columns in the key's order; when only another order of
// them leads one, order is the order of fk's column pairs that matches it
// (the same key, its pairs written in another order). Otherwise it is a
// primary key, unique constraint or unique index without a predicate over
// exactly those columns, in any order. ok is false when the dialect keeps
// no such key (the model leaves it out there).
func ForeignKeyTarget(s *compiler.Schema, d string, r *dialects.Rules, fk *compiler.ForeignKey) (order []int, ok bool) {
	ref := s.Table(fk.RefTable)
	if ref == nil {
		return nil, true
	}
	type key struct {
		cols   []string
		unique bool
	}
	var keys []key
	if pk := ref.PrimaryKey; pk != nil {
		keys = append(keys, key{pk.Columns, true})
	}
	for _, u := range ref.Uniques {
		if !u.Overrides.Skipped(d) {
			keys = append(keys, key{u.Columns, true})
		}
	}
	for _, idx := range ref.Indexes {
		if idx.Overrides.Skipped(d) {
			continue
		}
		if o := idx.Overrides.For(d); o != nil && o.SQL != "" {
			// A raw statement: its columns are the team's; trust it.
			return nil, true
		}
		if r.FKLeadingIndex && idx.Unique && idx.Where != nil {
			continue // TiDB keys it by generated columns
		}
		var cols []string
		for _, p := range idx.Parts {
			if p.Expr != nil {
				break
			}
			cols = append(cols, p.Column)
		}
		keys = append(keys, key{cols, idx.Unique && idx.Where == nil})
	}
	sameSet := func(a, b []string) bool {
		if len(a) != len(b) {
			return false
		}
		for _, x := range a {
			if !slices.Contains(b, x) {
				return false
			}
		}
		return true
	}
	n := len(fk.RefColumns)
	if !r.FKLeadingIndex {
		for _, k := range keys {
			if k.unique && sameSet(k.cols, fk.RefColumns) {
				return nil, true
			}
		}
		return nil, false
	}
	for _, k := range keys {
		if len(k.cols) >= n && slices.Equal(k.cols[:n], fk.RefColumns) {
			return nil, true
		}
	}
	for _, k := range keys {
		if len(k.cols) >= n && sameSet(k.cols[:n], fk.RefColumns) {
			for _, c := range k.cols[:n] {
				order = append(order, slices.Index(fk.RefColumns, c))
			}
			return order, true
		}
	}
	return nil, false
}
