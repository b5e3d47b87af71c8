package describe

import (
	"testing"

	"ariga.io/atlas/sql/schema"
)

// A string default prints single-quoted however the driver reported it;
// other defaults as they are.
func TestLiteralDefaultsAlike(t *testing.T) {
	str := &schema.ColumnType{Type: &schema.StringType{T: "varchar", Size: 3}}
	num := &schema.ColumnType{Type: &schema.IntegerType{T: "int"}}
	for _, tc := range []struct {
		typ     *schema.ColumnType
		v, want string
	}{
		{str, "USD", "varchar(3) NOT NULL DEFAULT 'USD'"},
		{str, `"EUR"`, "varchar(3) NOT NULL DEFAULT 'EUR'"},
		{str, "'EUR'", "varchar(3) NOT NULL DEFAULT 'EUR'"},
		{str, "it's", "varchar(3) NOT NULL DEFAULT 'it''s'"},
		{num, "0", "int NOT NULL DEFAULT 0"},
	} {
		p := Printer{FormatType: func(t schema.Type) (string, error) {
			if _, ok := t.(*schema.StringType); ok {
				return "varchar(3)", nil
			}
			return "int", nil
		}}
		got := p.Object(&schema.Column{Name: "c", Type: tc.typ, Default: &schema.Literal{V: tc.v}})
		if got != tc.want {
			t.Errorf("%q: %s, want %s", tc.v, got, tc.want)
		}
	}
}
