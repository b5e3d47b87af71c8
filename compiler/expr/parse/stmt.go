package parse

import (
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
	return &Term{Kind: TermColumn, Text: name, Qual: qual, Off: t.off}, true, nil
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
		if err := p.fromJoins(q); err != nil {
			return nil, err
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
	// From is UPDATE's FROM (its tables and joins; no items), or nil.
	From *SelectTerm
	// Batch is the rows of each batch (BATCH = n), 0 when unbatched.
	Batch, BatchOff int
}

// Stmts reads the statements of a portable data migration, each ended
// by a semicolon (the last one may omit it). Errors are *Error at offsets of
// src.
func Stmts(src string) ([]*StmtTerm, error) {
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
		if p.isWord(0, "from") {
			s.From = &SelectTerm{Off: p.next().off}
			if err := p.fromJoins(s.From); err != nil {
				return nil, err
			}
		}
		if s.Where, err = p.where("", ""); err != nil {
			return nil, err
		}
		if err := p.batch(s); err != nil {
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
		if err := p.batch(s); err != nil {
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
	return &Term{Kind: TermColumn, Text: name, Off: c.off}, nil
}

// where reads the optional WHERE of UPDATE and DELETE, refusing the word
// of the form (UPDATE ... FROM, DELETE ... USING) that joins other tables.
func (p *parser) where(joining, form string) (*Term, error) {
	if joining != "" && p.isWord(0, joining) {
		return nil, p.errAt(p.peek(), "%s has no portable form; use EXISTS or IN (SELECT ...) in WHERE", form)
	}
	if !p.isWord(0, "where") {
		return nil, nil
	}
	p.i++
	return p.expr(0)
}

// fromJoins reads t [alias] {[INNER|LEFT [OUTER]] JOIN t [alias] ON cond}
// after FROM into q.
func (p *parser) fromJoins(q *SelectTerm) error {
	t, err := p.tableRef(true)
	if err != nil {
		return err
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
			return p.errAt(p.peek(), "%s JOIN has no portable form here; write an inner or a left join", strings.ToUpper(p.peek().text))
		case p.peek().kind == tComma:
			return p.errAt(p.peek(), "a list of tables in FROM has no portable form here; write JOIN ... ON")
		default:
			j = nil
		}
		if j == nil {
			break
		}
		if j.Table, err = p.tableRef(true); err != nil {
			return err
		}
		if !p.isWord(0, "on") {
			return p.errAt(p.peek(), "expected ON after the joined table, found %s", p.describe(p.peek()))
		}
		p.i++
		if j.On, err = p.expr(0); err != nil {
			return err
		}
		q.Joins = append(q.Joins, j)
	}
	return nil
}

// batch reads the optional BATCH = n after UPDATE's or DELETE's WHERE.
func (p *parser) batch(s *StmtTerm) error {
	if !p.isWord(0, "batch") {
		return nil
	}
	s.BatchOff = p.next().off
	if t := p.next(); t.kind != tOp || t.text != "=" {
		return p.errAt(t, "expected = after BATCH, found %s", p.describe(t))
	}
	n := p.next()
	v := 0
	for _, c := range n.text {
		if c < '0' || c > '9' || v > 1_000_000 {
			v = -1
			break
		}
		v = v*10 + int(c-'0')
	}
	if n.kind != tNumber || v < 1 || v > 1_000_000 {
		return p.errAt(n, "expected the rows of a batch, a whole number from 1 to 1000000, found %s", p.describe(n))
	}
	s.Batch = v
	return nil
}
