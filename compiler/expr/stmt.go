package expr

import (
	"fmt"
	"strings"
	"unicode/utf8"
)

// MaxMessage is the longest message of an ASSERT: TiDB's error shows no
// more (dialects/tidb renders a guard).
const MaxMessage = 180

// The statements of portable data migrations: INSERT ... SELECT, UPDATE,
// DELETE and ASSERT NOT EXISTS guards, read with the Data grammar (the
// portable expression language with qualified names, subqueries, casts to
// text and now()) and checked against a Catalog of the model's tables.

// Data is the grammar of portable data migrations.
var Data = func() *Grammar {
	g := *Portable
	g.Data = true
	g.Refused = map[string]string{}
	for k, v := range Portable.Refused {
		if k != ":" {
			g.Refused[k] = v
		}
	}
	g.Keywords = map[string]bool{}
	for k := range reserved {
		g.Keywords[k] = true
	}
	for k := range stmtWords {
		g.Keywords[k] = true
	}
	g.Operators = append([]string{"::", ";", "."}, Portable.Operators...)
	g.CastPrec = 8
	return &g
}()

// stmtWords delimit the clauses of statements, so they cannot be names
// unquoted.
var stmtWords = map[string]bool{
	"select": true, "from": true, "where": true, "join": true, "inner": true, "left": true, "right": true,
	"full": true, "cross": true, "outer": true, "on": true, "as": true, "set": true, "insert": true, "into": true,
	"update": true, "delete": true, "assert": true, "message": true, "values": true, "exists": true,
	"order": true, "group": true, "having": true, "limit": true, "union": true, "with": true, "returning": true,
	"case": true, "when": true, "then": true, "else": true, "end": true, "cast": true, "using": true,
}

// SelectTerm is a SELECT as the grammar reads it.
type SelectTerm struct {
	Off   int
	Items []*Term
	From  *TableTerm // nil when there is no FROM
	Joins []*JoinTerm
	Where *Term
}

// TableTerm is a table named in FROM, JOIN or a statement's target.
type TableTerm struct {
	Name, Alias   string
	Off, AliasOff int
}

// JoinTerm is one JOIN of a SELECT.
type JoinTerm struct {
	Left  bool
	Table *TableTerm
	On    *Term
}

// subSelect reads ( SELECT ... ) at the current token.
func (p *parser) subSelect() (*SelectTerm, error) {
	if _, err := p.expect(tLParen, "("); err != nil {
		return nil, err
	}
	if !p.isWord(0, "select") {
		return nil, p.errAt(p.peek(), "expected SELECT, found %s", p.describe(p.peek()))
	}
	q, err := p.selectBody()
	if err != nil {
		return nil, err
	}
	if _, err := p.expect(tRParen, ") after the subquery"); err != nil {
		return nil, err
	}
	return q, nil
}

// qualified reads table.column at t (Data); ok is false when t is not
// followed by a dot.
func (p *parser) qualified(t token) (*Term, bool, error) {
	if n := p.peek(); !p.g.Data || n.kind != tOp || n.text != "." {
		return nil, false, nil
	}
	p.i++
	c := p.next()
	if c.kind != tIdent && c.kind != tQuotedIdent {
		return nil, true, p.errAt(c, "expected a column name after %s., found %s", t.raw, p.describe(c))
	}
	if c.kind == tIdent && p.kw[c.text] {
		return nil, true, p.errAt(c, "expected a column name after %s., found keyword %s; quote the name", t.raw, strings.ToUpper(c.text))
	}
	if n := p.peek(); n.kind == tOp && n.text == "." {
		return nil, true, p.errAt(n, "names qualified by a schema have no portable form: write table.column")
	}
	name := c.text
	if c.kind == tQuotedIdent {
		name = c.raw
	}
	qual := t.text
	if t.kind == tQuotedIdent {
		qual = t.raw
	}
	return &Term{Kind: termColumn, Text: name, Qual: qual, Off: t.off}, true, nil
}

// selectBody reads SELECT items [FROM t [alias] {[INNER|LEFT [OUTER]] JOIN t [alias] ON cond}] [WHERE cond].
func (p *parser) selectBody() (*SelectTerm, error) {
	q := &SelectTerm{Off: p.next().off}
	if p.isWord(0, "distinct") || p.isWord(0, "all") {
		return nil, p.errAt(p.peek(), "SELECT %s has no portable form here", strings.ToUpper(p.peek().text))
	}
	if t := p.peek(); t.kind == tOp && t.text == "*" {
		return nil, p.errAt(t, "SELECT * has no portable form: list the values, in the order of the columns they fill")
	}
	for {
		x, err := p.expr(0)
		if err != nil {
			return nil, err
		}
		q.Items = append(q.Items, x)
		if p.isWord(0, "as") {
			return nil, p.errAt(p.peek(), "column aliases have no use here: INSERT fills its columns in the order of the values")
		}
		if p.peek().kind != tComma {
			break
		}
		p.i++
	}
	if p.isWord(0, "from") {
		p.i++
		t, err := p.tableRef(true)
		if err != nil {
			return nil, err
		}
		q.From = t
		for {
			j := &JoinTerm{}
			switch {
			case p.isWord(0, "join"):
				p.i++
			case p.isWord(0, "inner") && p.isWord(1, "join"):
				p.i += 2
			case p.isWord(0, "left") && p.isWord(1, "join"):
				p.i += 2
				j.Left = true
			case p.isWord(0, "left") && p.isWord(1, "outer") && p.isWord(2, "join"):
				p.i += 3
				j.Left = true
			case p.isWord(0, "right") || p.isWord(0, "full") || p.isWord(0, "cross") || p.isWord(0, "natural"):
				return nil, p.errAt(p.peek(), "%s JOIN has no portable form here; write an inner or a left join", strings.ToUpper(p.peek().text))
			case p.peek().kind == tComma:
				return nil, p.errAt(p.peek(), "a list of tables in FROM has no portable form here; write JOIN ... ON")
			default:
				j = nil
			}
			if j == nil {
				break
			}
			if j.Table, err = p.tableRef(true); err != nil {
				return nil, err
			}
			if !p.isWord(0, "on") {
				return nil, p.errAt(p.peek(), "expected ON after the joined table, found %s", p.describe(p.peek()))
			}
			p.i++
			if j.On, err = p.expr(0); err != nil {
				return nil, err
			}
			q.Joins = append(q.Joins, j)
		}
	}
	if p.isWord(0, "where") {
		p.i++
		w, err := p.expr(0)
		if err != nil {
			return nil, err
		}
		q.Where = w
	}
	for _, w := range []string{"group", "order", "having", "limit", "union", "offset", "for"} {
		if p.isWord(0, w) {
			return nil, p.errAt(p.peek(), "%s has no portable form in data migrations", strings.ToUpper(w))
		}
	}
	return q, nil
}

// tableRef reads a table name and, when alias is set, an optional [AS] alias.
func (p *parser) tableRef(alias bool) (*TableTerm, error) {
	t := p.next()
	if t.kind != tIdent && t.kind != tQuotedIdent || t.kind == tIdent && p.kw[t.text] {
		return nil, p.errAt(t, "expected a table name, found %s", p.describe(t))
	}
	if n := p.peek(); n.kind == tOp && n.text == "." {
		return nil, p.errAt(n, "tables qualified by a schema have no portable form: the migration runs in the env's schema")
	}
	if alias && p.peek().kind == tLParen {
		return nil, p.errAt(t, "table functions have no portable form")
	}
	ref := &TableTerm{Name: t.text, Off: t.off}
	if t.kind == tQuotedIdent {
		ref.Name = t.raw
	}
	if !alias {
		return ref, nil
	}
	as := p.isWord(0, "as")
	if as {
		p.i++
	}
	a := p.peek()
	if a.kind == tQuotedIdent || a.kind == tIdent && !p.kw[a.text] && a.text != "natural" && a.text != "offset" {
		p.i++
		ref.Alias, ref.AliasOff = a.text, a.off
		if a.kind == tQuotedIdent {
			ref.Alias = a.raw
		}
	} else if as {
		return nil, p.errAt(a, "expected an alias after AS, found %s", p.describe(a))
	}
	return ref, nil
}

// StmtTerm is a statement as the grammar reads it.
type StmtTerm struct {
	Kind      string // "insert", "update", "delete" or "assert"
	Off       int
	Table     *TableTerm
	Columns   []*Term // INSERT's columns; UPDATE's assigned columns
	Values    []*Term // UPDATE's values
	Query     *SelectTerm
	DoNothing bool
	Where     *Term
	Message   string
	MsgOff    int
}

// ParseStmts reads the statements of a portable data migration, each ended
// by a semicolon (the last one may omit it). Errors are *Error at offsets of
// src.
func ParseStmts(src string) ([]*StmtTerm, error) {
	l := &lexer{g: Data, src: src}
	if err := l.lex(); err != nil {
		return nil, err
	}
	p := &parser{g: Data, kw: Data.Keywords, toks: l.toks}
	var out []*StmtTerm
	for {
		for p.isSemi() {
			p.i++
		}
		if p.peek().kind == tEOF {
			return out, nil
		}
		s, err := p.stmt()
		if err != nil {
			return nil, err
		}
		out = append(out, s)
		if t := p.peek(); !p.isSemi() && t.kind != tEOF {
			return nil, p.errAt(t, "expected ; after the statement, found %s", p.describe(t))
		}
	}
}

func (p *parser) isSemi() bool { t := p.peek(); return t.kind == tOp && t.text == ";" }

func (p *parser) word(w string) error {
	if !p.isWord(0, w) {
		return p.errAt(p.peek(), "expected %s, found %s", strings.ToUpper(w), p.describe(p.peek()))
	}
	p.i++
	return nil
}

func (p *parser) stmt() (*StmtTerm, error) {
	t := p.peek()
	s := &StmtTerm{Off: t.off}
	var err error
	switch {
	case p.isWord(0, "insert"):
		s.Kind = "insert"
		p.i++
		if err := p.word("into"); err != nil {
			return nil, err
		}
		if s.Table, err = p.tableRef(false); err != nil {
			return nil, err
		}
		if p.peek().kind != tLParen {
			return nil, p.errAt(p.peek(), "expected ( and the columns to fill, found %s", p.describe(p.peek()))
		}
		p.i++
		for {
			c, err := p.columnName()
			if err != nil {
				return nil, err
			}
			s.Columns = append(s.Columns, c)
			n := p.next()
			if n.kind == tRParen {
				break
			}
			if n.kind != tComma {
				return nil, p.errAt(n, "expected , or ) in the column list, found %s", p.describe(n))
			}
		}
		if p.isWord(0, "values") {
			return nil, p.errAt(p.peek(), "INSERT ... VALUES has no place in a data migration here; write INSERT ... SELECT")
		}
		if !p.isWord(0, "select") {
			return nil, p.errAt(p.peek(), "expected SELECT, found %s", p.describe(p.peek()))
		}
		if s.Query, err = p.selectBody(); err != nil {
			return nil, err
		}
		if p.isWord(0, "on") {
			p.i++
			if !p.isWord(0, "conflict") {
				return nil, p.errAt(p.peek(), "expected CONFLICT DO NOTHING after ON, found %s", p.describe(p.peek()))
			}
			p.i++
			if p.peek().kind == tLParen {
				return nil, p.errAt(p.peek(), "a conflict target has no portable form: ON CONFLICT DO NOTHING skips rows that duplicate any unique key")
			}
			if err := p.word("do"); err != nil {
				return nil, err
			}
			if p.isWord(0, "update") {
				return nil, p.errAt(p.peek(), "ON CONFLICT DO UPDATE has no portable form; write DO NOTHING, then an UPDATE")
			}
			if err := p.word("nothing"); err != nil {
				return nil, err
			}
			s.DoNothing = true
		}
	case p.isWord(0, "update"):
		s.Kind = "update"
		p.i++
		if s.Table, err = p.tableRef(false); err != nil {
			return nil, err
		}
		if !p.isWord(0, "set") {
			return nil, p.errAt(p.peek(), "expected SET, found %s (the target of UPDATE takes no alias: qualify its columns with the table's name)", p.describe(p.peek()))
		}
		p.i++
		for {
			c, err := p.columnName()
			if err != nil {
				return nil, err
			}
			if n := p.peek(); n.kind == tOp && n.text == "." {
				return nil, p.errAt(n, "write the assigned column without a table name")
			}
			if n := p.next(); n.kind != tOp || n.text != "=" {
				return nil, p.errAt(n, "expected = after the column, found %s", p.describe(n))
			}
			v, err := p.expr(0)
			if err != nil {
				return nil, err
			}
			s.Columns = append(s.Columns, c)
			s.Values = append(s.Values, v)
			if p.peek().kind != tComma {
				break
			}
			p.i++
		}
		if s.Where, err = p.where("from", "UPDATE ... FROM"); err != nil {
			return nil, err
		}
	case p.isWord(0, "delete"):
		s.Kind = "delete"
		p.i++
		if err := p.word("from"); err != nil {
			return nil, err
		}
		if s.Table, err = p.tableRef(false); err != nil {
			return nil, err
		}
		if s.Where, err = p.where("using", "DELETE ... USING"); err != nil {
			return nil, err
		}
	case p.isWord(0, "assert"):
		s.Kind = "assert"
		p.i++
		if err := p.word("not"); err != nil {
			return nil, err
		}
		if err := p.word("exists"); err != nil {
			return nil, err
		}
		if s.Query, err = p.subSelect(); err != nil {
			return nil, err
		}
		if err := p.word("message"); err != nil {
			return nil, err
		}
		m := p.next()
		if m.kind != tString {
			return nil, p.errAt(m, "expected the message as a string, found %s", p.describe(m))
		}
		if strings.TrimSpace(m.text) == "" {
			return nil, p.errAt(m, "the message is empty; say what is wrong with the rows found")
		}
		if n := utf8.RuneCountInString(m.text); n > MaxMessage {
			return nil, p.errAt(m, "the message has %d characters; TiDB's error shows %d, so shorten it", n, MaxMessage)
		}
		s.Message, s.MsgOff = m.text, m.off
	default:
		if t.kind == tIdent {
			switch t.text {
			case "select", "create", "alter", "drop", "truncate", "merge", "replace", "with", "do", "begin", "commit", "set", "grant":
				return nil, p.errAt(t, "%s has no place in a portable data migration: it holds INSERT ... SELECT, UPDATE, DELETE and ASSERT NOT EXISTS (SELECT ...) MESSAGE '...'; schema changes come from schema.hcl", strings.ToUpper(t.text))
			}
		}
		return nil, p.errAt(t, "expected INSERT, UPDATE, DELETE or ASSERT, found %s", p.describe(t))
	}
	return s, nil
}

// columnName reads the name of a column of the statement's target.
func (p *parser) columnName() (*Term, error) {
	c := p.next()
	if c.kind != tIdent && c.kind != tQuotedIdent || c.kind == tIdent && p.kw[c.text] {
		return nil, p.errAt(c, "expected a column name, found %s", p.describe(c))
	}
	name := c.text
	if c.kind == tQuotedIdent {
		name = c.raw
	}
	return &Term{Kind: termColumn, Text: name, Off: c.off}, nil
}

// where reads the optional WHERE of UPDATE and DELETE, refusing the word
// of the form (UPDATE ... FROM, DELETE ... USING) that joins other tables.
func (p *parser) where(joining, form string) (*Term, error) {
	if p.isWord(0, joining) {
		return nil, p.errAt(p.peek(), "%s has no portable form; use EXISTS or IN (SELECT ...) in WHERE", form)
	}
	if !p.isWord(0, "where") {
		return nil, nil
	}
	p.i++
	return p.expr(0)
}

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

// Cast is a cast of X to text.
type Cast struct {
	pos
	X Node
}

func (*Exists) node()   {}
func (*InSelect) node() {}
func (*Cast) node()     {}

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

// Update is UPDATE Table SET ... [WHERE ...].
type Update struct {
	pos
	Table *TableRef
	Set   []Assign
	Where Node
}

// Delete is DELETE FROM Table [WHERE ...].
type Delete struct {
	pos
	Table *TableRef
	Where Node
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
	r.Cast = func(rd *Read, x Node, typ string, at *Term) (Node, error) {
		switch typ {
		case "text":
			return &Cast{pos(at.Off), x}, nil
		}
		return nil, rd.Errorf(at, "a cast to %s has no portable form; data migrations cast only to text (x::text, CAST(x AS text)), and values take their columns' types", typ)
	}
	return &r
}()

// LowerStmts gives statements read by ParseStmts their portable form.
func LowerStmts(src string, raws []*StmtTerm) ([]Stmt, error) {
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

func (r *Reader) lowerStmt(rd *Read, s *StmtTerm) (Stmt, error) {
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
		u := &Update{pos: at, Table: table, Where: where}
		for i, c := range cols {
			v, err := r.lower(rd, s.Values[i])
			if err != nil {
				return nil, err
			}
			u.Set = append(u.Set, Assign{c, v})
		}
		return u, nil
	case "delete":
		return &Delete{at, table, where}, nil
	}
	q, err := r.lowerSelect(rd, s.Query)
	if err != nil {
		return nil, err
	}
	return &Assert{at, q, s.Message}, nil
}

func lowerTable(t *TableTerm) *TableRef {
	return &TableRef{pos: pos(t.Off), Name: t.Name, Alias: t.Alias, AliasOff: t.AliasOff}
}

func (r *Reader) lowerSelect(rd *Read, q *SelectTerm) (*Select, error) {
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
	raws, err := ParseStmts(src)
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
	a := &analyzer{cat: cat, data: true}
	for _, s := range stmts {
		a.stmt(s)
	}
	return a.errs
}

func (a *analyzer) errAt(off int, format string, args ...any) {
	a.errs = append(a.errs, &Error{off, off + 1, fmt.Sprintf(format, args...)})
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
	q.Kinds = make([]Kind, len(q.Items))
	for i := range q.Items {
		q.Items[i], q.Kinds[i] = a.value(q.Items[i])
	}
	q.Where = a.cond(q.Where, "WHERE")
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
			as.Column.Kind = col.Kind
			a.assignable(as.Value, k, col, t.Name)
		}
		s.Where = a.cond(s.Where, "WHERE")
	case *Delete:
		defer a.target(s.Table)()
		if len(a.sc.tables) == 0 {
			return
		}
		s.Where = a.cond(s.Where, "WHERE")
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
	if v, number, ok := constant(x); ok && col.Fits != nil && (number && isNumber(k) && isNumber(col.Kind) || !number && col.Kind == KindString) {
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
