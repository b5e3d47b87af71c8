package tidb

import (
	"github.com/schemagen/schemagen/compiler/expr"
	"github.com/schemagen/schemagen/dialects/internal/sqltext"
)

// OldParseExpr is the hand-written reader ParseExpr used before it read with
// TiDB's parser, kept for the tests to compare the two on what a real TiDB
// prints.
func OldParseExpr(text string, cols expr.Resolver) (expr.Node, error) {
	return oldReader.Read(text, cols)
}

// Render renders n as the TiDB DDL writes it.
func Render(n expr.Node) string { return sqltext.Expr(syntax{}, n) }

var oldGrammar = &sqltext.Grammar{
	IdentQuote:       '`',
	BackslashEscapes: true,
	Introducers:      []string{"utf8mb4", "utf8", "utf8mb3"},
	Operators:        []string{"<=>", "<=", ">=", "<>", "!=", "<<", ">>", "&&", "||", ":=", "=", "<", ">", "+", "-", "*", "/", "%", "^", "&", "|", "~", "!"},
	// As in MySQL's operator precedence, lowest first. ||, XOR, DIV, bit
	// operators and the others left out are errors.
	Precedence: map[string]int{
		"or":  1,
		"and": 3, "&&": 3,
		"between": 5,
		"=":       6, "<=>": 6, ">=": 6, ">": 6, "<=": 6, "<": 6, "<>": 6, "!=": 6,
		"is": 6, "like": 6, "regexp": 6, "rlike": 6, "in": 6,
		"+": 10, "-": 10,
		"*": 11, "%": 11,
		"!": 14,
	},
	NotPrec: 4,
	NegPrec: 13,
}

var oldReader = &sqltext.Reader{
	Grammar: oldGrammar,
	Binary: map[string]expr.Op{
		"=": expr.OpEq, "<>": expr.OpNe, "!=": expr.OpNe,
		"<": expr.OpLt, "<=": expr.OpLe, ">": expr.OpGt, ">=": expr.OpGe,
		"and": expr.OpAnd, "&&": expr.OpAnd, "or": expr.OpOr,
		"+": expr.OpAdd, "-": expr.OpSub, "*": expr.OpMul, "%": expr.OpMod,
		"like": expr.OpLike, "not like": expr.OpNotLike,
		"regexp": expr.OpRegex, "rlike": expr.OpRegex, "not regexp": expr.OpNotRegex, "not rlike": expr.OpNotRegex,
		"<=>": expr.OpNotDistinct,
	},
	Functions: map[string]string{
		"char_length":      "char_length",
		"character_length": "char_length",
		"lower":            "lower",
		"lcase":            "lower",
		"upper":            "upper",
		"coalesce":         "coalesce",
		"ucase":            "upper",
		"abs":              "abs",
		"json_type":        "json_type",
	},
	Call: oldCall,
	Not:  not,
	Finish: func(rd *sqltext.Read, n expr.Node) (expr.Node, error) {
		undoDotAll(n)
		return (&converter{text: rd.Text}).jsonTypeNames(n)
	},
}

// call reads CONCAT(a, b, ...) as a || b || ...: both are NULL when an
// argument is.
func oldCall(rd *sqltext.Read, c *sqltext.Term, args []expr.Node) (expr.Node, error) {
	if c.Text != "concat" {
		return nil, nil
	}
	if len(args) < 2 {
		return nil, rd.Errorf(c, "CONCAT of fewer than two arguments has no portable form")
	}
	n := args[0]
	for _, a := range args[1:] {
		n = &expr.Binary{Op: expr.OpConcat, L: n, R: a}
	}
	return n, nil
}
