package importer

import (
	"errors"
	"fmt"
	"maps"
	"slices"
	"strconv"
	"strings"
	"sync"

	"github.com/hashicorp/hcl/v2"

	"github.com/schemagen/schemagen/compiler"
	"github.com/schemagen/schemagen/compiler/expr"
	"github.com/schemagen/schemagen/compiler/expr/render"
	"github.com/schemagen/schemagen/compiler/load"
	"github.com/schemagen/schemagen/dialects"
	"github.com/schemagen/schemagen/dialects/all"
	"github.com/schemagen/schemagen/internal/gen"
	"github.com/schemagen/schemagen/internal/importer/read"
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
	// source and compiled are the written model and its compilation, from
	// the last pass of settle (see Written).
	source   []byte
	compiled *gen.Result
	// reads are the databases read, by dialect: the statements of what
	// they hold that a dialect's rule would refuse.
	reads map[string]*read.Imported
}

// Single turns one database's model into the result: objects kept as its
// dialect's own SQL are left out of the other dialects.
func Single(im *read.Imported, all []string) *Result {
	r := &Result{Schema: im.Schema, Notes: im.Notes, reads: map[string]*read.Imported{im.Dialect.Name(): im}}
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
	for table, notes := range im.Notes {
		for _, n := range notes {
			r.Summary = append(r.Summary, line(table, n))
		}
	}
	for _, t := range im.Schema.Tables {
		r.keyTypes(t, d, all)
		r.valueRanges(im, t)
	}
	// Every object came from d: any may be renamed.
	r.distinctNames(d, nil)
	r.inferSettings(im)
	r.settle(all)
	slices.Sort(r.Summary)
	return r
}

// settle leaves out of each dialect the objects that the dialect refuses
// (a partial unique index, a key on a type it cannot index, a CHECK it
// forbids beside a foreign key), each with a note: they exist in a database
// read, and stay where they are accepted. Each refusal names the object it
// is about, so one compilation finds them all; a second one confirms, since
// leaving an object out can only uncover refusals of what used it.
//
// Each pass compiles the file as Written gives it, which the last pass
// keeps: a caller does not write and compile the model once more.
func (r *Result) settle(all []string) {
	r.source, r.compiled = nil, nil
	for range 5 {
		src := compiler.Write(r.Schema, r.Notes)
		s, diags := load.Source(load.Options{Dialects: all}, writtenName, src)
		if diags.HasErrors() {
			// The model's own rules refuse an object in every dialect:
			// leave it out of the model, and compile again.
			changed := false
			for _, e := range diags.Errs() {
				var d *hcl.Diagnostic
				if errors.As(e, &d) {
					if subj, ok := compiler.RefOf(d); ok && r.drop(subj, d.Summary+": "+d.Detail) {
						changed = true
					}
				}
			}
			if !changed {
				if sameNames(all) {
					r.source, r.compiled = src, gen.Lower(s, diags)
				}
				return
			}
			continue
		}
		// Dialects only read the model: they lower it side by side.
		perDialect := make([]hcl.Diagnostics, len(all))
		outs := make([]*dialects.Output, len(all))
		var wg sync.WaitGroup
		for i, d := range all {
			if dl := dialectByName(d); dl != nil {
				wg.Go(func() { outs[i], perDialect[i] = dl.Generate(s) })
			}
		}
		wg.Wait()
		changed := false
		for i, d := range all {
			for _, e := range perDialect[i] {
				if e.Severity != hcl.DiagError {
					continue
				}
				subj, ok := compiler.RefOf(e)
				if !ok {
					continue
				}
				if strings.HasPrefix(e.Summary, "Duplicate name") && r.renameIn(d, subj, e.Detail) || r.leaveOut(d, subj, e.Summary+": "+e.Detail) {
					changed = true
				}
			}
		}
		if !changed {
			if sameNames(all) {
				// In the order of the registered dialects, as gen lowers.
				byName := map[string]int{}
				for i, d := range all {
					byName[d] = i
				}
				var o []*dialects.Output
				var pd []hcl.Diagnostics
				for _, d := range registered() {
					o, pd = append(o, outs[byName[d]]), append(pd, perDialect[byName[d]])
				}
				r.source, r.compiled = src, gen.Lowered(s, diags, o, pd)
			}
			return
		}
	}
}

// registered names the dialects gen compiles for (settle's parameter
// hides the package all).
var registered = all.Names

// writtenName is the file name of the model import writes, in the
// compilation's positions.
const writtenName = "imported.hcl"

// sameNames reports whether names are the registered dialects' names, each
// once: the compilation gen makes of the written model.
func sameNames(names []string) bool {
	a, b := slices.Clone(names), registered()
	slices.Sort(a)
	slices.Sort(b)
	return slices.Equal(a, b)
}

// Written returns the model as the file to write, with its notes as
// comments, and that file compiled as gen compiles it: what import's last
// compilation made, else made now.
func (r *Result) Written() ([]byte, *gen.Result) {
	if r.source != nil {
		return r.source, r.compiled
	}
	src := compiler.Write(r.Schema, r.Notes)
	return src, gen.CompileSource(writtenName, src)
}

// deleteNamed removes from *xs the objects named name and returns how many.
func deleteNamed[T any](xs *[]T, name string, nameOf func(T) string) int {
	n := len(*xs)
	*xs = slices.DeleteFunc(*xs, func(x T) bool { return nameOf(x) == name })
	return n - len(*xs)
}

// drop leaves the object subj out of the model, which refuses it in every
// dialect, with a note; it reports whether it did.
func (r *Result) drop(subj compiler.ObjectRef, why string) bool {
	t := r.Schema.Table(subj.Table)
	if t == nil {
		return false
	}
	n := 0
	// The names the dialects know the object by, where other than the
	// model's, for the note.
	ov := overridesOf(t, subj.Kind, subj.Name)
	var own []string
	for _, d := range slices.Sorted(maps.Keys(ov)) {
		if o := ov[d]; o != nil && o.Name != "" && o.Name != subj.Name {
			own = append(own, o.Name+" on "+d)
		}
	}
	switch subj.Kind {
	case compiler.KindTable:
		n = len(r.Schema.Tables)
		r.Schema.Tables = slices.DeleteFunc(r.Schema.Tables, func(x *compiler.Table) bool { return x == t })
		n -= len(r.Schema.Tables)
		if n > 0 {
			// The table's notes have no table to be written above.
			r.note("", "table %s: left out, which the model refuses: %s", t.Name, why)
			return true
		}
	case compiler.KindColumn:
		n = deleteNamed(&t.Columns, subj.Name, func(x *compiler.Column) string { return x.Name })
	case compiler.KindDefault:
		if c := t.Column(subj.Name); c != nil && c.Default != nil {
			c.Default, n = nil, 1
		}
	case compiler.KindIdentity:
		if c := t.Column(subj.Name); c != nil && c.Identity != nil {
			c.Identity, n = nil, 1
		}
	case compiler.KindCheck:
		n = deleteNamed(&t.Checks, subj.Name, func(x *compiler.Check) string { return x.Name })
	case compiler.KindIndex:
		n = deleteNamed(&t.Indexes, subj.Name, func(x *compiler.Index) string { return x.Name })
	case compiler.KindForeignKey:
		n = deleteNamed(&t.ForeignKeys, subj.Name, func(x *compiler.ForeignKey) string { return x.Name })
	case compiler.KindUnique:
		n = deleteNamed(&t.Uniques, subj.Name, func(x *compiler.Unique) string { return x.Name })
	}
	if n == 0 {
		return false
	}
	what := string(subj.Kind) + " " + subj.Name
	if subj.Kind == compiler.KindDefault || subj.Kind == compiler.KindIdentity {
		what = "column " + subj.Name + ": " + string(subj.Kind)
	}
	if len(own) > 0 {
		what += " (" + strings.Join(own, ", ") + ")"
	}
	r.note(t.Name, "%s: left out of the model, which refuses it: %s", what, why)
	return true
}

// renameIn gives the object subj another name in dialect d, whose names
// compare or are scoped otherwise than the model's (TiDB's compare
// case-insensitively, and its CHECK names are unique per database), where
// it clashes with another object's: its name there gets the next suffix
// that no object of d is named (settle compiles again, and renames once
// more should that clash still). It reports whether it did.
func (r *Result) renameIn(d string, subj compiler.ObjectRef, why string) bool {
	t := r.Schema.Table(subj.Table)
	if t == nil {
		return false
	}
	// Any object that has overrides: TiDB's CHECK names, unique per
	// database, clash where PostgreSQL's, per table, do not.
	ov := overridesOf(t, subj.Kind, subj.Name)
	if ov == nil || ov.Skipped(d) {
		return false
	}
	name := ov.NameIn(d, subj.Name)
	base, n := name, 2
	if i := strings.LastIndexByte(name, '_'); i > 0 {
		if k, err := strconv.Atoi(name[i+1:]); err == nil && k >= 2 && ov[d] != nil && ov[d].Name == name {
			base, n = name[:i], k+1
		}
	}
	used := r.namesIn(d)
	for used[strings.ToLower(fmt.Sprintf("%s_%d", base, n))] {
		n++
	}
	if ov[d] == nil {
		ov[d] = &compiler.Override{Dialect: d}
	}
	ov[d].Name = fmt.Sprintf("%s_%d", base, n)
	r.note(t.Name, "%s %s: named %s on %s: %s", subj.Kind, subj.Name, ov[d].Name, d, strings.TrimSuffix(why, " Rename one of them."))
	return true
}

// namesIn is the set of names, in lower case, of the tables and table
// objects of the model in dialect d.
func (r *Result) namesIn(d string) map[string]bool {
	used := map[string]bool{}
	add := func(ov compiler.Overrides, name string) { used[strings.ToLower(ov.NameIn(d, name))] = true }
	for _, t := range r.Schema.Tables {
		add(t.Overrides, t.Name)
		for _, x := range t.Uniques {
			add(x.Overrides, x.Name)
		}
		for _, x := range t.Indexes {
			add(x.Overrides, x.Name)
		}
		for _, x := range t.Checks {
			add(x.Overrides, x.Name)
		}
		for _, x := range t.ForeignKeys {
			add(x.Overrides, x.Name)
		}
	}
	return used
}

// leaveOut leaves the object subj out of dialect d, with a note, when it
// can be left out alone; it reports whether it did.
func (r *Result) leaveOut(d string, subj compiler.ObjectRef, why string) bool {
	t := r.Schema.Table(subj.Table)
	if t == nil {
		return false
	}
	var ov compiler.Overrides
	own := ""
	switch subj.Kind {
	case compiler.KindCheck:
		if i := slices.IndexFunc(t.Checks, func(c *compiler.Check) bool { return c.Name == subj.Name }); i >= 0 {
			ov = t.Checks[i].Overrides
		}
	case compiler.KindIndex:
		if i := slices.IndexFunc(t.Indexes, func(x *compiler.Index) bool { return x.Name == subj.Name }); i >= 0 {
			ov = t.Indexes[i].Overrides
		}
	case compiler.KindForeignKey:
		if i := slices.IndexFunc(t.ForeignKeys, func(x *compiler.ForeignKey) bool { return x.Name == subj.Name }); i >= 0 {
			ov = t.ForeignKeys[i].Overrides
		}
	case compiler.KindUnique:
		if i := slices.IndexFunc(t.Uniques, func(x *compiler.Unique) bool { return x.Name == subj.Name }); i >= 0 {
			ov = t.Uniques[i].Overrides
		}
	case compiler.KindTable:
		// What the dialect refuses is the table's own (its primary key):
		// the table is left out of the dialect, and what uses it then.
		if t.Overrides.Skipped(d) {
			return false
		}
		if t.Overrides == nil {
			t.Overrides = compiler.Overrides{}
		}
		t.Overrides[d] = &compiler.Override{Dialect: d, Skip: true}
		r.note(t.Name, "table %s: left out of %s, which refuses it: %s", t.Name, d, why)
		return true
	}
	if ov == nil || ov.Skipped(d) {
		return false
	}
	if n := ov.NameIn(d, subj.Name); n != subj.Name {
		own = fmt.Sprintf(" (%s there)", n)
	}
	if subj.Kind == compiler.KindIndex && ownStatement(why) && (ov[d] == nil || ov[d].SQL == "") {
		// The database holds the index, which a rule of the dialect's
		// refuses for what longer values might do: it keeps its own
		// statement, so that nothing changes there.
		if im := r.reads[d]; im != nil {
			if sql := im.IndexStatement(t.Name, ov.NameIn(d, subj.Name)); sql != "" {
				if ov[d] == nil {
					ov[d] = &compiler.Override{Dialect: d}
				}
				ov[d].SQL = sql
				r.note(t.Name, "%s %s: kept as %s's own statement, which its rule refuses: %s", subj.Kind, subj.Name, d, why)
				return true
			}
		}
	}
	ov[d] = &compiler.Override{Dialect: d, Skip: true}
	r.note(t.Name, "%s %s: left out of %s%s, which refuses it: %s", subj.Kind, subj.Name, d, own, why)
	return true
}

// ownStatement reports whether a dialect's refusal of an index (why) is
// one of its rules about what the database may not hold, which a database
// that holds the index shows it does (a key longer than a B-tree entry may
// be, a default operator class an extension gives): the index keeps the
// database's own statement there.
func ownStatement(why string) bool {
	for _, p := range []string{"Key too long", "No operator class", "Unknown operator class", "Unknown index method"} {
		if strings.HasPrefix(why, p) {
			return true
		}
	}
	return false
}

// distinctNames renames in the model the indexes and unique keys of dialect
// d alone whose names another object of the model's schema-wide name scope
// uses too (compiler.NameScopes: tables, unique keys and indexes, as
// PostgreSQL names them per schema): TiDB names indexes per table, so two
// tables may each have an index fk_1 or email, and an index may be called
// as a table. d keeps the name as its override, so that its database sees
// no rename.
func (r *Result) distinctNames(d string, others []string) {
	only := func(ov compiler.Overrides) bool {
		for _, o := range others {
			if !ov.Skipped(o) {
				return false
			}
		}
		return true
	}
	for _, ns := range compiler.NameScopes {
		if ns.PerTable || !ns.Has(compiler.KindIndex) && !ns.Has(compiler.KindUnique) {
			continue
		}
		// What is not d's alone keeps its name: tables (never renamed) and
		// the objects the other dialects have too.
		taken := map[string]bool{}
		for _, t := range r.Schema.Tables {
			if ns.Has(compiler.KindTable) {
				taken[t.Name] = true
			}
			// The objects of a table of d alone are d's alone.
			for _, u := range t.Uniques {
				if ns.Has(compiler.KindUnique) && !only(t.Overrides) && !only(u.Overrides) {
					taken[u.Name] = true
				}
			}
			for _, x := range t.Indexes {
				if ns.Has(compiler.KindIndex) && !only(t.Overrides) && !only(x.Overrides) {
					taken[x.Name] = true
				}
			}
		}
		rename := func(t *compiler.Table, name *string, ov compiler.Overrides) {
			if !taken[*name] {
				taken[*name] = true
				return
			}
			n := t.Name + "_" + *name
			for i := 2; taken[n]; i++ {
				n = fmt.Sprintf("%s_%s_%d", t.Name, *name, i)
			}
			if ov[d] == nil {
				ov[d] = &compiler.Override{Dialect: d}
			}
			if ov[d].Name == "" {
				ov[d].Name = *name
			}
			*name = n
			taken[n] = true
		}
		for _, t := range r.Schema.Tables {
			for _, u := range t.Uniques {
				if ns.Has(compiler.KindUnique) && (only(t.Overrides) || only(u.Overrides)) {
					rename(t, &u.Name, u.Overrides)
				}
			}
			for _, x := range t.Indexes {
				if ns.Has(compiler.KindIndex) && (only(t.Overrides) || only(x.Overrides)) {
					rename(t, &x.Name, x.Overrides)
				}
			}
		}
	}
}

func (r *Result) note(table, format string, args ...any) {
	n := fmt.Sprintf(format, args...)
	r.Notes[table] = append(r.Notes[table], n)
	r.Summary = append(r.Summary, line(table, n))
}

// line is a note's line of the summary: the table it is about first.
func line(table, note string) string {
	if table == "" {
		return note
	}
	return table + ": " + note
}

// rangeReader is declared in dialects, with the other parts of a dialect.
type rangeReader = dialects.RangeReader

// valueRanges gives the columns of t, read from im's dialect alone, whose
// type's range the other dialects' type does not keep, a CHECK of it there,
// so that they take the same values; the dialect's own type needs none.
func (r *Result) valueRanges(im *read.Imported, t *compiler.Table) {
	rr, ok := im.Dialect.(rangeReader)
	raw := im.Inspected()[t.Name]
	if !ok || raw == nil {
		return
	}
	d := im.Dialect.Name()
	for _, c := range raw.Columns {
		col := t.Column(c.Name)
		text := rr.ValueRange(c)
		if col == nil || text == "" || col.Overrides[d] == nil || col.Overrides[d].RawType == "" || col.Generated != nil {
			continue
		}
		n, err := expr.Parse(text)
		if err != nil {
			continue
		}
		name := t.Name + "_" + c.Name + "_range"
		if slices.ContainsFunc(t.Checks, func(x *compiler.Check) bool { return x.Name == name }) {
			continue
		}
		t.Checks = append(t.Checks, &compiler.Check{Name: name, Expr: n, Source: text, Overrides: compiler.Overrides{d: {Dialect: d, Skip: true}}})
		r.note(t.Name, "column %s: check %s keeps %s's range (%s) where the column is %s", c.Name, name, col.Overrides[d].RawType, text, col.Type)
	}
}

// keyTyper is declared in dialects, with the other parts of a dialect.
type keyTyper = dialects.KeyTyper

// keyTypes gives the columns of t read from dialect d that its keys and
// indexes use, in each other dialect that cannot index their type, the
// type that keeps the key there, with a note.
func (r *Result) keyTypes(t *compiler.Table, d string, all []string) {
	var used []string
	if t.PrimaryKey != nil {
		used = append(used, t.PrimaryKey.Columns...)
	}
	for _, u := range t.Uniques {
		used = append(used, u.Columns...)
	}
	for _, fk := range t.ForeignKeys {
		used = append(used, fk.Columns...)
	}
	for _, x := range t.Indexes {
		for _, p := range x.Parts {
			if p.Column != "" {
				used = append(used, p.Column)
			}
		}
	}
	for _, c := range t.Columns {
		if !slices.Contains(used, c.Name) {
			continue
		}
		for _, o := range all {
			kt, ok := dialectByName(o).(keyTyper)
			if o == d || !ok || c.Overrides[o] != nil {
				continue
			}
			if typ, ok := kt.KeyType(c.Type); ok {
				c.Overrides[o] = &compiler.Override{Dialect: o, Type: &typ}
				r.note(t.Name, "column %s: %s, which a key or index uses, is %s on %s, which cannot index %s: longer values are refused there", c.Name, c.Type, typ, o, c.Type)
			}
		}
	}
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
func Merge(a, b *read.Imported) *Result {
	da, db := a.Dialect.Name(), b.Dialect.Name()
	r := &Result{Schema: &compiler.Schema{Dialect: map[string]*compiler.DialectSettings{}}, Notes: map[string][]string{}, reads: map[string]*read.Imported{da: a, db: b}}
	say := func(format string, args ...any) { r.Summary = append(r.Summary, fmt.Sprintf(format, args...)) }
	keepColumns(a, b)
	for _, im := range []*read.Imported{a, b} {
		for table, notes := range im.Notes {
			for _, n := range notes {
				r.Notes[table] = append(r.Notes[table], n)
				say("%s", line(table, n))
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
		r.Schema.Tables = append(r.Schema.Tables, mergeTable(ta, tb, [2]dialects.Named{a.Dialect, b.Dialect}, [2]ownSQL{{a, ta.Name}, {b, ta.Name}}, say))
	}
	for _, t := range b.Schema.Tables {
		if bt[t.Name] != nil {
			t.Overrides[da] = &compiler.Override{Dialect: da, Skip: true}
			say("table %s exists only on %s", t.Name, db)
			r.Schema.Tables = append(r.Schema.Tables, t)
		}
	}
	mergeObjects(r.Schema, a.Schema, b.Schema, da, db, say)
	r.distinctNames(db, []string{da})
	r.inferSettings(a, b)
	r.settle([]string{da, db})
	slices.Sort(r.Summary)
	return r
}

// keepColumns gives back to each read the columns it took for an index's
// helper (a declared VIRTUAL column) that the other database has as a
// column of the same table: the model declares them.
func keepColumns(a, b *read.Imported) {
	bt := map[string]*compiler.Table{}
	for _, t := range b.Schema.Tables {
		bt[t.Name] = t
	}
	for _, ta := range a.Schema.Tables {
		if tb := bt[ta.Name]; tb != nil {
			for _, c := range ta.Columns {
				b.KeepColumn(tb, c.Name)
			}
			for _, c := range tb.Columns {
				a.KeepColumn(ta, c.Name)
			}
		}
	}
}

// mergeObjects takes the extensions of both databases (TiDB has none), and
// their views: one raw block per view name, with each dialect's statement.
func mergeObjects(s, a, b *compiler.Schema, da, db string, say func(string, ...any)) {
	mergeEnums(s, a)
	for _, e := range append(slices.Clone(a.Extensions), b.Extensions...) {
		if !slices.ContainsFunc(s.Extensions, func(x *compiler.Extension) bool { return x.Name == e.Name }) {
			s.Extensions = append(s.Extensions, e)
		}
	}
	byName := map[string]*compiler.Raw{}
	for _, r := range a.Raw {
		byName[r.Name] = r
		s.Raw = append(s.Raw, r)
	}
	for _, r := range b.Raw {
		if ra := byName[r.Name]; ra != nil {
			ra.SQL[db] = r.SQL[db]
			continue
		}
		if isView(r) {
			say("view %s exists only on %s", r.Name, db)
		}
		s.Raw = append(s.Raw, r)
	}
	for _, r := range a.Raw {
		if _, ok := r.SQL[db]; !ok && isView(r) {
			say("view %s exists only on %s", r.Name, da)
		}
	}
}

// isView tells a view's raw block (named as the view) from the other raw
// objects (named "kind name"), which their dialect's summary names already.
func isView(r *compiler.Raw) bool { return !strings.Contains(r.Name, " ") }

// ownSQL gives the SQL of table of database im, for what a merge keeps as
// its own.
type ownSQL struct {
	im    *read.Imported
	table string
}

// columnType is the type of a column as the database spells it.
func (o ownSQL) columnType(column string) string { return o.im.RawType(o.table, column) }

// defaultSQL is the default of a column of neutral type t as the
// database's SQL, or "".
func (o ownSQL) defaultSQL(column string, t compiler.Type) string {
	return o.im.DefaultSQL(o.table, column, t)
}

// index is the statement that creates an index, or "".
func (o ownSQL) index(name string) string { return o.im.IndexStatement(o.table, name) }

// mergeTable merges b's table tb into a's ta, of dialects ds[0] and ds[1];
// ownB gives tb's SQL in b's dialect.
func mergeTable(ta, tb *compiler.Table, ds [2]dialects.Named, own [2]ownSQL, say func(string, ...any)) *compiler.Table {
	ownB := own[1]
	t := ta
	da, db := ds[0].Name(), ds[1].Name()
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
		mergeColumn(t.Name, ca, cb, da, db, own, say)
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
	mergeLayout(t, tb)
	mergeUniques(t, ta, tb, da, db, say)
	mergeChecks(t, ta, tb, ds, say)
	mergeForeignKeys(t, ta, tb, da, db, say)
	mergeIndexes(t, ta, tb, da, db, ownB, say)
	return t
}

// match pairs the objects of a and b: first those equal by each of the
// keys in turn (a key of "" matches nothing), then leaves the rest unpaired.
// It is linear in the number of objects.
func match[T any](a, b []T, keys ...func(T) string) (pairs [][2]T, onlyA, onlyB []T) {
	usedA, usedB := make([]bool, len(a)), make([]bool, len(b))
	for _, key := range keys {
		byKey := map[string][]int{}
		for j, x := range b {
			if k := key(x); !usedB[j] && k != "" {
				byKey[k] = append(byKey[k], j)
			}
		}
		for i, x := range a {
			if usedA[i] {
				continue
			}
			k := key(x)
			if k == "" || len(byKey[k]) == 0 {
				continue
			}
			j := byKey[k][0]
			byKey[k] = byKey[k][1:]
			usedA[i], usedB[j] = true, true
			pairs = append(pairs, [2]T{x, b[j]})
		}
	}
	for i, x := range a {
		if !usedA[i] {
			onlyA = append(onlyA, x)
		}
	}
	for j, x := range b {
		if !usedB[j] {
			onlyB = append(onlyB, x)
		}
	}
	return pairs, onlyA, onlyB
}

// rename keeps b's own name for an object matched by what it is: a
// migration must not rename a live constraint.
func rename(ov compiler.Overrides, db, nameA, nameB string) {
	if nameA == nameB {
		return
	}
	o := ov[db]
	if o == nil {
		o = &compiler.Override{Dialect: db}
		ov[db] = o
	}
	o.Name = nameB
}

// mergeUniques pairs a's unique constraints with b's, which TiDB reports as
// unique indexes: by name, then by columns.
func mergeUniques(t, ta, tb *compiler.Table, da, db string, say func(string, ...any)) {
	type key struct {
		name string
		cols []string
		idx  *compiler.Index
		u    *compiler.Unique
	}
	var as, bs []key
	for _, u := range ta.Uniques {
		as = append(as, key{u.Name, u.Columns, nil, u})
	}
	for _, u := range tb.Uniques {
		bs = append(bs, key{u.Name, u.Columns, nil, u})
	}
	for _, x := range tb.Indexes {
		if cols := plainColumns(x); x.Unique && x.Where == nil && cols != nil {
			bs = append(bs, key{x.Name, cols, x, nil})
		}
	}
	pairs, onlyA, onlyB := match(as, bs,
		func(k key) string { return k.name + "\x00" + strings.Join(k.cols, ",") },
		func(k key) string { return strings.Join(k.cols, ",") })
	for _, p := range pairs {
		rename(p[0].u.Overrides, db, p[0].name, p[1].name)
		if p[1].idx != nil {
			tb.Indexes = slices.DeleteFunc(tb.Indexes, func(x *compiler.Index) bool { return x == p[1].idx })
		}
	}
	for _, k := range onlyA {
		k.u.Overrides[db] = &compiler.Override{Dialect: db, Skip: true}
		say("unique constraint %s of %s exists only on %s", k.name, t.Name, da)
	}
	for _, k := range onlyB {
		if k.u != nil && slices.ContainsFunc(ta.Indexes, func(x *compiler.Index) bool {
			return x.Unique && slices.Equal(plainColumns(x), k.cols)
		}) {
			// b's unique key, which a holds as a unique index (TiDB cannot
			// tell them apart): paired with a's index, with the indexes.
			x := &compiler.Index{Name: k.u.Name, Unique: true, Overrides: k.u.Overrides, Range: k.u.Range}
			for _, c := range k.cols {
				x.Parts = append(x.Parts, &compiler.IndexPart{Column: c})
			}
			tb.Indexes = append(tb.Indexes, x)
			continue
		}
		if k.u != nil {
			k.u.Overrides[da] = &compiler.Override{Dialect: da, Skip: true}
			t.Uniques = append(t.Uniques, k.u)
			say("unique constraint %s of %s exists only on %s", k.name, t.Name, db)
		}
		// A unique index of b stays with b's indexes.
	}
}

// plainColumns returns the columns of an index on plain ascending columns,
// else nil.
func plainColumns(x *compiler.Index) []string {
	var cols []string
	for _, p := range x.Parts {
		if p.Expr != nil || p.Desc || p.OpClass() != "" {
			return nil
		}
		cols = append(cols, p.Column)
	}
	return cols
}

// mergeChecks pairs checks by name and meaning, then by meaning (the
// portable expression after each dialect's normalisation), then by name.
func mergeChecks(t, ta, tb *compiler.Table, ds [2]dialects.Named, say func(string, ...any)) {
	da, db := ds[0].Name(), ds[1].Name()
	// only says that check c exists on side i alone, and why where the
	// dialect knows it: a test of what the other's type guarantees.
	only := func(c *compiler.Check, i int) {
		if sr, ok := ds[i].(shapeReader); ok && c.Expr != nil {
			if sh, ok := sr.Shape(t, c.Expr); ok {
				typ := compiler.Type{Kind: sh.Type}.Name()
				say("check %s of %s tests that %s has a %s's shape, which %s's %s type guarantees; kept on %s only", c.Name, t.Name, sh.Column, typ, ds[1-i].Name(), typ, ds[i].Name())
				return
			}
		}
		say("check %s of %s exists only on %s", c.Name, t.Name, ds[i].Name())
	}
	means := func(c *compiler.Check) string { return render.Meaning(c.Expr) }
	pairs, onlyA, onlyB := match(ta.Checks, tb.Checks,
		func(c *compiler.Check) string {
			if m := means(c); m != "" {
				return c.Name + "\x00" + m
			}
			return ""
		},
		means,
		func(c *compiler.Check) string { return c.Name })
	for _, p := range pairs {
		ca, cb := p[0], p[1]
		switch {
		case ca.Expr != nil && cb.Expr != nil && render.String(ca.Expr) == render.String(cb.Expr):
			if ob := cb.Overrides[db]; ob != nil {
				// b's database keeps its own text of the same expression.
				ca.Overrides[db] = ob
			}
		case ca.Expr != nil && cb.Expr != nil && render.Meaning(ca.Expr) == render.Meaning(cb.Expr):
			// The same meaning, written otherwise (BETWEEN for >= AND <=):
			// b's database keeps its own text.
			ca.Overrides[db] = &compiler.Override{Dialect: db, Expr: cb.Source}
			say("check %s of %s is %s on %s, the same as %s on %s; %s's text is kept as its override", ca.Name, t.Name, render.String(cb.Expr), db, render.String(ca.Expr), da, db)
		case cb.Expr == nil:
			ca.Overrides[db] = cb.Overrides[db]
		case ca.Expr == nil:
			ca.Expr = cb.Expr
		default:
			// The database's own text of b's expression, as b's override.
			ca.Overrides[db] = &compiler.Override{Dialect: db, Expr: cb.Source}
			say("check %s of %s is %s on %s and %s on %s; %s's is kept neutral, %s's as its override", ca.Name, t.Name, render.String(ca.Expr), da, render.String(cb.Expr), db, da, db)
		}
		rename(ca.Overrides, db, ca.Name, cb.Name)
	}
	for _, c := range onlyA {
		c.Overrides[db] = &compiler.Override{Dialect: db, Skip: true}
		only(c, 0)
	}
	for _, c := range onlyB {
		c.Overrides[da] = &compiler.Override{Dialect: da, Skip: true}
		only(c, 1)
		t.Checks = append(t.Checks, c)
	}
}

// shapeReader is declared in dialects, with the other parts of a dialect.
type shapeReader = dialects.ShapeReader

// mergeForeignKeys pairs foreign keys by what they are: columns, referenced
// table and columns, then actions where they agree.
func mergeForeignKeys(t, ta, tb *compiler.Table, da, db string, say func(string, ...any)) {
	ref := func(f *compiler.ForeignKey) string {
		return strings.Join(f.Columns, ",") + "\x00" + f.RefTable + "\x00" + strings.Join(f.RefColumns, ",")
	}
	pairs, onlyA, onlyB := match(ta.ForeignKeys, tb.ForeignKeys,
		func(f *compiler.ForeignKey) string {
			return ref(f) + "\x00" + string(f.OnDelete) + "\x00" + string(f.OnUpdate)
		},
		ref)
	for _, p := range pairs {
		fa, fb := p[0], p[1]
		if !sameAction(fa.OnDelete, fb.OnDelete) || !sameAction(fa.OnUpdate, fb.OnUpdate) {
			// Each database keeps its own key: one key of the model would
			// change what the other does.
			fa.Overrides[db] = &compiler.Override{Dialect: db, Skip: true}
			fb.Overrides[da] = &compiler.Override{Dialect: da, Skip: true}
			if fb.Name == fa.Name {
				fb.Overrides[db] = &compiler.Override{Dialect: db, Name: fb.Name}
				fb.Name += "_" + db
			}
			t.ForeignKeys = append(t.ForeignKeys, fb)
			say("foreign key %s of %s has other actions on %s than on %s; each keeps its own (%s on %s)", fa.Name, t.Name, da, db, fb.Overrides.NameIn(db, fb.Name), db)
			continue
		}
		if fa.OnDelete != fb.OnDelete || fa.OnUpdate != fb.OnUpdate {
			say("foreign key %s of %s: %s's actions are kept, which mean %s's (RESTRICT and NO ACTION differ only for deferred keys)", fa.Name, t.Name, da, db)
		}
		rename(fa.Overrides, db, fa.Name, fb.Name)
	}
	for _, f := range onlyA {
		f.Overrides[db] = &compiler.Override{Dialect: db, Skip: true}
		say("foreign key %s of %s exists only on %s", f.Name, t.Name, da)
	}
	for _, f := range onlyB {
		f.Overrides[da] = &compiler.Override{Dialect: da, Skip: true}
		t.ForeignKeys = append(t.ForeignKeys, f)
		say("foreign key %s of %s exists only on %s", f.Name, t.Name, db)
	}
}

// identityFolder is declared in dialects, with the other parts of a dialect.
type identityFolder = dialects.IdentityFolder

// sameAction reports whether two referential actions mean the same for a
// key checked at once: NO ACTION and RESTRICT differ only when a key's
// check is deferred.
func sameAction(a, b compiler.Action) bool {
	immediate := func(x compiler.Action) bool { return x == compiler.NoAction || x == compiler.Restrict }
	return a == b || immediate(a) && immediate(b)
}

// indexKeyOrder is what an index is: uniqueness, parts (in their order
// when order) and predicate; "" for one kept as a dialect's own statement.
func indexKeyOrder(x *compiler.Index, where, order bool) string {
	if len(x.Parts) == 0 {
		return ""
	}
	var b strings.Builder
	fmt.Fprintf(&b, "%v", x.Unique)
	for _, p := range x.Parts {
		b.WriteString("\x00")
		if p.Expr != nil {
			b.WriteString("(" + render.Meaning(p.Expr) + ")")
		} else {
			b.WriteString(p.Column)
		}
		if p.Desc && order {
			b.WriteString(" desc")
		}
	}
	if where && x.Where != nil {
		b.WriteString("\x00where " + render.Meaning(x.Where))
	}
	return b.String()
}

// mergeIndexes pairs indexes by name and structure, by structure, by
// structure without a predicate one dialect lacks (TiDB has no partial
// indexes), then by name.
func mergeIndexes(t, ta, tb *compiler.Table, da, db string, ownB ownSQL, say func(string, ...any)) {
	// A dialect that builds every part ascending cannot tell which were
	// declared descending: the other dialect's order is the model's.
	ignoresDesc := func(d string) bool {
		r, ok := dialectByName(d).(dialects.RuleBook)
		return ok && r.Rules().IgnoresDesc
	}
	order := !ignoresDesc(da) && !ignoresDesc(db)
	key := func(x *compiler.Index, where bool) string { return indexKeyOrder(x, where, order) }
	pairs, onlyA, onlyB := match(ta.Indexes, tb.Indexes,
		func(x *compiler.Index) string {
			if k := key(x, true); k != "" {
				return x.Name + "\x01" + k
			}
			return ""
		},
		func(x *compiler.Index) string { return key(x, true) },
		func(x *compiler.Index) string { return key(x, false) },
		func(x *compiler.Index) string { return x.Name })
	for _, p := range pairs {
		ia, ib := p[0], p[1]
		if len(ia.Parts) > 0 && len(ib.Parts) > 0 && indexKeyOrder(ia, false, false) != indexKeyOrder(ib, false, false) {
			// Paired by name alone: each database keeps its own index (a
			// hand-written TiDB key over a generated column of its own
			// keeps that column, its name and type), as its own object.
			ia.Overrides[db] = &compiler.Override{Dialect: db, Skip: true}
			ib.Overrides[da] = &compiler.Override{Dialect: da, Skip: true}
			if ib.Overrides[db] == nil {
				ib.Overrides[db] = &compiler.Override{Dialect: db}
			}
			if ib.Overrides[db].Name == "" {
				ib.Overrides[db].Name = ib.Name
			}
			ib.Name += "_" + db
			t.Indexes = append(t.Indexes, ib)
			say("index %s of %s differs between %s and %s; each keeps its own (%s on %s)", ia.Name, t.Name, da, db, ib.Overrides.NameIn(db, ib.Name), db)
			continue
		}
		switch {
		case ia.Comment == "":
			ia.Comment = ib.Comment
		case ib.Comment != "" && ib.Comment != ia.Comment:
			say("index %s of %s has different comments on %s and %s; %s's is kept", ia.Name, t.Name, da, db, da)
		}
		mergeIndexOptions(ia, ib)
		if ignoresDesc(da) && len(ia.Parts) == len(ib.Parts) {
			for i := range ia.Parts {
				ia.Parts[i].Desc = ib.Parts[i].Desc
			}
		}
		if ob := ib.Overrides[db]; ob != nil {
			ia.Overrides[db] = ob
		}
		rename(ia.Overrides, db, ia.Name, ib.Name)
		if len(ia.Parts) == len(ib.Parts) {
			// b's own names of the generated columns it indexes.
			for i, p := range ib.Parts {
				if o := p.Overrides[db]; o != nil {
					if ia.Parts[i].Overrides == nil {
						ia.Parts[i].Overrides = compiler.Overrides{}
					}
					ia.Parts[i].Overrides[db] = o
				}
			}
		}
		if len(ia.Parts) == 0 && len(ib.Parts) > 0 {
			// a kept its own statement: b's readable form is the neutral one.
			ia.Parts, ia.Unique, ia.Where, ia.Attrs = ib.Parts, ib.Unique, ib.Where, ib.Attrs
			continue
		}
		if key(ia, false) != key(ib, false) && len(ib.Parts) > 0 {
			say("index %s of %s differs between %s and %s; %s's is kept", ia.Name, t.Name, da, db, da)
		} else if ia.Unique && (ia.Where == nil) != (ib.Where == nil) && len(ib.Parts) > 0 {
			// A unique index's predicate is what it keeps unique: each
			// database keeps its own, b's full one as its statement (the
			// model's predicate would make b's another key).
			o := ia.Overrides[db]
			if nullsOnly(ia) {
				// Unique over the rows whose key has no NULL: what a full
				// unique index keeps unique, in both.
				continue
			}
			if sql := ownB.index(ib.Name); ib.Where == nil && sql != "" && (o == nil || o.SQL == "") {
				if o == nil {
					o = &compiler.Override{Dialect: db}
					ia.Overrides[db] = o
				}
				o.SQL = sql
				say("index %s of %s is unique over other rows on %s than on %s (a predicate on %s only); each keeps its own: %s's statement is its override", ia.Name, t.Name, da, db, da, db)
			} else {
				say("index %s of %s is unique over other rows on %s than on %s (a predicate on one only); %s's is kept", ia.Name, t.Name, da, db, da)
			}
		}
	}
	for _, x := range onlyA {
		x.Overrides[db] = &compiler.Override{Dialect: db, Skip: true}
		say("index %s of %s exists only on %s", x.Name, t.Name, da)
	}
	for _, x := range onlyB {
		x.Overrides[da] = &compiler.Override{Dialect: da, Skip: true}
		say("index %s of %s exists only on %s", x.Name, t.Name, db)
		t.Indexes = append(t.Indexes, x)
	}
}

// mergeIndexOptions gives index a the options only b's database keeps
// (TiDB reads no INCLUDE, NULLS NOT DISTINCT or storage parameters,
// PostgreSQL no invisible index).
func mergeIndexOptions(a, b *compiler.Index) {
	if len(a.Include) == 0 {
		a.Include = b.Include
	}
	a.NullsNotDistinct = a.NullsNotDistinct || b.NullsNotDistinct
	if len(a.Storage) == 0 {
		a.Storage = b.Storage
	}
	a.Invisible = a.Invisible || b.Invisible
}

// nullsOnly reports whether the predicate of index x only requires key
// columns to be non-null: a unique index never compares NULLs, so it keeps
// the same rows unique as the full index.
func nullsOnly(x *compiler.Index) bool {
	cols := expr.NotNullOn(x.Where)
	return cols != nil && !slices.ContainsFunc(cols, func(c string) bool {
		return !slices.ContainsFunc(x.Parts, func(p *compiler.IndexPart) bool { return p.Expr == nil && p.Column == c })
	})
}

// typeReader is declared in dialects, with the other parts of a dialect.
type typeReader = dialects.TypeReader

func mergeColumn(table string, ca, cb *compiler.Column, da, db string, own [2]ownSQL, say func(string, ...any)) {
	ownB := own[1]
	rawB := ownB.columnType
	oa, ob := ca.Overrides[da], cb.Overrides[db]
	tr, _ := dialectByName(db).(typeReader)
	switch {
	case oa == nil && ob == nil && tr != nil && tr.SameType(ca.Type, cb.Type):
	case ob != nil && ob.RawType != "":
		ca.Overrides[db] = &compiler.Override{Dialect: db, RawType: ob.RawType}
		if oa == nil || oa.RawType == "" {
			say("column %s.%s is %s on %s and %s on %s", table, ca.Name, ca.Type, da, ob.RawType, db)
		}
	case oa != nil && oa.RawType != "":
		ca.Type = cb.Type
		say("column %s.%s is %s on %s and %s on %s", table, ca.Name, oa.RawType, da, cb.Type, db)
	case cb.Type.Kind == compiler.TypeEnum && ca.Type.Kind != compiler.TypeEnum && rawB(ca.Name) != "":
		// An override cannot make a column an enum, and an enum neutral
		// type would create a type a's database does not have: b keeps
		// its enum as its own SQL.
		raw := rawB(ca.Name)
		ca.Overrides[db] = &compiler.Override{Dialect: db, RawType: raw}
		say("column %s.%s is %s on %s and %s on %s; %s's is kept as its own type (write type = enum.NAME for both to make it an enum on both)", table, ca.Name, ca.Type, da, raw, db, db)
	case cb.Type.Kind == compiler.TypeVector && ca.Type.Kind != compiler.TypeVector && ca.Default == nil && ca.Generated == nil:
		// A vector on one database only (pgvector absent on the other) is
		// the column's meaning: the model says vector, so that what checks
		// values against the model (data migrations) refuses what the
		// vector's database refuses; a's type is its override.
		at := ca.Type
		ca.Type = cb.Type
		if oa == nil {
			oa = &compiler.Override{Dialect: da}
			ca.Overrides[da] = oa
		}
		oa.Type = &at
		say("column %s.%s is %s on %s and %s on %s", table, ca.Name, at, da, cb.Type, db)
	case ca.Type.Kind != cb.Type.Kind || !slices.Equal(ca.Type.Args, cb.Type.Args):
		nt := cb.Type
		ca.Overrides[db] = &compiler.Override{Dialect: db, Type: &nt}
		say("column %s.%s is %s on %s and %s on %s", table, ca.Name, ca.Type, da, cb.Type, db)
	}
	switch {
	case (ca.Identity == nil) != (cb.Identity == nil):
		only := da
		if ca.Identity == nil {
			only = db
		}
		// An identity on one side only numbers rows on one database alone:
		// the model's column is a plain integer, and the database that
		// numbers it keeps doing so by its own type (serial, AUTO_INCREMENT),
		// as its override.
		ca.Identity = nil
		i := map[bool]int{true: 0, false: 1}[only == da]
		f, ok := dialectByName(only).(identityFolder)
		o := ca.Overrides[only]
		raw := ""
		switch {
		case o != nil && o.RawType != "":
			raw = o.RawType
		default:
			raw = own[i].columnType(ca.Name)
		}
		if !ok || raw == "" {
			say("column %s.%s is an identity on %s only; it is kept a plain column", table, ca.Name, only)
			break
		}
		if o == nil {
			o = &compiler.Override{Dialect: only}
			ca.Overrides[only] = o
		}
		o.RawType, o.Type = f.FoldIdentity(raw), nil
		say("column %s.%s is an identity on %s only; it is a plain column elsewhere, numbered on %s by its type there (%s)", table, ca.Name, only, only, o.RawType)
	case ca.Identity != nil && ca.Identity.Start > cb.Identity.Start && !ca.Identity.Unordered && !cb.Identity.Unordered:
		// b's start may be its counter, the next id it gives (TiDB's
		// AUTO_INCREMENT), which rows move past the start: only one below
		// a's start is a difference.
		say("column %s.%s: its identity starts at %d on %s and gives %d next on %s; %s's start is kept", table, ca.Name, ca.Identity.Start, da, cb.Identity.Start, db, da)
	}
	if ca.Identity != nil && cb.Identity != nil {
		mergeIdentityOptions(ca.Identity, cb.Identity)
	}
	if ca.Null != cb.Null {
		// Each database keeps its own: a merge must not move one to the
		// other's meaning (NOT NULL would fail on b's rows that hold NULL).
		o := ca.Overrides[db]
		if o == nil {
			o = &compiler.Override{Dialect: db}
			ca.Overrides[db] = o
		}
		null := cb.Null
		o.Null = &null
		say("column %s.%s is %s on %s and %s on %s; each keeps its own (%s { null = %v })", table, ca.Name, nullWord(ca.Null), da, nullWord(cb.Null), db, db, cb.Null)
	}
	switch ga, gb := ca.Generated, cb.Generated; {
	case ga != nil && gb != nil && render.String(ga.Expr) == render.String(gb.Expr):
		// A dialect without VIRTUAL columns stores them (PostgreSQL
		// before 18): one that keeps it VIRTUAL tells the model's intent.
		ga.Stored = ga.Stored && gb.Stored
	case ga != nil || gb != nil:
		say("column %s.%s is generated differently on %s and %s; %s's is kept", table, ca.Name, da, db, da)
	}
	if ca.OnUpdate != cb.OnUpdate {
		say("column %s.%s is set on update on one dialect only; %s's on_update is kept", table, ca.Name, da)
	}
	if oa := ca.Overrides[da]; ca.Default == nil && cb.Default != nil && oa != nil && oa.Default != "" && ca.Overrides[db] != nil && ca.Overrides[db].RawType != "" {
		// a's default is its own SQL and b's column its own type: b's
		// neutral default is b's, which a's override replaces.
		ca.Default = cb.Default
	} else if (ca.Default == nil) != (cb.Default == nil) || ca.Default != nil && *ca.Default != *cb.Default {
		// Each database keeps its own default: b's as its override (b's
		// own SQL of a neutral one; DEFAULT NULL, what a nullable column
		// without one has, for none).
		own := ""
		switch {
		case ob != nil && ob.Default != "":
			own = ob.Default
		case cb.Default != nil:
			own = ownB.defaultSQL(cb.Name, cb.Type)
		case cb.Null && cb.Identity == nil && cb.Generated == nil:
			own = "NULL"
		}
		if own != "" && ca.Generated == nil {
			o := ca.Overrides[db]
			if o == nil {
				o = &compiler.Override{Dialect: db}
				ca.Overrides[db] = o
			}
			o.Default = own
			say("column %s.%s has different defaults on %s and %s; each keeps its own (%s { default = %q })", table, ca.Name, da, db, db, own)
		} else {
			say("column %s.%s has different defaults on %s and %s; %s's is kept", table, ca.Name, da, db, da)
		}
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

func nullWord(null bool) string {
	if null {
		return "nullable"
	}
	return "NOT NULL"
}

func samePK(a, b *compiler.PrimaryKey) bool {
	if a == nil || b == nil {
		return a == b
	}
	return slices.Equal(a.Columns, b.Columns)
}

// mergeEnums keeps a's enums (the columns a pairs with b's keep a's
// enum, which b's renders alike: the same values) and adds the enums of
// columns that only b has, renamed where a's name is taken by another enum.
func mergeEnums(s, a *compiler.Schema) {
	s.Enums = slices.Clone(a.Enums)
	for _, t := range s.Tables {
		for _, c := range t.Columns {
			e := c.Type.Enum
			if c.Type.Kind != compiler.TypeEnum || e == nil || slices.Contains(s.Enums, e) {
				continue
			}
			base := e.Name
			for i := 2; s.Enum(e.Name) != nil; i++ {
				e.Name = fmt.Sprintf("%s_%d", base, i)
			}
			s.Enums = append(s.Enums, e)
		}
	}
}

// overridesOf gives the overrides of t's CHECK, foreign key, index or
// unique key of that kind and name (nil for another kind, or none).
func overridesOf(t *compiler.Table, kind compiler.ObjectKind, name string) compiler.Overrides {
	find := func(n int, at func(int) (string, compiler.Overrides)) compiler.Overrides {
		for i := range n {
			if nm, ov := at(i); nm == name {
				return ov
			}
		}
		return nil
	}
	switch kind {
	case compiler.KindCheck:
		return find(len(t.Checks), func(i int) (string, compiler.Overrides) { return t.Checks[i].Name, t.Checks[i].Overrides })
	case compiler.KindForeignKey:
		return find(len(t.ForeignKeys), func(i int) (string, compiler.Overrides) { return t.ForeignKeys[i].Name, t.ForeignKeys[i].Overrides })
	case compiler.KindIndex:
		return find(len(t.Indexes), func(i int) (string, compiler.Overrides) { return t.Indexes[i].Name, t.Indexes[i].Overrides })
	case compiler.KindUnique:
		return find(len(t.Uniques), func(i int) (string, compiler.Overrides) { return t.Uniques[i].Name, t.Uniques[i].Overrides })
	}
	return nil
}

// mergeIdentityOptions keeps on a the identity options only one dialect
// can hold (ordered = false, cache: TiDB's AUTO_RANDOM and AUTO_ID_CACHE),
// from whichever side has them; the other side's ordinary identity says
// nothing against them.
func mergeIdentityOptions(a, b *compiler.Identity) {
	if b.Unordered && !a.Unordered {
		a.Unordered, a.ShardBits, a.RangeBits = true, b.ShardBits, b.RangeBits
	}
	if a.Unordered {
		a.Start, a.Cache = 1, 1
		return
	}
	a.Cache = max(a.Cache, b.Cache)
}

// mergeLayout keeps on t the layout options only one dialect holds (TiDB's
// clustered key, shard bits and pre-split regions) from b where t has none.
func mergeLayout(t, b *compiler.Table) {
	if t.ShardRowIDBits == 0 && t.PreSplitRegions == 0 {
		t.ShardRowIDBits, t.PreSplitRegions = b.ShardRowIDBits, b.PreSplitRegions
	}
	if t.TTL == nil {
		t.TTL = b.TTL
	}
	if t.Partition == nil {
		t.Partition = b.Partition
	}
	if t.PrimaryKey != nil && b.PrimaryKey != nil && t.PrimaryKey.Clustered == nil && samePK(t.PrimaryKey, b.PrimaryKey) {
		t.PrimaryKey.Clustered = b.PrimaryKey.Clustered
	}
}
