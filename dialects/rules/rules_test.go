package rules

import (
	"testing"

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
		{pg, idx, "items", `CREATE INDEX "Items_idx" ON items (x); DROP TABLE items`, "more than one statement"},
		{pg, idx, "items", `CREATE INDEX "Items_idx`, "cannot be read"},
		{ti, idx, "items", "CREATE INDEX items_IDX ON `Items` ((lower(x)))", ""},
		{ti, idx, "items", "CREATE INDEX other ON items (x)", "another name (other)"},
		{ti, idx, "items", "CREATE INDEX `Items_idx` ON `db`.`other` (x)", "another table (other)"},
	}
	for _, c := range cases {
		got := rawIndex(c.sql, c.r, c.idx, c.table)
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
