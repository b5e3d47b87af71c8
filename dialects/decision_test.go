package dialects_test

import (
	"testing"

	"github.com/schemagen/schemagen/dialects"
)

// TestGroupString: decisions name their objects by kind and name, and a
// group of one kind reads as that kind in the plural, two-word kinds too.
func TestGroupString(t *testing.T) {
	col := func(n string) dialects.Object { return dialects.ObjectOf(dialects.KindColumn, n) }
	fk := func(n string) dialects.Object { return dialects.ObjectOf(dialects.KindForeignKey, n) }
	ds := []dialects.Decision{
		{Table: "t", Object: col("a"), Kind: dialects.Lowered, Text: "timestamp as DATETIME(3)"},
		{Table: "t", Object: col("b"), Kind: dialects.Lowered, Text: "timestamp as DATETIME(3)"},
		{Table: "t", Object: fk("f1"), Kind: dialects.Omitted, Text: "DEFERRABLE left out"},
		{Table: "t", Object: fk("f2"), Kind: dialects.Omitted, Text: "DEFERRABLE left out"},
		{Table: "t", Object: dialects.ObjectOf(dialects.KindIndex, "i1"), Kind: dialects.Omitted, Text: "x"},
		{Table: "t", Object: dialects.ObjectOf(dialects.KindIndex, "i2"), Kind: dialects.Omitted, Text: "x"},
		{Table: "t", Object: col("c"), Kind: dialects.Overridden, Text: "y"},
		{Table: "t", Object: dialects.ObjectOf(dialects.KindCheck, "k"), Kind: dialects.Overridden, Text: "y"},
	}
	want := []string{
		"columns a, b: timestamp as DATETIME(3)",
		"foreign keys f1, f2: DEFERRABLE left out [omitted]",
		"indexes i1, i2: x [omitted]",
		"column c, check k: y [override]",
	}
	gs := dialects.Grouped(ds)
	if len(gs) != len(want) {
		t.Fatalf("%d groups, want %d: %v", len(gs), len(want), gs)
	}
	for i, g := range gs {
		if g.String() != want[i] {
			t.Errorf("group %d: %q, want %q", i, g.String(), want[i])
		}
	}
	if got := ds[0].String(); got != "column a: timestamp as DATETIME(3)" {
		t.Errorf("decision: %q", got)
	}
}
