package drift_test

import (
	"slices"
	"strings"
	"testing"

	"github.com/schemagen/schemagen/internal/dbtest"
	"github.com/schemagen/schemagen/internal/drift"
	"github.com/schemagen/schemagen/internal/testproject"
)

const objectsModel = `extension "citext" {}
extension "pg_trgm" {}

table "users" {
  column "id" {
    type = bigint
  }
  column "email" {
    type = varchar(100)
    postgres {
      type = "CITEXT"
    }
  }
  primary_key {
    columns = ["id"]
  }
}

raw "user_emails_view" {
  postgres = "CREATE VIEW user_emails AS SELECT id, email FROM users"
  tidb     = "CREATE VIEW user_emails AS SELECT id, email FROM users"
}
`

// TestDriftObjects: a database migrated by schemagen has no drift in its
// extensions and views; a missing view and a missing extension are
// reported against the migrations and the model, a changed and a stray
// view too, and the fix statements drift prints bring it back.
func TestDriftObjects(t *testing.T) {
	for _, d := range []string{"postgres", "tidb"} {
		t.Run(d, func(t *testing.T) {
			t.Parallel()
			f := &fixture{p: testproject.New(t, objectsModel), dialect: d}
			f.head = dbtest.New(t, d)
			f.p.Diff("init")
			f.p.Apply(d, f.head.URL)
			if r := f.check(t, f.head.URL)[0]; r.Status != drift.NoDrift {
				t.Fatalf("migrated: status %d %s %v %v", r.Status, r.Error, described(r.Migrations), described(r.Model))
			}
			hand := []string{"DROP VIEW user_emails", "CREATE VIEW stray_view AS SELECT id FROM users"}
			want := []string{"extra view stray_view.", "missing view user_emails."}
			if d == "postgres" {
				hand = append(hand, "DROP EXTENSION pg_trgm")
				want = []string{"extra view stray_view.", "missing extension pg_trgm.", "missing view user_emails."}
			}
			exec(t, f.head, hand...)
			r := f.check(t, f.head.URL)[0]
			if r.Status != drift.Drift {
				t.Fatalf("status %d %s", r.Status, r.Error)
			}
			for _, c := range []*drift.Comparison{r.Migrations, r.Model} {
				if got := described(c); !slices.Equal(got, want) {
					t.Errorf("against %s:\n got %v\nwant %v", c.Against, got, want)
				}
			}
			// The fix, applied, leaves no drift.
			for _, s := range r.Model.Fix {
				exec(t, f.head, strings.TrimSuffix(s, ";"))
			}
			if r := f.check(t, f.head.URL)[0]; r.Status != drift.NoDrift {
				t.Fatalf("after the fix %q: status %d %s %v %v", r.Model.Fix, r.Status, r.Error, described(r.Migrations), described(r.Model))
			}
			// A view changed by hand.
			exec(t, f.head, "DROP VIEW user_emails", "CREATE VIEW user_emails AS SELECT id FROM users")
			r = f.check(t, f.head.URL)[0]
			if got := described(r.Model); !slices.Equal(got, []string{"changed view user_emails."}) {
				t.Errorf("changed view: %v", got)
			}
		})
	}
}

const onUpdateModel = `
table "docs" {
  column "id" {
    type = bigint
  }
  column "title" {
    type = varchar(100)
  }
  column "updated_at" {
    type      = timestamp
    default   = now()
    on_update = now()
  }
  primary_key {
    columns = ["id"]
  }
}
`

// TestDriftOnUpdateTrigger: on PostgreSQL, on_update is a function and
// trigger schemagen writes, which Atlas does not inspect: a database
// migrated by schemagen has it, drift reports it missing, changed or extra
// (it did not see it at all), and the fix statements drift prints bring it
// back.
func TestDriftOnUpdateTrigger(t *testing.T) {
	f := &fixture{p: testproject.New(t, onUpdateModel), dialect: "postgres"}
	f.head = dbtest.New(t, "postgres")
	f.p.Diff("init")
	f.p.Apply("postgres", f.head.URL)
	if r := f.check(t, f.head.URL)[0]; r.Status != drift.NoDrift {
		t.Fatalf("migrated: status %d %s %v %v", r.Status, r.Error, described(r.Migrations), described(r.Model))
	}
	for _, c := range []struct {
		name string
		hand []string
		want string
	}{
		{"missing", []string{"DROP TRIGGER docs_on_update ON docs"}, "missing trigger docs.docs_on_update"},
		{"changed", []string{"CREATE OR REPLACE FUNCTION docs_on_update() RETURNS trigger LANGUAGE plpgsql AS $$ BEGIN RETURN NEW; END $$"}, "changed trigger docs.docs_on_update"},
		{"extra", []string{"CREATE FUNCTION stray() RETURNS trigger LANGUAGE plpgsql AS $$ BEGIN RETURN NEW; END $$", "CREATE TRIGGER stray BEFORE UPDATE ON docs FOR EACH ROW EXECUTE FUNCTION stray()"}, "extra trigger docs.stray"},
	} {
		exec(t, f.head, c.hand...)
		r := f.check(t, f.head.URL)[0]
		if r.Status != drift.Drift {
			t.Fatalf("%s: status %d %s", c.name, r.Status, r.Error)
		}
		for _, cmp := range []*drift.Comparison{r.Migrations, r.Model} {
			if got := described(cmp); !slices.Equal(got, []string{c.want}) {
				t.Errorf("%s against %s: %v, want [%s]", c.name, cmp.Against, got, c.want)
			}
		}
		for _, s := range r.Model.Fix {
			exec(t, f.head, strings.TrimSuffix(s, ";"))
		}
		if r := f.check(t, f.head.URL)[0]; r.Status != drift.NoDrift {
			t.Fatalf("%s: after the fix %q: status %d %s %v", c.name, r.Model.Fix, r.Status, r.Error, described(r.Model))
		}
	}
}
