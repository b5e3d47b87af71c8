package sqltext

import (
	"fmt"
	"slices"
	"strings"

	"github.com/schemagen/schemagen/compiler/expr"
)

// Reader reads the expressions one dialect's database reports back into
// portable expressions: ParseTerm with Grammar, then the dialect's rules below.
type Reader struct {
	Grammar *Grammar
	// Binary maps the dialect's binary operators (as TermBinary names them)
	// to portable operators; any other operator is an error.
	Binary map[string]expr.Op
	// Functions maps the dialect's function names to portable functions
	// (see expr.Functions); Call handles the others, or they are errors.
	Functions map[string]string
	// Call lowers a call of a function that Functions does not name; it
	// returns nil and no error for a function it does not know either.
	Call func(rd *Read, c *Term, args []expr.Node) (expr.Node, error)
	// Cast lowers x cast to typ; without it every cast is an error.
	Cast func(rd *Read, x expr.Node, typ string, at *Term) (expr.Node, error)
	// Not returns the portable form of NOT x, folding forms that the
	// database writes with NOT (NOT (a IS DISTINCT FROM b)); nil keeps NOT.
	Not func(x expr.Node) expr.Node
	// BetweenGroups reads a parenthesised (x >= lo AND x <= hi) that is the
	// left operand of AND as x BETWEEN lo AND hi, and (x < lo OR x > hi) on
	// the left of OR as NOT BETWEEN. PostgreSQL keeps a BETWEEN so, where it
	// flattens a written AND (a AND b) AND c; the AND form would load as
	// another text.
	BetweenGroups bool
	// Finish rewrites the lowered tree before it is analyzed.
	Finish func(rd *Read, n expr.Node) (expr.Node, error)
}

// Read is one expression being read.
type Read struct {
	Text string
	Cols expr.Resolver
	// Unifying is set while Cast reads a cast that is itself an argument
	// of a function whose arguments the database casts to one type
	// (COALESCE): a cast the database added there widens.
	Unifying bool
	unified  map[*Term]bool
}

// Errorf returns an error about the part of the text at which at starts.
func (rd *Read) Errorf(at *Term, format string, args ...any) error {
	off := -1
	if at != nil {
		off = at.Off
	}
	return &ReadError{Text: rd.Text, Offset: off, Msg: fmt.Sprintf(format, args...)}
}

// Read parses text and returns its portable, analyzed form, without Paren
// nodes, or an error naming what has no portable form.
func (r *Reader) Read(text string, cols expr.Resolver) (expr.Node, error) {
	raw, err := ParseTerm(r.Grammar, text)
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
	n, errs := expr.Analyze(n, cols)
	if len(errs) > 0 {
		msgs := make([]string, len(errs))
		for i, e := range errs {
			msgs[i] = e.Msg
		}
		return nil, &ReadError{Text: text, Offset: -1, Msg: strings.Join(msgs, "; ")}
	}
	return n, nil
}

func (r *Reader) lower(rd *Read, raw *Term) (expr.Node, error) {
	switch raw.Kind {
	case TermColumn:
		return &expr.Column{Name: raw.Text}, nil
	case TermString:
		return &expr.Literal{Kind: expr.LitString, Value: raw.Text}, nil
	case TermNumber:
		if strings.ContainsAny(raw.Text, "eE") {
			return nil, rd.Errorf(raw, "the number %s has an exponent, which portable expressions do not write", raw.Text)
		}
		v := raw.Text
		if strings.HasPrefix(v, ".") {
			v = "0" + v
		}
		return &expr.Literal{Kind: expr.LitNumber, Value: v}, nil
	case TermBool:
		return &expr.Literal{Kind: expr.LitBool, Value: raw.Text}, nil
	case TermNull:
		return &expr.Literal{Kind: expr.LitNull}, nil
	case TermUnary:
		x, err := r.lower(rd, raw.Args[0])
		if err != nil {
			return nil, err
		}
		switch raw.Text {
		case "not":
			if r.Not != nil {
				return r.Not(x), nil
			}
			return &expr.Not{X: x}, nil
		case "-":
			if lit, ok := x.(*expr.Literal); ok && lit.Kind == expr.LitNumber && !strings.HasPrefix(lit.Value, "-") {
				return &expr.Literal{Kind: expr.LitNumber, Value: "-" + lit.Value}, nil
			}
			return &expr.Neg{X: x}, nil
		}
		return nil, rd.Errorf(raw, "the prefix operator %s has no portable form", raw.Text)
	case TermBinary:
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
		return &expr.Binary{Op: op, L: l, R: rr}, nil
	case TermIsNull:
		x, err := r.lower(rd, raw.Args[0])
		if err != nil {
			return nil, err
		}
		return &expr.IsNull{X: x, Not: raw.Text == "is not null"}, nil
	case TermIn:
		args, err := r.lowerAll(rd, raw.Args)
		if err != nil {
			return nil, err
		}
		return &expr.In{X: args[0], List: args[1:], Not: raw.Text == "not in"}, nil
	case TermBetween:
		args, err := r.lowerAll(rd, raw.Args)
		if err != nil {
			return nil, err
		}
		return &expr.Between{X: args[0], Lo: args[1], Hi: args[2], Not: raw.Text == "not between"}, nil
	case TermCall:
		return r.call(rd, raw)
	case TermCast:
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
	case TermArray:
		return nil, rd.Errorf(raw, "arrays have no portable form")
	case TermQuantified:
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
		return &expr.In{X: x, List: list, Not: not}, nil
	}
	return nil, rd.Errorf(raw, "unexpected expression")
}

// between returns the BETWEEN that t's left operand is, under BetweenGroups.
func (r *Reader) between(t *Term) *Term {
	if !r.BetweenGroups || t.Text != "and" && t.Text != "or" {
		return nil
	}
	l := t.Args[0]
	if !l.Group || l.Kind != TermBinary || l.Text != t.Text {
		return nil
	}
	lo, hi := l.Args[0], l.Args[1]
	ops, text := [2]string{">=", "<="}, "between"
	if t.Text == "or" {
		ops, text = [2]string{"<", ">"}, "not between"
	}
	if lo.Kind != TermBinary || hi.Kind != TermBinary || lo.Text != ops[0] || hi.Text != ops[1] || !lo.Args[0].Same(hi.Args[0]) {
		return nil
	}
	b := &Term{Kind: TermBetween, Text: text, Args: []*Term{lo.Args[0], lo.Args[1], hi.Args[1]}, Off: l.Off}
	return &Term{Kind: TermBinary, Text: t.Text, Args: []*Term{b, t.Args[1]}, Off: t.Off}
}

func (r *Reader) lowerAll(rd *Read, raws []*Term) ([]expr.Node, error) {
	out := make([]expr.Node, len(raws))
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
func (r *Reader) elements(rd *Read, raw *Term) ([]expr.Node, error) {
	switch raw.Kind {
	case TermArray:
		return r.lowerAll(rd, raw.Args)
	case TermCast:
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

func (r *Reader) call(rd *Read, raw *Term) (expr.Node, error) {
	name, known := r.Functions[raw.Text]
	if !known && r.Call == nil {
		return nil, r.unknownFunction(rd, raw)
	}
	if known && expr.Functions[name].Variadic {
		for _, a := range raw.Args {
			if a.Kind == TermCast {
				if rd.unified == nil {
					rd.unified = map[*Term]bool{}
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
		return &expr.Call{Name: name, Args: args}, nil
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

func (r *Reader) unknownFunction(rd *Read, raw *Term) error {
	var names []string
	for n := range r.Functions {
		names = append(names, n)
	}
	slices.Sort(names)
	return rd.Errorf(raw, "the function %s has no portable form (functions that have one: %s)", raw.Text, strings.Join(names, ", "))
}

// Kind returns the kind of n's value, with columns as rd's resolver tells
// (KindUnknown when unsure).
func (rd *Read) Kind(n expr.Node) expr.Kind {
	switch n := n.(type) {
	case *expr.Column:
		if k, ok := rd.Cols(n.Name); ok {
			return k
		}
	case *expr.Literal:
		switch n.Kind {
		case expr.LitString:
			return expr.KindString
		case expr.LitNumber:
			if strings.Contains(n.Value, ".") {
				return expr.KindNumeric
			}
			return expr.KindInteger
		case expr.LitBool:
			return expr.KindBool
		}
		return expr.KindNull
	case *expr.Neg:
		return rd.Kind(n.X)
	case *expr.Paren:
		return rd.Kind(n.X)
	case *expr.Not, *expr.IsNull, *expr.In, *expr.Between, *expr.JSONType:
		return expr.KindBool
	case *expr.Call:
		if n.Name == "abs" && len(n.Args) == 1 {
			return rd.Kind(n.Args[0])
		}
		if f, ok := expr.Functions[n.Name]; ok && f.Variadic {
			for _, x := range n.Args {
				if k := rd.Kind(x); k != expr.KindUnknown && k != expr.KindNull {
					return k
				}
			}
			return expr.KindUnknown
		}
		if f, ok := expr.Functions[n.Name]; ok {
			return f.Result
		}
	case *expr.Binary:
		switch n.Op {
		case expr.OpAdd, expr.OpSub, expr.OpMul, expr.OpMod:
			l, r := rd.Kind(n.L), rd.Kind(n.R)
			if l == expr.KindUnknown || r == expr.KindUnknown {
				return expr.KindUnknown
			}
			if l == expr.KindNumeric || r == expr.KindNumeric {
				return expr.KindNumeric
			}
			return expr.KindInteger
		case expr.OpConcat:
			return expr.KindString
		}
		return expr.KindBool
	}
	return expr.KindUnknown
}
