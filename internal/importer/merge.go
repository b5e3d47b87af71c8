package importer

import (
	"fmt"
	"slices"
	"strings"

	"github.com/hashicorp/hcl/v2"

	"github.com/schemagen/schemagen/compiler"
	"github.com/schemagen/schemagen/compiler/expr"
	"github.com/schemagen/schemagen/dialects/all"
)

var dialectByName = all.Get

// Result is the model an import builds, with what a reviewer must know.
type Result struct {
	Schema *compiler.Schema
	// Summary lists the differences between the dialects and what was kept
	// as a dialect's own SQL, one line each.
	Summary []string
	// Notes are written above the tables they name.
	Notes map[string][]string
}

// Single turns one database's model into the result: objects kept as its
// dialect's own SQL are left out of the other dialects.
func Single(im *Imported, all []string) *Result {
	r := &Result{Schema: im.Schema, Notes: im.Notes}
	d := im.Dialect.Name()
	for _, t := range im.Schema.Tables {
		for _, c := range t.Checks {
			if c.Expr == nil {
				skipOthers(c.Overrides, d, all)
			}
		}
		for _, idx := range t.Indexes {
			if len(idx.Parts) == 0 {
				skipOthers(idx.Overrides, d, all)
			}
		}
	}
	for _, o := range all {
		if o != d {
			leaveOutRefused(im, all, o)
		}
	}
	for table, notes := range im.Notes {
		for _, n := range notes {
			r.Summary = append(r.Summary, table+": "+n)
		}
	}
	slices.Sort(r.Summary)
	return r
}

// leaveOutRefused leaves out of dialect o the indexes and checks that o
// cannot keep the meaning of (a partial unique index, a key on a type o
// cannot index, a CHECK o forbids beside a foreign key), each with a note:
// they exist in the database read, and stay in its dialect.
func leaveOutRefused(im *Imported, all []string, o string) {
	base := refusals(im.Schema, all, o)
	if len(base) == 0 {
		return
	}
	try := func(table string, ov compiler.Overrides, what string) {
		if ov[o] != nil {
			return
		}
		ov[o] = &compiler.Override{Dialect: o, Skip: true}
		now := refusals(im.Schema, all, o)
		var gone []string
		for _, e := range base {
			if !slices.Contains(now, e) {
				gone = append(gone, e)
			}
		}
		if len(gone) == 0 {
			delete(ov, o)
			return
		}
		base = now
		im.note(table, "%s: left out of %s, which refuses it: %s", what, o, strings.Join(gone, "; "))
	}
	for _, t := range im.Schema.Tables {
		for _, idx := range t.Indexes {
			try(t.Name, idx.Overrides, "index "+idx.Name)
		}
		for _, c := range t.Checks {
			try(t.Name, c.Overrides, "check "+c.Name)
		}
	}
}

// refusals compiles the model as written for dialect o and returns its
// errors' texts.
func refusals(s *compiler.Schema, all []string, o string) []string {
	loaded, diags := compiler.LoadSource(compiler.Options{Dialects: all}, "import.hcl", compiler.Write(s, nil))
	if diags.HasErrors() {
		return nil
	}
	d := dialectByName(o)
	if d == nil {
		return nil
	}
	_, diags = d.Generate(loaded)
	var out []string
	for _, e := range diags.Errs() {
		if hd, ok := e.(*hcl.Diagnostic); ok {
			out = append(out, hd.Summary+": "+hd.Detail)
		} else {
			out = append(out, e.Error())
		}
	}
	return out
}

func skipOthers(o compiler.Overrides, keep string, all []string) {
	for _, d := range all {
		if d != keep && o[d] == nil {
			o[d] = &compiler.Override{Dialect: d, Skip: true}
		}
	}
}

// Merge builds one model from the models of the same application in two
// dialects: what means the same in both is neutral (in a's terms where they
// differ), each real difference becomes an override of b's dialect or an
// object left out of one of them, and is listed in the summary.
func Merge(a, b *Imported) *Result {
	da, db := a.Dialect.Name(), b.Dialect.Name()
	r := &Result{Schema: &compiler.Schema{Dialect: map[string]*compiler.DialectSettings{}}, Notes: map[string][]string{}}
	say := func(format string, args ...any) { r.Summary = append(r.Summary, fmt.Sprintf(format, args...)) }
	for _, im := range []*Imported{a, b} {
		for table, notes := range im.Notes {
			for _, n := range notes {
				r.Notes[table] = append(r.Notes[table], n)
				say("%s: %s", table, n)
			}
		}
	}
	bt := map[string]*compiler.Table{}
	for _, t := range b.Schema.Tables {
		bt[t.Name] = t
	}
	for _, ta := range a.Schema.Tables {
		tb := bt[ta.Name]
		delete(bt, ta.Name)
		if tb == nil {
			ta.Overrides[db] = &compiler.Override{Dialect: db, Skip: true}
			say("table %s exists only on %s", ta.Name, da)
			r.Schema.Tables = append(r.Schema.Tables, ta)
			continue
		}
		r.Schema.Tables = append(r.Schema.Tables, mergeTable(ta, tb, da, db, say))
	}
	for _, t := range b.Schema.Tables {
		if bt[t.Name] != nil {
			t.Overrides[da] = &compiler.Override{Dialect: da, Skip: true}
			say("table %s exists only on %s", t.Name, db)
			r.Schema.Tables = append(r.Schema.Tables, t)
		}
	}
	slices.Sort(r.Summary)
	return r
}

func mergeTable(ta, tb *compiler.Table, da, db string, say func(string, ...any)) *compiler.Table {
	t := ta
	// Columns.
	bc := map[string]*compiler.Column{}
	for _, c := range tb.Columns {
		bc[c.Name] = c
	}
	for _, ca := range ta.Columns {
		cb := bc[ca.Name]
		delete(bc, ca.Name)
		if cb == nil {
			ca.Overrides[db] = &compiler.Override{Dialect: db, Skip: true}
			say("column %s.%s exists only on %s", t.Name, ca.Name, da)
			continue
		}
		mergeColumn(t.Name, ca, cb, da, db, say)
	}
	for _, c := range tb.Columns {
		if bc[c.Name] != nil {
			c.Overrides[da] = &compiler.Override{Dialect: da, Skip: true}
			say("column %s.%s exists only on %s", t.Name, c.Name, db)
			t.Columns = append(t.Columns, c)
		}
	}
	if !samePK(ta.PrimaryKey, tb.PrimaryKey) {
		say("the primary key of %s differs between %s and %s; %s's is kept", t.Name, da, db, da)
	}
	// Unique constraints: TiDB reports them as unique indexes.
	for _, u := range ta.Uniques {
		if i := slices.IndexFunc(tb.Indexes, func(x *compiler.Index) bool { return x.Name == u.Name }); i >= 0 {
			tb.Indexes = slices.Delete(tb.Indexes, i, i+1)
		} else if i := slices.IndexFunc(tb.Uniques, func(x *compiler.Unique) bool { return x.Name == u.Name }); i >= 0 {
			tb.Uniques = slices.Delete(tb.Uniques, i, i+1)
		} else {
			say("unique constraint %s of %s exists only on %s", u.Name, t.Name, da)
		}
	}
	for _, u := range tb.Uniques {
		t.Uniques = append(t.Uniques, u)
		say("unique constraint %s of %s exists only on %s; kept for both", u.Name, t.Name, db)
	}
	// Checks.
	for _, ca := range ta.Checks {
		i := slices.IndexFunc(tb.Checks, func(x *compiler.Check) bool { return x.Name == ca.Name })
		if i < 0 {
			ca.Overrides[db] = &compiler.Override{Dialect: db, Skip: true}
			say("check %s of %s exists only on %s", ca.Name, t.Name, da)
			continue
		}
		cb := tb.Checks[i]
		tb.Checks = slices.Delete(tb.Checks, i, i+1)
		switch {
		case ca.Expr != nil && cb.Expr != nil && expr.String(ca.Expr) == expr.String(cb.Expr):
			if ob := cb.Overrides[db]; ob != nil {
				// b's database keeps its own text of the same expression.
				ca.Overrides[db] = ob
			}
		case cb.Expr == nil:
			ca.Overrides[db] = cb.Overrides[db]
		case ca.Expr == nil:
			ca.Expr, ca.Overrides[da] = cb.Expr, ca.Overrides[da]
		default:
			// The database's own text of b's expression, as b's override.
			ca.Overrides[db] = &compiler.Override{Dialect: db, Expr: cb.Source}
			say("check %s of %s is %s on %s and %s on %s; %s's is kept neutral, %s's as its override", ca.Name, t.Name, expr.String(ca.Expr), da, expr.String(cb.Expr), db, da, db)
		}
	}
	for _, c := range tb.Checks {
		c.Overrides[da] = &compiler.Override{Dialect: da, Skip: true}
		say("check %s of %s exists only on %s", c.Name, t.Name, db)
		t.Checks = append(t.Checks, c)
	}
	// Foreign keys.
	for _, fa := range ta.ForeignKeys {
		if !slices.ContainsFunc(tb.ForeignKeys, func(x *compiler.ForeignKey) bool { return x.Name == fa.Name }) {
			say("foreign key %s of %s exists only on %s; kept for both", fa.Name, t.Name, da)
		}
	}
	for _, fb := range tb.ForeignKeys {
		if !slices.ContainsFunc(ta.ForeignKeys, func(x *compiler.ForeignKey) bool { return x.Name == fb.Name }) {
			t.ForeignKeys = append(t.ForeignKeys, fb)
			say("foreign key %s of %s exists only on %s; kept for both", fb.Name, t.Name, db)
		}
	}
	// Indexes.
	for _, ia := range ta.Indexes {
		i := slices.IndexFunc(tb.Indexes, func(x *compiler.Index) bool { return x.Name == ia.Name })
		if i < 0 {
			ia.Overrides[db] = &compiler.Override{Dialect: db, Skip: true}
			say("index %s of %s exists only on %s", ia.Name, t.Name, da)
			continue
		}
		ib := tb.Indexes[i]
		tb.Indexes = slices.Delete(tb.Indexes, i, i+1)
		if ob := ib.Overrides[db]; ob != nil {
			ia.Overrides[db] = ob
		}
		if len(ia.Parts) == 0 && len(ib.Parts) > 0 {
			// a kept its own statement: b's readable form is the neutral one.
			ia.Parts, ia.Unique, ia.Where, ia.Using = ib.Parts, ib.Unique, ib.Where, ib.Using
			continue
		}
		if !sameParts(ia, ib) || ia.Unique != ib.Unique {
			say("index %s of %s differs between %s and %s; %s's is kept", ia.Name, t.Name, da, db, da)
		}
	}
	for _, ib := range tb.Indexes {
		ib.Overrides[da] = &compiler.Override{Dialect: da, Skip: true}
		say("index %s of %s exists only on %s", ib.Name, t.Name, db)
		t.Indexes = append(t.Indexes, ib)
	}
	return t
}

func mergeColumn(table string, ca, cb *compiler.Column, da, db string, say func(string, ...any)) {
	oa, ob := ca.Overrides[da], cb.Overrides[db]
	switch {
	case ob != nil && ob.RawType != "":
		ca.Overrides[db] = &compiler.Override{Dialect: db, RawType: ob.RawType}
		if oa == nil || oa.RawType == "" {
			say("column %s.%s is %s on %s and %s on %s", table, ca.Name, ca.Type, da, ob.RawType, db)
		}
	case oa != nil && oa.RawType != "":
		ca.Type = cb.Type
		say("column %s.%s is %s on %s and %s on %s", table, ca.Name, oa.RawType, da, cb.Type, db)
	case ca.Type.Kind != cb.Type.Kind || !slices.Equal(ca.Type.Args, cb.Type.Args):
		nt := cb.Type
		ca.Overrides[db] = &compiler.Override{Dialect: db, Type: &nt}
		say("column %s.%s is %s on %s and %s on %s", table, ca.Name, ca.Type, da, cb.Type, db)
	}
	if ca.Null != cb.Null {
		say("column %s.%s is nullable on one dialect only; %s's nullability is kept", table, ca.Name, da)
	}
	if (ca.Default == nil) != (cb.Default == nil) || ca.Default != nil && *ca.Default != *cb.Default {
		say("column %s.%s has different defaults on %s and %s; %s's is kept", table, ca.Name, da, db, da)
	}
	if ob != nil && ob.Default != "" {
		o := ca.Overrides[db]
		if o == nil {
			o = &compiler.Override{Dialect: db}
			ca.Overrides[db] = o
		}
		o.Default = ob.Default
	}
	if ca.Comment == "" {
		ca.Comment = cb.Comment
	}
}

func samePK(a, b *compiler.PrimaryKey) bool {
	if a == nil || b == nil {
		return a == b
	}
	return slices.Equal(a.Columns, b.Columns)
}

func sameParts(a, b *compiler.Index) bool {
	if len(a.Parts) != len(b.Parts) {
		return false
	}
	for i := range a.Parts {
		pa, pb := a.Parts[i], b.Parts[i]
		if pa.Column != pb.Column || pa.Desc != pb.Desc || (pa.Expr == nil) != (pb.Expr == nil) || pa.Expr != nil && expr.String(pa.Expr) != expr.String(pb.Expr) {
			return false
		}
	}
	return true
}
