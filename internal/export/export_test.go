package export_test

import (
	"bytes"
	"encoding/json"
	"fmt"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/santhosh-tekuri/jsonschema/v6"

	"github.com/schemagen/schemagen/compiler"
	"github.com/schemagen/schemagen/dialects/all"
	"github.com/schemagen/schemagen/internal/difftest"
	"github.com/schemagen/schemagen/internal/difftest/draw"
	"github.com/schemagen/schemagen/internal/export"
	"github.com/schemagen/schemagen/internal/gen"
	"github.com/schemagen/schemagen/internal/synth"
)

// models are the repository's own schema and the test models that use
// every construct of the language between them (testdata/rest.hcl what
// the other two leave out).
var models = []string{"../../schema.hcl", "../gen/testdata/constructs.hcl", "../gen/testdata/everyday.hcl", "testdata/rest.hcl"}

func compile(t testing.TB, path string) *gen.Result {
	t.Helper()
	r := gen.Compile(path)
	if r.Failed() {
		t.Fatalf("%s: %v", path, r.Diags.Errs())
	}
	return r
}

// TestJSONSchema validates the export of each model against the JSON
// Schema in docs/, which the format's users validate against.
func TestJSONSchema(t *testing.T) {
	c := jsonschema.NewCompiler()
	sch, err := c.Compile("../../docs/export.schema.json")
	if err != nil {
		t.Fatal(err)
	}
	for _, path := range models {
		out := export.JSON(export.FromResult(compile(t, path)))
		v, err := jsonschema.UnmarshalJSON(bytes.NewReader(out))
		if err != nil {
			t.Fatal(err)
		}
		if err := sch.Validate(v); err != nil {
			t.Errorf("%s: the export does not match docs/export.schema.json: %v", path, err)
		}
	}
	// And the differential tester's first models, repaired.
	for seed := uint64(1); seed <= 30; seed++ {
		m, _ := draw.Random(seed, 1)
		if rm := difftest.Repair(m); rm != nil {
			m = rm
		}
		r := gen.CompileSource("schema.hcl", []byte(m.HCL()))
		if r.Failed() {
			continue
		}
		v, err := jsonschema.UnmarshalJSON(bytes.NewReader(export.JSON(export.FromResult(r))))
		if err != nil {
			t.Fatal(err)
		}
		if err := sch.Validate(v); err != nil {
			t.Errorf("seed %d: the export does not match docs/export.schema.json: %v", seed, err)
		}
	}
	// The schema is not so loose that anything passes.
	bad := map[string]any{"format": "schemagen-export", "version": 2}
	if err := sch.Validate(bad); err == nil {
		t.Error("the JSON Schema accepts version 2 without tables")
	}
}

// TestJSONHoldsModel reads the export of the repository's schema back and
// finds in it every table, column, key, CHECK and index of the model, each
// with the text its dialects' generated DDL holds.
func TestJSONHoldsModel(t *testing.T) {
	results := map[string]*gen.Result{}
	for _, path := range models {
		results[path] = compile(t, path)
	}
	// And the differential tester's first models, repaired: odd names,
	// objects one dialect leaves out.
	for seed := uint64(1); seed <= 30; seed++ {
		m, _ := draw.Random(seed, 1)
		if rm := difftest.Repair(m); rm != nil {
			m = rm
		}
		if r := gen.CompileSource("schema.hcl", []byte(m.HCL())); !r.Failed() {
			results[fmt.Sprintf("seed %d", seed)] = r
		}
	}
	for path, r := range results {
		var doc export.Document
		if err := json.Unmarshal(export.JSON(export.FromResult(r)), &doc); err != nil {
			t.Fatal(err)
		}
		if doc.Version != export.Version || doc.Format != export.Format || !slices.Equal(doc.Dialects, all.Names()) {
			t.Fatalf("%s: format %q version %d dialects %v", path, doc.Format, doc.Version, doc.Dialects)
		}
		if len(doc.Tables) != len(r.Schema.Tables) {
			t.Fatalf("%s: %d tables exported, the model has %d", path, len(doc.Tables), len(r.Schema.Tables))
		}
		for i, mt := range r.Schema.Tables {
			checkTable(t, r, mt, doc.Tables[i])
		}
	}
}

func checkTable(t *testing.T, r *gen.Result, mt *compiler.Table, xt *export.Table) {
	t.Helper()
	if xt.Name != mt.Name {
		t.Fatalf("table %q exported as %q", mt.Name, xt.Name)
	}
	in := func(d, what, text string) {
		t.Helper()
		if text == "" || !strings.Contains(string(r.Outputs[d].SQL), text) {
			t.Errorf("%s: %s %q of table %s is not in the generated DDL", d, what, text, mt.Name)
		}
	}
	// omitted checks that an object is left out of exactly the dialects
	// the model or the dialect leaves it out of, saying why.
	omitted := func(d, what string, skipped bool, l export.Lowering) bool {
		t.Helper()
		if l.Omitted != skipped {
			t.Errorf("%s: %s of table %s omitted = %v, the model skips it: %v", d, what, mt.Name, l.Omitted, skipped)
		}
		if l.Omitted && len(l.Decisions) == 0 {
			t.Errorf("%s: %s of table %s is omitted without a decision saying why", d, what, mt.Name)
		}
		return l.Omitted
	}
	if len(xt.Columns) != len(mt.Columns) || len(xt.Uniques) != len(mt.Uniques) || len(xt.Checks) != len(mt.Checks) || len(xt.ForeignKeys) != len(mt.ForeignKeys) || len(xt.Indexes) != len(mt.Indexes) {
		t.Fatalf("table %s: exported %d columns, %d uniques, %d checks, %d foreign keys, %d indexes; the model has %d, %d, %d, %d, %d", mt.Name,
			len(xt.Columns), len(xt.Uniques), len(xt.Checks), len(xt.ForeignKeys), len(xt.Indexes), len(mt.Columns), len(mt.Uniques), len(mt.Checks), len(mt.ForeignKeys), len(mt.Indexes))
	}
	if !slices.Equal(xt.PrimaryKey, pk(mt)) {
		t.Errorf("table %s: primary key %v, the model's %v", mt.Name, xt.PrimaryKey, pk(mt))
	}
	for _, d := range all.Names() {
		tin := xt.Dialects[d]
		if omitted(d, "the table", mt.Overrides.Skipped(d), tin.Lowering) {
			continue
		}
		in(d, "statement", tin.Statement)
		if len(xt.Columns) != len(mt.Columns) {
			t.Fatalf("table %s: %d columns, the model has %d", mt.Name, len(xt.Columns), len(mt.Columns))
		}
		for i, mc := range mt.Columns {
			xc := xt.Columns[i]
			if xc.Name != mc.Name || xc.Nullable != mc.Null || xc.Type.Name != mc.Type.Name() || (mc.Generated != nil) != (xc.Generated != nil) || (mc.Identity != nil) != (xc.Identity != nil) || (mc.Default != nil) != (xc.Default != nil) {
				t.Errorf("column %s.%s exported as %+v", mt.Name, mc.Name, xc)
			}
			cin := xc.Dialects[d]
			if omitted(d, "column "+mc.Name, mc.Overrides.Skipped(d), cin.Lowering) {
				continue
			}
			in(d, "column", "  "+quoteIn(d, mc.Name)+" "+cin.Type)
			if cin.Default != "" {
				in(d, "column default", " DEFAULT "+cin.Default)
			}
			if (mc.Generated != nil) != (cin.GenerationExpr != "") {
				t.Errorf("%s: column %s.%s: generation expression %q", d, mt.Name, mc.Name, cin.GenerationExpr)
			}
		}
		for i, u := range mt.Uniques {
			c := xt.Uniques[i].Dialects[d]
			if xt.Uniques[i].Name == u.Name && !omitted(d, "unique "+u.Name, u.Overrides.Skipped(d), c.Lowering) {
				in(d, "unique constraint", quoteIn(d, c.Name)+" "+c.SQL)
			}
		}
		for i, ch := range mt.Checks {
			c := xt.Checks[i].Dialects[d]
			if xt.Checks[i].Name != ch.Name || omitted(d, "check "+ch.Name, ch.Overrides.Skipped(d), c.Lowering) {
				continue
			}
			in(d, "check", c.SQL)
			if c.Expr == "" || !strings.Contains(c.SQL, c.Expr) {
				t.Errorf("%s: check %s: expression %q, SQL %q", d, ch.Name, c.Expr, c.SQL)
			}
		}
		for i, fk := range mt.ForeignKeys {
			c := xt.ForeignKeys[i].Dialects[d]
			if xt.ForeignKeys[i].Name != fk.Name || omitted(d, "foreign key "+fk.Name, fk.Overrides.Skipped(d), c.Lowering) {
				continue
			}
			in(d, "foreign key", c.SQL)
			if c.Deferred != strings.Contains(string(r.Outputs[d].SQL), "ADD CONSTRAINT "+quoteIn(d, c.Name)) {
				t.Errorf("%s: foreign key %s deferred = %v", d, fk.Name, c.Deferred)
			}
			// The dialect's action is what its SQL says (TiDB writes no
			// RESTRICT, which is its default).
			if len(c.Columns) != len(fk.Columns) || strings.Contains(c.SQL, "ON DELETE") != (c.OnDelete != "") || c.OnDelete != "" && !strings.Contains(c.SQL, "ON DELETE "+c.OnDelete) {
				t.Errorf("%s: foreign key %s: columns %v, on delete %q, SQL %q", d, fk.Name, c.Columns, c.OnDelete, c.SQL)
			}
		}
		for i, idx := range mt.Indexes {
			xi := xt.Indexes[i]
			if xi.Name != idx.Name || xi.Comment != idx.Comment || len(xi.Parts) != len(idx.Parts) {
				t.Errorf("index %s exported as %+v", idx.Name, xi)
			}
			c := xi.Dialects[d]
			if omitted(d, "index "+idx.Name, idx.Overrides.Skipped(d), c.Lowering) {
				continue
			}
			in(d, "index", c.Statement)
			if idx.Comment != "" && c.Comment != "" && c.CommentStatement != "" {
				in(d, "index comment", c.CommentStatement)
			}
		}
	}
}

func pk(t *compiler.Table) []string {
	if t.PrimaryKey == nil {
		return []string{}
	}
	return t.PrimaryKey.Columns
}

func quoteIn(d, name string) string {
	if d == "tidb" {
		return "`" + name + "`"
	}
	return `"` + name + `"`
}

// TestIndexPurpose: an index's comment is its purpose in both dialects,
// and where the dialect cannot keep it the export says why.
func TestIndexPurpose(t *testing.T) {
	r := compile(t, "../gen/testdata/constructs.hcl")
	doc := export.FromResult(r)
	var found int
	for _, tb := range doc.Tables {
		for _, idx := range tb.Indexes {
			if idx.Comment == "" {
				continue
			}
			found++
			pg, ti := idx.Dialects["postgres"], idx.Dialects["tidb"]
			if pg.Comment != idx.Comment || !strings.HasPrefix(pg.CommentStatement, "COMMENT ON INDEX ") {
				t.Errorf("postgres: index %s: comment %q, statement %q", idx.Name, pg.Comment, pg.CommentStatement)
			}
			switch {
			case ti.Raw:
				if ti.Comment != "" || !slices.ContainsFunc(ti.Decisions, func(d export.Decision) bool { return d.Kind == "omitted" && strings.Contains(d.Text, "comment") }) {
					t.Errorf("tidb: raw index %s: comment %q, decisions %v", idx.Name, ti.Comment, ti.Decisions)
				}
			case ti.Comment != idx.Comment || !strings.Contains(ti.Statement, " COMMENT '"):
				t.Errorf("tidb: index %s: comment %q, statement %q", idx.Name, ti.Comment, ti.Statement)
			}
		}
	}
	if found < 2 {
		t.Fatalf("constructs.hcl has %d commented indexes; the test needs a plain one and a raw one", found)
	}
}

// TestDeterministic: one model gives the same bytes every time.
func TestDeterministic(t *testing.T) {
	r := compile(t, "../gen/testdata/constructs.hcl")
	for _, f := range export.Formats {
		a, b := export.Render(r, f), export.Render(compile(t, "../gen/testdata/constructs.hcl"), f)
		if !bytes.Equal(a, b) {
			t.Errorf("%s: two exports of one model differ", f)
		}
	}
}

// BenchmarkExport1000 exports the compiled 1,000-table synthetic model in
// each format, as schemagen export does after compiling it (the goal:
// under a second each). It reports the CPU time of an export, which a
// loaded machine disturbs less than the wall clock, and its ratio to the
// CPU time of compiling the model to both dialects (the baseline).
func BenchmarkExport1000(b *testing.B) {
	src := synth.Model(1000)
	start := cpuTime()
	r := gen.CompileSource("bench.hcl", src)
	compileCPU := cpuTime() - start
	if r.Failed() {
		b.Fatal(r.Diags.Errs())
	}
	for _, f := range export.Formats {
		b.Run(f, func(b *testing.B) {
			var n int
			start := cpuTime()
			for b.Loop() {
				n = len(export.Render(r, f))
			}
			cpu := (cpuTime() - start) / time.Duration(b.N)
			b.ReportMetric(float64(n)/1e6, "MB")
			b.ReportMetric(float64(cpu.Milliseconds()), "cpu-ms/op")
			if compileCPU > 0 {
				b.ReportMetric(float64(cpu)/float64(compileCPU), "x-compile")
			}
		})
	}
}
