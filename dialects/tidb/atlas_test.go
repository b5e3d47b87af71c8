package tidb_test

import (
	"context"
	"strings"
	"testing"

	"ariga.io/atlas/sql/schema"

	"github.com/schemagen/schemagen/dialects/tidb"
	"github.com/schemagen/schemagen/internal/dbtest"
)

// TestAtlasRewritesFire plans, from an empty TiDB, a schema holding what
// each rewrite of Atlas's queries is for (an expression index: the version
// rewrite; two tables whose unnamed foreign keys TiDB names alike, with
// different actions: the foreign key join), applies the plan and reads it
// back. Every rewrite must have changed a query: one that no longer matches
// Atlas's text (after an upgrade from v1.2.3) fails here, not silently.
func TestAtlasRewritesFire(t *testing.T) {
	ctx := context.Background()
	before := tidb.AtlasRewrites()
	source := dbtest.TiDB(t)
	for _, s := range []string{
		"CREATE TABLE parents (id bigint PRIMARY KEY, name varchar(100) NOT NULL)",
		"CREATE INDEX parents_lower_name ON parents ((lower(name)))",
		"CREATE TABLE a (id bigint PRIMARY KEY, parent_id bigint NULL, FOREIGN KEY (parent_id) REFERENCES parents (id) ON DELETE CASCADE)",
		"CREATE TABLE b (id bigint PRIMARY KEY, parent_id bigint NULL, FOREIGN KEY (parent_id) REFERENCES parents (id) ON DELETE SET NULL)",
	} {
		if _, err := source.ExecContext(ctx, s); err != nil {
			t.Fatalf("%s: %v", s, err)
		}
	}
	want := inspectTiDB(t, source)
	checkRewritten(t, want)

	target := dbtest.TiDB(t)
	drv, err := tidb.Dialect{}.OpenAtlas(target.DB)
	if err != nil {
		t.Fatal(err)
	}
	changes, err := drv.SchemaDiff(schema.New(""), want, schema.DiffNormalized())
	if err != nil {
		t.Fatal(err)
	}
	plan, err := drv.PlanChanges(ctx, "rewrites", changes)
	if err != nil {
		t.Fatal(err)
	}
	for _, c := range plan.Changes {
		if _, err := target.ExecContext(ctx, c.Cmd); err != nil {
			t.Fatalf("the plan does not apply: %v\n%s", err, c.Cmd)
		}
	}
	got := inspectTiDB(t, target)
	checkRewritten(t, got)
	if changes, err := drv.SchemaDiff(got, want, schema.DiffNormalized()); err != nil || len(changes) > 0 {
		t.Errorf("the applied plan differs from its source: %d changes (%v)", len(changes), err)
	}

	after := tidb.AtlasRewrites()
	if len(after) == 0 {
		t.Fatal("no rewrites registered")
	}
	for name, n := range after {
		if n <= before[name] {
			t.Errorf("the %s rewrite changed no query: Atlas's query text no longer matches it", name)
		}
	}
}

func inspectTiDB(t *testing.T, db *dbtest.DB) *schema.Schema {
	t.Helper()
	drv, err := tidb.Dialect{}.OpenAtlas(db.DB)
	if err != nil {
		t.Fatal(err)
	}
	s, err := drv.InspectSchema(context.Background(), "", nil)
	if err != nil {
		t.Fatal(err)
	}
	s.Name = ""
	return s
}

// checkRewritten checks what the rewrites make Atlas read right: the index
// expression, and each table's own ON DELETE.
func checkRewritten(t *testing.T, s *schema.Schema) {
	t.Helper()
	parents, ok := s.Table("parents")
	if !ok {
		t.Fatal("no table parents")
	}
	idx, ok := parents.Index("parents_lower_name")
	if !ok || len(idx.Parts) != 1 || idx.Parts[0].X == nil {
		t.Errorf("index parents_lower_name read without its expression: %+v", idx)
	}
	for table, action := range map[string]schema.ReferenceOption{"a": schema.Cascade, "b": schema.SetNull} {
		tt, ok := s.Table(table)
		if !ok || len(tt.ForeignKeys) != 1 {
			t.Fatalf("table %s: want one foreign key", table)
		}
		if fk := tt.ForeignKeys[0]; fk.OnDelete != action {
			t.Errorf("table %s: foreign key %s ON DELETE %q, want %q", table, fk.Symbol, fk.OnDelete, action)
		}
	}
}

// TestBacktickNameNamed: a database holding a table whose name has a
// backtick (made by hand; the model refuses such names) cannot be read
// through Atlas, whose SHOW CREATE TABLE does not double it; the error
// names the table and says what to do, instead of TiDB's bare 1064 (issue
// 29).
func TestBacktickNameNamed(t *testing.T) {
	ctx := context.Background()
	db := dbtest.TiDB(t)
	if _, err := db.ExecContext(ctx, "CREATE TABLE `we``ird` (id int PRIMARY KEY)"); err != nil {
		t.Fatal(err)
	}
	drv, err := tidb.Dialect{}.OpenAtlas(db.DB)
	if err != nil {
		t.Fatal(err)
	}
	_, err = drv.InspectSchema(ctx, "", nil)
	if err == nil || !strings.Contains(err.Error(), "table \"we`ird\": its name holds a backtick") || !strings.Contains(err.Error(), "RENAME TABLE `we``ird` TO") {
		t.Fatalf("inspecting a table named we`ird: %v", err)
	}
}
