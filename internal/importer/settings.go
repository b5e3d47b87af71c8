package importer

import (
	"slices"
	"strings"

	"github.com/hashicorp/hcl/v2"
	"github.com/zclconf/go-cty/cty"

	"github.com/schemagen/schemagen/compiler"
	"github.com/schemagen/schemagen/dialects"
	"github.com/schemagen/schemagen/internal/importer/read"
)

// settingsInferrer is declared in dialects, with the other parts of a dialect.
type settingsInferrer = dialects.SettingsInferrer

// inferSettings gives the model the dialect block of each dialect read that
// infers settings from it.
func (r *Result) inferSettings(ims ...*read.Imported) {
	for _, im := range ims {
		d := im.Dialect.Name()
		set := map[string]cty.Value{}
		for k, v := range im.Settings() {
			set[k] = v
		}
		if si, ok := im.Dialect.(settingsInferrer); ok {
			// A setting may stand for raw types read (exact_strings for a
			// collation): the notes and summary lines about those go with them.
			raw := map[*compiler.Column]string{}
			for _, t := range r.Schema.Tables {
				for _, c := range t.Columns {
					if o := c.Overrides[d]; o != nil && o.RawType != "" {
						raw[c] = t.Name
					}
				}
			}
			before := map[*compiler.Column]string{}
			for c := range raw {
				before[c] = c.Overrides[d].RawType
			}
			inferred, notes := si.InferSettings(r.Schema, im.Inspected())
			for c, table := range raw {
				if o := c.Overrides[d]; o != nil && o.RawType != "" {
					continue
				}
				stale := func(s string) bool {
					return strings.Contains(s, c.Name) && strings.Contains(strings.ToLower(s), strings.ToLower(before[c]))
				}
				r.Notes[table] = slices.DeleteFunc(r.Notes[table], stale)
				r.Summary = slices.DeleteFunc(r.Summary, stale)
			}
			for _, n := range notes {
				r.Summary = append(r.Summary, d+": "+n)
			}
			for k, v := range inferred {
				set[k] = v
			}
		}
		if len(set) == 0 {
			continue
		}
		ds := r.Schema.Dialect[d]
		if ds == nil {
			ds = &compiler.DialectSettings{Name: d, Attrs: hcl.Attributes{}}
			if r.Schema.Dialect == nil {
				r.Schema.Dialect = map[string]*compiler.DialectSettings{}
			}
			r.Schema.Dialect[d] = ds
		}
		for name, v := range set {
			ds.Attrs[name] = &hcl.Attribute{Name: name, Expr: hcl.StaticExpr(v, hcl.Range{})}
		}
	}
}
