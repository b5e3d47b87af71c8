package postgres_test

import (
	"context"
	"strings"
	"testing"

	atlaspg "ariga.io/atlas/sql/postgres"
	"ariga.io/atlas/sql/schema"

	"github.com/schemagen/schemagen/dialects/postgres"
	"github.com/schemagen/schemagen/internal/dbtest"
)

// TestBaseTypeChangeIsPlanned: a column whose extension base type changes
// text (pgvector's vector(3) to vector, as format_type prints them) is a
// type change. Atlas v1.2.3 never reports one (issue 29: "no changes", and
// the databases kept vector(3)). The schemas are built by hand, as the
// inspection of a server with pgvector reads them, so that the diff is
// tested where pgvector is not installed.
func TestBaseTypeChangeIsPlanned(t *testing.T) {
	db := dbtest.Postgres(t)
	drv, err := postgres.Dialect{}.OpenAtlas(db)
	if err != nil {
		t.Fatal(err)
	}
	state := func(typ string) *schema.Schema {
		id := &schema.Column{Name: "id", Type: &schema.ColumnType{Type: &schema.IntegerType{T: "bigint"}}}
		e := &schema.Column{Name: "e", Type: &schema.ColumnType{Type: &atlaspg.UserDefinedType{T: typ, C: "b"}, Null: true}}
		tb := schema.NewTable("items").AddColumns(id, e)
		tb.SetPrimaryKey(schema.NewPrimaryKey(id))
		return schema.New("").AddTables(tb)
	}
	changes, err := drv.SchemaDiff(state("vector(3)"), state("vector"), schema.DiffNormalized())
	if err != nil {
		t.Fatal(err)
	}
	if len(changes) != 1 {
		t.Fatalf("vector(3) to vector: %d changes, want 1 (the column's type)", len(changes))
	}
	plan, err := drv.PlanChanges(context.Background(), "dims", changes)
	if err != nil {
		t.Fatal(err)
	}
	if len(plan.Changes) != 1 || !strings.Contains(plan.Changes[0].Cmd, `ALTER COLUMN "e" TYPE vector`) {
		t.Fatalf("plan: %+v, want ALTER COLUMN \"e\" TYPE vector", plan.Changes)
	}
	if changes, err := drv.SchemaDiff(state("vector"), state("vector"), schema.DiffNormalized()); err != nil || len(changes) != 0 {
		t.Fatalf("vector to vector: %d changes (%v), want none", len(changes), err)
	}
}
