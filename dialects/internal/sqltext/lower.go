package sqltext

import (
	"fmt"
	"regexp"
	"slices"
	"strings"

	"github.com/hashicorp/hcl/v2"

	"github.com/schemagen/schemagen/compiler"
	"github.com/schemagen/schemagen/compiler/expr"
	"github.com/schemagen/schemagen/dialects"
)

// Lowerer lowers single objects for one dialect. Build walks the schema and
// calls it; a method returns ok = false to leave the object out.
type Lowerer interface {
	Column(t *compiler.Table, c *compiler.Column) (*Column, bool)
	Unique(t *compiler.Table, u *compiler.Unique) (Constraint, bool)
	Check(t *compiler.Table, c *compiler.Check) (Constraint, bool)
	ForeignKey(t *compiler.Table, fk *compiler.ForeignKey) (Constraint, bool)
	Index(t *compiler.Table, idx *compiler.Index) (*Index, bool)
	// Finish may add to a lowered table, after all its parts are lowered.
	Finish(t *compiler.Table, lt *Table)
}

// ExtensionLowerer is implemented by the lowerers of dialects that have
// extensions: Extension returns the statement that creates e where it is
// missing. Dialects without extensions leave them out.
type ExtensionLowerer interface {
	Extension(e *compiler.Extension) string
}

// SettingsLowerer is implemented by the lowerers of dialects that have
// settings (a `dialect` block): the settings in force, by name.
type SettingsLowerer interface {
	Settings() map[string]any
}

// EnumLowerer is implemented by the lowerers of dialects that have enum
// types of their own: Enum returns the statement that creates e, run before
// the tables. Dialects without them write each enum column's values into
// its type.
type EnumLowerer interface {
	Enum(e *compiler.Enum) string
}

// Recorder collects a dialect's decisions and diagnostics.
type Recorder struct {
	Dialect   string
	Decisions []dialects.Decision
	Diags     hcl.Diagnostics
	notes     map[*Table][]string
	// about is the object being lowered: errors name it as their subject.
	about *compiler.ObjectRef
}

// About makes the object of table of kind and name the subject of the
// errors that follow (a dialect's checks in Finish).
func (r *Recorder) About(table string, kind compiler.ObjectKind, name string) {
	r.setAbout(table, kind, name)
}

// Forget ends what About began: the errors that follow name no subject.
func (r *Recorder) Forget() { r.about = nil }

func (r *Recorder) setAbout(table string, kind compiler.ObjectKind, name string) {
	r.about = &compiler.ObjectRef{Table: table, Kind: kind, Name: name}
}

// Decide records a decision about object; table-level notes are grouped
// into the comment above the table's CREATE TABLE.
func (r *Recorder) Decide(object compiler.ObjectRef, kind dialects.DecisionKind, format string, args ...any) {
	r.Decisions = append(r.Decisions, dialects.Decision{Object: object, Kind: kind, Text: fmt.Sprintf(format, args...)})
}

// DecideType records a decision about how column's type is rendered, which
// explain shows with the type exactly as rendered.
func (r *Recorder) DecideType(table, column string, kind dialects.DecisionKind, format string, args ...any) {
	r.Decide(compiler.ObjectRef{Table: table, Kind: compiler.KindColumn, Name: column}, kind, format, args...)
	r.Decisions[len(r.Decisions)-1].Aspect = dialects.AspectType
}

// Errorf records an error at rng.
func (r *Recorder) Errorf(rng hcl.Range, summary, format string, args ...any) {
	r.Diags = append(r.Diags, &hcl.Diagnostic{
		Severity: hcl.DiagError,
		Summary:  fmt.Sprintf("%s (%s)", summary, r.Dialect),
		Detail:   fmt.Sprintf(format, args...),
		Subject:  rng.Ptr(),
	})
	if r.about != nil {
		r.Diags[len(r.Diags)-1].Extra = *r.about
	}
}

// Warnf records a warning at rng.
func (r *Recorder) Warnf(rng hcl.Range, summary, format string, args ...any) {
	r.Diags = append(r.Diags, &hcl.Diagnostic{
		Severity: hcl.DiagWarning,
		Summary:  fmt.Sprintf("%s (%s)", summary, r.Dialect),
		Detail:   fmt.Sprintf(format, args...),
		Subject:  rng.Ptr(),
	})
}

// Build lowers every object of s that exists in the recorder's dialect.
func Build(s *compiler.Schema, l Lowerer, rec *Recorder) *Script {
	d := rec.Dialect
	sc := &Script{Header: dialects.Header(d, s.SourceNames()...)}
	for _, e := range s.Extensions {
		obj := compiler.ObjectRef{Kind: compiler.KindExtension, Name: e.Name}
		if el, ok := l.(ExtensionLowerer); ok {
			sc.Extensions = append(sc.Extensions, Raw{e.Name, el.Extension(e)})
			rec.Decide(obj, dialects.Lowered, "created before the tables")
			continue
		}
		rec.Decide(obj, dialects.Omitted, "%s has no extensions: left out", d)
	}
	for _, e := range s.Enums {
		obj := compiler.ObjectRef{Kind: compiler.KindEnum, Name: e.Name}
		if el, ok := l.(EnumLowerer); ok {
			sc.Types = append(sc.Types, Raw{e.Name, el.Enum(e)})
			rec.Decide(obj, dialects.Lowered, "created as a type before the tables (its values ordered as declared)")
			continue
		}
		rec.Decide(obj, dialects.Lowered, "written into the type of each column that uses it")
	}
	for _, r := range s.Raw {
		sql, ok := r.SQL[d]
		if !ok {
			continue
		}
		rec.Decide(compiler.ObjectRef{Kind: compiler.KindRaw, Name: r.Name}, dialects.Overridden, "raw SQL statement, not translated")
		if r.After {
			sc.After = append(sc.After, Raw{r.Name, sql})
		} else {
			sc.Before = append(sc.Before, Raw{r.Name, sql})
		}
	}
	tables, deferred := s.Order()
	for _, t := range tables {
		if t.Overrides.Skipped(d) {
			rec.Decide(t.Ref(compiler.KindTable, ""), dialects.Omitted, "table left out of %s by the model", d)
			continue
		}
		rec.setAbout(t.Name, compiler.KindTable, "")
		checkSkippedColumns(t, rec)
		lt := &Table{Name: t.Name, Comment: t.Comment}
		if t.PrimaryKey != nil {
			lt.PrimaryKey = t.PrimaryKey.Columns
		}
		for _, c := range t.Columns {
			if skipped(rec, t.Ref(compiler.KindColumn, c.Name), c.Overrides) {
				continue
			}
			rec.setAbout(t.Name, compiler.KindColumn, c.Name)
			n := len(rec.Decisions)
			if lc, ok := l.Column(t, c); ok {
				lt.Columns = append(lt.Columns, lc)
				dialects.MarkType(rec.Decisions[n:], lc.Type)
			}
		}
		// Objects are lowered by name, so that decisions and notes come in the
		// canonical order of the output.
		for _, u := range byName(t.Uniques, func(u *compiler.Unique) string { return u.Name }) {
			rec.setAbout(t.Name, compiler.KindUnique, u.Name)
			if skipped(rec, t.Ref(compiler.KindUnique, u.Name), u.Overrides) {
				continue
			}
			if c, ok := l.Unique(t, u); ok {
				c.Kind = ConstraintUnique
				lt.Constraints = append(lt.Constraints, c)
			}
		}
		for _, c := range byName(t.Checks, func(c *compiler.Check) string { return c.Name }) {
			if skipped(rec, t.Ref(compiler.KindCheck, c.Name), c.Overrides) {
				continue
			}
			rec.setAbout(t.Name, compiler.KindCheck, c.Name)
			if lc, ok := l.Check(t, c); ok {
				lc.Kind = ConstraintCheck
				lt.Constraints = append(lt.Constraints, lc)
			}
		}
		for _, fk := range byName(t.ForeignKeys, func(fk *compiler.ForeignKey) string { return fk.Name }) {
			rec.setAbout(t.Name, compiler.KindForeignKey, fk.Name)
			if skipped(rec, t.Ref(compiler.KindForeignKey, fk.Name), fk.Overrides) {
				continue
			}
			if ref := s.Table(fk.RefTable); ref != nil && ref.Overrides.Skipped(d) {
				rec.Errorf(fk.RefRange, "Foreign key to a table left out", "Foreign key %q references table %q, which the model leaves out of %s; leave the foreign key out too or keep the table.", fk.Name, fk.RefTable, d)
				continue
			}
			c, ok := l.ForeignKey(t, fk)
			if !ok {
				continue
			}
			c.Kind = ConstraintForeignKey
			if deferred[fk] {
				why := "added by ALTER TABLE after all tables, because it closes a cycle of foreign keys"
				if fk.RefTable == t.Name {
					why = "added by ALTER TABLE after all tables, because it references a unique index of its own table, made after the table"
				}
				rec.Decide(t.Ref(compiler.KindForeignKey, fk.Name), dialects.Lowered, "%s", why)
				sc.Deferred = append(sc.Deferred, &Deferred{Table: t.Name, Constraint: c})
				continue
			}
			lt.Constraints = append(lt.Constraints, c)
		}
		for _, idx := range byName(t.Indexes, func(i *compiler.Index) string { return i.Name }) {
			if skipped(rec, t.Ref(compiler.KindIndex, idx.Name), idx.Overrides) {
				continue
			}
			rec.setAbout(t.Name, compiler.KindIndex, idx.Name)
			if li, ok := l.Index(t, idx); ok {
				lt.Indexes = append(lt.Indexes, li)
			}
		}
		rec.setAbout(t.Name, compiler.KindTable, "")
		l.Finish(t, lt)
		sortByName(lt)
		lt.Notes = tableNotes(rec.Decisions, t.Name)
		sc.Tables = append(sc.Tables, lt)
	}
	rec.about = nil
	sc.Renames = renames(s, d)
	return sc
}

// renames lists the renames the model asks for in dialect d: tables, then
// columns.
func renames(s *compiler.Schema, d string) []dialects.Rename {
	var out, cols []dialects.Rename
	for _, t := range s.Tables {
		if t.Overrides.Skipped(d) {
			continue
		}
		if t.RenamedFrom != "" && t.RenamedFrom != t.Name {
			out = append(out, dialects.Rename{FromTable: t.RenamedFrom, ToTable: t.Name})
		}
		for _, c := range t.Columns {
			if c.RenamedFrom != "" && c.RenamedFrom != c.Name && !c.Overrides.Skipped(d) {
				cols = append(cols, dialects.Rename{ToTable: t.Name, FromColumn: c.RenamedFrom, ToColumn: c.Name})
			}
		}
	}
	return append(out, cols...)
}

// checkSkippedColumns reports objects of the dialect that use a column the
// model leaves out of it.
func checkSkippedColumns(t *compiler.Table, rec *Recorder) {
	d := rec.Dialect
	gone := map[string]bool{}
	for _, c := range t.Columns {
		if c.Overrides.Skipped(d) {
			gone[c.Name] = true
		}
	}
	if len(gone) == 0 {
		return
	}
	// use checks the columns of the object kind name (the subject's kind,
	// "" for the primary key); what names it in messages.
	use := func(kind compiler.ObjectKind, what, name string, rng hcl.Range, cols []string) {
		rec.about = &compiler.ObjectRef{Table: t.Name, Kind: compiler.KindTable}
		if kind != "" {
			rec.setAbout(t.Name, kind, name)
		}
		if name != "" {
			what += " " + name
		}
		for _, c := range cols {
			if gone[c] {
				rec.Errorf(rng, "Column left out is still used", "The %s uses column %q, which the model leaves out of %s; leave the %s out too (%s { skip = true }) or keep the column.", what, c, d, what, d)
				return
			}
		}
	}
	if t.PrimaryKey != nil {
		use("", "primary key", "", t.PrimaryKey.Range, t.PrimaryKey.Columns)
	}
	for _, u := range t.Uniques {
		if !u.Overrides.Skipped(d) {
			use(compiler.KindUnique, "unique constraint", u.Name, u.Range, u.Columns)
		}
	}
	for _, fk := range t.ForeignKeys {
		if !fk.Overrides.Skipped(d) {
			use(compiler.KindForeignKey, "foreign key", fk.Name, fk.Range, fk.Columns)
		}
	}
	for _, c := range t.Checks {
		if !c.Overrides.Skipped(d) && c.Overrides.For(d) == nil {
			use(compiler.KindCheck, "check", c.Name, c.Range, expr.Columns(c.Expr))
		}
	}
	for _, idx := range t.Indexes {
		if o := idx.Overrides.For(d); o != nil && (o.Skip || o.SQL != "") {
			continue
		}
		var cols []string
		for _, p := range idx.Parts {
			if p.Expr != nil {
				cols = append(cols, expr.Columns(p.Expr)...)
			} else {
				cols = append(cols, p.Column)
			}
		}
		if idx.Where != nil {
			cols = append(cols, expr.Columns(idx.Where)...)
		}
		use(compiler.KindIndex, "index", idx.Name, idx.Range, cols)
	}
}

// byName returns objects sorted by name.
func byName[T any](objs []T, name func(T) string) []T {
	out := slices.Clone(objs)
	slices.SortStableFunc(out, func(a, b T) int { return strings.Compare(name(a), name(b)) })
	return out
}

// sortByName orders a table's constraints (unique, check, foreign key, each
// kind together) and indexes by name: the order databases report them in,
// so that a model read back from a database generates the same files.
func sortByName(lt *Table) {
	slices.SortStableFunc(lt.Constraints, func(a, b Constraint) int {
		if r := int(a.Kind) - int(b.Kind); r != 0 {
			return r
		}
		return strings.Compare(a.Name, b.Name)
	})
	slices.SortStableFunc(lt.Indexes, func(a, b *Index) int { return strings.Compare(a.Name, b.Name) })
}

func skipped(rec *Recorder, object compiler.ObjectRef, o compiler.Overrides) bool {
	if o.Skipped(rec.Dialect) {
		rec.Decide(object, dialects.Omitted, "left out of %s by the model", rec.Dialect)
		return true
	}
	return false
}

// tableNotes turns a table's decisions, the last ones recorded, into comment
// lines, grouped as explain groups them.
func tableNotes(all []dialects.Decision, table string) []string {
	i := len(all)
	for i > 0 && all[i-1].Object.Table == table {
		i--
	}
	var notes []string
	for _, g := range dialects.Grouped(all[i:]) {
		if len(g.Objects) == 0 {
			g.Objects = []compiler.ObjectRef{{Table: table, Kind: compiler.KindTable, Name: table}}
		}
		notes = append(notes, g.String())
	}
	return notes
}

// vectorType is how both databases spell a vector column's type.
var vectorType = regexp.MustCompile(`^vector(\((\d+)\))?$`)

// VectorType reads a vector column's type as the database spells it
// ("vector" or "vector(n)", in lower case) into the neutral type.
func VectorType(raw string) (compiler.Type, bool) {
	m := vectorType.FindStringSubmatch(raw)
	if m == nil {
		return compiler.Type{}, false
	}
	if m[1] == "" {
		return compiler.Type{Kind: compiler.TypeVector}, true
	}
	var n int
	fmt.Sscan(m[2], &n)
	return compiler.Type{Kind: compiler.TypeVector, Args: []int{n}}, true
}
