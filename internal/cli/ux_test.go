package cli_test

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/schemagen/schemagen/internal/cli"
)

// Plain output (colour off, as in CI logs and pipes) gives file:line:col and
// a caret line under the culprit.
func TestPlainDiagnosticsHavePositionAndCaret(t *testing.T) {
	bad := strings.Replace(model, `"state IN ('new', 'done')"`, `"stat IN ('new', 'done')"`, 1)
	dir := project(t, bad)
	r := schemagen(t, dir, "--color", "never", "check")
	if r.code != 1 {
		t.Fatalf("exit %d\n%s", r.code, r.stderr)
	}
	path := filepath.Join(dir, "schema.hcl")
	want := path + ":15:13: error: Invalid expression\n" +
		`15 |     expr = "stat IN ('new', 'done')"` + "\n" +
		"   |             ^^^^\n" +
		"Unknown column \"stat\" in table \"items\". Did you mean \"state\"?\n"
	if !strings.Contains(r.stderr, want) {
		t.Errorf("stderr lacks\n%s\ngot:\n%s", want, r.stderr)
	}
	if strings.Contains(r.stderr, "\x1b[") {
		t.Errorf("plain output has ANSI escapes:\n%q", r.stderr)
	}
	r = schemagen(t, dir, "--color", "always", "check")
	if !strings.Contains(r.stderr, path+":15:13: ") || !strings.Contains(r.stderr, "\x1b[4mstat") {
		t.Errorf("colour output lacks the position or the underline:\n%q", r.stderr)
	}
}

// A non-breaking space is named, and shown where it is.
func TestInvisibleCulpritIsNamed(t *testing.T) {
	dir := project(t, "table \"t\" {\n  column \"id\" {\n    type =\u00a0int\n  }\n}\n")
	r := schemagen(t, dir, "--color", "never", "generate", "--out", "OUT")
	if r.code != 1 {
		t.Fatalf("exit %d\n%s", r.code, r.stderr)
	}
	for _, want := range []string{
		filepath.Join(dir, "schema.hcl") + ":3:11: error: Invalid character",
		"3 |     type =<U+00A0>int\n  |           ^^^^^^^^\n",
		"U+00A0 NO-BREAK SPACE (looks like a space)",
	} {
		if !strings.Contains(r.stderr, want) {
			t.Errorf("stderr lacks %q:\n%s", want, r.stderr)
		}
	}
	// Inside an expression too: the space after state is a no-break space.
	dir = project(t, strings.Replace(model, "state <> 'done'", "state\u00a0<> 'done'", 1))
	r = schemagen(t, dir, "--color", "never", "check")
	if r.code != 1 || !strings.Contains(r.stderr, `Unknown column "state\u00a0" in table "items". Did you mean "state"?`) || !strings.Contains(r.stderr, "The culprit is U+00A0 NO-BREAK SPACE") {
		t.Errorf("a no-break space in an expression: exit %d\n%s", r.code, r.stderr)
	}
}

// Warnings that differ only in the object they name come as one heading
// with the places listed; --quiet leaves them out.
func TestRepeatedWarningsAreGrouped(t *testing.T) {
	var src strings.Builder
	for i := range 100 {
		fmt.Fprintf(&src, "table \"t%d\" {\n  column \"a\" {\n    type = int\n  }\n  index \"t%d_a\" {\n    columns = [\"a\"]\n    where   = \"a > 0\"\n  }\n}\n", i, i)
	}
	dir := project(t, src.String())
	r := schemagen(t, dir, "--color", "never", "generate", "--out", "OUT")
	if r.code != 0 {
		t.Fatalf("exit %d\n%s", r.code, r.stderr)
	}
	if n := strings.Count(r.stderr, "warning: Partial index made full (tidb)"); n != 1 {
		t.Errorf("%d headings, want 1:\n%s", n, r.stderr)
	}
	for _, want := range []string{"(100 places)", "The same in 99 more places:", filepath.Join(dir, "schema.hcl") + `:871:15: index "t96_a"`} {
		if !strings.Contains(r.stderr, want) {
			t.Errorf("stderr lacks %q:\n%s", want, r.stderr)
		}
	}
	if lines := strings.Count(r.stderr, "\n"); lines > 110 {
		t.Errorf("%d lines of warnings for 100 objects", lines)
	}
	r = schemagen(t, dir, "generate", "--quiet", "--out", "OUT")
	if r.code != 0 || r.stderr != "" || r.stdout != "" {
		t.Errorf("generate --quiet: exit %d, stdout %q, stderr %q", r.code, r.stdout, r.stderr)
	}
}

// Every flag value is checked: a wrong one exits 2 with the valid values
// and writes nothing.
func TestFlagValuesAreValidated(t *testing.T) {
	dir := project(t, model)
	if r := schemagen(t, dir, "generate", "--out", "OUT"); r.code != 0 {
		t.Fatal(r.stderr)
	}
	before := read(t, filepath.Join(dir, "generated/postgres/schema.sql"))
	cwd, _ := os.Getwd()
	for _, cmd := range []string{"generate", "check"} {
		var out, errb strings.Builder
		code := cli.Run([]string{cmd, "--schema", "", "--out", filepath.Join(dir, "generated")}, &out, &errb)
		if code != 2 || !strings.Contains(errb.String(), "--schema is empty") {
			t.Errorf("%s --schema \"\": exit %d\n%s%s", cmd, code, out.String(), errb.String())
		}
	}
	for _, c := range []struct {
		args []string
		want string
	}{
		{[]string{"generate", "--out", ""}, "--out is empty"},
		{[]string{"check", "--out", ""}, "--out is empty"},
		{[]string{"explain", "--dialect", "mysql"}, `invalid value "mysql" for --dialect: valid values are postgres, tidb`},
		{[]string{"generate", "--color", "purple", "--out", "OUT"}, `invalid value "purple" for --color: valid values are auto, always, never`},
		{[]string{"erd", "--format", "png"}, `invalid value "png" for --format: valid values are mermaid, dot`},
		{[]string{"erd", "--dialect", "oracle"}, `invalid value "oracle" for --dialect: valid values are postgres, tidb`},
	} {
		r := schemagen(t, dir, c.args...)
		if r.code != 2 || !strings.Contains(r.stderr, c.want) {
			t.Errorf("schemagen %q: exit %d, want 2 and %q\n%s", c.args, r.code, c.want, r.stderr)
		}
	}
	if after := read(t, filepath.Join(dir, "generated/postgres/schema.sql")); after != before {
		t.Error("a rejected flag changed generated/")
	}
	if entries, _ := os.ReadDir(cwd); len(entries) > 0 {
		for _, e := range entries {
			if e.Name() == "postgres" || e.Name() == "tidb" {
				t.Errorf("generate --out \"\" wrote into the current directory: %s", e.Name())
			}
		}
	}
}

// A schema file that cannot be read means the same exit code, 2, in every
// command that reads it.
func TestMissingSchemaExitsTwoEverywhere(t *testing.T) {
	dir := t.TempDir()
	for _, args := range [][]string{{"generate", "--out", "OUT"}, {"check", "--out", "OUT"}, {"explain"}, {"fmt"}, {"erd"}, {"export"}} {
		r := schemagen(t, dir, args...)
		if r.code != 2 || !strings.Contains(r.stderr, "does not exist") {
			t.Errorf("schemagen %v without schema.hcl: exit %d, want 2\n%s", args, r.code, r.stderr)
		}
	}
}

// With generated/tidb/schema.sql a directory, generate fails before
// replacing anything.
func TestGenerateAllOrNothingWhenATargetIsADirectory(t *testing.T) {
	dir := project(t, model)
	if r := schemagen(t, dir, "generate", "--out", "OUT"); r.code != 0 {
		t.Fatal(r.stderr)
	}
	before := read(t, filepath.Join(dir, "generated/postgres/schema.sql"))
	os.WriteFile(filepath.Join(dir, "schema.hcl"), []byte(strings.Replace(model, "varchar(16)", "varchar(20)", 1)), 0o644)
	ti := filepath.Join(dir, "generated/tidb/schema.sql")
	os.Remove(ti)
	os.MkdirAll(filepath.Join(ti, "x"), 0o755)
	r := schemagen(t, dir, "generate", "--out", "OUT")
	if r.code != 2 || !strings.Contains(r.stderr, "not a regular file") {
		t.Fatalf("exit %d, want 2\n%s", r.code, r.stderr)
	}
	if after := read(t, filepath.Join(dir, "generated/postgres/schema.sql")); after != before {
		t.Error("generate replaced the postgres file although the tidb file could not be written")
	}
	for _, d := range []string{"generated/postgres", "generated/tidb"} {
		entries, _ := os.ReadDir(filepath.Join(dir, d))
		if len(entries) != 1 {
			t.Errorf("%s holds %v", d, entries)
		}
	}
}

// accept acknowledges a known lowering: no warning, the decision is still
// explained; a wrong or needless accept is an error.
func TestAcceptAcknowledgesALowering(t *testing.T) {
	accepted := strings.Replace(model, "    where   = \"state <> 'done'\"\n", "    where   = \"state <> 'done'\"\n    tidb {\n      accept = [\"partial_index\"]\n    }\n", 1)
	dir := project(t, accepted)
	r := schemagen(t, dir, "generate", "--out", "OUT")
	if r.code != 0 || r.stderr != "" {
		t.Fatalf("generate of an accepted lowering: exit %d, stderr:\n%s", r.code, r.stderr)
	}
	r = schemagen(t, dir, "explain", "--dialect", "tidb")
	if !strings.Contains(r.stdout, "WHERE state <> 'done' dropped: TiDB has no partial indexes") || strings.Contains(r.stdout, "warning:") {
		t.Errorf("explain of an accepted lowering:\n%s", r.stdout)
	}
	for _, c := range []struct{ from, to, want string }{
		{`accept = ["partial_index"]`, `accept = ["partial_indx"]`, `"partial_indx" is not a lowering to accept. Did you mean "partial_index"?`},
		{`accept = ["partial_index"]`, `accept = ["index_method"]`, `Index "items_open_idx" accepts "index_method" in tidb, but it has no using.`},
		{`accept = ["partial_index"]`, `accept = ["deferrable"]`, `Index "items_open_idx" cannot accept "deferrable"; an index accepts "char_match", "index_method", "opclass", "partial_index", "string_order".`},
	} {
		dir := project(t, strings.Replace(accepted, c.from, c.to, 1))
		r := schemagen(t, dir, "generate", "--out", "OUT")
		if r.code != 1 || !strings.Contains(r.stderr, c.want) {
			t.Errorf("%s: exit %d, want 1 and %q:\n%s", c.to, r.code, c.want, r.stderr)
		}
	}
}

// Misspelt names get a suggestion: columns, types and attributes.
func TestDidYouMean(t *testing.T) {
	for _, c := range []struct{ from, to, want string }{
		{"type = varchar(16)", "type = varchr(16)", `Unknown type "varchr". Did you mean "varchar"?`},
		{"type = uuid", "type = uiid", `Unknown type "uiid". Did you mean "uuid"?`},
		{"type = uuid", "typ = uuid", `Did you mean "type"?`},
		{`"state <> 'done'"`, `"stat <> 'done'"`, `Unknown column "stat" in table "items". Did you mean "state"?`},
	} {
		dir := project(t, strings.Replace(model, c.from, c.to, 1))
		r := schemagen(t, dir, "check")
		if r.code != 1 || !strings.Contains(r.stderr, c.want) {
			t.Errorf("%s: exit %d, want 1 and %q:\n%s", c.to, r.code, c.want, r.stderr)
		}
	}
}

// --schema takes a directory (its *.hcl files, sorted); the generated header
// names the files the DDL comes from; a file given twice is a usage error.
func TestSchemaDirectoryAndHeader(t *testing.T) {
	dir := t.TempDir()
	sdir := filepath.Join(dir, "schema")
	os.MkdirAll(sdir, 0o755)
	items := model
	other := "table \"notes\" {\n  column \"id\" {\n    type = int\n  }\n  primary_key {\n    columns = [\"id\"]\n  }\n}\n"
	os.WriteFile(filepath.Join(sdir, "b_items.hcl"), []byte(items), 0o644)
	os.WriteFile(filepath.Join(sdir, "a_notes.hcl"), []byte(other), 0o644)
	os.WriteFile(filepath.Join(sdir, "README.md"), []byte("not a schema"), 0o644)
	out := filepath.Join(dir, "out")
	run := func(args ...string) (int, string, string) {
		var o, e strings.Builder
		code := cli.Run(args, &o, &e)
		return code, o.String(), e.String()
	}
	code, _, stderr := run("generate", "--quiet", "--schema", sdir, "--out", out)
	if code != 0 {
		t.Fatalf("generate --schema DIR: exit %d\n%s", code, stderr)
	}
	pg := read(t, filepath.Join(out, "postgres/schema.sql"))
	for _, want := range []string{"-- Generated from a_notes.hcl, b_items.hcl by schemagen for postgres.", `CREATE TABLE "notes"`, `CREATE TABLE "items"`} {
		if !strings.Contains(pg, want) {
			t.Errorf("output lacks %q:\n%s", want, pg)
		}
	}
	code, stdout, _ := run("check", "--schema", sdir, "--out", out)
	if code != 0 || !strings.Contains(stdout, "up to date with "+filepath.Join(sdir, "a_notes.hcl")+", "+filepath.Join(sdir, "b_items.hcl")+": ") {
		t.Errorf("check --schema DIR: exit %d\n%s", code, stdout)
	}

	single := project(t, model)
	os.Rename(filepath.Join(single, "schema.hcl"), filepath.Join(single, "model.hcl"))
	code, _, stderr = run("generate", "--quiet", "--schema", filepath.Join(single, "model.hcl"), "--out", filepath.Join(single, "g"))
	if code != 0 {
		t.Fatal(stderr)
	}
	if got := read(t, filepath.Join(single, "g/tidb/schema.sql")); !strings.HasPrefix(got, "-- Generated from model.hcl by schemagen for tidb. Do not edit:\n-- change model.hcl and run") {
		t.Errorf("header:\n%s", got[:200])
	}

	code, _, stderr = run("check", "--schema", sdir, "--schema", filepath.Join(sdir, "a_notes.hcl"), "--out", out)
	if code != 2 || !strings.Contains(stderr, "names "+filepath.Join(sdir, "a_notes.hcl")+" twice") || strings.Contains(stderr, "Duplicate") {
		t.Errorf("a file given twice: exit %d\n%s", code, stderr)
	}
	empty := t.TempDir()
	if code, _, stderr := run("check", "--schema", empty); code != 2 || !strings.Contains(stderr, "holds no *.hcl files") {
		t.Errorf("an empty directory: exit %d\n%s", code, stderr)
	}
}

// The check diff is minimal: one changed line gives one - and one + line.
func TestCheckDiffIsMinimal(t *testing.T) {
	dir := project(t, model)
	if r := schemagen(t, dir, "generate", "--out", "OUT"); r.code != 0 {
		t.Fatal(r.stderr)
	}
	os.WriteFile(filepath.Join(dir, "schema.hcl"), []byte(strings.Replace(model, "varchar(16)", "varchar(20)", 1)), 0o644)
	r := schemagen(t, dir, "check", "--out", "OUT")
	if r.code != 1 {
		t.Fatalf("exit %d\n%s", r.code, r.stderr)
	}
	var minus, plus []string
	for _, l := range strings.Split(r.stdout, "\n") {
		switch {
		case strings.HasPrefix(l, "---"), strings.HasPrefix(l, "+++"):
		case strings.HasPrefix(l, "-"):
			minus = append(minus, l)
		case strings.HasPrefix(l, "+"):
			plus = append(plus, l)
		}
	}
	if len(minus) != 2 || len(plus) != 2 { // one line in each dialect's file
		t.Errorf("diff is not minimal: -%v +%v\n%s", minus, plus, r.stdout)
	}
}

// explain shows a column's type exactly as the SQL has it.
func TestExplainShowsExactType(t *testing.T) {
	src := strings.Replace(model, "  primary_key {", "  column \"at\" {\n    type = timestamp\n  }\n  column \"at6\" {\n    type = timestamp(6)\n  }\n  primary_key {", 1)
	dir := project(t, src)
	r := schemagen(t, dir, "explain", "--dialect", "tidb", "items")
	for _, want := range []string{"column at: timestamp as DATETIME (", "; exactly DATETIME(3)", "column at6: timestamp as DATETIME (", "; exactly DATETIME(6)", "column id: uuid as CHAR(36)\n"} {
		if !strings.Contains(r.stdout, want) {
			t.Errorf("explain lacks %q:\n%s", want, r.stdout)
		}
	}
	if r := schemagen(t, dir, "generate", "--quiet", "--out", "OUT"); r.code != 0 {
		t.Fatal(r.stderr)
	}
	if sql := read(t, filepath.Join(dir, "generated/tidb/schema.sql")); !strings.Contains(sql, "`at` DATETIME(3) NOT NULL") || !strings.Contains(sql, "`at6` DATETIME(6) NOT NULL") {
		t.Errorf("the SQL does not have the types explain names:\n%s", sql)
	}
}

// erd draws the schema; its document, once it exists, is kept current by
// generate and checked by check like generated/.
func TestERD(t *testing.T) {
	dir := project(t, model)
	r := schemagen(t, dir, "erd")
	if r.code != 0 || !strings.HasPrefix(r.stdout, "erDiagram\n  items {\n    uuid id PK\n") {
		t.Fatalf("erd: exit %d\n%s%s", r.code, r.stdout, r.stderr)
	}
	if r := schemagen(t, dir, "erd", "--format", "dot", "items"); r.code != 0 || !strings.HasPrefix(r.stdout, "digraph schema {") {
		t.Errorf("erd --format dot items: exit %d\n%s", r.code, r.stdout)
	}
	if r := schemagen(t, dir, "erd", "itemz"); r.code != 1 || !strings.Contains(r.stderr, `The schema has no table "itemz". Did you mean "items"?`) {
		t.Errorf("erd of an unknown table: exit %d\n%s", r.code, r.stderr)
	}
	if r := schemagen(t, dir, "erd", "--out", "x.md", "items"); r.code != 2 {
		t.Errorf("erd --out with tables: exit %d", r.code)
	}

	doc := filepath.Join(dir, "erd.md")
	if r := schemagen(t, dir, "erd", "--out", doc); r.code != 0 {
		t.Fatal(r.stderr)
	}
	if r := schemagen(t, dir, "generate", "--out", "OUT", "--erd", doc); r.code != 0 || !strings.Contains(r.stdout, "wrote "+doc) {
		t.Fatalf("generate: exit %d\n%s%s", r.code, r.stdout, r.stderr)
	}
	if r := schemagen(t, dir, "check", "--out", "OUT", "--erd", doc); r.code != 0 {
		t.Fatalf("check: exit %d\n%s%s", r.code, r.stdout, r.stderr)
	}
	// A new column makes the diagram stale too.
	grown := strings.Replace(model, "  primary_key {", "  column \"note\" {\n    type = text\n  }\n  primary_key {", 1)
	os.WriteFile(filepath.Join(dir, "schema.hcl"), []byte(grown), 0o644)
	r = schemagen(t, dir, "check", "--out", "OUT", "--erd", doc)
	if r.code != 1 || !strings.Contains(r.stdout, "+++ "+doc+" (from ") || !strings.Contains(r.stdout, "+    text note\n") || !strings.Contains(r.stderr, "3 generated file(s) are stale") {
		t.Errorf("check after a new column: exit %d\n%s%s", r.code, r.stdout, r.stderr)
	}
	if r := schemagen(t, dir, "generate", "--quiet", "--out", "OUT", "--erd", doc); r.code != 0 {
		t.Fatal(r.stderr)
	}
	if !strings.Contains(read(t, doc), "    text note\n") {
		t.Error("generate did not rewrite the diagram")
	}
	// Without the document, check does not ask for one.
	os.Remove(doc)
	if r := schemagen(t, dir, "check", "--out", "OUT", "--erd", doc); r.code != 0 {
		t.Errorf("check without a diagram: exit %d\n%s", r.code, r.stdout)
	}
}

// The repository keeps its diagram in docs/erd.md, current with schema.hcl,
// and README shows the same diagram.
func TestRepositoryERD(t *testing.T) {
	var out, errb strings.Builder
	code := cli.Run([]string{"check", "--schema", "../../schema.hcl", "--out", "../../generated", "--erd", "../../docs/erd.md"}, &out, &errb)
	if code != 0 {
		t.Fatalf("check of the repository: exit %d (run `go run ./cmd/schemagen generate`)\n%s%s", code, out.String(), errb.String())
	}
	block := func(path string) string {
		s := read(t, path)
		_, rest, ok := strings.Cut(s, "```mermaid\n")
		body, _, ok2 := strings.Cut(rest, "```")
		if !ok || !ok2 {
			t.Fatalf("%s has no mermaid block", path)
		}
		return body
	}
	if block("../../README.md") != block("../../docs/erd.md") {
		t.Error("README.md's diagram differs from docs/erd.md; copy the mermaid block over")
	}
}

// Unsupported SQL in a CHECK is named at its place in the file.
func TestUnsupportedSQLIsNamedInPlace(t *testing.T) {
	for _, c := range []struct{ expr, want, caret string }{
		{"CASE state WHEN 'new' THEN 1 ELSE 0 END = 1", "the simple CASE x WHEN v is not part of portable expressions", "^^^^"},
		{"CAST(state AS text) <> ''", "CAST is not part of portable expressions", "^^^^"},
		{"state IN (SELECT 1)", "subqueries are not allowed", "^^^^^^"},
		{"doc->>'k' = 'v'", "the JSON operator ->> is not portable", "^^^"},
		{"char_length(state) < 1.5e3", "exponent notation (1.5e3) is not portable; write the number out: 1500", "^^^^^"},
	} {
		src := strings.Replace(model, "state IN ('new', 'done')", c.expr, 1)
		dir := project(t, src)
		r := schemagen(t, dir, "--color", "never", "check")
		line := strings.Count(src[:strings.Index(src, c.expr)], "\n") + 1
		if r.code != 1 || !strings.Contains(r.stderr, fmt.Sprintf("schema.hcl:%d:", line)) || !strings.Contains(strings.ToLower(r.stderr), strings.ToLower(c.want)) || !strings.Contains(r.stderr, " "+c.caret+"\n") {
			t.Errorf("%s: exit %d, want %q at line %d:\n%s", c.expr, r.code, c.want, line, r.stderr)
		}
	}
}

// A deferrable foreign key's warning is acknowledged the same way; a foreign
// key cannot be skipped in one dialect.
func TestAcceptDeferrableForeignKey(t *testing.T) {
	fk := "table \"parent\" {\n  column \"id\" {\n    type = int\n  }\n  primary_key {\n    columns = [\"id\"]\n  }\n}\n" +
		"table \"child\" {\n  column \"p\" {\n    type = int\n  }\n  foreign_key \"child_p_fk\" {\n    columns     = [\"p\"]\n    ref_table   = \"parent\"\n    ref_columns = [\"id\"]\n    deferrable  = true\nBLOCK  }\n}\n"
	dir := project(t, strings.Replace(fk, "BLOCK", "", 1))
	if r := schemagen(t, dir, "generate", "--out", "OUT"); r.code != 0 || !strings.Contains(r.stderr, "Deferrable foreign key left out (tidb)") {
		t.Fatalf("exit %d\n%s", r.code, r.stderr)
	}
	dir = project(t, strings.Replace(fk, "BLOCK", "    tidb {\n      accept = [\"deferrable\"]\n    }\n", 1))
	if r := schemagen(t, dir, "generate", "--out", "OUT"); r.code != 0 || r.stderr != "" {
		t.Fatalf("accepted: exit %d\n%s", r.code, r.stderr)
	}
	if r := schemagen(t, dir, "explain", "--dialect", "tidb"); !strings.Contains(r.stdout, "DEFERRABLE left out") {
		t.Errorf("explain no longer shows the lowering:\n%s", r.stdout)
	}
	dir = project(t, strings.Replace(fk, "BLOCK", "    tidb {\n      skip = true\n    }\n", 1))
	// A foreign key may be left out of one dialect (import writes that for
	// a key only one live database has); explain says so.
	if r := schemagen(t, dir, "generate"); r.code != 0 {
		t.Errorf("skip on a foreign key: exit %d\n%s", r.code, r.stderr)
	} else if r := schemagen(t, dir, "explain", "--dialect", "tidb"); !strings.Contains(r.stdout, "child_p_fk") {
		t.Errorf("explain does not show the foreign key left out:\n%s", r.stdout)
	}
	dir = project(t, strings.Replace(strings.Replace(fk, "    deferrable  = true\n", "", 1), "BLOCK", "    tidb {\n      accept = [\"deferrable\"]\n    }\n", 1))
	if r := schemagen(t, dir, "check"); r.code != 1 || !strings.Contains(r.stderr, `Foreign key "child_p_fk" accepts "deferrable" in tidb, but it has no deferrable = true.`) {
		t.Errorf("needless accept: exit %d\n%s", r.code, r.stderr)
	}
}
