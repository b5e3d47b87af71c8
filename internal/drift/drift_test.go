package drift_test

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"net"
	"net/url"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/schemagen/schemagen/internal/cli"
	"github.com/schemagen/schemagen/internal/dbtest"
	"github.com/schemagen/schemagen/internal/devdb"
	"github.com/schemagen/schemagen/internal/drift"
	"github.com/schemagen/schemagen/internal/migration"
	"github.com/schemagen/schemagen/internal/scratch"
	"github.com/schemagen/schemagen/internal/testproject"
)

func TestMain(m *testing.M) { dbtest.Main(m) }

const model = `
table "spaces" {
  column "id" {
    type = uuid
  }
  column "name" {
    type = varchar(50)
  }
  column "kind" {
    type = varchar(16)
  }
  primary_key {
    columns = ["id"]
  }
  check "spaces_kind_ck" {
    expr = "kind IN ('a', 'b')"
  }
}

table "docs" {
  column "id" {
    type = uuid
  }
  column "space_id" {
    type = uuid
  }
  column "title" {
    type = varchar(100)
  }
  primary_key {
    columns = ["id"]
  }
  foreign_key "docs_space_fk" {
    columns     = ["space_id"]
    ref_table   = "spaces"
    ref_columns = ["id"]
    on_delete   = "cascade"
  }
  index "docs_space_idx" {
    columns = ["space_id"]
  }
  index "docs_title_idx" {
    columns = ["title"]
  }
  #NEXT
}
`

func next(m, extra string) string { return strings.Replace(m, "  #NEXT\n", extra+"  #NEXT\n", 1) }

// fixture is a project with three migrations, a database migrated to head,
// and one two migrations behind, for one dialect.
type fixture struct {
	p            *testproject.Project
	dialect      string
	head, behind *dbtest.DB
}

func newFixture(t *testing.T, dialect string) *fixture {
	f := &fixture{p: testproject.New(t, model), dialect: dialect}
	f.head, f.behind = dbtest.New(t, dialect), dbtest.New(t, dialect)
	f.p.Diff("init")
	f.p.Apply(dialect, f.behind.URL)
	m := next(model, "  column \"summary\" {\n    type = varchar(200)\n    null = true\n  }\n")
	f.p.Generate(m)
	f.p.Diff("add_summary")
	m = next(m, "  check \"docs_title_ck\" {\n    expr = \"char_length(title) > 0\"\n  }\n")
	f.p.Generate(m)
	// Plain: the PostgreSQL online plan of a CHECK is two files, the test
	// counts one per migration.
	f.p.Diff("add_title_check", migration.Plain(true))
	f.p.Apply(dialect, f.head.URL)
	return f
}

func (f *fixture) check(t *testing.T, urls ...string) []*drift.Report {
	t.Helper()
	return drift.Check(context.Background(), drift.Options{Target: f.p.Target(f.dialect), Dev: f.p.Dev, Model: f.p.Model(), Timeout: time.Minute, Parallel: 4}, urls)
}

func exec(t *testing.T, db *dbtest.DB, stmts ...string) {
	t.Helper()
	for _, s := range stmts {
		if _, err := db.Exec(s); err != nil {
			t.Fatalf("%s: %v", s, err)
		}
	}
}

// described returns the findings of a comparison as sorted one-liners.
func described(c *drift.Comparison) []string {
	var out []string
	for _, f := range c.Findings {
		out = append(out, f.Change+" "+f.Kind+" "+f.Table+"."+f.Name)
	}
	slices.Sort(out)
	return out
}

func TestDrift(t *testing.T) {
	for _, d := range []string{"postgres", "tidb"} {
		t.Run(d, func(t *testing.T) {
			t.Parallel()
			f := newFixture(t, d)

			// Migrated to head: no drift against either.
			r := f.check(t, f.head.URL)[0]
			if r.Status != drift.NoDrift || r.Error != "" {
				t.Fatalf("a database at head: status %d %s\n%+v\n%+v", r.Status, r.Error, r.Migrations, r.Model)
			}
			if len(r.Pending) != 0 || r.Version == "" {
				t.Errorf("head: version %q, pending %v", r.Version, r.Pending)
			}

			// Two migrations behind: two pending files, no drift against the
			// directory at its version, the missing changes against the model.
			r = f.check(t, f.behind.URL)[0]
			if len(r.Pending) != 2 || !strings.HasSuffix(r.Pending[0], "_add_summary.sql") || !strings.HasSuffix(r.Pending[1], "_add_title_check.sql") {
				t.Errorf("behind: pending %v", r.Pending)
			}
			if len(r.Migrations.Findings) != 0 {
				t.Errorf("behind: drift against its version: %v", described(r.Migrations))
			}
			if got, want := described(r.Model), []string{"missing check docs.docs_title_ck", "missing column docs.summary"}; !slices.Equal(got, want) {
				t.Errorf("behind, against the model: %v, want %v", got, want)
			}
			if r.Status != drift.Drift {
				t.Errorf("behind: status %d", r.Status)
			}

			// Hand changes, each reported precisely.
			hand := map[string][]string{
				"postgres": {
					`DROP INDEX "docs_title_idx"`,
					`ALTER TABLE "spaces" ADD COLUMN "extra" integer`,
					`ALTER TABLE "docs" ALTER COLUMN "title" TYPE varchar(150)`,
					`ALTER TABLE "spaces" DROP CONSTRAINT "spaces_kind_ck"`,
					`ALTER TABLE "docs" DROP CONSTRAINT "docs_space_fk"`,
					`CREATE TABLE "stray" ("id" integer PRIMARY KEY)`,
				},
				"tidb": {
					"DROP INDEX `docs_title_idx` ON `docs`",
					"ALTER TABLE `spaces` ADD COLUMN `extra` INT",
					"ALTER TABLE `docs` MODIFY COLUMN `title` VARCHAR(150) NOT NULL",
					"ALTER TABLE `spaces` DROP CONSTRAINT `spaces_kind_ck`",
					"ALTER TABLE `docs` DROP FOREIGN KEY `docs_space_fk`",
					"CREATE TABLE `stray` (`id` INT PRIMARY KEY)",
				},
			}
			exec(t, f.head, hand[d]...)
			r = f.check(t, f.head.URL)[0]
			want := []string{
				"changed column docs.title",
				"extra column spaces.extra",
				"extra table stray.",
				"missing check spaces.spaces_kind_ck",
				"missing foreign_key docs.docs_space_fk",
				"missing index docs.docs_title_idx",
			}
			for _, c := range []*drift.Comparison{r.Migrations, r.Model} {
				if got := described(c); !slices.Equal(got, want) {
					t.Errorf("hand changes against %s:\n got %v\nwant %v", c.Against, got, want)
				}
				if len(c.Fix) == 0 {
					t.Errorf("against %s: no fix", c.Against)
				}
			}
			// Each finding shows the object as the dialect prints it (the
			// same lines as when drift printed them itself).
			wantLines := map[string][]string{
				"postgres": {
					"check spaces.spaces_kind_ck is missing (expected CHECK ((kind)::text = ANY ((ARRAY['a'::character varying, 'b'::character varying])::text[])))",
					"column docs.title differs: expected character varying(100) NOT NULL, found character varying(150) NOT NULL",
					"column spaces.extra is not expected (found integer NULL)",
					"foreign key docs.docs_space_fk is missing (expected (space_id) REFERENCES spaces (id) ON DELETE CASCADE ON UPDATE NO ACTION)",
					"index docs.docs_title_idx is missing (expected (title))",
					"table stray is not expected (found 1 columns)",
				},
				"tidb": {
					"check spaces.spaces_kind_ck is missing (expected CHECK (`kind` in (_utf8mb4'a',_utf8mb4'b')))",
					// exact_strings (on by default) gives the column its
					// collation; the hand-made change left TiDB's default.
					"column docs.title differs: expected varchar(100) NOT NULL COLLATE utf8mb4_0900_bin, found varchar(150) NOT NULL COLLATE utf8mb4_bin",
					"column spaces.extra is not expected (found int NULL)",
					"foreign key docs.docs_space_fk is missing (expected (space_id) REFERENCES spaces (id) ON DELETE CASCADE)",
					"index docs.docs_title_idx is missing (expected (title))",
					"table stray is not expected (found 1 columns)",
				},
			}
			var lines []string
			for _, fd := range r.Migrations.Findings {
				lines = append(lines, fd.Describe())
			}
			slices.Sort(lines)
			if !slices.Equal(lines, wantLines[d]) {
				t.Errorf("the findings read\n%s\nwant\n%s", strings.Join(lines, "\n"), strings.Join(wantLines[d], "\n"))
			}
			if r.Status != drift.Drift {
				t.Errorf("status %d", r.Status)
			}

			// The fix SQL holds the model's text, as the migrations do (which
			// PostgreSQL would normalise differently from its printed text),
			// and brings the database back.
			wantFix := map[string]string{"postgres": `CHECK ("kind" IN ('a', 'b'))`, "tidb": "CHECK (`kind` IN ('a', 'b'))"}[d]
			for _, c := range []*drift.Comparison{r.Migrations, r.Model} {
				if !strings.Contains(strings.Join(c.Fix, "\n"), wantFix) {
					t.Errorf("the fix against %s does not hold %s:\n%s", c.Against, wantFix, strings.Join(c.Fix, "\n"))
				}
			}
			exec(t, f.head, r.Migrations.Fix...)
			if r := f.check(t, f.head.URL)[0]; r.Status != drift.NoDrift {
				t.Errorf("after the fix: status %d %v %v", r.Status, described(r.Migrations), r.Error)
			}
		})
	}
}

// readOnlyURL makes a role that can only read db and returns its URL.
func readOnlyURL(t *testing.T, db *dbtest.DB, password string) string {
	t.Helper()
	user := "reader_" + strings.ReplaceAll(db.Name, "-", "_")
	if len(user) > 30 {
		user = user[:30]
	}
	if db.Dialect == "postgres" {
		exec(t, db,
			fmt.Sprintf(`CREATE ROLE %q LOGIN PASSWORD '%s'`, user, password),
			fmt.Sprintf(`ALTER ROLE %q SET default_transaction_read_only = on`, user),
			fmt.Sprintf(`GRANT CONNECT ON DATABASE %q TO %q`, db.Name, user),
			fmt.Sprintf(`GRANT USAGE ON SCHEMA public, atlas_schema_revisions TO %q`, user),
			fmt.Sprintf(`GRANT SELECT ON ALL TABLES IN SCHEMA public, atlas_schema_revisions TO %q`, user),
		)
		t.Cleanup(func() {
			db.Exec(fmt.Sprintf(`DROP OWNED BY %q`, user))
			db.Exec(fmt.Sprintf(`DROP ROLE %q`, user))
		})
	} else {
		exec(t, db,
			fmt.Sprintf("CREATE USER '%s'@'%%' IDENTIFIED BY '%s'", user, password),
			fmt.Sprintf("GRANT SELECT ON `%s`.* TO '%s'@'%%'", db.Name, user),
		)
		t.Cleanup(func() { db.Exec(fmt.Sprintf("DROP USER '%s'@'%%'", user)) })
	}
	u, err := url.Parse(db.URL)
	if err != nil {
		t.Fatal(err)
	}
	u.User = url.UserPassword(user, password)
	return u.String()
}

// TestDriftReadOnlyAndSecret runs drift through the CLI as a role that can
// only read, and finds its password in no output.
func TestDriftReadOnlyAndSecret(t *testing.T) {
	for _, d := range []string{"postgres", "tidb"} {
		t.Run(d, func(t *testing.T) {
			t.Parallel()
			f := newFixture(t, d)
			const password = "pw-Z7q9-secret"
			reader := readOnlyURL(t, f.head, password)
			bad, _ := url.Parse(reader)
			bad.User = url.UserPassword("nobody", password)
			for _, format := range []string{"text", "json", "github"} {
				var out, errb bytes.Buffer
				code := cli.Run([]string{"--schema", filepath.Join(f.p.Dir, "schema.hcl"), "drift", "--no-cache", "--config", f.p.Config, "--env", d, "--url", reader, "--url", bad.String(), "--format", format}, &out, &errb)
				all := out.String() + errb.String()
				if strings.Contains(all, password) {
					t.Fatalf("%s output holds the password:\n%s", format, all)
				}
				if code != 2 {
					t.Errorf("%s: exit %d, want 2 (one target could not log in)\n%s", format, code, all)
				}
				if format == "json" {
					var reports []drift.Report
					if err := json.Unmarshal(out.Bytes(), &reports); err != nil {
						t.Fatalf("json: %v\n%s", err, out.String())
					}
					if len(reports) != 2 || reports[0].Status != drift.NoDrift || reports[1].Status != drift.CouldNotDo || reports[1].Error == "" {
						t.Errorf("json reports: %s", out.String())
					}
				}
				if format == "text" && !strings.Contains(out.String(), "no drift") {
					t.Errorf("text:\n%s", out.String())
				}
				if format == "github" && !strings.Contains(out.String(), "::error title=drift:") {
					t.Errorf("github:\n%s", out.String())
				}
			}
		})
	}
}

// TestDriftManyTargets checks ten targets at once, one of which never
// answers: nine reports and one clear error naming the timeout. How long the
// run takes is for scripts/bench-drift.sh, not a test: a wall-clock bound
// fails on a busy machine.
func TestDriftManyTargets(t *testing.T) {
	f := newFixture(t, "tidb")
	// A server that accepts connections and never speaks.
	l, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	defer l.Close()
	go func() {
		for {
			c, err := l.Accept()
			if err != nil {
				return
			}
			defer c.Close()
		}
	}()
	urls := make([]string, 10)
	for i := range urls {
		urls[i] = f.head.URL
	}
	urls[6] = "mysql://root:hush@" + l.Addr().String() + "/db"
	reports := drift.Check(context.Background(), drift.Options{Target: f.p.Target("tidb"), Dev: f.p.Dev, Model: f.p.Model(), Timeout: 5 * time.Second, Parallel: 8}, urls)
	for i, r := range reports {
		switch {
		case i == 6 && (r.Status != drift.CouldNotDo || !strings.Contains(r.Error, "no answer within 5s") || strings.Contains(r.Error, "hush")):
			t.Errorf("the silent target: status %d, error %q", r.Status, r.Error)
		case i != 6 && r.Status != drift.NoDrift:
			t.Errorf("target %d: status %d %s", i, r.Status, r.Error)
		}
	}
	if got := reports[6].Target; strings.Contains(got, "hush") {
		t.Errorf("target name holds the password: %s", got)
	}
}

// TestDriftTargetsFile reads targets from a file and ignores tables.
func TestDriftTargetsFile(t *testing.T) {
	f := newFixture(t, "postgres")
	exec(t, f.head, `CREATE TABLE "owned_by_other_tool" ("id" integer)`)
	list := filepath.Join(t.TempDir(), "targets")
	os.WriteFile(list, []byte("# production\n"+f.head.URL+"\n\n"), 0o644)
	var out, errb bytes.Buffer
	code := cli.Run([]string{"--schema", filepath.Join(f.p.Dir, "schema.hcl"), "drift", "--no-cache", "--config", f.p.Config, "--env", "postgres", "--targets", list, "--ignore", "owned_by_*"}, &out, &errb)
	if code != 0 {
		t.Fatalf("exit %d\n%s%s", code, out.String(), errb.String())
	}
	code = cli.Run([]string{"--schema", filepath.Join(f.p.Dir, "schema.hcl"), "drift", "--no-cache", "--config", f.p.Config, "--env", "postgres", "--targets", list}, &out, &errb)
	if code != 1 || !strings.Contains(out.String(), "owned_by_other_tool") {
		t.Fatalf("without --ignore: exit %d\n%s", code, out.String())
	}
}

// TestDriftCache checks that a second run takes the expected states from the
// cache, building nothing on the dev database, and finds the same drift.
func TestDriftCache(t *testing.T) {
	for _, d := range []string{"postgres", "tidb"} {
		t.Run(d, func(t *testing.T) {
			t.Parallel()
			f := newFixture(t, d)
			exec(t, f.behind, map[string]string{"postgres": `CREATE TABLE "stray" ("id" integer)`, "tidb": "CREATE TABLE `stray` (`id` INT)"}[d])
			cache := &scratch.Cache{Dir: t.TempDir()}
			opts := drift.Options{Target: f.p.Target(d), Dev: &scratch.Dev{}, Model: f.p.Model(), Timeout: time.Minute, Parallel: 2, Cache: cache}
			defer opts.Dev.Close()
			first := drift.Check(context.Background(), opts, []string{f.head.URL, f.behind.URL})
			built := opts.Dev.Scratches()
			if built == 0 {
				t.Fatal("the first run built no state")
			}
			second := drift.Check(context.Background(), opts, []string{f.head.URL, f.behind.URL})
			if n := opts.Dev.Scratches(); n != built {
				t.Errorf("the second run made %d scratch databases", n-built)
			}
			for i := range first {
				a, b := first[i], second[i]
				if a.Status != b.Status || !slices.Equal(described(a.Migrations), described(b.Migrations)) || !slices.Equal(described(a.Model), described(b.Model)) {
					t.Errorf("target %d: first %d %v %v, second %d %v %v", i, a.Status, described(a.Migrations), described(a.Model), b.Status, described(b.Migrations), described(b.Model))
				}
			}
			if second[0].Status != drift.NoDrift || second[1].Status != drift.Drift || !slices.Contains(described(second[1].Migrations), "extra table stray.") {
				t.Errorf("second run: %d, %d %v", second[0].Status, second[1].Status, described(second[1].Migrations))
			}
		})
	}
}

// TestDriftChecksOff runs drift against a TiDB whose CHECKs are switched off:
// the server is reported, and the CHECKs it dropped are missing.
func TestDriftChecksOff(t *testing.T) {
	checksOff := dbtest.TiDBChecksOff(t)
	ctx := context.Background()
	target, err := devdb.CreateDatabase(ctx, checksOff, "app")
	if err != nil {
		t.Fatal(err)
	}
	r := driftWarned(t, "tidb", target, "tidb_enable_check_constraint is OFF")
	if !slices.Contains(described(r.Migrations), "missing check spaces.spaces_kind_ck") {
		t.Errorf("the CHECK TiDB ignored is not reported missing: %v", described(r.Migrations))
	}
}

// TestDriftCaseMapping runs drift against a PostgreSQL database whose
// LC_CTYPE is C, under which upper and lower change ASCII letters only: the
// database is reported, though its schema matches.
func TestDriftCaseMapping(t *testing.T) {
	ctx := context.Background()
	serverURL := dbtest.ServerURL(t, devdb.Postgres)
	server, err := devdb.Open(serverURL)
	if err != nil {
		t.Fatal(err)
	}
	defer server.Close()
	name := "t_drift_ctype_" + strconv.FormatInt(time.Now().UnixNano(), 36)
	if _, err := server.Exec("CREATE DATABASE " + name + " TEMPLATE template0 ENCODING 'UTF8' LC_COLLATE 'C' LC_CTYPE 'C'"); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { _ = devdb.DropDatabase(ctx, serverURL, name) })
	target, err := devdb.WithDatabase(serverURL, name)
	if err != nil {
		t.Fatal(err)
	}
	r := driftWarned(t, "postgres", target, "(LC_CTYPE C) differs")
	if len(r.Migrations.Findings) != 0 || len(r.Model.Findings) != 0 {
		t.Errorf("findings on a matching schema: %v %v", described(r.Migrations), described(r.Model))
	}
}

// driftWarned applies the model to target and runs drift against it: the
// report must be a drift with one server warning, holding want.
func driftWarned(t *testing.T, dialect, target, want string) *drift.Report {
	t.Helper()
	p := testproject.New(t, model)
	p.Diff("init")
	p.Apply(dialect, target)
	r := drift.Check(context.Background(), drift.Options{Target: p.Target(dialect), Dev: p.Dev, Model: p.Model(), Timeout: time.Minute, Parallel: 1}, []string{target})[0]
	if r.Status != drift.Drift || len(r.ServerWarnings) != 1 || !strings.Contains(r.ServerWarnings[0], want) {
		t.Fatalf("status %d, server warnings %v, error %s", r.Status, r.ServerWarnings, r.Error)
	}
	return r
}
