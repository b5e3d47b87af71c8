// Package export hands the compiled model to applications: the whole
// model with what each dialect renders of it, as JSON (a versioned format
// with a JSON Schema, docs/export.schema.json) and as one TypeScript module
// (the catalog as a const value, row types for reading and inserting, and a
// Database interface for query builders such as Kysely).
//
// It reads the neutral model and each dialect's dialects.Output (its
// Rendered objects and Decisions): nothing here parses SQL.
package export

import (
	"github.com/schemagen/schemagen/compiler"
	"github.com/schemagen/schemagen/compiler/expr/render"
	"github.com/schemagen/schemagen/dialects"
)

// Format names the JSON format; Version is its version (see
// docs/export.md for what changes it).
const (
	Format  = "schemagen-export"
	Version = 1
)

// Formats are the formats `schemagen export` writes.
var Formats = []string{"json", "typescript"}

// Document is the export of one compiled model.
type Document struct {
	Format   string   `json:"format"`
	Version  int      `json:"version"`
	Sources  []string `json:"sources"`
	Dialects []string `json:"dialects"`
	// Settings are each dialect's settings in force, by dialect.
	Settings   map[string]map[string]any `json:"settings"`
	Extensions []*Extension              `json:"extensions"`
	Enums      []*Enum                   `json:"enums"`
	Raw        []*Raw                    `json:"raw"`
	Tables     []*Table                  `json:"tables"`
	// Schema are the decisions about no table, and Warnings the model's
	// warnings, by dialect.
	Schema   map[string][]Decision `json:"schema_decisions"`
	Warnings map[string][]string   `json:"warnings"`
}

// Decision is a lowering decision, as explain lists it.
type Decision struct {
	Kind string `json:"kind"`
	Text string `json:"text"`
}

// Lowering is what every object says of itself in one dialect: whether the
// dialect leaves it out, and the decisions about it.
type Lowering struct {
	Omitted   bool       `json:"omitted,omitempty"`
	Decisions []Decision `json:"decisions,omitempty"`
}

// Extension is an extension of the model.
type Extension struct {
	Name     string                  `json:"name"`
	Dialects map[string]*StatementIn `json:"dialects"`
}

// StatementIn is an object created by one statement in a dialect.
type StatementIn struct {
	Lowering
	SQL string `json:"sql,omitempty"`
}

// Enum is an enum type of the model.
type Enum struct {
	Name     string                  `json:"name"`
	Values   []string                `json:"values"`
	Dialects map[string]*StatementIn `json:"dialects"`
}

// Raw is a raw statement of the model, by the dialects it has SQL for.
type Raw struct {
	Name     string            `json:"name"`
	Position string            `json:"position"`
	SQL      map[string]string `json:"sql"`
}

// Table is a table of the model.
type Table struct {
	Name        string              `json:"name"`
	Comment     string              `json:"comment,omitempty"`
	RenamedFrom string              `json:"renamed_from,omitempty"`
	Columns     []*Column           `json:"columns"`
	PrimaryKey  []string            `json:"primary_key"`
	Uniques     []*Unique           `json:"uniques"`
	ForeignKeys []*ForeignKey       `json:"foreign_keys"`
	Checks      []*Check            `json:"checks"`
	Indexes     []*Index            `json:"indexes"`
	Dialects    map[string]*TableIn `json:"dialects"`
}

// TableIn is a table in one dialect, with the objects the dialect adds to
// it that the model does not declare.
type TableIn struct {
	Lowering
	Statement string   `json:"statement,omitempty"`
	Options   []string `json:"options,omitempty"`
	// After are the statements that follow the table's (a trigger).
	After        []string        `json:"after,omitempty"`
	AddedColumns []*ColumnIn     `json:"added_columns,omitempty"`
	AddedChecks  []*ConstraintIn `json:"added_constraints,omitempty"`
	AddedIndexes []*IndexIn      `json:"added_indexes,omitempty"`
}

// Type is a neutral type.
type Type struct {
	Name string `json:"name"`
	Args []int  `json:"args,omitempty"`
	// Enum names the enum of an enum type.
	Enum string `json:"enum,omitempty"`
}

// Default is a column's portable default: Kind is string, number, bool,
// now or uuid; Value the string, number or "true"/"false".
type Default struct {
	Kind  string `json:"kind"`
	Value string `json:"value,omitempty"`
}

// Generated is a generated column's expression.
type Generated struct {
	Expr   string `json:"expr"`
	Stored bool   `json:"stored"`
}

// Identity numbers a table's rows.
type Identity struct {
	Start int64 `json:"start"`
}

// Column is a column of the model.
type Column struct {
	Name        string               `json:"name"`
	Type        Type                 `json:"type"`
	EnumValues  []string             `json:"enum_values,omitempty"`
	Nullable    bool                 `json:"nullable"`
	Default     *Default             `json:"default,omitempty"`
	Identity    *Identity            `json:"identity,omitempty"`
	Generated   *Generated           `json:"generated,omitempty"`
	OnUpdate    string               `json:"on_update,omitempty"`
	Comment     string               `json:"comment,omitempty"`
	RenamedFrom string               `json:"renamed_from,omitempty"`
	Dialects    map[string]*ColumnIn `json:"dialects"`
}

// ColumnIn is a column as one dialect writes it.
type ColumnIn struct {
	Lowering
	Name     string `json:"name,omitempty"`
	Type     string `json:"type,omitempty"`
	Nullable bool   `json:"nullable"`
	Default  string `json:"default,omitempty"`
	Identity string `json:"identity,omitempty"`
	// Generated is the clause that computes the column; GenerationExpr
	// its expression.
	Generated      string `json:"generated,omitempty"`
	GenerationExpr string `json:"generation_expr,omitempty"`
	OnUpdate       string `json:"on_update,omitempty"`
}

// ConstraintIn is a unique constraint, CHECK or foreign key in one
// dialect: its name there and its SQL after the name.
type ConstraintIn struct {
	Lowering
	Name string `json:"name,omitempty"`
	Kind string `json:"kind,omitempty"`
	SQL  string `json:"sql,omitempty"`
	// Expr is a CHECK's expression.
	Expr string `json:"expr,omitempty"`
	// Deferred: added by ALTER TABLE after all tables (a cycle).
	Deferred bool `json:"deferred,omitempty"`
}

// Unique is a unique constraint.
type Unique struct {
	Name     string                   `json:"name"`
	Columns  []string                 `json:"columns"`
	Dialects map[string]*ConstraintIn `json:"dialects"`
}

// Check is a CHECK constraint; Expr is the model's text ("" for one given
// as raw SQL in every dialect).
type Check struct {
	Name     string                   `json:"name"`
	Expr     string                   `json:"expr,omitempty"`
	Dialects map[string]*ConstraintIn `json:"dialects"`
}

// ForeignKey is a foreign key. Actions are no_action, cascade, restrict,
// set_null, set_default.
type ForeignKey struct {
	Name              string                   `json:"name"`
	Columns           []string                 `json:"columns"`
	RefTable          string                   `json:"ref_table"`
	RefColumns        []string                 `json:"ref_columns"`
	OnDelete          string                   `json:"on_delete"`
	OnUpdate          string                   `json:"on_update"`
	Deferrable        bool                     `json:"deferrable"`
	InitiallyDeferred bool                     `json:"initially_deferred"`
	Dialects          map[string]*ForeignKeyIn `json:"dialects"`
}

// ForeignKeyIn is a foreign key in one dialect: its column pairs in the
// dialect's order, its actions in the dialect's words ("" for none).
type ForeignKeyIn struct {
	ConstraintIn
	Columns           []string `json:"columns,omitempty"`
	RefColumns        []string `json:"ref_columns,omitempty"`
	OnDelete          string   `json:"on_delete,omitempty"`
	OnUpdate          string   `json:"on_update,omitempty"`
	Deferrable        bool     `json:"deferrable"`
	InitiallyDeferred bool     `json:"initially_deferred"`
}

// Index is an index; Comment is its purpose.
type Index struct {
	Name     string              `json:"name"`
	Unique   bool                `json:"unique"`
	Parts    []*IndexPart        `json:"parts"`
	Method   string              `json:"method,omitempty"`
	Where    string              `json:"where,omitempty"`
	Comment  string              `json:"comment,omitempty"`
	Dialects map[string]*IndexIn `json:"dialects"`
}

// IndexPart is a key part: a column or an expression.
type IndexPart struct {
	Column  string `json:"column,omitempty"`
	Expr    string `json:"expr,omitempty"`
	Desc    bool   `json:"desc"`
	OpClass string `json:"opclass,omitempty"`
}

// IndexIn is an index in one dialect.
type IndexIn struct {
	Lowering
	Name string `json:"name,omitempty"`
	// Statement creates it (CREATE INDEX), or is its definition in CREATE
	// TABLE when Inline; Raw: the model's raw statement.
	Statement        string   `json:"statement,omitempty"`
	Inline           bool     `json:"inline,omitempty"`
	Raw              bool     `json:"raw,omitempty"`
	Parts            []string `json:"parts,omitempty"`
	Using            string   `json:"using,omitempty"`
	Where            string   `json:"where,omitempty"`
	Unique           bool     `json:"unique"`
	Comment          string   `json:"comment,omitempty"`
	CommentStatement string   `json:"comment_statement,omitempty"`
}

var defaultKinds = map[compiler.DefaultKind]string{
	compiler.DefaultString: "string", compiler.DefaultNumber: "number", compiler.DefaultBool: "bool",
	compiler.DefaultNow: "now", compiler.DefaultUUID: "uuid",
}

// Build exports s as each of dialects rendered it (outs, by dialect name);
// warnings are the model's warnings by dialect. It is linear in the
// model's objects.
func Build(s *compiler.Schema, names []string, outs map[string]*dialects.Output, warnings map[string][]string) *Document {
	doc := &Document{
		Format: Format, Version: Version, Sources: s.SourceNames(), Dialects: names,
		Settings: map[string]map[string]any{}, Extensions: []*Extension{}, Enums: []*Enum{}, Raw: []*Raw{}, Tables: []*Table{},
		Schema: map[string][]Decision{}, Warnings: map[string][]string{},
	}
	if doc.Sources == nil {
		doc.Sources = []string{}
	}
	rendered := map[string]*dialects.Rendered{}
	decs := map[string]map[compiler.ObjectRef][]Decision{}
	for _, d := range names {
		out := outs[d]
		if out.Render != nil {
			rendered[d] = out.Render()
		}
		decs[d] = map[compiler.ObjectRef][]Decision{}
		for _, dec := range out.Decisions {
			ref := refOf(dec)
			decs[d][ref] = append(decs[d][ref], Decision{Kind: dec.Kind.String(), Text: dec.Text})
		}
		settings := map[string]any{}
		if r := rendered[d]; r != nil && r.Settings != nil {
			settings = r.Settings
		}
		doc.Settings[d] = settings
		doc.Warnings[d] = append([]string{}, warnings[d]...)
	}
	// take returns, and forgets, the decisions about ref in dialect d, so
	// that the ones no object claims are listed with the schema's.
	take := func(d string, ref compiler.ObjectRef) []Decision {
		out := decs[d][ref]
		delete(decs[d], ref)
		return out
	}
	for _, e := range s.Extensions {
		x := &Extension{Name: e.Name, Dialects: map[string]*StatementIn{}}
		for _, d := range names {
			r := rendered[d]
			in := &StatementIn{Lowering: Lowering{Decisions: take(d, compiler.ObjectRef{Kind: compiler.KindExtension, Name: e.Name})}}
			if r != nil {
				in.SQL = r.Extensions[e.Name]
			}
			in.Omitted = in.SQL == ""
			x.Dialects[d] = in
		}
		doc.Extensions = append(doc.Extensions, x)
	}
	for _, e := range s.Enums {
		x := &Enum{Name: e.Name, Values: e.Values, Dialects: map[string]*StatementIn{}}
		for _, d := range names {
			in := &StatementIn{Lowering: Lowering{Decisions: take(d, compiler.ObjectRef{Kind: compiler.KindEnum, Name: e.Name})}}
			if r := rendered[d]; r != nil {
				in.SQL = r.Enums[e.Name]
			}
			x.Dialects[d] = in
		}
		doc.Enums = append(doc.Enums, x)
	}
	for _, r := range s.Raw {
		x := &Raw{Name: r.Name, Position: "after_tables", SQL: map[string]string{}}
		if !r.After {
			x.Position = "before_tables"
		}
		for _, d := range names {
			if sql, ok := r.SQL[d]; ok {
				x.SQL[d] = sql
			}
			take(d, compiler.ObjectRef{Kind: compiler.KindRaw, Name: r.Name})
		}
		doc.Raw = append(doc.Raw, x)
	}
	byName := map[string]*Table{}
	for _, t := range s.Tables {
		x := table(s, t, names, rendered, take)
		doc.Tables = append(doc.Tables, x)
		byName[t.Name] = x
	}
	// Decisions no object claims (a CHECK a dialect adds, a table the
	// model leaves out) go with their table's, or the schema's.
	for _, d := range names {
		doc.Schema[d] = []Decision{}
		for _, dec := range outs[d].Decisions {
			ref := refOf(dec)
			rest, ok := decs[d][ref]
			if !ok {
				continue
			}
			delete(decs[d], ref)
			for i := range rest {
				rest[i].Text = dialects.ObjectLabel(dec.Object) + ": " + rest[i].Text
			}
			if x := byName[ref.Table]; x != nil {
				x.Dialects[d].Decisions = append(x.Dialects[d].Decisions, rest...)
			} else {
				doc.Schema[d] = append(doc.Schema[d], rest...)
			}
		}
	}
	return doc
}

type taker func(d string, ref compiler.ObjectRef) []Decision

func table(s *compiler.Schema, t *compiler.Table, names []string, rendered map[string]*dialects.Rendered, take taker) *Table {
	x := &Table{Name: t.Name, Comment: t.Comment, RenamedFrom: t.RenamedFrom, Columns: []*Column{}, PrimaryKey: []string{},
		Uniques: []*Unique{}, ForeignKeys: []*ForeignKey{}, Checks: []*Check{}, Indexes: []*Index{}, Dialects: map[string]*TableIn{}}
	if t.PrimaryKey != nil {
		x.PrimaryKey = t.PrimaryKey.Columns
	}
	// The dialect's objects of the table by name, claimed as the model's
	// objects find them; what is left the dialect added.
	type objects struct {
		rt          *dialects.RenderedTable
		columns     map[string]*dialects.RenderedColumn
		constraints map[string]*dialects.RenderedConstraint
		indexes     map[string]*dialects.RenderedIndex
	}
	in := map[string]*objects{}
	for _, d := range names {
		o := &objects{}
		if r := rendered[d]; r != nil {
			o.rt = r.Tables[t.Name]
		}
		ti := &TableIn{Lowering: Lowering{Omitted: o.rt == nil, Decisions: take(d, t.Ref(compiler.KindTable, ""))}}
		x.Dialects[d] = ti
		in[d] = o
		if o.rt == nil {
			continue
		}
		ti.Statement, ti.Options, ti.After = o.rt.Statement, o.rt.Options, o.rt.After
		o.columns = make(map[string]*dialects.RenderedColumn, len(o.rt.Columns))
		for _, c := range o.rt.Columns {
			o.columns[c.Name] = c
		}
		o.constraints = make(map[string]*dialects.RenderedConstraint, len(o.rt.Constraints))
		for i := range o.rt.Constraints {
			o.constraints[o.rt.Constraints[i].Name] = &o.rt.Constraints[i]
		}
		o.indexes = make(map[string]*dialects.RenderedIndex, len(o.rt.Indexes))
		for _, idx := range o.rt.Indexes {
			o.indexes[idx.Name] = idx
		}
	}
	for _, c := range t.Columns {
		col := column(s, c)
		for _, d := range names {
			ci := &ColumnIn{Lowering: Lowering{Decisions: take(d, t.Ref(compiler.KindColumn, c.Name))}}
			if rc := in[d].columns[c.Name]; rc != nil {
				*ci = columnIn(rc, ci.Lowering)
				ci.Name = ""
				delete(in[d].columns, c.Name)
			} else {
				ci.Omitted = true
			}
			col.Dialects[d] = ci
		}
		x.Columns = append(x.Columns, col)
	}
	constraint := func(d string, ov compiler.Overrides, kind compiler.ObjectKind, name string) (*ConstraintIn, *dialects.RenderedConstraint) {
		ci := &ConstraintIn{Lowering: Lowering{Decisions: take(d, t.Ref(kind, name))}}
		rc := in[d].constraints[ov.NameIn(d, name)]
		if rc == nil {
			ci.Omitted = true
			return ci, nil
		}
		delete(in[d].constraints, rc.Name)
		ci.Name, ci.SQL, ci.Expr, ci.Deferred = rc.Name, rc.Body, rc.Check, rc.Deferred
		return ci, rc
	}
	for _, u := range t.Uniques {
		ux := &Unique{Name: u.Name, Columns: u.Columns, Dialects: map[string]*ConstraintIn{}}
		for _, d := range names {
			ux.Dialects[d], _ = constraint(d, u.Overrides, compiler.KindUnique, u.Name)
		}
		x.Uniques = append(x.Uniques, ux)
	}
	for _, c := range t.Checks {
		cx := &Check{Name: c.Name, Dialects: map[string]*ConstraintIn{}}
		if c.Expr != nil {
			cx.Expr = render.String(c.Expr)
		}
		for _, d := range names {
			cx.Dialects[d], _ = constraint(d, c.Overrides, compiler.KindCheck, c.Name)
		}
		x.Checks = append(x.Checks, cx)
	}
	for _, fk := range t.ForeignKeys {
		fx := &ForeignKey{Name: fk.Name, Columns: fk.Columns, RefTable: fk.RefTable, RefColumns: fk.RefColumns,
			OnDelete: action(fk.OnDelete), OnUpdate: action(fk.OnUpdate), Deferrable: fk.Deferrable, InitiallyDeferred: fk.InitiallyDeferred,
			Dialects: map[string]*ForeignKeyIn{}}
		for _, d := range names {
			ci, rc := constraint(d, fk.Overrides, compiler.KindForeignKey, fk.Name)
			fi := &ForeignKeyIn{ConstraintIn: *ci}
			if rc != nil && rc.Ref != nil {
				fi.Columns, fi.RefColumns = rc.Ref.Columns, rc.Ref.RefColumns
				fi.OnDelete, fi.OnUpdate = rc.Ref.OnDelete, rc.Ref.OnUpdate
				fi.Deferrable, fi.InitiallyDeferred = rc.Ref.Deferrable, rc.Ref.InitiallyDeferred
			}
			fx.Dialects[d] = fi
		}
		x.ForeignKeys = append(x.ForeignKeys, fx)
	}
	for _, idx := range t.Indexes {
		ix := &Index{Name: idx.Name, Unique: idx.Unique, Parts: []*IndexPart{}, Method: idx.Method(), Comment: idx.Comment, Dialects: map[string]*IndexIn{}}
		if idx.Where != nil {
			ix.Where = render.String(idx.Where)
		}
		for _, p := range idx.Parts {
			px := &IndexPart{Column: p.Column, Desc: p.Desc, OpClass: p.OpClass()}
			if p.Expr != nil {
				px.Expr = render.String(p.Expr)
			}
			ix.Parts = append(ix.Parts, px)
		}
		for _, d := range names {
			ii := &IndexIn{Lowering: Lowering{Decisions: take(d, t.Ref(compiler.KindIndex, idx.Name))}}
			if ri := in[d].indexes[idx.Overrides.NameIn(d, idx.Name)]; ri != nil {
				delete(in[d].indexes, ri.Name)
				*ii = indexIn(ri, ii.Lowering)
			} else {
				ii.Omitted = true
			}
			ix.Dialects[d] = ii
		}
		x.Indexes = append(x.Indexes, ix)
	}
	// What is left of each dialect's table, it added; in the DDL's order.
	for _, d := range names {
		o, ti := in[d], x.Dialects[d]
		if o.rt == nil {
			continue
		}
		for _, c := range o.rt.Columns {
			if o.columns[c.Name] != nil {
				ci := columnIn(c, Lowering{})
				ti.AddedColumns = append(ti.AddedColumns, &ci)
			}
		}
		for i := range o.rt.Constraints {
			c := &o.rt.Constraints[i]
			if o.constraints[c.Name] != nil {
				ti.AddedChecks = append(ti.AddedChecks, &ConstraintIn{Lowering: Lowering{}, Name: c.Name, Kind: c.Kind, SQL: c.Body, Expr: c.Check, Deferred: c.Deferred})
			}
		}
		for _, idx := range o.rt.Indexes {
			if o.indexes[idx.Name] != nil {
				ii := indexIn(idx, Lowering{})
				ti.AddedIndexes = append(ti.AddedIndexes, &ii)
			}
		}
	}
	return x
}

// refOf is the object of the model a decision is about: a column for its
// default or identity, the table for the table.
func refOf(dec dialects.Decision) compiler.ObjectRef {
	ref := dec.Object
	switch ref.Kind {
	case compiler.KindDefault, compiler.KindIdentity:
		ref.Kind = compiler.KindColumn
	case compiler.KindTable, "":
		ref = compiler.ObjectRef{Table: ref.Table, Kind: compiler.KindTable}
	}
	return ref
}

func columnIn(rc *dialects.RenderedColumn, l Lowering) ColumnIn {
	return ColumnIn{Lowering: l, Name: rc.Name, Type: rc.Type, Nullable: !rc.NotNull, Default: rc.Default,
		Identity: rc.Identity, Generated: rc.Generated, GenerationExpr: rc.GeneratedExpr, OnUpdate: rc.OnUpdate}
}

func indexIn(ri *dialects.RenderedIndex, l Lowering) IndexIn {
	return IndexIn{Lowering: l, Name: ri.Name, Statement: ri.Statement, Inline: ri.Inline, Raw: ri.Raw, Parts: ri.Parts,
		Using: ri.Using, Where: ri.Where, Unique: ri.Unique, Comment: ri.Comment, CommentStatement: ri.CommentStatement}
}

func column(s *compiler.Schema, c *compiler.Column) *Column {
	x := &Column{Name: c.Name, Type: Type{Name: c.Type.Name(), Args: c.Type.Args}, Nullable: c.Null, Comment: c.Comment,
		RenamedFrom: c.RenamedFrom, Dialects: map[string]*ColumnIn{}}
	if c.Type.Kind == compiler.TypeEnum && c.Type.Enum != nil {
		x.Type.Enum = c.Type.Enum.Name
		if e := s.Enum(c.Type.Enum.Name); e != nil {
			x.EnumValues = e.Values
		}
	}
	if d := c.Default; d != nil {
		x.Default = &Default{Kind: defaultKinds[d.Kind], Value: d.Value}
		if d.Kind == compiler.DefaultNow || d.Kind == compiler.DefaultUUID {
			x.Default.Value = ""
		}
	}
	if c.Identity != nil {
		x.Identity = &Identity{Start: c.Identity.Start}
	}
	if g := c.Generated; g != nil {
		x.Generated = &Generated{Stored: g.Stored}
		if g.Expr != nil {
			x.Generated.Expr = render.String(g.Expr)
		}
	}
	if c.OnUpdate {
		x.OnUpdate = "now()"
	}
	return x
}

func action(a compiler.Action) string {
	if a == compiler.NoAction {
		return "no_action"
	}
	return string(a)
}
