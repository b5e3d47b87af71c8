package importer_test

import (
	"context"
	"fmt"
	"os"
	"regexp"
	"slices"
	"strings"
	"testing"

	"ariga.io/atlas/sql/migrate"
	"ariga.io/atlas/sql/schema"

	"github.com/schemagen/schemagen/compiler"
	"github.com/schemagen/schemagen/dialects"
	"github.com/schemagen/schemagen/dialects/all"
	"github.com/schemagen/schemagen/internal/dbtest"
	"github.com/schemagen/schemagen/internal/gen"
	"github.com/schemagen/schemagen/internal/importer"
	"github.com/schemagen/schemagen/internal/testproject"
)

// handwritten is a schema a team wrote by hand in one dialect's DDL, and
// facts about it that the round trip must keep.
type handwritten struct {
	dialect string
	file    string
	// names are objects the database named by itself (or the DDL named),
	// as "table kind name", that must exist in both databases.
	names []string
	// rawTypes are columns, as "table.column", whose type has no neutral
	// form: the written model keeps them as the dialect's raw type, with a
	// note above the table.
	rawTypes []string
	// identities are columns, as "table.column", that the database numbers
	// (serial, AUTO_INCREMENT): the model has them as identities.
	identities []string
	// enums are columns, as "table.column", of an enum type (TiDB's
	// ENUM(...), named after table and column): the model has them as enums.
	enums []string
}

// TestHandwrittenPostgres imports a PostgreSQL schema written by hand (not
// by schemagen), generates DDL from the imported model, applies it to a
// fresh database, and finds no difference from the original.
func TestHandwrittenPostgres(t *testing.T) {
	t.Parallel()
	roundTripHandwritten(t, handwritten{
		dialect: "postgres",
		file:    "testdata/handwritten_postgres.sql",
		names: []string{
			"tenants index tenants_pkey",
			"tenants index tenants_slug_key",
			"tenants check tenants_slug_check",
			"tenants check tenants_settings_check",
			"users index users_email_key",
			"users fk users_tenant_id_fkey",
			"users check users_role_check",
			"teams fk teams_tenant_id_parent_id_fkey",
			"teams check teams_check",
			"teams index teams_tenant_id_name_key",
			"team_members fk team_members_tenant_id_team_id_fkey",
			"orders fk orders_tenant_id_customer_id_fkey",
			"orders check orders_check",
			"orders check orders_number_check",
			"tickets check tickets_check",
			"tickets check tickets_check1",
			"orders check orders_status_check",
			"orders index orders_customer_id_idx",
			"orders index orders_tenant_id_number_key",
			"tickets fk tickets_tenant_id_assignee_id_fkey",
			"stock check stock_reserved_ck",
			"exchange_rates check exchange_rates_check",
		},
		rawTypes: []string{
			"tenants.id", "users.id", "teams.id", "customers.balance", "customers.tags",
			"users.last_ip", "products.search", "categories.id", "warehouses.network",
			"shipments.transit", "tickets.id", "sla_policies.business_hours",
			"exchange_rates.ratio",
		},
		identities: []string{"tenants.id", "teams.id", "categories.id", "addresses.id"},
	})
}

// TestHandwrittenTiDB is TestHandwrittenPostgres for a TiDB schema written
// by hand in MySQL's dialect.
func TestHandwrittenTiDB(t *testing.T) {
	t.Parallel()
	roundTripHandwritten(t, handwritten{
		dialect: "tidb",
		file:    "testdata/handwritten_tidb.sql",
		names: []string{
			"branches index code",
			"branches check branches_chk_1",
			"branches check branches_chk_2",
			"members index email",
			"members index members_lower_name_idx",
			"members fk fk_1",
			"members check members_chk_1",
			"members check members_chk_2",
			"member_cards check member_cards_chk_1",
			"publishers index name",
			"book_authors fk fk_1",
			"book_authors fk fk_2",
			"books fk books_publisher_fk",
			"copies index book_id",
			"loans fk fk_1",
			"staff index login",
			"staff check staff_chk_2",
			"suppliers index suppliers_email_uq",
		},
		rawTypes: []string{
			"branches.id", "branches.opened", "members.flags",
			"members.birth_year", "authors.bio", "books.pages", "copies.damaged",
			"copies.price", "shifts.starts", "events.audience", "audit_log.id", "book_authors.position",
		},
		identities: []string{"members.id", "authors.id", "books.id"},
		enums:      []string{"branches.region", "books.format"},
	})
}

func roundTripHandwritten(t *testing.T, h handwritten) {
	ddl, err := os.ReadFile(h.file)
	if err != nil {
		t.Fatal(err)
	}
	d := all.Get(h.dialect)
	a := dbtest.New(t, h.dialect)
	testproject.RunSQL(t, a, ddl)

	r, model, out := importAndCompile(t, a.URL)
	b := dbtest.New(t, h.dialect)
	testproject.RunSQL(t, b, out.Outputs[h.dialect].SQL)
	t.Cleanup(func() {
		if t.Failed() {
			t.Logf("generated %s DDL:\n%s", h.dialect, out.Outputs[h.dialect].SQL)
		}
	})

	oa := compareDatabases(t, d, a, b, nil)
	if n := countTables(oa); n < 20 {
		t.Errorf("the hand-written schema has %d tables, want at least 20", n)
	}
	for _, n := range h.names {
		if !slices.Contains(oa, n) {
			t.Errorf("the original has no %s (the test's expectation of the names the database makes up is wrong)", n)
		}
	}

	for _, tc := range h.identities {
		table, column, _ := strings.Cut(tc, ".")
		if c := findColumn(r.Schema, table, column); c == nil || c.Identity == nil {
			t.Errorf("column %s is not an identity in the imported model", tc)
		}
	}

	for _, tc := range h.enums {
		table, column, _ := strings.Cut(tc, ".")
		if c := findColumn(r.Schema, table, column); c == nil || c.Type.Kind != compiler.TypeEnum || c.Type.Enum.Name != table+"_"+column || len(c.Overrides) > 0 {
			t.Errorf("column %s is not enum.%s_%s in the imported model", tc, table, column)
		}
	}

	// Types without a neutral form are kept as the dialect's raw type, said
	// so in a comment.
	for _, tc := range h.rawTypes {
		table, column, _ := strings.Cut(tc, ".")
		c := findColumn(r.Schema, table, column)
		if c == nil {
			t.Errorf("column %s is not in the imported model", tc)
			continue
		}
		if o := c.Overrides[h.dialect]; o == nil || o.RawType == "" {
			t.Errorf("column %s: no raw %s type override", tc, h.dialect)
			continue
		}
		if !slices.ContainsFunc(r.Notes[table], func(n string) bool { return strings.HasPrefix(n, "column "+column+": ") }) {
			t.Errorf("column %s: no note says why its type is raw", tc)
		}
		if !strings.Contains(string(model), "# column "+column+": ") {
			t.Errorf("column %s: the written model has no comment about it", tc)
		}
	}
}

// compareDatabases compares, object by object, a database built from an
// imported model (b) with the original it was imported from (a): the same
// tables, columns, indexes, foreign keys and checks by name, the same
// definitions in the catalog, and no difference that Atlas finds. leftOut
// names checks of a, as "table check name", that the import said it had to
// leave out of the dialect: they are the only difference allowed. It
// returns a's objects.
func compareDatabases(t *testing.T, d dialects.Dialect, a, b *dbtest.DB, leftOut []string) []string {
	t.Helper()
	drvA, sa := inspectDB(t, d, a)
	drvB, sb := inspectDB(t, d, b)
	var renames []string
	for _, lo := range leftOut {
		if table, names, ok := strings.Cut(lo, " not_null "); ok {
			// A NOT NULL named by hand (PostgreSQL 18), which null = false
			// names as PostgreSQL does: compared by that name.
			from, to, _ := strings.Cut(names, " ")
			renames = append(renames, table+" "+from+" NOT NULL ", table+" "+to+" NOT NULL ")
			continue
		}
		if table, name, ok := strings.Cut(lo, " column "); ok {
			// A column whose nullability or default the summary says
			// differs between the dialects, the other's kept: compared
			// without them.
			ta, okA := sa.Table(table)
			tb, okB := sb.Table(table)
			if !okA || !okB {
				t.Errorf("%s: no table %s in both databases", lo, table)
				continue
			}
			ca, okA := ta.Column(name)
			cb, okB := tb.Column(name)
			if !okA || !okB {
				t.Errorf("%s: no column %s in both databases", lo, name)
				continue
			}
			ca.Type.Null, ca.Default = cb.Type.Null, cb.Default
			continue
		}
		if table, name, ok := strings.Cut(lo, " fk "); ok {
			// A foreign key left out, and the index TiDB made for it.
			if tbl, ok := sa.Table(table); ok {
				n := len(tbl.ForeignKeys)
				tbl.ForeignKeys = slices.DeleteFunc(tbl.ForeignKeys, func(fk *schema.ForeignKey) bool { return fk.Symbol == name })
				if len(tbl.ForeignKeys) == n {
					t.Errorf("%s: the original has no foreign key %s", table, name)
				}
				if d.Name() == "tidb" {
					tbl.Indexes = slices.DeleteFunc(tbl.Indexes, func(x *schema.Index) bool { return x.Name == name })
				}
			}
			continue
		}
		table, name, _ := strings.Cut(lo, " check ")
		if tbl, ok := sa.Table(table); ok {
			n := len(tbl.Attrs)
			tbl.Attrs = slices.DeleteFunc(tbl.Attrs, func(x schema.Attr) bool { c, ok := x.(*schema.Check); return ok && c.Name == name })
			if len(tbl.Attrs) == n {
				t.Errorf("%s: the original has no check %s", table, name)
			}
		}
	}

	// Nothing is dropped, nothing renamed: the same objects by name.
	oa, ob := objects(sa), objects(sb)
	for _, o := range oa {
		if !slices.Contains(ob, o) {
			t.Errorf("%s of the original is missing from the database built from the imported model", o)
		}
	}
	for _, o := range ob {
		if !slices.Contains(oa, o) {
			t.Errorf("%s is in the database built from the imported model, not in the original", o)
		}
	}
	t.Logf("%s: %d objects (tables, columns, indexes, foreign keys, checks) in both databases", d.Name(), len(oa))

	// What Atlas does not read (DEFERRABLE, for one), the catalog shows.
	// A table TiDB numbers without AUTO_ID_CACHE = 1 keeps it so (the
	// import says so: TiDB cannot change it); the rebuilt one gets it.
	cb := catalog(t, b)
	for i := range cb {
		cb[i] = strings.ReplaceAll(cb[i], " /*T![auto_id_cache] AUTO_ID_CACHE=1 */", "")
	}
	cb = withoutChecks(cb, columnsOnly(leftOut))
	ca := catalog(t, a)
	for i := range ca {
		for j := 0; j < len(renames); j += 2 {
			if rest, ok := strings.CutPrefix(ca[i], renames[j]); ok {
				ca[i] = renames[j+1] + rest
			}
		}
	}
	slices.Sort(ca)
	if ca := withoutChecks(ca, notNulls(leftOut)); !slices.Equal(ca, cb) {
		for _, x := range ca {
			if !slices.Contains(cb, x) {
				t.Errorf("the original's catalog has, the rebuilt's not: %s", x)
			}
		}
		for _, x := range cb {
			if !slices.Contains(ca, x) {
				t.Errorf("the rebuilt's catalog has, the original's not: %s", x)
			}
		}
	}

	// Atlas finds no difference.
	changes, err := drvA.SchemaDiff(sa, sb, schema.DiffNormalized())
	if err != nil {
		t.Fatal(err)
	}
	if len(changes) > 0 {
		// A database may rewrite the text it printed once more when it runs
		// it again (PostgreSQL): compare both after one more load through
		// planned text.
		t.Logf("%s: before rebuilding both through planned text:\n%s", d.Name(), describe(t, drvA, changes))
		sa = rebuild(t, d, drvA, sa)
		sb = rebuild(t, d, drvB, sb)
		if changes, err = drvA.SchemaDiff(sa, sb, schema.DiffNormalized()); err != nil {
			t.Fatal(err)
		}
	}
	if len(changes) > 0 {
		t.Errorf("%s: Atlas finds %d differences between the original and the database built from the imported model:\n%s", d.Name(), len(changes), describe(t, drvA, changes))
	}
	return oa
}

func inspectDB(t *testing.T, d dialects.Dialect, db *dbtest.DB) (migrate.Driver, *schema.Schema) {
	t.Helper()
	drv, err := d.OpenAtlas(db.DB)
	if err != nil {
		t.Fatal(err)
	}
	s, err := drv.InspectSchema(context.Background(), "", nil)
	if err != nil {
		t.Fatal(err)
	}
	s.Name = ""
	return drv, s
}

// rebuild plans s from an empty database, runs the plan on a fresh database
// and inspects it, as internal/migration.Rebuild does.
func rebuild(t *testing.T, d dialects.Dialect, drv migrate.Driver, s *schema.Schema) *schema.Schema {
	t.Helper()
	changes, err := drv.SchemaDiff(schema.New(""), s, schema.DiffNormalized())
	if err != nil {
		t.Fatal(err)
	}
	plan, err := drv.PlanChanges(context.Background(), "rebuild", changes, func(o *migrate.PlanOptions) { o.SchemaQualifier = new(string) })
	if err != nil {
		t.Fatal(err)
	}
	db := dbtest.New(t, d.Name())
	for _, c := range plan.Changes {
		if _, err := db.Exec(c.Cmd); err != nil {
			t.Fatalf("rebuilding: %v\n%s", err, c.Cmd)
		}
	}
	_, rebuilt := inspectDB(t, d, db)
	return rebuilt
}

// describe prints changes as the SQL that would apply them, with the changes
// themselves where they cannot be planned.
func describe(t *testing.T, drv migrate.Driver, changes []schema.Change) string {
	var b strings.Builder
	for _, c := range changes {
		fmt.Fprintf(&b, "  %T", c)
		if m, ok := c.(*schema.ModifyTable); ok {
			fmt.Fprintf(&b, " %s:", m.T.Name)
			for _, mc := range m.Changes {
				fmt.Fprintf(&b, "\n    %s", changeText(mc))
			}
		}
		plan, err := drv.PlanChanges(context.Background(), "diff", []schema.Change{c}, func(o *migrate.PlanOptions) { o.SchemaQualifier = new(string) })
		if err == nil {
			for _, pc := range plan.Changes {
				fmt.Fprintf(&b, "\n    SQL: %s", pc.Cmd)
			}
		}
		b.WriteString("\n")
	}
	return b.String()
}

func changeText(c schema.Change) string {
	switch c := c.(type) {
	case *schema.ModifyColumn:
		return fmt.Sprintf("column %s: %+v (%v -> %v; default %v -> %v)", c.From.Name, c.Change, c.From.Type.Raw, c.To.Type.Raw, exprText(c.From.Default), exprText(c.To.Default))
	case *schema.ModifyCheck:
		return fmt.Sprintf("check %s: %q -> %q", c.From.Name, c.From.Expr, c.To.Expr)
	case *schema.AddCheck:
		return fmt.Sprintf("add check %s: %q", c.C.Name, c.C.Expr)
	case *schema.DropCheck:
		return fmt.Sprintf("drop check %s: %q", c.C.Name, c.C.Expr)
	case *schema.ModifyIndex:
		return fmt.Sprintf("index %s: %+v", c.From.Name, c.Change)
	case *schema.AddIndex:
		return fmt.Sprintf("add index %s", c.I.Name)
	case *schema.DropIndex:
		return fmt.Sprintf("drop index %s", c.I.Name)
	case *schema.ModifyForeignKey:
		return fmt.Sprintf("foreign key %s: %+v", c.From.Symbol, c.Change)
	}
	return fmt.Sprintf("%T %+v", c, c)
}

func exprText(x schema.Expr) string {
	switch x := x.(type) {
	case nil:
		return "none"
	case *schema.Literal:
		return x.V
	case *schema.RawExpr:
		return x.X
	}
	return fmt.Sprintf("%T", x)
}

// objects lists a schema's tables, columns, indexes, foreign keys and checks
// as "table kind name".
func objects(s *schema.Schema) []string {
	var out []string
	for _, t := range s.Tables {
		out = append(out, t.Name+" table "+t.Name)
		for _, c := range t.Columns {
			out = append(out, t.Name+" column "+c.Name)
		}
		if t.PrimaryKey != nil {
			name := t.PrimaryKey.Name
			if name == "" {
				name = "PRIMARY"
			}
			out = append(out, t.Name+" index "+name)
		}
		for _, i := range t.Indexes {
			out = append(out, t.Name+" index "+i.Name)
		}
		for _, fk := range t.ForeignKeys {
			out = append(out, t.Name+" fk "+fk.Symbol)
		}
		for _, a := range t.Attrs {
			if c, ok := a.(*schema.Check); ok {
				out = append(out, t.Name+" check "+c.Name)
			}
		}
	}
	slices.Sort(out)
	return out
}

func findColumn(s *compiler.Schema, table, column string) *compiler.Column {
	for _, t := range s.Tables {
		if t.Name == table {
			for _, c := range t.Columns {
				if c.Name == column {
					return c
				}
			}
		}
	}
	return nil
}

// catalog returns the definitions of constraints and indexes as the database
// prints them (PostgreSQL), or TiDB's SHOW CREATE TABLE of each table.
func catalog(t *testing.T, db *dbtest.DB) []string {
	t.Helper()
	var q string
	switch db.Dialect {
	case "postgres":
		q = `SELECT conrelid::regclass::text || ' ' || conname || ' ' || pg_get_constraintdef(oid) FROM pg_constraint WHERE connamespace = 'public'::regnamespace
UNION ALL SELECT tablename || ' ' || indexname || ' ' || indexdef FROM pg_indexes WHERE schemaname = 'public'
UNION ALL SELECT c.relname || ' ' || a.attname || ' ' || format_type(a.atttypid, a.atttypmod) || ' ' || a.attidentity::text || ' ' || a.attgenerated::text || ' ' || coalesce(pg_get_expr(d.adbin, d.adrelid), '')
  FROM pg_attribute a JOIN pg_class c ON c.oid = a.attrelid LEFT JOIN pg_attrdef d ON d.adrelid = a.attrelid AND d.adnum = a.attnum
  WHERE c.relnamespace = 'public'::regnamespace AND c.relkind = 'r' AND a.attnum > 0 AND NOT a.attisdropped`
	default:
		return showCreate(t, db)
	}
	rows, err := db.Query(q)
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
		// CURRENT_TIMESTAMP is now() in PostgreSQL, and Atlas reads both alike;
		// the model writes now().
		out = append(out, strings.ReplaceAll(s, "CURRENT_TIMESTAMP", "now()"))
	}
	if err := rows.Err(); err != nil {
		t.Fatal(err)
	}
	slices.Sort(out)
	return out
}

var autoIncrementOption = regexp.MustCompile(` AUTO_INCREMENT=\d+`)

// defaultAction is a foreign key's action written as NO ACTION or RESTRICT,
// which TiDB prints when a script wrote it: both are TiDB's default (it
// checks keys at once), which the model writes as no action at all, since
// TiDB refuses a CHECK beside a foreign key with any written action.
var defaultAction = regexp.MustCompile(` ON (DELETE|UPDATE) (NO ACTION|RESTRICT)`)

// showCreate returns TiDB's SHOW CREATE TABLE of every table, without the
// counter of AUTO_INCREMENT, which counts rows and not schema.
func showCreate(t *testing.T, db *dbtest.DB) []string {
	t.Helper()
	rows, err := db.Query("SELECT TABLE_NAME FROM INFORMATION_SCHEMA.TABLES WHERE TABLE_SCHEMA = DATABASE() AND TABLE_TYPE = 'BASE TABLE'")
	if err != nil {
		t.Fatal(err)
	}
	var tables []string
	for rows.Next() {
		var n string
		if err := rows.Scan(&n); err != nil {
			t.Fatal(err)
		}
		tables = append(tables, n)
	}
	rows.Close()
	var out []string
	for _, n := range tables {
		var name, create string
		if err := db.QueryRow("SHOW CREATE TABLE `"+n+"`").Scan(&name, &create); err != nil {
			t.Fatal(err)
		}
		// Definitions in a canonical order: TiDB lists indexes in the order
		// they were made, and schemagen writes them by name.
		lines := strings.Split(defaultAction.ReplaceAllString(autoIncrementOption.ReplaceAllString(create, ""), ""), "\n")
		if len(lines) > 2 {
			body := lines[1 : len(lines)-1]
			for i := range body {
				body[i] = strings.TrimSuffix(body[i], ",")
			}
			slices.Sort(body)
		}
		out = append(out, strings.Join(lines, "\n"))
	}
	slices.Sort(out)
	return out
}

func countTables(objects []string) int {
	n := 0
	for _, o := range objects {
		if strings.Contains(o, " table ") {
			n++
		}
	}
	return n
}

// importAndCompile imports the databases at urls, writes the model and
// compiles it, which must succeed; on a failure of the test the summary and
// the model are logged.
func importAndCompile(t *testing.T, urls ...string) (*importer.Result, []byte, *gen.Result) {
	t.Helper()
	r, err := importer.Import(context.Background(), urls, nil)
	if err != nil {
		t.Fatal(err)
	}
	model := compiler.Write(r.Schema, r.Notes)
	t.Cleanup(func() {
		if t.Failed() {
			t.Logf("summary:\n%s\nimported model:\n%s", strings.Join(r.Summary, "\n"), model)
		}
	})
	out := gen.CompileSource("imported.hcl", model)
	if out.Failed() {
		var msgs []string
		for _, d := range out.Diags {
			msgs = append(msgs, d.Error())
		}
		t.Fatalf("the imported model does not compile:\n%s", strings.Join(msgs, "\n"))
	}
	// What import hands the command is this file and this compilation.
	src, compiled := r.Written()
	if string(src) != string(model) || compiled.Failed() {
		t.Fatalf("Written gives another file than Write, or one that does not compile: %v\n%s", compiled.Diags, testproject.FirstDiff(string(model), string(src)))
	}
	for d, o := range out.Outputs {
		if c := compiled.Outputs[d]; c == nil || string(c.SQL) != string(o.SQL) {
			t.Fatalf("Written's %s DDL is not the file's", d)
		}
	}
	if len(compiled.Outputs) != len(out.Outputs) {
		t.Fatalf("Written has %d dialects' DDL, the file's compilation %d", len(compiled.Outputs), len(out.Outputs))
	}
	return r, model, out
}

// withoutChecks removes from a catalog the lines of the checks and
// foreign keys left out (with the index TiDB made for such a key), and of
// the columns compared without their nullability and default.
func withoutChecks(catalog []string, leftOut []string) []string {
	out := slices.Clone(catalog)
	for _, lo := range leftOut {
		if table, name, ok := strings.Cut(lo, " column "); ok {
			for i, c := range out {
				if strings.HasPrefix(c, "CREATE TABLE `"+table+"` (") {
					lines := strings.Split(c, "\n")
					out[i] = strings.Join(slices.DeleteFunc(lines, func(l string) bool { return strings.HasPrefix(strings.TrimSpace(l), "`"+name+"` ") }), "\n")
				}
			}
			out = slices.DeleteFunc(out, func(l string) bool { return strings.HasPrefix(l, table+" "+name+" ") })
			continue
		}
		kind := " check "
		if strings.Contains(lo, " fk ") {
			kind = " fk "
		}
		_, name, _ := strings.Cut(lo, kind)
		for i, c := range out {
			lines := strings.Split(c, "\n")
			lines = slices.DeleteFunc(lines, func(l string) bool {
				return strings.Contains(l, "CONSTRAINT `"+name+"` CHECK") ||
					kind == " fk " && (strings.Contains(l, "CONSTRAINT `"+name+"` FOREIGN KEY") || strings.HasPrefix(strings.TrimSpace(l), "KEY `"+name+"` "))
			})
			out[i] = strings.Join(lines, "\n")
		}
		out = slices.DeleteFunc(out, func(l string) bool {
			return strings.Contains(l, " "+name+" CHECK ") || strings.Contains(l, " "+name+" FOREIGN KEY ")
		})
	}
	return out
}

// notNulls drops the NOT NULL renames of leftOut, which compareDatabases
// has applied.
func notNulls(leftOut []string) []string {
	return slices.DeleteFunc(slices.Clone(leftOut), func(lo string) bool { return strings.Contains(lo, " not_null ") })
}

// columnsOnly keeps the columns of leftOut: both catalogs lose their lines.
func columnsOnly(leftOut []string) []string {
	var out []string
	for _, lo := range leftOut {
		if strings.Contains(lo, " column ") {
			out = append(out, lo)
		}
	}
	return out
}
