// Package atlasconf reads atlas.hcl, the project configuration that schemagen
// shares with the Atlas CLI: `env` blocks with src, dev, url and a migration
// directory, `variable` blocks, and getenv().
package atlasconf

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"

	"github.com/hashicorp/hcl/v2"
	"github.com/hashicorp/hcl/v2/hclparse"
	"github.com/zclconf/go-cty/cty"
	"github.com/zclconf/go-cty/cty/function"
)

// DefaultFile is the configuration file's name.
const DefaultFile = "atlas.hcl"

// Env is one `env` block.
type Env struct {
	Name string
	// Src is the generated schema file (file:// stripped), relative to the
	// configuration's directory.
	Src string
	// Dev is the dev database URL; empty means the embedded dev database.
	Dev string
	// URL is the target database URL; empty when not configured.
	URL string
	// Dir is the migration directory (file:// stripped).
	Dir   string
	Range hcl.Range
}

// Config is a parsed atlas.hcl.
type Config struct {
	Path  string
	Envs  []*Env
	Files map[string]*hcl.File
}

// Env returns the env with the given name, or nil.
func (c *Config) Env(name string) *Env {
	for _, e := range c.Envs {
		if e.Name == name {
			return e
		}
	}
	return nil
}

// Names returns the envs' names in file order.
func (c *Config) Names() []string {
	var names []string
	for _, e := range c.Envs {
		names = append(names, e.Name)
	}
	return names
}

// Load reads path. vars override variables' defaults, as `--var name=value`
// does for the Atlas CLI.
func Load(path string, vars map[string]string) (*Config, hcl.Diagnostics) {
	src, err := os.ReadFile(path)
	if err != nil {
		return nil, hcl.Diagnostics{{Severity: hcl.DiagError, Summary: "Cannot read the project configuration", Detail: err.Error()}}
	}
	return Parse(path, src, vars)
}

var topSchema = &hcl.BodySchema{Blocks: []hcl.BlockHeaderSchema{
	{Type: "env", LabelNames: []string{"name"}},
	{Type: "variable", LabelNames: []string{"name"}},
}}

// Parse reads an atlas.hcl held in memory. Blocks and attributes that only
// the Atlas CLI uses are accepted and ignored.
func Parse(path string, src []byte, vars map[string]string) (*Config, hcl.Diagnostics) {
	p := hclparse.NewParser()
	f, diags := p.ParseHCL(src, path)
	cfg := &Config{Path: path, Files: p.Files()}
	if diags.HasErrors() {
		return cfg, diags
	}
	content, _, d := f.Body.PartialContent(topSchema)
	diags = append(diags, d...)
	ctx := &hcl.EvalContext{Functions: map[string]function.Function{"getenv": getenv}}
	values := map[string]cty.Value{}
	for _, b := range content.Blocks {
		if b.Type != "variable" {
			continue
		}
		name := b.Labels[0]
		attrs, _, d := b.Body.PartialContent(&hcl.BodySchema{Attributes: []hcl.AttributeSchema{{Name: "default"}, {Name: "type"}}})
		diags = append(diags, d...)
		if v, ok := vars[name]; ok {
			values[name] = cty.StringVal(v)
			continue
		}
		a := attrs.Attributes["default"]
		if a == nil {
			diags = append(diags, &hcl.Diagnostic{Severity: hcl.DiagError, Summary: "Variable without a value", Detail: fmt.Sprintf("Variable %q has no default; pass --var %s=VALUE.", name, name), Subject: b.DefRange.Ptr()})
			continue
		}
		v, d := a.Expr.Value(ctx)
		diags = append(diags, d...)
		values[name] = v
	}
	for name := range vars {
		if _, ok := values[name]; !ok {
			diags = append(diags, &hcl.Diagnostic{Severity: hcl.DiagError, Summary: "Unknown variable", Detail: fmt.Sprintf("--var %s: %s declares no variable %q.", name, path, name)})
		}
	}
	ctx.Variables = map[string]cty.Value{"var": cty.ObjectVal(values)}
	base := filepath.Dir(path)
	for _, b := range content.Blocks {
		if b.Type != "env" {
			continue
		}
		e, d := decodeEnv(ctx, base, b)
		diags = append(diags, d...)
		if prev := cfg.Env(e.Name); prev != nil {
			diags = append(diags, &hcl.Diagnostic{Severity: hcl.DiagError, Summary: "Duplicate env", Detail: fmt.Sprintf("env %q is already declared at %s.", e.Name, prev.Range), Subject: b.DefRange.Ptr()})
			continue
		}
		cfg.Envs = append(cfg.Envs, e)
	}
	if len(cfg.Envs) == 0 && !diags.HasErrors() {
		diags = append(diags, &hcl.Diagnostic{Severity: hcl.DiagError, Summary: "No env", Detail: fmt.Sprintf("%s declares no env block.", path)})
	}
	return cfg, diags
}

var envSchema = &hcl.BodySchema{
	Attributes: []hcl.AttributeSchema{{Name: "src"}, {Name: "dev"}, {Name: "url"}},
	Blocks:     []hcl.BlockHeaderSchema{{Type: "migration"}},
}

func decodeEnv(ctx *hcl.EvalContext, base string, b *hcl.Block) (*Env, hcl.Diagnostics) {
	e := &Env{Name: b.Labels[0], Range: b.DefRange}
	content, _, diags := b.Body.PartialContent(envSchema)
	str := func(a *hcl.Attribute) string {
		if a == nil {
			return ""
		}
		v, d := a.Expr.Value(ctx)
		diags = append(diags, d...)
		if d.HasErrors() {
			return ""
		}
		if v.IsNull() {
			return ""
		}
		if v.Type() != cty.String {
			diags = append(diags, &hcl.Diagnostic{Severity: hcl.DiagError, Summary: "Invalid value", Detail: fmt.Sprintf("%s must be a string.", a.Name), Subject: a.Expr.Range().Ptr()})
			return ""
		}
		return v.AsString()
	}
	fileURL := func(a *hcl.Attribute) string {
		s := str(a)
		if s == "" {
			return ""
		}
		path, ok := strings.CutPrefix(s, "file://")
		if !ok {
			diags = append(diags, &hcl.Diagnostic{Severity: hcl.DiagError, Summary: "Invalid path", Detail: fmt.Sprintf("%s must be a file:// URL, such as \"file://generated/postgres/schema.sql\".", a.Name), Subject: a.Expr.Range().Ptr()})
			return ""
		}
		if !filepath.IsAbs(path) {
			path = filepath.Join(base, path)
		}
		return path
	}
	e.Src = fileURL(content.Attributes["src"])
	e.Dev = str(content.Attributes["dev"])
	e.URL = str(content.Attributes["url"])
	for _, m := range content.Blocks {
		attrs, _, d := m.Body.PartialContent(&hcl.BodySchema{Attributes: []hcl.AttributeSchema{{Name: "dir"}}})
		diags = append(diags, d...)
		e.Dir = fileURL(attrs.Attributes["dir"])
	}
	if e.Dir == "" && !diags.HasErrors() {
		diags = append(diags, &hcl.Diagnostic{Severity: hcl.DiagError, Summary: "No migration directory", Detail: fmt.Sprintf("env %q needs migration { dir = \"file://migrations/%s\" }.", e.Name, e.Name), Subject: b.DefRange.Ptr()})
	}
	return e, diags
}

// getenv is the Atlas CLI's getenv: the variable's value, or "".
var getenv = function.New(&function.Spec{
	Params: []function.Parameter{{Name: "name", Type: cty.String}},
	Type:   function.StaticReturnType(cty.String),
	Impl: func(args []cty.Value, _ cty.Type) (cty.Value, error) {
		return cty.StringVal(os.Getenv(args[0].AsString())), nil
	},
})
