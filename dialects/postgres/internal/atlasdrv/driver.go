// Package atlasdrv is PostgreSQL's Atlas driver: Atlas's PostgreSQL driver,
// decorated so that it inspects, diffs and plans foreign keys'
// deferrability, identity changes and self-referencing keys, which Atlas's
// driver misses or orders wrongly. Package postgres's OpenAtlas returns it.
package atlasdrv

import (
	"context"
	"fmt"
	"slices"
	"strings"

	"ariga.io/atlas/sql/migrate"
	"ariga.io/atlas/sql/postgres"
	"ariga.io/atlas/sql/schema"
)

// Deferrable marks a foreign key DEFERRABLE (and perhaps INITIALLY
// DEFERRED) on an inspected or desired schema. Atlas v1.2.3 neither
// inspects nor plans it: atlasDriver does both, so that everything the
// model declares reaches the database through migrations.
type Deferrable struct {
	schema.Attr
	InitiallyDeferred bool
}

// ModifyDeferrable is a foreign key whose deferrability alone changes.
type ModifyDeferrable struct {
	schema.Change
	FK       *schema.ForeignKey
	From, To *Deferrable // nil: NOT DEFERRABLE
}

func deferrableOf(fk *schema.ForeignKey) *Deferrable {
	for _, a := range fk.Attrs {
		if d, ok := a.(*Deferrable); ok {
			return d
		}
	}
	return nil
}

func sameDeferrable(a, b *Deferrable) bool {
	return (a == nil) == (b == nil) && (a == nil || a.InitiallyDeferred == b.InitiallyDeferred)
}

// deferrableClause is the clause that sets d on a foreign key.
func deferrableClause(d *Deferrable) string {
	switch {
	case d == nil:
		return "NOT DEFERRABLE"
	case d.InitiallyDeferred:
		return "DEFERRABLE INITIALLY DEFERRED"
	}
	return "DEFERRABLE INITIALLY IMMEDIATE"
}

// atlasDriver is Atlas's PostgreSQL driver, which also inspects, diffs and
// plans foreign keys' deferrability.
type atlasDriver struct {
	*postgres.Driver
	conn schema.ExecQuerier
}

const deferrableQuery = `SELECT c.relname, k.conname, k.condeferred FROM pg_constraint k
JOIN pg_class c ON c.oid = k.conrelid JOIN pg_namespace n ON n.oid = c.relnamespace
WHERE k.contype = 'f' AND k.condeferrable AND n.nspname = COALESCE(NULLIF($1, ''), current_schema())`

// inspectDeferrable puts Deferrable on the deferrable foreign keys of s.
func (d *atlasDriver) inspectDeferrable(ctx context.Context, s *schema.Schema) error {
	if len(s.Tables) == 0 {
		return nil
	}
	rows, err := d.conn.QueryContext(ctx, deferrableQuery, s.Name)
	if err != nil {
		return fmt.Errorf("postgres: querying deferrable foreign keys: %w", err)
	}
	defer rows.Close()
	for rows.Next() {
		var table, name string
		var deferred bool
		if err := rows.Scan(&table, &name, &deferred); err != nil {
			return err
		}
		t, ok := s.Table(table)
		if !ok {
			continue
		}
		if fk, ok := t.ForeignKey(name); ok {
			fk.Attrs = append(fk.Attrs, &Deferrable{InitiallyDeferred: deferred})
		}
	}
	return rows.Err()
}

// ownedSerialsQuery reads the columns whose default is nextval of a
// sequence they own and that default alone uses: serials, whatever their
// sequence is called.
const ownedSerialsQuery = `SELECT c.relname, a.attname, s.relname FROM pg_attrdef ad
JOIN pg_class c ON c.oid = ad.adrelid JOIN pg_namespace n ON n.oid = c.relnamespace
JOIN pg_attribute a ON a.attrelid = ad.adrelid AND a.attnum = ad.adnum
JOIN pg_depend dep ON dep.classid = 'pg_attrdef'::regclass AND dep.objid = ad.oid AND dep.refclassid = 'pg_class'::regclass
JOIN pg_class s ON s.oid = dep.refobjid AND s.relkind = 'S'
WHERE n.nspname = COALESCE(NULLIF($1, ''), current_schema()) AND pg_get_expr(ad.adbin, ad.adrelid) LIKE 'nextval(%'
  AND pg_get_serial_sequence(format('%I.%I', n.nspname, c.relname), a.attname)::regclass = s.oid
  AND (SELECT count(*) FROM pg_depend u WHERE u.refobjid = s.oid AND u.classid = 'pg_attrdef'::regclass) = 1`

// inspectSerials reads as serials the integer columns of s whose default
// is nextval of a sequence they own, used by that default alone, whatever
// the sequence is called. Atlas reads a serial only by its sequence's
// default name, <table>_<column>_seq; PostgreSQL names it otherwise when
// that name is taken as the serial is made (<t>_<c>_seq1: a table rebuilt
// while its renamed backup still holds the first sequence). Such a column
// is the serial the model declares: PostgreSQL makes, owns and drops its
// sequence with it, and the model names no sequence, so the name is no part
// of the state a migration must reach; the sequence's name is kept for
// the plans that drop it. The query runs only when s has such a default.
func (d *atlasDriver) inspectSerials(ctx context.Context, s *schema.Schema) error {
	if !slices.ContainsFunc(s.Tables, func(t *schema.Table) bool { return slices.ContainsFunc(t.Columns, nextvalInteger) }) {
		return nil
	}
	rows, err := d.conn.QueryContext(ctx, ownedSerialsQuery, s.Name)
	if err != nil {
		return fmt.Errorf("postgres: querying serial columns: %w", err)
	}
	defer rows.Close()
	for rows.Next() {
		var table, column, seq string
		if err := rows.Scan(&table, &column, &seq); err != nil {
			return err
		}
		t, ok := s.Table(table)
		if !ok {
			continue
		}
		c, ok := t.Column(column)
		if !ok || !nextvalInteger(c) {
			continue
		}
		st := &postgres.SerialType{SequenceName: seq}
		st.SetType(c.Type.Type.(*schema.IntegerType))
		c.Type.Type, c.Type.Raw, c.Default = st, st.T, nil
	}
	return rows.Err()
}

// nextvalInteger reports whether c is an integer column whose default
// calls nextval, which Atlas did not read as a serial.
func nextvalInteger(c *schema.Column) bool {
	if _, ok := c.Type.Type.(*schema.IntegerType); !ok {
		return false
	}
	x, ok := c.Default.(*schema.RawExpr)
	return ok && strings.HasPrefix(strings.ToLower(strings.TrimSpace(x.X)), "nextval(")
}

// inspect adds to an inspected schema what Atlas does not read.
func (d *atlasDriver) inspect(ctx context.Context, s *schema.Schema) error {
	if err := d.inspectSerials(ctx, s); err != nil {
		return err
	}
	return d.inspectDeferrable(ctx, s)
}

func (d *atlasDriver) InspectSchema(ctx context.Context, name string, opts *schema.InspectOptions) (*schema.Schema, error) {
	s, err := d.Driver.InspectSchema(ctx, name, opts)
	if err != nil {
		return nil, err
	}
	if err := d.inspectParts(ctx, s); err != nil {
		return nil, err
	}
	if err := d.inspectIndexParams(ctx, s); err != nil {
		return nil, err
	}
	return s, d.inspect(ctx, s)
}

func (d *atlasDriver) InspectRealm(ctx context.Context, opts *schema.InspectRealmOption) (*schema.Realm, error) {
	r, err := d.Driver.InspectRealm(ctx, opts)
	if err != nil {
		return nil, err
	}
	for _, s := range r.Schemas {
		if err := d.inspect(ctx, s); err != nil {
			return nil, err
		}
		if err := d.inspectParts(ctx, s); err != nil {
			return nil, err
		}
		if err := d.inspectIndexParams(ctx, s); err != nil {
			return nil, err
		}
	}
	return r, nil
}

// deferrableChanges adds a ModifyDeferrable for every foreign key of tables
// on both sides whose deferrability alone differs.
func deferrableChanges(changes []schema.Change, from, to []*schema.Table) []schema.Change {
	return withTableChanges(changes, from, to, func(f, t *schema.Table, modify func(create bool) *schema.ModifyTable) {
		for _, fk := range t.ForeignKeys {
			old, ok := f.ForeignKey(fk.Symbol)
			if mt := modify(false); !ok || sameDeferrable(deferrableOf(old), deferrableOf(fk)) || mt != nil && touchesFK(mt, fk.Symbol) {
				continue
			}
			mt := modify(true)
			mt.Changes = append(mt.Changes, &ModifyDeferrable{FK: fk, From: deferrableOf(old), To: deferrableOf(fk)})
		}
	})
}

// withTableChanges calls add for every table of to that from holds too,
// with modify giving that table's ModifyTable in changes (nil when it has
// none, unless create, which adds one); it returns changes with those
// added. Linear in the tables and the changes.
func withTableChanges(changes []schema.Change, from, to []*schema.Table, add func(f, t *schema.Table, modify func(create bool) *schema.ModifyTable)) []schema.Change {
	byName := make(map[string]*schema.Table, len(from))
	for _, t := range from {
		byName[schemaName(t)+"\x00"+t.Name] = t
	}
	mods := make(map[*schema.Table]*schema.ModifyTable)
	for _, c := range changes {
		if m, ok := c.(*schema.ModifyTable); ok {
			mods[m.T] = m
		}
	}
	for _, t := range to {
		f := byName[schemaName(t)+"\x00"+t.Name]
		if f == nil {
			continue
		}
		add(f, t, func(create bool) *schema.ModifyTable {
			if mods[t] == nil && create {
				mods[t] = &schema.ModifyTable{T: t}
				changes = append(changes, mods[t])
			}
			return mods[t]
		})
	}
	return changes
}

func schemaName(t *schema.Table) string {
	if t.Schema == nil {
		return ""
	}
	return t.Schema.Name
}

// touchesFK reports whether m drops, adds or modifies the foreign key name:
// its deferrability is then planned with it.
func touchesFK(m *schema.ModifyTable, name string) bool {
	for _, c := range m.Changes {
		switch c := c.(type) {
		case *schema.AddForeignKey:
			if c.F.Symbol == name {
				return true
			}
		case *schema.DropForeignKey:
			if c.F.Symbol == name {
				return true
			}
		case *schema.ModifyForeignKey:
			if c.To.Symbol == name {
				return true
			}
		}
	}
	return false
}

// retypedDefaults takes away, until restore is called, the defaults of the
// columns of from whose type changes in to while both have a default of
// another text. Atlas v1.2.3 compares two defaults by asking the database
// (SELECT old = new), which fails on two types without an = between them
// (now() and gen_random_uuid(): 42883, plan oracle seed 60605); the
// default of a column whose type changes is a change anyway, which Atlas
// then reports without asking.
func retypedDefaults(from, to []*schema.Table) (restore func()) {
	var undo []func()
	byName := map[string]*schema.Table{}
	for _, t := range to {
		byName[t.Name] = t
	}
	for _, ft := range from {
		tt := byName[ft.Name]
		if tt == nil {
			continue
		}
		for _, fc := range ft.Columns {
			tc, ok := tt.Column(fc.Name)
			if !ok || fc.Default == nil || tc.Default == nil || fc.Type == nil || tc.Type == nil || typeText(fc.Type) == typeText(tc.Type) {
				continue
			}
			fc, def := fc, fc.Default
			fc.Default = nil
			undo = append(undo, func() { fc.Default = def })
		}
	}
	return func() {
		for _, u := range undo {
			u()
		}
	}
}

func typeText(t *schema.ColumnType) string {
	if s, err := postgres.FormatType(t.Type); err == nil {
		return s
	}
	return t.Raw
}

func tablesOf(r *schema.Realm) []*schema.Table {
	var ts []*schema.Table
	for _, s := range r.Schemas {
		ts = append(ts, s.Tables...)
	}
	return ts
}

func (d *atlasDriver) SchemaDiff(from, to *schema.Schema, opts ...schema.DiffOption) ([]schema.Change, error) {
	defer retypedDefaults(from.Tables, to.Tables)()
	finish := partitionDiff(from.Tables, to.Tables)
	changes, err := d.Driver.SchemaDiff(from, to, opts...)
	changes = finish(changes)
	if err != nil {
		return nil, err
	}
	return indexParamChanges(baseTypeChanges(deferrableChanges(changes, from.Tables, to.Tables), from.Tables, to.Tables), from.Tables, to.Tables), nil
}

// baseTypeChanges adds the type changes of columns whose base type comes
// from an extension (pgvector's vector(3) to vector): Atlas v1.2.3 reads
// their text (format_type) but never reports it changed (its diff
// compares the desired text with itself), so that `vector(3)` to `vector`
// planned nothing.
func baseTypeChanges(changes []schema.Change, from, to []*schema.Table) []schema.Change {
	return withTableChanges(changes, from, to, func(f, t *schema.Table, modify func(create bool) *schema.ModifyTable) {
		for _, tc := range t.Columns {
			fc, ok := f.Column(tc.Name)
			if !ok || fc.Type == nil || tc.Type == nil {
				continue
			}
			ft, ok1 := fc.Type.Type.(*postgres.UserDefinedType)
			tt, ok2 := tc.Type.Type.(*postgres.UserDefinedType)
			if !ok1 || !ok2 || ft.C != "b" || tt.C != "b" || strings.EqualFold(ft.T, tt.T) {
				continue
			}
			mt := modify(true)
			found := false
			for _, c := range mt.Changes {
				if mc, ok := c.(*schema.ModifyColumn); ok && mc.To.Name == tc.Name {
					mc.Change |= schema.ChangeType
					found = true
				}
			}
			if !found {
				mt.Changes = append(mt.Changes, &schema.ModifyColumn{From: fc, To: tc, Change: schema.ChangeType})
			}
		}
	})
}

func (d *atlasDriver) RealmDiff(from, to *schema.Realm, opts ...schema.DiffOption) ([]schema.Change, error) {
	ft, tt := tablesOf(from), tablesOf(to)
	defer retypedDefaults(ft, tt)()
	finish := partitionDiff(ft, tt)
	changes, err := d.Driver.RealmDiff(from, to, opts...)
	changes = finish(changes)
	if err != nil {
		return nil, err
	}
	return indexParamChanges(baseTypeChanges(deferrableChanges(changes, ft, tt), ft, tt), ft, tt), nil
}

func (d *atlasDriver) TableDiff(from, to *schema.Table, opts ...schema.DiffOption) ([]schema.Change, error) {
	defer retypedDefaults([]*schema.Table{from}, []*schema.Table{to})()
	finish := partitionDiff([]*schema.Table{from}, []*schema.Table{to})
	changes, err := d.Driver.TableDiff(from, to, opts...)
	if err != nil {
		finish(nil)
		return nil, err
	}
	if pc := finish([]schema.Change{&schema.ModifyTable{T: to, Changes: changes}}); len(pc) == 1 {
		changes = pc[0].(*schema.ModifyTable).Changes
	}
	var out []schema.Change
	ts, fs := []*schema.Table{to}, []*schema.Table{from}
	for _, c := range indexParamChanges(baseTypeChanges(deferrableChanges([]schema.Change{&schema.ModifyTable{T: to, Changes: changes}}, fs, ts), fs, ts), fs, ts) {
		out = append(out, c.(*schema.ModifyTable).Changes...)
	}
	return out, nil
}

// PlanChanges plans with Atlas, then sets the deferrability of every foreign
// key the changes create or change that is not Atlas's default, NOT
// DEFERRABLE: an ALTER CONSTRAINT right after the change's statements.
func (d *atlasDriver) PlanChanges(ctx context.Context, name string, changes []schema.Change, opts ...migrate.PlanOption) (*migrate.Plan, error) {
	var o migrate.PlanOptions
	for _, f := range opts {
		f(&o)
	}
	alter := func(t *schema.Table, fk string, def *Deferrable) string {
		table := ident(t.Name)
		q := schemaName(t)
		if o.SchemaQualifier != nil {
			q = *o.SchemaQualifier
		}
		if q != "" {
			table = ident(q) + "." + table
		}
		return fmt.Sprintf("ALTER TABLE %s ALTER CONSTRAINT %s %s", table, ident(fk), deferrableClause(def))
	}
	changes = selfKeysAfterIndexes(changes)
	var atlas []schema.Change
	after := map[schema.Change][]*migrate.Change{}
	before := map[schema.Change][]*migrate.Change{}
	var own []*migrate.Change // deferrability alone, after Atlas's statements
	for _, c := range changes {
		switch c := c.(type) {
		case *schema.AddTable:
			for _, p := range PartsOf(c.T) {
				pcs, _ := partStmt(c.T, &schema.ModifyAttr{To: &PartAdded{Part: p}}, o.SchemaQualifier)
				for _, pc := range pcs {
					pc.Source = c
				}
				after[c] = append(after[c], pcs...)
			}
			for _, fk := range c.T.ForeignKeys {
				if def := deferrableOf(fk); def != nil {
					after[c] = append(after[c], &migrate.Change{Cmd: alter(c.T, fk.Symbol, def), Source: c, Comment: fmt.Sprintf("make foreign key %q %s", fk.Symbol, deferrableClause(def))})
				}
			}
			atlas = append(atlas, c)
		case *schema.ModifyTable:
			var rest []schema.Change
			for _, sc := range c.Changes {
				if pcs, ok := partStmt(c.T, sc, o.SchemaQualifier); ok {
					for _, pc := range pcs {
						pc.Source = c
					}
					own = append(own, pcs...)
					continue
				}
				switch sc := sc.(type) {
				case *ModifyDeferrable:
					own = append(own, &migrate.Change{Cmd: alter(c.T, sc.FK.Symbol, sc.To), Source: c, Comment: fmt.Sprintf("make foreign key %q %s", sc.FK.Symbol, deferrableClause(sc.To))})
					continue
				case *ModifyIndexParams:
					own = append(own, paramsStmts(sc, o.SchemaQualifier)...)
					continue
				case *schema.ModifyColumn:
					if add, drop, ok := identityChange(c.T, sc, o.SchemaQualifier); ok {
						// Atlas plans identity changed, not added or
						// removed: schemagen's statements, after the
						// column's other changes (SET NOT NULL first) or
						// before them (DROP NOT NULL after).
						rest := &schema.ModifyColumn{From: sc.From, To: sc.To, Change: sc.Change &^ schema.ChangeAttr}
						if rest.Change == schema.NoChange {
							own = append(own, append(drop, add...)...)
							continue
						}
						nc := &schema.ModifyTable{T: c.T, Changes: []schema.Change{rest}}
						before[nc], after[nc] = drop, add
						atlas = append(atlas, nc)
						continue
					}
				case *schema.AddForeignKey:
					if def := deferrableOf(sc.F); def != nil {
						after[c] = append(after[c], &migrate.Change{Cmd: alter(c.T, sc.F.Symbol, def), Source: c, Comment: fmt.Sprintf("make foreign key %q %s", sc.F.Symbol, deferrableClause(def))})
					}
				case *schema.ModifyForeignKey:
					if def := deferrableOf(sc.To); def != nil {
						after[c] = append(after[c], &migrate.Change{Cmd: alter(c.T, sc.To.Symbol, def), Source: c, Comment: fmt.Sprintf("make foreign key %q %s", sc.To.Symbol, deferrableClause(def))})
					}
				}
				rest = append(rest, sc)
			}
			if len(rest) > 0 {
				nc := &schema.ModifyTable{T: c.T, Changes: rest}
				after[nc] = after[c]
				atlas = append(atlas, nc)
			}
		default:
			atlas = append(atlas, c)
		}
	}
	plan := &migrate.Plan{Name: name, Reversible: false, Transactional: true}
	if len(atlas) > 0 {
		p, err := d.Driver.PlanChanges(ctx, name, atlas, opts...)
		if err != nil {
			return nil, err
		}
		if err := withParams(p, atlas); err != nil {
			return nil, err
		}
		plan = p
	}
	if len(after) == 0 && len(own) == 0 && len(before) == 0 {
		return plan, nil
	}
	// Each source's ALTER CONSTRAINT goes after its last statement.
	first, last := map[schema.Change]int{}, map[schema.Change]int{}
	for i, pc := range plan.Changes {
		if _, ok := first[pc.Source]; !ok {
			first[pc.Source] = i
		}
		last[pc.Source] = i
	}
	var out []*migrate.Change
	for i, pc := range plan.Changes {
		if first[pc.Source] == i {
			out = append(out, before[pc.Source]...)
			delete(before, pc.Source)
		}
		out = append(out, pc)
		if last[pc.Source] == i {
			out = append(out, after[pc.Source]...)
			delete(after, pc.Source)
		}
	}
	for _, c := range atlas {
		// Changes Atlas planned under another source (its split of a
		// table's foreign keys): theirs go last.
		out = append(out, before[c]...)
		out = append(out, after[c]...)
	}
	plan.Changes = append(out, own...)
	plan.Reversible = false
	return plan, nil
}

func (d *atlasDriver) ApplyChanges(ctx context.Context, changes []schema.Change, opts ...migrate.PlanOption) error {
	plan, err := d.PlanChanges(ctx, "apply", changes, opts...)
	if err != nil {
		return err
	}
	for _, c := range plan.Changes {
		if _, err := d.conn.ExecContext(ctx, c.Cmd, c.Args...); err != nil {
			return err
		}
	}
	return nil
}

// identityChange returns the statements that add identity to column sc.To
// or remove it, which Atlas v1.2.3 does not plan ("unexpected attribute
// change"), and false when identity is neither added nor removed. An added
// identity's sequence is moved past the ids the table holds, so that the
// next default id does not collide with one.
func identityChange(t *schema.Table, sc *schema.ModifyColumn, qualifier *string) (add, drop []*migrate.Change, ok bool) {
	_, fok := identityAttr(sc.From)
	to, tok := identityAttr(sc.To)
	if fok == tok || !sc.Change.Is(schema.ChangeAttr) {
		return nil, nil, false
	}
	table := ident(t.Name)
	q := schemaName(t)
	if qualifier != nil {
		q = *qualifier
	}
	if q != "" {
		table = ident(q) + "." + table
	}
	col := ident(sc.To.Name)
	if !tok {
		return nil, []*migrate.Change{{Cmd: fmt.Sprintf("ALTER TABLE %s ALTER COLUMN %s DROP IDENTITY", table, col), Source: sc, Comment: fmt.Sprintf("remove identity from column %q", sc.To.Name)}}, true
	}
	gen, start, inc := to.Generation, int64(1), int64(1)
	if gen == "" {
		gen = "BY DEFAULT"
	}
	if to.Sequence != nil {
		start, inc = to.Sequence.Start, to.Sequence.Increment
	}
	return []*migrate.Change{
		{Cmd: fmt.Sprintf("ALTER TABLE %s ALTER COLUMN %s ADD GENERATED %s AS IDENTITY (START WITH %d INCREMENT BY %d)", table, col, gen, start, inc), Source: sc, Comment: fmt.Sprintf("make column %q an identity", sc.To.Name)},
		{Cmd: fmt.Sprintf("SELECT setval(pg_get_serial_sequence(%s, %s), max(%s)) FROM %s HAVING max(%s) >= %d", quote(table), quote(sc.To.Name), col, table, col, start), Source: sc, Comment: fmt.Sprintf("move the identity of %q past the ids its rows hold", sc.To.Name)},
	}, nil, true
}

func identityAttr(c *schema.Column) (*postgres.Identity, bool) {
	for _, a := range c.Attrs {
		if i, ok := a.(*postgres.Identity); ok {
			return i, true
		}
	}
	return nil, false
}

// selfKeysAfterIndexes moves a new table's foreign keys to its own unique
// indexes out of its CREATE TABLE, into an ALTER TABLE after it: Atlas
// writes the keys inside CREATE TABLE and the indexes after it, and
// PostgreSQL refuses a key whose referenced index does not exist yet
// (42830). Keys to the primary key or a unique constraint, which CREATE
// TABLE makes, stay inside.
func selfKeysAfterIndexes(changes []schema.Change) []schema.Change {
	var out []schema.Change
	for _, c := range changes {
		add, ok := c.(*schema.AddTable)
		if !ok {
			out = append(out, c)
			continue
		}
		var inline, later []*schema.ForeignKey
		for _, fk := range add.T.ForeignKeys {
			if fk.RefTable == add.T && !madeByCreateTable(add.T, fk.RefColumns) {
				later = append(later, fk)
			} else {
				inline = append(inline, fk)
			}
		}
		if len(later) == 0 {
			out = append(out, c)
			continue
		}
		t := *add.T
		t.ForeignKeys = inline
		out = append(out, &schema.AddTable{T: &t, Extra: add.Extra})
		alter := &schema.ModifyTable{T: add.T}
		for _, fk := range later {
			alter.Changes = append(alter.Changes, &schema.AddForeignKey{F: fk})
		}
		out = append(out, alter)
	}
	return out
}

// madeByCreateTable reports whether t's primary key or one of its unique
// constraints (not a unique index, which is created after the table) is
// over exactly cols.
func madeByCreateTable(t *schema.Table, cols []*schema.Column) bool {
	same := func(parts []*schema.IndexPart) bool {
		if len(parts) != len(cols) {
			return false
		}
		for _, p := range parts {
			if p.C == nil || !slices.Contains(cols, p.C) {
				return false
			}
		}
		return true
	}
	if t.PrimaryKey != nil && same(t.PrimaryKey.Parts) {
		return true
	}
	for _, i := range t.Indexes {
		if _, ok := UniqueConstraint(i.Attrs); ok && i.Unique && same(i.Parts) {
			return true
		}
	}
	return false
}

// Open decorates Atlas's driver for conn (see postgres.Dialect.OpenAtlas).
func Open(drv *postgres.Driver, conn schema.ExecQuerier) migrate.Driver {
	return &atlasDriver{Driver: drv, conn: conn}
}

// UniqueConstraint is the unique constraint an index of attrs is made by,
// if it is one.
func UniqueConstraint(attrs []schema.Attr) (*postgres.Constraint, bool) {
	for _, a := range attrs {
		if c, ok := a.(*postgres.Constraint); ok && c.IsUnique() {
			return c, true
		}
	}
	return nil, false
}

func ident(s string) string { return `"` + strings.ReplaceAll(s, `"`, `""`) + `"` }

func quote(s string) string { return "'" + strings.ReplaceAll(s, "'", "''") + "'" }
