package expr

import (
	"fmt"
	"slices"
	"strings"
	"unicode/utf8"

	"github.com/schemagen/schemagen/compiler/expr/parse"
)

var portable = &Reader{
	Grammar: parse.Portable,
	Binary: map[string]Op{
		"=": OpEq, "<>": OpNe, "!=": OpNe, "<": OpLt, "<=": OpLe, ">": OpGt, ">=": OpGe,
		"and": OpAnd, "or": OpOr, "+": OpAdd, "-": OpSub, "*": OpMul, "%": OpMod, "||": OpConcat,
		"like": OpLike, "not like": OpNotLike, "~": OpRegex, "!~": OpNotRegex, "regexp": OpRegex, "not regexp": OpNotRegex,
		"is distinct from": OpDistinct, "is not distinct from": OpNotDistinct,
	},
	Parens: true,
}

// Parse parses src as a portable expression. Nodes carry their offsets in
// src, parentheses are kept as Paren nodes, and errors are *Error.
func Parse(src string) (Node, error) {
	raw, err := parse.Expr(parse.Portable, src)
	if err != nil {
		return nil, err
	}
	return portable.lower(&Read{Text: src}, raw)
}

// Reader gives the terms of a grammar their portable meaning: the portable
// language's own, or that of the expressions one dialect's database reports
// back (Parse with Grammar, then the dialect's rules below).
type Reader struct {
	Grammar *parse.Grammar
	// Binary maps the grammar's binary operators (as TermBinary names them)
	// to portable operators; any other operator is an error.
	Binary map[string]Op
	// Functions maps the dialect's function names to portable functions
	// (see Functions); Call handles the others, or they are errors. Nil
	// keeps every name, for analysis to check.
	Functions map[string]string
	// Call lowers a call of a function that Functions does not name; it
	// returns nil and no error for a function it does not know either.
	Call func(rd *Read, c *parse.Term, args []Node) (Node, error)
	// Cast lowers x cast to typ; without it every cast is an error.
	Cast func(rd *Read, x Node, typ string, at *parse.Term) (Node, error)
	// Not returns the portable form of NOT x, folding forms that the
	// database writes with NOT (NOT (a IS DISTINCT FROM b)); nil keeps NOT.
	Not func(x Node) Node
	// BetweenGroups reads a parenthesised (x >= lo AND x <= hi) that is the
	// left operand of AND as x BETWEEN lo AND hi, and (x < lo OR x > hi) on
	// the left of OR as NOT BETWEEN. PostgreSQL keeps a BETWEEN so, where it
	// flattens a written AND (a AND b) AND c; the AND form would load as
	// another text.
	BetweenGroups bool
	// Finish rewrites the lowered tree before it is analyzed.
	Finish func(rd *Read, n Node) (Node, error)
	// Parens keeps the parentheses written as Paren nodes.
	Parens bool
}

// Read is one expression being read.
type Read struct {
	Text string
	Cols Resolver
	// Unifying is set while Cast reads a cast that is itself an argument
	// of a function whose arguments the database casts to one type
	// (COALESCE): a cast the database added there widens.
	Unifying bool
	unified  map[*parse.Term]bool
}

// Errorf returns an error about the part of the text at which at starts.
func (rd *Read) Errorf(at *parse.Term, format string, args ...any) error {
	off := -1
	if at != nil {
		off = at.Off
	}
	return &Error{Offset: off, End: off + 1, Msg: fmt.Sprintf(format, args...)}
}

// ReadError is an expression a database reports that has no portable form,
// or that cannot be read.
type ReadError struct {
	Text   string // the whole expression as the database reported it
	Offset int    // byte offset of the offending part, -1 when unknown
	Msg    string
}

func (e *ReadError) Error() string {
	if e.Offset < 0 || e.Offset > len(e.Text) {
		return fmt.Sprintf("cannot read expression %q: %s", e.Text, e.Msg)
	}
	near := e.Text[e.Offset:]
	if len(near) > 40 {
		cut := 40
		for cut > 0 && !utf8.RuneStart(near[cut]) {
			cut--
		}
		near = near[:cut] + "…"
	}
	return fmt.Sprintf("cannot read expression %q: %s (at %q)", e.Text, e.Msg, near)
}

// Read parses text and returns its portable, analyzed form, without Paren
// nodes, or a *ReadError naming what has no portable form.
func (r *Reader) Read(text string, cols Resolver) (Node, error) {
	n, err := r.read(text, cols)
	if e, ok := err.(*Error); ok {
		return nil, &ReadError{Text: text, Offset: e.Offset, Msg: e.Msg}
	}
	return n, err
}

func (r *Reader) read(text string, cols Resolver) (Node, error) {
	raw, err := parse.Expr(r.Grammar, text)
	if err != nil {
		return nil, err
	}
	rd := &Read{Text: text, Cols: cols}
	n, err := r.lower(rd, raw)
	if err != nil {
		return nil, err
	}
	if r.Finish != nil {
		if n, err = r.Finish(rd, n); err != nil {
			return nil, err
		}
	}
	n, errs := Analyze(n, cols)
	if len(errs) > 0 {
		msgs := make([]string, len(errs))
		for i, e := range errs {
			msgs[i] = e.Msg
		}
		return nil, &ReadError{Text: text, Offset: -1, Msg: strings.Join(msgs, "; ")}
	}
	return n, nil
}

// lower gives raw its portable meaning; nodes carry raw's offsets.
func (r *Reader) lower(rd *Read, raw *parse.Term) (Node, error) {
	n, err := r.node(rd, raw)
	if err != nil || !r.Parens {
		return n, err
	}
	for i := len(raw.Parens) - 1; i >= 0; i-- {
		n = &Paren{pos(raw.Parens[i]), n}
	}
	return n, nil
}

func (r *Reader) node(rd *Read, raw *parse.Term) (Node, error) {
	at := pos(raw.Off)
	switch raw.Kind {
	case parse.TermColumn:
		return &Column{pos: at, Name: raw.Text, Table: raw.Qual}, nil
	case parse.TermExists:
		q, err := r.lowerSelect(rd, raw.Sub)
		if err != nil {
			return nil, err
		}
		return &Exists{at, q}, nil
	case parse.TermInSelect:
		x, err := r.lower(rd, raw.Args[0])
		if err != nil {
			return nil, err
		}
		q, err := r.lowerSelect(rd, raw.Sub)
		if err != nil {
			return nil, err
		}
		return &InSelect{pos(x.Offset()), x, q, raw.Text == "not in"}, nil
	case parse.TermSubquery:
		q, err := r.lowerSelect(rd, raw.Sub)
		if err != nil {
			return nil, err
		}
		return &Subquery{at, q}, nil
	case parse.TermInterval:
		return readInterval(rd, raw)
	case parse.TermString:
		return &Literal{at, LitString, raw.Text}, nil
	case parse.TermNumber:
		if strings.ContainsAny(raw.Text, "eE") {
			return nil, rd.Errorf(raw, "the number %s has an exponent, which portable expressions do not write", raw.Text)
		}
		v := raw.Text
		if strings.HasPrefix(v, ".") && !r.Grammar.Authored {
			v = "0" + v
		}
		return &Literal{at, LitNumber, v}, nil
	case parse.TermBool:
		return &Literal{at, LitBool, raw.Text}, nil
	case parse.TermNull:
		return &Literal{at, LitNull, ""}, nil
	case parse.TermUnary:
		x, err := r.lower(rd, raw.Args[0])
		if err != nil {
			return nil, err
		}
		switch raw.Text {
		case "not":
			if r.Not != nil {
				return r.Not(x), nil
			}
			return &Not{at, x}, nil
		case "-":
			if lit, ok := x.(*Literal); ok && lit.Kind == LitNumber && !strings.HasPrefix(lit.Value, "-") {
				return &Literal{at, LitNumber, "-" + lit.Value}, nil
			}
			return &Neg{at, x}, nil
		}
		return nil, rd.Errorf(raw, "the prefix operator %s has no portable form", raw.Text)
	case parse.TermBinary:
		if b := r.between(raw); b != nil {
			return r.lower(rd, b)
		}
		op, ok := r.Binary[raw.Text]
		if !ok {
			return nil, rd.Errorf(raw, "the operator %s has no portable form", strings.ToUpper(raw.Text))
		}
		l, err := r.lower(rd, raw.Args[0])
		if err != nil {
			return nil, err
		}
		rr, err := r.lower(rd, raw.Args[1])
		if err != nil {
			return nil, err
		}
		return &Binary{pos(l.Offset()), op, l, rr}, nil
	case parse.TermIsNull:
		x, err := r.lower(rd, raw.Args[0])
		if err != nil {
			return nil, err
		}
		return &IsNull{pos(x.Offset()), x, raw.Text == "is not null"}, nil
	case parse.TermIn:
		args, err := r.lowerAll(rd, raw.Args)
		if err != nil {
			return nil, err
		}
		return &In{pos(args[0].Offset()), args[0], args[1:], raw.Text == "not in"}, nil
	case parse.TermBetween:
		args, err := r.lowerAll(rd, raw.Args)
		if err != nil {
			return nil, err
		}
		return &Between{pos(args[0].Offset()), args[0], args[1], args[2], raw.Text == "not between"}, nil
	case parse.TermCall:
		return r.call(rd, raw)
	case parse.TermCast:
		if r.Cast == nil {
			return nil, rd.Errorf(raw, "casts have no portable form")
		}
		if strings.HasSuffix(raw.Text, "[]") {
			return nil, rd.Errorf(raw, "arrays have no portable form")
		}
		x, err := r.lower(rd, raw.Args[0])
		if err != nil {
			return nil, err
		}
		rd.Unifying = rd.unified[raw]
		defer func() { rd.Unifying = false }()
		return r.Cast(rd, x, raw.Text, raw)
	case parse.TermCase:
		// The database casts the results to one type, as COALESCE's arguments.
		for i, a := range raw.Args {
			if a.Kind == parse.TermCast && (i%2 == 1 || raw.Text == "else" && i == len(raw.Args)-1) {
				if rd.unified == nil {
					rd.unified = map[*parse.Term]bool{}
				}
				rd.unified[a] = true
			}
		}
		args, err := r.lowerAll(rd, raw.Args)
		if err != nil {
			return nil, err
		}
		c := &Case{pos: at}
		if raw.Text == "else" {
			c.Else, args = args[len(args)-1], args[:len(args)-1]
		}
		for i := 0; i+1 < len(args); i += 2 {
			c.Whens = append(c.Whens, When{args[i], args[i+1]})
		}
		return c, nil
	case parse.TermArray:
		return nil, rd.Errorf(raw, "arrays have no portable form")
	case parse.TermQuantified:
		var not bool
		switch raw.Text {
		case "= any":
		case "<> all", "!= all":
			not = true
		default:
			return nil, rd.Errorf(raw, "%s (...) has no portable form", strings.ToUpper(raw.Text))
		}
		x, err := r.lower(rd, raw.Args[0])
		if err != nil {
			return nil, err
		}
		list, err := r.elements(rd, raw.Args[1])
		if err != nil {
			return nil, err
		}
		if len(list) == 0 {
			return nil, rd.Errorf(raw, "a comparison with an empty ARRAY has no portable form")
		}
		return &In{pos(x.Offset()), x, list, not}, nil
	}
	return nil, rd.Errorf(raw, "unexpected expression")
}

// between returns the BETWEEN that t's left operand is, under BetweenGroups.
func (r *Reader) between(t *parse.Term) *parse.Term {
	if !r.BetweenGroups || t.Text != "and" && t.Text != "or" {
		return nil
	}
	l := t.Args[0]
	if !l.Group() || l.Kind != parse.TermBinary || l.Text != t.Text {
		return nil
	}
	lo, hi := l.Args[0], l.Args[1]
	ops, text := [2]string{">=", "<="}, "between"
	if t.Text == "or" {
		ops, text = [2]string{"<", ">"}, "not between"
	}
	if lo.Kind != parse.TermBinary || hi.Kind != parse.TermBinary || lo.Text != ops[0] || hi.Text != ops[1] || !lo.Args[0].Same(hi.Args[0]) {
		return nil
	}
	b := &parse.Term{Kind: parse.TermBetween, Text: text, Args: []*parse.Term{lo.Args[0], lo.Args[1], hi.Args[1]}, Off: l.Off}
	return &parse.Term{Kind: parse.TermBinary, Text: t.Text, Args: []*parse.Term{b, t.Args[1]}, Off: t.Off}
}

func (r *Reader) lowerAll(rd *Read, raws []*parse.Term) ([]Node, error) {
	out := make([]Node, len(raws))
	for i, a := range raws {
		n, err := r.lower(rd, a)
		if err != nil {
			return nil, err
		}
		out[i] = n
	}
	return out, nil
}

// elements lowers the ARRAY[...] of `x = ANY (...)`, cast element by
// element when the array is cast (ARRAY[...]::text[]).
func (r *Reader) elements(rd *Read, raw *parse.Term) ([]Node, error) {
	switch raw.Kind {
	case parse.TermArray:
		return r.lowerAll(rd, raw.Args)
	case parse.TermCast:
		elem, ok := strings.CutSuffix(raw.Text, "[]")
		if !ok || r.Cast == nil {
			break
		}
		list, err := r.elements(rd, raw.Args[0])
		if err != nil {
			return nil, err
		}
		for i, x := range list {
			if list[i], err = r.Cast(rd, x, elem, raw); err != nil {
				return nil, err
			}
		}
		return list, nil
	}
	return nil, rd.Errorf(raw, "ANY and ALL of anything but an ARRAY[...] list have no portable form")
}

func (r *Reader) call(rd *Read, raw *parse.Term) (Node, error) {
	name, known := r.Functions[raw.Text]
	if r.Functions == nil {
		name, known = raw.Text, true
	}
	if !known && r.Call == nil {
		return nil, r.unknownFunction(rd, raw)
	}
	if known && Functions[name].Variadic {
		for _, a := range raw.Args {
			if a.Kind == parse.TermCast {
				if rd.unified == nil {
					rd.unified = map[*parse.Term]bool{}
				}
				rd.unified[a] = true
			}
		}
	}
	args, err := r.lowerAll(rd, raw.Args)
	if err != nil {
		return nil, err
	}
	if known {
		return &Call{pos: pos(raw.Off), Name: name, Args: args}, nil
	}
	n, err := r.Call(rd, raw, args)
	if err != nil {
		return nil, err
	}
	if n == nil {
		return nil, r.unknownFunction(rd, raw)
	}
	return n, nil
}

func (r *Reader) unknownFunction(rd *Read, raw *parse.Term) error {
	var names []string
	for n := range r.Functions {
		names = append(names, n)
	}
	slices.Sort(names)
	return rd.Errorf(raw, "the function %s has no portable form (functions that have one: %s)", raw.Text, strings.Join(names, ", "))
}

// Kind returns the kind of n's value, with columns as rd's resolver tells
// (KindUnknown when unsure).
func (rd *Read) Kind(n Node) Kind {
	switch n := n.(type) {
	case *Column:
		if k, ok := rd.Cols(n.Name); ok {
			return k
		}
	case *Literal:
		switch n.Kind {
		case LitString:
			return KindString
		case LitNumber:
			if strings.Contains(n.Value, ".") {
				return KindNumeric
			}
			return KindInteger
		case LitBool:
			return KindBool
		}
		return KindNull
	case *Neg:
		return rd.Kind(n.X)
	case *Paren:
		return rd.Kind(n.X)
	case *Not, *IsNull, *In, *Between, *JSONType:
		return KindBool
	case *Case:
		for _, x := range n.results() {
			if k := rd.Kind(x); k != KindUnknown && k != KindNull {
				return k
			}
		}
		return KindUnknown
	case *Call:
		if n.Name == "abs" && len(n.Args) == 1 {
			return rd.Kind(n.Args[0])
		}
		if f, ok := Functions[n.Name]; ok && f.Variadic {
			for _, x := range n.Args {
				if k := rd.Kind(x); k != KindUnknown && k != KindNull {
					return k
				}
			}
			return KindUnknown
		}
		if f, ok := Functions[n.Name]; ok {
			return f.Result
		}
	case *Binary:
		switch n.Op {
		case OpAdd, OpSub, OpMul, OpMod:
			l, r := rd.Kind(n.L), rd.Kind(n.R)
			if l == KindUnknown || r == KindUnknown {
				return KindUnknown
			}
			if l == KindNumeric || r == KindNumeric {
				return KindNumeric
			}
			return KindInteger
		case OpConcat:
			return KindString
		}
		return KindBool
	}
	return KindUnknown
}
