package difftest

import (
	"slices"
	"strings"

	"github.com/schemagen/schemagen/dialects/postgres"
	"github.com/schemagen/schemagen/dialects/tidb"
)

// Value is a value of a statement, neutral until rendered for a dialect.
type Value struct {
	Null bool
	S    string // number text, "true"/"false", string, or hex for bytes
}

func null() Value        { return Value{Null: true} }
func val(s string) Value { return Value{S: s} }
func vals(ss ...string) []Value {
	out := make([]Value, len(ss))
	for i, s := range ss {
		out[i] = val(s)
	}
	return out
}

// render writes v as a literal of dialect d for a column of type t.
func (v Value) render(d string, t Type) string {
	if v.Null {
		return "NULL"
	}
	quote := postgres.String
	if d == tidb.Name {
		quote = tidb.String
	}
	switch t.Name {
	case "double", "float", "decimal":
		if Special(v.S) {
			return quote(v.S) // PostgreSQL reads them only as strings
		}
		return v.S
	case "smallint", "int", "bigint":
		return v.S
	case "bool":
		if v.S != "true" && v.S != "false" {
			return quote(v.S) // as an application writes other values
		}
		return strings.ToUpper(v.S)
	case "bytes":
		if d == tidb.Name {
			return "x'" + v.S + "'"
		}
		return `'\x` + v.S + `'`
	}
	return quote(v.S)
}

// Full draws the whole space: also the values on which the databases are
// known to differ (docs/semantics.md, "Value domains", marked warn), and
// values that a setting the model turns off leaves different. A survey of
// a tree sets it (SCHEMAGEN_DIFFTEST_SPACE=full); the regular runs leave
// it off so that what they report is new.
var Full bool

// on reports whether a setting as the model writes it is on: "" is the
// default, which is on for every setting.
func on(setting string) bool { return setting != "false" }

// Differs reports whether v, in a column of type t, is a value the
// databases are known to store differently under m's settings: a value
// of a value domain with value_domains off, a trailing space without
// exact_strings, a malformed uuid without uuid_check, and always another
// spelling of a uuid or an enum label with a trailing space (documented
// differences). Only a Full run draws them.
func (m *Model) Differs(t Type, v Value) bool {
	if Full || v.Null {
		return false
	}
	switch t.Name {
	case "uuid":
		if slices.Contains(uuids, v.S) {
			return false
		}
		if slices.Contains(uuids, strings.ToLower(v.S)) || strings.Trim(v.S, "{}") != v.S || len(v.S) == 32 {
			return true
		}
		return !on(m.UUIDCheck)
	case "varchar", "text":
		return !on(m.ExactStrings) && strings.HasSuffix(v.S, " ")
	case "enum":
		// A label with a trailing space: TiDB pads, PostgreSQL refuses it.
		return strings.HasSuffix(v.S, " ")
	case "double", "float", "decimal", "date", "timestamp", "datetime", "bool":
		return !on(m.ValueDomains) && slices.Contains(domainEdges[t.Name], v.S)
	}
	return false
}

// domainEdges are the values of each type that one database stores and
// the other refuses without the value-domain CHECKs.
var domainEdges = map[string][]string{
	"double":  {"NaN", "Infinity", "-Infinity"},
	"float":   {"NaN", "Infinity", "-Infinity"},
	"decimal": {"NaN"},
	"date":    {"10000-01-01", "0000-01-01", "infinity", "-infinity", "0001-01-01 BC"},
	// The last second of 9999 with more fractional digits than a column
	// keeps rounds into 10000 on PostgreSQL (then refused by the CHECK),
	// and is refused by TiDB (seed 5, with value_domains = false).
	"timestamp": {"10000-01-01 00:00:00", "0000-01-01 00:00:00", "infinity", "-infinity", "9999-12-31 23:59:59.999"},
	"datetime":  {"10000-01-01 00:00:00", "0000-06-15 12:00:00", "infinity", "9999-12-31 23:59:59.999999"},
	"bool":      {"2", "-1"},
}

// halves are instants before 2000 ending in an exact half of a digit that
// date and time type t keeps: a later change narrowing its precision
// rounds them down on PostgreSQL, up on TiDB (hazard.TimeRounding). Into
// a column that does not keep the digit, they would round so at INSERT,
// a documented difference, so they are drawn only where they fit.
func halves(t Type) []Value {
	var out []string
	for digits, v := range []string{"", "1999-12-31 23:59:59.5", "1969-07-20 20:17:40.25"} {
		if v != "" && (len(t.Args) == 0 || t.Args[0] >= digits) {
			out = append(out, v)
		}
	}
	return vals(out...)
}

// domain returns t's value-domain edges.
func domain(t Type) []Value { return vals(domainEdges[t.Name]...) }

// Special reports the special values of double.
func Special(s string) bool { return s == "NaN" || s == "Infinity" || s == "-Infinity" }

// uuids are well-formed, lower-case UUIDs, as both databases store them alike.
var uuids = []string{
	"00000000-0000-0000-0000-000000000000",
	"a0eebc99-9c0b-4ef8-bb6d-6bb9bd380a11",
	"ffffffff-ffff-ffff-ffff-ffffffffffff",
	"123e4567-e89b-12d3-a456-426614174000",
}

// Edges returns edge values for type t: bounds, just past them, and strings
// that differ by case, trailing space, accents or a newline.
func Edges(t Type) []Value {
	switch t.Name {
	case "smallint":
		return vals("0", "1", "-1", "32767", "-32768", "32768", "-32769")
	case "int":
		return vals("0", "-1", "7", "2147483647", "-2147483648", "2147483648")
	case "bigint":
		return vals("0", "42", "9223372036854775807", "-9223372036854775808", "9223372036854775808")
	case "decimal":
		p, s := t.Args[0], t.Args[1]
		max := strings.Repeat("9", p-s)
		if max == "" {
			max = "0"
		}
		if s > 0 {
			max += "." + strings.Repeat("9", s)
		}
		over := "1" + strings.Repeat("0", p-s)
		round := "0." + strings.Repeat("0", s) + "5"
		return append(vals("0", max, "-"+max, over, round, "-"+round, "1"), domain(t)...)
	case "double":
		return append(vals("0", "1.5", "-2.25", "1e308", "1e-300", "123456789.125", "-0"), domain(t)...)
	case "float":
		return append(vals("0", "1.5", "-2.25", "3.0e38", "-3.0e38", "4e38", "16777217", "0.5"), domain(t)...)
	case "time":
		return vals("00:00:00", "24:00:00", "12:34:56", "23:59:59.5", "-01:00:00", "25:00:00", "08:00:00.123456", "not a time")
	case "datetime":
		return append(append(vals("2020-01-01 00:00:00", "1970-01-01 00:00:00", "9999-12-31 23:59:59", "2020-01-01 12:34:56.123456",
			"2020-02-30 00:00:00", "not a time", "2020-06-15 10:20:30.5", "0001-01-01 00:00:00"), halves(t)...), domain(t)...)
	case "bool":
		return append(vals("true", "false", "1", "0"), domain(t)...)
	case "uuid":
		// An upper-case twin of a lower-case key, braces, no hyphens: other
		// spellings PostgreSQL reads (Full only, Model.Differs).
		return append(vals(uuids...), vals("", "not-a-uuid", "a0eebc99-9c0b-4ef8-bb6d-6bb9bd380a1",
			"A0EEBC99-9C0B-4EF8-BB6D-6BB9BD380A11", "{a0eebc99-9c0b-4ef8-bb6d-6bb9bd380a11}", "a0eebc999c0b4ef8bb6d6bb9bd380a11")...)
	case "date":
		return append(vals("2020-01-01", "1000-01-01", "9999-12-31", "2020-02-29", "2021-02-29", "2020-13-45", "", "0001-01-01"), domain(t)...)
	case "timestamp":
		return append(append(vals("2020-01-01 00:00:00", "1970-01-01 00:00:00", "9999-12-31 23:59:59", "1000-01-01 00:00:00",
			"2020-01-01 12:34:56.123456", "2020-02-30 00:00:00", "not a time", "2020-06-15 10:20:30.5", "0001-01-01 00:00:00"), halves(t)...), domain(t)...)
	case "json":
		return vals(`{}`, `[]`, `1`, `"s"`, `null`, `true`, `{"a": [1, 2, {"b": null}]}`, `1.5`, `not json`, ``,
			`{"a": 1, "b": "é"}`, `[1, "x", false]`, `-7`)
	case "bytes":
		return vals("", "00", "6162", "ff00")
	case "enum":
		// Its values, and values both databases must refuse: unknown, in
		// another case, the empty string. A trailing space is refused by
		// PostgreSQL only (TiDB pads): a documented difference, drawn by a
		// Full run only.
		out := vals(t.Values...)
		out = append(out, vals("lost", strings.ToUpper(t.Values[0]), "")...)
		if strings.ToUpper(t.Values[0]) == t.Values[0] {
			out = append(out, val(strings.ToLower(t.Values[0])))
		}
		return append(out, val(t.Values[0]+" "))
	}
	// character strings
	n := 1 << 20
	if len(t.Args) > 0 {
		n = t.Args[0]
	}
	out := vals("", "a", "A", "a ", " a", "b", "é", "e\u0301", "a\nb", "ß", "😀", "abc", "Abc", "x%y", "it's")
	if n <= 16384 {
		out = append(out, val(strings.Repeat("x", n)), val(strings.Repeat("x", n+1)), val(strings.Repeat("😀", n)))
	}
	return out
}

// Keys is the small domain of key values, so that statements collide.
func Keys(t Type) []Value {
	switch t.Name {
	case "smallint", "int", "bigint":
		return vals("1", "2", "3", "-1")
	case "decimal":
		return vals("1", "2", "0", "-1")
	case "uuid":
		return append(vals(uuids[:3]...), val(strings.ToUpper(uuids[1])))
	case "double":
		// Seed 31: a double key took the string keys below, unquoted.
		return vals("1", "2", "0", "-1.5")
	case "timestamp":
		return vals("2020-01-01 00:00:00", "2020-01-02 00:00:00")
	case "bytes":
		return vals("00", "01", "6162")
	case "date":
		return vals("2020-01-01", "2020-01-02", "1999-12-31")
	case "bool":
		return vals("true", "false")
	case "float":
		return vals("1", "2", "0", "-1.5")
	case "time":
		return vals("08:00:00", "12:00:00", "00:00:00")
	case "datetime":
		return vals("2020-01-01 00:00:00", "2020-01-02 00:00:00")
	case "enum":
		return vals(t.Values[:min(2, len(t.Values))]...)
	}
	return vals("a", "b", "A", "a ")
}
