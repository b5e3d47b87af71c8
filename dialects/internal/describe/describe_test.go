package describe

import (
	"testing"

	"ariga.io/atlas/sql/mysql"
	"ariga.io/atlas/sql/postgres"
	"ariga.io/atlas/sql/schema"
)

// TestObject: types as each dialect's Atlas planner writes them (sizes and
// precisions in place), the rest of a definition as drift has always shown
// it.
func TestObject(t *testing.T) {
	p3 := 3
	pg := Printer{FormatType: postgres.FormatType, Predicate: func(i *schema.Index) string {
		if a, ok := i.Attrs[0].(*postgres.IndexPredicate); ok {
			return a.P
		}
		return ""
	}}
	my := Printer{FormatType: mysql.FormatType}
	title := schema.NewColumn("title").SetType(&schema.StringType{T: "character varying", Size: 100})
	at := schema.NewNullColumn("at").SetType(&schema.TimeType{T: "timestamp with time zone", Precision: &p3})
	at.Type.Raw = "timestamp with time zone"
	spaces := schema.NewTable("spaces").AddColumns(schema.NewColumn("id"))
	cases := []struct {
		p    Printer
		obj  any
		want string
	}{
		{pg, title, "character varying(100) NOT NULL"},
		{pg, at, "timestamptz(3) NULL"},
		{my, schema.NewColumn("at").SetType(&schema.TimeType{T: "datetime", Precision: &p3}).SetDefault(&schema.RawExpr{X: "CURRENT_TIMESTAMP(3)"}), "datetime(3) NOT NULL DEFAULT CURRENT_TIMESTAMP(3)"},
		{my, schema.NewColumn("n").SetType(&schema.DecimalType{T: "decimal", Precision: 12, Scale: 2}), "decimal(12,2) NOT NULL"},
		{pg, &schema.Index{Unique: true, Parts: []*schema.IndexPart{{C: title}, {X: &schema.RawExpr{X: "lower(title)"}, Desc: true}}, Attrs: []schema.Attr{&postgres.IndexPredicate{P: "(title IS NOT NULL)"}}},
			"UNIQUE (title, (lower(title)) DESC) WHERE (title IS NOT NULL)"},
		{my, &schema.ForeignKey{Columns: []*schema.Column{title}, RefTable: spaces, RefColumns: spaces.Columns, OnDelete: schema.Cascade}, "(title) REFERENCES spaces (id) ON DELETE CASCADE"},
		{my, &schema.Check{Expr: "(`n` > 0)"}, "CHECK (`n` > 0)"},
		{my, spaces, "1 columns"},
	}
	for i, c := range cases {
		if got := c.p.Object(c.obj); got != c.want {
			t.Errorf("case %d: %q, want %q", i, got, c.want)
		}
	}
}
