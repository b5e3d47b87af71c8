package tidb

import "testing"

// CaseKey splits the expression of a generated column CASE WHEN p THEN x
// END as TiDB restores it, and nothing else: not ELSE (TiDB keeps it in the
// text, which the model's DDL would not give back), nor several branches,
// nor a CASE that is only part of the expression.
func TestCaseKey(t *testing.T) {
	for _, c := range []struct{ in, when, then string }{
		{"case when `c` is null then lower(`b`) end", "`c` is null", "lower(`b`)"},
		{"(case when `s` = _utf8mb4'active' and `a` > 0 then `a` end)", "`s` = _utf8mb4'active' and `a` > 0", "`a`"},
		{"CASE WHEN not `archived` THEN `name` END", "not `archived`", "`name`"},
		{"case when `s` = 'when then end' then `end` end", "`s` = 'when then end'", "`end`"},
		{"case when (`a` > 0) then (case when `b` then 1 end) end", "(`a` > 0)", "(case when `b` then 1 end)"},
		{"case when `a` > 0 then 1 else 0 end", "", ""},
		{"case when `a` > 0 then `b` else null end", "", ""},
		{"case when `a` > 0 then 1 when `a` < 0 then 2 end", "", ""},
		{"coalesce(case when `a` > 0 then 1 end, 0)", "", ""},
		{"case when `a` > 0 then 1 end + 1", "", ""},
		{"lower(`b`)", "", ""},
	} {
		when, then, ok := Dialect{}.CaseKey(c.in)
		if ok != (c.when != "") || when != c.when || then != c.then {
			t.Errorf("CaseKey(%q) = %q, %q, %v; want %q, %q", c.in, when, then, ok, c.when, c.then)
		}
	}
}
