package postgres

import (
	"context"
	"strconv"
	"strings"

	"ariga.io/atlas/sql/postgres"
	"ariga.io/atlas/sql/schema"

	"github.com/schemagen/schemagen/dialects"
	"github.com/schemagen/schemagen/dialects/postgres/internal/atlasdrv"
	"github.com/schemagen/schemagen/dialects/postgres/internal/catalog"
)

// ModelTerms implements dialects.Importer: PostgreSQL's types are the
// model's terms where the dialects differ.
func (Dialect) ModelTerms() bool { return true }

// ReadIndex implements dialects.Importer: operator classes other than the
// default, a method other than btree, the predicate, whether a UNIQUE
// constraint owns the index, and its INCLUDE and NULLS NOT DISTINCT, which
// the model has no construct for.
func (Dialect) ReadIndex(idx *schema.Index) dialects.IndexFacts {
	var f dialects.IndexFacts
	var nulls []string
	for i, p := range idx.Parts {
		for _, a := range p.Attrs {
			if oc, ok := a.(*postgres.IndexOpClass); ok && !oc.Default {
				if f.OpClasses == nil {
					f.OpClasses = make([]string, len(idx.Parts))
				}
				f.OpClasses[i] = oc.Name
			}
			// NULLs sort last ascending and first descending unless the
			// index says otherwise, which the model cannot.
			if np, ok := a.(*postgres.IndexColumnProperty); ok && (np.NullsFirst && !p.Desc || np.NullsLast && p.Desc) {
				part := "expression"
				if p.C != nil {
					part = Ident(p.C.Name)
				}
				nulls = append(nulls, part+map[bool]string{true: " NULLS FIRST", false: " NULLS LAST"}[np.NullsFirst])
			}
		}
	}
	if len(nulls) > 0 {
		f.Own = append(f.Own, strings.Join(nulls, ", "))
	}
	for _, a := range idx.Attrs {
		switch a := a.(type) {
		case *postgres.IndexType:
			if !strings.EqualFold(a.T, "btree") {
				f.Using = strings.ToLower(a.T)
			}
		case *postgres.IndexPredicate:
			f.Predicate, f.HasPredicate = a.P, true
		case *postgres.IndexInclude:
			for _, c := range a.Columns {
				f.Include = append(f.Include, c.Name)
			}
		case *postgres.IndexNullsDistinct:
			f.NullsNotDistinct = !a.V
		case *atlasdrv.IndexParams:
			f.Storage, f.Own = storageFacts(a.Params, f.Own)
		case *postgres.Constraint:
			// Foreign keys that rest on the index are listed too.
			f.Unique = f.Unique || a.IsUnique() && a.N == idx.Name
		}
	}
	return f
}

// storageFacts reads storage parameters (reloptions, name=value) as the
// model's storage: each a whole number, true or false (PostgreSQL keeps
// on and off as written: read as true and false). Any other value keeps
// them all the index's own clause.
func storageFacts(params []string, own []string) ([][2]string, []string) {
	var out [][2]string
	for _, p := range params {
		k, v, _ := strings.Cut(p, "=")
		switch strings.ToLower(v) {
		case "on", "true":
			v = "true"
		case "off", "false":
			v = "false"
		default:
			if _, err := strconv.ParseInt(v, 10, 64); err != nil {
				return nil, append(own, "WITH ("+strings.Join(params, ", ")+")")
			}
		}
		out = append(out, [2]string{k, v})
	}
	return out, own
}

// InspectAdvice implements dialects.Importer: a role that can read no schema
// of its search_path.
func (Dialect) InspectAdvice(msg string) string {
	if strings.Contains(msg, "search_path was not found") {
		return "there is no schema this role can read (grant it USAGE on the schema and SELECT on its tables): "
	}
	return ""
}

// ReadIndexes implements dialects.IndexReader (catalog.Indexes).
func (Dialect) ReadIndexes(ctx context.Context, conn schema.ExecQuerier) (map[[2]string]dialects.IndexCatalog, error) {
	return catalog.Indexes(ctx, conn)
}
