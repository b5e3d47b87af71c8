package postgres

import (
	"context"
	"fmt"
	"regexp"
	"slices"
	"strings"

	"ariga.io/atlas/sql/postgres"
	"ariga.io/atlas/sql/schema"

	"github.com/schemagen/schemagen/compiler"
	"github.com/schemagen/schemagen/dialects/postgres/internal/atlasdrv"
	"github.com/schemagen/schemagen/dialects/postgres/internal/lower"
)

var (
	castLiteral = regexp.MustCompile(`^'((?:[^']|'')*)'(?:::[a-z ]+(?:\(\d+\))?)?$`)
	// enumLiteral is a value of an enum type as PostgreSQL prints a default:
	// 'paid'::order_status, 'paid'::"Order Status".
	enumLiteral = regexp.MustCompile(`^'((?:[^']|'')*)'::(?:[A-Za-z_][A-Za-z0-9_$]*|"(?:[^"]|"")*")$`)
	number      = regexp.MustCompile(`^\(?(-?\d+(?:\.\d+)?)\)?(?:::[a-z ]+)?$`)
)

// NeutralDefault implements dialects.Importer.
func (Dialect) NeutralDefault(x schema.Expr, t compiler.Type) (*compiler.Default, string, bool) {
	raw := ""
	switch x := x.(type) {
	case *schema.Literal:
		raw = x.V
	case *schema.RawExpr:
		raw = x.X
	default:
		return nil, "", false
	}
	low := strings.ToLower(raw)
	switch {
	case (t.Kind == compiler.TypeTimestamp || t.Kind == compiler.TypeDatetime) && (low == "now()" || low == "current_timestamp" || low == "current_timestamp()"):
		return &compiler.Default{Kind: compiler.DefaultNow}, raw, true
	case t.Kind == compiler.TypeUUID && low == "gen_random_uuid()":
		return &compiler.Default{Kind: compiler.DefaultUUID}, raw, true
	case t.Kind == compiler.TypeBool && (low == "true" || low == "false"):
		return &compiler.Default{Kind: compiler.DefaultBool, Value: low}, raw, true
	}
	if m := enumLiteral.FindStringSubmatch(raw); m != nil && t.Kind == compiler.TypeEnum {
		return &compiler.Default{Kind: compiler.DefaultString, Value: strings.ReplaceAll(m[1], "''", "'")}, raw, true
	}
	if m := castLiteral.FindStringSubmatch(raw); m != nil && t.Kind != compiler.TypeBool {
		return &compiler.Default{Kind: compiler.DefaultString, Value: strings.ReplaceAll(m[1], "''", "'")}, raw, true
	}
	if m := number.FindStringSubmatch(raw); m != nil {
		return &compiler.Default{Kind: compiler.DefaultNumber, Value: m[1]}, raw, true
	}
	return nil, raw, false
}

// Identity implements the importer's identity reading: serial columns and
// identities that count up by one are identities. An identity GENERATED
// ALWAYS, or with another step, is kept by ColumnClause.
func (Dialect) Identity(_ *schema.Table, c *schema.Column) *compiler.Identity {
	if _, ok := c.Type.Type.(*postgres.SerialType); ok {
		return &compiler.Identity{Start: 1}
	}
	if a := plainIdentity(c); a != nil {
		id := &compiler.Identity{Start: 1}
		if q := a.Sequence; q != nil && q.Start > 1 {
			id.Start = q.Start
		}
		return id
	}
	return nil
}

// plainIdentity returns c's identity when it is one the model's identity
// means: BY DEFAULT, counting up by one.
func plainIdentity(c *schema.Column) *postgres.Identity {
	for _, a := range c.Attrs {
		if a, ok := a.(*postgres.Identity); ok && strings.EqualFold(a.Generation, "BY DEFAULT") && (a.Sequence == nil || a.Sequence.Increment <= 1) {
			return a
		}
	}
	return nil
}

// ColumnClause returns what follows a column's type in its definition that
// the model has no attribute for: an identity the model's does not mean, a
// generated expression.
func (Dialect) ColumnClause(c *schema.Column) (string, string) {
	var clauses, why []string
	for _, a := range c.Attrs {
		switch a := a.(type) {
		case *postgres.Identity:
			if plainIdentity(c) != nil {
				continue
			}
			s := "GENERATED " + strings.ToUpper(a.Generation) + " AS IDENTITY"
			if q := a.Sequence; q != nil && (q.Start != 1 && q.Start != 0 || q.Increment != 1 && q.Increment != 0) {
				s += fmt.Sprintf(" (START WITH %d INCREMENT BY %d)", max(q.Start, 1), max(q.Increment, 1))
			}
			clauses = append(clauses, s)
			why = append(why, "an identity column")
		case *schema.GeneratedExpr:
			s := "GENERATED ALWAYS AS (" + a.Expr + ")"
			if a.Type != "" {
				s += " " + strings.ToUpper(a.Type)
			} else {
				s += " STORED"
			}
			clauses = append(clauses, s)
			why = append(why, "a generated column")
		}
	}
	return strings.Join(clauses, " "), strings.Join(why, ", ")
}

// DeferrableKeys returns the deferrable foreign keys of the current schema,
// by table and name, and whether each is initially deferred: Atlas does not
// inspect them.
func (Dialect) DeferrableKeys(ctx context.Context, conn schema.ExecQuerier) (map[[2]string]bool, error) {
	rows, err := conn.QueryContext(ctx, `SELECT c.relname, k.conname, k.condeferred FROM pg_constraint k JOIN pg_class c ON c.oid = k.conrelid
WHERE k.contype = 'f' AND k.condeferrable AND c.relnamespace = current_schema()::regnamespace`)
	if err != nil {
		return nil, err
	}
	defer rows.Close()
	keys := map[[2]string]bool{}
	for rows.Next() {
		var table, name string
		var deferred bool
		if err := rows.Scan(&table, &name, &deferred); err != nil {
			return nil, err
		}
		keys[[2]string{table, name}] = deferred
	}
	return keys, rows.Err()
}

// Implicit implements dialects.Importer: PostgreSQL makes no index by itself
// that the model would not declare.
func (Dialect) Implicit(*schema.Table, *schema.Index) bool { return false }

// ReadOnUpdate implements the importer's onUpdateReader: a table's trigger
// and function named as the lowering names them (OnUpdateName) set its
// on_update columns when they are exactly what the lowering makes of them;
// other triggers are raw objects (ReadRawObjects).
func (Dialect) ReadOnUpdate(ctx context.Context, conn schema.ExecQuerier, tables []*compiler.Table) (map[string][]string, error) {
	rows, err := conn.QueryContext(ctx, `SELECT c.relname, t.tgname, p.proname, p.prosrc, pg_get_triggerdef(t.oid)
FROM pg_trigger t JOIN pg_class c ON c.oid = t.tgrelid JOIN pg_proc p ON p.oid = t.tgfoid
WHERE NOT t.tgisinternal AND c.relnamespace = current_schema()::regnamespace ORDER BY 1, 2`)
	if err != nil {
		return nil, err
	}
	defer rows.Close()
	byName := map[string]*compiler.Table{}
	for _, t := range tables {
		byName[t.Name] = t
	}
	notes := map[string][]string{}
	for rows.Next() {
		var table, trigger, fn, src, def string
		if err := rows.Scan(&table, &trigger, &fn, &src, &def); err != nil {
			return nil, err
		}
		t := byName[table]
		if t == nil {
			continue
		}
		if trigger == lower.OnUpdateName(table) && fn == trigger && setsOnUpdate(t, src, def) {
			continue
		}
		// Not one schemagen makes: import keeps it as a raw block
		// (ReadRawObjects).
	}
	return notes, rows.Err()
}

var rowList = regexp.MustCompile(`ROW\(([^()]*)\)`)

// canonicalOnUpdate is an on_update function's text with the columns of
// its ROW(...) lists and its lines of columns set in name order: the
// lowering lists them in the model's column order, which a database that
// appended added columns (migrations) holds otherwise.
func canonicalOnUpdate(src string) string {
	src = rowList.ReplaceAllStringFunc(src, func(m string) string {
		items := strings.Split(m[len("ROW("):len(m)-1], ", ")
		slices.Sort(items)
		return "ROW(" + strings.Join(items, ", ") + ")"
	})
	lines := strings.Split(src, "\n")
	var sets []int
	for i, l := range lines {
		if strings.HasPrefix(strings.TrimSpace(l), "IF NEW.") {
			sets = append(sets, i)
		}
	}
	if len(sets) > 1 {
		sorted := make([]string, len(sets))
		for j, i := range sets {
			sorted[j] = lines[i]
		}
		slices.Sort(sorted)
		for j, i := range sets {
			lines[i] = sorted[j]
		}
	}
	return strings.Join(lines, "\n")
}

var triggerDef = regexp.MustCompile(`^CREATE TRIGGER \S+ BEFORE UPDATE ON \S+ FOR EACH ROW EXECUTE FUNCTION \S+\(\)$`)

var setNow = regexp.MustCompile(`NEW\.("(?:[^"]|"")+") := now\(\)`)

// setsOnUpdate marks the columns that src, a trigger function's body, sets
// to now(), and keeps them when the lowering of t would make src and the
// trigger def itself.
func setsOnUpdate(t *compiler.Table, src, def string) bool {
	var marked []*compiler.Column
	for _, m := range setNow.FindAllStringSubmatch(src, -1) {
		name := strings.ReplaceAll(m[1][1:len(m[1])-1], `""`, `"`)
		c := t.Column(name)
		if c == nil || c.OnUpdate || c.Type.Kind != compiler.TypeTimestamp && c.Type.Kind != compiler.TypeDatetime {
			continue
		}
		c.OnUpdate = true
		marked = append(marked, c)
	}
	stmts := lower.OnUpdate(t)
	if len(stmts) == 2 && strings.Contains(canonicalOnUpdate(stmts[0]), "$$"+canonicalOnUpdate(src)+"$$") && triggerDef.MatchString(def) {
		return true
	}
	for _, c := range marked {
		c.OnUpdate = false
	}
	return false
}

// PortableGenerated implements the importer's generatedTexter: PostgreSQL
// keeps a cast written around a whole generated expression to the column's
// own type, which the model's expression (without it) would not give back.
func (Dialect) PortableGenerated(typ, text string) bool {
	typ, _, _ = strings.Cut(typ, " GENERATED")
	return !strings.HasSuffix(strings.TrimSuffix(strings.TrimSpace(text), ")"), "::"+strings.ToLower(typ))
}

// RawTypeWhy implements the importer's rawTypeNoter: why a type with a
// neutral type close to it is kept as PostgreSQL's own.
func (Dialect) RawTypeWhy(ct *schema.ColumnType) string {
	switch t := ct.Type.(type) {
	case *schema.JSONType:
		return "json keeps its text as written, which json means elsewhere"
	case *schema.DecimalType:
		return "numeric without a precision, or beyond decimal's 65 digits and scale 30, which the widest decimal holds elsewhere, rounded"
	case *schema.StringType:
		if t.Size > 255 {
			return "char wider than 255, which a varchar holds"
		}
	}
	return ""
}

// FoldIdentity implements the importer's identityFolder: a column numbered
// on PostgreSQL alone keeps its serial type, or its identity clause, in its
// raw type.
func (Dialect) FoldIdentity(raw string) string {
	if strings.Contains(strings.ToLower(raw), "serial") || strings.Contains(strings.ToUpper(raw), " AS IDENTITY") {
		return raw
	}
	return raw + " GENERATED BY DEFAULT AS IDENTITY"
}

// PrimaryKeyName implements dialects.PrimaryKeyNamer: a primary key not
// named <table>_pkey (as PostgreSQL makes it, the table's name cut to fit
// 63 bytes), such as the key of a table renamed since.
func (Dialect) PrimaryKeyName(t *schema.Table) string {
	if t.PrimaryKey == nil || t.PrimaryKey.Name == "" {
		return ""
	}
	table := t.Name
	if len(table)+len("_pkey") > 63 {
		table = table[:63-len("_pkey")]
	}
	if t.PrimaryKey.Name == table+"_pkey" {
		return ""
	}
	return t.PrimaryKey.Name
}

// Partition implements dialects.PartitionReader.
func (Dialect) Partition(t *schema.Table) *compiler.Partition { return atlasdrv.Model(t) }
