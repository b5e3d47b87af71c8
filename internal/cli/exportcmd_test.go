package cli_test

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// exported is the test model with its exports declared.
const exported = model + `
export "json" {
  path = "api/schema.json"
}

export "typescript" {
  path = "web/src/schema.ts"
}
`

// export prints the model as JSON or TypeScript, or writes it with --out.
func TestExportCommand(t *testing.T) {
	dir := project(t, model)
	r := schemagen(t, dir, "export")
	if r.code != 0 || !strings.HasPrefix(r.stdout, "{\n  \"format\": \"schemagen-export\",\n  \"version\": 1,\n") || !strings.Contains(r.stdout, `"name": "items_open_idx"`) {
		t.Fatalf("export: exit %d\n%s%s", r.code, r.stdout, r.stderr)
	}
	r = schemagen(t, dir, "export", "--format", "typescript")
	if r.code != 0 || !strings.Contains(r.stdout, "export interface ItemsRow {\n  id: string;\n  state: string;\n  doc: unknown;\n}") || !strings.Contains(r.stdout, "export interface Database {\n  items: ItemsTable;\n}") {
		t.Fatalf("export --format typescript: exit %d\n%s%s", r.code, r.stdout, r.stderr)
	}
	if r := schemagen(t, dir, "export", "--format", "yaml"); r.code != 2 || !strings.Contains(r.stderr, `invalid value "yaml" for --format: valid values are json, typescript`) {
		t.Errorf("export --format yaml: exit %d\n%s", r.code, r.stderr)
	}
	out := filepath.Join(dir, "out", "schema.ts")
	if r := schemagen(t, dir, "export", "--format", "typescript", "--out", out); r.code != 0 || r.stdout != "wrote "+out+"\n" {
		t.Fatalf("export --out: exit %d\n%s%s", r.code, r.stdout, r.stderr)
	}
	if !strings.HasPrefix(read(t, out), "// Generated from schema.hcl by schemagen export") {
		t.Error("export --out wrote something else")
	}
}

// generate writes the exports the schema declares, beside its own files;
// check compares them and prints the diff of a stale one.
func TestExportKeptCurrent(t *testing.T) {
	dir := project(t, exported)
	jsonPath, tsPath := filepath.Join(dir, "api", "schema.json"), filepath.Join(dir, "web", "src", "schema.ts")
	r := schemagen(t, dir, "generate", "--out", "OUT", "--erd", filepath.Join(dir, "erd.md"))
	if r.code != 0 || !strings.Contains(r.stdout, "wrote "+jsonPath) || !strings.Contains(r.stdout, "wrote "+tsPath) {
		t.Fatalf("generate: exit %d\n%s%s", r.code, r.stdout, r.stderr)
	}
	if r := schemagen(t, dir, "check", "--out", "OUT", "--erd", filepath.Join(dir, "erd.md")); r.code != 0 {
		t.Fatalf("check: exit %d\n%s%s", r.code, r.stdout, r.stderr)
	}
	// The same export from the command.
	if r := schemagen(t, dir, "export"); r.stdout != read(t, jsonPath) {
		t.Error("generate's JSON export differs from schemagen export's")
	}
	// A new column makes both exports stale.
	grown := strings.Replace(exported, "  primary_key {", "  column \"note\" {\n    type = text\n    null = true\n  }\n  primary_key {", 1)
	os.WriteFile(filepath.Join(dir, "schema.hcl"), []byte(grown), 0o644)
	r = schemagen(t, dir, "check", "--out", "OUT", "--erd", filepath.Join(dir, "erd.md"))
	if r.code != 1 || !strings.Contains(r.stderr, "4 generated file(s) are stale") {
		t.Fatalf("check after a new column: exit %d\n%s%s", r.code, r.stdout, r.stderr)
	}
	for _, want := range []string{"--- " + jsonPath + " (on disk)", "+++ " + tsPath + " (from ", "+  note: string | null;\n", "+  note?: string | null;\n", `+          "name": "note",`} {
		if !strings.Contains(r.stdout, want) {
			t.Errorf("check's diff lacks %q:\n%s", want, r.stdout)
		}
	}
	// A failing export writes nothing: the TypeScript export's path is a
	// directory, so neither it nor any other file is replaced.
	before := map[string]string{jsonPath: read(t, jsonPath), filepath.Join(dir, "generated", "postgres", "schema.sql"): read(t, filepath.Join(dir, "generated", "postgres", "schema.sql"))}
	os.Remove(tsPath)
	os.Mkdir(tsPath, 0o755)
	r = schemagen(t, dir, "generate", "--out", "OUT", "--erd", filepath.Join(dir, "erd.md"))
	if r.code != 2 || !strings.Contains(r.stderr, "it is not a regular file") || !strings.Contains(r.stderr, "nothing was written") {
		t.Errorf("generate with an export onto a directory: exit %d\n%s%s", r.code, r.stdout, r.stderr)
	}
	for p, b := range before {
		if read(t, p) != b {
			t.Errorf("%s was written although the export failed", p)
		}
	}
	// Fixed, generate brings everything current.
	os.Remove(tsPath)
	if r := schemagen(t, dir, "generate", "--quiet", "--out", "OUT", "--erd", filepath.Join(dir, "erd.md")); r.code != 0 {
		t.Fatal(r.stderr)
	}
	if !strings.Contains(read(t, tsPath), "note?: string | null;") || !strings.Contains(read(t, jsonPath), `"name": "note"`) {
		t.Error("generate did not rewrite the exports")
	}
	if r := schemagen(t, dir, "check", "--out", "OUT", "--erd", filepath.Join(dir, "erd.md")); r.code != 0 {
		t.Errorf("check after generate: exit %d\n%s", r.code, r.stdout)
	}
}

// A bad export block is an error at its line, and nothing is written.
func TestExportBlockErrors(t *testing.T) {
	for src, want := range map[string]string{
		model + "export \"yaml\" {\n  path = \"x.yaml\"\n}\n": `schema.hcl:22:8: error: Unknown export format`,
		model + "export \"json\" {\n}\n":                      `schema.hcl:22:15: error: Missing required argument`,
		model + "export \"json\" {\n  path = \"a.json\"\n}\nexport \"typescript\" {\n  path = \"./a.json\"\n}\n": `schema.hcl:26:10: error: Duplicate export`,
	} {
		dir := project(t, src)
		r := schemagen(t, dir, "generate", "--out", "OUT", "--color", "never")
		if r.code != 1 || !strings.Contains(r.stderr, want) {
			t.Errorf("exit %d, want %q:\n%s", r.code, want, r.stderr)
		}
		if _, err := os.Stat(filepath.Join(dir, "generated")); err == nil {
			t.Error("generate wrote files for an invalid model")
		}
	}
}

// An export onto a file generate writes otherwise is refused, and nothing
// is written.
func TestExportOntoGeneratedFile(t *testing.T) {
	dir := project(t, model+"export \"json\" {\n  path = \"generated/tidb/schema.sql\"\n}\n")
	r := schemagen(t, dir, "generate", "--out", "OUT", "--erd", filepath.Join(dir, "erd.md"))
	if r.code != 2 || !strings.Contains(r.stderr, "is also the generated file") {
		t.Errorf("exit %d\n%s%s", r.code, r.stdout, r.stderr)
	}
	if _, err := os.Stat(filepath.Join(dir, "generated")); err == nil {
		t.Error("generate wrote files")
	}
}
