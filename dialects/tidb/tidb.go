// Package tidb lowers schemagen's neutral model to TiDB DDL.
package tidb

import (
	"crypto/sha256"
	"encoding/hex"
	"fmt"
	"strings"
	"unicode/utf8"

	"github.com/hashicorp/hcl/v2"
	"github.com/zclconf/go-cty/cty"

	"github.com/schemagen/schemagen/compiler"
	"github.com/schemagen/schemagen/compiler/expr"
	"github.com/schemagen/schemagen/dialects"
	"github.com/schemagen/schemagen/dialects/internal/sqltext"
)

// Name is the dialect's name in schema.hcl and atlas.hcl.
const Name = "tidb"

const (
	// maxIdent is TiDB's limit on identifiers, in characters.
	maxIdent = 64
	// maxKeyBytes is TiDB's default max-index-length.
	maxKeyBytes = 3072
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
}

// DecodeSettings reads the dialect block.
func DecodeSettings(s *compiler.Schema) (Settings, hcl.Diagnostics) {
	var set Settings
	var diags hcl.Diagnostics
	ds := s.Dialect[Name]
	if ds == nil {
		return set, nil
	}
	for name, a := range ds.Attrs {
		switch name {
		case "uuid_check":
			v, d := a.Expr.Value(nil)
			if d.HasErrors() || v.IsNull() || v.Type() != cty.Bool {
				diags = append(diags, &hcl.Diagnostic{Severity: hcl.DiagError, Summary: "Invalid setting (tidb)", Detail: "uuid_check must be true or false.", Subject: a.Expr.Range().Ptr()})
				continue
			}
			set.UUIDCheck = v.True()
		default:
			diags = append(diags, &hcl.Diagnostic{Severity: hcl.DiagError, Summary: "Unsupported setting (tidb)", Detail: fmt.Sprintf("The tidb dialect has no setting %q; it has uuid_check.", name), Subject: a.NameRange.Ptr()})
		}
	}
	return set, diags
}

// Generate implements dialects.Dialect.
func (Dialect) Generate(s *compiler.Schema) (*dialects.Output, hcl.Diagnostics) {
	rec := &sqltext.Recorder{Dialect: Name}
	set, diags := DecodeSettings(s)
	rec.Diags = append(rec.Diags, diags...)
	l := &lowerer{rec: rec, set: set, schema: s}
	sc := sqltext.Build(s, l, rec)
	sc.Header += "-- CHECK constraints need tidb_enable_check_constraint = ON; without it TiDB ignores them.\n"
	if rec.Diags.HasErrors() {
		return nil, rec.Diags
	}
	return &dialects.Output{SQL: sc.Write(style), Decisions: rec.Decisions, Exprs: sc.Exprs()}, rec.Diags
}

var style = sqltext.Style{Ident: Ident, String: String, InlineComments: true, InlineIndexes: true}

// Ident quotes an identifier.
func Ident(s string) string { return "`" + strings.ReplaceAll(s, "`", "``") + "`" }

// String quotes a string literal. TiDB, like MySQL, reads backslash escapes
// in literals, so a backslash is doubled to keep its meaning.
func String(s string) string {
	return "'" + literalEscaper.Replace(s) + "'"
}

var literalEscaper = strings.NewReplacer(`\`, `\\`, "'", "''")

// jsonTypes maps portable JSON type names to JSON_TYPE's results.
var jsonTypes = map[string][]string{
	"object":  {"OBJECT"},
	"array":   {"ARRAY"},
	"string":  {"STRING"},
	"number":  {"INTEGER", "UNSIGNED INTEGER", "DOUBLE", "DECIMAL"},
	"boolean": {"BOOLEAN"},
	"null":    {"NULL"},
}

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
		for _, n := range jsonTypes[t] {
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
}

func (l *lowerer) ident(name, what string, rng hcl.Range) {
	if n := utf8.RuneCountInString(name); n > maxIdent {
		l.rec.Errorf(rng, "Identifier too long", "The %s name %q is %d characters; TiDB allows at most %d.", what, name, n, maxIdent)
	}
}

// Type returns the TiDB type of a neutral type.
func Type(t compiler.Type) string {
	switch t.Kind {
	case compiler.TypeUUID:
		return "CHAR(36)"
	case compiler.TypeText:
		return "TEXT"
	case compiler.TypeVarchar:
		return fmt.Sprintf("VARCHAR(%d)", t.Args[0])
	case compiler.TypeChar:
		return fmt.Sprintf("CHAR(%d)", t.Args[0])
	case compiler.TypeSmallint:
		return "SMALLINT"
	case compiler.TypeInt:
		return "INT"
	case compiler.TypeBigint:
		return "BIGINT"
	case compiler.TypeBool:
		return "TINYINT(1)"
	case compiler.TypeDouble:
		return "DOUBLE"
	case compiler.TypeDecimal:
		return fmt.Sprintf("DECIMAL(%d,%d)", t.Args[0], t.Args[1])
	case compiler.TypeTimestamp:
		return fmt.Sprintf("DATETIME(%d)", t.Arg(0, timestampPrecision))
	case compiler.TypeDate:
		return "DATE"
	case compiler.TypeJSON:
		return "JSON"
	case compiler.TypeBytes:
		return "LONGBLOB"
	case compiler.TypeVector:
		return fmt.Sprintf("VECTOR(%d)", t.Args[0])
	}
	return "?"
}

var typeNotes = map[compiler.TypeKind]string{
	compiler.TypeUUID:      "uuid as CHAR(36)",
	compiler.TypeText:      "text as TEXT (at most 65,535 bytes on TiDB)",
	compiler.TypeBool:      "bool as TINYINT(1)",
	compiler.TypeTimestamp: "timestamp as DATETIME (no time zone: the application stores UTC; millisecond precision unless given)",
	compiler.TypeBytes:     "bytes as LONGBLOB",
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
	l.ident(c.Name, "column", c.Range)
	lc := &sqltext.Column{Name: c.Name, NotNull: !c.Null, Comment: c.Comment}
	o := c.Overrides.For(Name)
	typ, known := effectiveType(c)
	switch {
	case !known:
		lc.Type = o.RawType
		l.rec.Decide(t.Name, "column "+c.Name, dialects.Overridden, "type %s instead of %s", o.RawType, c.Type)
	case o != nil && o.Type != nil:
		lc.Type = Type(typ)
		l.rec.Decide(t.Name, "column "+c.Name, dialects.Overridden, "type %s instead of %s", typ, c.Type)
	default:
		lc.Type = Type(typ)
		if n, ok := typeNotes[typ.Kind]; ok {
			l.rec.Decide(t.Name, "column "+c.Name, dialects.Lowered, "%s", n)
		}
	}
	if o != nil && o.Default != "" {
		lc.Default = o.Default
		l.rec.Decide(t.Name, "column "+c.Name, dialects.Overridden, "default %s", o.Default)
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
		lc.Default = fmt.Sprintf("CURRENT_TIMESTAMP(%d)", typ.Arg(0, timestampPrecision))
		l.rec.Decide(t.Name, "column "+c.Name, dialects.Lowered, "now() as CURRENT_TIMESTAMP in the session time zone (keep it UTC)")
	case compiler.DefaultString:
		lc.Default = String(d.Value)
	case compiler.DefaultBool:
		lc.Default = map[string]string{"true": "1", "false": "0"}[d.Value]
	default:
		lc.Default = d.Value
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
	if total > maxKeyBytes {
		l.rec.Errorf(rng, "Key too long", "The %s on (%s) may take %d bytes; TiDB's limit is %d. Shorten the varchar columns in it.", what, strings.Join(names, ", "), total, maxKeyBytes)
	}
}

func (l *lowerer) Unique(t *compiler.Table, u *compiler.Unique) (sqltext.Constraint, bool) {
	l.ident(u.Name, "unique constraint", u.Range)
	l.keyColumns(t, u.Columns, u.ColumnRanges, "unique constraint", u.Range)
	return sqltext.Constraint{Name: u.Name, Body: "UNIQUE (" + style.List(u.Columns) + ")"}, true
}

func (l *lowerer) Check(t *compiler.Table, c *compiler.Check) (sqltext.Constraint, bool) {
	l.ident(c.Name, "check", c.Range)
	if o := c.Overrides.For(Name); o != nil && o.Expr != "" {
		l.rec.Decide(t.Name, "check "+c.Name, dialects.Overridden, "raw expression %s", o.Expr)
		return sqltext.CheckConstraint(c.Name, o.Expr), true
	}
	l.explainExpr(t, "check "+c.Name, c.Expr)
	action := actionColumns(t)
	for _, col := range expr.Columns(c.Expr) {
		if fk, ok := action[col]; ok {
			l.rec.Errorf(c.Range, "CHECK on a foreign key column with an action", "TiDB rejects CHECK %q because it uses column %q, which foreign key %q changes by its ON DELETE/ON UPDATE action. Drop the action, move the rule out of the CHECK, or give a TiDB override: tidb { skip = true }.", c.Name, col, fk)
		}
	}
	return sqltext.CheckConstraint(c.Name, sqltext.Expr(syntax{}, c.Expr)), true
}

// explainExpr records the translations an expression needs on TiDB.
func (l *lowerer) explainExpr(t *compiler.Table, object string, n expr.Node) {
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

// actionColumns returns the columns of t's foreign keys that have a
// referential action on TiDB: a CHECK may not use them there.
func actionColumns(t *compiler.Table) map[string]string {
	cols := map[string]string{}
	for _, fk := range t.ForeignKeys {
		if actions[fk.OnDelete] == "" && actions[fk.OnUpdate] == "" {
			continue
		}
		for _, c := range fk.Columns {
			cols[c] = fk.Name
		}
	}
	return cols
}

func (l *lowerer) ForeignKey(t *compiler.Table, fk *compiler.ForeignKey) (sqltext.Constraint, bool) {
	l.ident(fk.Name, "foreign key", fk.Range)
	// TiDB indexes the referencing columns of a foreign key.
	l.keyColumns(t, fk.Columns, fk.ColumnRanges, "foreign key", fk.Range)
	body := "FOREIGN KEY (" + style.List(fk.Columns) + ") REFERENCES " + Ident(fk.RefTable) + " (" + style.List(fk.RefColumns) + ")"
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
	if fk.Deferrable {
		l.rec.Warnf(fk.Range, "Deferrable foreign key left out", "TiDB checks foreign key %q immediately; DEFERRABLE is PostgreSQL only and is left out.", fk.Name)
		l.rec.Decide(t.Name, "foreign key "+fk.Name, dialects.Omitted, "DEFERRABLE left out: TiDB checks foreign keys immediately")
	}
	return sqltext.Constraint{Name: fk.Name, Body: body}, true
}

// notNullOn returns the columns that n requires to be non-null when n is a
// conjunction of `col IS NOT NULL` tests, or nil.
func notNullOn(n expr.Node) []string {
	switch n := n.(type) {
	case *expr.Paren:
		return notNullOn(n.X)
	case *expr.IsNull:
		if c, ok := n.X.(*expr.Column); ok && n.Not {
			return []string{c.Name}
		}
	case *expr.Binary:
		if n.Op == expr.OpAnd {
			l, r := notNullOn(n.L), notNullOn(n.R)
			if l != nil && r != nil {
				return append(l, r...)
			}
		}
	}
	return nil
}

func (l *lowerer) Index(t *compiler.Table, idx *compiler.Index) (*sqltext.Index, bool) {
	l.ident(idx.Name, "index", idx.Range)
	object := "index " + idx.Name
	if o := idx.Overrides.For(Name); o != nil && o.SQL != "" {
		l.rec.Decide(t.Name, object, dialects.Overridden, "raw statement from the model")
		return &sqltext.Index{Raw: o.SQL, Of: idx.Name}, true
	}
	li := &sqltext.Index{Name: idx.Name, Unique: idx.Unique}
	var cols []string
	var ranges []hcl.Range
	for _, p := range idx.Parts {
		part, x := "", ""
		if p.Expr != nil {
			x = sqltext.Expr(syntax{}, p.Expr)
			part = "(" + x + ")"
			l.explainExpr(t, object, p.Expr)
		} else {
			part = Ident(p.Column)
			cols, ranges = append(cols, p.Column), append(ranges, p.Range)
		}
		if p.OpClass != "" {
			l.rec.Warnf(p.Range, "Operator class left out", "TiDB has no operator classes; %q of index %q is left out.", p.OpClass, idx.Name)
			l.rec.Decide(t.Name, object, dialects.Omitted, "operator class %s left out", p.OpClass)
		}
		if p.Desc {
			part += " DESC"
		}
		li.Parts = append(li.Parts, part)
		li.Exprs = append(li.Exprs, x)
	}
	l.keyColumns(t, cols, ranges, "index", idx.Range)
	if idx.Using != "" {
		l.rec.Warnf(idx.Range, "Index method left out", "TiDB has no index methods; USING %s of index %q is left out.", idx.Using, idx.Name)
		l.rec.Decide(t.Name, object, dialects.Omitted, "USING %s left out", idx.Using)
	}
	if idx.Where == nil {
		return li, true
	}
	// TiDB has no partial indexes. A unique index whose predicate only
	// excludes rows with NULL in key columns means the same without it,
	// since TiDB's unique indexes never compare NULLs.
	if idx.Unique {
		nn := notNullOn(idx.Where)
		ok := nn != nil
		for _, c := range nn {
			ok = ok && containsPlain(idx, c)
		}
		if ok {
			l.rec.Decide(t.Name, object, dialects.Lowered, "WHERE %s dropped: TiDB unique indexes allow many NULLs, so the plain unique index means the same", idx.WhereSrc)
			return li, true
		}
		l.rec.Errorf(idx.WhereRange, "Partial unique index", "TiDB has no partial indexes, and a full unique index %q would reject rows that WHERE %s lets through. Give a TiDB override, for example tidb { sql = \"CREATE UNIQUE INDEX ... ON ... ((CASE WHEN ... THEN col END))\" }, or tidb { skip = true }.", idx.Name, idx.WhereSrc)
		return nil, false
	}
	l.rec.Warnf(idx.WhereRange, "Partial index made full", "TiDB has no partial indexes; index %q covers all rows there (same results, larger index).", idx.Name)
	l.rec.Decide(t.Name, object, dialects.Lowered, "WHERE %s dropped: TiDB has no partial indexes, so the index covers all rows", idx.WhereSrc)
	return li, true
}

func containsPlain(idx *compiler.Index, col string) bool {
	for _, p := range idx.Parts {
		if p.Expr == nil && p.Column == col {
			return true
		}
	}
	return false
}

// uuidPattern is the text form PostgreSQL's uuid type guarantees.
const uuidPattern = "^[0-9A-Fa-f]{8}-[0-9A-Fa-f]{4}-[0-9A-Fa-f]{4}-[0-9A-Fa-f]{4}-[0-9A-Fa-f]{12}$"

func (l *lowerer) Finish(t *compiler.Table, lt *sqltext.Table) {
	l.ident(t.Name, "table", t.Range)
	if !l.set.UUIDCheck {
		return
	}
	action := actionColumns(t)
	for _, c := range t.Columns {
		typ, known := effectiveType(c)
		if !known || typ.Kind != compiler.TypeUUID || c.Overrides.Skipped(Name) {
			continue
		}
		if fk, ok := action[c.Name]; ok {
			// The foreign key already limits it to values of the referenced column.
			l.rec.Decide(t.Name, "column "+c.Name, dialects.Omitted, "no uuid_check CHECK: TiDB forbids CHECKs on columns of foreign key %s, which has a referential action, and the key limits the column to checked values", fk)
			continue
		}
		name := l.generatedName(t.Name+"_"+c.Name+"_uuid_ck", t, c)
		lt.Constraints = append(lt.Constraints, sqltext.CheckConstraint(name, Ident(c.Name)+" REGEXP "+String(uuidPattern)))
		l.rec.Decide(t.Name, "column "+c.Name, dialects.Added, "CHECK %s keeps PostgreSQL's guarantee of a well-formed UUID (uuid_check)", name)
	}
}

// generatedName fits a name the dialect makes up into TiDB's limit,
// deterministically, and reports a clash with a name of the model.
func (l *lowerer) generatedName(name string, t *compiler.Table, c *compiler.Column) string {
	if utf8.RuneCountInString(name) > maxIdent {
		sum := sha256.Sum256([]byte(name))
		name = string([]rune(name)[:maxIdent-9]) + "_" + hex.EncodeToString(sum[:4])
	}
	if l.names == nil {
		l.names = map[string]bool{}
		for _, t := range l.schema.Tables {
			for _, ch := range t.Checks {
				l.names[ch.Name] = true
			}
			for _, u := range t.Uniques {
				l.names[u.Name] = true
			}
			for _, fk := range t.ForeignKeys {
				l.names[fk.Name] = true
			}
			for _, idx := range t.Indexes {
				l.names[idx.Name] = true
			}
		}
	}
	if l.names[name] {
		l.rec.Errorf(c.Range, "Name clash", "uuid_check adds a CHECK named %q to %s.%s, but the model already uses that name; rename the model's object.", name, t.Name, c.Name)
	}
	return name
}
