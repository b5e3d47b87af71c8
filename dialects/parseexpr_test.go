package dialects_test

import (
	"context"
	"database/sql"
	"fmt"
	"math/big"
	"os"
	"path/filepath"
	"slices"
	"sort"
	"strings"
	"testing"
	"time"

	"ariga.io/atlas/sql/migrate"
	atlaspg "ariga.io/atlas/sql/postgres"
	"ariga.io/atlas/sql/schema"

	"github.com/schemagen/schemagen/compiler"
	"github.com/schemagen/schemagen/compiler/expr"
	"github.com/schemagen/schemagen/compiler/expr/render"
	"github.com/schemagen/schemagen/compiler/load"
	"github.com/schemagen/schemagen/dialects"
	"github.com/schemagen/schemagen/dialects/all"
	"github.com/schemagen/schemagen/dialects/postgres"
	"github.com/schemagen/schemagen/dialects/tidb"
	"github.com/schemagen/schemagen/internal/dbtest"
)

// The columns of the tables every corpus expression is about: one of each
// neutral type, and names that need quoting.
const corpusColumns = `
  column "id" {
    type = uuid
  }
  column "email" {
    type = varchar(320)
  }
  column "code" {
    type = char(8)
  }
  column "age" {
    type = smallint
    null = true
  }
  column "n" {
    type = int
  }
  column "visits" {
    type = bigint
  }
  column "score" {
    type = double
    null = true
  }
  column "balance" {
    type = decimal(12,2)
  }
  column "born_on" {
    type = date
    null = true
  }
  column "created_at" {
    type = timestamp
  }
  column "profile" {
    type = json
  }
  column "status" {
    type = varchar(16)
  }
  column "name" {
    type = text
    null = true
  }
  column "disabled" {
    type = bool
  }
  column "previous_role" {
    type = varchar(16)
    null = true
  }
  column "role" {
    type = varchar(16)
  }
  column "order" {
    type = int
  }
  column "Mixed Case" {
    type = varchar(10)
  }
  primary_key {
    columns = ["id"]
  }
`

// entry is a portable expression of the corpus, used as a CHECK, an index
// predicate or an index expression part.
type entry struct {
	kind string // "check", "where" or "part"
	expr string
	// only names the one dialect the entry applies to, if not both (TiDB
	// has no index predicates and indexes few functions).
	only string
	// want is, per dialect, the portable expression the database's text
	// reads back as, when it differs from expr by more than normalize
	// removes.
	want map[string]string
	// extraParens: the expression has parentheses its tree does not need.
	// TiDB keeps them in the text it reports, and ParseExpr, which returns
	// no Paren nodes, cannot give them back: the text loaded again differs
	// from the one reported by those parentheses only.
	extraParens bool
}

func check(e string) entry { return entry{kind: "check", expr: e} }

var corpus = []entry{
	// The checks of internal/gen/testdata/constructs.hcl.
	check("json_type(profile) = 'object'"),
	check("json_type(profile) <> 'number' AND json_type(profile) IN ('object', 'array')"),
	check("code ~ '^[A-Z]{2}[0-9]{6}$' AND code !~ '^XX' AND code NOT LIKE 'ZZ%'"),
	check(`status IN ('it''s new', 'active', 'back\slash') AND char_length(status) BETWEEN 1 AND 16`),
	check("visits * 2 + 1 > -1 AND visits % 2 IN (0, 1) AND abs(balance) >= 0"),
	check("age IS NULL OR NOT (age < 0 OR age > 150)"),
	check("char_length(id) = 36 AND lower(code || 'x') <> 'x'"),
	check("score IS NULL OR score >= 0"),
	check("previous_role IS DISTINCT FROM role OR previous_role IS NOT DISTINCT FROM NULL"),
	// The kinds of checks of the repository's schema.hcl.
	check("char_length(email) <= 255"),
	check("name IS NULL OR name ~ '^builtin:[a-z0-9]([a-z0-9-]{0,62}[a-z0-9])?$'"),
	check("status IN ('embedding', 'retrieval')"),
	check("status IN ('candidate', 'active', 'superseded', 'failed')"),
	check("n >= 1 AND (age IS NULL OR age >= 1)"),
	check("(status = 'embedding' AND age IS NOT NULL AND n >= 1)\n OR (status = 'retrieval' AND age IS NULL AND score IS NULL)"),
	check("visits >= 0 AND n >= 0"),
	check("(status IN ('queued', 'running') AND name IS NULL) OR (status IN ('succeeded', 'failed') AND name IS NOT NULL)"),
	// Every construct of docs/language.md.
	check(`"order" > 0 AND "Mixed Case" <> ''`),
	check("age BETWEEN 1 AND 150"),
	check("age NOT BETWEEN -5 AND -1"),
	check("n IN (1, 2, 3) AND n NOT IN (-1, -2)"),
	check("visits IN (7)"),
	check("status NOT IN ('x')"),
	check("balance IN (1.5, 2, -3.25) AND score NOT IN (0.5, -1)"),
	check("role IN (status, 'x')"),
	check("name LIKE 'a_b%' AND email NOT LIKE '%''%' AND email LIKE '%@%'"),
	check("NOT (name LIKE 'a%') AND NOT (code ~ 'x') AND NOT (status IN ('a', 'b'))"),
	check("name ~ '^a.*b$' AND name !~ 'x|y' AND code ~ '^[%_]+$'"),
	check(`code ~ '^\d+$' OR code ~ '^[\\]$' OR code ~ '\.'`),
	check("name REGEXP '^z' AND name NOT REGEXP 'q'"),
	check("id ~ '^[0-9a-f-]{36}$' AND id <> '00000000-0000-0000-0000-000000000000'"),
	check("id IN ('00000000-0000-0000-0000-000000000001', '00000000-0000-0000-0000-000000000002') OR n > 0"),
	check("id || '' <> '' AND name || status <> 'x' AND email || code || 'y' <> ''"),
	check("lower(email) = email AND upper(code) <> 'X' AND lower(name) IN ('a', 'b')"),
	check("char_length(lower(upper(name))) < 5 AND char_length(id) = 36"),
	check("abs(n) < 100 AND abs(score) <= 1.5 AND abs(balance - 1) > 0"),
	check("-n < 5 AND -(n + 1) < 2 AND n - -1 > 0 AND -visits * 2 < 9"),
	check("n % 3 = 1 OR n * -2 > 4 OR (n + 1) * (n - 1) = 0"),
	check("balance > -3.5 AND balance < 1000000.25 AND score > -2.5 AND score < 0.000001"),
	check("n >= -2147483648 AND visits < 9223372036854775807 AND balance < 9999999999.99"),
	check("previous_role IS NOT DISTINCT FROM role OR previous_role IS DISTINCT FROM 'admin'"),
	check("previous_role IS DISTINCT FROM NULL OR role IS NOT DISTINCT FROM status"),
	check("disabled = TRUE OR disabled = FALSE OR NOT disabled OR disabled IS NOT NULL"),
	check("disabled OR n > 0"),
	check("NOT (NOT (n > 0) AND NOT (n < -10))"),
	check("(n > 0 OR n < -10) AND (age IS NULL OR (age > 1 AND NOT age > 100))"),
	check("n > 0 AND (n < 10 AND (n <> 5 OR (n <> 6 AND n <> 7)))"),
	check("status = 'a' OR status = 'b' OR status = 'c' OR status = 'd'"),
	check("json_type(profile) IN ('number')"),
	check("json_type(profile) = 'number'"),
	check("json_type(profile) NOT IN ('null', 'boolean', 'string')"),
	check("json_type(profile) IN ('number', 'object') OR json_type(profile) <> 'array'"),
	check("json_type(profile) IN ('object', 'array') OR json_type(profile) = 'null'"),
	check("json_type(profile) NOT IN ('number')"),
	check(`name <> 'a''b' AND name <> 'c\d' AND name <> '\' AND name <> 'e''''f' AND name <> '\\'''`),
	check("name <> 'line\nbreak' AND name <> 'tab\there' AND name <> 'ünïcödé ✓' AND name <> '\"q\"'"),
	check("name <> '%' AND name <> '_' AND name <> '\\%' AND name <> '\\n'"),
	{kind: "check", expr: "born_on > '2020-01-01' AND created_at > '2020-01-01 00:00:00'",
		want: map[string]string{postgres.Name: "born_on > '2020-01-01' AND created_at > '2020-01-01 00:00:00+00'"}},
	check("born_on IS NULL OR born_on >= '1900-01-01'"),
	check("\"order\" BETWEEN n AND visits AND char_length(name) NOT BETWEEN 2 AND char_length(email)"),
	check("NOT (previous_role IS DISTINCT FROM role) AND NOT (previous_role IS NOT DISTINCT FROM 'x') AND NOT (code !~ 'y') AND NOT (NOT (n > 1))"),
	check("char_length(code) = 8 AND upper(code) = code AND code <> 'AB'"),
	check("(n BETWEEN 1 AND 2 OR n NOT BETWEEN 5 AND 9) AND (n NOT BETWEEN 3 AND 4 OR visits BETWEEN 1 AND 2)"),
	{kind: "check", expr: "(n > 0) AND (NOT (disabled)) AND lower((name)) <> ('x') AND ((n)) + (1) > 0", extraParens: true},
	check("coalesce(name, '') <> 'x' AND coalesce(n, visits, 0) >= 0 AND coalesce(age, 0) >= 0 AND coalesce(previous_role, role) <> ''"),
	check("coalesce(id, '00000000-0000-0000-0000-000000000000') <> '00000000-0000-0000-0000-000000000001'"),

	// Index predicates (PostgreSQL only).
	{kind: "where", expr: "born_on IS NULL", only: postgres.Name},
	{kind: "where", expr: "name IS NOT NULL AND name <> ''", only: postgres.Name},
	{kind: "where", expr: "status IN ('a', 'b')", only: postgres.Name},
	{kind: "where", expr: "n > 0 AND (age IS NULL OR age > 1)", only: postgres.Name},
	{kind: "where", expr: "NOT disabled", only: postgres.Name},
	{kind: "where", expr: "email LIKE '%@example.com'", only: postgres.Name},
	{kind: "where", expr: "id <> '00000000-0000-0000-0000-000000000000'", only: postgres.Name},
	{kind: "where", expr: "json_type(profile) = 'object'", only: postgres.Name},
	{kind: "where", expr: "code ~ '^[A-Z]' AND previous_role IS DISTINCT FROM role", only: postgres.Name},
	{kind: "where", expr: "n BETWEEN -1 AND 1 AND visits NOT IN (3, 4)", only: postgres.Name},
	{kind: "where", expr: "coalesce(score, 0) > 1", only: postgres.Name},

	// Index expression parts (TiDB indexes only some functions).
	{kind: "part", expr: "lower(email)"},
	{kind: "part", expr: "upper(code)"},
	{kind: "part", expr: "n + 1"},
	{kind: "part", expr: "(n + -1) * 2"},
	{kind: "part", expr: `lower(email) = 'it''s\'`},
	{kind: "part", expr: "json_type(profile) = 'object'"},
	{kind: "part", expr: "json_type(profile) IN ('number', 'null')"},
	{kind: "part", expr: "lower(code || 'x')", only: postgres.Name},
	{kind: "part", expr: "char_length(name)", only: postgres.Name},
	{kind: "part", expr: "abs(balance)", only: postgres.Name},
	{kind: "part", expr: "id || ''", only: postgres.Name},
	{kind: "part", expr: "coalesce(previous_role, '')", only: postgres.Name},
	{kind: "part", expr: "coalesce(id, '00000000-0000-0000-0000-000000000000')", only: postgres.Name},
}

// objectName is the name of the CHECK or index of corpus entry i.
func objectName(i int) string {
	if corpus[i].kind == "check" {
		return fmt.Sprintf("t_ck_%03d", i)
	}
	return fmt.Sprintf("t_ix_%03d", i)
}

// corpusKey is the key of corpus entry i in the maps of modelExprs and reported.
func corpusKey(i int) string {
	switch corpus[i].kind {
	case "check":
		return "t." + objectName(i)
	case "where":
		return "t." + objectName(i) + " WHERE"
	}
	return "u." + objectName(i) + " part 1"
}

// hclString quotes s as an HCL string.
func hclString(s string) string {
	r := strings.NewReplacer(`\`, `\\`, `"`, `\"`, "\n", `\n`, "\t", `\t`, "${", "$${", "%{", "%%{")
	return `"` + r.Replace(s) + `"`
}

// corpusModel returns the model of the corpus entries that apply to
// dialect d: table t holds the CHECKs and partial indexes, table u the
// expression indexes (which Atlas cannot inspect on TiDB).
func corpusModel(t *testing.T, d string) (*compiler.Schema, []int) {
	t.Helper()
	var tb, ub strings.Builder
	var used []int
	for i, e := range corpus {
		if e.only != "" && e.only != d {
			continue
		}
		used = append(used, i)
		switch e.kind {
		case "check":
			fmt.Fprintf(&tb, "  check %q {\n    expr = %s\n  }\n", objectName(i), hclString(e.expr))
		case "where":
			fmt.Fprintf(&tb, "  index %q {\n    columns = [\"n\"]\n    where = %s\n  }\n", objectName(i), hclString(e.expr))
		case "part":
			fmt.Fprintf(&ub, "  index %q {\n    on {\n      expr = %s\n    }\n  }\n", objectName(i), hclString(e.expr))
		}
	}
	src := "table \"t\" {\n" + corpusColumns + tb.String() + "}\n\ntable \"u\" {\n" + corpusColumns + ub.String() + "}\n"
	s, diags := load.Source(load.Options{Dialects: all.Names()}, "corpus.hcl", []byte(src))
	if diags.HasErrors() {
		t.Fatalf("corpus model: %v\n%s", diags, src)
	}
	return s, used
}

// modelExpr is a portable expression of a model that dialect d renders.
type modelExpr struct {
	node  expr.Node
	table *compiler.Table
	set   func(expr.Node)
}

// modelExprs returns the portable expressions of s that d renders, by
// "table.check", "table.index WHERE" and "table.index part N".
func modelExprs(s *compiler.Schema, d string) map[string]modelExpr {
	m := map[string]modelExpr{}
	for _, tb := range s.Tables {
		if tb.Overrides.Skipped(d) {
			continue
		}
		for _, c := range tb.Checks {
			if o := c.Overrides.For(d); o != nil && (o.Skip || o.Expr != "") {
				continue
			}
			m[tb.Name+"."+c.Name] = modelExpr{c.Expr, tb, func(n expr.Node) { c.Expr = n }}
		}
		for _, idx := range tb.Indexes {
			if o := idx.Overrides.For(d); o != nil && (o.Skip || o.SQL != "") {
				continue
			}
			if idx.Where != nil && d == postgres.Name {
				m[tb.Name+"."+idx.Name+" WHERE"] = modelExpr{idx.Where, tb, func(n expr.Node) { idx.Where = n }}
			}
			for i, p := range idx.Parts {
				if p.Expr != nil {
					m[fmt.Sprintf("%s.%s part %d", tb.Name, idx.Name, i+1)] = modelExpr{p.Expr, tb, func(n expr.Node) { p.Expr = n }}
				}
			}
		}
	}
	return m
}

// loadBack generates s for d and runs it in a fresh database, returning what the
// database reports for each expression, keyed as modelExprs keys them.
func loadBack(t *testing.T, d dialects.Dialect, s *compiler.Schema) map[string]string {
	t.Helper()
	out, diags := d.Generate(s)
	if diags.HasErrors() {
		t.Fatalf("generate: %v", diags)
	}
	db := dbtest.New(t, d.Name())
	stmts, err := migrate.Stmts(string(out.SQL))
	if err != nil {
		t.Fatal(err)
	}
	ctx := context.Background()
	for _, st := range stmts {
		if _, err := db.ExecContext(ctx, st.Text); err != nil {
			t.Fatalf("%s rejected a statement: %v\n%s", d.Name(), err, st.Text)
		}
	}
	return reported(t, d, db)
}

// reported reads the expressions of a database as Atlas's inspection reports
// them, which is what the importer reads, except for TiDB's expression
// indexes: Atlas fails on the tables that have one (TiDB reports MySQL
// 8.0.11, before expression indexes), so they are read from
// information_schema as TiDB reports them.
func reported(t *testing.T, d dialects.Dialect, db *dbtest.DB) map[string]string {
	t.Helper()
	ctx := context.Background()
	rep := map[string]string{}
	var opts *schema.InspectOptions
	if d.Name() == tidb.Name {
		rows, err := db.QueryContext(ctx, "SELECT TABLE_NAME, INDEX_NAME, SEQ_IN_INDEX, EXPRESSION, COUNT(EXPRESSION) OVER (PARTITION BY TABLE_NAME) FROM INFORMATION_SCHEMA.STATISTICS WHERE TABLE_SCHEMA = DATABASE()")
		if err != nil {
			t.Fatal(err)
		}
		defer rows.Close()
		opts = &schema.InspectOptions{}
		seen := map[string]bool{}
		for rows.Next() {
			var table, index string
			var seq, withExprs int
			var x sql.NullString
			if err := rows.Scan(&table, &index, &seq, &x, &withExprs); err != nil {
				t.Fatal(err)
			}
			if x.Valid {
				rep[fmt.Sprintf("%s.%s part %d", table, index, seq)] = x.String
			}
			if withExprs == 0 && !seen[table] {
				opts.Tables = append(opts.Tables, table)
			}
			seen[table] = true
		}
		if err := rows.Err(); err != nil {
			t.Fatal(err)
		}
		// The CHECKs of the other tables, as the wrapper reads them.
		rows, err = db.QueryContext(ctx, "SELECT TABLE_NAME, CONSTRAINT_NAME, CHECK_CLAUSE FROM INFORMATION_SCHEMA.TIDB_CHECK_CONSTRAINTS WHERE CONSTRAINT_SCHEMA = DATABASE()")
		if err != nil {
			t.Fatal(err)
		}
		defer rows.Close()
		for rows.Next() {
			var table, name, clause string
			if err := rows.Scan(&table, &name, &clause); err != nil {
				t.Fatal(err)
			}
			if !slices.Contains(opts.Tables, table) {
				rep[table+"."+name] = clause
			}
		}
		if err := rows.Err(); err != nil {
			t.Fatal(err)
		}
		if len(opts.Tables) == 0 {
			return rep
		}
	}
	drv, err := d.OpenAtlas(db.DB)
	if err != nil {
		t.Fatal(err)
	}
	sch, err := drv.InspectSchema(ctx, "", opts)
	if err != nil {
		t.Fatalf("inspect: %v", err)
	}
	for _, tbl := range sch.Tables {
		for _, a := range tbl.Attrs {
			if c, ok := a.(*schema.Check); ok {
				rep[tbl.Name+"."+c.Name] = c.Expr
			}
		}
		for _, idx := range tbl.Indexes {
			for _, a := range idx.Attrs {
				if p, ok := a.(*atlaspg.IndexPredicate); ok {
					rep[tbl.Name+"."+idx.Name+" WHERE"] = p.P
				}
			}
			for i, p := range idx.Parts {
				if x, ok := p.X.(*schema.RawExpr); ok {
					rep[fmt.Sprintf("%s.%s part %d", tbl.Name, idx.Name, i+1)] = x.X
				}
			}
		}
	}
	return rep
}

func resolver(tb *compiler.Table) expr.Resolver {
	return func(name string) (expr.Kind, bool) {
		c := tb.Column(name)
		if c == nil {
			return expr.KindUnknown, false
		}
		return c.Type.ExprKind(), true
	}
}

// readBack parses what the database reports for each expression of the
// model, checks that it means what the model says (the same tree up to the
// rewrites the databases make, see normalize), and returns the trees read.
func readBack(t *testing.T, d dialects.Dialect, model map[string]modelExpr, rep map[string]string, want func(key string, m modelExpr) (expr.Node, string)) map[string]expr.Node {
	t.Helper()
	parsed := map[string]expr.Node{}
	keys := make([]string, 0, len(model))
	for k := range model {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	for _, key := range keys {
		m := model[key]
		w, src := want(key, m)
		text, ok := rep[key]
		if !ok {
			t.Errorf("%s (%s): the database reports no expression", key, src)
			continue
		}
		n, err := d.ParseExpr(text, resolver(m.table))
		if err != nil {
			t.Errorf("%s: %v\n  portable: %s", key, err, src)
			continue
		}
		if hasParen(n) {
			t.Errorf("%s: ParseExpr left Paren nodes in %s", key, dump(n))
		}
		if got, want := dump(normalize(n)), dump(normalize(w)); got != want {
			t.Errorf("%s: read back as another expression\n  portable: %s\n  reported: %s\n  read:     %s\n  want:     %s", key, src, text, got, want)
		}
		parsed[key] = n
		if testing.Verbose() {
			t.Logf("%s\n  portable: %s\n  reported: %s", key, src, text)
		}
	}
	return parsed
}

// TestParseExprReadsBack loads every corpus expression into each real
// database, reads back the text the database reports, and checks that
// ParseExpr gives an expression that means the same: the same tree up to
// the rewrites the databases make (normalize), and, rendered and loaded
// again into a fresh database, the same reported text.
func TestParseExprReadsBack(t *testing.T) {
	for _, d := range all.Dialects() {
		t.Run(d.Name(), func(t *testing.T) {
			t.Parallel()
			s, used := corpusModel(t, d.Name())
			model := modelExprs(s, d.Name())
			if len(model) != len(used) {
				t.Fatalf("%d expressions in the model, %d corpus entries", len(model), len(used))
			}
			entry := map[string]int{}
			for _, i := range used {
				entry[corpusKey(i)] = i
			}
			rep := loadBack(t, d, s)
			parsed := readBack(t, d, model, rep, func(key string, m modelExpr) (expr.Node, string) {
				e := corpus[entry[key]]
				if w, ok := e.want[d.Name()]; ok {
					return analyzed(t, w, resolver(m.table)), e.expr
				}
				return m.node, e.expr
			})
			if t.Failed() {
				return
			}
			// The strongest check: the expression read, rendered again, is
			// what the database sees in the original.
			s2, _ := corpusModel(t, d.Name())
			for key, m := range modelExprs(s2, d.Name()) {
				m.set(parsed[key])
			}
			rep2 := loadBack(t, d, s2)
			for _, i := range used {
				key := corpusKey(i)
				if corpus[i].extraParens && d.Name() == tidb.Name && rep2[key] != rep[key] {
					if withoutParens(rep2[key]) != withoutParens(rep[key]) {
						t.Errorf("%s: the expression read back loads as another, beyond parentheses\n  portable: %s\n  reported: %s\n  reloaded: %s", key, corpus[i].expr, rep[key], rep2[key])
					}
					continue
				}
				if rep2[key] != rep[key] {
					t.Errorf("%s: the expression read back loads as another\n  portable: %s\n  reported: %s\n  reloaded: %s", key, corpus[i].expr, rep[key], rep2[key])
				}
			}
		})
	}
}

// TestParseExprReadsRealSchemas reads back the expressions of the
// repository's schema.hcl and of the constructs of the generator's golden
// files, as they are (raw overrides left out).
func TestParseExprReadsRealSchemas(t *testing.T) {
	for _, file := range []string{"../schema.hcl", "../internal/gen/testdata/constructs.hcl"} {
		for _, d := range all.Dialects() {
			t.Run(filepath.Base(file)+"/"+d.Name(), func(t *testing.T) {
				t.Parallel()
				src, err := os.ReadFile(file)
				if err != nil {
					t.Fatal(err)
				}
				if d.Name() == postgres.Name {
					// pgvector may be missing, and vectors have no expressions.
					src = []byte(strings.NewReplacer(
						"    type = vector(3)\n    null = true\n", "    type = vector(3)\n    null = true\n    postgres {\n      skip = true\n    }\n",
						`  postgres = "CREATE EXTENSION IF NOT EXISTS vector"`, `  tidb = "SELECT 1"`,
					).Replace(string(src)))
				}
				s, diags := load.Source(load.Options{Dialects: all.Names()}, file, src)
				if diags.HasErrors() {
					t.Fatal(diags)
				}
				model := modelExprs(s, d.Name())
				rep := loadBack(t, d, s)
				readBack(t, d, model, rep, func(key string, m modelExpr) (expr.Node, string) {
					return m.node, render.String(m.node)
				})
			})
		}
	}
}

// withoutParens drops the parentheses from a reported text (outside
// string literals; the corpus entries it is used on have none there).
func withoutParens(s string) string {
	return strings.Join(strings.Fields(strings.NewReplacer("(", " ", ")", " ").Replace(s)), " ")
}

func analyzed(t *testing.T, src string, cols expr.Resolver) expr.Node {
	t.Helper()
	n, err := expr.Parse(src)
	if err != nil {
		t.Fatalf("%s: %v", src, err)
	}
	n, errs := expr.Analyze(n, cols)
	if len(errs) > 0 {
		t.Fatalf("%s: %v", src, errs[0])
	}
	return n
}

func hasParen(n expr.Node) bool {
	found := false
	expr.Walk(n, func(n expr.Node) bool {
		_, p := n.(*expr.Paren)
		found = found || p
		return !found
	})
	return found
}

// dump prints a tree with all its structure, column kinds included.
func dump(n expr.Node) string {
	switch n := n.(type) {
	case *expr.Column:
		return fmt.Sprintf("%s:%s", n.Name, n.Kind)
	case *expr.Literal:
		return render.String(n)
	case *expr.Paren:
		return "(paren " + dump(n.X) + ")"
	case *expr.Not:
		return "(NOT " + dump(n.X) + ")"
	case *expr.Neg:
		return "(- " + dump(n.X) + ")"
	case *expr.IsNull:
		if n.Not {
			return "(IS-NOT-NULL " + dump(n.X) + ")"
		}
		return "(IS-NULL " + dump(n.X) + ")"
	case *expr.In:
		var parts []string
		for _, x := range n.List {
			parts = append(parts, dump(x))
		}
		op := "IN"
		if n.Not {
			op = "NOT-IN"
		}
		return "(" + op + " " + dump(n.X) + " [" + strings.Join(parts, " ") + "])"
	case *expr.Between:
		op := "BETWEEN"
		if n.Not {
			op = "NOT-BETWEEN"
		}
		return "(" + op + " " + dump(n.X) + " " + dump(n.Lo) + " " + dump(n.Hi) + ")"
	case *expr.Call:
		var parts []string
		for _, x := range n.Args {
			parts = append(parts, dump(x))
		}
		return "(" + n.Name + " " + strings.Join(parts, " ") + ")"
	case *expr.JSONType:
		op := "JSON-TYPE-IN"
		if n.Not {
			op = "JSON-TYPE-NOT-IN"
		}
		return "(" + op + " " + dump(n.X) + " " + strings.Join(n.Types, ",") + ")"
	case *expr.Binary:
		return "(" + n.Op.String() + " " + dump(n.L) + " " + dump(n.R) + ")"
	}
	return fmt.Sprintf("?%T", n)
}

func bin(op expr.Op, l, r expr.Node) expr.Node { return &expr.Binary{Op: op, L: l, R: r} }

func isNull(n expr.Node) bool {
	l, ok := n.(*expr.Literal)
	return ok && l.Kind == expr.LitNull
}

// normalize rewrites a tree into the form the databases keep of it, without
// changing its meaning: no parentheses, BETWEEN as comparisons, IN of one
// value as a comparison, IN of non-constants as comparisons, IS [NOT]
// DISTINCT FROM NULL as IS [NOT] NULL, NOT folded into the operators that
// have a negated form.
func normalize(n expr.Node) expr.Node {
	switch n := n.(type) {
	case *expr.Paren:
		return normalize(n.X)
	case *expr.Not:
		x := normalize(n.X)
		if b, ok := x.(*expr.Binary); ok {
			neg := map[expr.Op]expr.Op{
				expr.OpDistinct: expr.OpNotDistinct, expr.OpNotDistinct: expr.OpDistinct,
				expr.OpRegex: expr.OpNotRegex, expr.OpNotRegex: expr.OpRegex,
			}
			if op, ok := neg[b.Op]; ok {
				return normalize(bin(op, b.L, b.R))
			}
		}
		return &expr.Not{X: x}
	case *expr.Neg:
		x := normalize(n.X)
		if l, ok := x.(*expr.Literal); ok && l.Kind == expr.LitNumber && !strings.HasPrefix(l.Value, "-") {
			return &expr.Literal{Kind: expr.LitNumber, Value: "-" + l.Value}
		}
		return &expr.Neg{X: x}
	case *expr.Between:
		x, lo, hi := normalize(n.X), normalize(n.Lo), normalize(n.Hi)
		lo, hi = instant(lo, x), instant(hi, x)
		if n.Not {
			return bin(expr.OpOr, bin(expr.OpLt, x, lo), bin(expr.OpGt, x, hi))
		}
		return bin(expr.OpAnd, bin(expr.OpGe, x, lo), bin(expr.OpLe, x, hi))
	case *expr.In:
		x := normalize(n.X)
		var list []expr.Node
		constant := true
		for _, e := range n.List {
			e = instant(normalize(e), x)
			_, lit := e.(*expr.Literal)
			constant = constant && lit
			list = append(list, e)
		}
		if len(list) == 1 || !constant {
			cmp, join := expr.OpEq, expr.OpOr
			if n.Not {
				cmp, join = expr.OpNe, expr.OpAnd
			}
			out := bin(cmp, x, list[0])
			for _, e := range list[1:] {
				out = bin(join, out, bin(cmp, x, e))
			}
			return out
		}
		return &expr.In{X: x, List: list, Not: n.Not}
	case *expr.IsNull:
		return &expr.IsNull{X: normalize(n.X), Not: n.Not}
	case *expr.Call:
		c := &expr.Call{Name: n.Name}
		for _, a := range n.Args {
			c.Args = append(c.Args, normalize(a))
		}
		return c
	case *expr.JSONType:
		return &expr.JSONType{X: normalize(n.X), Types: n.Types, Not: n.Not}
	case *expr.Literal:
		if n.Kind == expr.LitNumber {
			// The value, as the database keeps it: -0 is 0, 1.50 is 1.5.
			if r, ok := new(big.Rat).SetString(n.Value); ok {
				return &expr.Literal{Kind: expr.LitNumber, Value: r.RatString()}
			}
		}
		return n
	case *expr.Binary:
		l, r := normalize(n.L), normalize(n.R)
		l, r = instant(l, r), instant(r, l)
		if n.Op == expr.OpDistinct || n.Op == expr.OpNotDistinct {
			if isNull(r) {
				return &expr.IsNull{X: l, Not: n.Op == expr.OpDistinct}
			}
			if isNull(l) {
				return &expr.IsNull{X: r, Not: n.Op == expr.OpDistinct}
			}
		}
		return bin(n.Op, l, r)
	}
	return n
}

// instant writes a string literal compared with a timestamp or date column
// as the instant it means: PostgreSQL prints '2020-01-01' compared with a
// timestamp as '2020-01-01 00:00:00+00'.
func instant(lit, col expr.Node) expr.Node {
	l, ok1 := lit.(*expr.Literal)
	c, ok2 := col.(*expr.Column)
	if !ok1 || !ok2 || l.Kind != expr.LitString || c.Kind != expr.KindTime && c.Kind != expr.KindDate {
		return lit
	}
	for _, layout := range []string{"2006-01-02 15:04:05.999999-07", "2006-01-02 15:04:05.999999", "2006-01-02"} {
		if tm, err := time.Parse(layout, l.Value); err == nil {
			return &expr.Literal{Kind: expr.LitString, Value: tm.UTC().Format(time.RFC3339Nano)}
		}
	}
	return lit
}
