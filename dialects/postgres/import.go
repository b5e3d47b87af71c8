package postgres

import (
	"context"
	"fmt"
	"regexp"
	"strings"

	"ariga.io/atlas/sql/postgres"
	"ariga.io/atlas/sql/schema"

	"github.com/schemagen/schemagen/compiler"
	"github.com/schemagen/schemagen/dialects/internal/sqltext"
)

// NeutralType implements dialects.Importer.
func (Dialect) NeutralType(ct *schema.ColumnType) (compiler.Type, string, bool) {
	raw := postgresType(ct)
	switch t := ct.Type.(type) {
	case *schema.UUIDType:
		return compiler.Type{Kind: compiler.TypeUUID}, raw, true
	case *schema.StringType:
		switch t.T {
		case "text":
			return compiler.Type{Kind: compiler.TypeText}, raw, true
		case "character varying", "varchar":
			if t.Size > 0 {
				return compiler.Type{Kind: compiler.TypeVarchar, Args: []int{t.Size}}, raw, true
			}
		case "character", "char", "bpchar":
			if t.Size > 0 && t.Size <= 255 {
				return compiler.Type{Kind: compiler.TypeChar, Args: []int{t.Size}}, raw, true
			}
			if t.Size > 255 {
				// Wider than TiDB's CHAR: a varchar holds the values.
				return compiler.Type{Kind: compiler.TypeVarchar, Args: []int{t.Size}}, raw, false
			}
		}
	case *schema.IntegerType:
		switch t.T {
		case "smallint":
			return compiler.Type{Kind: compiler.TypeSmallint}, raw, true
		case "integer":
			return compiler.Type{Kind: compiler.TypeInt}, raw, true
		case "bigint":
			return compiler.Type{Kind: compiler.TypeBigint}, raw, true
		}
	case *schema.BoolType:
		return compiler.Type{Kind: compiler.TypeBool}, raw, true
	case *schema.FloatType:
		switch t.T {
		case "double precision":
			return compiler.Type{Kind: compiler.TypeDouble}, raw, true
		case "real":
			return compiler.Type{Kind: compiler.TypeFloat}, raw, true
		}
	case *schema.DecimalType:
		if t.Precision > 0 && t.Precision <= 65 && t.Scale <= 30 {
			return compiler.Type{Kind: compiler.TypeDecimal, Args: []int{t.Precision, t.Scale}}, raw, true
		}
		// numeric without precision, or wider than the model's decimal:
		// the widest decimal elsewhere, which rounds what it cannot hold.
		return compiler.Type{Kind: compiler.TypeDecimal, Args: []int{65, 30}}, raw, false
	case *schema.TimeType:
		switch t.T {
		case "timestamp with time zone", "timestamptz":
			if t.Precision == nil || *t.Precision == 6 {
				return compiler.Type{Kind: compiler.TypeTimestamp}, raw, true
			}
			return compiler.Type{Kind: compiler.TypeTimestamp, Args: []int{*t.Precision}}, raw, true
		case "timestamp without time zone", "timestamp":
			if t.Precision == nil || *t.Precision == 6 {
				return compiler.Type{Kind: compiler.TypeDatetime}, raw, true
			}
			return compiler.Type{Kind: compiler.TypeDatetime, Args: []int{*t.Precision}}, raw, true
		case "time without time zone", "time":
			if t.Precision == nil || *t.Precision == 6 {
				return compiler.Type{Kind: compiler.TypeTime}, raw, true
			}
			return compiler.Type{Kind: compiler.TypeTime, Args: []int{*t.Precision}}, raw, true
		case "date":
			return compiler.Type{Kind: compiler.TypeDate}, raw, true
		}
	case *schema.JSONType:
		if t.T == "jsonb" {
			return compiler.Type{Kind: compiler.TypeJSON}, raw, true
		}
		// json keeps its text as written; elsewhere it is json.
		return compiler.Type{Kind: compiler.TypeJSON}, raw, false
	case *schema.BinaryType:
		if t.T == "bytea" {
			return compiler.Type{Kind: compiler.TypeBytes}, raw, true
		}
	}
	if t, ok := ct.Type.(*postgres.SerialType); ok {
		// The integer, which Identity makes an identity; the serial type
		// stays PostgreSQL's override, so that the database keeps its
		// sequence default.
		switch t.T {
		case "smallserial", "serial2":
			return compiler.Type{Kind: compiler.TypeSmallint}, raw, false
		case "serial", "serial4":
			return compiler.Type{Kind: compiler.TypeInt}, raw, false
		case "bigserial", "serial8":
			return compiler.Type{Kind: compiler.TypeBigint}, raw, false
		}
	}
	if t, ok := sqltext.VectorType(raw); ok {
		return t, raw, true
	}
	return compiler.Type{}, raw, false
}

// postgresType spells an inspected type as PostgreSQL does.
func postgresType(ct *schema.ColumnType) string {
	if s, err := postgres.FormatType(ct.Type); err == nil && s != "" {
		return s
	}
	return ct.Raw
}

var (
	castLiteral = regexp.MustCompile(`^'((?:[^']|'')*)'(?:::[a-z ]+(?:\(\d+\))?)?$`)
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
		if trigger == OnUpdateName(table) && fn == trigger && setsOnUpdate(t, src, def) {
			continue
		}
		// Not one schemagen makes: import keeps it as a raw block
		// (ReadRawObjects).
	}
	return notes, rows.Err()
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
	stmts := onUpdate(t)
	if len(stmts) == 2 && strings.Contains(stmts[0], "$$"+src+"$$") && triggerDef.MatchString(def) {
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
