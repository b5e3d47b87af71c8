package postgres_test

import (
	"slices"
	"testing"

	"ariga.io/atlas/sql/schema"

	"github.com/schemagen/schemagen/dialects/postgres"
	"github.com/schemagen/schemagen/dialects/postgres/internal/atlasdrv"
)

// TestStateKeepsIndexParams: a stored state keeps the storage parameters
// Atlas's HCL leaves out (fillfactor), so that a state read back diffs
// equal to the database it was taken of.
func TestStateKeepsIndexParams(t *testing.T) {
	c := schema.NewIntColumn("id", "bigint")
	idx := schema.NewIndex("t_id_idx").AddColumns(c)
	idx.Attrs = append(idx.Attrs, &atlasdrv.IndexParams{Params: []string{"deduplicate_items=false", "fillfactor=70"}})
	s := schema.New("public").AddTables(schema.NewTable("t").AddColumns(c).AddIndexes(idx))
	b, err := postgres.Dialect{}.MarshalState(s)
	if err != nil {
		t.Fatal(err)
	}
	back, err := postgres.Dialect{}.UnmarshalState(b)
	if err != nil {
		t.Fatal(err)
	}
	tb, ok := back.Table("t")
	if !ok {
		t.Fatalf("no table in\n%s", b)
	}
	i, ok := tb.Index("t_id_idx")
	if !ok || !slices.Equal(atlasdrv.ParamsOf(i), []string{"deduplicate_items=false", "fillfactor=70"}) {
		t.Fatalf("the parameters were not kept:\n%s", b)
	}
}
