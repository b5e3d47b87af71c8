package importer_test

import (
	"context"
	"os"
	"regexp"
	"strings"
	"testing"

	"github.com/schemagen/schemagen/compiler"
	"github.com/schemagen/schemagen/internal/dbtest"
	"github.com/schemagen/schemagen/internal/gen"
	"github.com/schemagen/schemagen/internal/importer"
	"github.com/schemagen/schemagen/internal/testproject"
)

func TestMain(m *testing.M) { dbtest.Main(m) }

// TestRoundTripRepository generates the repository's schema, applies it to
// fresh databases, imports from both, and generates again: the files are
// byte-identical.
func TestRoundTripRepository(t *testing.T) {
	src, err := os.ReadFile("../../schema.hcl")
	if err != nil {
		t.Fatal(err)
	}
	first, pg, ti := applyBoth(t, src)
	regenerate(t, first, pg.URL, ti.URL)
}

// applyBoth compiles src and applies its DDL to fresh databases of both
// dialects.
func applyBoth(t *testing.T, src []byte) (*gen.Result, *dbtest.DB, *dbtest.DB) {
	t.Helper()
	first := gen.CompileSource("schema.hcl", src)
	if first.Failed() {
		t.Fatal(first.Diags)
	}
	pg, ti := dbtest.Postgres(t), dbtest.TiDB(t)
	testproject.RunSQL(t, pg, first.Outputs["postgres"].SQL)
	testproject.RunSQL(t, ti, first.Outputs["tidb"].SQL)
	return first, pg, ti
}

// regenerate imports urls, compiles the model under first's file name (the
// generated header names it) and fails t where a dialect's generated file
// differs from first's.
func regenerate(t *testing.T, first *gen.Result, urls ...string) (*importer.Result, []byte) {
	t.Helper()
	r, err := importer.Import(context.Background(), urls, nil)
	if err != nil {
		t.Fatal(err)
	}
	imported := compiler.Write(r.Schema, r.Notes)
	second := gen.CompileSource("schema.hcl", imported)
	if second.Failed() {
		t.Fatalf("the imported model does not compile: %v\n%s", second.Diags, imported)
	}
	for _, d := range []string{"postgres", "tidb"} {
		want, got := string(first.Outputs[d].SQL), string(second.Outputs[d].SQL)
		if got != want {
			t.Errorf("%s: generated again from the model imported from %s differs at %s", d, redactedScheme(urls[0]), testproject.FirstDiff(want, got))
		}
	}
	t.Cleanup(func() {
		if t.Failed() {
			t.Logf("summary:\n%s\nimported:\n%s", strings.Join(r.Summary, "\n"), imported)
		}
	})
	return r, imported
}

// redactedScheme is the scheme of a URL, to say which came first.
func redactedScheme(u string) string {
	scheme, _, _ := strings.Cut(u, ":")
	return scheme + " first"
}

// TestRoundTripRepositorySettings round-trips the repository's schema with
// each dialect setting at its default and switched off, alone and all at
// once: what a setting adds (uuid_check's CHECKs on TiDB, the value-domain
// CHECKs, exact_strings' collation) is read back as the setting, not as
// CHECKs or types of one dialect, and generate gives the same files.
func TestRoundTripRepositorySettings(t *testing.T) {
	src, err := os.ReadFile("../../schema.hcl")
	if err != nil {
		t.Fatal(err)
	}
	// The model without its own dialect block: every setting at its default.
	body := regexp.MustCompile(`(?s)dialect "tidb" \{.*?\n\}\n`).ReplaceAllString(string(src), "")
	if body == string(src) {
		t.Fatal("schema.hcl has no dialect \"tidb\" block to replace")
	}
	for name, blocks := range map[string]string{
		"defaults":             "",
		"uuid_check off":       "dialect \"tidb\" {\n  uuid_check = false\n}\n",
		"exact_strings off":    "dialect \"tidb\" {\n  exact_strings = false\n}\n",
		"tidb domains off":     "dialect \"tidb\" {\n  value_domains = false\n}\n",
		"postgres domains off": "dialect \"postgres\" {\n  value_domains = false\n}\n",
		"all off": "dialect \"postgres\" {\n  value_domains = false\n}\n\n" +
			"dialect \"tidb\" {\n  exact_strings = false\n  uuid_check    = false\n  value_domains = false\n}\n",
	} {
		t.Run(name, func(t *testing.T) {
			t.Parallel()
			first, pg, ti := applyBoth(t, []byte(blocks+"\n"+body))
			regenerate(t, first, pg.URL, ti.URL)
		})
	}
}
