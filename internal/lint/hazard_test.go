package lint_test

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"os"
	"regexp"
	"slices"
	"strings"
	"testing"

	"github.com/schemagen/schemagen/dialects/all"
	"github.com/schemagen/schemagen/internal/lint"
	"github.com/schemagen/schemagen/internal/online"
	"github.com/schemagen/schemagen/internal/testproject"
)

const hazardInit = `CREATE TABLE "spaces" ("id" bigint NOT NULL, PRIMARY KEY ("id"));
CREATE TABLE "docs" ("id" bigint NOT NULL, "space_id" bigint NOT NULL, "title" character varying(200) NULL, "n" integer NULL, PRIMARY KEY ("id"));
`

// TestLintHazards: `migrate lint` reports each statement's hazards on tables
// that existed before the file, in every format; the online forms of the
// same changes have no severe hazard left.
func TestLintHazards(t *testing.T) {
	p := newLintProject(t)
	p.file("postgres", "init", hazardInit)
	path := p.file("postgres", "plain", `CREATE INDEX "docs_title_idx" ON "docs" ("title");
ALTER TABLE "docs" ADD CONSTRAINT "docs_n_ck" CHECK (n > 0);
ALTER TABLE "docs" ADD CONSTRAINT "docs_space_fk" FOREIGN KEY ("space_id") REFERENCES "spaces" ("id");
ALTER TABLE "docs" ALTER COLUMN "title" SET NOT NULL;
ALTER TABLE "docs" ALTER COLUMN "n" TYPE bigint;
CREATE TABLE "fresh" ("id" bigint NOT NULL, "v" integer NULL, PRIMARY KEY ("id"));
CREATE INDEX "fresh_v_idx" ON "fresh" ("v");
`)
	r := p.lint("postgres", lint.Options{})
	for code, line := range map[string]int{"PG101": 1, "PG103": 2, "PG104": 3, "PG105": 4, "PG106": 5} {
		f := want(t, r, code, line, false, "")
		if f.Severity != lint.SeverityError || f.File != path {
			t.Errorf("%s: %+v", code, f)
		}
	}
	// The table created by the file holds no rows: its index is no hazard,
	// and neither are brief locks under no lock_timeout there.
	if fs := find(r, "PG101"); len(fs) != 1 {
		t.Errorf("PG101 on a table the file creates:\n%s", dump(r))
	}
	want(t, r, "PG101", 1, false, "SHARE lock for the whole scan (blocks writes), scans the table")

	var b bytes.Buffer
	if err := lint.Write(&b, r, "json"); err != nil {
		t.Fatal(err)
	}
	var j lint.JSON
	if err := json.Unmarshal(b.Bytes(), &j); err != nil {
		t.Fatal(err)
	}
	codes := map[string]bool{}
	for _, f := range j.Findings {
		codes[f.Code] = true
	}
	if !codes["PG101"] || !codes["PG105"] {
		t.Errorf("json findings lack hazards: %s", b.String())
	}
	b.Reset()
	lint.Write(&b, r, "github")
	if !strings.Contains(b.String(), "::error file="+path+",line=1,col=1,title=PG101::") {
		t.Errorf("github output lacks PG101:\n%s", b.String())
	}
	b.Reset()
	lint.Write(&b, r, "sarif")
	checkSARIF(t, b.Bytes(), len(r.Findings))
	if !strings.Contains(b.String(), `"ruleId": "PG105"`) && !strings.Contains(b.String(), `"ruleId":"PG105"`) {
		t.Errorf("sarif lacks PG105")
	}

	// The same changes as an online plan writes them.
	p2 := newLintProject(t)
	p2.file("postgres", "init", hazardInit)
	p2.file("postgres", "online", `SET LOCAL lock_timeout = '5s';
ALTER TABLE "docs" ADD CONSTRAINT "docs_n_ck" CHECK (n > 0) NOT VALID;
ALTER TABLE "docs" ADD CONSTRAINT "docs_space_fk" FOREIGN KEY ("space_id") REFERENCES "spaces" ("id") NOT VALID;
ALTER TABLE "docs" ADD CONSTRAINT "docs_title_not_null" CHECK ("title" IS NOT NULL) NOT VALID;
`)
	p2.file("postgres", "online2", `-- atlas:txmode none

CREATE INDEX CONCURRENTLY "docs_title_idx" ON "docs" ("title");
SET lock_timeout = '5s';
ALTER TABLE "docs" VALIDATE CONSTRAINT "docs_n_ck";
ALTER TABLE "docs" VALIDATE CONSTRAINT "docs_space_fk";
ALTER TABLE "docs" VALIDATE CONSTRAINT "docs_title_not_null";
ALTER TABLE "docs" ALTER COLUMN "title" SET NOT NULL;
ALTER TABLE "docs" DROP CONSTRAINT "docs_title_not_null";
RESET lock_timeout;
`)
	r = p2.lint("postgres", lint.Options{Latest: 2})
	if errs, _, _ := r.Counts(); errs != 0 {
		t.Errorf("the online files have errors:\n%s", dump(r))
	}
	none(t, r, "PG101", "PG103", "PG104", "PG105", "PG110", "PG112")
	if n := len(find(r, "PG108")); n != 3 {
		t.Errorf("%d PG108, want one per VALIDATE:\n%s", n, dump(r))
	}
	want(t, r, "PG109", 3, false, "SHARE UPDATE EXCLUSIVE")

	// Without lock_timeout, the brief strong locks are reported.
	p3 := newLintProject(t)
	p3.file("postgres", "init", hazardInit)
	p3.file("postgres", "no_timeout", `ALTER TABLE "docs" ADD COLUMN "note" text NULL;
`)
	want(t, p3.lint("postgres", lint.Options{}), "PG110", 1, false, "ACCESS EXCLUSIVE lock briefly")
}

// TestHazardCodesDocumented: every hazard code of every dialect has a
// section in docs/lint.md, an example, a title and advice.
func TestHazardCodesDocumented(t *testing.T) {
	doc, err := os.ReadFile("../../docs/lint.md")
	if err != nil {
		t.Fatal(err)
	}
	codes := online.Codes(all.Online()...)
	if len(codes) < 19 {
		t.Fatalf("%d hazard codes", len(codes))
	}
	for _, c := range codes {
		if !regexp.MustCompile(`(?m)^### ` + c.Code + `$`).Match(doc) {
			t.Errorf("docs/lint.md has no section for %s", c.Code)
		}
		if c.Title == "" || c.Help == "" || c.Example == "" || c.Dialect == "" {
			t.Errorf("%s: incomplete: %+v", c.Code, c)
		}
		_, isRule := lint.LookupRule(c.Code)
		if isRule == (c.CoveredBy != "") {
			t.Errorf("%s: a lint rule %v, covered by %q", c.Code, isRule, c.CoveredBy)
		}
	}
}

// TestLintTableOptionHazards: a hand-written file that drops a part of a
// partitioned table or sets a TTL that deletes rows gets the hazards
// migrate diff writes above the same statements: TD110 and TD109 on TiDB,
// and on PostgreSQL a part dropped (DROP TABLE of the part's table) is
// PG107's data loss, reported as DS102.
func TestLintTableOptionHazards(t *testing.T) {
	t.Run("tidb", func(t *testing.T) {
		p := newLintProject(t)
		p.file("tidb", "init", "CREATE TABLE `events` (`id` bigint NOT NULL, `day` date NOT NULL, PRIMARY KEY (`id`, `day`)) PARTITION BY RANGE COLUMNS(`day`) (PARTITION `events_old` VALUES LESS THAN ('2001-01-01'), PARTITION `events_new` VALUES LESS THAN ('3001-01-01'));\n"+
			"CREATE TABLE `sessions` (`id` bigint NOT NULL, `at` datetime NOT NULL, PRIMARY KEY (`id`)) TTL = `at` + INTERVAL 90 DAY TTL_ENABLE = 'ON';\n")
		p.file("tidb", "hand", "ALTER TABLE `events` DROP PARTITION `events_old`;\nALTER TABLE `sessions` TTL = `at` + INTERVAL 30 DAY;\nALTER TABLE `sessions` TTL = `at` + INTERVAL 60 DAY;\n"+
			"ALTER TABLE `events` TRUNCATE PARTITION `events_new`;\nALTER TABLE `sessions` TTL_ENABLE = 'OFF';\nALTER TABLE `sessions` TTL_ENABLE = 'ON';\n")
		r := p.lint("tidb", lint.Options{Latest: 1})
		var got []string
		for _, f := range r.Findings {
			got = append(got, fmt.Sprintf("%d %s %s", f.Line, f.Code, f.Message))
		}
		// A longer interval and a TTL turned off delete nothing.
		wantLines := []string{
			"1 TD110 DROP PARTITION deletes its rows (TiDB): events: loses data; the rows of part events_old are deleted",
			"2 TD109 TTL deleting rows (TiDB): sessions: loses data; TiDB's TTL jobs delete the rows whose at is older than 30 DAY, which were kept before",
			"4 TD110 TRUNCATE PARTITION deletes its rows (TiDB): events: loses data; the rows of part events_new are deleted",
			"6 TD109 TTL deleting rows (TiDB): sessions: loses data; TiDB's TTL jobs delete the rows whose at is older than 60 DAY, which were kept before",
		}
		if !slices.Equal(got, wantLines) {
			t.Errorf("findings\n%s\nwant\n%s", strings.Join(got, "\n"), strings.Join(wantLines, "\n"))
		}
	})
	t.Run("postgres", func(t *testing.T) {
		pg := newLintProject(t)
		pg.file("postgres", "init", `CREATE TABLE "events" ("id" bigint NOT NULL, "day" date NOT NULL, PRIMARY KEY ("id", "day")) PARTITION BY RANGE ("day");
CREATE TABLE "events_old" PARTITION OF "events" FOR VALUES FROM (MINVALUE) TO ('2001-01-01');
CREATE TABLE "events_new" PARTITION OF "events" FOR VALUES FROM ('2001-01-01') TO ('3001-01-01');
`)
		pg.file("postgres", "hand", `DROP TABLE "events_old";
`)
		want(t, pg.lint("postgres", lint.Options{Latest: 1}), "DS102", 1, false, "events_old")
	})
}

// TestLintPlannedPartDrop: the files migrate diff writes for a part
// dropped hold no lint error: TiDB's DROP PARTITION is TD110 (a warning),
// PostgreSQL's DROP TABLE of the part DS102, suppressed by the reason
// migrate diff writes above it.
func TestLintPlannedPartDrop(t *testing.T) {
	const model = `
table "events" {
  column "id" {
    type = bigint
  }
  column "day" {
    type = date
  }
  primary_key {
    columns = ["id", "day"]
  }
  partition {
    type   = "range"
    column = "day"
    part "events_old" {
      less_than = "2001-01-01"
    }
    part "events_new" {
      less_than = "3001-01-01"
    }
  }
}
`
	p := testproject.New(t, model)
	p.Diff("init")
	p.Generate(strings.Replace(model, "    part \"events_old\" {\n      less_than = \"2001-01-01\"\n    }\n", "", 1))
	p.Diff("drop")
	r, err := lint.Run(context.Background(), p.Dev, p.Targets, lint.Options{Latest: 1})
	if err != nil {
		t.Fatal(err)
	}
	if errs, _, _ := r.Counts(); errs != 0 {
		t.Errorf("the planned files have lint errors:\n%s", dump(r))
	}
	if f := want(t, r, "DS102", 6, true, "part events_old is dropped"); !strings.Contains(f.Reason, "the model drops part events_old of table events") {
		t.Errorf("DS102 suppressed for %q", f.Reason)
	}
	want(t, r, "TD110", 3, false, "the rows of part events_old are deleted")
}

const partitionedInit = `CREATE TABLE "events" ("id" bigint NOT NULL, "day" date NOT NULL, "n" integer NULL, PRIMARY KEY ("id", "day")) PARTITION BY RANGE ("day");
CREATE TABLE "events_old" PARTITION OF "events" FOR VALUES FROM (MINVALUE) TO ('2025-01-01');
CREATE TABLE "events_new" PARTITION OF "events" FOR VALUES FROM ('2025-01-01') TO (MAXVALUE);
CREATE TABLE "nested" ("id" bigint NOT NULL, "n" integer NULL) PARTITION BY HASH ("id");
CREATE TABLE "nested_p0" PARTITION OF "nested" FOR VALUES WITH (MODULUS 1, REMAINDER 0) PARTITION BY RANGE ("id");
CREATE TABLE "nested_p0_all" PARTITION OF "nested_p0" FOR VALUES FROM (MINVALUE) TO (MAXVALUE);
CREATE TABLE "empty" ("id" bigint NOT NULL, "n" integer NULL) PARTITION BY HASH ("id");
`

// TestLintPartitionedIndexes: the files of migrate diff's online plan of
// indexes added to a partitioned table (issue 30: lint reported PG101 on
// the plain CREATE INDEX the plan wrote, plan oracle seed 61616) have no
// error: the index created ON ONLY the table, a unique constraint ALTER
// TABLE ONLY, is PG114 (a brief lock, catalog only), and the statements on
// the parts are on no table of the schema. Plain, an index of a table with
// parts is PG101; of one with none PG114; of one with a partitioned part
// PG115, a warning (no CONCURRENTLY builds it); DROP INDEX of a
// partitioned table's index locks the parts too (PG110).
func TestLintPartitionedIndexes(t *testing.T) {
	p := newLintProject(t)
	p.file("postgres", "init", partitionedInit)
	p.file("postgres", "online", `SET LOCAL lock_timeout = '5s';
CREATE INDEX "events_n_idx" ON ONLY "events" ("n");
ALTER TABLE ONLY "events" ADD CONSTRAINT "events_n_key" UNIQUE ("n", "day");
`)
	p.file("postgres", "online2", `-- atlas:txmode none

CREATE INDEX CONCURRENTLY "events_old_events_n_idx" ON "events_old" ("n");
CREATE INDEX CONCURRENTLY "events_new_events_n_idx" ON "events_new" ("n");
CREATE UNIQUE INDEX CONCURRENTLY "events_old_events_n_key" ON "events_old" ("n", "day");
CREATE UNIQUE INDEX CONCURRENTLY "events_new_events_n_key" ON "events_new" ("n", "day");
SET lock_timeout = '5s';
ALTER INDEX "events_n_idx" ATTACH PARTITION "events_old_events_n_idx";
ALTER INDEX "events_n_idx" ATTACH PARTITION "events_new_events_n_idx";
ALTER TABLE "events_old" ADD CONSTRAINT "events_old_events_n_key" UNIQUE USING INDEX "events_old_events_n_key";
ALTER INDEX "events_n_key" ATTACH PARTITION "events_old_events_n_key";
ALTER TABLE "events_new" ADD CONSTRAINT "events_new_events_n_key" UNIQUE USING INDEX "events_new_events_n_key";
ALTER INDEX "events_n_key" ATTACH PARTITION "events_new_events_n_key";
RESET lock_timeout;
`)
	r := p.lint("postgres", lint.Options{Latest: 2})
	if errs, _, _ := r.Counts(); errs != 0 {
		t.Errorf("the online files have errors:\n%s", dump(r))
	}
	if fs := find(r, "PG114"); len(fs) != 2 || fs[0].Line != 2 || fs[1].Line != 3 || !strings.Contains(fs[0].Message, "SHARE lock briefly (blocks writes)") ||
		!strings.Contains(fs[1].Message, "ACCESS EXCLUSIVE lock briefly (blocks reads and writes)") || fs[0].Severity != lint.SeverityWarning {
		t.Errorf("want PG114 warnings on lines 2 and 3:\n%s", dump(r))
	}
	none(t, r, "PG101", "PG109", "PG110", "PG111")

	p2 := newLintProject(t)
	p2.file("postgres", "init", partitionedInit)
	p2.file("postgres", "plain", `CREATE INDEX "nested_n_idx" ON "nested" ("n");
CREATE INDEX "events_n_idx" ON "events" ("n");
CREATE INDEX "empty_n_idx" ON "empty" ("n");
DROP INDEX "events_n_idx";
`)
	r = p2.lint("postgres", lint.Options{Latest: 1})
	want(t, r, "PG115", 1, false, "part nested_p0 is itself partitioned")
	want(t, r, "PG101", 2, false, "SHARE lock for the whole scan")
	want(t, r, "PG114", 3, false, "builds nothing: the table has no part")
	want(t, r, "PG110", 4, false, "also of its 2 parts and their indexes")
	if f := find(r, "PG115")[0]; f.Severity != lint.SeverityWarning {
		t.Errorf("PG115 is a %s", f.Severity)
	}
}

// TestLintTypeChangeUnderIndexes: a column type change that rewrites the
// table rebuilds its indexes under the rewrite's lock, which PG106 reports.
// A replay reads the partial index over the column as changed, since
// PostgreSQL prints its predicate anew over the new type; that is no CREATE
// INDEX (plan oracle, evolution 95353286301: PG101 on a file migrate diff
// wrote). A statement that rewrites nothing still reports a rebuilt index.
func TestLintTypeChangeUnderIndexes(t *testing.T) {
	t.Parallel()
	p := newLintProject(t)
	p.file("postgres", "init", `CREATE TABLE "items" ("id" bigint NOT NULL, "code" character(5) NOT NULL, PRIMARY KEY ("id"));
CREATE INDEX "items_code_part" ON "items" ("id") WHERE "code" = 'abc';
CREATE INDEX "items_code_idx" ON "items" ("code");
`)
	p.file("postgres", "widen", `ALTER TABLE "items" ALTER COLUMN "code" TYPE character varying(15);
DROP INDEX "items_code_part";
CREATE INDEX "items_code_part" ON "items" ("id") WHERE "code" = 'xyz';
`)
	r := p.lint("postgres", lint.Options{})
	want(t, r, "PG106", 1, false, "column code becomes character varying")
	want(t, r, "PG101", 3, false, "")
}
