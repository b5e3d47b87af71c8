// Package lower is the TiDB dialect's generation: its settings, its table
// of types, its limits and the lowering of the model's tables, columns,
// keys, CHECKs and indexes to TiDB DDL (with the generated columns and
// CHECKs TiDB needs to mean what PostgreSQL means).
//
// It stands alone because it is the Gen part and what import must agree
// with (the names and texts of the CHECKs the lowering adds, the types it
// gives generated columns), and nothing else: it reads the model and never
// a database. Package tidb hands Generate, Rules and Type to it, and its
// import and inspection ask it what the lowering would write.
package lower

import (
	"fmt"
	"slices"
	"strconv"
	"strings"

	"github.com/hashicorp/hcl/v2"

	"github.com/schemagen/schemagen/compiler"
	"github.com/schemagen/schemagen/compiler/expr"
	"github.com/schemagen/schemagen/dialects"
	"github.com/schemagen/schemagen/dialects/internal/generate"
	"github.com/schemagen/schemagen/dialects/internal/sqltext"
	"github.com/schemagen/schemagen/dialects/rules"
	"github.com/schemagen/schemagen/dialects/tidb/internal/lexical"
	"github.com/schemagen/schemagen/dialects/tidb/internal/readback"
)

// Name is the dialect's name in schema.hcl and atlas.hcl.
const Name = "tidb"

// Generate lowers and renders s for TiDB (dialects.Dialect's Generate).
func Generate(s *compiler.Schema) (*dialects.Output, hcl.Diagnostics) {
	return generate.Generate(s, generation)
}

var generation = generate.Dialect{Name: Name, Rules: limits, Style: style,
	Lowerer: func(s *compiler.Schema, rec *sqltext.Recorder) sqltext.Lowerer {
		set, diags := decodeSettings(s)
		rec.Diags = append(rec.Diags, diags...)
		kept := func(t *compiler.Table, fk *compiler.ForeignKey) bool {
			return !t.Overrides.Skipped(Name) && !fk.Overrides.Skipped(Name)
		}
		return &lowerer{rec: rec, set: set, schema: s, cascades: compiler.CascadeDepths(s, kept)}
	},
	Header: "-- CHECK constraints need tidb_enable_check_constraint = ON; without it TiDB ignores them.\n",
}

var style = sqltext.Style{Ident: lexical.Ident, String: lexical.String, InlineComments: true, InlineIndexes: true}

type lowerer struct {
	rec    *sqltext.Recorder
	set    settings
	schema *compiler.Schema
	names  map[string]bool // the model's constraint and index names
	// generated are the VIRTUAL columns the table's indexes need for
	// expressions TiDB cannot index directly, added by Finish.
	generated []*sqltext.Column
	// cascades are the levels of rows a statement cascades through to
	// reach each foreign key with an action (compiler.CascadeDepths).
	cascades map[*compiler.ForeignKey]int
}

func (l *lowerer) Column(t *compiler.Table, c *compiler.Column) (*sqltext.Column, bool) {
	lc := &sqltext.Column{Name: c.Name, NotNull: !c.NullIn(Name), Comment: c.Comment}
	o := c.Overrides.For(Name)
	if o != nil && o.Null != nil {
		l.rec.Decide(t.Ref(compiler.KindColumn, c.Name), dialects.Overridden, "null = %v", *o.Null)
	}
	l.rawType(t, c, o)
	typ, known := EffectiveType(c)
	switch {
	case !known:
		lc.Type = o.RawType
		l.rec.DecideType(t.Name, c.Name, dialects.Overridden, "type %s instead of %s", o.RawType, c.Type)
	case o != nil && o.Type != nil:
		lc.Type = Type(typ)
		l.rec.DecideType(t.Name, c.Name, dialects.Overridden, "type %s instead of %s", typ, c.Type)
	default:
		lc.Type = Type(typ)
		types.Decide(l.rec, t.Name, c.Name, typ.Kind)
	}
	if known && typ.Kind == compiler.TypeEnum && !c.NullIn(Name) && c.Default == nil && c.Generated == nil && (o == nil || o.Default == "") && !c.Overrides.Accepts(Name, compiler.AcceptEnumFirstValue) {
		// Found by the differential tester: TiDB gives an INSERT that
		// leaves out a NOT NULL ENUM column without a default its first
		// value, in strict mode too; PostgreSQL refuses the row.
		l.rec.Decide(t.Ref(compiler.KindColumn, c.Name), dialects.Lowered, "an INSERT that leaves out this NOT NULL enum column gets its first value, %s, on TiDB; PostgreSQL refuses the row", lexical.String(typ.Enum.Values[0]))
		l.rec.Warnf(c.TypeRange, "Enum column without a default", "An INSERT that leaves out %s.%s gets the enum's first value, %s, on TiDB, where PostgreSQL refuses the row. Give the column a default, or make every INSERT write it (to acknowledge it: tidb { accept = [%q] }).", t.Name, c.Name, lexical.String(typ.Enum.Values[0]), compiler.AcceptEnumFirstValue)
	}
	if known && (typ.Kind == compiler.TypeVarchar || typ.Kind == compiler.TypeText || typ.Kind == compiler.TypeChar || typ.Kind == compiler.TypeUUID || typ.Kind == compiler.TypeEnum) {
		lc.Collation = l.set.Collation
	}
	if known && l.set.ExactStrings && (typ.Kind == compiler.TypeVarchar || typ.Kind == compiler.TypeText) {
		lc.Type += " COLLATE " + ExactCollation
		lc.Collation = ExactCollation
		l.rec.Decide(t.Ref(compiler.KindColumn, c.Name), dialects.Lowered, "COLLATE %s: trailing spaces count, as on PostgreSQL (exact_strings)", ExactCollation)
	}
	if g := c.Generated; g != nil && g.Expr != nil {
		l.explainExpr(t, t.Ref(compiler.KindColumn, c.Name), g.Expr)
		e, _ := readback.DotAll(g.Expr)
		lc.GeneratedExpr = sqltext.Expr(Syntax{}, e)
		kind := "STORED"
		if !g.Stored {
			kind = "VIRTUAL"
		}
		lc.Generated = "AS (" + lc.GeneratedExpr + ") " + kind
	}
	if c.OnUpdate && known {
		lc.OnUpdate = fmt.Sprintf("CURRENT_TIMESTAMP(%d)", Precision(typ))
		l.rec.Decide(t.Ref(compiler.KindColumn, c.Name), dialects.Lowered, "on_update = now() as ON UPDATE CURRENT_TIMESTAMP in the session time zone (keep it UTC)")
	}
	if o != nil && o.Default != "" {
		lc.Default = o.Default
		l.rec.Decide(t.Ref(compiler.KindColumn, c.Name), dialects.Overridden, "default %s", o.Default)
		return lc, true
	}
	d := c.Default
	if d == nil {
		return lc, true
	}
	if known && (typ.Kind == compiler.TypeText || typ.Kind == compiler.TypeJSON || typ.Kind == compiler.TypeBytes || typ.Kind == compiler.TypeVector) {
		l.rec.Errorf(d.Range, "Default not supported", "TiDB cannot give a %s column a default. Use varchar(n) for short text, or give a TiDB override: tidb { default = \"...\" }.", typ)
		return lc, true
	}
	switch d.Kind {
	case compiler.DefaultNow:
		lc.Default = fmt.Sprintf("CURRENT_TIMESTAMP(%d)", Precision(typ))
		l.rec.Decide(t.Ref(compiler.KindColumn, c.Name), dialects.Lowered, "now() as CURRENT_TIMESTAMP in the session time zone (keep it UTC)")
	case compiler.DefaultUUID:
		lc.Default = "(UUID())"
		l.rec.Decide(t.Ref(compiler.KindColumn, c.Name), dialects.Lowered, "uuid() as the expression default (UUID()): a version-1 UUID (time and node), where PostgreSQL makes a random version-4 one")
	case compiler.DefaultString:
		lc.Default = lexical.String(d.Value)
	case compiler.DefaultBool:
		lc.Default = map[string]string{"true": "1", "false": "0"}[d.Value]
	default:
		lc.Default = d.Value
		if typ.Kind == compiler.TypeDouble {
			// TiDB reads a literal without an exponent as DECIMAL, which
			// holds 65 digits: 1e308 written out would become 1e65.
			if f, err := strconv.ParseFloat(d.Value, 64); err == nil {
				lc.Default = strconv.FormatFloat(f, 'g', -1, 64)
			}
		}
	}
	return lc, true
}

// indexable reports an error when a column cannot be a key part on TiDB.
func (l *lowerer) indexable(t *compiler.Table, name, what string, rng hcl.Range) int {
	c := t.Column(name)
	if c == nil {
		return 0
	}
	typ, known := EffectiveType(c)
	if !known {
		return 0
	}
	switch typ.Kind {
	case compiler.TypeText:
		l.rec.Errorf(rng, "TEXT column in a key", "Column %s.%s is text, which TiDB cannot use in a %s. Give it a length: type = varchar(n), or tidb { type = varchar(n) } to keep TEXT on other dialects.", t.Name, name, what)
	case compiler.TypeJSON, compiler.TypeBytes, compiler.TypeVector:
		l.rec.Errorf(rng, "Column cannot be a key", "Column %s.%s is %s, which TiDB cannot use in a %s; index an expression of it instead, or leave the %s out of TiDB with tidb { skip = true }.", t.Name, name, typ, what, what)
	}
	return keyBytes(typ)
}

func (l *lowerer) keyColumns(t *compiler.Table, names []string, ranges []hcl.Range, what string, rng hcl.Range) {
	total := 0
	for i, n := range names {
		r := rng
		if i < len(ranges) {
			r = ranges[i]
		}
		total += l.indexable(t, n, what, r)
	}
	if total > limits.MaxKeyBytes {
		l.rec.Errorf(rng, "Key too long", "The %s on (%s) may take %d bytes; TiDB's limit is %d. Shorten the varchar columns in it.", what, strings.Join(names, ", "), total, limits.MaxKeyBytes)
	}
}

func (l *lowerer) Unique(t *compiler.Table, u *compiler.Unique) (sqltext.Constraint, bool) {
	l.keyColumns(t, u.Columns, u.ColumnRanges, "unique constraint", u.Range)
	return sqltext.Constraint{Name: u.Overrides.NameIn(Name, u.Name), Body: "UNIQUE (" + style.List(u.Columns) + ")"}, true
}

func (l *lowerer) Check(t *compiler.Table, c *compiler.Check) (sqltext.Constraint, bool) {
	if o := c.Overrides.For(Name); o != nil && o.Expr != "" {
		l.rec.Decide(t.Ref(compiler.KindCheck, c.Name), dialects.Overridden, "raw expression %s", o.Expr)
		l.rawCheck(t, c, o)
		return sqltext.CheckConstraint(c.Overrides.NameIn(Name, c.Name), o.Expr), true
	}
	l.explainExpr(t, t.Ref(compiler.KindCheck, c.Name), c.Expr)
	l.timePrecision(t, c)
	action := actionColumns(t)
	for _, col := range expr.Columns(c.Expr) {
		if fk, ok := action[col]; ok {
			l.rec.Errorf(c.Range, "CHECK on a foreign key column with an action", "TiDB rejects CHECK %q because it uses column %q, which foreign key %q changes by its ON DELETE/ON UPDATE action. Drop the action, move the rule out of the CHECK, or give a TiDB override: tidb { skip = true }.", c.Name, col, fk)
		}
	}
	e, changed := boolContext(c.Expr)
	if changed {
		l.rec.Decide(t.Ref(compiler.KindCheck, c.Name), dialects.Lowered, "a bool column or a CASE of conditions used as a condition compared with TRUE (TiDB refuses a non-boolean CHECK, error 3812)")
	}
	if e, changed = readback.DotAll(e); changed {
		l.rec.Decide(t.Ref(compiler.KindCheck, c.Name), dialects.Lowered, "regex . matches a newline as on PostgreSQL: (?s) added")
	}
	return sqltext.CheckConstraint(c.Overrides.NameIn(Name, c.Name), sqltext.Expr(Syntax{}, e)), true
}

// boolContext rewrites a CHECK that is a bool column alone (CHECK (b)) into
// b = TRUE: TiDB stores bool as TINYINT(1) and refuses a CHECK whose value
// is not boolean (error 3812); it takes NOT b and b OR ... as they are.
// b = TRUE keeps SQL's three values (NULL stays NULL). The model's tree is
// shared between dialects, so the changed node is a copy. A CASE of
// conditions is no boolean to TiDB either (its type is an integer).
func boolContext(n expr.Node) (expr.Node, bool) {
	switch x := n.(type) {
	case *expr.Column:
		if x.Kind == expr.KindBool {
			return &expr.Binary{Op: expr.OpEq, L: x, R: &expr.Literal{Kind: expr.LitBool, Value: "true"}}, true
		}
	case *expr.Case:
		if x.Kind == expr.KindBool {
			return &expr.Binary{Op: expr.OpEq, L: x, R: &expr.Literal{Kind: expr.LitBool, Value: "true"}}, true
		}
	case *expr.Paren:
		if y, ok := boolContext(x.X); ok {
			return &expr.Paren{X: y}, true
		}
	}
	return n, false
}

// explainExpr records the translations an expression needs on TiDB.
func (l *lowerer) explainExpr(t *compiler.Table, object compiler.ObjectRef, n expr.Node) {
	seen := map[string]bool{}
	note := func(s string) {
		if !seen[s] {
			seen[s] = true
			l.rec.Decide(object, dialects.Lowered, "%s", s)
		}
	}
	expr.Walk(n, func(n expr.Node) bool {
		switch n := n.(type) {
		case *expr.Binary:
			switch n.Op {
			case expr.OpRegex, expr.OpNotRegex:
				note("regex match as REGEXP")
			case expr.OpDistinct, expr.OpNotDistinct:
				note("IS [NOT] DISTINCT FROM as the NULL-safe <=>")
			case expr.OpConcat:
				note("|| as CONCAT")
			}
		case *expr.JSONType:
			note("json_type test as JSON_TYPE with TiDB's upper-case type names")
		case *expr.Literal:
			if n.Kind == expr.LitString && strings.Contains(n.Value, `\`) {
				note("backslashes in string literals doubled (TiDB reads escapes in literals)")
			}
		}
		return true
	})
}

// actions are the referential actions TiDB is given. RESTRICT is left
// implicit: TiDB checks foreign keys immediately, so it means NO ACTION, and
// TiDB forbids CHECKs on the columns of a foreign key with any written action.
var actions = map[compiler.Action]string{
	compiler.Cascade: "CASCADE", compiler.SetNull: "SET NULL",
}

// keyLimits reports whether c is a column of a foreign key of t with a
// referential action (action), where TiDB forbids the CHECK named by what
// (error 3823). The key limits c to the referenced column's checked values,
// which is recorded, but only while its other columns cannot be NULL: a
// NULL turns the key's check off, and refuse reports that.
func (l *lowerer) keyLimits(t *compiler.Table, c *compiler.Column, action map[string]string, what string, refuse func(fk, other string)) bool {
	fk, ok := action[c.Name]
	if !ok {
		return false
	}
	if other := nullableOther(t, fk, c.Name); other != "" {
		refuse(fk, other)
		return true
	}
	l.rec.Decide(t.Ref(compiler.KindColumn, c.Name), dialects.Omitted, "no %s: TiDB forbids CHECKs on columns of foreign key %s, which has a referential action, and the key limits the column to checked values", what, fk)
	return true
}

// nullableOther returns a nullable column of t's foreign key fk other than
// col, or "".
func nullableOther(t *compiler.Table, fk, col string) string {
	for _, f := range t.ForeignKeys {
		if f.Name != fk {
			continue
		}
		for _, name := range f.Columns {
			if c := t.Column(name); name != col && c != nil && c.NullIn(Name) {
				return name
			}
		}
	}
	return ""
}

// actionColumns returns the columns of t's foreign keys that have a
// referential action on TiDB: a CHECK may not use them there.
func actionColumns(t *compiler.Table) map[string]string {
	cols := map[string]string{}
	for _, fk := range t.ForeignKeys {
		if actions[fk.OnDelete] == "" && actions[fk.OnUpdate] == "" {
			continue
		}
		for _, c := range fk.Columns {
			// The first name of the keys over c: the same whatever the
			// keys' order (an imported model's).
			if prev, ok := cols[c]; !ok || fk.Name < prev {
				cols[c] = fk.Name
			}
		}
	}
	return cols
}

// decimalLeadsKey reports whether fk references one decimal column that
// leads its table's primary key of more columns (clustered on TiDB).
func decimalLeadsKey(s *compiler.Schema, fk *compiler.ForeignKey) bool {
	ref := s.Table(fk.RefTable)
	if ref == nil || len(fk.RefColumns) != 1 || ref.PrimaryKey == nil || len(ref.PrimaryKey.Columns) < 2 || ref.PrimaryKey.Columns[0] != fk.RefColumns[0] {
		return false
	}
	c := ref.Column(fk.RefColumns[0])
	if c == nil {
		return false
	}
	typ, known := EffectiveType(c)
	return known && typ.Kind == compiler.TypeDecimal
}

// storedFrom returns a STORED generated column of t on TiDB computed from
// any of cols, or "".
func storedFrom(t *compiler.Table, cols []string) string {
	for _, c := range t.Columns {
		if g := c.Generated; g == nil || !g.Stored || g.Expr == nil || c.Overrides.Skipped(Name) {
			continue
		}
		for _, name := range expr.Columns(c.Generated.Expr) {
			if slices.Contains(cols, name) {
				return c.Name
			}
		}
	}
	return ""
}

func (l *lowerer) ForeignKey(t *compiler.Table, fk *compiler.ForeignKey) (sqltext.Constraint, bool) {
	// TiDB indexes the referencing columns of a foreign key.
	l.keyColumns(t, fk.Columns, fk.ColumnRanges, "foreign key", fk.Range)
	l.fkTypes(t, fk)
	cols, refCols := fk.Columns, fk.RefColumns
	order, ok := rules.ForeignKeyTarget(l.schema, Name, limits, fk)
	switch {
	case !ok:
		l.rec.Errorf(fk.RefRange, "Foreign key without a key on TiDB", "Foreign key %q references (%s) of table %q, but no index of that table on TiDB is led by these columns (error 1822): the unique key over them is left out of TiDB. Keep it there, or leave the foreign key out of TiDB too: tidb { skip = true }.", fk.Name, strings.Join(fk.RefColumns, ", "), fk.RefTable)
	case order != nil:
		// TiDB needs an index led by the referenced columns in the key's
		// order (error 1822); the same pairs in the unique key's order are
		// the same foreign key.
		cols, refCols = make([]string, len(order)), make([]string, len(order))
		for i, j := range order {
			cols[i], refCols[i] = fk.Columns[j], fk.RefColumns[j]
		}
		l.rec.Decide(t.Ref(compiler.KindForeignKey, fk.Name), dialects.Lowered, "column pairs in the order of the referenced key (%s): TiDB needs an index led by the referenced columns in the foreign key's order", strings.Join(refCols, ", "))
	}
	body := "FOREIGN KEY (" + style.List(cols) + ") REFERENCES " + lexical.Ident(fk.RefTable) + " (" + style.List(refCols) + ")"
	for _, a := range []struct {
		clause string
		action compiler.Action
	}{{"ON DELETE", fk.OnDelete}, {"ON UPDATE", fk.OnUpdate}} {
		if a.action == compiler.SetDefault {
			l.rec.Errorf(fk.Range, "Unsupported referential action", "TiDB does not support SET DEFAULT in foreign key %q.", fk.Name)
		}
		if s := actions[a.action]; s != "" {
			body += " " + a.clause + " " + s
		}
	}
	if decimalLeadsKey(l.schema, fk) {
		l.rec.Errorf(fk.RefRange, "Foreign key TiDB checks wrongly", "Foreign key %q references decimal column %s.%s alone, which leads that table's primary key of %d columns: TiDB checks such a key against the clustered primary key and finds no row for any value, so every INSERT and UPDATE that sets it fails (error 1452; found by the differential tester, seed 778). Reference a key that does not lead with a lone decimal column, or leave the foreign key out of TiDB: tidb { skip = true }.", fk.Name, fk.RefTable, fk.RefColumns[0], len(l.schema.Table(fk.RefTable).PrimaryKey.Columns))
	}
	if g := storedFrom(t, fk.Columns); g != "" && (actions[fk.OnDelete] != "" || actions[fk.OnUpdate] != "") {
		l.rec.Errorf(fk.Range, "Referential action TiDB refuses", "TiDB refuses foreign key %q with a referential action (CASCADE, SET NULL) because stored generated column %q is computed from its columns (error 1215). Make %q computed when read (stored = false), drop the action, or leave the foreign key out of TiDB: tidb { skip = true }.", fk.Name, g, g)
	}
	if fk.Deferrable {
		if !fk.Overrides.Accepts(Name, compiler.AcceptDeferrable) {
			l.rec.Warnf(fk.Range, "Deferrable foreign key left out", "TiDB checks foreign key %q immediately; DEFERRABLE is PostgreSQL only and is left out (to acknowledge it: tidb { accept = [%q] }).", fk.Name, compiler.AcceptDeferrable)
		}
		l.rec.Decide(t.Ref(compiler.KindForeignKey, fk.Name), dialects.Omitted, "DEFERRABLE left out: TiDB checks foreign keys immediately")
	}
	switch depth, ok := l.cascades[fk]; {
	case fk.RefTable == t.Name && (fk.OnDelete == compiler.Cascade || fk.OnUpdate == compiler.Cascade):
		l.rec.Decide(t.Ref(compiler.KindForeignKey, fk.Name), dialects.Lowered, "CASCADE within the table: TiDB refuses a statement that cascades through more than %d levels of rows (error 3008); PostgreSQL has no such limit", limits.MaxCascadeDepth)
	case ok && depth == compiler.Unbounded:
		l.rec.Decide(t.Ref(compiler.KindForeignKey, fk.Name), dialects.Lowered, "reached by a cycle of foreign keys that cascade deletes: TiDB refuses a statement that cascades through more than %d levels of rows (error 3008); PostgreSQL has no such limit", limits.MaxCascadeDepth)
	case ok && depth > limits.MaxCascadeDepth+1:
		// The 15th cascade is TiDB's last (TestCascadeChain): the limit
		// of 14 levels of rows under a key to its own table counts the
		// cascade that the last row's delete starts.
		l.rec.Decide(t.Ref(compiler.KindForeignKey, fk.Name), dialects.Lowered, "level %d of a chain of cascading foreign keys: TiDB refuses a statement that cascades through more than %d tables (error 3008), as a DELETE at the chain's start does when every level has a row; PostgreSQL has no such limit", depth, limits.MaxCascadeDepth+1)
	}
	ref := &dialects.Reference{Columns: cols, RefTable: fk.RefTable, RefColumns: refCols, OnDelete: actions[fk.OnDelete], OnUpdate: actions[fk.OnUpdate]}
	return sqltext.Constraint{Name: fk.Overrides.NameIn(Name, fk.Name), Body: body, Ref: ref}, true
}

// timePrecision refuses a literal with more fractional digits than a
// timestamp column keeps on TiDB, compared with it: a plain timestamp keeps
// milliseconds on TiDB and microseconds on PostgreSQL, so the comparison
// with '... 12:34:56.123456' differs.
func (l *lowerer) timePrecision(t *compiler.Table, c *compiler.Check) {
	check := func(col, other expr.Node) {
		cn, ok := col.(*expr.Column)
		lit, lok := other.(*expr.Literal)
		if !ok || !lok || lit.Kind != expr.LitString || cn.Kind != expr.KindTime {
			return
		}
		tc := t.Column(cn.Name)
		if tc == nil {
			return
		}
		typ, known := EffectiveType(tc)
		if !known || typ.Kind != compiler.TypeTimestamp {
			return
		}
		fsp := typ.Arg(0, timestampPrecision)
		if _, frac, ok := strings.Cut(strings.TrimSuffix(strings.TrimSuffix(lit.Value, "+00:00"), "+00"), "."); ok && len(strings.TrimRight(frac, "0")) > fsp {
			l.rec.Errorf(c.ExprRange, "Timestamp literal too precise", "Check %q compares %s.%s with '%s', which has more fractional digits than the %d TiDB keeps there (PostgreSQL keeps %d), so the comparison differs. Round the literal, or give the column a precision: timestamp(%d).", c.Name, t.Name, cn.Name, lit.Value, fsp, typ.Arg(0, 6), fsp)
		}
	}
	expr.Walk(c.Expr, func(x expr.Node) bool {
		switch x := x.(type) {
		case *expr.Binary:
			check(x.L, x.R)
			check(x.R, x.L)
		case *expr.Between:
			check(x.X, x.Lo)
			check(x.X, x.Hi)
		case *expr.In:
			for _, e := range x.List {
				check(x.X, e)
			}
		}
		return true
	})
}

// fkTypes refuses foreign key columns whose TiDB types TiDB finds
// incompatible with the referenced ones (error 3780): string columns must be
// of the same kind (CHAR with CHAR, VARCHAR with VARCHAR), other types equal.
func (l *lowerer) fkTypes(t *compiler.Table, fk *compiler.ForeignKey) {
	ref := l.schema.Table(fk.RefTable)
	if ref == nil {
		return
	}
	for i, name := range fk.Columns {
		c := t.Column(name)
		if c == nil || i >= len(fk.RefColumns) || ref.Column(fk.RefColumns[i]) == nil {
			continue
		}
		rc := ref.Column(fk.RefColumns[i])
		ct, cknown := EffectiveType(c)
		rt, rknown := EffectiveType(rc)
		var ok bool
		switch {
		case !cknown || !rknown:
			// A raw type may carry attributes (AUTO_INCREMENT, a
			// collation): compare the type names only.
			ok = baseType(sqlType(c)) == baseType(sqlType(rc))
		case ct.IsString() && rt.IsString():
			ok = ct.Kind == rt.Kind
		default:
			ok = Type(ct) == Type(rt)
		}
		if !ok {
			rng := fk.Range
			if i < len(fk.ColumnRanges) {
				rng = fk.ColumnRanges[i]
			}
			l.rec.Errorf(rng, "Foreign key type mismatch", "On TiDB, column %s.%s is %s but references %s.%s, which is %s; TiDB refuses a foreign key between different types (error 3780). Give both columns the same type (char with char, varchar with varchar), or the same TiDB override.", t.Name, name, sqlType(c), ref.Name, rc.Name, sqlType(rc))
		}
	}
}

// baseType is the type name a TiDB column type starts with, in lower case,
// with UNSIGNED when it follows: "int", "varchar", "smallint unsigned".
func baseType(sql string) string {
	f := strings.Fields(strings.ToLower(strings.NewReplacer("(", " (", ",", " ").Replace(sql)))
	if len(f) == 0 {
		return ""
	}
	name := f[0]
	if name == "integer" {
		name = "int"
	}
	if slices.Contains(f[1:], "unsigned") {
		name += " unsigned"
	}
	return name
}

// sqlType is the SQL type of c on TiDB.
func sqlType(c *compiler.Column) string {
	if t, known := EffectiveType(c); known {
		return Type(t)
	}
	return c.Overrides.For(Name).RawType
}

func (l *lowerer) Finish(t *compiler.Table, lt *sqltext.Table) {
	if pk := t.PrimaryKey; pk != nil {
		l.keyColumns(t, pk.Columns, pk.ColumnRanges, "primary key", pk.Range)
	}
	lt.Columns = append(lt.Columns, l.generated...)
	l.generated = nil
	l.identity(t, lt)
	l.layout(t, lt)
	l.ttl(t, lt)
	l.partition(t, lt)
	if l.set.Charset != "" {
		lt.Options = append(lt.Options, "DEFAULT CHARSET = "+l.set.Charset)
	}
	if l.set.Collation != "" {
		lt.Options = append(lt.Options, "COLLATE = "+l.set.Collation)
	}
	l.timeRange(t, lt)
	l.domains(t, lt)
	if !l.set.UUIDCheck {
		return
	}
	action := actionColumns(t)
	for _, c := range t.Columns {
		typ, known := EffectiveType(c)
		if !known || typ.Kind != compiler.TypeUUID || c.Overrides.Skipped(Name) {
			continue
		}
		if l.keyLimits(t, c, action, "uuid_check CHECK", func(fk, other string) {
			l.rec.Errorf(c.Range, "uuid_check cannot hold", "uuid_check cannot add its CHECK to %s.%s: TiDB forbids CHECKs on columns of foreign key %q, which has a referential action (error 3823), and the key does not check rows where %s is NULL, so TiDB would store malformed UUIDs there that PostgreSQL refuses. Make %s not null, drop the action, or leave uuid_check off.", t.Name, c.Name, fk, other, other)
		}) {
			continue
		}
		if ShapeChecked(t, c.Name) {
			// The model's own CHECK of the column's uuid shape (written
			// by hand, imported) is uuid_check's.
			l.rec.Decide(t.Ref(compiler.KindColumn, c.Name), dialects.Omitted, "no uuid_check CHECK: the model's CHECK of its uuid shape stands for it")
			continue
		}
		name := l.generatedName(UUIDCheckName(t.Name, c.Name), t, c)
		lt.Constraints = append(lt.Constraints, sqltext.CheckConstraint(name, UUIDCheck(c.Name)))
		l.rec.Decide(t.Ref(compiler.KindColumn, c.Name), dialects.Added, "CHECK %s keeps PostgreSQL's guarantee of a well-formed UUID (uuid_check)", name)
	}
}

// identity lowers an identity column to AUTO_INCREMENT, with AUTO_ID_CACHE
// 1: TiDB otherwise hands each server a batch of ids, so that ids are not
// given in the order of the INSERTs, nor one after another.
func (l *lowerer) identity(t *compiler.Table, lt *sqltext.Table) {
	for _, c := range t.Columns {
		id := c.Identity
		if id == nil || c.Overrides.Skipped(Name) {
			continue
		}
		l.rec.About(t.Name, compiler.KindTable, "")
		if id.Unordered {
			// TiDB takes CHECKs and generated columns over an AUTO_RANDOM
			// column (TestAutoRandom), unlike AUTO_INCREMENT.
			for _, lc := range lt.Columns {
				if lc.Name == c.Name {
					lc.Clause = AutoRandom(id.ShardBits, id.RangeBits)
				}
			}
			l.rec.Decide(t.Ref(compiler.KindColumn, c.Name), dialects.Lowered, "identity with ordered = false as %s: TiDB gives each row a unique id whose %d high bits are scattered, so that INSERTs spread over the cluster; ids are in no order and not consecutive (PostgreSQL numbers them in order), and an INSERT that gives the column a value is refused unless the session sets allow_auto_random_explicit_insert", AutoRandom(id.ShardBits, id.RangeBits), id.ShardBits)
			continue
		}
		l.identityUses(t, c.Name)
		for _, lc := range lt.Columns {
			if lc.Name == c.Name {
				lc.Clause = "AUTO_INCREMENT"
			}
		}
		if id.Start != 1 {
			lt.Options = append(lt.Options, fmt.Sprintf("AUTO_INCREMENT = %d", id.Start))
		}
		cache := max(id.Cache, 1)
		lt.Options = append(lt.Options, fmt.Sprintf("AUTO_ID_CACHE = %d", cache))
		if cache > 1 {
			l.rec.Decide(t.Ref(compiler.KindColumn, c.Name), dialects.Lowered, "identity as AUTO_INCREMENT with AUTO_ID_CACHE = %d: each TiDB server takes %d ids at a time, so ids are unique but not in INSERT order across servers and may jump (PostgreSQL numbers them one by one)", cache, cache)
			continue
		}
		l.rec.Decide(t.Ref(compiler.KindColumn, c.Name), dialects.Lowered, "identity as AUTO_INCREMENT with AUTO_ID_CACHE = 1 (ids in INSERT order, one after another); an INSERT that gives the column a value moves the next id past it. A refused INSERT may leave other gaps than on PostgreSQL: a NULL in a NOT NULL column takes an id there and not here, a value one database refuses as input and the other by a CHECK takes one on the CHECK's side only, so later ids may differ")
	}
}

// AutoRandom is the column clause of an identity with ordered = false.
func AutoRandom(shardBits, rangeBits int) string {
	return fmt.Sprintf("AUTO_RANDOM(%d, %d)", shardBits, rangeBits)
}

// identityUses refuses CHECKs and index expressions or predicates over
// identity column col: TiDB refuses a CHECK (error 3818) or a generated
// column (3109), through which it indexes expressions and predicates, that
// refers to an AUTO_INCREMENT column.
func (l *lowerer) identityUses(t *compiler.Table, col string) {
	for _, c := range t.Checks {
		if o := c.Overrides.For(Name); o != nil && (o.Skip || o.Expr != "") {
			continue
		}
		if slices.Contains(expr.Columns(c.Expr), col) {
			l.rec.About(t.Name, compiler.KindCheck, c.Name)
			l.rec.Errorf(c.Range, "CHECK on an identity column", "TiDB refuses CHECK %q because it uses identity column %q (AUTO_INCREMENT, error 3818). Drop the CHECK, or leave it out of TiDB: tidb { skip = true }.", c.Name, col)
		}
	}
	for _, c := range t.Columns {
		if g := c.Generated; g != nil && g.Expr != nil && !c.Overrides.Skipped(Name) && slices.Contains(expr.Columns(g.Expr), col) {
			l.rec.About(t.Name, compiler.KindColumn, c.Name)
			l.rec.Errorf(g.Range, "Generated column over an identity column", "Generated column %s.%s uses identity column %q; TiDB refuses a generated column over an AUTO_INCREMENT column (error 3109).", t.Name, c.Name, col)
		}
	}
	for _, idx := range t.Indexes {
		if o := idx.Overrides.For(Name); o != nil && (o.Skip || o.SQL != "") {
			continue
		}
		var cols []string
		for _, p := range idx.Parts {
			cols = append(cols, expr.Columns(p.Expr)...)
			if idx.Where != nil && idx.Unique {
				// A unique partial index's parts become generated columns.
				cols = append(cols, p.Column)
			}
		}
		if idx.Where != nil {
			cols = append(cols, expr.Columns(idx.Where)...)
		}
		if slices.Contains(cols, col) {
			l.rec.About(t.Name, compiler.KindIndex, idx.Name)
			l.rec.Errorf(idx.Range, "Index expression over an identity column", "Index %q uses identity column %q in an expression or its where, which TiDB builds from generated columns; TiDB refuses those over an AUTO_INCREMENT column (error 3109). Index the column itself.", idx.Name, col)
		}
	}
}

// layout lowers how TiDB stores the table's rows: by the primary key
// (CLUSTERED) or by hidden row ids beside it (NONCLUSTERED), whose high
// bits SHARD_ROW_ID_BITS scatters and PRE_SPLIT_REGIONS splits ahead.
func (l *lowerer) layout(t *compiler.Table, lt *sqltext.Table) {
	if pk := t.PrimaryKey; pk != nil && pk.Clustered != nil {
		l.rec.About(t.Name, compiler.KindTable, "")
		if *pk.Clustered {
			lt.PrimaryKeyClause = "CLUSTERED"
			l.rec.Decide(t.Ref(compiler.KindTable, ""), dialects.Lowered, "clustered = true as PRIMARY KEY ... CLUSTERED: the rows are stored in the key's order, the server's default made explicit")
		} else {
			lt.PrimaryKeyClause = "NONCLUSTERED"
			l.rec.Decide(t.Ref(compiler.KindTable, ""), dialects.Lowered, "clustered = false as PRIMARY KEY ... NONCLUSTERED: the rows are stored by hidden row ids and the key is an index beside them, so a lookup by key reads twice; TiDB cannot change it later")
		}
	}
	if t.ShardRowIDBits > 0 {
		lt.Options = append(lt.Options, fmt.Sprintf("SHARD_ROW_ID_BITS = %d", t.ShardRowIDBits))
		l.rec.Decide(t.Ref(compiler.KindTable, ""), dialects.Lowered, "shard_row_id_bits = %d as SHARD_ROW_ID_BITS: the row ids' high bits are scattered over %d shards, so INSERTs spread over the cluster", t.ShardRowIDBits, 1<<t.ShardRowIDBits)
	}
	if t.PreSplitRegions > 0 {
		lt.Options = append(lt.Options, fmt.Sprintf("PRE_SPLIT_REGIONS = %d", t.PreSplitRegions))
		l.rec.Decide(t.Ref(compiler.KindTable, ""), dialects.Lowered, "pre_split_regions = %d as PRE_SPLIT_REGIONS: TiDB splits the new table into %d regions when it creates it", t.PreSplitRegions, 1<<t.PreSplitRegions)
	}
}
