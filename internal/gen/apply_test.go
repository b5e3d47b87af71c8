package gen_test

import (
	"context"
	"fmt"
	"os"
	"slices"
	"strings"
	"testing"
	"time"

	"ariga.io/atlas/sql/migrate"

	"github.com/schemagen/schemagen/compiler"
	"github.com/schemagen/schemagen/dialects"
	"github.com/schemagen/schemagen/dialects/all"
	"github.com/schemagen/schemagen/dialects/postgres"
	"github.com/schemagen/schemagen/dialects/tidb"
	"github.com/schemagen/schemagen/internal/dbtest"
	"github.com/schemagen/schemagen/internal/gen"
)

func TestMain(m *testing.M) { dbtest.Main(m) }

// apply runs a generated file statement by statement.
func apply(t *testing.T, db *dbtest.DB, sql []byte) {
	t.Helper()
	stmts, err := migrate.Stmts(string(sql))
	if err != nil {
		t.Fatalf("splitting statements: %v", err)
	}
	ctx := context.Background()
	for _, s := range stmts {
		if _, err := db.ExecContext(ctx, s.Text); err != nil {
			t.Fatalf("%s rejected a generated statement: %v\n%s", db.Dialect, err, s.Text)
		}
	}
}

// catalog is what a database reports about its tables.
type catalog struct {
	columns     map[string]bool // "table.column" -> nullable
	constraints map[string]bool // "table.name" of checks, foreign keys, unique constraints
	indexes     map[string]bool // "table.name"
	version     string
}

func inspect(t *testing.T, db *dbtest.DB) catalog {
	t.Helper()
	c := catalog{columns: map[string]bool{}, constraints: map[string]bool{}, indexes: map[string]bool{}}
	var queries []string
	if db.Dialect == postgres.Name {
		queries = []string{
			`SELECT table_name, column_name, is_nullable = 'YES' FROM information_schema.columns WHERE table_schema = 'public'`,
			`SELECT conrelid::regclass::text, conname, true FROM pg_constraint WHERE connamespace = 'public'::regnamespace AND contype IN ('c', 'f', 'u')`,
			`SELECT tablename, indexname, true FROM pg_indexes WHERE schemaname = 'public'`,
		}
	} else {
		queries = []string{
			`SELECT table_name, column_name, is_nullable = 'YES' FROM information_schema.columns WHERE table_schema = DATABASE()`,
			`SELECT table_name, constraint_name, true FROM information_schema.tidb_check_constraints WHERE constraint_schema = DATABASE()
			 UNION ALL SELECT table_name, constraint_name, true FROM information_schema.referential_constraints WHERE constraint_schema = DATABASE()`,
			`SELECT DISTINCT table_name, index_name, true FROM information_schema.statistics WHERE table_schema = DATABASE()`,
		}
	}
	for i, q := range queries {
		rows, err := db.Query(q)
		if err != nil {
			t.Fatalf("inspecting %s: %v", db.Dialect, err)
		}
		for rows.Next() {
			var table, name string
			var flag bool
			if err := rows.Scan(&table, &name, &flag); err != nil {
				t.Fatal(err)
			}
			[]map[string]bool{c.columns, c.constraints, c.indexes}[i][table+"."+name] = flag
		}
		if err := rows.Close(); err != nil {
			t.Fatal(err)
		}
	}
	if err := db.QueryRow("SELECT version()").Scan(&c.version); err != nil {
		t.Fatal(err)
	}
	return c
}

// checkCatalog asserts that every object of the model that exists in the
// dialect is in the database, with the declared nullability.
func checkCatalog(t *testing.T, s *compiler.Schema, d string, c catalog, extraChecks []string) {
	t.Helper()
	for _, tb := range s.Tables {
		if tb.Overrides.Skipped(d) {
			for key := range c.columns {
				if strings.HasPrefix(key, tb.Name+".") {
					t.Errorf("%s: table %s is left out by the model but exists", d, tb.Name)
				}
			}
			continue
		}
		for _, col := range tb.Columns {
			nullable, ok := c.columns[tb.Name+"."+col.Name]
			switch {
			case col.Overrides.Skipped(d):
				if ok {
					t.Errorf("%s: column %s.%s is left out by the model but exists", d, tb.Name, col.Name)
				}
			case !ok:
				t.Errorf("%s: column %s.%s is missing", d, tb.Name, col.Name)
			case nullable != col.Null:
				t.Errorf("%s: column %s.%s nullable = %v, model says %v", d, tb.Name, col.Name, nullable, col.Null)
			}
		}
		want := func(m map[string]bool, what, name string) {
			if !m[tb.Name+"."+name] {
				t.Errorf("%s: %s %s.%s is missing", d, what, tb.Name, name)
			}
		}
		for _, ch := range tb.Checks {
			if !ch.Overrides.Skipped(d) {
				want(c.constraints, "check", ch.Name)
			}
		}
		for _, fk := range tb.ForeignKeys {
			want(c.constraints, "foreign key", fk.Name)
		}
		for _, u := range tb.Uniques {
			// TiDB reports unique constraints as indexes.
			want(c.indexes, "unique constraint", u.Name)
		}
		for _, idx := range tb.Indexes {
			if !idx.Overrides.Skipped(d) {
				want(c.indexes, "index", idx.Name)
			}
		}
	}
	for _, name := range extraChecks {
		if !c.constraints[name] {
			t.Errorf("%s: check %s is missing", d, name)
		}
	}
}

// TestApplyRepositorySchema applies generated/ to fresh real databases and
// finds every declared column, index, foreign key and CHECK there.
func TestApplyRepositorySchema(t *testing.T) {
	r := gen.Compile("../../schema.hcl")
	if r.Failed() {
		t.Fatal(describe(r.Diags))
	}
	for _, d := range all.Names() {
		t.Run(d, func(t *testing.T) {
			t.Parallel()
			db := dbtest.New(t, d)
			sql, err := os.ReadFile("../../generated/" + gen.Path(d))
			if err != nil {
				t.Fatal(err)
			}
			apply(t, db, sql)
			c := inspect(t, db)
			t.Logf("applied generated/%s to %s", gen.Path(d), c.version)
			if d == tidb.Name && !strings.Contains(c.version, "TiDB") {
				t.Fatalf("the tidb test database reports version %q", c.version)
			}
			checkCatalog(t, r.Schema, d, c, nil)
		})
	}
}

// constructsFor returns the constructs model for dialect d on this server:
// PostgreSQL without pgvector gets it without the vector column, and says so.
func constructsFor(t *testing.T, db *dbtest.DB) *gen.Result {
	t.Helper()
	src, err := os.ReadFile("testdata/constructs.hcl")
	if err != nil {
		t.Fatal(err)
	}
	if db.Dialect == postgres.Name {
		var n int
		if err := db.QueryRow(`SELECT count(*) FROM pg_available_extensions WHERE name = 'vector'`).Scan(&n); err != nil {
			t.Fatal(err)
		}
		if n == 0 {
			t.Log("pgvector is not installed on this PostgreSQL: the vector column is left out here and covered by the golden file only")
			s := string(src)
			s = strings.Replace(s, "    type = vector(3)\n    null = true\n", "    type = vector(3)\n    null = true\n    postgres {\n      skip = true\n    }\n", 1)
			s = strings.Replace(s, `  postgres = "CREATE EXTENSION IF NOT EXISTS vector"`, `  tidb = "SELECT 1"`, 1)
			src = []byte(s)
		}
	}
	r := gen.CompileSource("constructs.hcl", src)
	if r.Failed() {
		t.Fatal(describe(r.Diags))
	}
	return r
}

func TestApplyConstructs(t *testing.T) {
	for _, d := range all.Names() {
		t.Run(d, func(t *testing.T) {
			t.Parallel()
			db := dbtest.New(t, d)
			r := constructsFor(t, db)
			apply(t, db, r.Outputs[d].SQL)
			var uuidChecks []string
			for _, dec := range r.Outputs[d].Decisions {
				if dec.Kind == dialects.Added && strings.Contains(dec.Text, "uuid_check") {
					name, _, _ := strings.Cut(strings.TrimPrefix(dec.Text, "CHECK "), " ")
					uuidChecks = append(uuidChecks, dec.Object.Table+"."+name)
				}
			}
			if d == tidb.Name && len(uuidChecks) < 5 {
				t.Fatalf("uuid_check added only %v", uuidChecks)
			}
			checkCatalog(t, r.Schema, d, inspect(t, db), uuidChecks)
		})
	}
}

// row is one INSERT and the CHECK that must reject it ("" to accept it).
type row struct {
	name   string
	table  string
	values map[string]any
	reject string
}

// insert inserts values into table with placeholders, quoting the names as
// the dialect does.
func insert(db *dbtest.DB, table string, values map[string]any) error {
	ident, ph := postgres.Ident, func(i int) string { return fmt.Sprintf("$%d", i+1) }
	if db.Dialect == tidb.Name {
		ident, ph = tidb.Ident, func(int) string { return "?" }
	}
	var cols, marks []string
	var args []any
	keys := make([]string, 0, len(values))
	for k := range values {
		keys = append(keys, k)
	}
	slices.Sort(keys)
	for i, k := range keys {
		cols, marks, args = append(cols, ident(k)), append(marks, ph(i)), append(args, values[k])
	}
	_, err := db.Exec("INSERT INTO "+ident(table)+" ("+strings.Join(cols, ", ")+") VALUES ("+strings.Join(marks, ", ")+")", args...)
	return err
}

func with(base map[string]any, kv ...any) map[string]any {
	m := map[string]any{}
	for k, v := range base {
		m[k] = v
	}
	for i := 0; i < len(kv); i += 2 {
		m[kv[i].(string)] = kv[i+1]
	}
	return m
}

var seq int

func uuid() string {
	seq++
	return fmt.Sprintf("00000000-0000-4000-8000-%012d", seq)
}

// TestChecksAgree inserts the same rows into both dialects and expects each
// translated CHECK to accept and reject the same ones.
func TestChecksAgree(t *testing.T) {
	now := time.Date(2026, 1, 2, 3, 4, 5, 0, time.UTC)
	space := func() map[string]any {
		return map[string]any{
			"id": uuid(), "tenant_id": "tenant", "slug": "s", "name": "n", "revision": 1,
			"lifecycle_state": "active", "created_at": now, "updated_at": now,
		}
	}
	account := func() map[string]any {
		id := uuid()
		return map[string]any{"id": id, "email": id + "@example.com", "code": "AB123456", "profile": `{"a": 1}`, "status": "active"}
	}
	rows := []row{
		{"space", "knowledge_spaces", space(), ""},
		{"icon_ref matches", "knowledge_spaces", with(space(), "icon_ref", "builtin:book-2"), ""},
		{"icon_ref with a leading dash", "knowledge_spaces", with(space(), "icon_ref", "builtin:-book"), "knowledge_spaces_icon_ref_ck"},
		{"icon_ref in upper case", "knowledge_spaces", with(space(), "icon_ref", "builtin:Book"), "knowledge_spaces_icon_ref_ck"},
		{"icon_ref of another scheme", "knowledge_spaces", with(space(), "icon_ref", "custom:book"), "knowledge_spaces_icon_ref_ck"},
		{"icon_ref ending with a dash", "knowledge_spaces", with(space(), "icon_ref", "builtin:book-"), "knowledge_spaces_icon_ref_ck"},
		{"icon_ref of the longest name", "knowledge_spaces", with(space(), "icon_ref", "builtin:"+strings.Repeat("a", 64)), ""},
		{"revision zero", "knowledge_spaces", with(space(), "revision", 0), "knowledge_spaces_lifecycle_ck"},
		{"deleting without a job", "knowledge_spaces", with(space(), "lifecycle_state", "deleting"), "knowledge_spaces_lifecycle_ck"},
		{"deleting with a job", "knowledge_spaces", with(space(), "lifecycle_state", "deleting", "deletion_job_id", uuid(), "deleting_at", now), ""},
		{"account", "accounts", account(), ""},
		{"profile is an array", "accounts", with(account(), "profile", `[1, 2]`), "accounts_json_ck"},
		{"profile is a string", "accounts", with(account(), "profile", `"x"`), "accounts_json_ck"},
		{"profile is a number", "accounts", with(account(), "profile", `12.5`), "accounts_json_ck"},
		{"code breaks the regex", "accounts", with(account(), "code", "ab123456"), "accounts_code_ck"},
		{"code starts with XX", "accounts", with(account(), "code", "XX123456"), "accounts_code_ck"},
		{"code starts with ZZ", "accounts", with(account(), "code", "ZZ123456"), "accounts_code_ck"},
		{"status with a quote", "accounts", with(account(), "status", "it's new"), ""},
		{"status with one backslash", "accounts", with(account(), "status", `back\slash`), ""},
		{"status with two backslashes", "accounts", with(account(), "status", `back\\slash`), "accounts_status_ck"},
		{"status not listed", "accounts", with(account(), "status", "gone"), "accounts_status_ck"},
		{"age out of range", "accounts", with(account(), "age", 151), "accounts_age_ck"},
		{"age in range", "accounts", with(account(), "age", 150), ""},
	}
	for _, d := range all.Names() {
		t.Run(d, func(t *testing.T) {
			t.Parallel()
			db := dbtest.New(t, d)
			apply(t, db, mustRead(t, "../../generated/"+gen.Path(d)))
			apply(t, db, constructsFor(t, db).Outputs[d].SQL)
			for _, r := range rows {
				err := insert(db, r.table, r.values)
				switch {
				case r.reject == "" && err != nil:
					t.Errorf("%s: row %q was rejected: %v", d, r.name, err)
				case r.reject != "" && err == nil:
					t.Errorf("%s: row %q was accepted; want %s to reject it", d, r.name, r.reject)
				case r.reject != "" && !strings.Contains(err.Error(), r.reject):
					t.Errorf("%s: row %q was rejected by something other than %s: %v", d, r.name, r.reject, err)
				}
			}
		})
	}
}

func mustRead(t *testing.T, path string) []byte {
	t.Helper()
	b, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	return b
}
