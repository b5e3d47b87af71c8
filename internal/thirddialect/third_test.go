// Package thirddialect_test shows that a dialect added to the registry goes
// through generate, migrate's dialect lookup and migrate lint without a
// change to shared code: toy is TiDB's rules under another name and URL
// scheme.
package thirddialect_test

import (
	"bytes"
	"testing"

	"github.com/schemagen/schemagen/dialects/all"
	"github.com/schemagen/schemagen/dialects/tidb"
	"github.com/schemagen/schemagen/internal/atlasconf"
	"github.com/schemagen/schemagen/internal/gen"
	"github.com/schemagen/schemagen/internal/migration"
	"github.com/schemagen/schemagen/internal/synth"
)

type toy struct{ tidb.Dialect }

func (toy) Name() string      { return "toy" }
func (toy) Schemes() []string { return []string{"toy"} }

func init() { all.Register(toy{}) }

func TestToyGenerates(t *testing.T) {
	r := gen.CompileSource("toy.hcl", synth.Model(3))
	if r.Failed() {
		t.Fatal(r.Diags)
	}
	got, want := r.Outputs["toy"], r.Outputs["tidb"]
	if got == nil || want == nil {
		t.Fatalf("outputs for %v, want toy and tidb", keys(r.Outputs))
	}
	if !bytes.Equal(got.SQL, want.SQL) || len(got.SQL) == 0 {
		t.Errorf("toy's DDL differs from TiDB's, whose rules it has:\n%s\n----\n%s", got.SQL, want.SQL)
	}
	if _, ok := r.Files()[gen.Path("toy")]; !ok {
		t.Errorf("no %s among the files generate writes: %v", gen.Path("toy"), keys(r.Files()))
	}
}

func TestToyTargets(t *testing.T) {
	src := []byte(`
env "by_url" {
  url = "toy://u@db.example:4000/app"
  migration {
    dir = "file://migrations/a"
  }
}
env "by_src" {
  src = "file://generated/toy/schema.sql"
  migration {
    dir = "file://migrations/b"
  }
}
env "toy" {
  migration {
    dir = "file://migrations/c"
  }
}
env "other" {
  url = "mysql://u@db.example:4000/app"
  migration {
    dir = "file://migrations/d"
  }
}
`)
	cfg, diags := atlasconf.Parse("atlas.hcl", src, nil)
	if diags.HasErrors() {
		t.Fatal(diags)
	}
	targets, err := migration.Targets(cfg, []string{"by_url", "by_src", "toy", "other"})
	if err != nil {
		t.Fatal(err)
	}
	want := []string{"toy", "toy", "toy", "tidb"}
	for i, tg := range targets {
		if tg.Dialect.Name() != want[i] {
			t.Errorf("env %s: dialect %s, want %s", tg.Env.Name, tg.Dialect.Name(), want[i])
		}
	}
	if d := all.ForScheme("toy"); d == nil || d.Name() != "toy" {
		t.Errorf("all.ForScheme(toy) = %v", d)
	}
}

func TestRegisterRefusesTakenNames(t *testing.T) {
	for _, d := range []interface{ Name() string }{toy{}, renamed{}} {
		func() {
			defer func() {
				if recover() == nil {
					t.Errorf("Register(%s) again: no panic", d.Name())
				}
			}()
			switch d := d.(type) {
			case toy:
				all.Register(d)
			case renamed:
				all.Register(d)
			}
		}()
	}
}

// renamed has a name of its own but TiDB's URL schemes.
type renamed struct{ tidb.Dialect }

func (renamed) Name() string { return "renamed" }

func keys[V any](m map[string]V) []string {
	var out []string
	for k := range m {
		out = append(out, k)
	}
	return out
}
