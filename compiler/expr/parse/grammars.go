package parse

// Portable is the grammar of the portable expression language of schema.hcl.
var Portable = &Grammar{
	Authored: true,
	Refused: map[string]string{
		"/":   "division is not portable (integer division truncates on PostgreSQL but not on TiDB); rewrite without '/'",
		":":   "casts ('::') are not part of portable expressions; types follow from the columns",
		"`":   "backquoted identifiers are TiDB syntax; write the column name plainly or in double quotes",
		"->":  "the JSON operator -> is not portable; portable expressions test only json_type(doc), for example json_type(doc) = 'object'. For a field, use a per-dialect raw expr override",
		"->>": "the JSON operator ->> is not portable; portable expressions test only json_type(doc), for example json_type(doc) = 'object'. For a field, use a per-dialect raw expr override",
	},
	Keywords:   reserved,
	Predicates: 4,
	MaxDepth:   200,
	IdentQuote: '"',
	Operators:  []string{"<>", "!=", "<=", ">=", "!~", "||", "=", "<", ">", "+", "-", "*", "%", "~"},
	Precedence: map[string]int{
		"or": 1, "and": 2,
		"=": 4, "<>": 4, "!=": 4, "<": 4, "<=": 4, ">": 4, ">=": 4, "~": 4, "!~": 4,
		"is": 4, "in": 4, "like": 4, "regexp": 4, "between": 4,
		"+": 5, "-": 5, "||": 5,
		"*": 6, "%": 6,
	},
	NotPrec: 3,
	NegPrec: 7,
}

// reserved words cannot be column names without quotes.
var reserved = map[string]bool{
	"and": true, "or": true, "not": true, "in": true, "is": true, "null": true, "true": true, "false": true,
	"like": true, "regexp": true, "between": true, "distinct": true, "from": true,
}
