package tidb

import (
	"fmt"
	"regexp"
	"slices"
	"strconv"
	"strings"

	"github.com/pingcap/tidb/pkg/parser/ast"

	"ariga.io/atlas/sql/mysql"
	"ariga.io/atlas/sql/schema"

	"github.com/schemagen/schemagen/compiler"
	"github.com/schemagen/schemagen/compiler/expr"
	"github.com/schemagen/schemagen/dialects/internal/sqltext"
	"github.com/schemagen/schemagen/dialects/tidb/internal/atlasdrv"
	"github.com/schemagen/schemagen/dialects/tidb/internal/lexical"
	"github.com/schemagen/schemagen/dialects/tidb/internal/lower"
	"github.com/schemagen/schemagen/dialects/tidb/internal/readback"
)

var (
	currentTime = regexp.MustCompile(`(?i)^current_timestamp(\((\d)\))?$`)
	numberLit   = regexp.MustCompile(`^-?\d+(\.\d+)?$`)
)

// NeutralDefault implements dialects.Importer.
func (Dialect) NeutralDefault(x schema.Expr, t compiler.Type) (*compiler.Default, string, bool) {
	switch x := x.(type) {
	case *schema.RawExpr:
		if m := currentTime.FindStringSubmatch(x.X); m != nil && (t.Kind == compiler.TypeTimestamp || t.Kind == compiler.TypeDatetime) {
			if m[2] == fmt.Sprint(lower.Precision(t)) || m[2] == "" && lower.Precision(t) == 0 {
				return &compiler.Default{Kind: compiler.DefaultNow}, x.X, true
			}
		}
		if low := strings.ToLower(x.X); t.Kind == compiler.TypeUUID && (low == "uuid()" || low == "(uuid())") {
			return &compiler.Default{Kind: compiler.DefaultUUID}, "(UUID())", true
		}
		return nil, x.X, false
	case *schema.Literal:
		v := x.V
		if len(v) >= 2 && v[0] == '"' && v[len(v)-1] == '"' {
			// Atlas quotes a string default as Go does: "north".
			u, err := strconv.Unquote(v)
			if err != nil {
				return nil, v, false
			}
			v = "'" + strings.NewReplacer(`\`, `\\`, "'", "''").Replace(u) + "'"
		}
		switch {
		case t.Kind == compiler.TypeBool && (v == "1" || v == "0"):
			return &compiler.Default{Kind: compiler.DefaultBool, Value: map[string]string{"1": "true", "0": "false"}[v]}, v, true
		case strings.HasPrefix(v, "'") && strings.HasSuffix(v, "'") && len(v) >= 2:
			s := strings.NewReplacer(`\\`, `\`, `\'`, "'", "''", "'").Replace(v[1 : len(v)-1])
			if numberLit.MatchString(s) && (t.ExprKind() == expr.KindInteger || t.ExprKind() == expr.KindNumeric) {
				return &compiler.Default{Kind: compiler.DefaultNumber, Value: s}, v, true
			}
			if t.Kind == compiler.TypeTime {
				// TiDB prints a time default with its column's fractional
				// digits: 09:00:00.000000.
				if whole, frac, ok := strings.Cut(s, "."); ok {
					if frac = strings.TrimRight(frac, "0"); frac == "" {
						s = whole
					} else {
						s = whole + "." + frac
					}
				}
			}
			return &compiler.Default{Kind: compiler.DefaultString, Value: s}, v, true
		case numberLit.MatchString(v):
			if t.IsString() || t.Kind == compiler.TypeUUID {
				return &compiler.Default{Kind: compiler.DefaultString, Value: v}, v, true
			}
			return &compiler.Default{Kind: compiler.DefaultNumber, Value: v}, v, true
		}
		if t.IsString() || t.Kind == compiler.TypeUUID || t.Kind == compiler.TypeDate {
			return &compiler.Default{Kind: compiler.DefaultString, Value: v}, v, true
		}
		return nil, v, false
	}
	return nil, "", false
}

// Identity implements the importer's identity reading: an AUTO_INCREMENT
// integer column is an identity, starting at the table's AUTO_INCREMENT (the
// next id TiDB gives, which is the start on a table without rows).
//
// An AUTO_RANDOM column is an identity with ordered = false, with its shard
// bits and range; a table's AUTO_ID_CACHE other than 1 is the identity's
// cache.
func (Dialect) Identity(t *schema.Table, c *schema.Column) *compiler.Identity {
	if r := atlasdrv.AutoRandomOf(c); r != nil {
		if it, ok := c.Type.Type.(*schema.IntegerType); !ok || it.T != "bigint" || it.Unsigned {
			return nil
		}
		return &compiler.Identity{Start: 1, Cache: 1, Unordered: true, ShardBits: r.ShardBits, RangeBits: r.RangeBits}
	}
	if !atlasdrv.AutoIncrement(c) {
		return nil
	}
	if !identityType(c) {
		return nil
	}
	id := &compiler.Identity{Start: 1, Cache: 1}
	for _, a := range t.Attrs {
		if ai, ok := a.(*mysql.AutoIncrement); ok && ai.V > 1 {
			id.Start = ai.V
		}
	}
	if n := atlasdrv.AutoIDCacheOf(t); n > 1 {
		id.Cache = n
	}
	return id
}

// identityType reports whether an AUTO_INCREMENT column's type can be an
// identity's: a signed integer, or an unsigned one the next wider integer
// holds (an unsigned BIGINT has none), which keeps its own type as an
// override.
func identityType(c *schema.Column) bool {
	it, ok := c.Type.Type.(*schema.IntegerType)
	return ok && (!it.Unsigned || it.T != "bigint")
}

// IdentityNote implements the importer's identity notes: an AUTO_INCREMENT
// table without AUTO_ID_CACHE, which TiDB cannot add to it.
func (Dialect) IdentityNote(t *schema.Table) string {
	if atlasdrv.AutoIDCacheOf(t) > 0 || slices.ContainsFunc(t.Columns, func(c *schema.Column) bool { return atlasdrv.AutoRandomOf(c) != nil }) {
		return ""
	}
	return "AUTO_INCREMENT without AUTO_ID_CACHE = 1 is imported as an identity; this table keeps TiDB's ids in batches per server (TiDB cannot change AUTO_ID_CACHE of a table), tables schemagen creates get AUTO_ID_CACHE = 1"
}

// ColumnClause returns what follows a column's type in its definition that
// the model has no attribute for: AUTO_INCREMENT (of a column that is no
// identity), a generated expression.
func (Dialect) ColumnClause(c *schema.Column) (string, string) {
	var clauses, why []string
	if atlasdrv.AutoIncrement(c) && !identityType(c) {
		clauses = append(clauses, "AUTO_INCREMENT")
		why = append(why, "an AUTO_INCREMENT column")
	}
	for _, a := range c.Attrs {
		switch a := a.(type) {
		case *schema.GeneratedExpr:
			s := "GENERATED ALWAYS AS (" + a.Expr + ")"
			if a.Type != "" {
				s += " " + strings.ToUpper(a.Type)
			}
			clauses = append(clauses, s)
			why = append(why, "a generated column")
		}
	}
	return strings.Join(clauses, " "), strings.Join(why, ", ")
}

// CheckText returns the text to give TiDB in CHECK (...) for it to store
// stored again (TiDB keeps the parentheses a CHECK is written with), and
// whether n, rendered as schemagen renders it, would be stored differently:
// then the import keeps the database's text as the TiDB override.
func (Dialect) CheckText(stored string, n expr.Node) (string, bool) {
	inner := stored
	if lexical.Wrapped(inner) {
		inner = inner[1 : len(inner)-1]
	}
	if n == nil {
		return inner, true
	}
	return inner, restored("("+sqltext.Expr(lower.Syntax{}, n)+")") != restored(stored)
}

var charsetIntroducer = regexp.MustCompile(`_[a-z0-9]+'`)

// restored approximates how TiDB restores an expression's text, to compare
// the parentheses of two texts of one expression: keywords and functions in
// lower case, <> as !=, no spacing, string literals (whose escapes differ)
// as '?'.
func restored(s string) string {
	var b strings.Builder
	quoted := byte(0)
	s = charsetIntroducer.ReplaceAllString(s, "'")
	for i := 0; i < len(s); i++ {
		c := s[i]
		switch {
		case quoted == '\'':
			if c == '\\' {
				i++
			} else if c == '\'' && i+1 < len(s) && s[i+1] == '\'' {
				i++
			} else if c == '\'' {
				quoted = 0
				b.WriteString("?'")
			}
		case quoted != 0:
			b.WriteByte(c)
			if c == quoted {
				quoted = 0
			}
		case c == '\'' || c == '`' || c == '"':
			quoted = c
			b.WriteByte(c)
		case c == ' ' || c == '\n' || c == '\t':
		case c == '<' && i+1 < len(s) && s[i+1] == '>':
			b.WriteString("!=")
			i++
		default:
			b.WriteString(strings.ToLower(string(c)))
		}
	}
	return b.String()
}

// Implicit implements dialects.Importer: TiDB indexes the columns of a
// foreign key that no index starts with, naming the index after the key.
func (Dialect) Implicit(t *schema.Table, idx *schema.Index) bool {
	for _, fk := range t.ForeignKeys {
		if fk.Symbol != idx.Name || len(fk.Columns) != len(idx.Parts) || idx.Unique {
			continue
		}
		if leads(fk, idx) && !coveredElsewhere(t, fk, idx) {
			return true
		}
	}
	return false
}

// leads reports whether fk's columns lead idx.
func leads(fk *schema.ForeignKey, idx *schema.Index) bool {
	if idx == nil || len(idx.Parts) < len(fk.Columns) {
		return false
	}
	for i, c := range fk.Columns {
		if idx.Parts[i].C == nil || idx.Parts[i].C.Name != c.Name {
			return false
		}
	}
	return true
}

// coveredElsewhere reports whether another index of t, or its primary key,
// is led by fk's columns: the DDL from the model declares indexes with the
// table, so TiDB would not make fk's index again, and the one the live
// database has (made before the covering index came) is the model's to keep.
func coveredElsewhere(t *schema.Table, fk *schema.ForeignKey, own *schema.Index) bool {
	if leads(fk, t.PrimaryKey) {
		return true
	}
	for _, idx := range t.Indexes {
		if idx != own && leads(fk, idx) {
			return true
		}
	}
	return false
}

// GeneratedKeyType implements the importer's generatedKeyer: the type of
// the VIRTUAL generated column TiDB's lowering indexes n through in table t
// (for an expression it cannot index directly, or a key part that names its
// TiDB column, as import writes it), in the form Atlas reports column
// types, or "" when no generated column holds n.
func (Dialect) GeneratedKeyType(t *compiler.Table, n expr.Node) string {
	return strings.ToLower(lower.GeneratedType(t, n))
}

// CaseKey implements dialects.CaseKeyer: a generated column's expression,
// read by TiDB's parser, split as CASE WHEN <when> THEN <then> END (no
// ELSE), the form of a partial unique index's key part (partialColumn in
// internal/lower); when and then are read into portable expressions over
// cols.
func (Dialect) CaseKey(gen string, cols expr.Resolver) (when, then expr.Node, ok bool) {
	x, err := readback.Tree(gen)
	if err != nil {
		return nil, nil, false
	}
	for {
		p, ok := x.(*ast.ParenthesesExpr)
		if !ok {
			break
		}
		x = p.Expr
	}
	// ELSE NULL means the same, but TiDB keeps it in the column's text,
	// which the model's DDL would not give back.
	c, ok := x.(*ast.CaseExpr)
	if !ok || c.Value != nil || c.ElseClause != nil || len(c.WhenClauses) != 1 {
		return nil, nil, false
	}
	if when, err = readback.Portable(c.WhenClauses[0].Expr, gen, cols); err != nil {
		return nil, nil, false
	}
	if then, err = readback.Portable(c.WhenClauses[0].Result, gen, cols); err != nil {
		return nil, nil, false
	}
	return when, then, true
}

// CaseKeyType implements the importer's caseKeyer: the type partialColumn
// (internal/lower) gives the generated column that holds n in table t, in
// the form Atlas reports column types, or "" when it cannot lower n.
func (Dialect) CaseKeyType(t *compiler.Table, n expr.Node) string {
	if c, ok := expr.Unparen(n).(*expr.Column); ok {
		col := t.Column(c.Name)
		if col == nil {
			return ""
		}
		if typ, known := lower.EffectiveType(col); known {
			return strings.ToLower(Type(typ))
		}
		return ""
	}
	return strings.ToLower(lower.GeneratedType(t, n))
}

// OnUpdate implements the importer's onUpdater: ON UPDATE
// CURRENT_TIMESTAMP(p) on a timestamp or datetime column of precision p.
func (Dialect) OnUpdate(c *schema.Column, t compiler.Type) bool {
	if t.Kind != compiler.TypeTimestamp && t.Kind != compiler.TypeDatetime {
		return false
	}
	m := currentTime.FindStringSubmatch(atlasdrv.OnUpdateOf(c))
	return m != nil && (m[2] == fmt.Sprint(lower.Precision(t)) || m[2] == "" && lower.Precision(t) == 0)
}

// OwnCheck implements the importer's ownChecker: the CHECK the lowering
// gives a time column to keep it in PostgreSQL's range.
// And uuid_check's own CHECK (by its name and text), which the default
// uuid_check adds again (InferSettings counts it).
func (Dialect) OwnCheck(t *compiler.Table, c *schema.Check) bool {
	for _, col := range t.Columns {
		if col.Type.Kind == compiler.TypeTime && c.Name == lower.TimeCheckName(t.Name, col.Name) {
			return plainText(c.Expr) == plainText(lower.TimeCheck(col.Name))
		}
		if col.Type.Kind == compiler.TypeUUID && ownUUIDCheck(t.Name, col.Name, c) {
			return true
		}
	}
	return false
}

// ownUUIDCheck reports whether c is the CHECK uuid_check gives column col.
func ownUUIDCheck(table, col string, c *schema.Check) bool {
	return c.Name == lower.UUIDCheckName(table, col) && plainText(c.Expr) == plainText(lower.UUIDCheck(col))
}

// OwnChecks implements the importer's ownChecker.
func (Dialect) OwnChecks(t *compiler.Table) map[string]string {
	out := map[string]string{}
	for _, col := range t.Columns {
		if col.Type.Kind == compiler.TypeTime {
			out[lower.TimeCheckName(t.Name, col.Name)] = col.Name
		}
	}
	return out
}

// plainText is an expression's text without charset introducers, spaces,
// parentheses and letter case, to recognise a CHECK TiDB printed back.
func plainText(s string) string {
	s = strings.ReplaceAll(s, "_utf8mb4'", "'")
	return strings.ToLower(strings.NewReplacer(" ", "", "(", "", ")", "").Replace(s))
}

// SameType implements the importer's typeReader: a column of neutral type
// a is rendered as one of b on TiDB (datetime and timestamp(6) are both
// DATETIME(6)), so a merged import need not override b.
func (Dialect) SameType(a, b compiler.Type) bool { return Type(a) == Type(b) }

// KeyType implements the importer's keyTyper: TiDB cannot index text, so a
// text column that a key or index uses gets varchar(255) there, which holds
// what such keys hold in practice (1,020 of the 3,072 bytes a key may use)
// and keeps the key.
func (Dialect) KeyType(t compiler.Type) (compiler.Type, bool) {
	if t.Kind == compiler.TypeText {
		return compiler.Type{Kind: compiler.TypeVarchar, Args: []int{255}}, true
	}
	return compiler.Type{}, false
}

// RawTypeWhy implements the importer's rawTypeNoter: why a type with a
// neutral type close to it is kept as TiDB's own.
func (Dialect) RawTypeWhy(ct *schema.ColumnType) string {
	switch t := ct.Type.(type) {
	case *schema.IntegerType:
		if t.Unsigned {
			return "an unsigned integer, which the next wider integer holds"
		}
		if t.T == "mediumint" {
			return "a 3-byte integer, which int holds"
		}
	case *schema.TimeType:
		switch t.T {
		case "timestamp":
			return "an instant, which timestamp means, in TIMESTAMP's range (1970 to 2038)"
		case "year":
			return "a year, 1901 to 2155 or 0, which smallint holds"
		}
	case *mysql.SetType:
		return "a set of labels, which a comma-separated text holds, without the check of its labels"
	case *schema.BinaryType:
		return "bytes with a smaller limit than bytes', which bytes holds"
	case *schema.StringType:
		return "text with another limit than text's, which text holds"
	}
	return ""
}

// CollatedType implements the importer's columnCollator: the type of a
// string column whose collation is not its table's, with that collation,
// as TiDB keeps it in the column's definition; "" for other columns.
func (Dialect) CollatedType(t *schema.Table, c *schema.Column) string {
	var tc, cc string
	for _, a := range t.Attrs {
		if x, ok := a.(*schema.Collation); ok {
			tc = x.V
		}
	}
	for _, a := range c.Attrs {
		if x, ok := a.(*schema.Collation); ok {
			cc = x.V
		}
	}
	if cc == "" || strings.EqualFold(cc, tc) {
		return ""
	}
	if st, ok := c.Type.Type.(*schema.StringType); ok && (st.T == "varchar" || st.T == "text") && strings.EqualFold(cc, lower.ExactCollation) {
		// exact_strings' own (on by default): InferSettings decides, once
		// every column is read, whether the setting stands for it.
		return ""
	}
	return tidbType(c.Type) + " COLLATE " + cc
}

// FoldOnUpdate implements the importer's onUpdateFolder: a column of raw
// type raw that is set on update keeps ON UPDATE in its TiDB type, which
// the lowering does not add to a raw type.
func (Dialect) FoldOnUpdate(raw string, t compiler.Type) string {
	if p := lower.Precision(t); p > 0 {
		return fmt.Sprintf("%s ON UPDATE CURRENT_TIMESTAMP(%d)", raw, p)
	}
	return raw + " ON UPDATE CURRENT_TIMESTAMP"
}

// ValueRange implements the importer's rangeReader: the values of c's
// TiDB type that the neutral type the other dialects get does not limit to
// (an unsigned integer's, YEAR's), as a portable expression over the
// column, or "".
func (Dialect) ValueRange(c *schema.Column) string {
	col := c.Name
	switch t := c.Type.Type.(type) {
	case *schema.IntegerType:
		hi, ok := map[string]string{"tinyint": "255", "smallint": "65535", "mediumint": "16777215", "int": "4294967295"}[t.T]
		switch {
		case t.Unsigned && t.T == "bigint":
			// Its upper bound is beyond what the model's integers write;
			// decimal(20, 0) stops at 10^20-1.
			return fmt.Sprintf("%s >= 0", col)
		case t.Unsigned && ok:
			return fmt.Sprintf("%s >= 0 AND %s <= %s", col, col, hi)
		case t.T == "mediumint":
			return fmt.Sprintf("%s >= -8388608 AND %s <= 8388607", col, col)
		case t.T == "tinyint" && !strings.HasPrefix(tidbType(c.Type), "tinyint(1)"):
			return fmt.Sprintf("%s >= -128 AND %s <= 127", col, col)
		}
	case *schema.TimeType:
		if t.T == "year" {
			return fmt.Sprintf("%s = 0 OR %s >= 1901 AND %s <= 2155", col, col, col)
		}
	}
	return ""
}

// FoldIdentity implements the importer's identityFolder: a column numbered
// on TiDB alone keeps AUTO_INCREMENT in its raw type.
func (Dialect) FoldIdentity(raw string) string { return raw + " AUTO_INCREMENT" }

// Layout implements dialects.LayoutReader: a NONCLUSTERED primary key is
// clustered = false; a CLUSTERED one is left to the server's default
// (clustered since TiDB 5.0), so that a database made with the defaults
// imports without it.
func (Dialect) Layout(t *schema.Table) (*bool, int, int) {
	var clustered *bool
	if c, known := atlasdrv.ClusteredOf(t); known && !c {
		clustered = new(bool)
	}
	shard, split := atlasdrv.LayoutOf(t)
	return clustered, shard, split
}

// TTL implements dialects.TTLReader.
func (Dialect) TTL(t *schema.Table) *compiler.TTL { return atlasdrv.TTLOf(t).Model() }

// Partition implements dialects.PartitionReader.
func (Dialect) Partition(t *schema.Table) *compiler.Partition { return atlasdrv.PartitionOf(t).Model() }
