package rules

import (
	"fmt"
	"testing"

	"github.com/hashicorp/hcl/v2"

	"github.com/schemagen/schemagen/compiler"
	"github.com/schemagen/schemagen/dialects"
)

func TestRawIndex(t *testing.T) {
	pg := &dialects.Rules{IdentQuote: '"', LowerUnquoted: true}
	ti := &dialects.Rules{IdentQuote: '`', FoldCase: true}
	idx := &compiler.Index{Name: "Items_idx"}
	uidx := &compiler.Index{Name: "items_uq", Unique: true}
	cases := []struct {
		r     *dialects.Rules
		idx   *compiler.Index
		table string
		sql   string
		want  string // "" for accepted
	}{
		{pg, idx, "items", `CREATE INDEX "Items_idx" ON items USING gin (doc)`, ""},
		{pg, idx, "items", `create index concurrently if not exists "Items_idx" on only public.items (x)`, ""},
		{pg, idx, "items", `CREATE INDEX Items_idx ON items (x)`, "another name (Items_idx)"}, // folds to items_idx
		{pg, idx, "Items", `CREATE INDEX "Items_idx" ON items (x)`, "another table (items)"},
		{pg, uidx, "items", `CREATE INDEX items_uq ON items (x)`, "non-unique index, but the model's index is unique"},
		{pg, idx, "items", `CREATE UNIQUE INDEX "Items_idx" ON items (x)`, "unique index, but the model's index is not unique"},
		{pg, idx, "items", `ALTER TABLE items ADD x int`, "is not a CREATE INDEX statement"},
		{pg, uidx, "items", `ALTER TABLE items ADD x int`, "nor an ALTER TABLE that adds a UNIQUE constraint"},
		{pg, uidx, "items", `ALTER TABLE ONLY public."items" ADD CONSTRAINT "items_uq" UNIQUE NULLS NOT DISTINCT ("a")`, ""},
		{pg, uidx, "items", `ALTER TABLE "items" ADD CONSTRAINT other UNIQUE (a)`, "another name (other)"},
		{pg, uidx, "items", `ALTER TABLE other ADD CONSTRAINT items_uq UNIQUE (a)`, "another table (other)"},
		{pg, uidx, "items", `ALTER TABLE items ADD CONSTRAINT items_uq CHECK (a > 0)`, "nor an ALTER TABLE that adds a UNIQUE constraint"},
		{pg, idx, "items", `ALTER TABLE items ADD CONSTRAINT "Items_idx" UNIQUE (a)`, "is not a CREATE INDEX statement"},
		{pg, idx, "items", `CREATE INDEX "Items_idx" ON items (x); DROP TABLE items`, "more than one statement"},
		{pg, idx, "items", `CREATE INDEX "Items_idx`, "cannot be read"},
		{ti, idx, "items", "CREATE INDEX items_IDX ON `Items` ((lower(x)))", ""},
		{ti, idx, "items", "CREATE INDEX other ON items (x)", "another name (other)"},
		{ti, idx, "items", "CREATE INDEX `Items_idx` ON `db`.`other` (x)", "another table (other)"},
	}
	for _, c := range cases {
		got := rawIndex(c.sql, c.r, c.idx, c.idx.Name, c.table)
		if c.want == "" && got != "" || c.want != "" && !contains(got, c.want) {
			t.Errorf("rawIndex(%q) = %q, want %q", c.sql, got, c.want)
		}
	}
}

func contains(s, sub string) bool {
	for i := 0; i+len(sub) <= len(s); i++ {
		if s[i:i+len(sub)] == sub {
			return true
		}
	}
	return false
}

type reports []string

func (r *reports) Errorf(_ hcl.Range, summary, format string, args ...any) {
	*r = append(*r, fmt.Sprintf(format, args...))
}

// TestTypes: a dialect's type limits apply to the type a column has in that
// dialect, and only in a dialect that has them.
func TestTypes(t *testing.T) {
	limited := &dialects.Rules{Product: "TiDB", MaxCharLength: 255, MaxDecimalPrecision: 65, MaxDecimalScale: 30}
	col := func(typ compiler.Type, o *compiler.Override) *compiler.Column {
		c := &compiler.Column{Name: "c", Type: typ, Overrides: compiler.Overrides{}}
		if o != nil {
			c.Overrides["tidb"] = o
		}
		return c
	}
	char := func(n int) compiler.Type { return compiler.Type{Kind: compiler.TypeChar, Args: []int{n}} }
	dec := func(p, s int) compiler.Type { return compiler.Type{Kind: compiler.TypeDecimal, Args: []int{p, s}} }
	cases := []struct {
		c    *compiler.Column
		r    *dialects.Rules
		want string // "" for accepted
	}{
		{col(char(255), nil), limited, ""},
		{col(char(256), nil), limited, "The length of char is at most 255 (TiDB's limit); use varchar(n) or text."},
		{col(dec(65, 30), nil), limited, ""},
		{col(dec(66, 2), nil), limited, "The precision of decimal must be between 1 and 65 (TiDB's limit)."},
		{col(dec(40, 31), nil), limited, "The scale of decimal must not exceed its precision or 30 (TiDB's limit)."},
		{col(char(300), nil), &dialects.Rules{Product: "PostgreSQL"}, ""},
		{col(char(300), &compiler.Override{RawType: "CHAR(10)"}), limited, ""},
		{col(char(300), &compiler.Override{Skip: true}), limited, ""},
		{col(char(10), &compiler.Override{Type: &compiler.Type{Kind: compiler.TypeChar, Args: []int{300}}}), limited, "The length of char is at most 255"},
	}
	for i, c := range cases {
		s := &compiler.Schema{Tables: []*compiler.Table{{Name: "t", Columns: []*compiler.Column{c.c}, Overrides: compiler.Overrides{}}}}
		var got reports
		Types(s, "tidb", c.r, &got)
		if c.want == "" && len(got) != 0 || c.want != "" && (len(got) != 1 || !contains(got[0], c.want)) {
			t.Errorf("case %d: %q, want %q", i, got, c.want)
		}
	}
}
