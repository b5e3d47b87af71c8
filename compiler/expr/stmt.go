package expr

import (
	"fmt"
	"slices"
	"strconv"
	"strings"

	"github.com/schemagen/schemagen/compiler/expr/parse"
)

// Stmt is a portable data statement.
type Stmt interface {
	Offset() int
	stmt()
}

// TableRef is a table a statement names, with its alias ("" when none).
type TableRef struct {
	pos
	Name, Alias string
	AliasOff    int
}

// Ref is the name that qualifies the table's columns.
func (t *TableRef) Ref() string {
	if t.Alias != "" {
		return t.Alias
	}
	return t.Name
}

// Join is a JOIN of a Select.
type Join struct {
	Left  bool
	Table *TableRef
	On    Node
}

// Select is a query: of INSERT, of a guard, or a subquery.
type Select struct {
	pos
	Items []Node
	From  *TableRef // nil: no FROM
	Joins []*Join
	Where Node
	// Kinds are the kinds of Items, filled in by analysis.
	Kinds []Kind
}

// Exists is EXISTS (Sub); NOT EXISTS is a Not of it.
type Exists struct {
	pos
	Sub *Select
}

// InSelect is X [NOT] IN (Sub).
type InSelect struct {
	pos
	X   Node
	Sub *Select
	Not bool
}

// Cast is a cast of X to a type of the model: to text when To is
// KindString or unset, else to To (Type is decimal(p,s)'s text, or "").
type Cast struct {
	pos
	X    Node
	To   Kind
	Type string
}

// Subquery is a scalar subquery: the one value of its one row, NULL when
// it finds none; more than one row is an error on both databases.
type Subquery struct {
	pos
	Sub *Select
}

// Interval is INTERVAL 'n unit', added to or subtracted from a timestamp.
// N is a signed whole number; Unit one of IntervalUnits.
type Interval struct {
	pos
	N    int64
	Unit string
}

// IntervalUnits are the units of intervals, singular.
var IntervalUnits = []string{"microsecond", "second", "minute", "hour", "day", "week", "month", "year"}

func (*Exists) node()   {}
func (*InSelect) node() {}
func (*Cast) node()     {}
func (*Subquery) node() {}
func (*Interval) node() {}

// Insert is INSERT INTO Table (Columns) Query [ON CONFLICT DO NOTHING].
type Insert struct {
	pos
	Table     *TableRef
	Columns   []*Column
	Query     *Select
	DoNothing bool
}

// Assign is one column = value of an UPDATE.
type Assign struct {
	Column *Column
	Value  Node
}

// Update is UPDATE Table SET ... [FROM ...] [WHERE ...] [BATCH = n].
type Update struct {
	pos
	Table *TableRef
	Set   []Assign
	// From holds the tables of UPDATE ... FROM (no items), or is nil. Each
	// of its tables meets at most one row per row of Table (checked).
	From  *Select
	Where Node
	// Batch is the rows of each batch, 0 when unbatched; BatchOff its offset.
	Batch, BatchOff int
}

// Delete is DELETE FROM Table [WHERE ...] [BATCH = n].
type Delete struct {
	pos
	Table           *TableRef
	Where           Node
	Batch, BatchOff int
}

// Assert is ASSERT NOT EXISTS (Query) MESSAGE 'Message': the migration
// fails with Message when Query finds a row.
type Assert struct {
	pos
	Query   *Select
	Message string
}

func (*Insert) stmt() {}
func (*Update) stmt() {}
func (*Delete) stmt() {}
func (*Assert) stmt() {}

// data gives the Data grammar's terms their portable meaning.
var data = func() *Reader {
	r := *portable
	r.Cast = func(rd *Read, x Node, typ string, at *parse.Term) (Node, error) {
		c := &Cast{pos: pos(at.Off), X: x, To: KindString}
		switch base, _, _ := strings.Cut(typ, "("); base {
		case "text", "varchar", "character varying":
			if base != "text" {
				return nil, rd.Errorf(at, "a cast to %s has no portable form; cast to text (the lengths of varchar are checked where a value fills a column)", typ)
			}
		case "integer", "int", "int4":
			c.To, c.Type = KindInteger, "integer"
		case "bigint", "int8":
			c.To, c.Type = KindInteger, "bigint"
		case "smallint", "int2":
			c.To, c.Type = KindInteger, "smallint"
		case "decimal", "numeric":
			c.To, c.Type = KindNumeric, typ
		case "date":
			c.To = KindDate
		case "timestamp", "timestamptz", "timestamp with time zone":
			c.To = KindTime
		default:
			return nil, rd.Errorf(at, "a cast to %s has no portable form; data migrations cast to text, integer, bigint, decimal(p,s), date and timestamp", typ)
		}
		return c, nil
	}
	return &r
}()

// LowerStmts gives statements read by parse.Stmts their portable form.
func LowerStmts(src string, raws []*parse.StmtTerm) ([]Stmt, error) {
	rd := &Read{Text: src}
	out := make([]Stmt, 0, len(raws))
	for _, s := range raws {
		st, err := data.lowerStmt(rd, s)
		if err != nil {
			return nil, err
		}
		out = append(out, st)
	}
	return out, nil
}

func (r *Reader) lowerStmt(rd *Read, s *parse.StmtTerm) (Stmt, error) {
	at := pos(s.Off)
	var table *TableRef
	if s.Table != nil {
		table = lowerTable(s.Table)
	}
	cols := make([]*Column, len(s.Columns))
	for i, c := range s.Columns {
		cols[i] = &Column{pos: pos(c.Off), Name: c.Text}
	}
	var where Node
	if s.Where != nil {
		w, err := r.lower(rd, s.Where)
		if err != nil {
			return nil, err
		}
		where = w
	}
	switch s.Kind {
	case "insert":
		q, err := r.lowerSelect(rd, s.Query)
		if err != nil {
			return nil, err
		}
		return &Insert{at, table, cols, q, s.DoNothing}, nil
	case "update":
		u := &Update{pos: at, Table: table, Where: where, Batch: s.Batch, BatchOff: s.BatchOff}
		if s.From != nil {
			f, err := r.lowerSelect(rd, s.From)
			if err != nil {
				return nil, err
			}
			u.From = f
		}
		for i, c := range cols {
			v, err := r.lower(rd, s.Values[i])
			if err != nil {
				return nil, err
			}
			u.Set = append(u.Set, Assign{c, v})
		}
		return u, nil
	case "delete":
		return &Delete{at, table, where, s.Batch, s.BatchOff}, nil
	}
	q, err := r.lowerSelect(rd, s.Query)
	if err != nil {
		return nil, err
	}
	return &Assert{at, q, s.Message}, nil
}

func lowerTable(t *parse.TableTerm) *TableRef {
	return &TableRef{pos: pos(t.Off), Name: t.Name, Alias: t.Alias, AliasOff: t.AliasOff}
}

func (r *Reader) lowerSelect(rd *Read, q *parse.SelectTerm) (*Select, error) {
	s := &Select{pos: pos(q.Off)}
	var err error
	if s.Items, err = r.lowerAll(rd, q.Items); err != nil {
		return nil, err
	}
	if q.From != nil {
		s.From = lowerTable(q.From)
	}
	for _, j := range q.Joins {
		on, err := r.lower(rd, j.On)
		if err != nil {
			return nil, err
		}
		s.Joins = append(s.Joins, &Join{j.Left, lowerTable(j.Table), on})
	}
	if q.Where != nil {
		if s.Where, err = r.lower(rd, q.Where); err != nil {
			return nil, err
		}
	}
	return s, nil
}

// ReadStmts parses and lowers a portable data migration.
func ReadStmts(src string) ([]Stmt, error) {
	raws, err := parse.Stmts(src)
	if err != nil {
		return nil, err
	}
	return LowerStmts(src, raws)
}

// CatalogTable is what data statements may know of a table.
type CatalogTable struct {
	Name    string
	Columns []CatalogColumn
	// Key is the primary key's columns.
	Key []string
	// Uniques are the columns of the other unique keys (constraints and
	// unique indexes over columns, without a predicate).
	Uniques [][]string
}

// CatalogColumn is a column of a CatalogTable.
type CatalogColumn struct {
	Name string
	Kind Kind
	// Type is the column's type as the model writes it, for messages.
	Type string
	// Fits says why a constant (a number's text, with its sign, or a
	// string's value) is not a value of the column's type that both
	// databases store alike, or "" when it is one; nil: any value of its
	// kind is.
	Fits func(value string, number bool) string
	// Generated: a generated column, which both databases refuse to write
	// (PostgreSQL 428C9, TiDB 3105).
	Generated bool
}

// Column returns the column named name, or nil.
func (t *CatalogTable) Column(name string) *CatalogColumn {
	for i := range t.Columns {
		if t.Columns[i].Name == name {
			return &t.Columns[i]
		}
	}
	return nil
}

// Catalog returns the table named name, or nil.
type Catalog func(name string) *CatalogTable

// scope is the tables a query sees: its own, then its outer query's.
type scope struct {
	outer  *scope
	tables []scopeTable
}

type scopeTable struct {
	ref   *TableRef
	table *CatalogTable
}

// AnalyzeStmts checks statements against the catalog: tables and columns
// exist, names are not ambiguous, values have the kinds of the columns they
// fill, and the constructs have the same meaning on every dialect.
func AnalyzeStmts(stmts []Stmt, cat Catalog) []*Error {
	if DataChecks.Call == nil {
		panic("compiler/expr: data statements are analyzed with package compiler/expr/datacheck linked in")
	}
	a := &analyzer{cat: cat, data: true}
	for _, s := range stmts {
		a.stmt(s)
	}
	return a.errs
}

func (a *analyzer) errAt(off int, format string, args ...any) {
	a.errs = append(a.errs, &Error{Offset: off, End: off + 1, Msg: fmt.Sprintf(format, args...)})
}

// table resolves a table reference and adds it to sc.
func (a *analyzer) table(sc *scope, ref *TableRef) bool {
	t := a.cat(ref.Name)
	if t == nil {
		a.errAt(ref.Offset(), "unknown table %q", ref.Name)
		return false
	}
	for _, o := range sc.tables {
		if o.ref.Ref() == ref.Ref() {
			off := ref.AliasOff
			if ref.Alias == "" {
				off = ref.Offset()
			}
			a.errAt(off, "the name %q is given to two tables of one query; give one an alias", ref.Ref())
			return false
		}
	}
	sc.tables = append(sc.tables, scopeTable{ref, t})
	return true
}

// resolve finds the column c in the scopes.
func (a *analyzer) resolve(c *Column) (Kind, bool) {
	for sc := a.sc; sc != nil; sc = sc.outer {
		var found *CatalogColumn
		var in *TableRef
		for _, t := range sc.tables {
			if c.Table != "" && t.ref.Ref() != c.Table {
				continue
			}
			if c.Table != "" {
				col := t.table.Column(c.Name)
				if col == nil {
					a.errorf(c, "unknown column %q in table %q%s", c.Name, t.table.Name, aliasNote(t.ref))
					return KindUnknown, false
				}
				return col.Kind, true
			}
			if col := t.table.Column(c.Name); col != nil {
				if found != nil {
					a.errorf(c, "the column %q is ambiguous: both %q and %q have it; qualify it, as in %s.%s", c.Name, in.Ref(), t.ref.Ref(), t.ref.Ref(), c.Name)
					return KindUnknown, false
				}
				found, in = col, t.ref
			}
		}
		if found != nil {
			return found.Kind, true
		}
	}
	if c.Table != "" {
		a.errorf(c, "unknown table or alias %q: the query names %s", c.Table, a.visible())
	} else {
		a.errorf(c, "unknown column %q: no table of the query (%s) has it", c.Name, a.visible())
	}
	return KindUnknown, false
}

func aliasNote(t *TableRef) string {
	if t.Alias == "" {
		return ""
	}
	return fmt.Sprintf(" (alias %s)", t.Alias)
}

func (a *analyzer) visible() string {
	var names []string
	for sc := a.sc; sc != nil; sc = sc.outer {
		for _, t := range sc.tables {
			names = append(names, t.ref.Ref())
		}
	}
	if len(names) == 0 {
		return "no tables"
	}
	return strings.Join(names, ", ")
}

// cond checks a WHERE, ON or WHEN condition.
func (a *analyzer) cond(n Node, what string) Node {
	if n == nil {
		return nil
	}
	n = a.rewrite(n)
	a.want(n, KindBool, what)
	return n
}

func (a *analyzer) value(n Node) (Node, Kind) {
	n = a.rewrite(n)
	return n, a.kind(n)
}

// query checks a SELECT in a new scope below the current one.
func (a *analyzer) query(q *Select) {
	outer := a.sc
	a.sc = &scope{outer: outer}
	defer func() { a.sc = outer }()
	if q.From != nil {
		a.table(a.sc, q.From)
	}
	for _, j := range q.Joins {
		a.table(a.sc, j.Table)
		j.On = a.cond(j.On, "ON")
	}
	scalar := a.scalar == q
	a.scalar = nil
	q.Kinds = make([]Kind, len(q.Items))
	for i := range q.Items {
		q.Items[i], q.Kinds[i] = a.value(q.Items[i])
	}
	q.Where = a.cond(q.Where, "WHERE")
	if scalar {
		DataChecks.Scalar(a, q)
	}
}

func (a *analyzer) stmt(s Stmt) {
	switch s := s.(type) {
	case *Insert:
		t := a.cat(s.Table.Name)
		if t == nil {
			a.errAt(s.Table.Offset(), "unknown table %q", s.Table.Name)
		}
		a.query(s.Query)
		if len(s.Query.Items) != len(s.Columns) {
			a.errAt(s.Query.Offset(), "the SELECT gives %d value(s) for %d column(s)", len(s.Query.Items), len(s.Columns))
		}
		seen := map[string]bool{}
		for i, c := range s.Columns {
			if seen[c.Name] {
				a.errorf(c, "the column %q is listed twice", c.Name)
			}
			seen[c.Name] = true
			if t == nil {
				continue
			}
			col := t.Column(c.Name)
			if col == nil {
				a.errorf(c, "unknown column %q in table %q", c.Name, t.Name)
				continue
			}
			c.Kind = col.Kind
			if col.Generated {
				a.errorf(c, "the column %q of table %q is generated: the database computes it, and both refuse a value for it", c.Name, t.Name)
			}
			if i < len(s.Query.Items) {
				a.assignable(s.Query.Items[i], s.Query.Kinds[i], col, t.Name)
			}
		}
	case *Update:
		defer a.target(s.Table)()
		if len(a.sc.tables) == 0 {
			return
		}
		t := a.sc.tables[0].table
		if s.From != nil {
			a.from(s)
		}
		assigned := map[string]bool{}
		for i := range s.Set {
			as := &s.Set[i]
			col := t.Column(as.Column.Name)
			var k Kind
			as.Value, k = a.value(as.Value)
			// TiDB, as MySQL, evaluates assignments left to right, reading
			// the values assigned before; PostgreSQL reads the old row.
			if col == nil {
				a.errorf(as.Column, "unknown column %q in table %q", as.Column.Name, t.Name)
				continue
			}
			if assigned[col.Name] {
				a.errorf(as.Column, "the column %q is assigned twice", col.Name)
			}
			assigned[col.Name] = true
			if col.Generated {
				a.errorf(as.Column, "the column %q of table %q is generated: the database computes it, and both refuse to set it", col.Name, t.Name)
			}
			as.Column.Kind = col.Kind
			a.assignable(as.Value, k, col, t.Name)
		}
		s.Where = a.cond(s.Where, "WHERE")
		if s.From != nil {
			DataChecks.Pinned(a, s)
		}
		if s.Batch > 0 {
			DataChecks.Batch(a, s.Table, s.Batch, s.BatchOff, s.Set)
		}
	case *Delete:
		defer a.target(s.Table)()
		if len(a.sc.tables) == 0 {
			return
		}
		s.Where = a.cond(s.Where, "WHERE")
		if s.Batch > 0 {
			DataChecks.Batch(a, s.Table, s.Batch, s.BatchOff, nil)
		}
	case *Assert:
		a.query(s.Query)
	}
}

// target opens the scope of UPDATE's or DELETE's table, which holds the
// table when it exists, and returns what closes it.
func (a *analyzer) target(t *TableRef) func() {
	outer := a.sc
	a.sc = &scope{}
	a.table(a.sc, t)
	return func() { a.sc = outer }
}

// assignable checks that a value of kind k (the expression x) may fill col.
func (a *analyzer) assignable(x Node, k Kind, col *CatalogColumn, table string) {
	if k == KindUnknown || k == KindNull {
		return
	}
	// PostgreSQL converts a constant to the column's type when it plans
	// the statement, TiDB each row it writes: a constant that does not fit
	// would fail on PostgreSQL alone when no row is written.
	if v, number, ok := constant(x); ok && col.Fits != nil && (number && isNumber(k) && isNumber(col.Kind) || !number && (col.Kind == KindString || col.Kind == KindEnum)) {
		if msg := col.Fits(v, number); msg != "" {
			a.errorf(x, "the value does not fit %s.%s (%s): %s", table, col.Name, col.Type, strings.TrimSuffix(msg, "."))
			return
		}
	}
	if lit, ok := Unparen(x).(*Literal); ok && lit.Kind == LitString {
		switch col.Kind {
		case KindString, KindUUID, KindTime, KindDate, KindClock, KindEnum:
			a.literalOf(x, col.Kind)
			return
		}
	}
	ok := k == col.Kind || isNumber(k) && col.Kind == KindNumeric || k == KindInteger && col.Kind == KindInteger
	if col.Kind == KindString && k == KindUUID {
		ok = true
	}
	if !ok {
		hint := ""
		if col.Kind == KindString {
			hint = "; cast it with ::text"
		}
		if col.Kind == KindInteger && k == KindNumeric {
			hint = ": the databases round differently"
		}
		a.errorf(x, "type mismatch: %s.%s is %s, the value is %s%s", table, col.Name, col.Kind, k, hint)
	}
}

// constant returns the value of x when it is a literal number (with its
// sign) or string.
func constant(x Node) (value string, number, ok bool) {
	switch n := Unparen(x).(type) {
	case *Literal:
		switch n.Kind {
		case LitNumber:
			return n.Value, true, true
		case LitString:
			return n.Value, false, true
		}
	case *Neg:
		if v, number, ok := constant(n.X); ok && number && !strings.HasPrefix(v, "-") {
			return "-" + v, true, true
		}
	}
	return "", false, false
}

// readInterval reads INTERVAL 'n unit' (n a whole number, possibly
// negative; unit singular or plural).
func readInterval(rd *Read, raw *parse.Term) (Node, error) {
	f := strings.Fields(strings.ToLower(raw.Text))
	bad := func() (Node, error) {
		return nil, rd.Errorf(raw, "INTERVAL '%s' has no portable form; write INTERVAL 'n unit' with a whole number n and one of the units %s", raw.Text, strings.Join(IntervalUnits, ", "))
	}
	if len(f) != 2 {
		return bad()
	}
	n, err := strconv.ParseInt(f[0], 10, 32)
	if err != nil {
		return bad()
	}
	unit := strings.TrimSuffix(f[1], "s")
	if !slices.Contains(IntervalUnits, unit) {
		return bad()
	}
	// At most 9999 years: PostgreSQL's timestamps end in year 294276.
	if limit := map[string]int64{"year": 9999, "month": 119988, "week": 521775, "day": 3652425, "hour": 87658200}[unit]; limit > 0 && (n > limit || n < -limit) {
		return nil, rd.Errorf(raw, "INTERVAL '%s' is longer than 9999 years, beyond every timestamp both databases hold", raw.Text)
	}
	return &Interval{pos(raw.Off), n, unit}, nil
}
