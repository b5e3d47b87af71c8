package importer_test

import (
	"maps"
	"os"
	"regexp"
	"slices"
	"strings"
	"testing"

	"github.com/schemagen/schemagen/compiler"
	"github.com/schemagen/schemagen/dialects/all"
	"github.com/schemagen/schemagen/internal/dbtest"
	"github.com/schemagen/schemagen/internal/importer"
	"github.com/schemagen/schemagen/internal/testproject"
)

// TestImportLegacyPostgres imports, from its PostgreSQL URL alone, a legacy
// database written by hand (testdata/legacy_postgres.sql: serial ids,
// citext, text[], timestamp without time zone, numeric without precision,
// real, time, interval, inet, json, a generated column, a sequence two
// tables share that starts at 1000, a view, a trigger and its function, two
// extensions, a text primary key).
//   - The model compiles, as written, with no edit.
//   - Every object of the catalog is accounted for: a construct of the
//     model, a raw block, or a comment and a summary line naming it.
//   - Its PostgreSQL DDL applies on a fresh database that has the same
//     catalog, object for object and definition for definition.
//   - Its TiDB DDL applies on TiDB with every key and index, and the
//     columns get the TiDB types that mean what PostgreSQL's do.
func TestImportLegacyPostgres(t *testing.T) {
	t.Parallel()
	ddl, err := os.ReadFile("testdata/legacy_postgres.sql")
	if err != nil {
		t.Fatal(err)
	}
	orig := dbtest.Postgres(t)
	testproject.RunSQL(t, orig, ddl)
	inventory := pgInventory(t, orig)
	if n := len(inventory); n < 80 {
		t.Fatalf("the legacy database has %d objects, want at least 80 (is the fixture read?)", n)
	}

	r, model, out := importAndCompile(t, orig.URL)
	for _, o := range inventory {
		if !accounted(r, string(model), o) {
			t.Errorf("%s (%s) is not accounted for: not in the model, nor a raw block, nor named in the summary and a comment", o.name, o.kind)
		}
	}

	// The regenerated DDL builds the same database.
	rebuilt := dbtest.Postgres(t)
	testproject.RunSQL(t, rebuilt, out.Outputs["postgres"].SQL)
	t.Cleanup(func() {
		if t.Failed() {
			t.Logf("generated postgres DDL:\n%s", out.Outputs["postgres"].SQL)
		}
	})
	compareDatabases(t, all.Get("postgres"), orig, rebuilt, notNullRenames(r.Summary))
	got := pgInventory(t, rebuilt)
	// A NOT NULL named by hand (PostgreSQL 18) is rebuilt under the name
	// the summary says null = false gives it.
	renamed := 0
	for i, o := range inventory {
		if to, ok := notNullRenamed(r.Summary, o); ok {
			inventory[i].name = to
			renamed++
		}
	}
	if want := countKind(inventory, "constraint n") > 0; (renamed == 1) != want {
		t.Errorf("%d NOT NULL constraints renamed by null = false, want %d (tickets_subject_required, on PostgreSQL 18)", renamed, map[bool]int{true: 1}[want])
	}
	for _, o := range inventory {
		if !slices.Contains(got, o) {
			t.Errorf("the original's %s %s is not in the rebuilt database as it was: %s", o.kind, o.name, o.def)
		}
	}
	for _, o := range got {
		if !slices.Contains(inventory, o) {
			t.Errorf("the rebuilt database has %s %s, the original not: %s", o.kind, o.name, o.def)
		}
	}

	// The shared sequence is not a serial: both tables number from it,
	// from 1000 on.
	for _, tc := range []string{"invoices.number", "credit_notes.number"} {
		table, column, _ := strings.Cut(tc, ".")
		if c := findColumn(r.Schema, table, column); c == nil || c.Identity != nil || c.Overrides["postgres"] == nil || !strings.Contains(c.Overrides["postgres"].Default, "invoice_number_seq") {
			t.Errorf("%s is not a plain bigint with the shared sequence's nextval default", tc)
		}
	}
	var inv, cn int64
	for _, q := range []string{
		"INSERT INTO customers (email, name) VALUES ('a@example.com', 'A')",
		"INSERT INTO orders (customer_id) VALUES (1)",
	} {
		if _, err := rebuilt.Exec(q); err != nil {
			t.Fatal(err)
		}
	}
	if err := rebuilt.QueryRow("INSERT INTO invoices (order_id, amount) VALUES (1, 10) RETURNING number").Scan(&inv); err != nil {
		t.Fatal(err)
	}
	if err := rebuilt.QueryRow("INSERT INTO credit_notes (invoice_id, amount) VALUES (1, 1) RETURNING number").Scan(&cn); err != nil {
		t.Fatal(err)
	}
	if inv != 1000 || cn != 1001 {
		t.Errorf("numbers %d and %d from the shared sequence, want 1000 and 1001", inv, cn)
	}

	// The TiDB side applies, with every key and index of the original.
	ti := dbtest.TiDB(t)
	testproject.RunSQL(t, ti, out.Outputs["tidb"].SQL)
	t.Cleanup(func() {
		if t.Failed() {
			t.Logf("generated tidb DDL:\n%s", out.Outputs["tidb"].SQL)
		}
	})
	keys := map[string]bool{}
	rows, err := ti.Query("SELECT DISTINCT TABLE_NAME, INDEX_NAME FROM INFORMATION_SCHEMA.STATISTICS WHERE TABLE_SCHEMA = DATABASE()")
	if err != nil {
		t.Fatal(err)
	}
	for rows.Next() {
		var table, index string
		if err := rows.Scan(&table, &index); err != nil {
			t.Fatal(err)
		}
		if index == "PRIMARY" {
			index = table + "_pkey"
		}
		keys[index] = true
	}
	rows.Close()
	// What TiDB cannot index at all (a bytea key) leaves its table out of
	// TiDB, said in the summary; every other key and index is there.
	leftOut := map[string]bool{}
	for _, tb := range r.Schema.Tables {
		if tb.Overrides.Skipped("tidb") {
			leftOut[tb.Name] = true
			if !slices.ContainsFunc(r.Summary, func(s string) bool {
				return strings.HasPrefix(s, tb.Name+": table "+tb.Name+": left out of tidb, which refuses it")
			}) {
				t.Errorf("table %s is left out of tidb without a summary line saying why", tb.Name)
			}
		}
	}
	if want := map[string]bool{"blobs": true}; !maps.Equal(leftOut, want) {
		t.Errorf("tables left out of tidb: %v, want %v", leftOut, want)
	}
	for _, o := range inventory {
		_, on, _ := strings.Cut(o.def, " ON ")
		table, _, _ := strings.Cut(strings.TrimPrefix(on, "public."), " ")
		if o.kind == "index" && !keys[o.name] && !leftOut[table] {
			t.Errorf("index %s is not on TiDB", o.name)
		}
	}
	var fks int
	if err := ti.QueryRow("SELECT COUNT(*) FROM INFORMATION_SCHEMA.REFERENTIAL_CONSTRAINTS WHERE CONSTRAINT_SCHEMA = DATABASE()").Scan(&fks); err != nil {
		t.Fatal(err)
	}
	if want := countKind(inventory, "constraint f"); fks != want {
		t.Errorf("%d foreign keys on TiDB, %d on PostgreSQL", fks, want)
	}
	// The types that mean the same on TiDB, not TEXT.
	for col, want := range map[string]string{
		"orders.placed_at": "datetime(6)", "orders.weight": "float", "orders.notes": "json", "orders.total": "decimal(65,30)",
		"shifts.starts": "time(6)", "invoices.tax": "decimal(12,2)", "settings.key": "varchar(255)", "customers.email": "varchar(255)",
	} {
		table, column, _ := strings.Cut(col, ".")
		var typ string
		if err := ti.QueryRow("SELECT COLUMN_TYPE FROM INFORMATION_SCHEMA.COLUMNS WHERE TABLE_SCHEMA = DATABASE() AND TABLE_NAME = ? AND COLUMN_NAME = ?", table, column).Scan(&typ); err != nil {
			t.Errorf("%s on TiDB: %v", col, err)
			continue
		}
		if typ != want {
			t.Errorf("%s is %s on TiDB, want %s", col, typ, want)
		}
	}
}

// catalogObject is an object of a database's catalog, with its definition
// as the database prints it.
type catalogObject struct{ kind, name, def string }

// pgInventory reads, from PostgreSQL's catalog, every object of the
// current schema: tables, columns, views, sequences (with the column that
// owns one), indexes, constraints, functions, triggers, extensions and
// types of its own.
func pgInventory(t *testing.T, db *dbtest.DB) []catalogObject {
	t.Helper()
	rows, err := db.Query(`
SELECT CASE c.relkind WHEN 'r' THEN 'table' WHEN 'p' THEN 'table' WHEN 'v' THEN 'view' WHEN 'm' THEN 'view' ELSE 'relation ' || c.relkind::text END, c.relname::text,
  CASE WHEN c.relkind IN ('v', 'm') THEN pg_get_viewdef(c.oid) ELSE '' END
FROM pg_class c WHERE c.relnamespace = current_schema()::regnamespace AND c.relkind NOT IN ('i', 'S', 'I', 't')
UNION ALL
SELECT 'column', c.relname || '.' || a.attname, format_type(a.atttypid, a.atttypmod) || ' ' || a.attnotnull::text || ' ' || coalesce(pg_get_expr(d.adbin, d.adrelid), '') || a.attidentity::text || a.attgenerated::text
FROM pg_attribute a JOIN pg_class c ON c.oid = a.attrelid LEFT JOIN pg_attrdef d ON d.adrelid = a.attrelid AND d.adnum = a.attnum
WHERE c.relnamespace = current_schema()::regnamespace AND c.relkind IN ('r', 'p', 'v') AND a.attnum > 0 AND NOT a.attisdropped
UNION ALL
SELECT 'sequence', s.sequencename, s.data_type::text || ' ' || s.start_value || ' ' || s.min_value || ' ' || s.max_value || ' ' || s.increment_by || ' ' || s.cycle::text || ' ' || s.cache_size ||
  coalesce((SELECT ' owned by ' || t.relname || '.' || a.attname FROM pg_depend d JOIN pg_class t ON t.oid = d.refobjid JOIN pg_attribute a ON a.attrelid = t.oid AND a.attnum = d.refobjsubid
    WHERE d.classid = 'pg_class'::regclass AND d.objid = (quote_ident(s.schemaname) || '.' || quote_ident(s.sequencename))::regclass AND d.deptype IN ('a', 'i')), '')
FROM pg_sequences s WHERE s.schemaname = current_schema()
UNION ALL
SELECT 'index', i.relname, pg_get_indexdef(i.oid) FROM pg_index x JOIN pg_class i ON i.oid = x.indexrelid WHERE i.relnamespace = current_schema()::regnamespace
UNION ALL
SELECT 'constraint ' || k.contype::text, k.conname,
  CASE WHEN k.contypid <> 0 THEN 'domain ' || (SELECT y.typname FROM pg_type y WHERE y.oid = k.contypid) ELSE k.conrelid::regclass::text END || ' ' || pg_get_constraintdef(k.oid)
FROM pg_constraint k WHERE k.connamespace = current_schema()::regnamespace
UNION ALL
SELECT CASE p.prokind WHEN 'a' THEN 'aggregate' ELSE 'function' END, p.proname || '(' || pg_get_function_identity_arguments(p.oid) || ')',
  CASE p.prokind WHEN 'a' THEN (SELECT g.aggtransfn::regproc::text || ' ' || format_type(g.aggtranstype, NULL) FROM pg_aggregate g WHERE g.aggfnoid = p.oid) ELSE pg_get_functiondef(p.oid) END FROM pg_proc p
WHERE p.pronamespace = current_schema()::regnamespace AND NOT EXISTS (SELECT 1 FROM pg_depend e WHERE e.classid = 'pg_proc'::regclass AND e.objid = p.oid AND e.deptype = 'e')
UNION ALL
SELECT 'trigger', c.relname || '.' || g.tgname, pg_get_triggerdef(g.oid) FROM pg_trigger g JOIN pg_class c ON c.oid = g.tgrelid WHERE NOT g.tgisinternal AND c.relnamespace = current_schema()::regnamespace
UNION ALL
SELECT 'extension', e.extname, '' FROM pg_extension e WHERE e.extname <> 'plpgsql'
UNION ALL
SELECT 'type ' || y.typtype::text, y.typname, '' FROM pg_type y LEFT JOIN pg_class c ON c.oid = y.typrelid
WHERE y.typnamespace = current_schema()::regnamespace AND y.typtype IN ('e', 'd', 'c', 'r', 'm') AND (y.typtype <> 'c' OR c.relkind = 'c')
  AND NOT EXISTS (SELECT 1 FROM pg_depend e WHERE e.classid = 'pg_type'::regclass AND e.objid = y.oid AND e.deptype = 'e')`)
	if err != nil {
		t.Fatal(err)
	}
	defer rows.Close()
	var out []catalogObject
	for rows.Next() {
		var o catalogObject
		if err := rows.Scan(&o.kind, &o.name, &o.def); err != nil {
			t.Fatal(err)
		}
		out = append(out, o)
	}
	if err := rows.Err(); err != nil {
		t.Fatal(err)
	}
	slices.SortFunc(out, func(a, b catalogObject) int { return strings.Compare(a.kind+" "+a.name, b.kind+" "+b.name) })
	return out
}

func countKind(objs []catalogObject, kind string) int {
	n := 0
	for _, o := range objs {
		if o.kind == kind {
			n++
		}
	}
	return n
}

// accounted reports whether object o of the catalog read is in the
// imported model: as a construct (a table, column, key, index, check,
// foreign key, extension, or an identity for the sequence a serial owns), a
// raw block of its kind and name, or left out with a line of the summary
// and a comment in the written model that name it.
func accounted(r *importer.Result, model string, o catalogObject) bool {
	s := r.Schema
	table, column, _ := strings.Cut(o.name, ".")
	named := func(name string) bool {
		for _, t := range s.Tables {
			if t.PrimaryKey != nil && name == t.Name+"_pkey" {
				return true
			}
			for _, u := range t.Uniques {
				if u.Name == name {
					return true
				}
			}
			for _, x := range t.Indexes {
				if x.Name == name {
					return true
				}
			}
			for _, c := range t.Checks {
				if c.Name == name {
					return true
				}
			}
			for _, fk := range t.ForeignKeys {
				if fk.Name == name {
					return true
				}
			}
		}
		return false
	}
	raw := func(name string) bool {
		return slices.ContainsFunc(s.Raw, func(x *compiler.Raw) bool { return x.Name == name })
	}
	part := func(name string) bool {
		return slices.ContainsFunc(s.Tables, func(t *compiler.Table) bool {
			return t.Partition != nil && slices.ContainsFunc(t.Partition.Parts, func(p *compiler.PartitionPart) bool { return p.Name == name })
		})
	}
	switch {
	case o.kind == "table" && (s.Table(o.name) != nil || part(o.name)),
		o.kind == "column" && findColumn(s, table, column) != nil,
		o.kind == "index" && named(o.name),
		strings.HasPrefix(o.kind, "constraint") && named(o.name),
		o.kind == "extension" && slices.ContainsFunc(s.Extensions, func(e *compiler.Extension) bool { return e.Name == o.name }),
		o.kind == "view" && raw(o.name),
		o.kind == "column" && raw(table), // a view's column
		(o.kind == "sequence" || o.kind == "function" || o.kind == "aggregate" || o.kind == "trigger") && raw(o.kind+" "+o.name),
		o.kind == "type e" && s.Enum(o.name) != nil,
		o.kind == "type d" && raw("domain "+o.name):
		return true
	case strings.HasPrefix(o.kind, "constraint") && strings.HasPrefix(o.def, "domain "):
		// A domain's constraint is in the domain's raw block.
		domain, _, _ := strings.Cut(strings.TrimPrefix(o.def, "domain "), " ")
		return raw("domain " + domain)
	case o.kind == "constraint n":
		// PostgreSQL 18 keeps NOT NULL as a constraint of its own, named
		// table_column_not_null when the DDL gives no name: the column's
		// null = false says it, and the rebuilt database gets the same name.
		// Another name is left out, said below.
		table, rest, _ := strings.Cut(o.def, " NOT NULL ")
		col := findColumn(s, table, strings.Trim(rest, `"`))
		if col == nil || col.Null {
			return false
		}
		if o.name == table+"_"+col.Name+"_not_null" {
			return true
		}
	case o.kind == "sequence":
		if _, owner, ok := strings.Cut(o.def, " owned by "); ok {
			t, c, _ := strings.Cut(owner, ".")
			if col := findColumn(s, t, c); col != nil && col.Identity != nil {
				return true
			}
		}
		// A serial's sequence that no column owns: the identity of the
		// column whose note (in the summary and the model) names it.
		if t, c, ok := adoptedSequence(r.Summary, o.name); ok {
			col := findColumn(s, t, c)
			return col != nil && col.Identity != nil && strings.Contains(model, "# column "+c+": sequence "+o.name+", which no column owns")
		}
	}
	// Left out: the summary and a comment name it (with its name on the
	// other dialect in parentheses, for a paired object).
	leftOut := regexp.MustCompile(regexp.QuoteMeta(o.name) + `( \([^)]*\))?:? left out`)
	said := leftOut.MatchString
	return slices.ContainsFunc(r.Summary, said) && said(model)
}

var adoptedLine = regexp.MustCompile(`^(\w+): column (\w+): sequence (\w+), which no column owns \((\w+)\), is read as the column's identity, which numbers the same and makes it as \w+ does: owned by the column, of type (\w+)$`)

// adoptedSequence finds the summary's line saying that sequence seq, which
// no column owned, is read as the identity of table.column.
func adoptedSequence(summary []string, seq string) (table, column string, ok bool) {
	for _, line := range summary {
		if m := adoptedLine.FindStringSubmatch(line); m != nil && m[3] == seq {
			return m[1], m[2], true
		}
	}
	return "", "", false
}

var notNullLine = regexp.MustCompile(`^(\w+): column (\w+): NOT NULL constraint (\w+): left out; the column's null = false stands for it, without its name \(it makes (\w+)\)$`)

// notNullRenamed is the name the summary says null = false gives NOT NULL
// constraint o, named otherwise by hand.
func notNullRenamed(summary []string, o catalogObject) (string, bool) {
	if o.kind != "constraint n" {
		return "", false
	}
	for _, line := range summary {
		if m := notNullLine.FindStringSubmatch(line); m != nil && m[3] == o.name && strings.HasPrefix(o.def, m[1]+" ") {
			return m[4], true
		}
	}
	return "", false
}

// notNullRenames lists, for compareDatabases, the NOT NULL constraints
// named by hand that the summary says null = false names otherwise, as
// "table not_null name new-name".
func notNullRenames(summary []string) []string {
	var out []string
	for _, line := range summary {
		if m := notNullLine.FindStringSubmatch(line); m != nil {
			out = append(out, m[1]+" not_null "+m[3]+" "+m[4])
		}
	}
	return out
}
