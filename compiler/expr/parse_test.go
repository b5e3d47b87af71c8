package expr_test

import (
	"strings"
	"testing"

	"github.com/schemagen/schemagen/compiler/expr"
	"github.com/schemagen/schemagen/compiler/expr/parse"
	"github.com/schemagen/schemagen/compiler/expr/render"
)

func kinds(cols map[string]expr.Kind) expr.Resolver {
	return func(name string) (expr.Kind, bool) {
		k, ok := cols[name]
		return k, ok
	}
}

var testCols = kinds(map[string]expr.Kind{
	"a": expr.KindInteger, "b": expr.KindInteger, "s": expr.KindString, "doc": expr.KindJSON, "id": expr.KindUUID, "flag": expr.KindBool,
})

func TestParsePrecedence(t *testing.T) {
	cases := []struct{ src, want string }{
		{"a = 1 OR b = 2 AND s = 'x'", "a = 1 OR b = 2 AND s = 'x'"},
		{"NOT a = 1", "NOT a = 1"},
		{"a + b * 2 >= 3", "a + b * 2 >= 3"},
		{"s IN ('it''s', 'b') AND s NOT IN ('c')", "s IN ('it''s', 'b') AND s NOT IN ('c')"},
		{"s is not null and a is null", "s IS NOT NULL AND a IS NULL"},
		{"s IS DISTINCT FROM 'x' OR s IS NOT DISTINCT FROM NULL", "s IS DISTINCT FROM 'x' OR s IS NOT DISTINCT FROM NULL"},
		{"s REGEXP '^a' AND s NOT REGEXP 'b' AND s !~ 'c'", "s ~ '^a' AND s !~ 'b' AND s !~ 'c'"},
		{"a BETWEEN -1 AND 2", "a BETWEEN -1 AND 2"},
		{"json_type(doc) IN ('object', 'array')", "json_type(doc) IN ('object', 'array')"},
		{"'object' = json_type(doc)", "json_type(doc) IN ('object')"},
		{`"a" != 1 -- a comment`, "a <> 1"},
		{"char_length(s || 'x') < 10", "char_length(s || 'x') < 10"},
		{"flag", "flag"},
		{"COALESCE(s, 'x') = 'y' AND coalesce(a, b, 0) > 1", "coalesce(s, 'x') = 'y' AND coalesce(a, b, 0) > 1"},
		{"case when a > 0 then 1 else 0 end = 1", "CASE WHEN a > 0 THEN 1 ELSE 0 END = 1"},
		{"CASE WHEN a > 0 AND flag THEN s WHEN b IS NULL THEN 'x' END IS NOT NULL", "CASE WHEN a > 0 AND flag THEN s WHEN b IS NULL THEN 'x' END IS NOT NULL"},
		{"CASE WHEN flag THEN a > 0 ELSE NULL END", "CASE WHEN flag THEN a > 0 ELSE NULL END"},
		{"CASE WHEN a > 0 THEN 1.5 ELSE a END + 1 > 2", "CASE WHEN a > 0 THEN 1.5 ELSE a END + 1 > 2"},
		{"CASE WHEN flag THEN id ELSE 'a0eebc99-9c0b-4ef8-bb6d-6bb9bd380a11' END IS NULL", "CASE WHEN flag THEN id ELSE 'a0eebc99-9c0b-4ef8-bb6d-6bb9bd380a11' END IS NULL"},
	}
	for _, c := range cases {
		n, err := expr.Parse(c.src)
		if err != nil {
			t.Errorf("Parse(%q): %v", c.src, err)
			continue
		}
		n, errs := expr.Analyze(n, testCols)
		if len(errs) > 0 {
			t.Errorf("Analyze(%q): %v", c.src, errs[0])
			continue
		}
		if got := render.String(n); got != c.want {
			t.Errorf("Parse(%q) = %q, want %q", c.src, got, c.want)
		}
	}
}

func TestParseTree(t *testing.T) {
	n, err := expr.Parse("a = 1 OR b = 2 AND s = 'x'")
	if err != nil {
		t.Fatal(err)
	}
	or, ok := n.(*expr.Binary)
	if !ok || or.Op != expr.OpOr {
		t.Fatalf("top node is %T, want OR", n)
	}
	if and, ok := or.R.(*expr.Binary); !ok || and.Op != expr.OpAnd {
		t.Fatalf("AND must bind tighter than OR, got %s", render.String(or.R))
	}
}

func TestParseErrors(t *testing.T) {
	cases := []struct {
		src    string
		msg    string
		offset int
	}{
		{"a = ", "expected a value, found end of expression", 3},
		{"a = 'x", "unterminated string literal", 4},
		{"a / 2", "division is not portable", 2},
		{"a::text", "casts", 1},
		{"`a` = 1", "backquoted identifiers", 0},
		{"a IN 1", "expected ( after IN", 5},
		{"a IS 1", "expected NULL, NOT NULL or [NOT] DISTINCT FROM", 5},
		{"a NOT 1", "expected IN, LIKE, REGEXP or BETWEEN after NOT", 6},
		{"(a = 1", "expected ), found end of expression", 6},
		{"a = 1 )", `unexpected ")" after the end`, 6},
		{"and = 1", "expected a value, found keyword AND", 0},
		{"a = 1x", "malformed number", 4},
		{"a # 1", "unexpected character", 2},
		{strings.Repeat("(", 300) + "a" + strings.Repeat(")", 300), "nests too deeply", 200},
	}
	for _, c := range cases {
		_, err := expr.Parse(c.src)
		pe, ok := err.(*expr.Error)
		if !ok {
			t.Errorf("Parse(%q) = %v, want an *Error", c.src, err)
			continue
		}
		if !strings.Contains(pe.Msg, c.msg) || pe.Offset != c.offset {
			t.Errorf("Parse(%q) = %q at %d, want %q at %d", c.src, pe.Msg, pe.Offset, c.msg, c.offset)
		}
	}
}

func TestAnalyzeErrors(t *testing.T) {
	cases := []struct {
		src, msg string
		offset   int
	}{
		{"zz = 1", `unknown column "zz"`, 0},
		{"a = 'x'", "= compares integer with string", 4},
		{"s LIKE 'a\\b'", "backslash in a LIKE pattern", 7},
		{"s ~ s", "must be a string literal", 4},
		{"s ~ '(a'", "regular expression is not portable", 4},
		{"s ~ 'a\\b'", `\b and \B`, 4},
		{"json_type(doc) = 'dict'", "unknown JSON type 'dict'", 17},
		{"json_type(doc) > 'object'", "can only be compared", 0},
		{"doc = doc", "comparing JSON values is not portable", 0},
		{"lower(a) = 'x'", "the operand of lower must be string, not integer", 6},
		{"upper(s, s) = 'x'", "takes 1 argument(s), not 2", 0},
		{"nope(a)", "unknown function nope", 0},
		{"a = now()", "now() is not allowed", 4},
		{"NOT a", "the operand of NOT must be bool, not integer", 4},
		{"a AND flag", "the operand of AND must be bool, not integer", 0},
		{"s + 1 > 0", "the operand of + must be a number, not string", 0},
		{"coalesce(a) > 0", "takes two or more arguments, not 1", 0},
		{"coalesce(a, 'x') > 0", "the arguments of coalesce must be of one kind: integer and string", 12},
		{"coalesce(s, 'x') > 0", "compares string with integer", 19},
		{"CASE WHEN a THEN 1 END = 1", "the operand of WHEN must be bool, not integer", 10},
		{"CASE WHEN flag THEN 1 ELSE s END = 1", "the results of CASE must be of one kind, not integer and string", 27},
		{"CASE WHEN flag THEN a ELSE 'x' END = 1", "the results of CASE must be of one kind, not integer and string", 27},
		{"CASE WHEN flag THEN id ELSE s END IS NULL", "the results of CASE must be of one kind, not uuid and string", 28},
		{"CASE WHEN flag THEN id ELSE 'x' END IS NULL", "'x' is not a UUID", 28},
		{"CASE WHEN flag THEN NULL END IS NULL", "CASE needs a result that is not NULL", 0},
		{"CASE WHEN flag THEN s ELSE 'x' END = 1", "compares string with integer", 37},
	}
	for _, c := range cases {
		n, err := expr.Parse(c.src)
		if err != nil {
			t.Errorf("Parse(%q): %v", c.src, err)
			continue
		}
		_, errs := expr.Analyze(n, testCols)
		found := false
		for _, e := range errs {
			if strings.Contains(e.Msg, c.msg) && e.Offset == c.offset {
				found = true
			}
		}
		if !found {
			t.Errorf("Analyze(%q) = %v, want %q at %d", c.src, errs, c.msg, c.offset)
		}
	}
}

// A "[:" that starts no character class name is no class ("[:]" once
// made the analyzer slice past its end).
func TestRegexColonBracket(t *testing.T) {
	for _, src := range []string{"s ~ '0[:]'", "s ~ '[:]'"} {
		n, err := expr.Parse(src)
		if err != nil {
			t.Fatal(err)
		}
		if _, errs := expr.Analyze(n, testCols); len(errs) > 0 {
			t.Errorf("%s: %v", src, errs[0])
		}
	}
	n, _ := expr.Parse("s ~ '[[:alpha:]]'")
	if _, errs := expr.Analyze(n, testCols); len(errs) != 1 || !strings.Contains(errs[0].Msg, "[:alpha:]") {
		t.Errorf("[[:alpha:]]: %v", errs)
	}
}

func TestUUIDIsText(t *testing.T) {
	n, _ := expr.Parse("id ~ '^[0-9a-f-]{36}$' AND char_length(id) = 36")
	if _, errs := expr.Analyze(n, testCols); len(errs) > 0 {
		t.Fatalf("uuid must be usable as text: %v", errs)
	}
}

// FuzzParse checks that no input makes the parser or the analyzer panic, and
// that what they accept prints back to an expression that parses the same.
func FuzzParse(f *testing.F) {
	for _, s := range []string{
		"a = 1", "kind IN ('embedding', 'retrieval')", "s ~ '^builtin:[a-z0-9]([a-z0-9-]{0,62}[a-z0-9])?$'",
		"json_type(doc) = 'object'", "a IS NOT DISTINCT FROM b", "NOT (a < 0 OR a > 150)",
		"char_length(s) BETWEEN 1 AND 16", "'it''s' = s", `"a" <> -1.5`, "(((a)))", "a -- c\n = 1",
	} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, src string) {
		n, err := expr.Parse(src)
		if err != nil {
			if _, ok := err.(*expr.Error); !ok {
				t.Fatalf("Parse(%q) returned %T", src, err)
			}
			return
		}
		printed := render.String(n)
		again, err := expr.Parse(printed)
		if err != nil {
			t.Fatalf("Parse(%q) printed %q, which does not parse: %v", src, printed, err)
		}
		if render.String(again) != printed {
			t.Fatalf("printing is not stable: %q then %q", printed, render.String(again))
		}
		expr.Analyze(n, testCols)
	})
}

// Unsupported SQL is named, with what to write instead, at the construct.
func TestUnsupportedConstructs(t *testing.T) {
	for _, c := range []struct{ src, at, want string }{
		{"CASE a WHEN 1 THEN b ELSE 0 END", "CASE", "write the searched form CASE WHEN x = v THEN ... END"},
		{"CASE WHEN a > 0 b END", "b", "expected THEN in CASE"},
		{"CASE WHEN a > 0 THEN b ELSE 0", "", "expected WHEN, ELSE or END in CASE"},
		{"CAST(a AS text) = 'x'", "CAST", "CAST is not part of portable expressions: types follow from the columns"},
		{"a IN (SELECT 1)", "SELECT", "subqueries are not allowed"},
		{"a = (select max(b) from t)", "select", "subqueries are not allowed"},
		{"EXISTS (SELECT 1)", "EXISTS", "EXISTS (subquery) is not allowed"},
		{"d->>'k' = 'v'", "->>", "the JSON operator ->> is not portable"},
		{"d->'k' IS NULL", "->", "the JSON operator -> is not portable"},
		{"a > 1.5e3", "1.5e3", "exponent notation (1.5e3) is not portable; write the number out: 1500"},
		{"a > 2E-2", "2E-2", "write the number out: 0.02"},
		{"a > 1e999999999", "1e999999999", "write the number out: the digits in full"},
	} {
		_, err := expr.Parse(c.src)
		pe, ok := err.(*expr.Error)
		if !ok {
			t.Errorf("%s: got %v, want an *Error", c.src, err)
			continue
		}
		if !strings.Contains(pe.Msg, c.want) {
			t.Errorf("%s: %q, want %q", c.src, pe.Msg, c.want)
		}
		if got := c.src[min(pe.Offset, len(c.src)):min(pe.End, len(c.src))]; got != c.at {
			t.Errorf("%s: error at %q, want %q", c.src, got, c.at)
		}
	}
	// A column named case (quoted or not followed by WHEN) is still a column.
	if _, err := expr.Parse(`"case" > 0`); err != nil {
		t.Errorf(`"case" > 0: %v`, err)
	}
	if _, err := expr.Parse("a > 1e"); err == nil || !strings.Contains(err.Error(), "malformed number") {
		t.Errorf("1e: %v", err)
	}
}

// The same grammar reads what PostgreSQL prints back.
func TestReadCasePrinted(t *testing.T) {
	r := &expr.Reader{Grammar: &parse.Grammar{IdentQuote: '"', PostgresOperators: true, Precedence: map[string]int{"or": 1, "and": 2, "=": 4, ">": 4, "is": 4}, NotPrec: 3, NegPrec: 7},
		Binary: map[string]expr.Op{"=": expr.OpEq, ">": expr.OpGt, "and": expr.OpAnd, "or": expr.OpOr}}
	n, err := r.Read("CASE WHEN (a > 0) THEN 1 WHEN ((b = 2) AND flag) THEN 2 ELSE 0 END", testCols)
	if err != nil {
		t.Fatal(err)
	}
	if got, want := render.String(n), "CASE WHEN a > 0 THEN 1 WHEN b = 2 AND flag THEN 2 ELSE 0 END"; got != want {
		t.Errorf("read %q, want %q", got, want)
	}
	if _, err := r.Read("CASE a WHEN 1 THEN 1 END", testCols); err == nil || !strings.Contains(err.Error(), "simple CASE") {
		t.Errorf("simple CASE: %v", err)
	}
}

func TestColumnNamedCase(t *testing.T) {
	if _, err := expr.Parse("case > 0"); err != nil {
		t.Errorf("case > 0: %v", err)
	}
}
