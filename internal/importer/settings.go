package importer

import (
	"github.com/hashicorp/hcl/v2"

	"github.com/schemagen/schemagen/compiler"
	"github.com/schemagen/schemagen/dialects"
)

// settingsInferrer is declared in dialects, with the other parts of a dialect.
type settingsInferrer = dialects.SettingsInferrer

// inferSettings gives the model the dialect block of each dialect read that
// infers settings from it.
func (r *Result) inferSettings(read ...*Imported) {
	for _, im := range read {
		si, ok := im.Dialect.(settingsInferrer)
		if !ok {
			continue
		}
		d := im.Dialect.Name()
		set, notes := si.InferSettings(r.Schema)
		for _, n := range notes {
			r.Summary = append(r.Summary, d+": "+n)
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
