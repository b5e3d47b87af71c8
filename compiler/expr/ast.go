// Package expr is the portable expression language used by CHECK
// constraints, index predicates, index expression parts and data
// migrations: its syntax tree (Node), the Reader that gives parsed terms
// (package parse) their portable meaning, and the type analysis that
// checks a tree against its columns (Analyze, AnalyzeStmts). It knows no
// SQL dialect: each dialect renders the tree (package render) in its own
// syntax.
package expr

import "github.com/schemagen/schemagen/compiler/expr/parse"

// Node is an expression tree node. Offset is the byte offset of the node's
// first token in the expression source, used to point diagnostics at it.
type Node interface {
	Offset() int
	node()
}

// Kind is the neutral type category of a value, enough for the checks and
// translations that depend on it (for example a regex match on a uuid column).
type Kind int

const (
	KindUnknown Kind = iota
	KindString
	KindInteger
	KindNumeric
	KindBool
	KindJSON
	KindTime
	KindDate
	KindUUID
	KindBytes
	KindVector
	KindNull
	// KindClock is a time of day (the time type).
	KindClock
	// KindEnum is a value of an enum type: one of its labels.
	KindEnum
)

var kindNames = [...]string{"unknown", "string", "integer", "numeric", "bool", "json", "timestamp", "date", "uuid", "bytes", "vector", "null", "time", "enum"}

func (k Kind) String() string { return kindNames[k] }

type pos int

func (p pos) Offset() int { return int(p) }
func (pos) node()         {}

// Column references a column of the table the expression belongs to.
// Kind is filled in by Analyze.
type Column struct {
	pos
	Name string
	Kind Kind
	// Table is the table or alias qualifying the column (data statements).
	Table string
}

// LitKind tells which kind of literal a Literal is.
type LitKind int

const (
	LitString LitKind = iota
	LitNumber
	LitBool
	LitNull
)

// Literal is a constant. Value holds the decoded string, the number's text,
// "true"/"false", or "" for NULL.
type Literal struct {
	pos
	Kind  LitKind
	Value string
}

// Op is a binary operator.
type Op int

const (
	OpEq Op = iota
	OpNe
	OpLt
	OpLe
	OpGt
	OpGe
	OpAnd
	OpOr
	OpAdd
	OpSub
	OpMul
	OpMod
	OpConcat
	OpLike
	OpNotLike
	OpRegex
	OpNotRegex
	OpDistinct
	OpNotDistinct
)

var opText = [...]string{"=", "<>", "<", "<=", ">", ">=", "AND", "OR", "+", "-", "*", "%", "||", "LIKE", "NOT LIKE", "~", "!~", "IS DISTINCT FROM", "IS NOT DISTINCT FROM"}

// String returns the operator in the portable syntax.
func (o Op) String() string { return opText[o] }

// IsComparison reports whether o compares two values (=, <>, <, ...).
func (o Op) IsComparison() bool { return o <= OpGe }

// Binary is a binary operation.
type Binary struct {
	pos
	Op   Op
	L, R Node
}

// Not is logical negation.
type Not struct {
	pos
	X Node
}

// Neg is arithmetic negation.
type Neg struct {
	pos
	X Node
}

// IsNull is `X IS [NOT] NULL`.
type IsNull struct {
	pos
	X   Node
	Not bool
}

// In is `X [NOT] IN (List...)`.
type In struct {
	pos
	X    Node
	List []Node
	Not  bool
}

// Between is `X [NOT] BETWEEN Lo AND Hi`.
type Between struct {
	pos
	X, Lo, Hi Node
	Not       bool
}

// Call is a call of one of the portable functions (see Functions).
type Call struct {
	pos
	Name string
	Args []Node
	// Kind is the kind of the value of a call of one of DataFunctions,
	// filled in by analysis.
	Kind Kind
}

// JSONType is the JSON type test `json_type(X) [NOT] IN ('object', ...)`,
// or `= 'object'`. Types holds portable JSON type names (see JSONTypes).
// The parser produces it from a comparison of json_type(X) with literals,
// because each dialect spells both the function and the type names differently.
type JSONType struct {
	pos
	X     Node
	Types []string
	Not   bool
}

// When is one WHEN cond THEN value arm of a Case.
type When struct {
	Cond, Then Node
}

// Case is the searched `CASE WHEN cond THEN value ... [ELSE value] END`:
// the value of the first arm whose condition is true (a NULL condition is
// not), else Else, else NULL (Else is nil when not written).
type Case struct {
	pos
	Whens []When
	Else  Node
	Kind  Kind // the results' kind, filled in by Analyze
}

// results returns the values c may take, ELSE last.
func (c *Case) results() []Node {
	out := make([]Node, 0, len(c.Whens)+1)
	for _, w := range c.Whens {
		out = append(out, w.Then)
	}
	if c.Else != nil {
		out = append(out, c.Else)
	}
	return out
}

// Paren records parentheses written in the source; renderers may drop it.
type Paren struct {
	pos
	X Node
}

func (*Column) node()   {}
func (*Literal) node()  {}
func (*Binary) node()   {}
func (*Not) node()      {}
func (*Neg) node()      {}
func (*IsNull) node()   {}
func (*In) node()       {}
func (*Between) node()  {}
func (*Call) node()     {}
func (*JSONType) node() {}
func (*Paren) node()    {}
func (*Case) node()     {}

// JSONTypes are the portable names of JSON value types, as PostgreSQL's
// jsonb_typeof returns them.
var JSONTypes = []string{"object", "array", "string", "number", "boolean", "null"}

// Function describes a portable function.
type Function struct {
	Name   string
	Args   []Kind // KindUnknown accepts any kind
	Result Kind
	// Variadic functions (coalesce) take two or more arguments of one kind,
	// which is their result's; Args and Result are unused.
	Variadic bool
}

// Functions are the functions portable expressions may call. Each has the same
// meaning on every dialect (json_type is handled as JSONType).
var Functions = map[string]Function{
	"char_length": {Name: "char_length", Args: []Kind{KindString}, Result: KindInteger},
	"lower":       {Name: "lower", Args: []Kind{KindString}, Result: KindString},
	"upper":       {Name: "upper", Args: []Kind{KindString}, Result: KindString},
	"abs":         {Name: "abs", Args: []Kind{KindNumeric}, Result: KindNumeric},
	"json_type":   {Name: "json_type", Args: []Kind{KindJSON}, Result: KindString},
	"coalesce":    {Name: "coalesce", Variadic: true},
}

// Walk calls fn for n and every node below it, depth first, until fn returns false.
func Walk(n Node, fn func(Node) bool) {
	if n == nil || !fn(n) {
		return
	}
	switch n := n.(type) {
	case *Binary:
		Walk(n.L, fn)
		Walk(n.R, fn)
	case *Not:
		Walk(n.X, fn)
	case *Neg:
		Walk(n.X, fn)
	case *IsNull:
		Walk(n.X, fn)
	case *In:
		Walk(n.X, fn)
		for _, x := range n.List {
			Walk(x, fn)
		}
	case *Between:
		Walk(n.X, fn)
		Walk(n.Lo, fn)
		Walk(n.Hi, fn)
	case *Call:
		for _, x := range n.Args {
			Walk(x, fn)
		}
	case *JSONType:
		Walk(n.X, fn)
	case *Cast:
		Walk(n.X, fn)
	case *Subquery:
	case *InSelect:
		Walk(n.X, fn)
	case *Paren:
		Walk(n.X, fn)
	case *Case:
		for _, w := range n.Whens {
			Walk(w.Cond, fn)
			Walk(w.Then, fn)
		}
		Walk(n.Else, fn)
	}
}

// Columns returns the names of the columns n refers to, in order of first use.
func Columns(n Node) []string {
	var out []string
	seen := map[string]bool{}
	Walk(n, func(n Node) bool {
		if c, ok := n.(*Column); ok && !seen[c.Name] {
			seen[c.Name] = true
			out = append(out, c.Name)
		}
		return true
	})
	return out
}

// Error is a parse or analysis error at a byte offset of the expression
// source (the syntax package's, so that one type serves both).
type Error = parse.Error
