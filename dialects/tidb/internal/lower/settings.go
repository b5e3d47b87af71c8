package lower

import (
	"fmt"
	"regexp"

	"github.com/hashicorp/hcl/v2"
	"github.com/zclconf/go-cty/cty"

	"github.com/schemagen/schemagen/compiler"
	"github.com/schemagen/schemagen/dialects"
)

// settings are the `dialect "tidb" { ... }` settings of a model.
type settings struct {
	// UUIDCheck adds to every uuid column a CHECK that it holds a
	// well-formed UUID, a guarantee PostgreSQL's UUID type gives by itself.
	UUIDCheck bool
	// ExactStrings gives varchar and text columns the collation
	// utf8mb4_0900_bin, which compares trailing spaces as PostgreSQL does:
	// TiDB's default utf8mb4_bin ignores them, so 'a' and 'a ' are one key.
	ExactStrings bool
	// ValueDomains adds the CHECKs of Rules.Domains, which keep columns to
	// the values PostgreSQL stores too.
	ValueDomains bool
	// Charset and Collation are the tables' own (DEFAULT CHARSET and
	// COLLATE of each CREATE TABLE), where a database imported has others
	// than the server's default; "" for the default.
	Charset, Collation string
}

// defaults are the settings of a model without a dialect "tidb" block: the
// ones under which it means the same as on PostgreSQL.
var defaults = settings{UUIDCheck: true, ExactStrings: true, ValueDomains: true}

var charsetName = regexp.MustCompile(`^[A-Za-z0-9_]+$`)

// decodeSettings reads the dialect block.
func decodeSettings(s *compiler.Schema) (settings, hcl.Diagnostics) {
	set := defaults
	var diags hcl.Diagnostics
	ds := s.Dialect[Name]
	if ds == nil {
		return set, nil
	}
	for name, a := range ds.Attrs {
		var field *bool
		switch name {
		case "uuid_check":
			field = &set.UUIDCheck
		case "exact_strings":
			field = &set.ExactStrings
		case "value_domains":
			field = &set.ValueDomains
		case "charset", "collation":
			v, d := a.Expr.Value(nil)
			if d.HasErrors() || v.IsNull() || v.Type() != cty.String || !charsetName.MatchString(v.AsString()) {
				diags = append(diags, &hcl.Diagnostic{Severity: hcl.DiagError, Summary: "Invalid setting (tidb)", Detail: fmt.Sprintf("%s must be the name of a %s of TiDB's, such as %q.", name, name, map[string]string{"charset": "utf8mb4", "collation": "utf8mb4_bin"}[name]), Subject: a.Expr.Range().Ptr()})
				continue
			}
			if name == "charset" {
				set.Charset = v.AsString()
			} else {
				set.Collation = v.AsString()
			}
			continue
		default:
			diags = append(diags, &hcl.Diagnostic{Severity: hcl.DiagError, Summary: "Unsupported setting (tidb)", Detail: fmt.Sprintf("The tidb dialect has no setting %q; it has uuid_check, exact_strings, value_domains, charset and collation.", name), Subject: a.NameRange.Ptr()})
			continue
		}
		v, d := dialects.BoolSetting(Name, a)
		if d != nil {
			diags = append(diags, d)
			continue
		}
		*field = v
	}
	return set, diags
}

// Settings implements sqltext.SettingsLowerer ("" for the server's charset
// or collation).
func (l *lowerer) Settings() map[string]any {
	return map[string]any{"uuid_check": l.set.UUIDCheck, "exact_strings": l.set.ExactStrings, "value_domains": l.set.ValueDomains, "charset": l.set.Charset, "collation": l.set.Collation}
}
