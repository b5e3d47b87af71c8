// Package postgres lowers schemagen's neutral model to PostgreSQL DDL.
package postgres

import (
	"fmt"
	"slices"
	"strings"

	"github.com/hashicorp/hcl/v2"

	"github.com/schemagen/schemagen/compiler"
	"github.com/schemagen/schemagen/compiler/expr"
	"github.com/schemagen/schemagen/dialects"
	"github.com/schemagen/schemagen/dialects/internal/generate"
	"github.com/schemagen/schemagen/dialects/internal/sqltext"
	"github.com/schemagen/schemagen/dialects/postgres/internal/lexical"
	"github.com/schemagen/schemagen/dialects/rules"
)

// Name is the dialect's name in schema.hcl and atlas.hcl.
const Name = "postgres"

// Dialect is PostgreSQL (15 and later).
type Dialect struct{}

// Name implements dialects.Dialect.
func (Dialect) Name() string { return Name }

// Generate implements dialects.Dialect.
func (Dialect) Generate(s *compiler.Schema) (*dialects.Output, hcl.Diagnostics) {
	return generate.Generate(s, generation)
}

var generation = generate.Dialect{Name: Name, Rules: limits, Style: style,
	Lowerer: func(s *compiler.Schema, rec *sqltext.Recorder) sqltext.Lowerer {
		set, diags := decodeSettings(s)
		rec.Diags = append(rec.Diags, diags...)
		return &lowerer{rec: rec, schema: s, set: set}
	},
}

// Settings are the `dialect "postgres" { ... }` settings of a model.
type Settings struct {
	// ValueDomains adds the CHECKs of Rules.Domains, which keep columns to
	// the values TiDB stores too (true unless the model says false, as an
	// import of a database without them does).
	ValueDomains bool
}

// decodeSettings reads the dialect block.
func decodeSettings(s *compiler.Schema) (Settings, hcl.Diagnostics) {
	set := Settings{ValueDomains: true}
	var diags hcl.Diagnostics
	ds := s.Dialect[Name]
	if ds == nil {
		return set, nil
	}
	for name, a := range ds.Attrs {
		switch name {
		case "value_domains":
			v, d := dialects.BoolSetting(Name, a)
			if d != nil {
				diags = append(diags, d)
				continue
			}
			set.ValueDomains = v
		default:
			diags = append(diags, &hcl.Diagnostic{Severity: hcl.DiagError, Summary: "Unsupported setting (postgres)", Detail: fmt.Sprintf("The postgres dialect has no setting %q; it has value_domains.", name), Subject: a.NameRange.Ptr()})
		}
	}
	return set, diags
}

var style = sqltext.Style{Ident: Ident, String: String}

// Ident quotes an identifier.
func Ident(s string) string { return lexical.Ident(s) }

// String quotes a string literal.
func String(s string) string { return lexical.String(s) }

// syntax renders expressions; chars holds the quoted names of the char(n)
// columns of the expression's table (for paddedMatch), widen the names of
// its smallint and int columns that arithmetic uses.
type syntax struct{ chars, widen map[string]bool }

// syntaxFor returns the syntax of expression n over t.
func syntaxFor(t *compiler.Table, n expr.Node) syntax {
	sy := syntax{chars: map[string]bool{}, widen: map[string]bool{}}
	plain := func(c *compiler.Column) bool {
		o := c.Overrides.For(Name)
		return o == nil || o.RawType == "" && o.Type == nil
	}
	for _, c := range t.Columns {
		if c.Type.Kind == compiler.TypeChar && plain(c) {
			sy.chars[Ident(c.Name)] = true
		}
	}
	// TiDB computes integer arithmetic in BIGINT; PostgreSQL in the
	// operands' type, where int + 1 overflows at 2^31. Reading smallint and
	// int columns as bigint in arithmetic makes both overflow at 2^63.
	expr.Walk(n, func(x expr.Node) bool {
		var operands []expr.Node
		switch x := x.(type) {
		case *expr.Binary:
			if x.Op == expr.OpAdd || x.Op == expr.OpSub || x.Op == expr.OpMul || x.Op == expr.OpMod {
				operands = []expr.Node{x.L, x.R}
			}
		case *expr.Neg:
			operands = []expr.Node{x.X}
		case *expr.Call:
			if x.Name == "abs" {
				operands = x.Args
			}
		}
		for _, o := range operands {
			for _, name := range expr.Columns(o) {
				if c := t.Column(name); c != nil && plain(c) && (c.Type.Kind == compiler.TypeSmallint || c.Type.Kind == compiler.TypeInt) {
					sy.widen[name] = true
				}
			}
		}
		return true
	})
	return sy
}

func (sy syntax) Ident(s string) string {
	if sy.widen[s] {
		return Ident(s) + "::bigint"
	}
	return Ident(s)
}
func (syntax) String(s string) string { return String(s) }
func (syntax) Bool(v bool) string {
	if v {
		return "TRUE"
	}
	return "FALSE"
}

// TextOperand casts uuid columns: PostgreSQL has no text operators on uuid.
func (sy syntax) TextOperand(sql string, k expr.Kind) string {
	if k == expr.KindUUID {
		return sql + "::text"
	}
	return sql
}

func (syntax) Regex(x, p string, not bool) string {
	if not {
		return x + " !~ " + p
	}
	return x + " ~ " + p
}

func (syntax) Distinct(l, r string, not bool) string {
	if not {
		return l + " IS NOT DISTINCT FROM " + r
	}
	return l + " IS DISTINCT FROM " + r
}

func (syntax) Concat(l, r string) string { return l + " || " + r }

func (syntax) JSONType(x string, types []string, not bool) string {
	f := "jsonb_typeof(" + x + ")"
	if len(types) == 1 {
		if not {
			return f + " <> " + String(types[0])
		}
		return f + " = " + String(types[0])
	}
	q := make([]string, len(types))
	for i, t := range types {
		q[i] = String(t)
	}
	if not {
		return f + " NOT IN (" + strings.Join(q, ", ") + ")"
	}
	return f + " IN (" + strings.Join(q, ", ") + ")"
}

type lowerer struct {
	rec    *sqltext.Recorder
	schema *compiler.Schema
	set    Settings
	// names are the model's constraint and index names, read once.
	names map[string]bool
}

func (l *lowerer) Column(t *compiler.Table, c *compiler.Column) (*sqltext.Column, bool) {
	lc := &sqltext.Column{Name: c.Name, Type: Type(c.Type), NotNull: !c.Null, Comment: c.Comment}
	o := c.Overrides.For(Name)
	switch {
	case o != nil && o.RawType != "":
		lc.Type = o.RawType
		l.rec.DecideType(t.Name, c.Name, dialects.Overridden, "type %s instead of %s", o.RawType, c.Type)
	case o != nil && o.Type != nil:
		lc.Type = Type(*o.Type)
		l.rec.DecideType(t.Name, c.Name, dialects.Overridden, "type %s instead of %s", o.Type, c.Type)
	default:
		types.Decide(l.rec, t.Name, c.Name, c.Type.Kind)
	}
	if o != nil && o.Default != "" {
		lc.Default = o.Default
		l.rec.Decide(t.Ref(compiler.KindColumn, c.Name), dialects.Overridden, "default %s", o.Default)
	} else if d := c.Default; d != nil {
		switch d.Kind {
		case compiler.DefaultNow:
			lc.Default = "now()"
		case compiler.DefaultUUID:
			lc.Default = "gen_random_uuid()"
			l.rec.Decide(t.Ref(compiler.KindColumn, c.Name), dialects.Lowered, "uuid() as gen_random_uuid() (a random version-4 UUID)")
		case compiler.DefaultString:
			lc.Default = String(d.Value)
		case compiler.DefaultBool:
			lc.Default = strings.ToUpper(d.Value)
		default:
			lc.Default = d.Value
		}
	}
	if id := c.Identity; id != nil && o != nil && o.RawType != "" {
		l.rec.Decide(t.Ref(compiler.KindColumn, c.Name), dialects.Lowered, "identity numbered by the override's type %s", o.RawType)
	} else if id != nil {
		lc.Clause = "GENERATED BY DEFAULT AS IDENTITY"
		if id.Start != 1 {
			lc.Clause += fmt.Sprintf(" (START WITH %d)", id.Start)
		}
		l.rec.Decide(t.Ref(compiler.KindColumn, c.Name), dialects.Lowered, "identity as GENERATED BY DEFAULT AS IDENTITY: an INSERT that gives the column a value does not move its sequence (TiDB moves past it), so the next INSERT without one may collide; give values only with setval after. A refused INSERT may leave other gaps than on TiDB: a NULL in a NOT NULL column takes a value here and not there, a value one database refuses as input and the other by a CHECK takes one on the CHECK's side only, so later ids may differ")
	}
	if g := c.Generated; g != nil && g.Expr != nil {
		l.explainExpr(t, t.Ref(compiler.KindColumn, c.Name), c.Overrides, g.Expr)
		l.paddedLiteral(t, t.Ref(compiler.KindColumn, c.Name), g.Expr, g.Range)
		lc.GeneratedExpr = sqltext.Expr(syntaxFor(t, g.Expr), g.Expr)
		lc.Generated = "GENERATED ALWAYS AS (" + lc.GeneratedExpr + ") STORED"
		if !g.Stored {
			l.rec.Decide(t.Ref(compiler.KindColumn, c.Name), dialects.Lowered, "stored = false as STORED: PostgreSQL before 18 has no VIRTUAL generated columns; the values read are the same")
		}
	}
	if c.OnUpdate {
		l.rec.Decide(t.Ref(compiler.KindColumn, c.Name), dialects.Added, "on_update = now() by the trigger %s, which schemagen owns: an UPDATE that changes the row and does not change the column sets it to now()", onUpdateName(t.Name))
	}
	return lc, true
}

// Enum implements sqltext.EnumLowerer: CREATE TYPE ... AS ENUM.
func (l *lowerer) Enum(e *compiler.Enum) string {
	return CreateEnum(e.Name, e.Values)
}

// CreateEnum is the statement that creates an enum type.
func CreateEnum(name string, values []string) string {
	q := make([]string, len(values))
	for i, v := range values {
		q[i] = String(v)
	}
	return "CREATE TYPE " + Ident(name) + " AS ENUM (" + strings.Join(q, ", ") + ")"
}

// OnUpdateName is the name of the trigger, and of its function, that set a
// table's on_update columns.
func onUpdateName(table string) string {
	return sqltext.FitName(table+"_on_update", limits.MaxIdent)
}

// onUpdate returns the function and trigger that set t's on_update columns,
// as TiDB's ON UPDATE CURRENT_TIMESTAMP does: when an UPDATE changes another
// plain column and leaves the column as it was.
func onUpdate(t *compiler.Table) []string {
	var cols, others []string
	for _, c := range t.Columns {
		if c.Overrides.Skipped(Name) || c.Generated != nil {
			continue
		}
		if c.OnUpdate {
			cols = append(cols, c.Name)
		} else {
			others = append(others, c.Name)
		}
	}
	if len(cols) == 0 || len(others) == 0 {
		return nil
	}
	row := func(rec string) string {
		q := make([]string, len(others))
		for i, c := range others {
			q[i] = rec + "." + Ident(c)
		}
		return "ROW(" + strings.Join(q, ", ") + ")"
	}
	var b strings.Builder
	name := onUpdateName(t.Name)
	b.WriteString("CREATE FUNCTION " + Ident(name) + "() RETURNS trigger LANGUAGE plpgsql AS $$\nBEGIN\n")
	b.WriteString("  IF " + row("NEW") + " IS DISTINCT FROM " + row("OLD") + " THEN\n")
	for _, c := range cols {
		b.WriteString("    IF NEW." + Ident(c) + " IS NOT DISTINCT FROM OLD." + Ident(c) + " THEN NEW." + Ident(c) + " := now(); END IF;\n")
	}
	b.WriteString("  END IF;\n  RETURN NEW;\nEND\n$$")
	return []string{b.String(), "CREATE TRIGGER " + Ident(name) + " BEFORE UPDATE ON " + Ident(t.Name) + " FOR EACH ROW EXECUTE FUNCTION " + Ident(name) + "()"}
}

// keySize refuses keys whose declared columns may hold more than a B-tree
// entry takes: PostgreSQL would accept the DDL and fail the INSERT of a long
// value, where TiDB refuses the DDL or accepts the row. Columns without a
// declared bound (text, json, bytes, raw types) are left to the database.
func (l *lowerer) keySize(t *compiler.Table, cols []string, what, name string, rng hcl.Range) {
	total := 8 // the entry's header
	for _, n := range cols {
		c := t.Column(n)
		if c == nil {
			continue
		}
		typ := c.Type
		if o := c.Overrides.For(Name); o != nil && (o.RawType != "" || o.Type != nil) {
			if o.Type == nil {
				continue
			}
			typ = *o.Type
		}
		switch typ.Kind {
		case compiler.TypeVarchar, compiler.TypeChar:
			total += 4*typ.Args[0] + 4 // UTF-8 takes up to 4 bytes a character
		default:
			total += 16
		}
	}
	if total > limits.MaxKeyBytes {
		l.rec.Errorf(rng, "Key too long", "The %s %q on (%s) may need %d bytes per entry; a PostgreSQL B-tree entry holds at most %d, and a longer value would fail its INSERT. Shorten the varchar columns in it.", what, name, strings.Join(cols, ", "), total, limits.MaxKeyBytes)
	}
}

func (l *lowerer) Unique(t *compiler.Table, u *compiler.Unique) (sqltext.Constraint, bool) {
	l.keySize(t, u.Columns, "unique constraint", u.Name, u.Range)
	return sqltext.Constraint{Name: u.Overrides.NameIn(Name, u.Name), Body: "UNIQUE (" + style.List(u.Columns) + ")"}, true
}

func (l *lowerer) Check(t *compiler.Table, c *compiler.Check) (sqltext.Constraint, bool) {
	if o := c.Overrides.For(Name); o != nil && o.Expr != "" {
		l.rec.Decide(t.Ref(compiler.KindCheck, c.Name), dialects.Overridden, "raw expression %s", o.Expr)
		return sqltext.CheckConstraint(c.Overrides.NameIn(Name, c.Name), o.Expr), true
	}
	l.explainExpr(t, t.Ref(compiler.KindCheck, c.Name), c.Overrides, c.Expr)
	rng := c.ExprRange
	if rng.Empty() {
		rng = c.Range
	}
	l.paddedLiteral(t, t.Ref(compiler.KindCheck, c.Name), c.Expr, rng)
	return sqltext.CheckConstraint(c.Overrides.NameIn(Name, c.Name), sqltext.Expr(syntaxFor(t, c.Expr), c.Expr)), true
}

// explainExpr records the casts an expression needs on PostgreSQL.
func (l *lowerer) explainExpr(t *compiler.Table, object compiler.ObjectRef, ov compiler.Overrides, n expr.Node) {
	if !ov.Accepts(Name, compiler.AcceptStringOrder) {
		l.stringOrder(t, object, n)
	}
	if !ov.Accepts(Name, compiler.AcceptCharMatch) {
		l.paddedMatch(t, object, n, syntaxFor(t, n))
	}
	if sqltext.UsesAsText(n, expr.KindUUID) {
		l.rec.Decide(object, dialects.Lowered, "uuid read as text (::text) where a string operation applies to it")
	}
}

// paddedMatch warns about regex and LIKE over char(n): PostgreSQL matches
// them against the value padded with spaces to n characters, TiDB against
// the value without them ('a' in char(5) matches '^a$' on TiDB only).
// Hand-written PostgreSQL schemas rely on it, so it is kept, and named.
func (l *lowerer) paddedMatch(t *compiler.Table, object compiler.ObjectRef, n expr.Node, sy syntax) {
	expr.Walk(n, func(x expr.Node) bool {
		b, ok := x.(*expr.Binary)
		if !ok || b.Op != expr.OpRegex && b.Op != expr.OpNotRegex && b.Op != expr.OpLike && b.Op != expr.OpNotLike {
			return true
		}
		if c, ok := b.L.(*expr.Column); ok && sy.chars[Ident(c.Name)] {
			l.rec.Warnf(t.Range, "Match over char(n)", "The %s of table %q matches char column %q with %s: PostgreSQL matches the value padded with spaces to its length, TiDB without them, so values shorter than the column differ. Use varchar(n) for the column, or acknowledge it: postgres { accept = [%q] } in the %s.", object, t.Name, c.Name, b.Op, compiler.AcceptCharMatch, object.Kind)
			return false
		}
		return true
	})
}

// paddedLiteral refuses a string literal ending in spaces compared with a
// value computed from a char(n) column (lower, ||, coalesce): PostgreSQL
// computes it as text, without the padding, and compares
// the spaces; TiDB compares char(n) values padded, ignoring them.
func (l *lowerer) paddedLiteral(t *compiler.Table, object compiler.ObjectRef, n expr.Node, rng hcl.Range) {
	sy := syntaxFor(t, n)
	fromChar := func(x expr.Node) string {
		col := ""
		switch x.(type) {
		case *expr.Call, *expr.Binary, *expr.Paren:
			expr.Walk(x, func(y expr.Node) bool {
				if c, ok := y.(*expr.Column); ok && sy.chars[Ident(c.Name)] && col == "" {
					col = c.Name
				}
				return col == ""
			})
		}
		return col
	}
	spaced := func(x expr.Node) bool {
		lit, ok := x.(*expr.Literal)
		return ok && lit.Kind == expr.LitString && strings.HasSuffix(lit.Value, " ")
	}
	bad := ""
	expr.Walk(n, func(x expr.Node) bool {
		switch x := x.(type) {
		case *expr.Binary:
			if x.Op.IsComparison() || x.Op == expr.OpDistinct || x.Op == expr.OpNotDistinct {
				if c := fromChar(x.L); c != "" && spaced(x.R) {
					bad = c
				} else if c := fromChar(x.R); c != "" && spaced(x.L) {
					bad = c
				}
			}
		case *expr.In:
			if c := fromChar(x.X); c != "" && slices.ContainsFunc(x.List, spaced) {
				bad = c
			}
		}
		return bad == ""
	})
	if bad != "" {
		l.rec.Errorf(rng, "Trailing spaces compared with char(n)", "The %s of table %q compares a value computed from char column %q with a string that ends in spaces: PostgreSQL computes it as text and compares the spaces, TiDB compares char(n) values ignoring them. Remove the trailing spaces from the string, or make the column varchar(n).", object, t.Name, bad)
	}
}

// stringOrder warns about strings ordered with <, <=, >, >= or BETWEEN:
// PostgreSQL orders them by the database's collation (linguistic under
// en_US.UTF-8), TiDB by code point (utf8mb4_bin).
func (l *lowerer) stringOrder(t *compiler.Table, object compiler.ObjectRef, n expr.Node) {
	str := func(x expr.Node) bool {
		c, ok := x.(*expr.Column)
		return ok && c.Kind == expr.KindString
	}
	found := false
	expr.Walk(n, func(x expr.Node) bool {
		switch x := x.(type) {
		case *expr.Binary:
			if x.Op.IsComparison() && x.Op != expr.OpEq && x.Op != expr.OpNe && (str(x.L) || str(x.R)) {
				found = true
			}
		case *expr.Between:
			found = found || str(x.X)
		}
		return !found
	})
	if found {
		l.rec.Warnf(t.Range, "Strings ordered by collation", "The %s of table %q orders strings (<, >, BETWEEN): PostgreSQL orders them by the database's collation, TiDB by code point. They agree when the PostgreSQL database uses the C or C.UTF-8 collation (to acknowledge it: postgres { accept = [%q] } in the %s).", object, t.Name, compiler.AcceptStringOrder, object.Kind)
	}
}

var actions = map[compiler.Action]string{
	compiler.Cascade: "CASCADE", compiler.Restrict: "RESTRICT", compiler.SetNull: "SET NULL", compiler.SetDefault: "SET DEFAULT",
}

func (l *lowerer) ForeignKey(t *compiler.Table, fk *compiler.ForeignKey) (sqltext.Constraint, bool) {
	if _, ok := rules.ForeignKeyTarget(l.schema, Name, limits, fk); !ok {
		l.rec.Errorf(fk.RefRange, "Foreign key without a key on PostgreSQL", "Foreign key %q references (%s) of table %q, but the unique key over these columns is left out of PostgreSQL, which needs one (there is no unique constraint matching given keys). Keep it there, or leave the foreign key out of PostgreSQL too: postgres { skip = true }.", fk.Name, strings.Join(fk.RefColumns, ", "), fk.RefTable)
	}
	body := "FOREIGN KEY (" + style.List(fk.Columns) + ") REFERENCES " + Ident(fk.RefTable) + " (" + style.List(fk.RefColumns) + ")"
	if a := actions[fk.OnDelete]; a != "" {
		body += " ON DELETE " + a
	}
	if a := actions[fk.OnUpdate]; a != "" {
		body += " ON UPDATE " + a
	}
	if fk.Deferrable {
		body += " DEFERRABLE"
		if fk.InitiallyDeferred {
			body += " INITIALLY DEFERRED"
		}
	}
	return sqltext.Constraint{Name: fk.Overrides.NameIn(Name, fk.Name), Body: body}, true
}

func (l *lowerer) Index(t *compiler.Table, idx *compiler.Index) (*sqltext.Index, bool) {
	if o := idx.Overrides.For(Name); o != nil && o.SQL != "" {
		l.rec.Decide(t.Ref(compiler.KindIndex, idx.Name), dialects.Overridden, "raw statement from the model")
		return &sqltext.Index{Raw: o.SQL, Of: idx.Name}, true
	}
	li := &sqltext.Index{Name: idx.Overrides.NameIn(Name, idx.Name), Unique: idx.Unique, Using: idx.Method()}
	if idx.Method() == "" || strings.EqualFold(idx.Method(), "btree") {
		var cols []string
		for _, p := range idx.Parts {
			// lower() and upper() keep their argument's size.
			cols = append(cols, append(expr.Columns(p.Expr), p.Column)...)
		}
		l.keySize(t, slices.DeleteFunc(cols, func(c string) bool { return c == "" }), "index", idx.Name, idx.Range)
	}
	for _, p := range idx.Parts {
		part, x := "", ""
		if p.Expr != nil {
			x = sqltext.Expr(syntaxFor(t, p.Expr), p.Expr)
			part = "(" + x + ")"
			l.explainExpr(t, t.Ref(compiler.KindIndex, idx.Name), idx.Overrides, p.Expr)
			l.paddedLiteral(t, t.Ref(compiler.KindIndex, idx.Name), p.Expr, p.Range)
		} else {
			part = Ident(p.Column)
		}
		if p.OpClass() != "" {
			part += " " + p.OpClass()
		}
		if p.Desc {
			part += " DESC"
		}
		li.Parts = append(li.Parts, part)
		li.Exprs = append(li.Exprs, x)
	}
	if idx.Where != nil {
		li.Where = sqltext.Expr(syntaxFor(t, idx.Where), idx.Where)
		l.explainExpr(t, t.Ref(compiler.KindIndex, idx.Name), idx.Overrides, idx.Where)
		l.paddedLiteral(t, t.Ref(compiler.KindIndex, idx.Name), idx.Where, idx.WhereRange)
	}
	return li, true
}

func (l *lowerer) Finish(t *compiler.Table, lt *sqltext.Table) {
	if pk := t.PrimaryKey; pk != nil {
		l.keySize(t, pk.Columns, "primary key of", t.Name, pk.Range)
	}
	lt.After = append(lt.After, onUpdate(t)...)
	l.domains(t, lt)
}

// Extension implements sqltext.ExtensionLowerer. IF NOT EXISTS: a database
// may have the extension already (installed by its operators), and the
// migrations must still apply there.
func (l *lowerer) Extension(e *compiler.Extension) string {
	return "CREATE EXTENSION IF NOT EXISTS " + Ident(e.Name)
}

// domains adds the CHECKs of limits.Domains, which keep columns to the
// values TiDB stores too (see dialects.Domain), unless value_domains is off.
func (l *lowerer) domains(t *compiler.Table, lt *sqltext.Table) {
	if !l.set.ValueDomains {
		return
	}
	for _, d := range domainChecks(t) {
		if l.names == nil {
			l.names = modelNames(l.schema)
		}
		if l.names[d.name] {
			l.rec.Errorf(d.col.Range, "Name clash", "schemagen adds a CHECK named %q to %s.%s (%s), but the model already uses that name; rename the model's object, or set value_domains = false in dialect \"postgres\".", d.name, t.Name, d.col.Name, d.dom.Why)
		}
		lt.Constraints = append(lt.Constraints, sqltext.CheckConstraint(d.name, fmt.Sprintf(d.dom.Check, Ident(d.col.Name))))
		l.rec.Decide(t.Ref(compiler.KindColumn, d.col.Name), dialects.Added, "CHECK %s: %s", d.name, d.dom.Why)
	}
}

type domainCheck struct {
	col  *compiler.Column
	dom  dialects.Domain
	name string
}

// domainChecks are the value-domain CHECKs of t's columns.
func domainChecks(t *compiler.Table) []domainCheck {
	var out []domainCheck
	if t.Overrides.Skipped(Name) {
		return nil
	}
	for _, c := range t.Columns {
		typ := c.Type
		if o := c.Overrides.For(Name); o != nil {
			if o.Skip || o.RawType != "" {
				continue
			}
			if o.Type != nil {
				typ = *o.Type
			}
		}
		dom, ok := limits.Domains[typ.Name()]
		if !ok || c.Generated != nil {
			continue
		}
		out = append(out, domainCheck{col: c, dom: dom, name: limits.DomainCheckName(t.Name, c.Name, dom)})
	}
	return out
}

// DomainChecks implements the importer's domain reader: the names of the
// value-domain CHECKs value_domains gives t, with their columns.
func (Dialect) DomainChecks(t *compiler.Table) map[string]string {
	out := map[string]string{}
	for _, d := range domainChecks(t) {
		out[d.name] = d.col.Name
	}
	return out
}

// modelNames are the constraint and index names of the model, as
// PostgreSQL gets them: a set, so that checking each added CHECK's name is
// linear in the model.
func modelNames(s *compiler.Schema) map[string]bool {
	names := map[string]bool{}
	for _, t := range s.Tables {
		for _, ch := range t.Checks {
			names[ch.Overrides.NameIn(Name, ch.Name)] = true
		}
		for _, u := range t.Uniques {
			names[u.Overrides.NameIn(Name, u.Name)] = true
		}
		for _, fk := range t.ForeignKeys {
			names[fk.Overrides.NameIn(Name, fk.Name)] = true
		}
		for _, idx := range t.Indexes {
			names[idx.Overrides.NameIn(Name, idx.Name)] = true
		}
	}
	return names
}
