package dialects_test

import (
	"testing"

	"github.com/schemagen/schemagen/compiler"
	"github.com/schemagen/schemagen/compiler/load"
	"github.com/schemagen/schemagen/dialects"
	"github.com/schemagen/schemagen/dialects/all"
)

// TestGroupString: decisions name their objects by kind and name, and a
// group of one kind reads as that kind in the plural, two-word kinds too.
func TestGroupString(t *testing.T) {
	tb := &compiler.Table{Name: "t"}
	col := func(n string) compiler.ObjectRef { return tb.Ref(compiler.KindColumn, n) }
	fk := func(n string) compiler.ObjectRef { return tb.Ref(compiler.KindForeignKey, n) }
	ds := []dialects.Decision{
		{Object: col("a"), Kind: dialects.Lowered, Text: "timestamp as DATETIME(3)"},
		{Object: col("b"), Kind: dialects.Lowered, Text: "timestamp as DATETIME(3)"},
		{Object: fk("f1"), Kind: dialects.Omitted, Text: "DEFERRABLE left out"},
		{Object: fk("f2"), Kind: dialects.Omitted, Text: "DEFERRABLE left out"},
		{Object: tb.Ref(compiler.KindIndex, "i1"), Kind: dialects.Omitted, Text: "x"},
		{Object: tb.Ref(compiler.KindIndex, "i2"), Kind: dialects.Omitted, Text: "x"},
		{Object: col("c"), Kind: dialects.Overridden, Text: "y"},
		{Object: tb.Ref(compiler.KindCheck, "k"), Kind: dialects.Overridden, Text: "y"},
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

// TestTypeDecisions: the decisions about how a column's type is rendered
// (the type table's note, a type override) carry their aspect as a field,
// and only they get the rendered type, which explain shows. A decision that
// names the type otherwise (vector needs pgvector, uuid() as a default) is
// not one.
func TestTypeDecisions(t *testing.T) {
	src := `
table "t" {
  column "id" {
    type = int
  }
  column "ts" {
    type = timestamp(3)
  }
  column "v" {
    type = vector(3)
    null = true
  }
  column "u" {
    type    = uuid
    default = uuid()
  }
  column "o" {
    type = text
    tidb {
      type = varchar(20)
    }
    postgres {
      type = "citext"
    }
  }
  primary_key {
    columns = ["id"]
  }
}
`
	s, diags := load.Source(load.Options{Dialects: all.Names()}, "t.hcl", []byte(src))
	if diags.HasErrors() {
		t.Fatal(diags)
	}
	want := map[string]map[string]string{ // dialect: decision: its SQLType
		"postgres": {
			"column ts: timestamp as TIMESTAMPTZ (an instant; microsecond precision unless given)": "TIMESTAMPTZ(3)",
			"column v: vector needs the pgvector extension (CREATE EXTENSION vector)":              "",
			"column u: uuid() as gen_random_uuid() (a random version-4 UUID)":                      "",
			"column o: type citext instead of text [override]":                                     "citext",
		},
		"tidb": {
			"column ts: timestamp as DATETIME (no time zone: the application stores UTC; millisecond precision unless given)": "DATETIME(3)",
			"column u: uuid as CHAR(36)":                            "CHAR(36)",
			"column o: type varchar(20) instead of text [override]": "VARCHAR(20) COLLATE utf8mb4_0900_bin",
		},
	}
	for d, decisions := range want {
		out, diags := all.Get(d).Generate(s)
		if diags.HasErrors() {
			t.Fatal(d, diags)
		}
		got := map[string]dialects.Decision{}
		for _, dec := range out.Decisions {
			got[dec.String()] = dec
		}
		for text, sqlType := range decisions {
			dec, ok := got[text]
			if !ok {
				t.Errorf("%s: no decision %q in %v", d, text, out.Decisions)
				continue
			}
			if dec.SQLType != sqlType || (dec.Aspect == dialects.AspectType) != (sqlType != "") {
				t.Errorf("%s: %q has aspect %d and type %q, want type %q", d, text, dec.Aspect, dec.SQLType, sqlType)
			}
		}
	}
}

// TestDecisionObjects: a decision about the table itself (compiler.KindTable)
// names no object and joins no group's objects; the schema's objects are
// named by kind; decisions of another table start another group.
func TestDecisionObjects(t *testing.T) {
	tb, other := &compiler.Table{Name: "t"}, &compiler.Table{Name: "u"}
	ds := []dialects.Decision{
		{Object: compiler.ObjectRef{Kind: compiler.KindExtension, Name: "vector"}, Kind: dialects.Omitted, Text: "left out"},
		{Object: tb.Ref(compiler.KindTable, ""), Kind: dialects.Lowered, Text: "x"},
		{Object: tb.Ref(compiler.KindColumn, "a"), Kind: dialects.Lowered, Text: "x"},
		{Object: other.Ref(compiler.KindColumn, "a"), Kind: dialects.Lowered, Text: "x"},
	}
	if got := ds[0].String(); got != "extension vector: left out [omitted]" {
		t.Errorf("schema decision: %q", got)
	}
	if got := ds[1].String(); got != "x" {
		t.Errorf("table decision: %q", got)
	}
	gs := dialects.Grouped(ds)
	want := []string{"|extension vector: left out [omitted]", "t|column a: x", "u|column a: x"}
	if len(gs) != len(want) {
		t.Fatalf("%d groups, want %d: %v", len(gs), len(want), gs)
	}
	for i, g := range gs {
		if got := g.Table + "|" + g.String(); got != want[i] {
			t.Errorf("group %d: %q, want %q", i, got, want[i])
		}
	}
	if n := len(gs[1].Objects); n != 1 {
		t.Errorf("table t's group has %d objects, want the column alone", n)
	}
}
