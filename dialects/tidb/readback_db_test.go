package tidb_test

import (
	"context"
	"database/sql"
	"fmt"
	"slices"
	"strings"
	"testing"
	"time"

	"ariga.io/atlas/sql/migrate"

	"github.com/schemagen/schemagen/compiler"
	"github.com/schemagen/schemagen/compiler/expr"
	"github.com/schemagen/schemagen/compiler/expr/render"
	"github.com/schemagen/schemagen/dialects/tidb"
	"github.com/schemagen/schemagen/internal/dbtest"
	"github.com/schemagen/schemagen/internal/difftest"
	"github.com/schemagen/schemagen/internal/difftest/draw"
	"github.com/schemagen/schemagen/internal/gen"
)

// readBackSeeds is how many of the differential tester's random models the
// read-back test loads into TiDB: about 100 tables with expressions, every kind
// of CHECK atom, expression index and generated column the generator draws.
const readBackSeeds = 120

// TestReadBackGenerated loads the CHECKs and expression indexes of the
// differential tester's random models into a real TiDB, reads back the text
// TiDB prints for each (CHECK_CLAUSE, an index part's EXPRESSION, the
// expression of the VIRTUAL generated column TiDB indexes instead), and
// checks that ParseExpr, which reads it with TiDB's parser, gives the
// model's expression.
func TestReadBackGenerated(t *testing.T) {
	start := time.Now()
	var schemas []*compiler.Schema
	var script strings.Builder
	for seed := uint64(1); seed <= readBackSeeds; seed++ {
		m, _ := draw.Random(seed, 0)
		unique(m, fmt.Sprintf("s%d_", seed))
		res := expressions(m)
		if res == nil {
			continue // no expression survives, or the bare tables do not compile
		}
		schemas = append(schemas, res.Schema)
		script.Write(res.Outputs[tidb.Name].SQL)
	}
	if len(schemas) < readBackSeeds/2 {
		t.Fatalf("only %d of %d models compile", len(schemas), readBackSeeds)
	}
	t.Logf("compiled in %v", time.Since(start))
	db := dbtest.TiDB(t)
	ctx := context.Background()
	stmts, err := migrate.Stmts(script.String())
	if err != nil {
		t.Fatal(err)
	}
	for _, st := range stmts {
		if _, err := db.ExecContext(ctx, st.Text); err != nil {
			t.Fatalf("TiDB rejected a statement: %v\n%s", err, st.Text)
		}
	}
	t.Logf("%d statements applied in %v", len(stmts), time.Since(start))
	rep := printed(t, db.DB)

	kinds := map[string]int{}
	for _, s := range schemas {
		for _, tb := range s.Tables {
			if tb.Overrides.Skipped(tidb.Name) {
				continue
			}
			cols := resolver(tb)
			for _, c := range tb.Checks {
				if o := c.Overrides.For(tidb.Name); o != nil && (o.Skip || o.Expr != "") {
					continue
				}
				key := tb.Name + "." + c.Overrides.NameIn(tidb.Name, c.Name)
				text, ok := rep.checks[key]
				if !ok {
					t.Errorf("%s: TiDB reports no CHECK (%s)", key, render.String(c.Expr))
					continue
				}
				compare(t, key, text, c.Expr, cols)
				kinds["check"]++
			}
			for _, idx := range tb.Indexes {
				if o := idx.Overrides.For(tidb.Name); o != nil && (o.Skip || o.SQL != "") {
					continue
				}
				name := idx.Overrides.NameIn(tidb.Name, idx.Name)
				for i, p := range idx.Parts {
					if p.Expr == nil {
						continue
					}
					key := fmt.Sprintf("%s.%s part %d", tb.Name, name, i+1)
					part, ok := rep.parts[key]
					if !ok {
						t.Errorf("%s: TiDB reports no key part (%s)", key, render.String(p.Expr))
						continue
					}
					if part.expr.Valid {
						compare(t, key, part.expr.String, p.Expr, cols)
						kinds["index expression"]++
						continue
					}
					gen, ok := rep.generated[tb.Name+"."+part.column]
					if !ok {
						t.Errorf("%s: the key part is the column %s, which is not generated (%s)", key, part.column, render.String(p.Expr))
						continue
					}
					if when, then, ok := (tidb.Dialect{}).CaseKey(gen, cols); ok && idx.Where != nil {
						// A partial unique index's part: CASE WHEN where THEN part END.
						same(t, key+" (generated column "+part.column+", predicate)", gen, when, idx.Where)
						same(t, key+" (generated column "+part.column+")", gen, then, p.Expr)
						kinds["partial unique part"]++
						continue
					}
					compare(t, key+" (generated column "+part.column+")", gen, p.Expr, cols)
					kinds["generated column"]++
				}
			}
		}
	}
	t.Logf("%d models, %d tables read back: %v", len(schemas), len(rep.tables), kinds)
	for _, k := range []string{"check", "index expression", "generated column"} {
		if kinds[k] == 0 {
			t.Errorf("no %s read back: the test covers less than it says", k)
		}
	}
}

// expressions keeps of m the tables' columns (without defaults) and
// primary keys, and each of the CHECKs and indexes that compiles: the
// generator draws some that the compiler must refuse, and other constructs
// the compiler refuses, which this test is not about. It returns the
// compiled result, or nil when even the bare tables do not compile.
func expressions(m *difftest.Model) *gen.Result {
	compile := func() *gen.Result {
		res := gen.CompileSource("schema.hcl", []byte(m.HCL()))
		if res.Failed() {
			return nil
		}
		return res
	}
	checks, indexes := map[*difftest.Table][]difftest.Check{}, map[*difftest.Table][]difftest.Index{}
	for _, t := range m.Tables {
		checks[t], indexes[t] = t.Checks, t.Indexes
		t.Checks, t.Indexes, t.Uniques, t.FKs = nil, nil, nil, nil
		for _, c := range t.Cols {
			c.Default = ""
		}
	}
	res := compile()
	if res == nil {
		return nil
	}
	for _, t := range m.Tables {
		for _, c := range checks[t] {
			t.Checks = append(t.Checks, c)
			if r := compile(); r != nil {
				res = r
			} else {
				t.Checks = t.Checks[:len(t.Checks)-1]
			}
		}
		for _, x := range indexes[t] {
			t.Indexes = append(t.Indexes, x)
			if r := compile(); r != nil {
				res = r
			} else {
				t.Indexes = t.Indexes[:len(t.Indexes)-1]
			}
		}
	}
	// Only the tables with expressions: TiDB's DDL is slow.
	m.Tables = slices.DeleteFunc(m.Tables, func(t *difftest.Table) bool {
		return len(t.Checks) == 0 && !slices.ContainsFunc(t.Indexes, func(x difftest.Index) bool {
			return slices.ContainsFunc(x.Cols, func(c string) bool { return strings.HasPrefix(c, "expr:") })
		})
	})
	if len(m.Tables) == 0 {
		return nil
	}
	return compile()
}

// unique prefixes the names of m's tables and constraints, so that many
// models share one database, and drops the overrides that name objects.
func unique(m *difftest.Model, p string) {
	for _, t := range m.Tables {
		t.Name = p + t.Name
		for i := range t.Checks {
			t.Checks[i].Name = p + t.Checks[i].Name
			t.Checks[i].Override = ""
		}
		for i := range t.Uniques {
			t.Uniques[i].Name = p + t.Uniques[i].Name
		}
		for i := range t.Indexes {
			t.Indexes[i].Name = p + t.Indexes[i].Name
			t.Indexes[i].Override = ""
		}
		for i := range t.FKs {
			t.FKs[i].Name = p + t.FKs[i].Name
			t.FKs[i].RefTable = p + t.FKs[i].RefTable
		}
	}
}

type keyPart struct {
	column string
	expr   sql.NullString
}

// report is what TiDB prints of the expressions of a database.
type report struct {
	tables    map[string]bool
	checks    map[string]string  // "table.check": CHECK_CLAUSE
	parts     map[string]keyPart // "table.index part N"
	generated map[string]string  // "table.column": its expression
}

func printed(t *testing.T, db *sql.DB) report {
	t.Helper()
	r := report{tables: map[string]bool{}, checks: map[string]string{}, parts: map[string]keyPart{}, generated: map[string]string{}}
	query := func(q string, scan func(*sql.Rows) error) {
		rows, err := db.Query(q)
		if err != nil {
			t.Fatal(err)
		}
		defer rows.Close()
		for rows.Next() {
			if err := scan(rows); err != nil {
				t.Fatal(err)
			}
		}
		if err := rows.Err(); err != nil {
			t.Fatal(err)
		}
	}
	query("SELECT TABLE_NAME, CONSTRAINT_NAME, CHECK_CLAUSE FROM INFORMATION_SCHEMA.TIDB_CHECK_CONSTRAINTS WHERE CONSTRAINT_SCHEMA = DATABASE()", func(rows *sql.Rows) error {
		var table, name, clause string
		err := rows.Scan(&table, &name, &clause)
		r.checks[table+"."+name] = clause
		return err
	})
	query("SELECT TABLE_NAME, INDEX_NAME, SEQ_IN_INDEX, COALESCE(COLUMN_NAME, ''), EXPRESSION FROM INFORMATION_SCHEMA.STATISTICS WHERE TABLE_SCHEMA = DATABASE()", func(rows *sql.Rows) error {
		var table, index string
		var seq int
		var p keyPart
		err := rows.Scan(&table, &index, &seq, &p.column, &p.expr)
		r.tables[table] = true
		r.parts[fmt.Sprintf("%s.%s part %d", table, index, seq)] = p
		return err
	})
	query("SELECT TABLE_NAME, COLUMN_NAME, GENERATION_EXPRESSION FROM INFORMATION_SCHEMA.COLUMNS WHERE TABLE_SCHEMA = DATABASE() AND GENERATION_EXPRESSION <> ''", func(rows *sql.Rows) error {
		var table, column, x string
		err := rows.Scan(&table, &column, &x)
		r.generated[table+"."+column] = x
		return err
	})
	return r
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

// compare reads text, what TiDB prints of the model's expression want, and
// checks that it means want: the same tree up to what TiDB's text does not
// keep (normalize), rendered in the portable syntax.
func compare(t *testing.T, key, text string, want expr.Node, cols expr.Resolver) {
	t.Helper()
	got, err := tidb.Dialect{}.ParseExpr(text, cols)
	if err != nil {
		t.Errorf("%s: %v\n  model: %s", key, err, render.String(want))
		return
	}
	same(t, key, text, got, want)
}

// same compares got, read from text, with the model's want.
func same(t *testing.T, key, text string, got, want expr.Node) {
	t.Helper()
	if g, w := render.String(normalize(got)), render.String(normalize(want)); g != w {
		t.Errorf("%s: read back as another expression\n  model:   %s\n  printed: %s\n  read:    %s\n  want:    %s", key, render.String(want), text, g, w)
	}
}

// normalize removes what TiDB's text does not keep of a tree: parentheses,
// NOT written around an operator that has a negated form, a minus sign on a
// number literal.
func normalize(n expr.Node) expr.Node {
	switch n := n.(type) {
	case *expr.Paren:
		return normalize(n.X)
	case *expr.Not:
		x := normalize(n.X)
		if b, ok := x.(*expr.Binary); ok {
			switch b.Op {
			case expr.OpNotDistinct:
				return &expr.Binary{Op: expr.OpDistinct, L: b.L, R: b.R}
			case expr.OpRegex:
				return &expr.Binary{Op: expr.OpNotRegex, L: b.L, R: b.R}
			}
		}
		return &expr.Not{X: x}
	case *expr.Neg:
		x := normalize(n.X)
		if l, ok := x.(*expr.Literal); ok && l.Kind == expr.LitNumber && !strings.HasPrefix(l.Value, "-") {
			return &expr.Literal{Kind: expr.LitNumber, Value: "-" + l.Value}
		}
		return &expr.Neg{X: x}
	case *expr.Binary:
		return &expr.Binary{Op: n.Op, L: normalize(n.L), R: normalize(n.R)}
	case *expr.IsNull:
		return &expr.IsNull{X: normalize(n.X), Not: n.Not}
	case *expr.In:
		in := &expr.In{X: normalize(n.X), Not: n.Not}
		for _, x := range n.List {
			in.List = append(in.List, normalize(x))
		}
		return in
	case *expr.Between:
		return &expr.Between{X: normalize(n.X), Lo: normalize(n.Lo), Hi: normalize(n.Hi), Not: n.Not}
	case *expr.Call:
		c := &expr.Call{Name: n.Name}
		for _, x := range n.Args {
			c.Args = append(c.Args, normalize(x))
		}
		return c
	case *expr.JSONType:
		return &expr.JSONType{X: normalize(n.X), Types: n.Types, Not: n.Not}
	case *expr.Case:
		c := &expr.Case{Kind: n.Kind}
		for _, w := range n.Whens {
			c.Whens = append(c.Whens, expr.When{Cond: normalize(w.Cond), Then: normalize(w.Then)})
		}
		if n.Else != nil {
			c.Else = normalize(n.Else)
		}
		return c
	}
	return n
}
