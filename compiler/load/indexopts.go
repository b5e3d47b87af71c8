package load

import (
	"slices"
	"strings"

	"github.com/hashicorp/hcl/v2"
	"github.com/zclconf/go-cty/cty"

	"github.com/schemagen/schemagen/compiler"
)

// indexOptions reads an index's include, nulls_distinct, storage and
// visible (see docs/language.md#index-options).
func (l *loader) indexOptions(idx *compiler.Index, attrs hcl.Attributes) {
	if a := attrs["include"]; a != nil {
		idx.Include, idx.IncludeRange = l.strList(a), a.Expr.Range()
		seen := map[string]bool{}
		for _, c := range idx.Include {
			if seen[c] {
				l.errorf(a.Expr.Range(), "Duplicate included column", "Index %q includes column %q twice.", idx.Name, c)
			}
			seen[c] = true
		}
	}
	if a := attrs["nulls_distinct"]; a != nil {
		idx.NullsNotDistinct, idx.NullsRange = !l.boolean(a), a.NameRange
		if idx.NullsNotDistinct && !idx.Unique {
			l.errorf(a.NameRange, "nulls_distinct without unique", "Index %q is not unique: nulls_distinct = false says how a unique index compares NULL keys; add unique = true or leave it out.", idx.Name)
		}
	}
	if a := attrs["visible"]; a != nil {
		idx.Invisible, idx.InvisibleRange = !l.boolean(a), a.NameRange
	}
	if a := attrs["storage"]; a != nil {
		idx.StorageRange = a.NameRange
		v, ok := l.value(a, cty.DynamicPseudoType, "an object")
		if !ok {
			return
		}
		if !v.Type().IsObjectType() && !v.Type().IsMapType() || v.LengthInt() == 0 {
			l.errorf(a.Expr.Range(), "Invalid storage", "storage is an object of storage parameters, such as { fillfactor = 70 }.")
			return
		}
		ranges := map[string]hcl.Range{}
		if items, diags := hcl.ExprMap(a.Expr); !diags.HasErrors() {
			for _, it := range items {
				if k, err := it.Key.Value(nil); err == nil && k.Type() == cty.String {
					ranges[k.AsString()] = it.Value.Range()
				}
			}
		}
		for it := v.ElementIterator(); it.Next(); {
			k, e := it.Element()
			name := k.AsString()
			rng, ok := ranges[name]
			if !ok {
				rng = a.Expr.Range()
			}
			var val string
			switch {
			case e.IsNull() || !e.IsKnown():
			case e.Type() == cty.Bool:
				val = map[bool]string{true: "true", false: "false"}[e.True()]
			case e.Type() == cty.Number && e.AsBigFloat().IsInt():
				val = e.AsBigFloat().Text('f', 0)
			}
			if val == "" || name != strings.ToLower(name) {
				l.errorf(rng, "Invalid storage parameter", "Storage parameter %q of index %q must be a lower-case name with a whole number or true / false.", name, idx.Name)
				continue
			}
			idx.Storage = append(idx.Storage, compiler.StorageParam{Name: name, Value: val, Range: rng})
		}
		slices.SortFunc(idx.Storage, func(x, y compiler.StorageParam) int { return strings.Compare(x.Name, y.Name) })
	}
}
