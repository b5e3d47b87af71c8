package lower

import (
	"testing"

	"github.com/schemagen/schemagen/compiler"
	"github.com/schemagen/schemagen/compiler/expr"
	"github.com/schemagen/schemagen/dialects/tidb/internal/readback"
)

// UUIDShapeOf knows uuid_check's CHECK as teams write it by hand, hex
// classes in any order, and not a test of another shape.
func TestUUIDShapeOf(t *testing.T) {
	tb := &compiler.Table{Name: "t", Columns: []*compiler.Column{
		{Name: "id", Type: compiler.Type{Kind: compiler.TypeUUID}},
		{Name: "code", Type: compiler.Type{Kind: compiler.TypeVarchar, Args: []int{36}}},
	}}
	resolve := func(name string) (expr.Kind, bool) {
		if c := tb.Column(name); c != nil {
			return c.Type.ExprKind(), true
		}
		return expr.KindUnknown, false
	}
	h := func(class string) string {
		return "'^" + class + "{8}-" + class + "{4}-" + class + "{4}-" + class + "{4}-" + class + "{12}$'"
	}
	for _, c := range []struct {
		src  string
		want string
	}{
		{"id REGEXP " + h("[0-9a-fA-F]"), "id"},
		{"(`id` regexp " + h("[0-9A-Fa-f]") + ")", "id"},
		{"id RLIKE " + h("[a-fA-F0-9]"), "id"},
		{"id REGEXP " + h("[0-9a-f]"), ""},      // lower case only: another test
		{"id REGEXP " + h("[0-9a-fA-Fx]"), ""},  // another class
		{"code REGEXP " + h("[0-9a-fA-F]"), ""}, // not a uuid column
		{"NOT (id REGEXP " + h("[0-9a-fA-F]") + ")", ""},
		{"id REGEXP '^[0-9a-fA-F]{32}$'", ""},
	} {
		n, err := readback.Expr(c.src, resolve)
		if err != nil {
			t.Fatalf("%s: %v", c.src, err)
		}
		if got := UUIDShapeOf(tb, n); got != c.want {
			t.Errorf("UUIDShapeOf(%s) = %q, want %q", c.src, got, c.want)
		}
	}
}
