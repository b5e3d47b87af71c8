package migration_test

import (
	"os"
	"strings"
	"testing"

	"github.com/schemagen/schemagen/internal/testproject"
)

func TestZZTmpPlan(t *testing.T) {
	b, _ := os.ReadFile(os.Getenv("ZZ_BEFORE"))
	a, _ := os.ReadFile(os.Getenv("ZZ_AFTER"))
	p := testproject.New(t, string(b))
	st := p.Diff("init")
	for d, s := range st {
		t.Logf("%s:\n%s", d, strings.Join(s, ";\n"))
	}
	p.Generate(string(a))
	st = p.Diff("step")
	for d, s := range st {
		t.Logf("%s:\n%s", d, strings.Join(s, ";\n"))
	}
	g, _ := os.ReadFile(p.Dir + "/generated/tidb/schema.sql")
	t.Logf("generated:\n%s", g)
}
