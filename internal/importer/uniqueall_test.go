package importer_test

import (
	"os"
	"regexp"
	"slices"
	"strings"
	"testing"

	"github.com/schemagen/schemagen/internal/dbtest"
	"github.com/schemagen/schemagen/internal/testproject"
)

// uniqueFixture is testdata/unique_postgres.sql for a server of version
// (server_version_num): the lines for PostgreSQL 15 kept from 15 on.
func uniqueFixture(t *testing.T, version int) []byte {
	t.Helper()
	ddl, err := os.ReadFile("testdata/unique_postgres.sql")
	if err != nil {
		t.Fatal(err)
	}
	if version >= 150000 {
		return []byte(strings.ReplaceAll(string(ddl), "-- 15: ", ""))
	}
	return ddl
}

// uniqueCatalog is every index and key constraint of the schema as
// PostgreSQL prints them (pg_indexes, pg_constraint), by table. ON ONLY, which
// PostgreSQL prints for a partitioned table's own index, reads as ON: the
// import makes the table a plain one (said in the summary).
func uniqueCatalog(t *testing.T, db *dbtest.DB) []string {
	t.Helper()
	rows, err := db.Query(`SELECT tablename || ' ' || indexname || ' ' || replace(indexdef, ' ON ONLY ', ' ON ') FROM pg_indexes WHERE schemaname = current_schema()
UNION ALL SELECT conrelid::regclass::text || ' ' || conname || ' ' || pg_get_constraintdef(oid) || ' ' || coalesce(array_to_string((SELECT reloptions FROM pg_class WHERE oid = conindid), ','), '')
FROM pg_constraint WHERE connamespace = current_schema()::regnamespace AND contype IN ('p', 'u', 'x')`)
	if err != nil {
		t.Fatal(err)
	}
	defer rows.Close()
	var out []string
	for rows.Next() {
		var s string
		if err := rows.Scan(&s); err != nil {
			t.Fatal(err)
		}
		out = append(out, s)
	}
	if err := rows.Err(); err != nil {
		t.Fatal(err)
	}
	slices.Sort(out)
	return out
}

// indexTable finds the table of pg_get_indexdef's statement.
var indexTable = regexp.MustCompile(` ON (?:ONLY )?public\.(\w+) `)

// TestImportUniqueIndexes imports one PostgreSQL database holding every way
// CREATE INDEX and ALTER TABLE write a unique index or constraint
// (testdata/unique_postgres.sql: expression, partial, INCLUDE, NULLS NOT
// DISTINCT, operator class, COLLATE, DESC and NULLS FIRST/LAST, WITH
// (fillfactor), DEFERRABLE and INITIALLY DEFERRED, USING INDEX, duplicates
// of the primary key and of another unique key, an INVALID index left by a
// failed CREATE INDEX CONCURRENTLY, a partitioned table's, names TiDB
// compares equal, columns TiDB cannot index). Each must be accounted for
// (a construct, a raw block or statement, or a comment and a summary line),
// and the database the regenerated DDL builds must print every index and
// constraint as the original does, but for those the summary names as left
// out. The TiDB side applies and keeps every unique key it can index.
//
// Before: the model did not compile (two names TiDB compares equal); an
// INVALID index came back valid; COLLATE, WITH (fillfactor), DEFERRABLE,
// INITIALLY DEFERRED, NULLS FIRST and NULLS LAST were lost without a
// word; and a partitioned table's partitions were left out without one.
func TestImportUniqueIndexes(t *testing.T) {
	t.Parallel()
	orig := dbtest.Postgres(t)
	var version int
	if err := orig.QueryRow("SELECT current_setting('server_version_num')::int").Scan(&version); err != nil {
		t.Fatal(err)
	}
	testproject.RunSQL(t, orig, uniqueFixture(t, version))
	if _, err := orig.Exec("CREATE UNIQUE INDEX CONCURRENTLY w_x_uq ON w (x)"); err == nil {
		t.Fatal("CREATE UNIQUE INDEX CONCURRENTLY over repeated values succeeded: w_x_uq is not INVALID")
	}
	inventory := pgInventory(t, orig)
	r, model, out := importAndCompile(t, orig.URL)

	// Accounted for: in the model, or named in the summary and a comment;
	// the objects of a table left out by the table's line.
	leftOutTables := map[string]bool{}
	for _, o := range inventory {
		if o.kind == "table" && !accounted(r, string(model), o) {
			t.Errorf("table %s is not accounted for", o.name)
		}
		if o.kind == "table" && r.Schema.Table(o.name) == nil {
			leftOutTables[o.name] = true
		}
	}
	for _, o := range inventory {
		table, _, _ := strings.Cut(o.name, ".")
		switch {
		case o.kind == "index":
			if m := indexTable.FindStringSubmatch(o.def); m != nil {
				table = m[1]
			}
		case strings.HasPrefix(o.kind, "constraint"):
			table, _, _ = strings.Cut(o.def, " ")
		}
		if o.kind != "table" && leftOutTables[table] {
			continue
		}
		if !accounted(r, string(model), o) {
			t.Errorf("%s (%s: %s) is not accounted for: not in the model, nor named in the summary and a comment", o.name, o.kind, o.def)
		}
	}

	// A unique index's INCLUDE and storage parameters are its options.
	for _, w := range []string{"include = [\"c\"]", "fillfactor = 80"} {
		if !strings.Contains(string(model), w) {
			t.Errorf("the model has no %s", w)
		}
	}
	// A partitioned table is one, with its part (not a table of the
	// model, nor said to be left out).
	if !strings.Contains(string(model), "    part \"p1\" {\n      values = [1]\n    }\n") {
		t.Errorf("the model has no part p1 of table p:\n%s", model)
	}
	if slices.ContainsFunc(r.Summary, func(l string) bool {
		return strings.Contains(l, "partition of p") || strings.Contains(l, "made as a plain table")
	}) {
		t.Errorf("the summary says p is not partitioned: %q", r.Summary)
	}
	// What the model has no construct for is said, object by object.
	said := map[string]string{
		"u_def_key":  "index u_def_key: DEFERRABLE INITIALLY DEFERRED has no construct in the model: kept as postgres's statement",
		"u_defi_key": "index u_defi_key: DEFERRABLE has no construct in the model: kept as postgres's statement",
		"u_fill_key": "index u_fill_key: WITH (fillfactor=70) has no construct in the model: kept as postgres's statement",
		"u_inc_key":  `index u_inc_key: INCLUDE (a) has no construct in the model: kept as postgres's statement`,
		"u_coll_uq":  `index u_coll_uq: d COLLATE "C" has no construct in the model: kept as postgres's statement`,
		"u_desc_uq":  `index u_desc_uq: "a" NULLS LAST has no construct in the model: kept as postgres's statement`,
		"u_nf_uq":    `index u_nf_uq: "b" NULLS FIRST has no construct in the model: kept as postgres's statement`,
		"w_x_uq":     "index w_x_uq: left out: it is INVALID",
		"q_a_uq":     `index q_a_uq: named q_a_uq_2 on tidb: The index name "q_a_uq" is already used by the index "Q_a_uq"`,
		"r_doc_uq":   "index r_doc_uq: left out of tidb, which refuses it",
	}
	if version >= 150000 {
		said["u_nnd_key"] = "index u_nnd_key: NULLS NOT DISTINCT has no construct in the model: kept as postgres's statement"
		said["u_nnd_uq"] = "index u_nnd_uq: NULLS NOT DISTINCT has no construct in the model: kept as postgres's statement"
	}
	for _, name := range slices.Sorted(func(yield func(string) bool) {
		for k := range said {
			if !yield(k) {
				return
			}
		}
	}) {
		if !slices.ContainsFunc(r.Summary, func(l string) bool { return strings.Contains(l, said[name]) }) {
			t.Errorf("%s: the summary does not say: %s", name, said[name])
		}
	}

	// Rebuilt from the regenerated DDL: every index and constraint printed
	// as the original prints it, but those left out.
	rebuilt := dbtest.Postgres(t)
	testproject.RunSQL(t, rebuilt, out.Outputs["postgres"].SQL)
	a, b := uniqueCatalog(t, orig), uniqueCatalog(t, rebuilt)
	explained := func(l string) bool {
		return strings.HasPrefix(l, "p1 ") || strings.HasPrefix(l, "w w_x_uq ")
	}
	var lost int
	for _, x := range a {
		if explained(x) {
			lost++
			continue
		}
		if !slices.Contains(b, x) {
			t.Errorf("the original has, the rebuilt database not: %s", x)
		}
	}
	for _, x := range b {
		if !slices.Contains(a, x) {
			t.Errorf("the rebuilt database has, the original not: %s", x)
		}
	}
	if lost != 6 {
		// p1's key, unique constraint and index (three lines each for the
		// two constraints, one for the index), less: w_x_uq.
		t.Logf("%d lines of the original are those left out", lost)
	}
	t.Logf("postgres: %d index and constraint lines compared, %d left out as the summary says", len(a), lost)

	// TiDB: applies, with every unique key but those over a column it
	// cannot index (json) and the INVALID one.
	tidb := dbtest.TiDB(t)
	testproject.RunSQL(t, tidb, out.Outputs["tidb"].SQL)
	rows, err := tidb.Query("SELECT DISTINCT CONCAT(TABLE_NAME, '.', INDEX_NAME) FROM INFORMATION_SCHEMA.STATISTICS WHERE TABLE_SCHEMA = DATABASE() AND NON_UNIQUE = 0 AND INDEX_NAME <> 'PRIMARY' ORDER BY 1")
	if err != nil {
		t.Fatal(err)
	}
	defer rows.Close()
	var keys []string
	for rows.Next() {
		var k string
		if err := rows.Scan(&k); err != nil {
			t.Fatal(err)
		}
		keys = append(keys, strings.ToLower(k))
	}
	want := []string{"p.p_code_key", "p.p_uq", "q.q_a_uq", "q.q_a_uq_2", "r.r_body_uq",
		"u.u_coll_uq", "u.u_def_key", "u.u_defi_key", "u.u_desc_uq", "u.u_descdef_uq", "u.u_dup2_uq", "u.u_dup_uq", "u.u_expr_uq", "u.u_fill_key", "u.u_fill_uq",
		"u.u_inc_key", "u.u_incl_uq", "u.u_nf_uq", "u.u_nnd_key", "u.u_nnd_uq", "u.u_ops_uq", "u.u_part_uq", "u.u_pkdup_uq", "u.u_plain_uq", "v.v_code_key"}
	if version < 150000 {
		want = slices.DeleteFunc(want, func(k string) bool { return strings.Contains(k, "_nnd_") })
	}
	if !slices.Equal(keys, want) {
		t.Errorf("TiDB's unique keys:\n%s\nwant:\n%s", strings.Join(keys, "\n"), strings.Join(want, "\n"))
	}
}
