// Package tidb lowers schemagen's neutral model to TiDB DDL.
//
// It holds everything schemagen knows about TiDB (lowering, reading back
// with TiDB's own parser, Atlas's driver and its workarounds, online plans,
// lint rules, import), one concern a file with the same names as package
// postgres; it is larger than other packages because TiDB needs more
// translation (generated columns for the indexes and CHECKs it lacks).
package tidb

import (
	"crypto/sha256"
	"encoding/hex"
	"fmt"
	"maps"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"unicode/utf8"

	"github.com/hashicorp/hcl/v2"
	"github.com/zclconf/go-cty/cty"

	"github.com/schemagen/schemagen/compiler"
	"github.com/schemagen/schemagen/compiler/expr"
	"github.com/schemagen/schemagen/compiler/expr/render"
	"github.com/schemagen/schemagen/dialects"
	"github.com/schemagen/schemagen/dialects/internal/generate"
	"github.com/schemagen/schemagen/dialects/internal/sqltext"
	"github.com/schemagen/schemagen/dialects/rules"
	"github.com/schemagen/schemagen/dialects/tidb/internal/lexical"
	"github.com/schemagen/schemagen/dialects/tidb/internal/readback"
)

// Name is the dialect's name in schema.hcl and atlas.hcl.
const Name = "tidb"

const (
	// timestampPrecision keeps milliseconds, as the hand-written schemas did.
	timestampPrecision = 3
)

// Dialect is TiDB (8.x), with CHECK constraints enabled
// (tidb_enable_check_constraint = ON).
type Dialect struct{}

// Name implements dialects.Dialect.
func (Dialect) Name() string { return Name }

// Settings are the `dialect "tidb" { ... }` settings of a model.
type Settings struct {
	// UUIDCheck adds to every uuid column a CHECK that it holds a
	// well-formed UUID, a guarantee PostgreSQL's UUID type gives by itself.
	UUIDCheck bool
	// ExactStrings gives varchar and text columns the collation
	// utf8mb4_0900_bin, which compares trailing spaces as PostgreSQL does:
	// TiDB's default utf8mb4_bin ignores them, so 'a' and 'a ' are one key.
	ExactStrings bool
	// ValueDomains adds the CHECKs of Rules.Domains, which keep columns to
	// the values PostgreSQL stores too.
	ValueDomains bool
	// Charset and Collation are the tables' own (DEFAULT CHARSET and
	// COLLATE of each CREATE TABLE), where a database imported has others
	// than the server's default; "" for the default.
	Charset, Collation string
}

// defaults are the settings of a model without a dialect "tidb" block: the
// ones under which it means the same as on PostgreSQL.
var defaults = Settings{UUIDCheck: true, ExactStrings: true, ValueDomains: true}

var charsetName = regexp.MustCompile(`^[A-Za-z0-9_]+$`)

// decodeSettings reads the dialect block.
func decodeSettings(s *compiler.Schema) (Settings, hcl.Diagnostics) {
	set := defaults
	var diags hcl.Diagnostics
	ds := s.Dialect[Name]
	if ds == nil {
		return set, nil
	}
	for name, a := range ds.Attrs {
		var field *bool
		switch name {
		case "uuid_check":
			field = &set.UUIDCheck
		case "exact_strings":
			field = &set.ExactStrings
		case "value_domains":
			field = &set.ValueDomains
		case "charset", "collation":
			v, d := a.Expr.Value(nil)
			if d.HasErrors() || v.IsNull() || v.Type() != cty.String || !charsetName.MatchString(v.AsString()) {
				diags = append(diags, &hcl.Diagnostic{Severity: hcl.DiagError, Summary: "Invalid setting (tidb)", Detail: fmt.Sprintf("%s must be the name of a %s of TiDB's, such as %q.", name, name, map[string]string{"charset": "utf8mb4", "collation": "utf8mb4_bin"}[name]), Subject: a.Expr.Range().Ptr()})
				continue
			}
			if name == "charset" {
				set.Charset = v.AsString()
			} else {
				set.Collation = v.AsString()
			}
			continue
		default:
			diags = append(diags, &hcl.Diagnostic{Severity: hcl.DiagError, Summary: "Unsupported setting (tidb)", Detail: fmt.Sprintf("The tidb dialect has no setting %q; it has uuid_check, exact_strings, value_domains, charset and collation.", name), Subject: a.NameRange.Ptr()})
			continue
		}
		v, d := dialects.BoolSetting(Name, a)
		if d != nil {
			diags = append(diags, d)
			continue
		}
		*field = v
	}
	return set, diags
}

// Generate implements dialects.Dialect.
func (Dialect) Generate(s *compiler.Schema) (*dialects.Output, hcl.Diagnostics) {
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

var style = sqltext.Style{Ident: Ident, String: String, InlineComments: true, InlineIndexes: true}

// Ident quotes an identifier.
func Ident(s string) string { return lexical.Ident(s) }

// String quotes a string literal.
func String(s string) string { return lexical.String(s) }

type syntax struct{}

func (syntax) Ident(s string) string  { return Ident(s) }
func (syntax) String(s string) string { return String(s) }
func (syntax) Bool(v bool) string {
	if v {
		return "TRUE"
	}
	return "FALSE"
}
func (syntax) TextOperand(sql string, _ expr.Kind) string { return sql }

func (syntax) Regex(x, p string, not bool) string {
	if not {
		return "NOT (" + x + " REGEXP " + p + ")"
	}
	return x + " REGEXP " + p
}

func (syntax) Distinct(l, r string, not bool) string {
	if not {
		return l + " <=> " + r
	}
	return "NOT (" + l + " <=> " + r + ")"
}

// Concat uses CONCAT: in TiDB's default SQL mode || means OR.
func (syntax) Concat(l, r string) string { return "CONCAT(" + l + ", " + r + ")" }

func (syntax) JSONType(x string, types []string, not bool) string {
	var names []string
	for _, t := range types {
		for _, n := range readback.JSONTypes[t] {
			names = append(names, String(n))
		}
	}
	f := "JSON_TYPE(" + x + ")"
	if len(names) == 1 {
		if not {
			return f + " <> " + names[0]
		}
		return f + " = " + names[0]
	}
	if not {
		return f + " NOT IN (" + strings.Join(names, ", ") + ")"
	}
	return f + " IN (" + strings.Join(names, ", ") + ")"
}

type lowerer struct {
	rec    *sqltext.Recorder
	set    Settings
	schema *compiler.Schema
	names  map[string]bool // the model's constraint and index names
	// generated are the VIRTUAL columns the table's indexes need for
	// expressions TiDB cannot index directly, added by Finish.
	generated []*sqltext.Column
	// cascades are the levels of rows a statement cascades through to
	// reach each foreign key with an action (compiler.CascadeDepths).
	cascades map[*compiler.ForeignKey]int
}

// keyBytes is the most bytes a value of t takes in an index key (utf8mb4).
func keyBytes(t compiler.Type) int {
	switch t.Kind {
	case compiler.TypeUUID:
		return 36 * 4
	case compiler.TypeVarchar, compiler.TypeChar:
		return t.Args[0] * 4
	case compiler.TypeSmallint:
		return 2
	case compiler.TypeInt:
		return 4
	case compiler.TypeBool:
		return 1
	case compiler.TypeDecimal:
		return t.Args[0]/2 + 1
	default:
		return 8
	}
}

// effectiveType is the neutral type a column has on TiDB, and whether an
// override made it opaque (raw SQL).
func effectiveType(c *compiler.Column) (compiler.Type, bool) {
	if o := c.Overrides.For(Name); o != nil {
		if o.RawType != "" {
			return compiler.Type{}, false
		}
		if o.Type != nil {
			return *o.Type, true
		}
	}
	return c.Type, true
}

func (l *lowerer) Column(t *compiler.Table, c *compiler.Column) (*sqltext.Column, bool) {
	lc := &sqltext.Column{Name: c.Name, NotNull: !c.Null, Comment: c.Comment}
	o := c.Overrides.For(Name)
	typ, known := effectiveType(c)
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
	if known && typ.Kind == compiler.TypeEnum && !c.Null && c.Default == nil && c.Generated == nil && (o == nil || o.Default == "") && !c.Overrides.Accepts(Name, compiler.AcceptEnumFirstValue) {
		// Found by the differential tester: TiDB gives an INSERT that
		// leaves out a NOT NULL ENUM column without a default its first
		// value, in strict mode too; PostgreSQL refuses the row.
		l.rec.Decide(t.Name, dialects.ObjectOf(compiler.KindColumn, c.Name), dialects.Lowered, "an INSERT that leaves out this NOT NULL enum column gets its first value, %s, on TiDB; PostgreSQL refuses the row", String(typ.Enum.Values[0]))
		l.rec.Warnf(c.TypeRange, "Enum column without a default", "An INSERT that leaves out %s.%s gets the enum's first value, %s, on TiDB, where PostgreSQL refuses the row. Give the column a default, or make every INSERT write it (to acknowledge it: tidb { accept = [%q] }).", t.Name, c.Name, String(typ.Enum.Values[0]), compiler.AcceptEnumFirstValue)
	}
	if known && l.set.ExactStrings && (typ.Kind == compiler.TypeVarchar || typ.Kind == compiler.TypeText) {
		lc.Type += " COLLATE " + exactCollation
		l.rec.Decide(t.Name, dialects.ObjectOf(compiler.KindColumn, c.Name), dialects.Lowered, "COLLATE %s: trailing spaces count, as on PostgreSQL (exact_strings)", exactCollation)
	}
	if g := c.Generated; g != nil && g.Expr != nil {
		l.explainExpr(t, dialects.ObjectOf(compiler.KindColumn, c.Name), g.Expr)
		e, _ := readback.DotAll(g.Expr)
		lc.GeneratedExpr = sqltext.Expr(syntax{}, e)
		kind := "STORED"
		if !g.Stored {
			kind = "VIRTUAL"
		}
		lc.Generated = "AS (" + lc.GeneratedExpr + ") " + kind
	}
	if c.OnUpdate && known {
		lc.OnUpdate = fmt.Sprintf("CURRENT_TIMESTAMP(%d)", precision(typ))
		l.rec.Decide(t.Name, dialects.ObjectOf(compiler.KindColumn, c.Name), dialects.Lowered, "on_update = now() as ON UPDATE CURRENT_TIMESTAMP in the session time zone (keep it UTC)")
	}
	if o != nil && o.Default != "" {
		lc.Default = o.Default
		l.rec.Decide(t.Name, dialects.ObjectOf(compiler.KindColumn, c.Name), dialects.Overridden, "default %s", o.Default)
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
		lc.Default = fmt.Sprintf("CURRENT_TIMESTAMP(%d)", precision(typ))
		l.rec.Decide(t.Name, dialects.ObjectOf(compiler.KindColumn, c.Name), dialects.Lowered, "now() as CURRENT_TIMESTAMP in the session time zone (keep it UTC)")
	case compiler.DefaultUUID:
		lc.Default = "(UUID())"
		l.rec.Decide(t.Name, dialects.ObjectOf(compiler.KindColumn, c.Name), dialects.Lowered, "uuid() as the expression default (UUID()): a version-1 UUID (time and node), where PostgreSQL makes a random version-4 one")
	case compiler.DefaultString:
		lc.Default = String(d.Value)
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
	typ, known := effectiveType(c)
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
		l.rec.Decide(t.Name, dialects.ObjectOf(compiler.KindCheck, c.Name), dialects.Overridden, "raw expression %s", o.Expr)
		return sqltext.CheckConstraint(c.Overrides.NameIn(Name, c.Name), o.Expr), true
	}
	l.explainExpr(t, dialects.ObjectOf(compiler.KindCheck, c.Name), c.Expr)
	l.timePrecision(t, c)
	action := actionColumns(t)
	for _, col := range expr.Columns(c.Expr) {
		if fk, ok := action[col]; ok {
			l.rec.Errorf(c.Range, "CHECK on a foreign key column with an action", "TiDB rejects CHECK %q because it uses column %q, which foreign key %q changes by its ON DELETE/ON UPDATE action. Drop the action, move the rule out of the CHECK, or give a TiDB override: tidb { skip = true }.", c.Name, col, fk)
		}
	}
	e, changed := boolContext(c.Expr)
	if changed {
		l.rec.Decide(t.Name, dialects.ObjectOf(compiler.KindCheck, c.Name), dialects.Lowered, "a bool column or a CASE of conditions used as a condition compared with TRUE (TiDB refuses a non-boolean CHECK, error 3812)")
	}
	if e, changed = readback.DotAll(e); changed {
		l.rec.Decide(t.Name, dialects.ObjectOf(compiler.KindCheck, c.Name), dialects.Lowered, "regex . matches a newline as on PostgreSQL: (?s) added")
	}
	return sqltext.CheckConstraint(c.Overrides.NameIn(Name, c.Name), sqltext.Expr(syntax{}, e)), true
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
func (l *lowerer) explainExpr(t *compiler.Table, object dialects.Object, n expr.Node) {
	seen := map[string]bool{}
	note := func(s string) {
		if !seen[s] {
			seen[s] = true
			l.rec.Decide(t.Name, object, dialects.Lowered, "%s", s)
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
	l.rec.Decide(t.Name, dialects.ObjectOf(compiler.KindColumn, c.Name), dialects.Omitted, "no %s: TiDB forbids CHECKs on columns of foreign key %s, which has a referential action, and the key limits the column to checked values", what, fk)
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
			if c := t.Column(name); name != col && c != nil && c.Null {
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
	typ, known := effectiveType(c)
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
		l.rec.Decide(t.Name, dialects.ObjectOf(compiler.KindForeignKey, fk.Name), dialects.Lowered, "column pairs in the order of the referenced key (%s): TiDB needs an index led by the referenced columns in the foreign key's order", strings.Join(refCols, ", "))
	}
	body := "FOREIGN KEY (" + style.List(cols) + ") REFERENCES " + Ident(fk.RefTable) + " (" + style.List(refCols) + ")"
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
		l.rec.Decide(t.Name, dialects.ObjectOf(compiler.KindForeignKey, fk.Name), dialects.Omitted, "DEFERRABLE left out: TiDB checks foreign keys immediately")
	}
	switch depth, ok := l.cascades[fk]; {
	case fk.RefTable == t.Name && (fk.OnDelete == compiler.Cascade || fk.OnUpdate == compiler.Cascade):
		l.rec.Decide(t.Name, dialects.ObjectOf(compiler.KindForeignKey, fk.Name), dialects.Lowered, "CASCADE within the table: TiDB refuses a statement that cascades through more than %d levels of rows (error 3008); PostgreSQL has no such limit", limits.MaxCascadeDepth)
	case ok && depth == compiler.Unbounded:
		l.rec.Decide(t.Name, dialects.ObjectOf(compiler.KindForeignKey, fk.Name), dialects.Lowered, "reached by a cycle of foreign keys that cascade deletes: TiDB refuses a statement that cascades through more than %d levels of rows (error 3008); PostgreSQL has no such limit", limits.MaxCascadeDepth)
	case ok && depth > limits.MaxCascadeDepth+1:
		// The 15th cascade is TiDB's last (TestCascadeChain): the limit
		// of 14 levels of rows under a key to its own table counts the
		// cascade that the last row's delete starts.
		l.rec.Decide(t.Name, dialects.ObjectOf(compiler.KindForeignKey, fk.Name), dialects.Lowered, "level %d of a chain of cascading foreign keys: TiDB refuses a statement that cascades through more than %d tables (error 3008), as a DELETE at the chain's start does when every level has a row; PostgreSQL has no such limit", depth, limits.MaxCascadeDepth+1)
	}
	return sqltext.Constraint{Name: fk.Overrides.NameIn(Name, fk.Name), Body: body}, true
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
		typ, known := effectiveType(tc)
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
		ct, cknown := effectiveType(c)
		rt, rknown := effectiveType(rc)
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
	if t, known := effectiveType(c); known {
		return Type(t)
	}
	return c.Overrides.For(Name).RawType
}

func (l *lowerer) Index(t *compiler.Table, idx *compiler.Index) (*sqltext.Index, bool) {
	object := dialects.ObjectOf(compiler.KindIndex, idx.Name)
	if o := idx.Overrides.For(Name); o != nil && o.SQL != "" {
		l.rec.Decide(t.Name, object, dialects.Overridden, "raw statement from the model")
		return &sqltext.Index{Raw: o.SQL, Of: idx.Name}, true
	}
	li := &sqltext.Index{Name: idx.Overrides.NameIn(Name, idx.Name), Unique: idx.Unique}
	// A unique index over rows the predicate picks is a unique key over
	// generated columns that are NULL outside the predicate.
	partial := idx.Unique && idx.Where != nil && !nullFreeKey(idx)
	if partial && arithmetic(idx.Where) {
		l.rec.Errorf(idx.WhereRange, "Partial index predicate that can fail", "TiDB has no partial indexes; schemagen computes the predicate of unique index %q in generated columns there, and its arithmetic (overflow, %% by zero) can fail on one database and not the other. Leave the arithmetic out of the predicate, or leave the index out of TiDB: tidb { skip = true }.", idx.Name)
		return nil, false
	}
	var cols []string
	var ranges []hcl.Range
	for i, p := range idx.Parts {
		part, x := "", ""
		if partial && caseWrapped(idx, p) {
			part = l.partialColumn(t, idx, i, p)
			if p.Expr == nil {
				cols, ranges = append(cols, p.Column), append(ranges, p.Range)
			}
		} else if partial {
			part = Ident(p.Column)
			cols, ranges = append(cols, p.Column), append(ranges, p.Range)
		} else if p.Expr != nil && idx.Where != nil && arithmetic(p.Expr) {
			// TiDB drops the predicate but would compute the part for every
			// row, where its arithmetic can fail (overflow) for a row
			// PostgreSQL leaves out of the index: computed inside the
			// predicate only, NULL outside it.
			part = l.partialColumn(t, idx, i, p)
			l.rec.Decide(t.Name, object, dialects.Lowered, "key part %d as a VIRTUAL generated column CASE WHEN <predicate> THEN <part> END: its arithmetic is computed only for rows the predicate picks, as on PostgreSQL", i)
		} else if p.Expr != nil {
			x = sqltext.Expr(syntax{}, p.Expr)
			part = "(" + x + ")"
			l.explainExpr(t, object, p.Expr)
			// An expression TiDB cannot index directly is indexed through a
			// generated column, as teams do by hand; so is one whose part
			// names its TiDB column (a hand-written one, imported).
			if f := notIndexable(p.Expr); f != "" {
				part, x = l.generatedColumn(t, idx, i, p, f), ""
			} else if o := p.Overrides.For(Name); o != nil && o.Column != "" {
				part, x = l.generatedColumn(t, idx, i, p, ""), ""
			} else {
				l.exprKeyPart(t, idx, p)
			}
		} else {
			part = Ident(p.Column)
			cols, ranges = append(cols, p.Column), append(ranges, p.Range)
		}
		if p.OpClass() != "" {
			if !idx.Overrides.Accepts(Name, compiler.AcceptOpClass) {
				l.rec.Warnf(p.Range, "Operator class left out", "TiDB has no operator classes; %q of index %q is left out (to acknowledge it: tidb { accept = [%q] }).", p.OpClass(), idx.Name, compiler.AcceptOpClass)
			}
			l.rec.Decide(t.Name, object, dialects.Omitted, "operator class %s left out", p.OpClass())
		}
		if p.Desc {
			part += " DESC"
		}
		li.Parts = append(li.Parts, part)
		li.Exprs = append(li.Exprs, x)
	}
	l.keyColumns(t, cols, ranges, "index", idx.Range)
	if idx.Method() != "" {
		if !idx.Overrides.Accepts(Name, compiler.AcceptIndexMethod) {
			l.rec.Warnf(idx.Range, "Index method left out", "TiDB has no index methods; USING %s of index %q is left out (to acknowledge it: tidb { accept = [%q] }).", idx.Method(), idx.Name, compiler.AcceptIndexMethod)
		}
		l.rec.Decide(t.Name, object, dialects.Omitted, "USING %s left out", idx.Method())
	}
	if idx.Where == nil {
		return li, true
	}
	// TiDB has no partial indexes. A unique index whose predicate only
	// excludes rows with NULL in key columns means the same without it,
	// since TiDB's unique indexes never compare NULLs.
	if idx.Unique {
		if partial {
			l.rec.Decide(t.Name, object, dialects.Lowered, "WHERE %s as a unique key over VIRTUAL generated columns CASE WHEN <predicate> THEN <part> END: NULL outside the predicate, and TiDB's unique keys never compare NULLs", idx.WhereSrc)
			return li, true
		}
		l.rec.Decide(t.Name, object, dialects.Lowered, "WHERE %s dropped: TiDB unique indexes allow many NULLs, so the plain unique index means the same", idx.WhereSrc)
		return li, true
	}
	if arithmetic(idx.Where) {
		l.rec.Errorf(idx.WhereRange, "Partial index predicate that can fail", "TiDB has no partial indexes and drops the predicate of index %q, but PostgreSQL computes it for every row, and its arithmetic can fail (overflow, %% by zero) and reject the row there only. Leave the arithmetic out of the predicate, or give TiDB its own form: tidb { skip = true }.", idx.Name)
		return nil, false
	}
	if !idx.Overrides.Accepts(Name, compiler.AcceptPartialIndex) {
		l.rec.Warnf(idx.WhereRange, "Partial index made full", "TiDB has no partial indexes; index %q covers all rows there (same results, larger index). To acknowledge it: tidb { accept = [%q] }.", idx.Name, compiler.AcceptPartialIndex)
	}
	l.rec.Decide(t.Name, object, dialects.Lowered, "WHERE %s dropped: TiDB has no partial indexes, so the index covers all rows", idx.WhereSrc)
	return li, true
}

// nullFreeKey reports whether idx's predicate only requires plain key
// columns to be non-null: TiDB's unique indexes never compare NULLs, so the
// index means the same without it.
func nullFreeKey(idx *compiler.Index) bool {
	nn := expr.NotNullOn(idx.Where)
	ok := nn != nil
	for _, c := range nn {
		ok = ok && containsPlain(idx, c)
	}
	return ok
}

// caseWrapped reports whether key part p of a partial unique index is
// lowered through a generated column on TiDB: an expression, or a part that
// names its TiDB column, or every part when none is either. One NULL in a
// key is enough for rows outside the predicate never to collide, so plain
// column parts beside a generated one stay as they are, as teams write it
// by hand (UNIQUE KEY (tenant_id, open_email)).
func caseWrapped(idx *compiler.Index, p *compiler.IndexPart) bool {
	named := func(p *compiler.IndexPart) bool {
		o := p.Overrides.For(Name)
		return p.Expr != nil || o != nil && o.Column != ""
	}
	return named(p) || !slices.ContainsFunc(idx.Parts, named)
}

// partialColumn lowers key part i of a partial unique index to a VIRTUAL
// generated column CASE WHEN <predicate> THEN <part> END, as teams emulate
// partial unique indexes by hand on TiDB: rows outside the predicate hold
// NULL there and never collide; rows inside compare their values. The
// column is named as generatedColumn names it, and has the part's type (a
// column's own, collation included) so that values compare as in the column.
func (l *lowerer) partialColumn(t *compiler.Table, idx *compiler.Index, i int, p *compiler.IndexPart) string {
	var value, typ string
	if p.Expr != nil {
		l.explainExpr(t, dialects.ObjectOf(compiler.KindIndex, idx.Name), p.Expr)
		value, typ = sqltext.Expr(syntax{}, p.Expr), l.exactString(generatedType(t, p.Expr))
		if typ == "" && idx.Where != nil && integerArithmetic(t, p.Expr) {
			// PostgreSQL computes it in bigint too (int and smallint are
			// read as bigint in arithmetic), so it overflows alike.
			typ = "BIGINT"
		}
	} else if c := t.Column(p.Column); c != nil {
		value = Ident(p.Column)
		if ct, known := effectiveType(c); known {
			typ = l.columnType(ct)
		}
	}
	if typ == "" {
		l.rec.Errorf(p.Range, "Partial index TiDB cannot keep", "TiDB has no partial indexes; schemagen keeps partial index %q there through generated columns CASE WHEN <predicate> THEN <part> END, which need a value of a known type (a column without a raw type override, or a string or integer expression of known length). Leave the index out of TiDB with tidb { skip = true }, or give TiDB its own statement: tidb { sql = \"...\" }.", idx.Name)
		return ""
	}
	where, _ := readback.DotAll(idx.Where)
	if i == 0 {
		l.explainExpr(t, dialects.ObjectOf(compiler.KindIndex, idx.Name), where)
	}
	name := l.generatedColumnName(t, idx, i, p)
	body := "CASE WHEN " + sqltext.Expr(syntax{}, where) + " THEN " + value + " END"
	l.generated = append(l.generated, &sqltext.Column{Name: name, Type: typ + " AS (" + body + ") VIRTUAL"})
	return Ident(name)
}

// exactString gives a generated VARCHAR the collation exact_strings gives
// the columns it is computed from, so that its values compare as theirs.
func (l *lowerer) exactString(typ string) string {
	if l.set.ExactStrings && strings.HasPrefix(typ, "VARCHAR") {
		return typ + " COLLATE " + exactCollation
	}
	return typ
}

// columnType is the TiDB type of a column of neutral type typ, with the
// collation exact_strings gives it.
func (l *lowerer) columnType(typ compiler.Type) string {
	s := Type(typ)
	if l.set.ExactStrings && (typ.Kind == compiler.TypeVarchar || typ.Kind == compiler.TypeText) {
		s += " COLLATE " + exactCollation
	}
	return s
}

// exprKeyPart refuses an expression key part TiDB cannot index directly:
// one that calls a function or operator outside
// tidb_allow_function_for_expression_index (error 8200), or whose value may
// exceed the key size (error 1071). schemagen refuses rather than lowering to
// an indexed generated column, which would add a column that SELECT * shows
// on TiDB only.
func (l *lowerer) exprKeyPart(t *compiler.Table, idx *compiler.Index, p *compiler.IndexPart) {
	bad := ""
	expr.Walk(p.Expr, func(n expr.Node) bool {
		name := ""
		switch n := n.(type) {
		case *expr.Call:
			name = n.Name
		case *expr.JSONType:
			name = "json_type"
		case *expr.Binary:
			if n.Op == expr.OpConcat {
				name = "||"
			}
		}
		if name != "" && !limits.ExprIndexFunctions[name] && bad == "" {
			bad = name
		}
		return true
	})
	if bad == "||" {
		bad = "|| (CONCAT)"
	} else if bad != "" {
		bad += "()"
	}
	if bad != "" {
		l.rec.Errorf(p.Range, "Expression TiDB cannot index", "TiDB does not allow %s in an expression index (error 8200); of the portable functions its expression indexes may call only %s. Index a column instead, give TiDB its own form: tidb { sql = \"CREATE INDEX ...\" }, or leave the index out of TiDB: tidb { skip = true }.", bad, strings.Join(slices.Sorted(maps.Keys(limits.ExprIndexFunctions)), "(), ")+"()")
		return
	}
	// TiDB keeps an expression key part in a hidden column of the type it
	// infers, where decimal arithmetic can overflow (decimal(65,30) + 1)
	// although PostgreSQL's numeric does not.
	if arithmetic(p.Expr) {
		for _, name := range expr.Columns(p.Expr) {
			if c := t.Column(name); c != nil && c.Type.Kind == compiler.TypeDecimal {
				l.rec.Errorf(p.Range, "Expression TiDB cannot index", "TiDB stores the key part of index %q in a hidden column of a type it infers, where arithmetic over decimal column %q can overflow and reject rows PostgreSQL accepts. Index the column itself, or leave the index out of TiDB: tidb { skip = true }.", idx.Name, name)
				return
			}
		}
	}
	// A CASE of strings is as long as its longest result.
	if c, ok := expr.Unparen(p.Expr).(*expr.Case); ok && (c.Kind == expr.KindString || c.Kind == expr.KindUUID) {
		if chars, ok := stringSize(t, c); !ok || 4*chars > limits.MaxKeyBytes {
			l.rec.Errorf(p.Range, "Key too long", "The expression key part of index %q may take more than TiDB's %d bytes (error 1071): a result of its CASE is text or a long varchar. Give the results a varchar(n) with 4 * n <= %d, or leave the index out of TiDB: tidb { skip = true }.", idx.Name, limits.MaxKeyBytes, limits.MaxKeyBytes)
		}
		return
	}
	// lower() and upper() keep their argument's size; other results are small.
	call, ok := expr.Unparen(p.Expr).(*expr.Call)
	if !ok || call.Name != "lower" && call.Name != "upper" {
		return
	}
	size := 0
	for _, name := range expr.Columns(p.Expr) {
		c := t.Column(name)
		if c == nil {
			continue
		}
		typ, known := effectiveType(c)
		if !known || typ.Kind == compiler.TypeText {
			size = limits.MaxKeyBytes + 1
			break
		}
		size += keyBytes(typ)
	}
	if size > limits.MaxKeyBytes {
		l.rec.Errorf(p.Range, "Key too long", "The expression key part of index %q may take more than TiDB's %d bytes (error 1071): it is over text or a long varchar. Index a varchar(n) column with 4 * n <= %d, or leave the index out of TiDB: tidb { skip = true }.", idx.Name, limits.MaxKeyBytes, limits.MaxKeyBytes)
	}
}

// arithmetic reports whether n computes with +, -, *, %, unary - or abs.
func arithmetic(n expr.Node) bool {
	found := false
	expr.Walk(n, func(x expr.Node) bool {
		switch x := x.(type) {
		case *expr.Binary:
			found = found || x.Op == expr.OpAdd || x.Op == expr.OpSub || x.Op == expr.OpMul || x.Op == expr.OpMod
		case *expr.Neg:
			_, lit := x.X.(*expr.Literal)
			found = found || !lit
		case *expr.Call:
			found = found || x.Name == "abs"
		}
		return !found
	})
	return found
}

// notIndexable returns the first function n calls that TiDB refuses in an
// expression index (CONCAT is how || renders), or "".
func notIndexable(n expr.Node) string {
	found := ""
	expr.Walk(n, func(n expr.Node) bool {
		switch n := n.(type) {
		case *expr.Call:
			if !limits.ExprIndexFunctions[n.Name] && found == "" {
				found = strings.ToUpper(n.Name)
			}
		case *expr.Binary:
			if n.Op == expr.OpConcat && found == "" {
				found = "CONCAT (||)"
			}
		}
		return found == ""
	})
	return found
}

func containsPlain(idx *compiler.Index, col string) bool {
	for _, p := range idx.Parts {
		if p.Expr == nil && p.Column == col {
			return true
		}
	}
	return false
}

// exactCollation compares strings by code point without padding (NO PAD).
const exactCollation = "utf8mb4_0900_bin"

// uuidPattern is the text form PostgreSQL's uuid type guarantees.
const uuidPattern = "^[0-9A-Fa-f]{8}-[0-9A-Fa-f]{4}-[0-9A-Fa-f]{4}-[0-9A-Fa-f]{4}-[0-9A-Fa-f]{12}$"

// generatedColumn indexes an expression TiDB cannot index directly (it
// calls f; "" when the part names its column) through a VIRTUAL generated
// column, as teams write it by hand on TiDB, and returns the key part.
func (l *lowerer) generatedColumn(t *compiler.Table, idx *compiler.Index, i int, p *compiler.IndexPart, f string) string {
	typ := generatedType(t, p.Expr)
	if typ == "" && f == "" {
		l.rec.Errorf(p.Range, "Expression TiDB cannot index", "Key part %s of index %q names its TiDB column, but a generated column needs a string or integer value of known length, which %s has not. Leave out tidb { column = \"...\" } to index the expression directly.", render.String(p.Expr), idx.Name, render.String(p.Expr))
		return ""
	}
	if typ == "" {
		l.rec.Errorf(p.Range, "Expression TiDB cannot index", "TiDB indexes expressions that call only LOWER, UPPER and JSON_TYPE (tidb_allow_function_for_expression_index), else a generated column, which needs a string or integer value of known length; index %q calls %s. Leave it out of TiDB with tidb { skip = true }, or give TiDB its own statement: tidb { sql = \"...\" }.", idx.Name, f)
		return ""
	}
	name := l.generatedColumnName(t, idx, i, p)
	l.generated = append(l.generated, &sqltext.Column{Name: name, Type: l.exactString(typ) + " AS (" + sqltext.Expr(syntax{}, p.Expr) + ") VIRTUAL"})
	why := "TiDB cannot index " + f + " directly"
	if f == "" {
		why = "the key part names its TiDB column"
	}
	l.rec.Decide(t.Name, dialects.ObjectOf(compiler.KindIndex, idx.Name), dialects.Lowered, "%s indexed through the VIRTUAL generated column %s: %s", render.String(p.Expr), name, why)
	return Ident(name)
}

// generatedColumnName names the generated column of key part i of idx:
// <index>_<i>, unless the part names it, and reports a clash.
func (l *lowerer) generatedColumnName(t *compiler.Table, idx *compiler.Index, i int, p *compiler.IndexPart) string {
	name := fmt.Sprintf("%s_%d", idx.Overrides.NameIn(Name, idx.Name), i)
	if o := p.Overrides.For(Name); o != nil && o.Column != "" {
		name = o.Column
	}
	if utf8.RuneCountInString(name) > limits.MaxIdent {
		sum := sha256.Sum256([]byte(name))
		name = string([]rune(name)[:limits.MaxIdent-9]) + "_" + hex.EncodeToString(sum[:4])
	}
	if t.Column(name) != nil || slices.ContainsFunc(l.generated, func(c *sqltext.Column) bool { return strings.EqualFold(c.Name, name) }) {
		what := p.Column
		if p.Expr != nil {
			what = render.String(p.Expr)
		}
		l.rec.Errorf(p.Range, "Name clash", "Index %q needs a generated column %q on TiDB for %s, but table %q already has a column of that name; name it: tidb { column = \"...\" } in the on block.", idx.Name, name, what, t.Name)
	}
	return name
}

// generatedType is the TiDB type of a generated column that holds n's
// value, for string values of known length and integers; "" otherwise.
func generatedType(t *compiler.Table, n expr.Node) string {
	if size, ok := stringSize(t, n); ok {
		return fmt.Sprintf("VARCHAR(%d)", max(size, 1))
	}
	if integer(t, n) {
		return "BIGINT"
	}
	return ""
}

// stringSize returns the most characters n's string value can have.
func stringSize(t *compiler.Table, n expr.Node) (int, bool) {
	switch n := n.(type) {
	case *expr.Paren:
		return stringSize(t, n.X)
	case *expr.Column:
		c := t.Column(n.Name)
		if c == nil {
			return 0, false
		}
		typ, known := effectiveType(c)
		switch {
		case !known:
		case typ.Kind == compiler.TypeVarchar || typ.Kind == compiler.TypeChar:
			return typ.Args[0], true
		case typ.Kind == compiler.TypeUUID:
			return 36, true
		}
	case *expr.Literal:
		switch n.Kind {
		case expr.LitString:
			return utf8.RuneCountInString(n.Value), true
		case expr.LitNull:
			return 0, true
		}
	case *expr.Call:
		size, ok := 0, len(n.Args) > 0
		for _, a := range n.Args {
			s, k := stringSize(t, a)
			size, ok = max(size, s), ok && k
		}
		if ok && (n.Name == "lower" || n.Name == "upper" || n.Name == "coalesce") {
			return size, true
		}
	case *expr.Binary:
		if n.Op == expr.OpConcat {
			a, ok1 := stringSize(t, n.L)
			b, ok2 := stringSize(t, n.R)
			return a + b, ok1 && ok2
		}
	case *expr.Case:
		if n.Kind != expr.KindString && n.Kind != expr.KindUUID {
			return 0, false
		}
		size := 0
		for _, x := range caseResults(n) {
			s, ok := stringSize(t, x)
			if !ok {
				return 0, false
			}
			size = max(size, s)
		}
		return size, true
	}
	return 0, false
}

// caseResults are the values a CASE may take.
func caseResults(c *expr.Case) []expr.Node {
	var out []expr.Node
	for _, w := range c.Whens {
		out = append(out, w.Then)
	}
	if c.Else != nil {
		out = append(out, c.Else)
	}
	return out
}

// integer reports whether n's value is an integer (columns, integer
// literals, their coalesce).
func integer(t *compiler.Table, n expr.Node) bool {
	switch n := n.(type) {
	case *expr.Paren:
		return integer(t, n.X)
	case *expr.Column:
		c := t.Column(n.Name)
		if c == nil {
			return false
		}
		typ, known := effectiveType(c)
		return known && typ.ExprKind() == expr.KindInteger
	case *expr.Literal:
		return n.Kind == expr.LitNumber && !strings.ContainsAny(n.Value, ".eE")
	case *expr.Case:
		if n.Kind != expr.KindInteger {
			return false
		}
		for _, x := range caseResults(n) {
			if lit, ok := x.(*expr.Literal); !(ok && lit.Kind == expr.LitNull) && !integer(t, x) {
				return false
			}
		}
		return true
	case *expr.Call:
		switch n.Name {
		case "char_length":
			return true
		case "abs", "coalesce":
		default:
			return false
		}
		for _, a := range n.Args {
			if !integer(t, a) {
				return false
			}
		}
		return true
	}
	return false
}

// integerArithmetic reports whether n is +, - or * over integers.
func integerArithmetic(t *compiler.Table, n expr.Node) bool {
	switch n := n.(type) {
	case *expr.Paren:
		return integerArithmetic(t, n.X)
	case *expr.Neg:
		return integerArithmetic(t, n.X)
	case *expr.Binary:
		if n.Op == expr.OpAdd || n.Op == expr.OpSub || n.Op == expr.OpMul {
			return integerArithmetic(t, n.L) && integerArithmetic(t, n.R)
		}
		return false
	}
	return integer(t, n)
}

func (l *lowerer) Finish(t *compiler.Table, lt *sqltext.Table) {
	if pk := t.PrimaryKey; pk != nil {
		l.keyColumns(t, pk.Columns, pk.ColumnRanges, "primary key", pk.Range)
	}
	lt.Columns = append(lt.Columns, l.generated...)
	l.generated = nil
	l.identity(t, lt)
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
		typ, known := effectiveType(c)
		if !known || typ.Kind != compiler.TypeUUID || c.Overrides.Skipped(Name) {
			continue
		}
		if l.keyLimits(t, c, action, "uuid_check CHECK", func(fk, other string) {
			l.rec.Errorf(c.Range, "uuid_check cannot hold", "uuid_check cannot add its CHECK to %s.%s: TiDB forbids CHECKs on columns of foreign key %q, which has a referential action (error 3823), and the key does not check rows where %s is NULL, so TiDB would store malformed UUIDs there that PostgreSQL refuses. Make %s not null, drop the action, or leave uuid_check off.", t.Name, c.Name, fk, other, other)
		}) {
			continue
		}
		if shapeChecked(t, c.Name) {
			// The model's own CHECK of the column's uuid shape (written
			// by hand, imported) is uuid_check's.
			l.rec.Decide(t.Name, dialects.ObjectOf(compiler.KindColumn, c.Name), dialects.Omitted, "no uuid_check CHECK: the model's CHECK of its uuid shape stands for it")
			continue
		}
		name := l.generatedName(t.Name+"_"+c.Name+"_uuid_ck", t, c)
		lt.Constraints = append(lt.Constraints, sqltext.CheckConstraint(name, UUIDCheck(c.Name)))
		l.rec.Decide(t.Name, dialects.ObjectOf(compiler.KindColumn, c.Name), dialects.Added, "CHECK %s keeps PostgreSQL's guarantee of a well-formed UUID (uuid_check)", name)
	}
}

// domains adds the CHECKs of limits.Domains, which keep columns to the
// values PostgreSQL stores too (see dialects.Domain), unless value_domains
// is off.
func (l *lowerer) domains(t *compiler.Table, lt *sqltext.Table) {
	if !l.set.ValueDomains {
		return
	}
	action := actionColumns(t)
	for _, c := range t.Columns {
		dom, ok := domainOf(c)
		if !ok {
			continue
		}
		if l.keyLimits(t, c, action, "CHECK "+dom.Suffix, func(fk, other string) {
			l.rec.Errorf(c.Range, "Value domain cannot hold", "TiDB cannot keep %s.%s to %s: TiDB forbids CHECKs on columns of foreign key %q, which has a referential action (error 3823), and the key does not check rows where %s is NULL. Make %s not null, drop the action, or set value_domains = false in dialect \"tidb\".", t.Name, c.Name, dom.Why, fk, other, other)
		}) {
			continue
		}
		name := l.generatedName(limits.DomainCheckName(t.Name, c.Name, dom), t, c)
		lt.Constraints = append(lt.Constraints, sqltext.CheckConstraint(name, fmt.Sprintf(dom.Check, Ident(c.Name))))
		l.rec.Decide(t.Name, dialects.ObjectOf(compiler.KindColumn, c.Name), dialects.Added, "CHECK %s: %s", name, dom.Why)
	}
}

// domainOf returns the value domain TiDB keeps column c to.
func domainOf(c *compiler.Column) (dialects.Domain, bool) {
	typ, known := effectiveType(c)
	dom, ok := limits.Domains[typ.Name()]
	if !known || !ok || c.Overrides.Skipped(Name) || c.Generated != nil {
		return dialects.Domain{}, false
	}
	return dom, true
}

// DomainChecks implements the importer's domain reader: the names of the
// value-domain CHECKs value_domains gives t, with their columns.
func (Dialect) DomainChecks(t *compiler.Table) map[string]string {
	out := map[string]string{}
	if t.Overrides.Skipped(Name) {
		return out
	}
	action := actionColumns(t)
	for _, c := range t.Columns {
		if dom, ok := domainOf(c); ok && action[c.Name] == "" {
			out[limits.DomainCheckName(t.Name, c.Name, dom)] = c.Name
		}
	}
	return out
}

// timeRange limits time columns to PostgreSQL's range, 00:00:00 to
// 24:00:00, by a CHECK: TiDB's TIME takes -838:59:59 to 838:59:59.
func (l *lowerer) timeRange(t *compiler.Table, lt *sqltext.Table) {
	action := actionColumns(t)
	for _, c := range t.Columns {
		typ, known := effectiveType(c)
		if !known || typ.Kind != compiler.TypeTime || c.Overrides.Skipped(Name) {
			continue
		}
		if l.keyLimits(t, c, action, "CHECK of the time range", func(fk, other string) {
			l.rec.Errorf(c.Range, "Time range TiDB cannot keep", "TiDB cannot keep %s.%s in PostgreSQL's time range (00:00:00 to 24:00:00): it forbids CHECKs on columns of foreign key %q, which has a referential action (error 3823), and the key does not check rows where %s is NULL, so TiDB would store times PostgreSQL refuses (found by the differential tester, seed 778). Make %s not null, or drop the action.", t.Name, c.Name, fk, other, other)
		}) {
			continue
		}
		name := l.generatedName(timeCheckName(t.Name, c.Name), t, c)
		lt.Constraints = append(lt.Constraints, sqltext.CheckConstraint(name, timeCheck(c.Name)))
	}
}

// TimeCheckName is the name of the CHECK that keeps a time column in
// PostgreSQL's range.
func timeCheckName(table, column string) string {
	return sqltext.FitName(table+"_"+column+"_time_ck", limits.MaxIdent)
}

// TimeCheck is the expression of that CHECK.
func timeCheck(column string) string {
	return Ident(column) + " BETWEEN '00:00:00' AND '24:00:00'"
}

// fitName fits a name the dialect makes up into TiDB's limit,
// deterministically.
func fitName(name string) string {
	if utf8.RuneCountInString(name) > limits.MaxIdent {
		sum := sha256.Sum256([]byte(name))
		name = string([]rune(name)[:limits.MaxIdent-9]) + "_" + hex.EncodeToString(sum[:4])
	}
	return name
}

// generatedName fits a name the dialect makes up into TiDB's limit,
// deterministically, and reports a clash with a name of the model.
func (l *lowerer) generatedName(name string, t *compiler.Table, c *compiler.Column) string {
	name = fitName(name)
	if l.names == nil {
		l.names = map[string]bool{}
		for _, t := range l.schema.Tables {
			for _, ch := range t.Checks {
				l.names[ch.Overrides.NameIn(Name, ch.Name)] = true
			}
			for _, u := range t.Uniques {
				l.names[u.Overrides.NameIn(Name, u.Name)] = true
			}
			for _, fk := range t.ForeignKeys {
				l.names[fk.Overrides.NameIn(Name, fk.Name)] = true
			}
			for _, idx := range t.Indexes {
				l.names[idx.Overrides.NameIn(Name, idx.Name)] = true
			}
		}
	}
	if l.names[name] {
		l.rec.Errorf(c.Range, "Name clash", "TiDB's lowering adds a CHECK named %q to %s.%s (uuid_check, value_domains, or the range of a time column), but the model already uses that name; rename the model's object.", name, t.Name, c.Name)
	}
	return name
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
		l.identityUses(t, c.Name)
		l.rec.About(t.Name, compiler.KindTable, "")
		for _, lc := range lt.Columns {
			if lc.Name == c.Name {
				lc.Clause = "AUTO_INCREMENT"
			}
		}
		if id.Start != 1 {
			lt.Options = append(lt.Options, fmt.Sprintf("AUTO_INCREMENT = %d", id.Start))
		}
		lt.Options = append(lt.Options, "AUTO_ID_CACHE = 1")
		l.rec.Decide(t.Name, dialects.ObjectOf(compiler.KindColumn, c.Name), dialects.Lowered, "identity as AUTO_INCREMENT with AUTO_ID_CACHE = 1 (ids in INSERT order, one after another); an INSERT that gives the column a value moves the next id past it. A refused INSERT may leave other gaps than on PostgreSQL: a NULL in a NOT NULL column takes an id there and not here, a value one database refuses as input and the other by a CHECK takes one on the CHECK's side only, so later ids may differ")
	}
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
