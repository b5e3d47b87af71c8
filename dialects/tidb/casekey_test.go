package tidb

import (
	"testing"

	"github.com/schemagen/schemagen/compiler/expr"
	"github.com/schemagen/schemagen/compiler/expr/render"
)

// CaseKey reads the expression of a generated column CASE WHEN p THEN x
// END as TiDB restores it into p and x as portable expressions, parsed
// once (nothing is printed to be parsed again), and nothing else: not ELSE
// (TiDB keeps it in the text, which the model's DDL would not give back),
// nor several branches, nor a CASE that is only part of the expression.
func TestCaseKey(t *testing.T) {
	kinds := map[string]expr.Kind{"a": expr.KindInteger, "b": expr.KindString, "c": expr.KindInteger, "s": expr.KindString, "archived": expr.KindBool, "name": expr.KindString, "end": expr.KindString}
	cols := func(name string) (expr.Kind, bool) {
		k, ok := kinds[name]
		return k, ok
	}
	for _, c := range []struct{ in, when, then string }{
		{"case when `c` is null then lower(`b`) end", "c IS NULL", "lower(b)"},
		{"(case when `s` = _utf8mb4'active' and `a` > 0 then `a` end)", "s = 'active' AND a > 0", "a"},
		{"CASE WHEN not `archived` THEN `name` END", "NOT archived", "name"},
		{"case when `s` = 'when then end' then `end` end", "s = 'when then end'", "end"},
		{"case when (`a` > 0) then (case when `c` > 1 then 1 end) end", "a > 0", "CASE WHEN c > 1 THEN 1 END"},
		{"case when `a` < 1 then case when `a` is null then 0 else 1 end end", "a < 1", "CASE WHEN a IS NULL THEN 0 ELSE 1 END"},
		{"case when case when `a` > 0 then 1 end = 1 then `b` end", "CASE WHEN a > 0 THEN 1 END = 1", "b"},
		{"case when `a` > 0 then 1 else 0 end", "", ""},
		{"case when `a` > 0 then `b` else null end", "", ""},
		{"case when `a` > 0 then 1 when `a` < 0 then 2 end", "", ""},
		{"coalesce(case when `a` > 0 then 1 end, 0)", "", ""},
		{"case when `a` > 0 then 1 end + 1", "", ""},
		{"case when `zz` > 0 then 1 end", "", ""}, // a column cols does not know
		{"lower(`b`)", "", ""},
	} {
		when, then, ok := Dialect{}.CaseKey(c.in, cols)
		var w, th string
		if ok {
			w, th = render.String(when), render.String(then)
		}
		if ok != (c.when != "") || w != c.when || th != c.then {
			t.Errorf("CaseKey(%q) = %q, %q, %v; want %q, %q", c.in, w, th, ok, c.when, c.then)
		}
	}
}
