package tidb

import (
	"strings"
	"testing"

	"github.com/schemagen/schemagen/compiler/expr"
	"github.com/schemagen/schemagen/dialects/internal/sqltext"
	"github.com/schemagen/schemagen/dialects/tidb/internal/lower"
)

var testColumns = map[string]expr.Kind{
	"id": expr.KindUUID, "email": expr.KindString, "code": expr.KindString, "name": expr.KindString,
	"status": expr.KindString, "role": expr.KindString, "previous_role": expr.KindString,
	"age": expr.KindInteger, "n": expr.KindInteger, "visits": expr.KindInteger,
	"score": expr.KindNumeric, "balance": expr.KindNumeric, "profile": expr.KindJSON,
	"born_on": expr.KindDate, "created_at": expr.KindTime, "disabled": expr.KindBool, "Mixed`Name": expr.KindInteger,
}

func testResolver(name string) (expr.Kind, bool) {
	k, ok := testColumns[name]
	return k, ok
}

// TestParseExpr reads the forms TiDB reports; the result is shown as the
// portable expression renders for TiDB, which parenthesises by structure.
func TestParseExpr(t *testing.T) {
	for _, c := range []struct{ text, want string }{
		{"(`status` in (_utf8mb4'it''s new',_utf8mb4'active',_utf8mb4'back\\\\slash') and char_length(`status`) between 1 and 16)",
			"`status` IN ('it''s new', 'active', 'back\\\\slash') AND CHAR_LENGTH(`status`) BETWEEN 1 AND 16"},
		{"(((`visits` * 2) + 1) > -1 and (`visits` % 2) in (0,1) and abs(`balance`) >= 0)",
			"((`visits` * 2) + 1) > -1 AND (`visits` % 2) IN (0, 1) AND ABS(`balance`) >= 0"},
		{"(`age` is null or not (`age` < 0 or `age` > 150))", "`age` IS NULL OR NOT (`age` < 0 OR `age` > 150)"},
		{"(char_length(`id`) = 36 and lower(concat(`code`, _utf8mb4'x')) != _utf8mb4'x')", "CHAR_LENGTH(`id`) = 36 AND LOWER(CONCAT(`code`, 'x')) <> 'x'"},
		{"json_type(`profile`) = _utf8mb4'OBJECT'", "JSON_TYPE(`profile`) = 'OBJECT'"},
		{"json_type(`profile`) != _utf8mb4'ARRAY'", "JSON_TYPE(`profile`) <> 'ARRAY'"},
		{"json_type(`profile`) in (_utf8mb4'INTEGER',_utf8mb4'UNSIGNED INTEGER',_utf8mb4'DOUBLE',_utf8mb4'DECIMAL')",
			"JSON_TYPE(`profile`) IN ('INTEGER', 'UNSIGNED INTEGER', 'DOUBLE', 'DECIMAL')"},
		{"json_type(`profile`) not in (_utf8mb4'DOUBLE',_utf8mb4'NULL',_utf8mb4'INTEGER',_utf8mb4'DECIMAL',_utf8mb4'UNSIGNED INTEGER')",
			"JSON_TYPE(`profile`) NOT IN ('INTEGER', 'UNSIGNED INTEGER', 'DOUBLE', 'DECIMAL', 'NULL')"},
		{"(`code` regexp _utf8mb4'^[A-Z]{2}$' and not (`code` regexp _utf8mb4'^XX') and `code` not like _utf8mb4'ZZ%')",
			"`code` REGEXP '^[A-Z]{2}$' AND NOT (`code` REGEXP '^XX') AND `code` NOT LIKE 'ZZ%'"},
		{"`code` not regexp _utf8mb4'x' or `code` rlike _utf8mb4'y'", "NOT (`code` REGEXP 'x') OR `code` REGEXP 'y'"},
		{"(not (`previous_role` <=> `role`) or `previous_role` <=> null)", "NOT (`previous_role` <=> `role`) OR `previous_role` <=> NULL"},
		{"not(`previous_role` <=> `role`)", "NOT (`previous_role` <=> `role`)"},
		{"not (not (`previous_role` <=> `role`))", "NOT (NOT (`previous_role` <=> `role`))"},
		{"(`score` >= 0 and `score` > -2.5 and -`visits` < 3 and -(`visits` + 1) < 2)",
			"`score` >= 0 AND `score` > -2.5 AND (-`visits`) < 3 AND (-(`visits` + 1)) < 2"},
		{"`age` + 0.5 > 1 and `n` between `age` and `visits` and `n` not between 1 and 2", "(`age` + 0.5) > 1 AND `n` BETWEEN `age` AND `visits` AND `n` NOT BETWEEN 1 AND 2"},
		{"`disabled` = true or `disabled` = false or not (`disabled`) or `disabled` is not null", "`disabled` = TRUE OR `disabled` = FALSE OR NOT `disabled` OR `disabled` IS NOT NULL"},
		{"`name` = _utf8mb4'a\\\\b\nc\\'d''e\\%f\\_g\\0\\t'", "`name` = 'a\\\\b\nc''d''e\\\\%f\\\\_g\x00\t'"},
		{"`name` = 'plain'", "`name` = 'plain'"},
		{"`n` = 1 && `n` <> 2 AND ! (`n` = 3)", "`n` = 1 AND `n` <> 2 AND NOT (`n` = 3)"},
		{"lcase(`name`) = ucase(`name`)", "LOWER(`name`) = UPPER(`name`)"},
		{"concat(`name`, `code`, _utf8mb4'x') = _utf8mb4''", "(CONCAT((CONCAT(`name`, `code`)), 'x')) = ''"},
		{"`Mixed``Name` > 0", "`Mixed``Name` > 0"},
		{"`n` + 1", "`n` + 1"},
		{"case when (`n` > 0) then 1 else 0 end", "CASE WHEN `n` > 0 THEN 1 ELSE 0 END"},
		{"((case when `n` > 0 then `n` < 5 else true end) = true)", "CASE WHEN `n` > 0 THEN `n` < 5 ELSE TRUE END"},
		{"(case when `n` > 0 and `disabled` then `name` when `n` is null then _utf8mb4'x' end) = _utf8mb4'y'", "(CASE WHEN `n` > 0 AND `disabled` THEN `name` WHEN `n` IS NULL THEN 'x' END) = 'y'"},
		{"CHECK ((`n` > 1))", "`n` > 1"},
		{"`n` > 1 /* TiDB prints no comments */", "`n` > 1"},
		{"(`n` + -1) * 2", "(`n` + -1) * 2"},
		{"`n` > 1 and (`n` < 5 and `n` <> 3)", "`n` > 1 AND (`n` < 5 AND `n` <> 3)"},
		{"`n` in (`age`, 1)", "`n` IN (`age`, 1)"},
		{"`id` regexp _utf8mb4'^[0-9a-f-]{36}$'", "`id` REGEXP '^[0-9a-f-]{36}$'"},
		{"`born_on` > _utf8mb4'2020-01-01' and `created_at` > _UTF8MB4'2020-01-01 00:00:00'", "`born_on` > '2020-01-01' AND `created_at` > '2020-01-01 00:00:00'"},
	} {
		n, err := Dialect{}.ParseExpr(c.text, testResolver)
		if err != nil {
			t.Errorf("%s: %v", c.text, err)
			continue
		}
		if got := sqltext.Expr(lower.Syntax{}, n); got != c.want {
			t.Errorf("%s\n got: %s\nwant: %s", c.text, got, c.want)
		}
		expr.Walk(n, func(x expr.Node) bool {
			if _, ok := x.(*expr.Paren); ok {
				t.Errorf("%s: Paren node in the result", c.text)
			}
			return true
		})
	}
}

// TestParseExprJSONType checks that JSON_TYPE's names come back as the
// portable ones, the four numbers as one 'number'.
func TestParseExprJSONType(t *testing.T) {
	for text, want := range map[string]string{
		"json_type(`profile`) = _utf8mb4'OBJECT'":  "object",
		"_utf8mb4'STRING' != json_type(`profile`)": "!string",
		"json_type(`profile`) in (_utf8mb4'INTEGER',_utf8mb4'UNSIGNED INTEGER',_utf8mb4'DOUBLE',_utf8mb4'DECIMAL',_utf8mb4'ARRAY')": "number,array",
		"json_type(`profile`) not in (_utf8mb4'BOOLEAN',_utf8mb4'NULL')":                                                            "!boolean,null",
	} {
		n, err := Dialect{}.ParseExpr(text, testResolver)
		if err != nil {
			t.Errorf("%s: %v", text, err)
			continue
		}
		j, ok := n.(*expr.JSONType)
		if !ok {
			t.Errorf("%s: got %T, want JSONType", text, n)
			continue
		}
		got := strings.Join(j.Types, ",")
		if j.Not {
			got = "!" + got
		}
		if got != want {
			t.Errorf("%s: got %s, want %s", text, got, want)
		}
	}
}

// TestParseExprRefuses lists what has no portable form, with the message
// that names it.
func TestParseExprRefuses(t *testing.T) {
	for _, c := range []struct{ text, msg string }{
		{"md5(`name`) = _utf8mb4'x'", "the function md5 has no portable form"},
		{"`created_at` > now()", "the function now has no portable form"},
		{"`created_at` > current_timestamp", "the function current_timestamp has no portable form"},
		{"`n` in (select 1)", "a subquery has no portable form"},
		{"exists (select 1)", "a subquery has no portable form"},
		{"`n` = (select 1)", "a subquery has no portable form"},
		{"cast(`n` as char) = _utf8mb4'1'", "casts have no portable form"},
		{"`name` || `code`", "the operator || has no portable form"},
		{"`n` xor `n`", "XOR has no portable form"},
		{"`n` div 2 > 1", "DIV has no portable form"},
		{"`n` / 2 > 1", "the operator / has no portable form"},
		{"`n` & 1 = 1", "the operator & has no portable form"},
		{"~`n` > 1", "the prefix operator ~ has no portable form"},
		{"`n` is true", "IS TRUE has no portable form"},
		{"`name` = _latin1'x'", "the charset introducer _latin1 has no portable form"},
		{"`name` = _binary'x'", "the charset introducer _binary has no portable form"},
		{"`name` = X'41'", "hexadecimal and binary literals have no portable form"},
		{"`n` = 0x41", "hexadecimal and binary literals have no portable form"},
		{"`name` = _utf8mb4'x' collate utf8mb4_general_ci", "COLLATE has no portable form"},
		{"`name` like _utf8mb4'a|%' escape '|'", "ESCAPE has no portable form"},
		{"`name` ilike _utf8mb4'a%'", "ILIKE has no portable form"},
		{"json_type(`profile`) = _utf8mb4'INTEGER'", "tests only some JSON numbers"},
		{"json_type(`profile`) in (_utf8mb4'INTEGER',_utf8mb4'DOUBLE')", "tests only some JSON numbers"},
		{"json_type(`profile`) = _utf8mb4'BLOB'", "the JSON type 'BLOB' has no portable name"},
		{"json_type(`profile`) = _utf8mb4'object'", "the JSON type 'object' has no portable name"},
		{"concat(`name`) = _utf8mb4'x'", "CONCAT of fewer than two arguments"},
		{"case `n` when 1 then 1 end = 1", "the simple CASE x WHEN v has no portable form"},
		{"case when `n` > 1 then 1 else `name` end = 1", "the results of CASE must be of one kind, not integer and string"},
		{"case when `n` then 1 end = 1", "the operand of WHEN must be bool, not integer"},
		{"`t`.`n` > 1", "qualified names have no portable form"},
		{"t.n > 1", "qualified names have no portable form"},
		{"`nope` > 1", `unknown column "nope"`},
		{"`profile` = `profile`", "comparing JSON values is not portable"},
		{"`n` regexp _utf8mb4'a'", "the operand of regex match must be string, not integer"},
		{"`name` like _utf8mb4'a\\\\%'", "backslash in a LIKE pattern is not portable"},
		{"`n` > 1e3", "has an exponent"},
		{"`name` = _utf8mb4'abc", `TiDB's parser rejects it (at "'abc")`},
		{"`n` > 1 `n`", `unexpected text after the end of the expression (at "n")`},
		{"`n` > 1, 2", "not one expression"},
		{"`n` > 1 from t", "not one expression"},
		{"`n` > 1; select 2", "not one expression"},
		{"`n` > 1 and", "unexpected end of expression"},
		{"`n` > 1 or `n` || `n`", "the operator || has no portable form"},
		{"db.f(`n`) > 1", "qualified function names have no portable form"},
		{"`n` in (1) is not false", "IS NOT FALSE has no portable form"},
		{"convert(`name` using latin1) = _utf8mb4'x'", "the function convert has no portable form"},
		{"`n` = @x", "variables have no portable form"},
		{"(`n`, `n`) = (1, 2)", "row values have no portable form"},
		{"`n` > 1 + +1", "the prefix operator + has no portable form"},
		{"`n` :: text", `TiDB's parser rejects it (at ":: text")`},
		{"`n` := 1", `TiDB's parser rejects it (at ":= 1")`},
		{"`f`(1) = 1", "the function f has no portable form"},
		{"`n` > " + strings.Repeat("1", 120), "TiDB's parser fails on it"},
		{strings.Repeat("(", 1000) + "`n`" + strings.Repeat(")", 1000), "nests too deeply"},
	} {
		_, err := Dialect{}.ParseExpr(c.text, testResolver)
		if err == nil {
			t.Errorf("%s: no error, want %q", c.text, c.msg)
			continue
		}
		if !strings.Contains(err.Error(), c.msg) {
			t.Errorf("%s:\n got: %v\nwant: %s", c.text, err, c.msg)
		}
	}
}

// FuzzParseExpr checks that no text makes ParseExpr panic.
func FuzzParseExpr(f *testing.F) {
	for _, s := range []string{
		"(`status` in (_utf8mb4'it''s new',_utf8mb4'back\\\\slash') and char_length(`status`) between 1 and 16)",
		"(not (`previous_role` <=> `role`) or `previous_role` <=> null)",
		"json_type(`profile`) in (_utf8mb4'INTEGER',_utf8mb4'UNSIGNED INTEGER',_utf8mb4'DOUBLE',_utf8mb4'DECIMAL',_utf8mb4'ARRAY')",
		"(lower(concat(`code`, _utf8mb4'x')) != _utf8mb4'x' and -(`n` + 1) < 2)",
		"not (`code` regexp _utf8mb4'^XX') && ! `disabled`",
		strings.Repeat("1", 120),
	} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		_, _ = Dialect{}.ParseExpr(s, testResolver)
	})
}

// BenchmarkParseExpr reads a CHECK as TiDB prints it.
func BenchmarkParseExpr(b *testing.B) {
	text := "((`status` in (_utf8mb4'it''s new',_utf8mb4'active') and char_length(`status`) between 1 and 16) or (not (`previous_role` <=> `role`) and json_type(`profile`) = _utf8mb4'OBJECT'))"
	for b.Loop() {
		if _, err := (Dialect{}).ParseExpr(text, testResolver); err != nil {
			b.Fatal(err)
		}
	}
}
