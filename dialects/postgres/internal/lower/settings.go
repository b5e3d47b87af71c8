package lower

import (
	"fmt"

	"github.com/hashicorp/hcl/v2"

	"github.com/schemagen/schemagen/compiler"
	"github.com/schemagen/schemagen/dialects"
)

// settings are the `dialect "postgres" { ... }` settings of a model.
type settings struct {
	// ValueDomains adds the CHECKs of Rules.Domains, which keep columns to
	// the values TiDB stores too (true unless the model says false, as an
	// import of a database without them does).
	ValueDomains bool
}

// decodeSettings reads the dialect block.
func decodeSettings(s *compiler.Schema) (settings, hcl.Diagnostics) {
	set := settings{ValueDomains: true}
	var diags hcl.Diagnostics
	ds := s.Dialect[Name]
	if ds == nil {
		return set, nil
	}
	for name, a := range ds.Attrs {
		switch name {
		case "value_domains":
			v, d := dialects.BoolSetting(Name, a)
			if d != nil {
				diags = append(diags, d)
				continue
			}
			set.ValueDomains = v
		default:
			diags = append(diags, &hcl.Diagnostic{Severity: hcl.DiagError, Summary: "Unsupported setting (postgres)", Detail: fmt.Sprintf("The postgres dialect has no setting %q; it has value_domains.", name), Subject: a.NameRange.Ptr()})
		}
	}
	return set, diags
}

// Settings implements sqltext.SettingsLowerer.
func (l *lowerer) Settings() map[string]any {
	return map[string]any{"value_domains": l.set.ValueDomains}
}
