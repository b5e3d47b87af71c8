// Package readback reads what TiDB prints back (CHECK_CLAUSE, generated column and
// index part expressions) with TiDB's own parser, the one that made the
// text, and converts TiDB's syntax tree into a portable expression. Only the
// conversion is ours: what the text means is what TiDB says it means.
//
// The parser needs a driver for its literals; the standalone parser module
// has one, test_driver, which keeps values as TiDB's parser reads them
// (strings decoded, decimals with their digits as written).
package readback

import (
	"fmt"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"sync"

	"github.com/pingcap/tidb/pkg/parser"
	"github.com/pingcap/tidb/pkg/parser/ast"
	"github.com/pingcap/tidb/pkg/parser/format"
	"github.com/pingcap/tidb/pkg/parser/mysql"
	"github.com/pingcap/tidb/pkg/parser/opcode"
	driver "github.com/pingcap/tidb/pkg/parser/test_driver"

	"github.com/schemagen/schemagen/compiler/expr"
	"github.com/schemagen/schemagen/dialects/internal/sqltext"
)

// ReadError is an expression TiDB reports that cannot be read or has no
// portable form.
type ReadError struct {
	Text string // the whole expression as TiDB reported it
	Msg  string
	// Near is the part the error is about, as TiDB prints it, or "".
	Near string
}

func (e *ReadError) Error() string {
	if e.Near == "" {
		return fmt.Sprintf("cannot read expression %q: %s", e.Text, e.Msg)
	}
	near := e.Near
	if r := []rune(near); len(r) > 40 {
		near = string(r[:40]) + "…"
	}
	return fmt.Sprintf("cannot read expression %q: %s (at %q)", e.Text, e.Msg, near)
}

// DefaultMode is TiDB's default sql_mode, under which a server that nobody
// configured parses statements.
var DefaultMode = func() mysql.SQLMode {
	m, err := mysql.GetSQLMode(mysql.DefaultSQLMode)
	if err != nil {
		panic(err)
	}
	return m
}()

// JSONTypes maps portable JSON type names to JSON_TYPE's results.
var JSONTypes = map[string][]string{
	"object":  {"OBJECT"},
	"array":   {"ARRAY"},
	"string":  {"STRING"},
	"number":  {"INTEGER", "UNSIGNED INTEGER", "DOUBLE", "DECIMAL"},
	"boolean": {"BOOLEAN"},
	"null":    {"NULL"},
}

// parsers reuses TiDB parsers, which are not safe for concurrent use.
var parsers = sync.Pool{New: func() any { return parser.New() }}

// SyntaxNear reads the position out of the syntax errors of TiDB's parser,
// and of the server (1064), which prints them: the line, the column, the
// text from there to the statement's end and, where the parser cut that
// text at 2048 bytes, its whole length.
var SyntaxNear = regexp.MustCompile(`line (\d+) column (\d+) near "((?s).*?)"(?:\(total length (\d+)\))?\s*$`)

// selectPrefix wraps an expression into the statement TiDB's parser reads.
const selectPrefix = "SELECT "

// ParseExpr parses text as one expression with TiDB's parser in the SQL
// mode given (TiDB restores stored expressions so that they read the same
// under its default mode, backslash escapes on).
func ParseExpr(text string, mode mysql.SQLMode) (x ast.ExprNode, err error) {
	stmts, err := Parse(selectPrefix+text, mode)
	if re, ok := err.(*ReadError); ok {
		re.Text = text
		return nil, re
	}
	if err == nil && len(stmts) != 1 {
		return nil, &ReadError{Text: text, Msg: "not one expression"}
	}
	if err != nil {
		msg := err.Error()
		if m := SyntaxNear.FindStringSubmatch(msg); m != nil {
			if m[3] == "" {
				return nil, &ReadError{Text: text, Msg: "TiDB's parser rejects it: unexpected end of expression"}
			}
			return nil, &ReadError{Text: text, Msg: "TiDB's parser rejects it", Near: m[3]}
		}
		if _, after, ok := strings.Cut(msg, "]"); ok {
			msg = after
		}
		return nil, &ReadError{Text: text, Msg: "TiDB's parser rejects it: " + msg}
	}
	sel, ok := stmts[0].(*ast.SelectStmt)
	if !ok || sel.Kind != ast.SelectStmtKindSelect || sel.Fields == nil || len(sel.Fields.Fields) != 1 ||
		sel.From != nil || sel.Where != nil || sel.GroupBy != nil || sel.Having != nil || len(sel.WindowSpecs) > 0 ||
		sel.OrderBy != nil || sel.Limit != nil || sel.LockInfo != nil || len(sel.TableHints) > 0 ||
		sel.SelectIntoOpt != nil || sel.With != nil || sel.Distinct || sel.IsInBraces {
		return nil, &ReadError{Text: text, Msg: "not one expression"}
	}
	f := sel.Fields.Fields[0]
	if f.Expr == nil {
		return nil, &ReadError{Text: text, Msg: "not one expression"}
	}
	if f.AsName.O != "" {
		return nil, &ReadError{Text: text, Msg: "unexpected text after the end of the expression", Near: f.AsName.O}
	}
	return f.Expr, nil
}

// Parse parses SQL with a pooled parser. The parser's literal driver panics
// on some input (a decimal of more than 81 digits): a panic is a *ReadError,
// and that parser is not reused.
func Parse(sql string, mode mysql.SQLMode) (stmts []ast.StmtNode, err error) {
	p := parsers.Get().(*parser.Parser)
	defer func() {
		if r := recover(); r != nil {
			stmts, err = nil, &ReadError{Msg: fmt.Sprintf("TiDB's parser fails on it (%v)", r)}
			return
		}
		parsers.Put(p)
	}()
	p.SetSQLMode(mode)
	stmts, _, err = p.Parse(sql, "", "")
	return stmts, err
}

var leadingCheck = regexp.MustCompile(`(?i)^\s*check\s*\(`)

// Expr reads an expression as TiDB reports it into its portable,
// analyzed form, without Paren nodes, or an error naming what has no
// portable form.
func Expr(text string, cols expr.Resolver) (expr.Node, error) {
	x, err := Tree(text)
	if err != nil {
		return nil, err
	}
	return Portable(x, text, cols)
}

// Tree parses an expression as TiDB reports it into TiDB's tree, or fails
// where the text has no one reading (||).
func Tree(text string) (ast.ExprNode, error) {
	src := text
	// SHOW CREATE TABLE writes CHECK (...).
	if loc := leadingCheck.FindStringIndex(src); loc != nil {
		src = src[loc[1]-1:]
	}
	x, err := ParseExpr(src, DefaultMode)
	if err != nil {
		err.(*ReadError).Text = text
		return nil, err
	}
	if strings.Contains(src, "||") {
		// || is OR or CONCAT by sql_mode: TiDB itself never prints it.
		y, err := ParseExpr(src, DefaultMode|mysql.ModePipesAsConcat)
		if err != nil || restore(x) != restore(y) {
			return nil, &ReadError{Text: text, Msg: "the operator || has no portable form (TiDB reads it as OR or as CONCAT by sql_mode)"}
		}
	}
	return x, nil
}

// Portable converts x, a node of Tree's tree of text, into its portable,
// analyzed form over cols, or an error naming what has no portable form.
func Portable(x ast.ExprNode, text string, cols expr.Resolver) (expr.Node, error) {
	c := &converter{text: text}
	n, err := c.convert(x)
	if err != nil {
		return nil, err
	}
	undoDotAll(n)
	if n, err = c.jsonTypeNames(n); err != nil {
		return nil, err
	}
	n, errs := expr.Analyze(n, cols)
	if len(errs) > 0 {
		msgs := make([]string, len(errs))
		for i, e := range errs {
			msgs[i] = e.Msg
		}
		return nil, &ReadError{Text: text, Msg: strings.Join(msgs, "; ")}
	}
	// A CASE of conditions compared with TRUE is how a CHECK of one is
	// written to TiDB (boolContext); it means the CASE itself.
	// So is a bool column alone (TINYINT(1) = TRUE).
	if b, ok := n.(*expr.Binary); ok && b.Op == expr.OpEq {
		if lit, ok := b.R.(*expr.Literal); ok && lit.Kind == expr.LitBool && lit.Value == "true" {
			if c, ok := b.L.(*expr.Case); ok && c.Kind == expr.KindBool {
				return c, nil
			}
			if c, ok := b.L.(*expr.Column); ok && cols != nil {
				if k, known := cols(c.Name); known && k == expr.KindBool {
					return c, nil
				}
			}
		}
	}
	return n, nil
}

// Restore prints a node of TiDB's tree as TiDB writes it.
func restore(n ast.Node) string {
	var b strings.Builder
	if err := n.Restore(format.NewRestoreCtx(format.RestoreStringSingleQuotes|format.RestoreKeyWordLowercase|format.RestoreNameBackQuotes, &b)); err != nil {
		return fmt.Sprintf("%T", n)
	}
	return b.String()
}

// maxReadDepth bounds the nesting of a read expression.
const maxReadDepth = 500

type converter struct {
	text  string
	depth int
}

func (c *converter) errorf(at ast.Node, format string, args ...any) error {
	e := &ReadError{Text: c.text, Msg: fmt.Sprintf(format, args...)}
	if at != nil {
		e.Near = restore(at)
	}
	return e
}

// binaryOps are TiDB's binary operators that have a portable form.
var binaryOps = map[opcode.Op]expr.Op{
	opcode.EQ: expr.OpEq, opcode.NE: expr.OpNe, opcode.LT: expr.OpLt, opcode.LE: expr.OpLe,
	opcode.GT: expr.OpGt, opcode.GE: expr.OpGe, opcode.LogicAnd: expr.OpAnd, opcode.LogicOr: expr.OpOr,
	opcode.Plus: expr.OpAdd, opcode.Minus: expr.OpSub, opcode.Mul: expr.OpMul, opcode.Mod: expr.OpMod,
	opcode.NullEQ: expr.OpNotDistinct,
}

// functions maps TiDB's functions to portable functions (see
// expr.Functions); CONCAT is read as ||.
var functions = map[string]string{
	"char_length":      "char_length",
	"character_length": "char_length",
	"lower":            "lower",
	"lcase":            "lower",
	"upper":            "upper",
	"ucase":            "upper",
	"coalesce":         "coalesce",
	"abs":              "abs",
	"json_type":        "json_type",
}

func (c *converter) convertAll(xs []ast.ExprNode) ([]expr.Node, error) {
	out := make([]expr.Node, len(xs))
	for i, x := range xs {
		n, err := c.convert(x)
		if err != nil {
			return nil, err
		}
		out[i] = n
	}
	return out, nil
}

func (c *converter) convert(x ast.ExprNode) (expr.Node, error) {
	c.depth++
	defer func() { c.depth-- }()
	if c.depth > maxReadDepth {
		return nil, &ReadError{Text: c.text, Msg: "the expression nests too deeply"}
	}
	switch x := x.(type) {
	case *ast.ParenthesesExpr:
		return c.convert(x.Expr)
	case *ast.ColumnNameExpr:
		if x.Name.Table.O != "" || x.Name.Schema.O != "" {
			return nil, c.errorf(x, "qualified names have no portable form")
		}
		return &expr.Column{Name: x.Name.Name.O}, nil
	case *driver.ValueExpr:
		return c.value(x)
	case *ast.UnaryOperationExpr:
		v, err := c.convert(x.V)
		if err != nil {
			return nil, err
		}
		switch x.Op {
		case opcode.Not, opcode.Not2:
			return not(v), nil
		case opcode.Minus:
			if lit, ok := v.(*expr.Literal); ok && lit.Kind == expr.LitNumber && !strings.HasPrefix(lit.Value, "-") {
				return &expr.Literal{Kind: expr.LitNumber, Value: "-" + lit.Value}, nil
			}
			return &expr.Neg{X: v}, nil
		}
		return nil, c.errorf(x, "the prefix operator %s has no portable form", opText(x.Op))
	case *ast.BinaryOperationExpr:
		op, ok := binaryOps[x.Op]
		if !ok {
			if x.Op.IsKeyword() {
				return nil, c.errorf(x, "%s has no portable form", opText(x.Op))
			}
			return nil, c.errorf(x, "the operator %s has no portable form", opText(x.Op))
		}
		return c.binary(op, x.L, x.R)
	case *ast.PatternLikeOrIlikeExpr:
		if !x.IsLike {
			return nil, c.errorf(x, "ILIKE has no portable form")
		}
		if x.Escape != '\\' {
			return nil, c.errorf(x, "LIKE ... ESCAPE has no portable form")
		}
		op := expr.OpLike
		if x.Not {
			op = expr.OpNotLike
		}
		return c.binary(op, x.Expr, x.Pattern)
	case *ast.PatternRegexpExpr:
		op := expr.OpRegex
		if x.Not {
			op = expr.OpNotRegex
		}
		return c.binary(op, x.Expr, x.Pattern)
	case *ast.PatternInExpr:
		if x.Sel != nil {
			return nil, c.errorf(x, "a subquery has no portable form")
		}
		v, err := c.convert(x.Expr)
		if err != nil {
			return nil, err
		}
		list, err := c.convertAll(x.List)
		if err != nil {
			return nil, err
		}
		return &expr.In{X: v, List: list, Not: x.Not}, nil
	case *ast.BetweenExpr:
		args, err := c.convertAll([]ast.ExprNode{x.Expr, x.Left, x.Right})
		if err != nil {
			return nil, err
		}
		return &expr.Between{X: args[0], Lo: args[1], Hi: args[2], Not: x.Not}, nil
	case *ast.IsNullExpr:
		v, err := c.convert(x.Expr)
		if err != nil {
			return nil, err
		}
		return &expr.IsNull{X: v, Not: x.Not}, nil
	case *ast.IsTruthExpr:
		what := map[int64]string{0: "FALSE", 1: "TRUE"}[x.True]
		if x.Not {
			what = "NOT " + what
		}
		return nil, c.errorf(x, "IS %s has no portable form", what)
	case *ast.FuncCallExpr:
		return c.call(x)
	case *ast.FuncCastExpr:
		return nil, c.errorf(x, "casts have no portable form")
	case *ast.SetCollationExpr:
		return nil, c.errorf(x, "COLLATE has no portable form")
	case *ast.CaseExpr:
		if x.Value != nil {
			return nil, c.errorf(x, "the simple CASE x WHEN v has no portable form")
		}
		n := &expr.Case{}
		for _, w := range x.WhenClauses {
			args, err := c.convertAll([]ast.ExprNode{w.Expr, w.Result})
			if err != nil {
				return nil, err
			}
			n.Whens = append(n.Whens, expr.When{Cond: args[0], Then: args[1]})
		}
		if x.ElseClause != nil {
			e, err := c.convert(x.ElseClause)
			if err != nil {
				return nil, err
			}
			n.Else = e
		}
		return n, nil
	case *ast.SubqueryExpr, *ast.ExistsSubqueryExpr, *ast.CompareSubqueryExpr:
		return nil, c.errorf(x, "a subquery has no portable form")
	case *ast.RowExpr:
		return nil, c.errorf(x, "row values have no portable form")
	case *ast.VariableExpr:
		return nil, c.errorf(x, "variables have no portable form")
	case *ast.AggregateFuncExpr, *ast.WindowFuncExpr:
		return nil, c.errorf(x, "aggregate and window functions have no portable form")
	}
	return nil, c.errorf(x, "this expression has no portable form")
}

// opText names a TiDB operator as TiDB writes it.
// binary converts both operands of a binary operator op.
func (c *converter) binary(op expr.Op, l, r ast.ExprNode) (expr.Node, error) {
	x, err := c.convert(l)
	if err != nil {
		return nil, err
	}
	y, err := c.convert(r)
	if err != nil {
		return nil, err
	}
	return &expr.Binary{Op: op, L: x, R: y}, nil
}

func opText(op opcode.Op) string {
	var b strings.Builder
	if err := op.Restore(format.NewRestoreCtx(format.RestoreKeyWordUppercase, &b)); err != nil {
		return op.String()
	}
	return strings.TrimSpace(b.String())
}

// introducers are the charset introducers (_utf8mb4'...') that leave a
// literal a plain string.
var introducers = []string{"utf8mb4", "utf8", "utf8mb3"}

func (c *converter) value(v *driver.ValueExpr) (expr.Node, error) {
	switch v.Kind() {
	case driver.KindNull:
		return &expr.Literal{Kind: expr.LitNull}, nil
	case driver.KindInt64:
		if mysql.HasIsBooleanFlag(v.Type.GetFlag()) {
			return &expr.Literal{Kind: expr.LitBool, Value: strconv.FormatBool(v.GetInt64() != 0)}, nil
		}
		return &expr.Literal{Kind: expr.LitNumber, Value: strconv.FormatInt(v.GetInt64(), 10)}, nil
	case driver.KindUint64:
		return &expr.Literal{Kind: expr.LitNumber, Value: strconv.FormatUint(v.GetUint64(), 10)}, nil
	case driver.KindMysqlDecimal:
		s := v.GetMysqlDecimal().String()
		if strings.HasPrefix(s, ".") {
			s = "0" + s
		}
		return &expr.Literal{Kind: expr.LitNumber, Value: s}, nil
	case driver.KindFloat32, driver.KindFloat64:
		return nil, c.errorf(v, "the number %s has an exponent, which portable expressions do not write", restore(v))
	case driver.KindString:
		if v.Type.GetFlag()&mysql.UnderScoreCharsetFlag != 0 {
			if cs := strings.ToLower(v.Type.GetCharset()); !slices.Contains(introducers, cs) {
				return nil, c.errorf(v, "the charset introducer _%s has no portable form", cs)
			}
		}
		return &expr.Literal{Kind: expr.LitString, Value: v.GetString()}, nil
	case driver.KindBinaryLiteral:
		if v.Type.GetFlag()&mysql.UnderScoreCharsetFlag != 0 {
			return nil, c.errorf(v, "the charset introducer _%s has no portable form", strings.ToLower(v.Type.GetCharset()))
		}
		return nil, c.errorf(v, "hexadecimal and binary literals have no portable form")
	}
	return nil, c.errorf(v, "this literal has no portable form")
}

func (c *converter) call(x *ast.FuncCallExpr) (expr.Node, error) {
	if x.Schema.O != "" {
		return nil, c.errorf(x, "qualified function names have no portable form")
	}
	name := x.FnName.L
	portable, known := functions[name]
	if !known && name != ast.Concat {
		var names []string
		for n := range functions {
			names = append(names, n)
		}
		names = append(names, ast.Concat)
		slices.Sort(names)
		return nil, c.errorf(x, "the function %s has no portable form (functions that have one: %s)", name, strings.Join(names, ", "))
	}
	args, err := c.convertAll(x.Args)
	if err != nil {
		return nil, err
	}
	if known {
		return &expr.Call{Name: portable, Args: args}, nil
	}
	// CONCAT(a, b, ...) is a || b || ...: both are NULL when an argument is.
	if len(args) < 2 {
		return nil, c.errorf(x, "CONCAT of fewer than two arguments has no portable form")
	}
	n := args[0]
	for _, a := range args[1:] {
		n = &expr.Binary{Op: expr.OpConcat, L: n, R: a}
	}
	return n, nil
}

// not folds the forms TiDB writes with NOT: NOT (a <=> b) for IS DISTINCT
// FROM and NOT (x REGEXP p) for !~. Only those: NOT over their negations
// stays, so that the expression renders as the text it was read from.
var not = sqltext.Negation(map[expr.Op]expr.Op{expr.OpNotDistinct: expr.OpDistinct, expr.OpRegex: expr.OpNotRegex})

// portableJSONType maps JSON_TYPE's results to portable JSON type names;
// the numbers are "number" only together (see JSONTypes).
func portableJSONType(name string) string {
	for p, names := range JSONTypes {
		if len(names) == 1 && names[0] == name {
			return p
		}
	}
	return ""
}

func isJSONType(n expr.Node) bool {
	c, ok := n.(*expr.Call)
	return ok && c.Name == "json_type"
}

// jsonTypeNames rewrites the type names compared with JSON_TYPE into the
// portable names, so that analysis makes JSONType nodes of them.
func (c *converter) jsonTypeNames(n expr.Node) (expr.Node, error) {
	numbers := JSONTypes["number"]
	var err error
	expr.Walk(n, func(n expr.Node) bool {
		if err != nil {
			return false
		}
		switch n := n.(type) {
		case *expr.Binary:
			if n.Op != expr.OpEq && n.Op != expr.OpNe {
				break
			}
			lit, ok := n.R.(*expr.Literal)
			if !isJSONType(n.L) {
				lit, ok = n.L.(*expr.Literal)
				ok = ok && isJSONType(n.R)
			}
			if !ok || lit.Kind != expr.LitString {
				break
			}
			if slices.Contains(numbers, lit.Value) {
				err = c.errorf(nil, "json_type(...) %s '%s' tests only some JSON numbers; the portable 'number' is %s together", n.Op, lit.Value, strings.Join(numbers, ", "))
				break
			}
			p := portableJSONType(lit.Value)
			if p == "" {
				err = c.errorf(nil, "the JSON type '%s' has no portable name", lit.Value)
				break
			}
			lit.Value = p
		case *expr.In:
			if !isJSONType(n.X) {
				break
			}
			var names []string
			for _, x := range n.List {
				lit, ok := x.(*expr.Literal)
				if !ok || lit.Kind != expr.LitString {
					return true // analysis reports it
				}
				names = append(names, lit.Value)
			}
			var list []expr.Node
			number := false
			for _, name := range names {
				p := portableJSONType(name)
				if slices.Contains(numbers, name) {
					for _, want := range numbers {
						if !slices.Contains(names, want) {
							err = c.errorf(nil, "json_type(...) IN (...) tests only some JSON numbers ('%s' without '%s'); the portable 'number' is %s together", name, want, strings.Join(numbers, ", "))
							return false
						}
					}
					if number {
						continue
					}
					number, p = true, "number"
				}
				if p == "" {
					err = c.errorf(nil, "the JSON type '%s' has no portable name", name)
					return false
				}
				list = append(list, &expr.Literal{Kind: expr.LitString, Value: p})
			}
			n.List = list
		}
		return true
	})
	return n, err
}
