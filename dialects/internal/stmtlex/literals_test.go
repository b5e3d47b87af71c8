package stmtlex

import (
	"reflect"
	"testing"
)

func TestLiterals(t *testing.T) {
	for _, c := range []struct {
		in        string
		backslash bool
		want      []any
	}{
		{"1, -2,3", false, []any{int64(1), int64(-2), int64(3)}},
		{"'a', 'it''s', 'x,y'", false, []any{"a", "it's", "x,y"}},
		{`'a\'b', 'c\\'`, true, []any{"a'b", `c\`}},
		{`'a\b'`, false, []any{`a\b`}},
		{"1, x", false, nil},
	} {
		if got := Literals(c.in, c.backslash); !reflect.DeepEqual(got, c.want) {
			t.Errorf("Literals(%q, %v) = %#v, want %#v", c.in, c.backslash, got, c.want)
		}
	}
}
