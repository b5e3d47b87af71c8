package load

import (
	"fmt"
	"maps"
	"slices"
	"strings"

	"github.com/hashicorp/hcl/v2"

	"github.com/schemagen/schemagen/compiler"
	"github.com/schemagen/schemagen/compiler/expr"
)

// Validate checks the model's cross-references and rules that hold for every
// dialect, returning all errors at once. Dialects add their own checks.
func Validate(s *compiler.Schema) hcl.Diagnostics {
	v := &validator{s: s, names: map[scopedName]hcl.Range{}}
	for _, t := range s.Tables {
		v.about(t, compiler.KindTable, "")
		v.name(t, compiler.KindTable, t.Name, t.Range)
	}
	for _, e := range s.Enums {
		v.enum(e)
	}
	for _, t := range s.Tables {
		v.table(t)
	}
	v.subject = nil
	for _, r := range s.Raw {
		if prev, ok := v.raws[r.Name]; ok {
			v.errorf(r.Range, "Duplicate raw block", "A raw block named %q is already declared at %s.", r.Name, prev)
		}
		if v.raws == nil {
			v.raws = map[string]hcl.Range{}
		}
		v.raws[r.Name] = r.Range
	}
	return v.diags
}

type validator struct {
	s *compiler.Schema
	// names are the names registered in each of NameScopes.
	names map[scopedName]hcl.Range
	raws  map[string]hcl.Range
	diags hcl.Diagnostics
	// subject is the object being checked, which errors are about.
	subject *compiler.ObjectRef
}

// about makes the object of table t of kind and name the subject of the
// errors that follow.
func (v *validator) about(t *compiler.Table, kind compiler.ObjectKind, name string) {
	v.subject = &compiler.ObjectRef{Table: t.Name, Kind: kind, Name: name}
}

func (v *validator) errorf(rng hcl.Range, summary, format string, args ...any) {
	d := &hcl.Diagnostic{
		Severity: hcl.DiagError,
		Summary:  summary,
		Detail:   fmt.Sprintf(format, args...),
		Subject:  rng.Ptr(),
	}
	if v.subject != nil {
		d.Extra = *v.subject
	}
	v.diags = append(v.diags, d)
}

// scopedName is a name in one of NameScopes (by index), and the table
// for a scope per table (by identity: two tables of one name are reported
// once, not their columns again).
type scopedName struct {
	scope int
	table *compiler.Table
	name  string
}

// name registers the name of an object of kind k of table t in each of
// NameScopes that holds k, and reports the first scope where it is taken.
func (v *validator) name(t *compiler.Table, k compiler.ObjectKind, name string, rng hcl.Range) {
	if !v.chars(name, string(k), rng) && k != compiler.KindColumn {
		return
	}
	reported := false
	for i, ns := range compiler.NameScopes {
		if !ns.Has(k) {
			continue
		}
		key := scopedName{scope: i, name: name}
		if ns.PerTable {
			key.table = t
		}
		prev, ok := v.names[key]
		switch {
		case !ok:
			v.names[key] = rng
		case reported:
		case k == compiler.KindColumn:
			v.errorf(rng, "Duplicate column", "Column %q of table %q is already declared at %s.", name, t.Name, prev)
			reported = true
		default:
			v.errorf(rng, "Duplicate name", "The %s name %q is already used at %s; %s.", k, name, prev, ns.Why)
			reported = true
		}
	}
}

// chars refuses names no database takes: empty ones, and ones with control
// characters (PostgreSQL refuses NUL anywhere; a newline in a name breaks
// the generated comments and every tool that prints it).
func (v *validator) chars(name, what string, rng hcl.Range) bool {
	if name == "" {
		v.errorf(rng, "Empty name", "A %s needs a name.", what)
		return false
	}
	for _, r := range name {
		if r < 0x20 || r == 0x7f {
			v.errorf(rng, "Invalid name", "The %s name %q holds a control character; use letters, digits and underscores.", what, name)
			return false
		}
	}
	return true
}

func (v *validator) table(t *compiler.Table) {
	v.about(t, compiler.KindTable, "")
	if len(t.Columns) == 0 {
		v.errorf(t.Range, "Table without columns", "Table %q needs at least one column.", t.Name)
	}
	v.layout(t)
	v.ttlRules(t)
	v.partitionRules(t)
	for _, c := range t.Columns {
		v.about(t, compiler.KindColumn, c.Name)
		v.name(t, compiler.KindColumn, c.Name, c.Range)
		v.about(t, compiler.KindDefault, c.Name)
		v.defaultValue(t, c)
		v.about(t, compiler.KindIdentity, c.Name)
		v.identity(t, c)
		v.about(t, compiler.KindColumn, c.Name)
		v.generated(t, c)
		v.nullOverrides(t, c)
		if c.OnUpdate && c.Type.Kind != compiler.TypeTimestamp && c.Type.Kind != compiler.TypeDatetime && c.Type.Kind != compiler.TypeInvalid {
			v.errorf(c.OnUpdateRange, "Invalid on_update", "Column %s.%s is %s; on_update = now() applies to timestamp and datetime columns.", t.Name, c.Name, c.Type)
		}
	}
	v.about(t, compiler.KindTable, "")
	if pk := t.PrimaryKey; pk != nil {
		v.columns(t, "primary key", pk.Columns, pk.ColumnRanges)
		v.notGenerated(t, "primary key", pk.Columns, pk.ColumnRanges)
		for i, name := range pk.Columns {
			if c := t.Column(name); c != nil && c.Null {
				v.errorf(pk.ColumnRanges[i], "Nullable primary key column", "Column %q of table %q is in the primary key, so it cannot be null = true.", name, t.Name)
			}
		}
	}
	for _, u := range t.Uniques {
		v.about(t, compiler.KindUnique, u.Name)
		v.name(t, compiler.KindUnique, u.Name, u.Range)
		v.columns(t, "unique constraint "+u.Name, u.Columns, u.ColumnRanges)
	}
	for _, c := range t.Checks {
		v.about(t, compiler.KindCheck, c.Name)
		v.name(t, compiler.KindCheck, c.Name, c.Range)
		v.condition(t, c.Expr, "check "+c.Name, c.ExprRange)
		v.alwaysFalse(t, c)
	}
	for _, idx := range t.Indexes {
		v.about(t, compiler.KindIndex, idx.Name)
		v.name(t, compiler.KindIndex, idx.Name, idx.Range)
		v.condition(t, idx.Where, "where of index "+idx.Name, idx.WhereRange)
		for _, p := range idx.Parts {
			v.doubleMod(t, p.Expr, p.Range)
		}
		var names []string
		var ranges []hcl.Range
		for _, p := range idx.Parts {
			if p.Expr == nil {
				names, ranges = append(names, p.Column), append(ranges, p.Range)
			}
		}
		v.columns(t, "index "+idx.Name, names, ranges)
		if len(idx.Include) > 0 {
			inc := make([]hcl.Range, len(idx.Include))
			for i := range inc {
				inc[i] = idx.IncludeRange
			}
			v.columns(t, "include of index "+idx.Name, idx.Include, inc)
			for _, c := range idx.Include {
				if slices.Contains(names, c) {
					v.errorf(idx.IncludeRange, "Included key column", "Column %q is a key part of index %q: include lists only the columns the index stores besides its key.", c, idx.Name)
				}
			}
		}
	}
	for _, fk := range t.ForeignKeys {
		v.about(t, compiler.KindForeignKey, fk.Name)
		v.name(t, compiler.KindForeignKey, fk.Name, fk.Range)
		v.foreignKey(t, fk)
	}
}

// condition checks that a CHECK or an index predicate is a condition: TiDB
// refuses a CHECK whose value is not boolean (error 3812), PostgreSQL one of
// another type than boolean.
func (v *validator) condition(t *compiler.Table, n expr.Node, what string, rng hcl.Range) {
	if n == nil {
		return
	}
	_, k, errs := expr.AnalyzeKind(n, resolver(t))
	if len(errs) == 0 && k != expr.KindBool && k != expr.KindUnknown && k != expr.KindNull {
		v.errorf(rng, "Not a condition", "The %s of table %q is %s, not a condition; compare it, for example `... > 0`, or test it with IS NOT NULL.", what, t.Name, k)
	}
	v.doubleMod(t, n, rng)
}

// alwaysFalse refuses `x IS NULL` in a CHECK when x is not null: it is
// always false, and TiDB folds a CHECK that is nothing else into the
// constant 0, which it refuses as not boolean (error 3812).
func (v *validator) alwaysFalse(t *compiler.Table, c *compiler.Check) {
	expr.Walk(c.Expr, func(x expr.Node) bool {
		n, ok := x.(*expr.IsNull)
		if !ok || n.Not {
			return true
		}
		if col, ok := n.X.(*expr.Column); ok {
			if tc := t.Column(col.Name); tc != nil && !tc.Null {
				v.errorf(c.ExprRange, "Invalid expression", "Column %s.%s is not null, so %s IS NULL in check %q is always false; leave the test out, or make the column null = true.", t.Name, col.Name, col.Name, c.Name)
			}
		}
		return true
	})
}

// doubleMod refuses % over a double: PostgreSQL has no such operator. It
// also refuses NUL in string literals, which PostgreSQL does not read.
func (v *validator) doubleMod(t *compiler.Table, n expr.Node, rng hcl.Range) {
	expr.Walk(n, func(x expr.Node) bool {
		if lit, ok := x.(*expr.Literal); ok && lit.Kind == expr.LitString && strings.ContainsRune(lit.Value, 0) {
			v.errorf(rng, "Invalid expression", "A string literal of table %q holds a NUL character, which PostgreSQL does not read; leave it out.", t.Name)
		}
		b, ok := x.(*expr.Binary)
		if !ok || b.Op != expr.OpMod {
			return true
		}
		for _, name := range append(expr.Columns(b.L), expr.Columns(b.R)...) {
			if c := t.Column(name); c != nil && c.Type.Kind == compiler.TypeDouble {
				v.errorf(rng, "Invalid expression", "Column %s.%s is double, and PostgreSQL has no %% over double; make it decimal(p,s) or int.", t.Name, name)
				return false
			}
		}
		return true
	})
}

// resolver gives the kinds of t's columns to expr.Analyze.
func resolver(t *compiler.Table) expr.Resolver {
	return func(name string) (expr.Kind, bool) {
		c := t.Column(name)
		if c == nil {
			return expr.KindUnknown, false
		}
		return c.Type.ExprKind(), true
	}
}

func (v *validator) columns(t *compiler.Table, what string, names []string, ranges []hcl.Range) {
	seen := map[string]bool{}
	for i, name := range names {
		rng := t.Range
		if i < len(ranges) {
			rng = ranges[i]
		}
		if t.Column(name) == nil {
			v.errorf(rng, "Unknown column", "The %s names column %q, which table %q does not have%s.", what, name, t.Name, suggest(name, t))
		}
		if seen[name] {
			v.errorf(rng, "Repeated column", "The %s lists column %q twice.", what, name)
		}
		seen[name] = true
	}
}

func suggest(name string, t *compiler.Table) string {
	if len(name) > 128 {
		return ""
	}
	best, bestD := "", 3
	for _, c := range t.Columns {
		if d := distance(name, c.Name); d < bestD {
			best, bestD = c.Name, d
		}
	}
	if best == "" {
		return ""
	}
	return fmt.Sprintf(" (did you mean %q?)", best)
}

func distance(a, b string) int {
	prev := make([]int, len(b)+1)
	for j := range prev {
		prev[j] = j
	}
	for i := 1; i <= len(a); i++ {
		cur := make([]int, len(b)+1)
		cur[0] = i
		for j := 1; j <= len(b); j++ {
			cost := 1
			if a[i-1] == b[j-1] {
				cost = 0
			}
			cur[j] = min(prev[j]+1, cur[j-1]+1, prev[j-1]+cost)
		}
		prev = cur
	}
	return prev[len(b)]
}

func (v *validator) foreignKey(t *compiler.Table, fk *compiler.ForeignKey) {
	v.columns(t, "foreign key "+fk.Name, fk.Columns, fk.ColumnRanges)
	v.notGenerated(t, "foreign key "+fk.Name, fk.Columns, fk.ColumnRanges)
	ref := v.s.Table(fk.RefTable)
	if ref == nil {
		v.errorf(fk.RefRange, "Unknown table", "Foreign key %q references table %q, which the schema does not declare.", fk.Name, fk.RefTable)
		return
	}
	v.notGenerated(ref, "foreign key "+fk.Name+" (referenced)", fk.RefColumns, fk.RefColumnRanges)
	v.columns(ref, "foreign key "+fk.Name+" (referenced)", fk.RefColumns, fk.RefColumnRanges)
	v.fkTableRules(t, fk, ref)
	if len(fk.Columns) != len(fk.RefColumns) {
		v.errorf(fk.Range, "Foreign key column count", "Foreign key %q has %d column(s) but references %d.", fk.Name, len(fk.Columns), len(fk.RefColumns))
		return
	}
	for i, name := range fk.Columns {
		c, rc := t.Column(name), ref.Column(fk.RefColumns[i])
		if c == nil || rc == nil || c.Type.Kind == compiler.TypeInvalid || rc.Type.Kind == compiler.TypeInvalid {
			return
		}
		if !c.Type.Compatible(rc.Type) {
			v.errorf(fk.ColumnRanges[i], "Foreign key type mismatch", "Column %s.%s is %s but references %s.%s, which is %s.", t.Name, name, c.Type, ref.Name, rc.Name, rc.Type)
		}
		if (fk.OnDelete == compiler.SetNull || fk.OnUpdate == compiler.SetNull) && !c.Null {
			v.errorf(fk.ColumnRanges[i], "Foreign key sets a NOT NULL column to null", "Foreign key %q uses set_null, but column %q is not null = true.", fk.Name, name)
		}
	}
	if !ref.Referencable(fk.RefColumns) {
		v.errorf(fk.RefRange, "Foreign key target is not unique", "Foreign key %q references (%s) of table %q, which is not its primary key, a unique constraint, or a unique index without a where predicate.", fk.Name, strings.Join(fk.RefColumns, ", "), ref.Name)
	}
}

func (v *validator) defaultValue(t *compiler.Table, c *compiler.Column) {
	d := c.Default
	if d == nil || c.Type.Kind == compiler.TypeInvalid {
		return
	}
	k := c.Type.ExprKind()
	ok := false
	switch d.Kind {
	case compiler.DefaultNow:
		ok = k == expr.KindTime
	case compiler.DefaultUUID:
		ok = c.Type.Kind == compiler.TypeUUID
	case compiler.DefaultBool:
		ok = k == expr.KindBool
	case compiler.DefaultNumber:
		ok = k == expr.KindInteger || k == expr.KindNumeric
		if k == expr.KindInteger && strings.Contains(d.Value, ".") {
			ok = false
		}
	case compiler.DefaultString:
		ok = k == expr.KindString || k == expr.KindDate || k == expr.KindUUID || k == expr.KindClock || k == expr.KindEnum
		if c.Type.Kind == compiler.TypeVarchar || c.Type.Kind == compiler.TypeChar {
			if n := len([]rune(d.Value)); n > c.Type.Args[0] {
				v.errorf(d.Range, "Default too long", "The default of %s.%s has %d characters, more than %s allows.", t.Name, c.Name, n, c.Type)
			}
		}
	}
	if !ok {
		v.errorf(d.Range, "Invalid default", "Column %s.%s is %s; this default does not fit it.", t.Name, c.Name, c.Type)
		return
	}
	if msg := c.Type.ValueProblem(d); msg != "" {
		v.errorf(d.Range, "Invalid default", "The default of %s.%s does not fit %s: %s", t.Name, c.Name, c.Type, msg)
	}
}

// identity checks an identity column: an integer, never NULL, numbered by
// the database alone.
func (v *validator) identity(t *compiler.Table, c *compiler.Column) {
	id := c.Identity
	if id == nil {
		return
	}
	r, integer := c.Type.IntRange()
	switch {
	case !integer && c.Type.Kind != compiler.TypeInvalid:
		v.errorf(id.Range, "Invalid identity", "Column %s.%s is %s; an identity column is smallint, int or bigint.", t.Name, c.Name, c.Type)
	case integer && r[1].IsInt64() && id.Start > r[1].Int64():
		v.errorf(id.Range, "Invalid identity", "The identity of %s.%s starts at %d, beyond %s's largest value, %s.", t.Name, c.Name, id.Start, c.Type, r[1])
	}
	if c.Null {
		v.errorf(id.Range, "Invalid identity", "Column %s.%s has an identity, so it cannot be null = true.", t.Name, c.Name)
	}
	if c.Default != nil {
		v.errorf(c.Default.Range, "Invalid identity", "Column %s.%s has an identity, which gives its values; remove the default.", t.Name, c.Name)
	}
	for _, o := range c.Overrides {
		if o.Default != "" || o.Type != nil {
			v.errorf(o.Range, "Invalid identity", "Column %s.%s has an identity; a type or default in an override would change what it means. Remove the override or the identity (a raw type, such as postgres { type = \"bigserial\" }, numbers rows itself).", t.Name, c.Name)
		}
	}
	if id.Unordered {
		v.unordered(t, c)
	}
	for _, other := range t.Columns {
		if other != c && other.Identity != nil && other.Identity.Range.Start.Byte > id.Range.Start.Byte {
			v.errorf(other.Identity.Range, "Second identity column", "Table %q already has identity column %q; a table has at most one (TiDB allows one AUTO_INCREMENT column).", t.Name, c.Name)
		}
	}
}

// unordered checks an identity with ordered = false, which TiDB lowers to
// AUTO_RANDOM: a bigint that leads the primary key (TiDB refuses
// AUTO_RANDOM elsewhere, error 8216), with arguments TiDB takes.
func (v *validator) unordered(t *compiler.Table, c *compiler.Column) {
	id := c.Identity
	if c.Type.Kind != compiler.TypeInvalid && c.Type.Name() != "bigint" {
		v.errorf(id.Range, "Invalid identity", "Column %s.%s is %s; an identity with ordered = false is bigint (TiDB's AUTO_RANDOM fills the high bits of a 64-bit id).", t.Name, c.Name, c.Type)
	}
	if pk := t.PrimaryKey; pk == nil || len(pk.Columns) == 0 || pk.Columns[0] != c.Name {
		v.errorf(id.Range, "Invalid identity", "Column %s.%s has an identity with ordered = false, so it must be the primary key's first column: TiDB allows AUTO_RANDOM only there (error 8216).", t.Name, c.Name)
	} else if pk.Clustered != nil && !*pk.Clustered {
		v.errorf(pk.ClusteredRange, "Invalid identity", "Column %s.%s has an identity with ordered = false, which TiDB gives only a clustered primary key (error 8216); remove clustered = false.", t.Name, c.Name)
	}
	if id.ShardBits > 15 {
		v.errorf(id.Range, "Invalid identity", "shard_bits of %s.%s is %d; TiDB takes at most 15.", t.Name, c.Name, id.ShardBits)
	}
	if id.RangeBits > 64 {
		v.errorf(id.Range, "Invalid identity", "range of %s.%s is %d; an id has at most 64 bits.", t.Name, c.Name, id.RangeBits)
	}
	if id.RangeBits-id.ShardBits < 28 {
		v.errorf(id.Range, "Invalid identity", "shard_bits of %s.%s (%d) leaves %d bits of its range (%d) to count with; TiDB needs 28 (error 8216: the ID space is too small). Lower shard_bits or raise range.", t.Name, c.Name, id.ShardBits, id.RangeBits-id.ShardBits, id.RangeBits)
	}
}

// generated checks a generated column: an expression of its own kind over
// plain columns of its table, without a default or on_update.
func (v *validator) generated(t *compiler.Table, c *compiler.Column) {
	g := c.Generated
	if g == nil {
		return
	}
	if c.Default != nil {
		v.errorf(c.Default.Range, "Invalid column", "Column %s.%s is generated (as), so it takes no default.", t.Name, c.Name)
	}
	if c.OnUpdate {
		v.errorf(c.OnUpdateRange, "Invalid column", "Column %s.%s is generated (as), so it takes no on_update.", t.Name, c.Name)
	}
	if g.Expr == nil {
		return
	}
	names := expr.Columns(g.Expr)
	if len(names) == 0 {
		v.errorf(g.Range, "Invalid generated column", "The expression of %s.%s names no column of its table, so the column holds one value in every row; PostgreSQL refuses some such expressions (a function of a string constant, 42P22). Write default = that value instead.", t.Name, c.Name)
	}
	for _, name := range names {
		if o := t.Column(name); o != nil && o.Generated != nil {
			v.errorf(g.Range, "Invalid generated column", "The expression of %s.%s names generated column %q; PostgreSQL computes a generated column from plain columns only. Write out %q's expression instead.", t.Name, c.Name, name, name)
		}
	}
	v.doubleMod(t, g.Expr, g.Range)
	_, k, errs := expr.AnalyzeKind(g.Expr, resolver(t))
	if len(errs) > 0 || k == expr.KindUnknown || k == expr.KindNull || c.Type.Kind == compiler.TypeInvalid {
		return
	}
	want := c.Type.ExprKind()
	ok := false
	switch want {
	case expr.KindString:
		ok = k == expr.KindString
	case expr.KindInteger:
		ok = k == expr.KindInteger
	case expr.KindNumeric:
		ok = k == expr.KindInteger || k == expr.KindNumeric
	case expr.KindBool:
		ok = k == expr.KindBool
	default:
		v.errorf(c.TypeRange, "Invalid generated column", "Column %s.%s is %s; a generated column is a string, an integer, a number or a bool, whose expressions both databases compute alike.", t.Name, c.Name, c.Type)
		return
	}
	if !ok {
		v.errorf(g.Range, "Invalid generated column", "The expression of %s.%s is %s, but the column is %s; both databases would convert it differently. Make the expression %s, or change the column's type.", t.Name, c.Name, k, c.Type, want)
	}
}

// notGenerated refuses generated columns in a primary or foreign key: TiDB
// keys neither on a VIRTUAL column (errors 3106, 3733), and PostgreSQL
// cascades no update into a generated column.
func (v *validator) notGenerated(t *compiler.Table, what string, names []string, ranges []hcl.Range) {
	for i, name := range names {
		if c := t.Column(name); c != nil && c.Generated != nil {
			rng := t.Range
			if i < len(ranges) {
				rng = ranges[i]
			}
			v.errorf(rng, "Generated column in a key", "The %s of table %q names generated column %q; keys are over plain columns (a unique constraint or an index may hold it).", what, t.Name, name)
		}
	}
}

// The most bytes an enum value takes: PostgreSQL's limit (NAMEDATALEN - 1);
// TiDB's, 255 characters, is never the smaller. maxEnumValues is TiDB's
// limit on the number of values.
const (
	maxEnumValueBytes = 63
	maxEnumValues     = 65535
)

// enum checks an enum's values: labels that both databases store and
// compare alike. TiDB strips trailing spaces from ENUM values and, under a
// case-insensitive collation, refuses values that differ only in case;
// PostgreSQL keeps both. TiDB's empty string is its error value.
func (v *validator) enum(e *compiler.Enum) {
	v.subject = &compiler.ObjectRef{Kind: compiler.KindEnum, Name: e.Name}
	if !v.chars(e.Name, "enum", e.Range) {
		return
	}
	if t := v.s.Table(e.Name); t != nil {
		v.errorf(e.Range, "Enum named like a table", "The enum %q has the name of table %q (%s); PostgreSQL gives every table a type of its name. Rename one of them.", e.Name, t.Name, t.Range)
	}
	if len(e.Values) > maxEnumValues {
		v.errorf(e.Range, "Too many enum values", "The enum %q has %d values; TiDB takes at most %d.", e.Name, len(e.Values), maxEnumValues)
	}
	seen := map[string]int{}
	for i, val := range e.Values {
		rng := e.Range
		if i < len(e.ValueRanges) {
			rng = e.ValueRanges[i]
		}
		switch {
		case val == "":
			v.errorf(rng, "Invalid enum value", "An enum value cannot be empty: TiDB uses the empty string for invalid values.")
		case strings.TrimRight(val, " ") != val:
			v.errorf(rng, "Invalid enum value", "The enum value %q ends in a space, which TiDB strips (it would store %q); leave the space out.", val, strings.TrimRight(val, " "))
		case len(val) > maxEnumValueBytes:
			v.errorf(rng, "Enum value too long", "The enum value %q has %d bytes; PostgreSQL takes at most %d.", val, len(val), maxEnumValueBytes)
		case strings.ContainsFunc(val, func(r rune) bool { return r < 0x20 || r == 0x7f }):
			v.errorf(rng, "Invalid enum value", "The enum value %q holds a control character; PostgreSQL refuses NUL, and the others do not print.", val)
		}
		key := strings.ToLower(val)
		if j, dup := seen[key]; dup {
			if e.Values[j] == val {
				v.errorf(rng, "Duplicate enum value", "The enum %q already has the value %q.", e.Name, val)
			} else {
				v.errorf(rng, "Duplicate enum value", "The enum values %q and %q differ only in case; TiDB refuses them under a case-insensitive collation. Keep one.", e.Values[j], val)
			}
			continue
		}
		seen[key] = i
	}
}

// layout checks a table's TiDB layout options: they scatter the hidden row
// ids of a table TiDB does not store by its primary key.
func (v *validator) layout(t *compiler.Table) {
	if t.ShardRowIDBits == 0 && t.PreSplitRegions == 0 {
		return
	}
	if pk := t.PrimaryKey; pk != nil && (pk.Clustered == nil || *pk.Clustered) {
		v.errorf(t.LayoutRange, "Invalid table layout", "Table %q is stored by its primary key (clustered, TiDB's default), which has no row ids to shard (error 8200); write clustered = false in its primary_key block, or leave shard_row_id_bits and pre_split_regions out.", t.Name)
	}
	if t.PreSplitRegions > t.ShardRowIDBits {
		v.errorf(t.LayoutRange, "Invalid table layout", "pre_split_regions of table %q (%d) is more than its shard_row_id_bits (%d): TiDB silently lowers it to the shard bits (and ignores it without them).", t.Name, t.PreSplitRegions, t.ShardRowIDBits)
	}
}

// nullOverrides refuses a dialect's null that the column cannot have
// there: a primary key or identity column takes no NULL, and a foreign
// key that sets the column to null needs it to take one.
func (v *validator) nullOverrides(t *compiler.Table, c *compiler.Column) {
	for _, d := range slices.Sorted(maps.Keys(c.Overrides)) {
		o := c.Overrides[d]
		if o == nil || o.Null == nil {
			continue
		}
		switch {
		case *o.Null && t.PrimaryKey != nil && slices.Contains(t.PrimaryKey.Columns, c.Name):
			v.errorf(o.Range, "Nullable primary key column", "Column %q of table %q is in the primary key, so it cannot be null = true on %s.", c.Name, t.Name, d)
		case *o.Null && c.Identity != nil:
			v.errorf(o.Range, "Invalid identity", "Column %s.%s has an identity, so it cannot be null = true on %s.", t.Name, c.Name, d)
		case !*o.Null:
			for _, fk := range t.ForeignKeys {
				if (fk.OnDelete == compiler.SetNull || fk.OnUpdate == compiler.SetNull) && slices.Contains(fk.Columns, c.Name) {
					v.errorf(o.Range, "Foreign key sets a NOT NULL column to null", "Foreign key %q uses set_null, but column %q is null = false on %s.", fk.Name, c.Name, d)
				}
			}
		}
	}
}
