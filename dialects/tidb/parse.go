package tidb

import (
	"strings"

	"github.com/schemagen/schemagen/compiler/expr"
	"github.com/schemagen/schemagen/dialects/internal/sqltext"
)

// ParseExpr implements dialects.Dialect: it reads an expression as TiDB
// reports it (CHECK_CLAUSE of information_schema.tidb_check_constraints, the
// EXPRESSION of an index part): backquoted names, lower-case keywords,
// _utf8mb4'...' literals with backslash escapes.
//
// a <=> b becomes IS NOT DISTINCT FROM and NOT (a <=> b) IS DISTINCT FROM,
// REGEXP the regex match, CONCAT(a, b) a || b, and JSON_TYPE's type names
// the portable ones ('number' for INTEGER, UNSIGNED INTEGER, DOUBLE and
// DECIMAL together). Any other function or operator, a cast or a COLLATE is
// an error.
func (Dialect) ParseExpr(text string, cols expr.Resolver) (expr.Node, error) {
	return reader.Read(text, cols)
}

var grammar = &sqltext.Grammar{
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

var reader = &sqltext.Reader{
	Grammar: grammar,
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
	Call:   call,
	Not:    not,
	Finish: func(rd *sqltext.Read, n expr.Node) (expr.Node, error) { undoDotAll(n); return jsonTypeNames(rd, n) },
}

// call reads CONCAT(a, b, ...) as a || b || ...: both are NULL when an
// argument is.
func call(rd *sqltext.Read, c *sqltext.Term, args []expr.Node) (expr.Node, error) {
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

// not folds the forms the dialect writes with NOT: NOT (a <=> b) for IS
// DISTINCT FROM and NOT (x REGEXP p) for !~. Only those: NOT over their
// negations stays, so that the expression renders as the text it was read from.
func not(x expr.Node) expr.Node {
	if b, ok := x.(*expr.Binary); ok {
		switch b.Op {
		case expr.OpNotDistinct:
			return &expr.Binary{Op: expr.OpDistinct, L: b.L, R: b.R}
		case expr.OpRegex:
			return &expr.Binary{Op: expr.OpNotRegex, L: b.L, R: b.R}
		}
	}
	return &expr.Not{X: x}
}

// portableJSONType maps JSON_TYPE's results to portable JSON type names;
// the numbers are "number" only together (see jsonTypes).
func portableJSONType(name string) string {
	for p, names := range jsonTypes {
		if len(names) == 1 && names[0] == name {
			return p
		}
	}
	return ""
}

func isJSONNumber(name string) bool {
	for _, n := range jsonTypes["number"] {
		if n == name {
			return true
		}
	}
	return false
}

func isJSONType(n expr.Node) bool {
	c, ok := n.(*expr.Call)
	return ok && c.Name == "json_type"
}

// jsonTypeNames rewrites the type names compared with JSON_TYPE into the
// portable names, so that analysis makes JSONType nodes of them.
func jsonTypeNames(rd *sqltext.Read, n expr.Node) (expr.Node, error) {
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
			if isJSONNumber(lit.Value) {
				err = rd.Errorf(nil, "json_type(...) %s '%s' tests only some JSON numbers; the portable 'number' is %s together", n.Op, lit.Value, strings.Join(jsonTypes["number"], ", "))
				break
			}
			p := portableJSONType(lit.Value)
			if p == "" {
				err = rd.Errorf(nil, "the JSON type '%s' has no portable name", lit.Value)
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
				if isJSONNumber(name) {
					for _, want := range jsonTypes["number"] {
						if !contains(names, want) {
							err = rd.Errorf(nil, "json_type(...) IN (...) tests only some JSON numbers ('%s' without '%s'); the portable 'number' is %s together", name, want, strings.Join(jsonTypes["number"], ", "))
							return false
						}
					}
					if number {
						continue
					}
					number, p = true, "number"
				}
				if p == "" {
					err = rd.Errorf(nil, "the JSON type '%s' has no portable name", name)
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

func contains(list []string, s string) bool {
	for _, x := range list {
		if x == s {
			return true
		}
	}
	return false
}
