package plantest_test

import (
	"context"
	"errors"
	"strings"
	"testing"

	"github.com/schemagen/schemagen/dialects/hazard"
	"github.com/schemagen/schemagen/internal/plantest"
)

const items = `
table "items" {
  column "id" {
    type = int
  }
  column "price" {
    type = int
  }
  column "qty" {
    type = int
    null = true
  }
  column "total" {
    type = int
    null = true
  }
  primary_key {
    columns = ["id"]
  }
}
`

// generatedTotal makes items.total generated (stored or not).
func generatedTotal(stored bool) string {
	as := "    as   = \"price * 2\"\n"
	if !stored {
		as += "    stored = false\n"
	}
	return strings.Replace(items, "  column \"total\" {\n    type = int\n    null = true\n", "  column \"total\" {\n    type = int\n"+as, 1)
}

// TestTiDBRefusals: changes of an existing table that TiDB cannot make were
// planned into files TiDB refused at apply (3106, 8200; the closing note's
// before-stop review): migrate diff now refuses each with a typed
// *hazard.Refusal that names the change and says what to write instead, so
// that no file that cannot run is written.
func TestTiDBRefusals(t *testing.T) {
	t.Parallel()
	withIdentity := strings.Replace(items, "  column \"id\" {\n    type = int\n", "  column \"id\" {\n    type = int\n    identity {}\n", 1)
	newStored := strings.Replace(items, "  primary_key", "  column \"double\" {\n    type = int\n    as   = \"price * 2\"\n  }\n  primary_key", 1)
	for _, c := range []struct {
		name, before, after, change string
	}{
		{"add_stored_generated", items, newStored, `adding the STORED generated column "double"`},
		{"plain_to_stored_generated", items, generatedTotal(true), `adding the STORED generated column "total"`},
		{"virtual_to_plain", generatedTotal(false), items, `making the VIRTUAL generated column "total" plain`},
		{"virtual_to_stored", generatedTotal(false), generatedTotal(true), `adding the STORED generated column "total"`},
		{"stored_expression", generatedTotal(true), strings.Replace(generatedTotal(true), "price * 2", "price * 3", 1), `adding the STORED generated column "total"`},
		{"add_identity", items, withIdentity, `adding identity to column "id"`},
		{"remove_identity", withIdentity, items, `removing identity from column "id"`},
	} {
		t.Run(c.name, func(t *testing.T) {
			r := plantest.NewRunner(t)
			f, err := r.Reproduce(context.Background(), 1, c.before, c.after, c.name)
			if err != nil {
				t.Fatal(err)
			}
			if f != nil {
				t.Fatalf("%s", f.What)
			}
			if len(r.Refusals) != 1 {
				t.Fatalf("migrate diff refused %d steps, want 1: %v", len(r.Refusals), r.Refusals)
			}
			var ref *hazard.Refusal
			if !errors.As(r.Refusals[0], &ref) {
				t.Fatalf("the refusal is a %T, want a *hazard.Refusal: %v", r.Refusals[0], r.Refusals[0])
			}
			if ref.Database != "TiDB" || ref.Table != "items" || !strings.HasPrefix(ref.Change, c.change) || ref.Instead == "" {
				t.Fatalf("refusal %+v, want TiDB's refusal of %s on items with what to write instead", ref, c.change)
			}
			t.Log(ref)
		})
	}
}

// TestPostgresRetypeUnderGenerated: the type of a column that a generated
// column reads, changed, was planned on PostgreSQL as ALTER COLUMN ...
// TYPE, which it refuses (0A000): migrate diff's proof stopped it with a
// generic "two steps" message (plan oracle seed 61616, evolutions
// 106-125). It is now refused with a typed *hazard.Refusal naming the
// generated column and the three steps to write, as TiDB's (3106).
func TestPostgresRetypeUnderGenerated(t *testing.T) {
	t.Parallel()
	r := plantest.NewRunner(t)
	r.Only = "postgres"
	after := strings.Replace(generatedTotal(true), "  column \"price\" {\n    type = int\n", "  column \"price\" {\n    type = bigint\n", 1)
	f, err := r.Reproduce(context.Background(), 1, generatedTotal(true), after, "price to bigint")
	if err != nil {
		t.Fatal(err)
	}
	if f != nil {
		t.Fatalf("%s", f.What)
	}
	if len(r.Refusals) != 1 {
		t.Fatalf("migrate diff refused %d steps, want 1: %v", len(r.Refusals), r.Refusals)
	}
	var ref *hazard.Refusal
	if !errors.As(r.Refusals[0], &ref) {
		t.Fatalf("the refusal is a %T, want a *hazard.Refusal: %v", r.Refusals[0], r.Refusals[0])
	}
	if ref.Database != "PostgreSQL" || ref.Table != "items" || ref.Column != "price" || !strings.Contains(ref.Reason, `generated column "total"`) || !strings.Contains(ref.Instead, "three steps") {
		t.Fatalf("refusal %+v, want PostgreSQL's of items.price naming total, with the three steps", ref)
	}
	t.Log(ref)
}

// TestPostgresIdentityAddedRemoved: identity added to or removed from an
// existing column failed migrate diff on PostgreSQL (Atlas v1.2.3:
// "unexpected attribute change (expect IDENTITY)"); it is planned as ADD
// GENERATED ... AS IDENTITY, with the sequence moved past the ids the rows
// hold, and DROP IDENTITY. (TiDB refuses both, TestTiDBRefusals.)
func TestPostgresIdentityAddedRemoved(t *testing.T) {
	t.Parallel()
	withIdentity := strings.Replace(items, "  column \"id\" {\n    type = int\n", "  column \"id\" {\n    type = int\n    identity {\n      start = 5\n    }\n", 1)
	for _, c := range []struct{ name, before, after string }{
		{"added", items, withIdentity},
		{"removed", withIdentity, items},
	} {
		t.Run(c.name, func(t *testing.T) {
			r := plantest.NewRunner(t)
			r.Only = "postgres"
			f, err := r.Reproduce(context.Background(), 1, c.before, c.after, c.name)
			if err != nil {
				t.Fatal(err)
			}
			if f != nil {
				t.Fatalf("%s", f.What)
			}
			if len(r.Refusals) > 0 || r.Stats.Steps != 2 {
				t.Fatalf("%d steps applied, refusals %v; want both steps applied", r.Stats.Steps, r.Refusals)
			}
		})
	}
}

// TestRenamesKeepRows: a table and a column renamed with renamed_from are
// planned as renames on both databases: no statement drops either, and
// the rows (followed to their new names) are kept.
func TestRenamesKeepRows(t *testing.T) {
	t.Parallel()
	renamed := strings.NewReplacer(
		`table "users" {`, "table \"members\" {\n  renamed_from = \"users\"",
		`  column "name" {`, "  column \"full_name\" {\n    renamed_from = \"name\"",
		`ref_table   = "users"`, `ref_table   = "members"`,
		`  column "author" {`, "  column \"writer\" {\n    renamed_from = \"author\"",
		`columns     = ["author"]`, `columns     = ["writer"]`,
	).Replace(users + posts)
	r := plantest.NewRunner(t)
	f, err := r.Reproduce(context.Background(), 3, users+posts, renamed, "rename users, users.name and posts.author")
	if err != nil {
		t.Fatal(err)
	}
	if f != nil {
		t.Fatalf("%s", f.What)
	}
	if r.Stats.RowsChecked == 0 {
		t.Fatal("no rows were checked")
	}
}

// TestGeneratedChanges: a generated column given a new expression failed
// migrate diff on PostgreSQL (Atlas: "changing the generation expression
// ... is not supported"), and one moved from STORED to VIRTUAL failed it on
// TiDB; both are planned as a drop and an add, the values computed again.
func TestGeneratedChanges(t *testing.T) {
	t.Parallel()
	t.Run("expression_postgres", func(t *testing.T) {
		r := plantest.NewRunner(t)
		r.Only = "postgres"
		f, err := r.Reproduce(context.Background(), 1, generatedTotal(true), strings.Replace(generatedTotal(true), "price * 2", "price * 3", 1), "a new expression")
		if err == nil && f != nil {
			err = f
		}
		if err != nil || len(r.Refusals) > 0 {
			t.Fatalf("%v, refusals %v", err, r.Refusals)
		}
	})
	t.Run("virtual_expression", func(t *testing.T) {
		plantest.Replay(t, 1, generatedTotal(false), strings.Replace(generatedTotal(false), "price * 2", "price * 3", 1))
	})
	t.Run("stored_to_virtual", func(t *testing.T) {
		plantest.Replay(t, 1, generatedTotal(true), generatedTotal(false))
	})
}

// TestOnUpdateThroughMigrations: on PostgreSQL, on_update = now() is a
// function and trigger schemagen writes, which Atlas does not see: migrate
// diff never created, changed or dropped them, so a migrated database had
// no trigger where a fresh one has it (the oracle compares the triggers).
func TestOnUpdateThroughMigrations(t *testing.T) {
	t.Parallel()
	onUpdate := strings.Replace(items, "  primary_key", "  column \"changed_at\" {\n    type      = timestamp\n    default   = now()\n    on_update = now()\n  }\n  primary_key", 1)
	more := strings.Replace(onUpdate, "  primary_key", "  column \"note\" {\n    type = text\n    null = true\n  }\n  primary_key", 1)
	renamed := strings.Replace(onUpdate, `table "items" {`, "table \"goods\" {\n  renamed_from = \"items\"", 1)
	t.Run("added", func(t *testing.T) { plantest.Replay(t, 1, items, onUpdate) })
	t.Run("table_created", func(t *testing.T) { plantest.Replay(t, 1, users, users+onUpdate) })
	t.Run("changed", func(t *testing.T) { plantest.Replay(t, 1, onUpdate, more) })
	t.Run("table_renamed", func(t *testing.T) { plantest.Replay(t, 1, onUpdate, renamed) })
	t.Run("removed", func(t *testing.T) { plantest.Replay(t, 1, onUpdate, items) })
	// on_update set and unset on a column that stays: Atlas's MySQL diff
	// reads no ON UPDATE change, so TiDB's plan wrote none and the
	// comparison saw none (plan oracle, evolution 97171291727).
	plain := strings.Replace(onUpdate, "    on_update = now()\n", "", 1)
	t.Run("set", func(t *testing.T) { plantest.Replay(t, 1, plain, onUpdate) })
	t.Run("unset", func(t *testing.T) { plantest.Replay(t, 1, onUpdate, plain) })
	t.Run("table_dropped", func(t *testing.T) { plantest.Replay(t, 1, users+onUpdate, users) })
}
