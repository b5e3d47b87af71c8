// Package read reads one live database back into schemagen's model, in
// its dialect's terms: every table, column, key, index, CHECK, view and raw
// object it can see, each kept neutral where its dialect's importer says it
// means the same everywhere, else as that dialect's own SQL with a note.
//
// It stands alone because reading talks to one server and one dialect
// only, and knows nothing of the other dialects: package importer merges
// what it reads from each database and settles the model against all of
// them.
package read

import (
	"context"
	"fmt"
	"maps"
	"path"
	"slices"
	"strings"
	"sync"

	"ariga.io/atlas/sql/migrate"
	"ariga.io/atlas/sql/schema"
	"github.com/zclconf/go-cty/cty"

	"github.com/schemagen/schemagen/compiler"
	"github.com/schemagen/schemagen/compiler/expr"
	"github.com/schemagen/schemagen/compiler/expr/render"
	"github.com/schemagen/schemagen/dialects"
	"github.com/schemagen/schemagen/internal/devdb"
	"github.com/schemagen/schemagen/internal/redact"
)

// deferrableReader is declared in dialects, with the other parts of a dialect.
type deferrableReader = dialects.DeferrableReader

// checkTexter is declared in dialects, with the other parts of a dialect.
type checkTexter = dialects.CheckTexter

// columnClauser is declared in dialects, with the other parts of a dialect.
type columnClauser = dialects.ColumnClauser

// rawTypeNoter, onUpdateFolder and columnCollator are declared in
// dialects, with the other parts of a dialect.
type (
	rawTypeNoter   = dialects.RawTypeNoter
	onUpdateFolder = dialects.OnUpdateFolder
	columnCollator = dialects.ColumnCollator
)

// identityReader is declared in dialects, with the other parts of a dialect.
type identityReader = dialects.IdentityReader

// layoutReader is declared in dialects, with the other parts of a dialect.
type layoutReader = dialects.LayoutReader

// identityNoter is declared in dialects, with the other parts of a dialect.
type identityNoter = dialects.IdentityNoter

// onUpdater is declared in dialects, with the other parts of a dialect.
type onUpdater = dialects.OnUpdater

// onUpdateReader is declared in dialects, with the other parts of a dialect.
type onUpdateReader = dialects.OnUpdateReader

// notNullReader is declared in dialects, with the other parts of a dialect.
type notNullReader = dialects.NotNullReader

// ownChecker is declared in dialects, with the other parts of a dialect.
type ownChecker = dialects.OwnChecker

// generatedTexter is declared in dialects, with the other parts of a dialect.
type generatedTexter = dialects.GeneratedTexter

func generatedExpr(c *schema.Column) *schema.GeneratedExpr {
	for _, a := range c.Attrs {
		if g, ok := a.(*schema.GeneratedExpr); ok {
			return g
		}
	}
	return nil
}

// generatedKeyer is declared in dialects, with the other parts of a dialect.
type generatedKeyer = dialects.GeneratedKeyer

// Imported is one database read back: the model in its dialect's terms and
// what could not be kept neutral.
type Imported struct {
	Dialect dialects.Dialect
	Schema  *compiler.Schema
	// Notes are per table ("" for the schema): what the import kept as the
	// dialect's own SQL, and why.
	Notes map[string][]string
	// settings are dialect settings the read infers (value_domains).
	settings map[string]cty.Value
	// domainWant counts the value-domain CHECKs the dialect would give the
	// tables read; domainHits are those the database has.
	domainWant int
	domainHits []domainHit
	// raw keeps each table's inspected form, for merging.
	raw map[string]*schema.Table
	// indexes are what the dialect's catalog says of each index beyond
	// Atlas's inspection, by table and index name.
	indexes map[[2]string]dialects.IndexCatalog
	// helpers are the VIRTUAL columns read as the key parts they stand
	// for, by table and column name.
	helpers map[[2]string]helper
	drv     interface {
		PlanChanges(context.Context, string, []schema.Change, ...migrate.PlanOption) (*migrate.Plan, error)
	}
}

// Settings are the dialect settings the read infers (value_domains = false
// for a database whose value-domain CHECKs are not the dialect's).
func (im *Imported) Settings() map[string]cty.Value { return im.settings }

// Inspected is each table read as Atlas inspected it, by name; callers only
// read it.
func (im *Imported) Inspected() map[string]*schema.Table { return im.raw }

// RawType returns the type of column of table as the database spells it,
// or "".
func (im *Imported) RawType(table, column string) string {
	imp, ok := im.Dialect.(dialects.Importer)
	t := im.raw[table]
	if !ok || t == nil {
		return ""
	}
	c, ok := t.Column(column)
	if !ok {
		return ""
	}
	_, raw, _ := imp.NeutralType(c.Type)
	return raw
}

// DefaultSQL returns the default of column of table, of neutral type t,
// as the database's SQL, or "" when it has none.
func (im *Imported) DefaultSQL(table, column string, t compiler.Type) string {
	imp, ok := im.Dialect.(dialects.Importer)
	tb := im.raw[table]
	if !ok || tb == nil {
		return ""
	}
	c, ok := tb.Column(column)
	if !ok || c.Default == nil {
		return ""
	}
	_, raw, _ := imp.NeutralDefault(c.Default, t)
	return raw
}

func (im *Imported) note(table, format string, args ...any) {
	im.Notes[table] = append(im.Notes[table], fmt.Sprintf(format, args...))
}

// Database inspects the database at url (read-only) and builds its model.
// Tables matching none of the patterns are left out (all tables when there
// are none).
func Database(ctx context.Context, d dialects.Dialect, url string, patterns []string) (*Imported, error) {
	db, err := devdb.Open(url)
	if err != nil {
		return nil, err
	}
	defer db.Close()
	conn, err := db.Conn(ctx)
	if err != nil {
		return nil, fmt.Errorf("connecting to %s: %s", redact.URL(url), redact.Secrets(err.Error(), redact.Password(url)))
	}
	defer conn.Close()
	drv, err := d.OpenAtlas(conn)
	if err != nil {
		return nil, fmt.Errorf("%s: %s", redact.URL(url), redact.Secrets(err.Error(), redact.Password(url)))
	}
	// The catalog's indexes are read on a connection of their own, while
	// Atlas inspects: the reads wait mostly on the server.
	var (
		indexes    map[[2]string]dialects.IndexCatalog
		indexesErr error
		reading    sync.WaitGroup
	)
	if ir, ok := d.(dialects.IndexReader); ok {
		reading.Go(func() {
			c, err := db.Conn(ctx)
			if err != nil {
				indexesErr = err
				return
			}
			defer c.Close()
			indexes, indexesErr = ir.ReadIndexes(ctx, c)
		})
	}
	s, err := drv.InspectSchema(ctx, "", &schema.InspectOptions{Exclude: []string{dialects.RevisionTable}})
	reading.Wait()
	if err == nil && indexesErr != nil {
		err = indexesErr
	}
	if err != nil {
		msg := redact.Secrets(err.Error(), redact.Password(url))
		if imp, ok := d.(dialects.Importer); ok {
			msg = imp.InspectAdvice(msg) + msg
		}
		return nil, fmt.Errorf("inspecting %s: %s", redact.URL(url), msg)
	}
	var tables []*schema.Table
	for _, t := range s.Tables {
		if len(patterns) == 0 || slices.ContainsFunc(patterns, func(p string) bool { ok, _ := path.Match(p, t.Name); return ok }) {
			tables = append(tables, t)
		}
	}
	var serialNotes map[string][]string
	if sf, ok := d.(serialFixer); ok {
		if serialNotes, err = sf.FixSerials(ctx, conn, tables); err != nil {
			return nil, fmt.Errorf("inspecting %s: %s", redact.URL(url), redact.Secrets(err.Error(), redact.Password(url)))
		}
	}
	if len(tables) == 0 {
		return nil, fmt.Errorf("%s: no table to import: the database has none%s, or the role may not read them (it needs to see the tables in the catalog)",
			redact.URL(url), map[bool]string{true: " matching " + strings.Join(patterns, ", "), false: ""}[len(patterns) > 0])
	}
	im := &Imported{Dialect: d, Schema: &compiler.Schema{Dialect: map[string]*compiler.DialectSettings{}}, Notes: map[string][]string{}, raw: map[string]*schema.Table{}, drv: drv}
	for table, ns := range serialNotes {
		for _, n := range ns {
			im.note(table, "%s", n)
		}
	}
	imp, _ := d.(dialects.Importer)
	if imp == nil {
		return nil, fmt.Errorf("the %s dialect cannot import", d.Name())
	}
	// The database's enum types first, in its order (as the generated DDL
	// created them), used or not.
	for _, o := range s.Objects {
		if e, ok := o.(*schema.EnumType); ok {
			im.Schema.Enums = append(im.Schema.Enums, &compiler.Enum{Name: e.T, Values: slices.Clone(e.Values)})
		}
	}
	im.indexes = indexes

	var deferrable map[[2]string]bool
	if dr, ok := d.(deferrableReader); ok {
		if deferrable, err = dr.DeferrableKeys(ctx, conn); err != nil {
			return nil, fmt.Errorf("inspecting %s: %s", redact.URL(url), redact.Secrets(err.Error(), redact.Password(url)))
		}
	}
	for _, t := range tables {
		im.raw[t.Name] = t
		ct := im.table(imp, t)
		for _, fk := range ct.ForeignKeys {
			if deferred, ok := deferrable[[2]string{t.Name, fk.Name}]; ok {
				fk.Deferrable, fk.InitiallyDeferred = true, deferred
			}
		}
		im.Schema.Tables = append(im.Schema.Tables, ct)
	}
	im.settleDomains()
	if r, ok := d.(onUpdateReader); ok {
		notes, err := r.ReadOnUpdate(ctx, conn, im.Schema.Tables)
		if err != nil {
			return nil, fmt.Errorf("inspecting %s: %s", redact.URL(url), redact.Secrets(err.Error(), redact.Password(url)))
		}
		for table, ns := range notes {
			for _, n := range ns {
				im.note(table, "%s", n)
			}
		}
	}
	if r, ok := d.(notNullReader); ok {
		notes, err := r.ReadNotNulls(ctx, conn, im.Schema.Tables)
		if err != nil {
			return nil, fmt.Errorf("inspecting %s: %s", redact.URL(url), redact.Secrets(err.Error(), redact.Password(url)))
		}
		for table, ns := range notes {
			for _, n := range ns {
				im.note(table, "%s", n)
			}
		}
	}
	var raws []dialects.RawObject
	if rr, ok := d.(rawObjectReader); ok {
		var left []string
		if raws, left, err = rr.ReadRawObjects(ctx, conn, im.Schema.Tables); err != nil {
			return nil, fmt.Errorf("inspecting %s: %s", redact.URL(url), redact.Secrets(err.Error(), redact.Password(url)))
		}
		for _, n := range left {
			im.note("", "%s", n)
		}
	}
	functions := im.rawObjects(raws, false)
	if od, ok := d.(dialects.ObjectDialect); ok {
		objs, err := od.ReadObjects(ctx, conn)
		if err != nil {
			return nil, fmt.Errorf("inspecting %s: %s", redact.URL(url), redact.Secrets(err.Error(), redact.Password(url)))
		}
		im.objects(od, objs, patterns, functions)
	}
	im.rawObjects(raws, true)
	return im, nil
}

// serialFixer is declared in dialects, with the other parts of a dialect.
type serialFixer = dialects.SerialFixer

// rawObjectReader is declared in dialects, with the other parts of a dialect.
type rawObjectReader = dialects.RawObjectReader

// rawObjects adds the raw objects to the model as raw blocks of the
// dialect: the late ones (triggers, after the views), or the others. A
// trigger of a table not imported is left out, with a note. It returns the
// names of the functions and aggregates added, without their arguments: the
// views that call them can be kept.
func (im *Imported) rawObjects(objs []dialects.RawObject, late bool) map[string]bool {
	tables := map[string]bool{}
	for _, t := range im.Schema.Tables {
		tables[t.Name] = true
	}
	views := map[string]bool{}
	for _, r := range im.Schema.Raw {
		views[r.Name] = true
	}
	functions := map[string]bool{}
	for _, o := range objs {
		if o.Late != late {
			continue
		}
		if len(o.Tables) > 0 && !slices.ContainsFunc(o.Tables, func(t string) bool { return tables[t] || views[t] }) {
			im.note("", "%s %s left out: it is for %s, which is not imported", o.Kind, o.Name, strings.Join(o.Tables, ", "))
			continue
		}
		if o.Kind == "function" || o.Kind == "aggregate" {
			name, _, _ := strings.Cut(o.Name, "(")
			functions[name] = true
		}
		im.Schema.Raw = append(im.Schema.Raw, &compiler.Raw{Name: o.Kind + " " + o.Name, After: !o.Before, SQL: map[string]string{im.Dialect.Name(): o.SQL}})
		im.note("", "%s %s: kept as a %s raw block, which the other dialects do not have", o.Kind, o.Name, im.Dialect.Name())
	}
	return functions
}

// objects adds a database's extensions to the model, and each of its views
// (matching patterns) as a raw block of its name that creates it, ordered
// after the views it reads.
func (im *Imported) objects(od dialects.ObjectDialect, objs *dialects.Objects, patterns []string, functions map[string]bool) {
	for _, e := range objs.Extensions {
		im.Schema.Extensions = append(im.Schema.Extensions, &compiler.Extension{Name: e})
	}
	var names []string
	for v := range objs.Views {
		if len(patterns) == 0 || slices.ContainsFunc(patterns, func(p string) bool { ok, _ := path.Match(p, v); return ok }) {
			names = append(names, v)
		}
	}
	slices.Sort(names)
	// A view that calls the database's own functions, or reads a table
	// not imported, would not build from the model: left out, with a note.
	tables := map[string]bool{}
	for _, t := range im.Schema.Tables {
		tables[t.Name] = true
	}
	for changed := true; changed; {
		changed = false
		names = slices.DeleteFunc(names, func(v string) bool {
			why := ""
			if fns := slices.DeleteFunc(slices.Clone(objs.ViewCalls[v]), func(f string) bool { return functions[f] }); len(fns) > 0 {
				why = "it calls " + strings.Join(fns, ", ") + ", which the model cannot hold"
			}
			for _, r := range objs.ViewReads[v] {
				if !tables[r] && !slices.Contains(names, r) && why == "" {
					why = "it reads " + r + ", which is not imported"
				}
			}
			if why != "" {
				im.note("", "view %s left out: %s; add it as a raw block with what it needs", v, why)
				changed = true
			}
			return why != ""
		})
	}
	done := map[string]bool{}
	var add func(string)
	add = func(v string) {
		if done[v] {
			return
		}
		done[v] = true
		for _, r := range objs.ViewReads[v] {
			if slices.Contains(names, r) {
				add(r)
			}
		}
		im.Schema.Raw = append(im.Schema.Raw, &compiler.Raw{Name: v, After: true, SQL: map[string]string{im.Dialect.Name(): od.CreateView(v, objs.Views[v])}})
	}
	for _, v := range names {
		add(v)
	}
}

// enum returns the model's enum for a column's enum type: the database's
// named type, or, for a dialect whose enums have no name (TiDB's
// ENUM(...)), a new enum named after the table and column.
func (im *Imported) enum(table, column string, e *compiler.Enum) *compiler.Enum {
	if e.Name != "" {
		if have := im.Schema.Enum(e.Name); have != nil {
			return have
		}
		im.Schema.Enums = append(im.Schema.Enums, e)
		return e
	}
	name := table + "_" + column
	for i := 2; im.Schema.Enum(name) != nil; i++ {
		name = fmt.Sprintf("%s_%s_%d", table, column, i)
	}
	e.Name = name
	im.Schema.Enums = append(im.Schema.Enums, e)
	return e
}

func (im *Imported) table(imp dialects.Importer, t *schema.Table) *compiler.Table {
	d := im.Dialect.Name()
	ct := &compiler.Table{Name: t.Name, Overrides: compiler.Overrides{}}
	for _, a := range t.Attrs {
		if c, ok := a.(*schema.Comment); ok {
			ct.Comment = c.Text
		}
	}
	// Generated columns whose expression may be portable, read once all
	// columns are known, with the raw type to keep should it not be.
	type pending struct {
		col *compiler.Column
		gen *schema.GeneratedExpr
		raw string
	}
	var generated []pending
	for _, c := range t.Columns {
		col := &compiler.Column{Name: c.Name, Null: c.Type.Null, Overrides: compiler.Overrides{}}
		typ, raw, ok := imp.NeutralType(c.Type)
		if ok && typ.Kind == compiler.TypeEnum {
			typ.Enum = im.enum(t.Name, c.Name, typ.Enum)
		}
		var clause, why string
		if cc, is := im.Dialect.(columnClauser); is {
			clause, why = cc.ColumnClause(c)
			if gen := generatedExpr(c); gen != nil && ok {
				// The generated expression is the model's own when portable.
				plain := *c
				plain.Attrs = slices.DeleteFunc(slices.Clone(c.Attrs), func(a schema.Attr) bool { _, g := a.(*schema.GeneratedExpr); return g })
				full := raw + " " + clause
				clause, why = cc.ColumnClause(&plain)
				generated = append(generated, pending{col, gen, full})
			}
		}
		if cc, is := im.Dialect.(columnCollator); is && ok && clause == "" {
			collated, n := cc.CollatedType(t, c), len(generated)
			switch {
			case collated == "":
			case n > 0 && generated[n-1].col == col:
				// A generated column keeps its collation in the raw type it
				// keeps when its expression is not portable; a portable one
				// gets it from the dialect's settings, as any column does.
				generated[n-1].raw = collated + strings.TrimPrefix(generated[n-1].raw, raw)
			default:
				// The column's own collation is its dialect's: its type.
				clause, why, raw = " ", "its collation is not its table's", collated
			}
		}
		if ou, is := im.Dialect.(onUpdater); is && ou.OnUpdate(c, typ) {
			col.OnUpdate = true
		}
		switch {
		case ok && clause == "":
			col.Type = typ
		case ok:
			// The type is neutral, but what follows it in the column's
			// definition is the dialect's own: keep both as its raw type.
			col.Type = typ
			raw = strings.TrimSpace(raw + " " + clause)
			col.Overrides[d] = &compiler.Override{Dialect: d, RawType: raw}
			im.note(t.Name, "column %s: %s; kept as a %s type override %q, %s elsewhere", c.Name, why, d, raw, typ)
		default:
			// No neutral type means the same: keep the dialect's, and give the
			// other dialects the closest neutral type the dialect names (text
			// where it names none), to be reviewed.
			col.Type = compiler.Type{Kind: compiler.TypeText}
			if typ.Kind != compiler.TypeInvalid {
				col.Type = typ
			}
			if clause != "" {
				raw += " " + clause
			}
			col.Overrides[d] = &compiler.Override{Dialect: d, RawType: raw}
			if rn, ok := im.Dialect.(rawTypeNoter); ok && rn.RawTypeWhy(c.Type) != "" {
				im.note(t.Name, "column %s: %s is %s; kept as a %s override, %s elsewhere", c.Name, raw, rn.RawTypeWhy(c.Type), d, col.Type)
			} else {
				im.note(t.Name, "column %s: %s has no neutral type; kept as a %s override, %s elsewhere", c.Name, raw, d, col.Type)
			}
		}
		if ir, is := im.Dialect.(identityReader); is {
			if col.Identity = ir.Identity(t, c); col.Identity != nil {
				if o := col.Overrides[d]; o != nil {
					// A serial: the notes say why the type stays the dialect's.
					im.Notes[t.Name] = im.Notes[t.Name][:len(im.Notes[t.Name])-1]
					im.note(t.Name, "column %s: an identity of type %s, which stays a %s override", c.Name, o.RawType, d)
				}
				if n, ok := ir.(identityNoter); ok {
					if msg := n.IdentityNote(t); msg != "" {
						im.note(t.Name, "column %s: %s", c.Name, msg)
					}
				}
			}
		}
		if f, is := im.Dialect.(onUpdateFolder); is && col.OnUpdate && col.Overrides[d] != nil && col.Overrides[d].RawType != "" {
			col.Overrides[d].RawType = f.FoldOnUpdate(col.Overrides[d].RawType, col.Type)
		}
		if c.Default != nil && col.Identity == nil {
			def, raw, ok := imp.NeutralDefault(c.Default, col.Type)
			if o := col.Overrides[d]; ok && (o == nil || o.RawType != "" && o.Default == "" && col.Generated == nil) && compiler.DefaultFits(def, col.Type) {
				// A raw type's default is neutral too where it fits the
				// type the other dialects get: they keep it, and the
				// dialect its own text.
				col.Default = def
				if o != nil {
					o.Default = raw
				}
			} else if raw != "" {
				o := col.Overrides[d]
				if o == nil {
					o = &compiler.Override{Dialect: d}
					col.Overrides[d] = o
				}
				o.Default = raw
				im.note(t.Name, "column %s: default %s kept as a %s override", c.Name, raw, d)
			}
		}
		for _, a := range c.Attrs {
			if cm, ok := a.(*schema.Comment); ok {
				col.Comment = cm.Text
			}
		}
		if len(col.Overrides) == 0 {
			col.Overrides = compiler.Overrides{}
		}
		ct.Columns = append(ct.Columns, col)
	}
	resolve := func(name string) (expr.Kind, bool) {
		for _, c := range ct.Columns {
			if c.Name == name {
				return c.Type.ExprKind(), true
			}
		}
		return expr.KindUnknown, false
	}
	for _, g := range generated {
		n, err := im.parse(g.gen.Expr, resolve)
		if gt, ok := im.Dialect.(generatedTexter); ok && err == nil && !gt.PortableGenerated(g.raw, g.gen.Expr) {
			err = fmt.Errorf("it converts its value to the column's type, which the model does by itself")
		}
		if err == nil && g.col.Overrides[d] == nil {
			g.col.Generated = &compiler.Generated{Expr: n, Source: render.String(n), Stored: !strings.EqualFold(g.gen.Type, "VIRTUAL")}
			continue
		}
		if err == nil {
			err = fmt.Errorf("its column is kept as %s's own", d)
		}
		o := g.col.Overrides[d]
		if o == nil {
			o = &compiler.Override{Dialect: d}
			g.col.Overrides[d] = o
		}
		o.RawType = g.raw
		im.note(t.Name, "column %s: a generated column whose expression %s has no portable form (%v); kept as a %s type override %q", g.col.Name, g.gen.Expr, err, d, g.raw)
	}
	if pk := t.PrimaryKey; pk != nil {
		ct.PrimaryKey = &compiler.PrimaryKey{}
		if n, ok := im.Dialect.(dialects.PrimaryKeyNamer); ok {
			ct.PrimaryKey.Name = n.PrimaryKeyName(t)
		}
		for _, p := range pk.Parts {
			if p.C != nil {
				ct.PrimaryKey.Columns = append(ct.PrimaryKey.Columns, p.C.Name)
			}
		}
	}
	if tr, ok := im.Dialect.(dialects.TTLReader); ok {
		ct.TTL = tr.TTL(t)
	}
	if pr, ok := im.Dialect.(dialects.PartitionReader); ok {
		ct.Partition = pr.Partition(t)
	}
	if lr, ok := im.Dialect.(layoutReader); ok {
		var clustered *bool
		clustered, ct.ShardRowIDBits, ct.PreSplitRegions = lr.Layout(t)
		if ct.PrimaryKey != nil {
			ct.PrimaryKey.Clustered = clustered
		}
	}
	for _, idx := range t.Indexes {
		if imp.Implicit(t, idx) {
			continue
		}
		im.index(ct, t, idx, resolve)
	}
	for _, fk := range t.ForeignKeys {
		f := &compiler.ForeignKey{Name: fk.Symbol, Overrides: compiler.Overrides{}, OnDelete: action(fk.OnDelete), OnUpdate: action(fk.OnUpdate)}
		if fk.RefTable != nil {
			f.RefTable = fk.RefTable.Name
		}
		for _, c := range fk.Columns {
			f.Columns = append(f.Columns, c.Name)
		}
		for _, c := range fk.RefColumns {
			f.RefColumns = append(f.RefColumns, c.Name)
		}
		ct.ForeignKeys = append(ct.ForeignKeys, f)
	}
	own, _ := im.Dialect.(ownChecker)
	var missing map[string]string
	if own != nil {
		missing = own.OwnChecks(ct)
	}
	for _, a := range t.Attrs {
		c, ok := a.(*schema.Check)
		if ok && own != nil && own.OwnCheck(ct, c) {
			delete(missing, c.Name)
			continue
		}
		if !ok {
			continue
		}
		chk := &compiler.Check{Name: c.Name, Source: c.Expr, Overrides: compiler.Overrides{}}
		texter, texts := im.Dialect.(checkTexter)
		if n, err := im.parse(c.Expr, resolve); err == nil {
			chk.Expr = n
			if texts {
				// The text to write for the database to store it again, should
				// a merge keep it as this dialect's own.
				chk.Source, _ = texter.CheckText(c.Expr, nil)
				if raw, differs := texter.CheckText(c.Expr, n); differs {
					// The same expression, but the database would store other
					// text (other parentheses): keep its own, so that a diff
					// against it stays empty.
					chk.Overrides[d] = &compiler.Override{Dialect: d, Expr: raw}
					chk.Source = raw
					im.note(t.Name, "check %s: %s keeps its text as written, which schemagen would write otherwise; kept as %s SQL beside the portable form", c.Name, d, d)
				}
			}
		} else {
			raw := c.Expr
			if texts {
				raw, _ = texter.CheckText(c.Expr, nil)
			}
			chk.Source = raw
			chk.Overrides[d] = &compiler.Override{Dialect: d, Expr: raw}
			im.note(t.Name, "check %s: %v; kept as %s SQL", c.Name, err, d)
		}
		ct.Checks = append(ct.Checks, chk)
	}
	im.domainChecks(ct)
	for _, name := range slices.Sorted(maps.Keys(missing)) {
		column := missing[name]
		c := ct.Column(column)
		if c == nil || c.Overrides[d] != nil {
			continue
		}
		raw := ""
		for _, sc := range t.Columns {
			if sc.Name == column {
				_, raw, _ = imp.NeutralType(sc.Type)
			}
		}
		c.Overrides[d] = &compiler.Override{Dialect: d, RawType: raw}
		im.note(t.Name, "column %s: %s without the CHECK %s that keeps it %s; kept as a %s type override, %s elsewhere", column, raw, name, "in the range the other dialects take", d, c.Type)
	}
	if ck, ok := im.Dialect.(caseKeyer); ok {
		im.partialKeys(ck, ct, t, resolve)
	}
	if gk, ok := im.Dialect.(generatedKeyer); ok {
		im.generatedKeys(gk, ct, t, resolve)
	}
	return ct
}

func (im *Imported) parse(text string, cols expr.Resolver) (expr.Node, error) {
	return im.Dialect.ParseExpr(text, cols)
}

// facts reads the dialect's attributes of an index.
func (im *Imported) facts(idx *schema.Index) dialects.IndexFacts {
	if imp, ok := im.Dialect.(dialects.Importer); ok {
		return imp.ReadIndex(idx)
	}
	return dialects.IndexFacts{}
}

// index adds an inspected index to the table: as a unique constraint where
// the database says it is one, else as an index; what cannot be read
// portably is kept as the dialect's statement.
func (im *Imported) index(ct *compiler.Table, t *schema.Table, idx *schema.Index, cols expr.Resolver) {
	d := im.Dialect.Name()
	var (
		parts    []*compiler.IndexPart
		using    string
		where    expr.Node
		readable = true
		plain    = true
		unique   bool
	)
	facts := im.facts(idx)
	cat := im.indexes[[2]string{t.Name, idx.Name}]
	if cat.Invalid != "" {
		im.note(t.Name, "index %s: left out: %s", idx.Name, cat.Invalid)
		return
	}
	facts.Own = append(facts.Own, cat.Own...)
	if facts.NullsNotDistinct && slices.ContainsFunc(idx.Parts, func(p *schema.IndexPart) bool { return p.C == nil || p.C.Type == nil || p.C.Type.Null }) {
		// Over keys that can be NULL, TiDB has no equivalent and the model
		// refuses it there: PostgreSQL's statement keeps it, and the other
		// dialects get the index without it, as the summary says.
		facts.Own, facts.NullsNotDistinct = append(facts.Own, "NULLS NOT DISTINCT"), false
	}
	options := indexOptions(facts)
	if facts.Unique && options != nil {
		// A unique constraint has no options in the model: its own
		// statement keeps them, as before the model had them.
		facts.Own = append(facts.Own, options...)
	}
	for i, p := range idx.Parts {
		part := &compiler.IndexPart{Desc: p.Desc}
		switch {
		case p.C != nil:
			part.Column = p.C.Name
		case p.X != nil && facts.VectorColumn != "":
			// The distance function of a vector index: its column.
			part.Column = facts.VectorColumn
		case p.X != nil:
			plain = false
			x, ok := p.X.(*schema.RawExpr)
			if !ok {
				readable = false
				break
			}
			n, err := im.parse(x.X, cols)
			if err != nil {
				readable = false
				im.note(t.Name, "index %s: expression %s: %v", idx.Name, x.X, err)
				break
			}
			part.Expr = n
		}
		if facts.OpClasses != nil && facts.OpClasses[i] != "" {
			part.Attrs = append(part.Attrs, &compiler.OpClass{Name: facts.OpClasses[i]})
		}
		plain = plain && !p.Desc && part.OpClass() == ""
		parts = append(parts, part)
	}
	using, unique = facts.Using, facts.Unique
	if facts.HasPredicate {
		n, err := im.parse(facts.Predicate, cols)
		if err != nil {
			readable = false
			im.note(t.Name, "index %s: predicate %s: %v", idx.Name, facts.Predicate, err)
		}
		where = n
		plain = false
	}
	comment := ""
	for _, a := range idx.Attrs {
		if c, ok := a.(*schema.Comment); ok {
			comment = c.Text
		}
	}
	if unique && plain && using == "" && len(facts.Own) == 0 {
		if comment != "" {
			im.note(t.Name, "unique constraint %s: its index's comment is left out: a unique constraint has no comment in the model (%q)", idx.Name, comment)
		}
		u := &compiler.Unique{Name: idx.Name, Overrides: compiler.Overrides{}}
		for _, p := range parts {
			u.Columns = append(u.Columns, p.Column)
		}
		ct.Uniques = append(ct.Uniques, u)
		return
	}
	ci := &compiler.Index{Name: idx.Name, Unique: idx.Unique, Parts: parts, Where: where, Comment: comment, Overrides: compiler.Overrides{}}
	if !facts.Unique {
		ci.Include, ci.NullsNotDistinct, ci.Invisible = facts.Include, facts.NullsNotDistinct, facts.Invisible
		for _, p := range facts.Storage {
			ci.Storage = append(ci.Storage, compiler.StorageParam{Name: p[0], Value: p[1]})
		}
		slices.SortFunc(ci.Storage, func(x, y compiler.StorageParam) int { return strings.Compare(x.Name, y.Name) })
	}
	if using != "" {
		ci.Attrs = append(ci.Attrs, &compiler.IndexMethod{Name: using})
	}
	if !readable || len(facts.Own) > 0 {
		// Keep the statement that creates it, as the database's driver plans
		// it; an index with clauses the model cannot hold keeps its neutral
		// form too, for the other dialects.
		what := "the unique index"
		if unique {
			what = "the unique constraint"
		} else if !idx.Unique {
			what = "the index"
		}
		if readable {
			note := ""
			if slices.Contains(facts.Own, "NULLS NOT DISTINCT") {
				note = ", which allows repeated NULLs"
			}
			if slices.ContainsFunc(facts.Own, func(o string) bool { return strings.HasPrefix(o, "DEFERRABLE") }) {
				note += ", checked at each statement"
			}
			if slices.ContainsFunc(facts.Own, func(o string) bool { return strings.HasPrefix(o, "the prefix ") }) {
				note += ", over whole values: it allows rows alike in their prefix"
			}
			im.note(t.Name, "index %s: %s has no construct in the model: kept as %s's statement; the other dialects get %s without it%s",
				idx.Name, strings.Join(facts.Own, " and "), d, what, note)
		} else {
			ci.Parts, ci.Where, ci.Attrs = nil, nil, nil
		}
		sql, err := im.statement(t, idx)
		if sql == "" {
			im.note(t.Name, "index %s could not be read, nor planned: %v; left out", idx.Name, err)
			return
		}
		ci.Overrides[d] = &compiler.Override{Dialect: d, SQL: sql}
	}
	ct.Indexes = append(ct.Indexes, ci)
}

// indexOptions are an index's options as the database writes them, nil
// for none (a unique constraint keeps them in its own statement; its
// storage parameters are already the catalog's IndexCatalog.Own).
func indexOptions(f dialects.IndexFacts) []string {
	var out []string
	if len(f.Include) > 0 {
		out = append(out, "INCLUDE ("+strings.Join(f.Include, ", ")+")")
	}
	if f.NullsNotDistinct {
		out = append(out, "NULLS NOT DISTINCT")
	}
	// A constraint's storage parameters are the catalog's own clause.
	if f.Invisible {
		out = append(out, "INVISIBLE")
	}
	return out
}

// statement is the statement that creates index idx of t: the database's
// own, which keeps what Atlas does not read; else the one its driver plans.
func (im *Imported) statement(t *schema.Table, idx *schema.Index) (string, error) {
	if sql := im.indexes[[2]string{t.Name, idx.Name}].Statement; sql != "" {
		return sql, nil
	}
	plan, err := im.drv.PlanChanges(context.Background(), "import", []schema.Change{&schema.ModifyTable{T: t, Changes: []schema.Change{&schema.AddIndex{I: idx}}}}, func(o *migrate.PlanOptions) { o.SchemaQualifier = new(string) })
	if err != nil || len(plan.Changes) != 1 {
		return "", err
	}
	return plan.Changes[0].Cmd, nil
}

// IndexStatement is the statement that creates the index named name of
// table: the database's own, else the one its driver plans; "" if there is
// none.
func (im *Imported) IndexStatement(table, name string) string {
	t := im.raw[table]
	if t == nil {
		return ""
	}
	idx, ok := t.Index(name)
	if !ok {
		return ""
	}
	sql, _ := im.statement(t, idx)
	return sql
}

func action(a schema.ReferenceOption) compiler.Action {
	switch strings.ToUpper(string(a)) {
	case "CASCADE":
		return compiler.Cascade
	case "SET NULL":
		return compiler.SetNull
	case "SET DEFAULT":
		return compiler.SetDefault
	case "RESTRICT":
		return compiler.Restrict
	}
	return compiler.NoAction
}

// generatedKeys reads back the VIRTUAL generated columns that exist only to
// be indexed (TiDB cannot index a COALESCE directly; teams index a
// column that computes it, and do so for a CASE too) as the expression key parts they stand for, when
// compiling the model gives the same column again: same type, and its name
// kept as the part's override.
func (im *Imported) generatedKeys(gk generatedKeyer, ct *compiler.Table, t *schema.Table, cols expr.Resolver) {
	d := im.Dialect.Name()
	for _, c := range t.Columns {
		var gen *schema.GeneratedExpr
		for _, a := range c.Attrs {
			if g, ok := a.(*schema.GeneratedExpr); ok && strings.EqualFold(g.Type, "VIRTUAL") {
				gen = g
			}
		}
		if gen == nil || !onlyIndexed(ct, c.Name) {
			continue
		}
		n, err := im.parse(gen.Expr, cols)
		if err != nil || slices.Contains(expr.Columns(n), c.Name) {
			continue
		}
		typ := gk.GeneratedKeyType(ct, n)
		if typ == "" || !strings.EqualFold(typ, c.Type.Raw) {
			continue
		}
		for _, idx := range ct.Indexes {
			for _, p := range idx.Parts {
				if p.Expr != nil || p.Column != c.Name {
					continue
				}
				p.Column, p.Expr = "", n
				if p.Overrides == nil {
					p.Overrides = compiler.Overrides{}
				}
				// Named always: a part that names its column is indexed
				// through it even where the dialect could index n directly
				// (CASE on TiDB), so generate gives the column back.
				p.Overrides[d] = &compiler.Override{Dialect: d, Column: c.Name}
			}
		}
		if i := slices.IndexFunc(ct.Columns, func(x *compiler.Column) bool { return x.Name == c.Name }); i >= 0 {
			if im.helpers == nil {
				im.helpers = map[[2]string]helper{}
			}
			im.helpers[[2]string{t.Name, c.Name}] = helper{ct.Columns[i], i, slices.Clone(im.Notes[t.Name])}
		}
		ct.Columns = slices.DeleteFunc(ct.Columns, func(x *compiler.Column) bool { return x.Name == c.Name })
		im.Notes[t.Name] = slices.DeleteFunc(im.Notes[t.Name], func(s string) bool { return strings.HasPrefix(s, "column "+c.Name+": ") })
		im.note(t.Name, "column %s: a VIRTUAL generated column that only indexes use, read as their key part %s", c.Name, render.String(n))
	}
}

// helper is a VIRTUAL column read as the key part it stands for: the
// column, its place in its table, and the table's notes before.
type helper struct {
	col   *compiler.Column
	at    int
	notes []string
}

// KeepColumn gives table ct of the model read back its column name where
// generatedKeys read it as the key part it stands for (the other database
// of a merge has it as a column of its own: the model declares it, and
// its indexes name it); it reports whether it did.
func (im *Imported) KeepColumn(ct *compiler.Table, name string) bool {
	h, ok := im.helpers[[2]string{ct.Name, name}]
	if !ok || ct.Column(name) != nil {
		return false
	}
	d := im.Dialect.Name()
	ct.Columns = slices.Insert(ct.Columns, min(h.at, len(ct.Columns)), h.col)
	for _, idx := range ct.Indexes {
		for _, p := range idx.Parts {
			if o := p.Overrides[d]; o != nil && o.Column == name {
				p.Column, p.Expr = name, nil
				delete(p.Overrides, d)
			}
		}
	}
	im.Notes[ct.Name] = h.notes
	return true
}

// onlyIndexed reports whether column name of ct is used by indexes only, as
// a plain key part of at least one.
func onlyIndexed(ct *compiler.Table, name string) bool {
	if ct.PrimaryKey != nil && slices.Contains(ct.PrimaryKey.Columns, name) {
		return false
	}
	for _, u := range ct.Uniques {
		if slices.Contains(u.Columns, name) {
			return false
		}
	}
	for _, fk := range ct.ForeignKeys {
		if slices.Contains(fk.Columns, name) {
			return false
		}
	}
	for _, c := range ct.Checks {
		if c.Expr == nil && strings.Contains(c.Source, name) || slices.Contains(expr.Columns(c.Expr), name) {
			return false
		}
	}
	used := false
	for _, idx := range ct.Indexes {
		if len(idx.Parts) == 0 {
			if o := idx.Overrides; o != nil {
				for _, ov := range o {
					if strings.Contains(ov.SQL, name) {
						return false
					}
				}
			}
		}
		for _, p := range idx.Parts {
			if p.Expr != nil && slices.Contains(expr.Columns(p.Expr), name) {
				return false
			}
			used = used || p.Expr == nil && p.Column == name
		}
		if idx.Where != nil && slices.Contains(expr.Columns(idx.Where), name) {
			return false
		}
	}
	return used
}

// domainReader is declared in dialects, with the other parts of a dialect.
type domainReader = dialects.DomainReader

type domainHit struct {
	table *compiler.Table
	check *compiler.Check
}

// domainChecks counts the value-domain CHECKs the dialect would give ct and
// notes those the database has: a CHECK of that name over its column.
func (im *Imported) domainChecks(ct *compiler.Table) {
	dr, ok := im.Dialect.(domainReader)
	if !ok {
		return
	}
	want := dr.DomainChecks(ct)
	im.domainWant += len(want)
	for _, c := range ct.Checks {
		col, ok := want[c.Name]
		if ok && (c.Expr == nil || slices.Contains(expr.Columns(c.Expr), col)) && strings.Contains(c.Source, col) {
			im.domainHits = append(im.domainHits, domainHit{ct, c})
		}
	}
}

// settleDomains leaves the value-domain CHECKs to the dialect when the
// database has every one it would add (a database schemagen made), so that
// they are not user CHECKs of the model; otherwise (a database written by
// hand) the model says value_domains = false and keeps what the database
// has, so that generating gives its DDL again.
func (im *Imported) settleDomains() {
	d := im.Dialect.Name()
	switch {
	case im.domainWant == 0:
	case len(im.domainHits) == im.domainWant:
		for _, h := range im.domainHits {
			h.table.Checks = slices.DeleteFunc(h.table.Checks, func(c *compiler.Check) bool { return c == h.check })
			// What reading it noted is about a CHECK the model does not hold.
			im.Notes[h.table.Name] = slices.DeleteFunc(im.Notes[h.table.Name], func(n string) bool { return strings.HasPrefix(n, "check "+h.check.Name+": ") })
			im.note(h.table.Name, "check %s: the value-domain CHECK %s adds by itself (value_domains); left to the dialect", h.check.Name, d)
		}
	default:
		if im.settings == nil {
			im.settings = map[string]cty.Value{}
		}
		im.settings["value_domains"] = cty.False
		im.note("", "value_domains = false: the database has %d of the %d value-domain CHECKs %s adds (NaN, year and bool ranges), so the model keeps its CHECKs as they are and adds none", len(im.domainHits), im.domainWant, d)
	}
}
