package postgres

import (
	"strings"
	"testing"

	"github.com/schemagen/schemagen/compiler/expr"
	"github.com/schemagen/schemagen/dialects/internal/sqltext"
	"github.com/schemagen/schemagen/dialects/postgres/internal/lower"
)

var testColumns = map[string]expr.Kind{
	"id": expr.KindUUID, "email": expr.KindString, "code": expr.KindString, "name": expr.KindString,
	"status": expr.KindString, "role": expr.KindString, "previous_role": expr.KindString,
	"age": expr.KindInteger, "n": expr.KindInteger, "visits": expr.KindInteger,
	"score": expr.KindNumeric, "balance": expr.KindNumeric, "profile": expr.KindJSON,
	"born_on": expr.KindDate, "created_at": expr.KindTime, "disabled": expr.KindBool, "order": expr.KindInteger,
}

func testResolver(name string) (expr.Kind, bool) {
	k, ok := testColumns[name]
	return k, ok
}

// TestParseExpr reads the forms PostgreSQL prints; the result is shown as
// the dialect renders it, which parenthesises by structure.
func TestParseExpr(t *testing.T) {
	for _, c := range []struct{ text, want string }{
		// IN on varchar, as first normalised and as normalised again.
		{`((kind)::text = ANY ((ARRAY['a'::character varying, 'b'::character varying])::text[]))`, `"kind" IN ('a', 'b')`},
		{`(((status)::text = ANY (ARRAY[('new'::character varying)::text, ('active'::character varying)::text])) AND (n >= 1))`, `"status" IN ('new', 'active') AND "n" >= 1`},
		{`(name <> ALL (ARRAY['a'::text, 'b'::text]))`, `"name" NOT IN ('a', 'b')`},
		{`((visits % (2)::bigint) = ANY (ARRAY[(0)::bigint, (1)::bigint]))`, `("visits" % 2) IN (0, 1)`},
		{`(char_length((email)::text) <= 255)`, `CHAR_LENGTH("email") <= 255`},
		{`((name IS NULL) OR (name ~ '^builtin:[a-z0-9]$'::text))`, `"name" IS NULL OR "name" ~ '^builtin:[a-z0-9]$'`},
		{`((id)::text ~ '^[0-9a-f-]+$'::text)`, `"id"::text ~ '^[0-9a-f-]+$'`},
		{`(id <> '00000000-0000-0000-0000-000000000000'::uuid)`, `"id" <> '00000000-0000-0000-0000-000000000000'`},
		{`(jsonb_typeof(profile) = 'object'::text)`, `jsonb_typeof("profile") = 'object'`},
		{`(jsonb_typeof(profile) <> ALL (ARRAY['null'::text, 'number'::text]))`, `jsonb_typeof("profile") NOT IN ('null', 'number')`},
		{`(((visits * 2) + 1) > '-1'::integer)`, `(("visits" * 2) + 1) > -1`},
		{`(COALESCE((age)::integer, 0) > 1)`, `COALESCE("age", 0) > 1`},
		{`(COALESCE(name, ''::text) <> 'x'::text)`, `COALESCE("name", '') <> 'x'`},
		{`((score >= (0)::double precision) AND (score > ('-2.5'::numeric)::double precision))`, `"score" >= 0 AND "score" > -2.5`},
		{`((balance > ('-3'::integer)::numeric) AND (balance < 2.50))`, `"balance" > -3 AND "balance" < 2.50`},
		{`((age >= 1) AND (age <= 150))`, `"age" >= 1 AND "age" <= 150`},
		{`(((age >= 1) AND (age <= 150)) AND (n > 0))`, `"age" BETWEEN 1 AND 150 AND "n" > 0`},
		{`(((age < 1) OR (age > 5)) OR (n > 0))`, `"age" NOT BETWEEN 1 AND 5 OR "n" > 0`},
		{`((n > 0) AND (n < 10) AND (n <> 5))`, `"n" > 0 AND "n" < 10 AND "n" <> 5`},
		{`((n > 0) AND ((n < 10) AND (n <> 5)))`, `"n" > 0 AND ("n" < 10 AND "n" <> 5)`},
		{`(previous_role IS DISTINCT FROM role)`, `"previous_role" IS DISTINCT FROM "role"`},
		{`(NOT ((previous_role)::text IS DISTINCT FROM (role)::text))`, `"previous_role" IS NOT DISTINCT FROM "role"`},
		{`(NOT (NOT (name IS DISTINCT FROM 'x'::text)))`, `NOT ("name" IS NOT DISTINCT FROM 'x')`},
		{`((code)::text !~ '^XX'::text)`, `"code" !~ '^XX'`},
		{`((code)::text !~~ 'ZZ%'::text)`, `"code" NOT LIKE 'ZZ%'`},
		{`((email)::text ~~ '%@%'::text)`, `"email" LIKE '%@%'`},
		{`lower((email)::text)`, `LOWER("email")`},
		{`CASE WHEN (n > 0) THEN 1 ELSE 0 END`, `CASE WHEN "n" > 0 THEN 1 ELSE 0 END`},
		{`(CASE WHEN ((status)::text = 'x'::text) THEN name WHEN (n IS NULL) THEN 'y'::character varying ELSE NULL::character varying END IS NOT NULL)`, `(CASE WHEN "status" = 'x' THEN "name" WHEN "n" IS NULL THEN 'y' ELSE NULL END) IS NOT NULL`},
		{`(CASE WHEN disabled THEN (n)::numeric ELSE score END > 1.5)`, `(CASE WHEN "disabled" THEN "n" ELSE "score" END) > 1.5`},
		{`(((code)::text || 'x'::text))`, `"code" || 'x'`},
		{`(abs(balance) >= (0)::numeric)`, `ABS("balance") >= 0`},
		{`(NOT ((age < 0) OR (age > 150)))`, `NOT ("age" < 0 OR "age" > 150)`},
		{`((- visits) < 3)`, `(-"visits") < 3`},
		{`((- (n + 1)) < 2)`, `(-("n" + 1)) < 2`},
		{`(name <> 'it''s'::text)`, `"name" <> 'it''s'`},
		{`(name <> 'back\slash'::text)`, `"name" <> 'back\slash'`},
		{`(name <> E'a\\b\'c\n\x41\101\u00e9'::text)`, "\"name\" <> 'a\\b''c\nAAé'"},
		{`((disabled = true) OR (disabled = false) OR (NOT disabled))`, `"disabled" = TRUE OR "disabled" = FALSE OR NOT "disabled"`},
		{`((name || (status)::text) = 'ab'::text)`, `("name" || "status") = 'ab'`},
		{`(((age)::numeric + 0.5) > (1)::numeric)`, `("age" + 0.5) > 1`},
		{`((balance)::double precision > score)`, `"balance" > "score"`},
		{`(born_on > '2020-01-01'::date)`, `"born_on" > '2020-01-01'`},
		{`(created_at > '2020-01-01 00:00:00+00'::timestamp with time zone)`, `"created_at" > '2020-01-01 00:00:00+00'`},
		{`(previous_role IS NULL)`, `"previous_role" IS NULL`},
		{`("order" > 0)`, `"order" > 0`},
		{`(((role)::text = (status)::text) OR ((role)::text = 'x'::text))`, `"role" = "status" OR "role" = 'x'`},
		{`(code <> 'AB'::bpchar)`, `"code" <> 'AB'`},
		{`(upper(name) = 'X'::text)`, `UPPER("name") = 'X'`},
		{`(character_length(name) < 5)`, `CHAR_LENGTH("name") < 5`},
		{`(name = NULL::text) IS NULL`, `("name" = NULL) IS NULL`},
		{`(visits > (7)::bigint)`, `"visits" > 7`},
		{`CHECK (((n > 0) AND (name IS NOT NULL)))`, `"n" > 0 AND "name" IS NOT NULL`},
		{`((visits)::numeric > 1.5)`, `"visits" > 1.5`},
		{`(n > '7'::bigint)`, `"n" > 7`},
	} {
		n, err := Dialect{}.ParseExpr(c.text, testResolver)
		if err != nil {
			if strings.Contains(c.text, "kind") {
				// "kind" is not a test column; read it as text.
				n, err = Dialect{}.ParseExpr(c.text, func(name string) (expr.Kind, bool) {
					if name == "kind" {
						return expr.KindString, true
					}
					return testResolver(name)
				})
			}
			if err != nil {
				t.Errorf("%s: %v", c.text, err)
				continue
			}
		}
		if got := sqltext.Expr(lower.Syntax{}, n); got != c.want {
			t.Errorf("%s\n got: %s\nwant: %s", c.text, got, c.want)
		}
		expr.Walk(n, func(x expr.Node) bool {
			if _, ok := x.(*expr.Paren); ok {
				t.Errorf("%s: Paren node in the result", c.text)
			}
			if col, ok := x.(*expr.Column); ok && col.Kind == expr.KindUnknown {
				t.Errorf("%s: column %s not analyzed", c.text, col.Name)
			}
			return true
		})
	}
}

// TestParseExprJSONType checks that json type tests come back as JSONType.
func TestParseExprJSONType(t *testing.T) {
	n, err := Dialect{}.ParseExpr(`(jsonb_typeof(profile) = ANY (ARRAY['object'::text, 'array'::text]))`, testResolver)
	if err != nil {
		t.Fatal(err)
	}
	j, ok := n.(*expr.JSONType)
	if !ok || j.Not || strings.Join(j.Types, ",") != "object,array" {
		t.Fatalf("got %#v", n)
	}
}

// TestParseExprRefuses lists what has no portable form, with the message
// that names it.
func TestParseExprRefuses(t *testing.T) {
	for _, c := range []struct{ text, msg string }{
		{`(md5(name) = 'x'::text)`, "the function md5 has no portable form"},
		{`(created_at > now())`, "the function now has no portable form"},
		{`(created_at > CURRENT_TIMESTAMP)`, "CURRENT_TIMESTAMP has no portable form"},
		{`(EXISTS (SELECT 1))`, "a subquery has no portable form"},
		{`(n = ANY ((SELECT 1)))`, "a subquery has no portable form"},
		{`(n IN (SELECT 1))`, "a subquery has no portable form"},
		{`((score)::integer > 1)`, "the cast to integer of a value of kind numeric changes it"},
		{`((n)::text = '1'::text)`, "the cast to text of a value of kind integer changes it"},
		{`((created_at)::date > '2020-01-01'::date)`, "the cast to date of a value of kind timestamp changes it"},
		{`((profile)::text = 'x'::text)`, "the cast to text of a value of kind json changes it"},
		{`((n)::smallint > 1)`, "the cast to smallint of a value of kind integer changes it"},
		{`(COALESCE((age)::integer + 1, 0) > 1)`, "the cast to integer of a value of kind integer changes it"},
		{`(abs((age)::integer) > 1)`, "the cast to integer of a value of kind integer changes it"},
		{`((score)::numeric > 1)`, "the cast to numeric of a value of kind numeric changes it"},
		{`((name)::character varying(3) = 'abc'::text)`, "the cast to character varying(3) has a type modifier"},
		{`(n > (1.5)::integer)`, "the literal 1.5 cast to integer has no portable form"},
		{`(n > 'abc'::integer)`, "the literal 'abc' cast to integer has no portable form"},
		{`(score > 'NaN'::double precision)`, "the literal 'NaN' cast to double precision has no portable form"},
		{`(profile = '{}'::jsonb)`, "the literal '{}' cast to jsonb has no portable form"},
		{`(n > ('1'::text)::real)`, "the literal '1' cast to real has no portable form"},
		{`((code)::bpchar = 'x'::bpchar)`, "the cast to bpchar of a value of kind string changes it"},
		{`(name ~* 'a'::text)`, "the operator ~* has no portable form"},
		{`(name ~~* 'a'::text)`, "the operator ~~* has no portable form"},
		{`((n / 2) > 1)`, "the operator / has no portable form"},
		{`((n ^ 2) > 1)`, "the operator ^ has no portable form"},
		{`(profile @> '{}'::jsonb)`, "the operator @> has no portable form"},
		{`(n > ANY (ARRAY[1, 2]))`, "> ANY (...) has no portable form"},
		{`(n = ALL (ARRAY[1, 2]))`, "= ALL (...) has no portable form"},
		{`(name = ANY ('{a,b}'::text[]))`, "ANY and ALL of anything but an ARRAY[...] list have no portable form"},
		{`(CASE n WHEN 1 THEN true ELSE false END)`, "the simple CASE x WHEN v has no portable form"},
		{`(CASE WHEN (n > 1) THEN 1 ELSE 'x'::text END = 1)`, "the results of CASE must be of one kind"},
		{`((name)::text = 'a'::text COLLATE "C")`, "COLLATE has no portable form"},
		{`(t.n > 1)`, "qualified names have no portable form"},
		{`(public.f(n) > 1)`, "qualified names have no portable form"},
		{`(ROW(n, n) IS NULL)`, "row values have no portable form"},
		{`((n, n) IS NULL)`, "row values have no portable form"},
		{`(n IS TRUE)`, "IS TRUE has no portable form"},
		{`(name SIMILAR TO 'a')`, "SIMILAR has no portable form"},
		{`(nope > 1)`, `unknown column "nope"`},
		{`((nope)::text = 'a'::text)`, `unknown column "nope"`},
		{`(profile = profile)`, "comparing JSON values is not portable"},
		{`(n ~ 'a'::text)`, "the operand of regex match must be string, not integer"},
		{`(name ~~ 'a\%'::text)`, "backslash in a LIKE pattern is not portable"},
		{`(n > 1e3)`, "the number 1e3 has an exponent"},
		{`(name = 'abc)`, "unterminated string literal"},
		{`(n > 1`, "expected ), found end of expression"},
		{`(n > 1))`, `unexpected ")" after the end of the expression`},
		{`(n > ARRAY[1])`, "arrays have no portable form"},
		{`(arr[1] > 1)`, "array subscripts have no portable form"},
		{`(jsonb_typeof(profile) = 'integer'::text)`, "unknown JSON type 'integer'"},
		{`(n > $1)`, "unexpected character '$'"},
		{`CHECK ((n > 0)) NOT VALID`, "NOT VALID is not part of the expression"},
		{strings.Repeat("(", 1000) + "n" + strings.Repeat(")", 1000), "nests too deeply"},
	} {
		_, err := Dialect{}.ParseExpr(c.text, testResolver)
		if err == nil {
			t.Errorf("%s: no error, want %q", c.text, c.msg)
			continue
		}
		if !strings.Contains(err.Error(), c.msg) {
			t.Errorf("%s:\n got: %v\nwant: %s", c.text, err, c.msg)
		}
		if !strings.HasPrefix(err.Error(), "cannot read expression ") {
			t.Errorf("%s: the error does not name the expression: %v", c.text, err)
		}
	}
}

// FuzzParseExpr checks that no text makes ParseExpr panic, and that what it
// reads renders and reads again as the same expression.
func FuzzParseExpr(f *testing.F) {
	for _, s := range []string{
		`(((status)::text = ANY ((ARRAY['a'::character varying, 'b'::character varying])::text[])) AND ((char_length((status)::text) >= 1) AND (char_length((status)::text) <= 16)))`,
		`((((visits * 2) + 1) > '-1'::integer) AND ((visits % (2)::bigint) = ANY (ARRAY[(0)::bigint, (1)::bigint])) AND (abs(balance) >= (0)::numeric))`,
		`((age IS NULL) OR (NOT ((age < 0) OR (age > 150))))`,
		`(((age >= 1) AND (age <= 150)) AND (jsonb_typeof(profile) <> ALL (ARRAY['null'::text])))`,
		`(NOT ((previous_role)::text IS DISTINCT FROM (role)::text))`,
		`(name <> E'a\\b\'c\n')`,
		`lower(((code)::text || 'x'::text))`,
	} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		n, err := Dialect{}.ParseExpr(s, testResolver)
		if err != nil {
			return
		}
		again := sqltext.Expr(lower.Syntax{}, n)
		if _, err := expr.Parse(again); err != nil && !strings.Contains(again, "::text") {
			t.Fatalf("%q read as %q, which does not parse: %v", s, again, err)
		}
	})
}
