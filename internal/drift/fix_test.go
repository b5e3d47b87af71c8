package drift_test

import (
	"context"
	"regexp"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/schemagen/schemagen/internal/dbtest"
	"github.com/schemagen/schemagen/internal/drift"
	"github.com/schemagen/schemagen/internal/scratch"
	"github.com/schemagen/schemagen/internal/testproject"
)

// exactModel keeps trailing spaces significant on TiDB (exact_strings: its
// string columns are utf8mb4_0900_bin), with a column of its own collation
// on each dialect.
const exactModel = `
dialect "tidb" {
  exact_strings = true
}

table "people" {
  column "id" {
    type = int
  }
  column "name" {
    type = varchar(100)
  }
  column "bio" {
    type    = varchar(300)
    null    = true
    default = "none"
    comment = "a \"short\" bio"
  }
  column "notes" {
    type = text
    null = true
  }
  column "age" {
    type = int
    null = true
  }
  primary_key {
    columns = ["id"]
  }
  check "people_age_ck" {
    expr = "age >= 0"
  }
  index "people_name_idx" {
    columns = ["name"]
  }
}
`

// TestDriftFixesApply: every fix statement drift prints for hand changes of
// every kind, collations included, applies, after which drift reports the
// database clean against the migrations and the model.
func TestDriftFixesApply(t *testing.T) {
	hand := map[string][]string{
		"postgres": {
			`ALTER TABLE "people" ALTER COLUMN "bio" TYPE varchar(200)`,
			`ALTER TABLE "people" ALTER COLUMN "bio" SET DEFAULT 'other'`,
			`COMMENT ON COLUMN "people"."bio" IS 'changed'`,
			`ALTER TABLE "people" ALTER COLUMN "age" SET NOT NULL`,
			`ALTER TABLE "people" DROP CONSTRAINT "people_age_ck"`,
			`DROP INDEX "people_name_idx"`,
			`ALTER TABLE "people" ADD COLUMN "extra" int`,
		},
		"tidb": {
			"ALTER TABLE `people` MODIFY COLUMN `bio` varchar(300) COLLATE utf8mb4_general_ci NULL DEFAULT 'other'",
			// Nullability only: the fix must keep the collation.
			"ALTER TABLE `people` MODIFY COLUMN `notes` text COLLATE utf8mb4_0900_bin NOT NULL",
			"ALTER TABLE `people` MODIFY COLUMN `age` int NOT NULL",
			"ALTER TABLE `people` DROP CONSTRAINT `people_age_ck`",
			"DROP INDEX `people_name_idx` ON `people`",
			// TiDB changes no collation of an indexed column (8200).
			"ALTER TABLE `people` MODIFY COLUMN `name` varchar(100) NOT NULL",
			"ALTER TABLE `people` ADD COLUMN `extra` int",
		},
	}
	for _, d := range []string{"postgres", "tidb"} {
		t.Run(d, func(t *testing.T) {
			t.Parallel()
			p := testproject.New(t, exactModel)
			db := dbtest.New(t, d)
			p.Diff("init")
			p.Apply(d, db.URL)
			// With a cache, as the command runs: the expected states are
			// stored as HCL and read back.
			cache := &scratch.Cache{Dir: t.TempDir()}
			check := func() *drift.Report {
				return drift.Check(context.Background(), drift.Options{Target: p.Target(d), Dev: p.Dev, Model: p.Model(), Timeout: time.Minute, Cache: cache}, []string{db.URL})[0]
			}
			if r := check(); r.Status != drift.NoDrift {
				t.Fatalf("migrated: status %d %s %v %v", r.Status, r.Error, described(r.Migrations), described(r.Model))
			}
			exec(t, db, hand[d]...)
			r := check()
			if r.Status != drift.Drift || r.Error != "" {
				t.Fatalf("after hand changes: status %d %s", r.Status, r.Error)
			}
			for _, fd := range r.Model.Findings {
				if fd.Change == "changed" && fd.Expected == fd.Found {
					t.Errorf("a difference that reads the same: %s", fd.Describe())
				}
			}
			if d == "tidb" {
				var lines []string
				for _, fd := range r.Model.Findings {
					lines = append(lines, fd.Describe())
				}
				want := "column people.name differs: expected varchar(100) NOT NULL COLLATE utf8mb4_0900_bin, found varchar(100) NOT NULL COLLATE utf8mb4_bin"
				if s := strings.Join(lines, "\n"); !strings.Contains(s, want) {
					t.Errorf("the findings do not name the collations:\n%s\nwant a line\n%s", s, want)
				}
				for _, c := range []string{"name", "bio", "notes"} {
					if fix := strings.Join(r.Model.Fix, "\n"); !regexp.MustCompile("MODIFY COLUMN `" + c + "` [^;]*COLLATE utf8mb4_0900_bin").MatchString(fix) {
						t.Errorf("the fix of %s does not keep its collation:\n%s", c, fix)
					}
				}
			}
			for _, c := range []*drift.Comparison{r.Migrations, r.Model} {
				if !slices.Equal(r.Migrations.Fix, c.Fix) {
					t.Errorf("fixes differ against %s:\n%s\n%s", c.Against, strings.Join(r.Migrations.Fix, "\n"), strings.Join(c.Fix, "\n"))
				}
			}
			t.Logf("fix:\n%s", strings.Join(r.Model.Fix, "\n"))
			exec(t, db, r.Model.Fix...)
			if r := check(); r.Status != drift.NoDrift {
				var lines []string
				for _, fd := range r.Model.Findings {
					lines = append(lines, fd.Describe())
				}
				t.Errorf("after the fix: status %d %s\n%s", r.Status, r.Error, strings.Join(lines, "\n"))
			}
		})
	}
}
