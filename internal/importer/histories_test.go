package importer_test

import (
	"fmt"
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"testing"

	"github.com/schemagen/schemagen/dialects"
	"github.com/schemagen/schemagen/internal/dbtest"
	"github.com/schemagen/schemagen/internal/importer"
	"github.com/schemagen/schemagen/internal/testproject"
)

// A history is a two-dialect migration history written elsewhere
// (../shared/corpora/histories): its steps in order, each with the file of
// each dialect ("" where the step has none for it).
type history struct {
	name  string
	steps []historyStep
	// tidbUntil is the number of steps TiDB runs (the README says what it
	// refuses after); PostgreSQL runs them all.
	tidbUntil int
	// tidbFix rewrites a MySQL file for TiDB as a team moving to it would.
	tidbFix func(string) string
}

type historyStep struct {
	version string
	file    map[string]string // by dialect: postgres, tidb
}

// autheliaHistory reads Authelia's steps: postgres/V00NN.*.up.sql and
// mysql/V00NN.*.up.sql. From V0007 on, its MySQL files use stored
// procedures, which TiDB refuses.
func autheliaHistory(t *testing.T, dir string) history {
	t.Helper()
	h := history{name: "authelia", tidbUntil: 6, tidbFix: func(s string) string {
		// TiDB lacks utf8mb4_unicode_520_ci (the corpora's README).
		return strings.ReplaceAll(s, "utf8mb4_unicode_520_ci", "utf8mb4_unicode_ci")
	}}
	pgs, err := filepath.Glob(filepath.Join(dir, "histories", "authelia", "postgres", "V*.up.sql"))
	if err != nil || len(pgs) == 0 {
		t.Fatalf("no Authelia history in %s: %v", dir, err)
	}
	slices.Sort(pgs)
	for _, pg := range pgs {
		v, _, _ := strings.Cut(filepath.Base(pg), ".")
		my := filepath.Join(dir, "histories", "authelia", "mysql", filepath.Base(pg))
		if _, err := os.Stat(my); err != nil {
			my = ""
		}
		h.steps = append(h.steps, historyStep{version: v, file: map[string]string{"postgres": pg, "tidb": my}})
	}
	return h
}

// kratosHistory reads Kratos's steps: sql/VERSION_name[.DIALECT][.autocommit].up.sql,
// versions in numeric order; for each dialect the file with that dialect
// wins over the one with none. Its step 297 drops a foreign key by MySQL's
// generated name, which TiDB names otherwise.
func kratosHistory(t *testing.T, dir string) history {
	t.Helper()
	h := history{name: "kratos", tidbUntil: 296}
	files, err := filepath.Glob(filepath.Join(dir, "histories", "kratos", "sql", "*.up.sql"))
	if err != nil || len(files) == 0 {
		t.Fatalf("no Kratos history in %s: %v", dir, err)
	}
	type candidates struct{ own, plain string }
	byVersion := map[string]map[string]*candidates{}
	for _, f := range files {
		base := filepath.Base(f)
		v, rest, _ := strings.Cut(base, "_")
		parts := strings.Split(strings.TrimSuffix(rest, ".up.sql"), ".")
		dialect := ""
		for _, p := range parts[1:] {
			if p != "autocommit" {
				dialect = p
			}
		}
		if byVersion[v] == nil {
			byVersion[v] = map[string]*candidates{"postgres": {}, "tidb": {}}
		}
		for d, own := range map[string]string{"postgres": "postgres", "tidb": "mysql"} {
			c := byVersion[v][d]
			switch dialect {
			case own:
				c.own = f
			case "":
				c.plain = f
			}
		}
	}
	versions := make([]string, 0, len(byVersion))
	for v := range byVersion {
		versions = append(versions, v)
	}
	// Numeric order: by length, then as text (they pass uint64).
	slices.SortFunc(versions, func(a, b string) int {
		if len(a) != len(b) {
			return len(a) - len(b)
		}
		return strings.Compare(a, b)
	})
	for _, v := range versions {
		s := historyStep{version: v, file: map[string]string{}}
		for d, c := range byVersion[v] {
			s.file[d] = c.own
			if s.file[d] == "" {
				s.file[d] = c.plain
			}
		}
		h.steps = append(h.steps, s)
	}
	return h
}

// historyCheckpoints are the steps (1-based) after which a history is
// imported: SCHEMAGEN_IMPORT_HISTORIES=all takes every version of Authelia
// and every 10th of Kratos (with 296 and its last), scripts/import-histories.sh
// sets it; history:N,M (authelia:12) takes those steps of one history
// alone; the default is CI's bounded slice.
func historyCheckpoints(h history) []int {
	env := os.Getenv("SCHEMAGEN_IMPORT_HISTORIES")
	full := env == "all"
	if name, list, ok := strings.Cut(env, ":"); ok {
		// name:N,M...: those steps of that history alone.
		var cs []int
		for _, f := range strings.Split(list, ",") {
			if n, err := strconv.Atoi(f); err == nil && name == h.name {
				cs = append(cs, n)
			}
		}
		return cs
	}
	switch {
	case h.name == "authelia" && full:
		var all []int
		for i := range h.steps {
			all = append(all, i+1)
		}
		return all
	case h.name == "authelia":
		// V0012 (PostgreSQL alone): an index longer than a B-tree entry may be.
		return []int{1, 2, 3, 4, 5, 6, 12}
	case full:
		var cs []int
		for i := 10; i <= len(h.steps); i += 10 {
			cs = append(cs, i)
		}
		return append(cs, 296, len(h.steps))
	default:
		// 320 (PostgreSQL alone): a gin index over a uuid (btree_gin).
		return []int{1, 10, 50, 290, 320}
	}
}

// TestImportHistories applies the public two-dialect histories (Authelia,
// Kratos) step by step to a PostgreSQL and a TiDB database, and at each
// checkpoint imports both (PostgreSQL alone past what TiDB runs), generates,
// builds fresh databases from the generated DDL and compares them with the
// originals, object by object: 0 differences.
func TestImportHistories(t *testing.T) {
	dir := corpora(t)
	for _, h := range []history{autheliaHistory(t, dir), kratosHistory(t, dir)} {
		t.Run(h.name, func(t *testing.T) {
			t.Parallel()
			runHistory(t, h)
		})
	}
}

func runHistory(t *testing.T, h history) {
	checkpoints := historyCheckpoints(h)
	if len(checkpoints) == 0 {
		t.Skip("no checkpoint of this history is asked for")
	}
	last := slices.Max(checkpoints)
	pg, ti := dbtest.Postgres(t), dbtest.TiDB(t)
	for i, s := range h.steps[:min(last, len(h.steps))] {
		n := i + 1
		if f := s.file["postgres"]; f != "" {
			loadPostgres(t, pg, f)
		}
		if f := s.file["tidb"]; f != "" && n <= h.tidbUntil && slices.Min(checkpoints) <= h.tidbUntil {
			file := f
			if h.tidbFix != nil {
				src, err := os.ReadFile(f)
				if err != nil {
					t.Fatal(err)
				}
				file = filepath.Join(t.TempDir(), filepath.Base(f))
				if err := os.WriteFile(file, []byte(h.tidbFix(string(src))), 0o644); err != nil {
					t.Fatal(err)
				}
			}
			if skipped := loadMySQL(t, ti, file, ""); len(skipped) > 0 {
				t.Fatalf("%s step %d (%s): TiDB left out %v", h.name, n, s.version, skipped)
			}
		}
		if !slices.Contains(checkpoints, n) {
			continue
		}
		t.Run(fmt.Sprintf("%03d_%s", n, s.version), func(t *testing.T) {
			urls := []string{pg.URL}
			if n <= h.tidbUntil {
				urls = append(urls, ti.URL)
			}
			r := importedEqualsOriginal(t, map[string]*dbtest.DB{"postgres": pg, "tidb": ti}, urls)
			for _, want := range historyLines[fmt.Sprintf("%s/%d", h.name, n)] {
				hasLine(t, r, want)
			}
		})
	}
}

// historyLines are summary lines a checkpoint's import must have: Kratos
// at its 290th version has three columns NOT NULL on PostgreSQL and
// nullable on TiDB, which stay so.
var historyLines = map[string][]string{
	"kratos/290": {
		"column identity_credential_identifiers.identifier is NOT NULL on postgres and nullable on tidb; each keeps its own",
		"column identity_recovery_codes.selfservice_recovery_flow_id is NOT NULL on postgres and nullable on tidb; each keeps its own",
		"column identity_recovery_tokens.token is NOT NULL on postgres and nullable on tidb; each keeps its own",
	},
}

// importedEqualsOriginal imports the databases at urls, generates, builds
// a fresh database of each dialect read from the generated DDL (which must
// apply) and compares it with the original, object by object.
func importedEqualsOriginal(t *testing.T, orig map[string]*dbtest.DB, urls []string) *importer.Result {
	t.Helper()
	r, _, out := importAndCompile(t, urls...)
	for _, u := range urls {
		d := "postgres"
		if strings.HasPrefix(u, "mysql") {
			d = "tidb"
		}
		rebuilt := dbtest.New(t, d)
		testproject.RunSQL(t, rebuilt, out.Outputs[d].SQL)
		a, b := objectLines(t, orig[d]), objectLines(t, rebuilt)
		diffs := lineDiff(a, b)
		for i, x := range diffs {
			if i == 20 {
				t.Errorf("%s: and %d differences more", d, len(diffs)-20)
				break
			}
			t.Errorf("%s: %s", d, x)
		}
		if len(diffs) == 0 {
			t.Logf("%s: %d objects, 0 differences", d, len(a))
		}
	}
	return r
}

// lineDiff lists the lines of a (the original) that b lacks, and of b
// that a lacks.
func lineDiff(a, b []string) []string {
	var out []string
	for _, x := range a {
		if !slices.Contains(b, x) {
			out = append(out, "the original has, the rebuilt not: "+x)
		}
	}
	for _, x := range b {
		if !slices.Contains(a, x) {
			out = append(out, "the rebuilt has, the original not: "+x)
		}
	}
	return out
}

var (
	pgNow = regexp.MustCompile(`\bCURRENT_TIMESTAMP\b`)
)

// objectLines describes every object of a database, one line each, in the
// terms the comparison counts equal: PostgreSQL's tables, columns (type,
// NOT NULL, default with CURRENT_TIMESTAMP as now() and a sequence the
// column owns as the one it owns, identity, generation), constraints and
// indexes as its catalog prints them; TiDB's SHOW CREATE TABLE, one line
// per definition, with RESTRICT as NO ACTION (showCreate), and without
// AUTO_ID_CACHE = 1.
func objectLines(t *testing.T, db *dbtest.DB) []string {
	t.Helper()
	if db.Dialect != "postgres" {
		var out []string
		for _, create := range showCreate(t, db) {
			lines := strings.Split(create, "\n")
			table := lines[0]
			if strings.HasPrefix(table, "CREATE TABLE `"+dialects.RevisionTable+"`") {
				// migrate apply's own table, which import leaves out.
				continue
			}
			for _, l := range lines[1:] {
				// A table TiDB numbers without AUTO_ID_CACHE = 1 keeps it so
				// (the import says so: TiDB cannot change it); the rebuilt
				// one gets it, as compareDatabases counts.
				l = strings.ReplaceAll(l, " /*T![auto_id_cache] AUTO_ID_CACHE=1 */", "")
				out = append(out, table+" "+strings.TrimSpace(l))
			}
		}
		return out
	}
	rows, err := db.Query(`SELECT c.relname, 'column', a.attname, format_type(a.atttypid, a.atttypmod) || CASE WHEN a.attnotnull THEN ' NOT NULL' ELSE '' END
    || CASE a.attidentity WHEN 'a' THEN ' GENERATED ALWAYS AS IDENTITY' WHEN 'd' THEN ' GENERATED BY DEFAULT AS IDENTITY' ELSE '' END
    || CASE WHEN a.attgenerated = 's' THEN ' GENERATED ALWAYS AS (' || pg_get_expr(d.adbin, d.adrelid) || ') STORED'
            WHEN d.adbin IS NULL THEN ''
            WHEN pg_get_serial_sequence(format('%I', c.relname), a.attname) IS NOT NULL AND a.attidentity = '' THEN ' DEFAULT nextval(its own sequence)'
            ELSE ' DEFAULT ' || pg_get_expr(d.adbin, d.adrelid) END
  FROM pg_attribute a JOIN pg_class c ON c.oid = a.attrelid LEFT JOIN pg_attrdef d ON d.adrelid = a.attrelid AND d.adnum = a.attnum
  WHERE c.relnamespace = current_schema()::regnamespace AND c.relkind IN ('r', 'p') AND a.attnum > 0 AND NOT a.attisdropped
UNION ALL SELECT conrelid::regclass::text, 'constraint', conname, pg_get_constraintdef(oid) FROM pg_constraint
  WHERE connamespace = current_schema()::regnamespace AND contype <> 'n' AND conrelid <> 0
UNION ALL SELECT tablename, 'index', indexname, indexdef FROM pg_indexes WHERE schemaname = current_schema()
UNION ALL SELECT relname, 'relation', relname, relkind::text FROM pg_class WHERE relnamespace = current_schema()::regnamespace AND relkind IN ('r', 'p', 'v', 'm')
  AND NOT EXISTS (SELECT 1 FROM pg_depend e WHERE e.objid = pg_class.oid AND e.deptype = 'e')`)
	if err != nil {
		t.Fatal(err)
	}
	defer rows.Close()
	var out []string
	for rows.Next() {
		var table, kind, name, def string
		if err := rows.Scan(&table, &kind, &name, &def); err != nil {
			t.Fatal(err)
		}
		out = append(out, table+" "+kind+" "+name+" "+pgNow.ReplaceAllString(def, "now()"))
	}
	if err := rows.Err(); err != nil {
		t.Fatal(err)
	}
	slices.Sort(out)
	return out
}
