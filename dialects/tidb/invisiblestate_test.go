package tidb_test

import (
	"testing"

	"ariga.io/atlas/sql/schema"

	"github.com/schemagen/schemagen/dialects/tidb"
	"github.com/schemagen/schemagen/dialects/tidb/internal/atlasdrv"
)

// TestStateKeepsInvisible: a stored state keeps an index's INVISIBLE,
// which Atlas's HCL leaves out.
func TestStateKeepsInvisible(t *testing.T) {
	c := schema.NewIntColumn("id", "bigint")
	idx := schema.NewIndex("t_id_idx").AddColumns(c)
	idx.Attrs = append(idx.Attrs, &atlasdrv.Invisible{})
	s := schema.New("app").AddTables(schema.NewTable("t").AddColumns(c).AddIndexes(idx, schema.NewIndex("t_id2_idx").AddColumns(c)))
	b, err := tidb.Dialect{}.MarshalState(s)
	if err != nil {
		t.Fatal(err)
	}
	back, err := tidb.Dialect{}.UnmarshalState(b)
	if err != nil {
		t.Fatal(err)
	}
	tb, _ := back.Table("t")
	i, ok1 := tb.Index("t_id_idx")
	j, ok2 := tb.Index("t_id2_idx")
	if !ok1 || !ok2 || !atlasdrv.InvisibleOf(i) || atlasdrv.InvisibleOf(j) {
		t.Fatalf("visibility not kept:\n%s", b)
	}
}
