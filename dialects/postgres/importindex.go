package postgres

import (
	"context"
	"fmt"
	"strings"

	"ariga.io/atlas/sql/postgres"
	"ariga.io/atlas/sql/schema"

	"github.com/schemagen/schemagen/dialects"
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
			var cols []string
			for _, c := range a.Columns {
				cols = append(cols, Ident(c.Name))
			}
			f.Own = append(f.Own, "INCLUDE ("+strings.Join(cols, ", ")+")")
		case *postgres.IndexNullsDistinct:
			if !a.V {
				f.Own = append(f.Own, "NULLS NOT DISTINCT")
			}
		case *postgres.Constraint:
			// Foreign keys that rest on the index are listed too.
			f.Unique = f.Unique || a.IsUnique() && a.N == idx.Name
		}
	}
	return f
}

// InspectAdvice implements dialects.Importer: a role that can read no schema
// of its search_path.
func (Dialect) InspectAdvice(msg string) string {
	if strings.Contains(msg, "search_path was not found") {
		return "there is no schema this role can read (grant it USAGE on the schema and SELECT on its tables): "
	}
	return ""
}

// ReadIndexes implements dialects.IndexReader: what Atlas does not read of
// an index (a part's collation other than its column's, the storage
// parameters, a unique constraint's DEFERRABLE, whether the index is
// valid), and the statement PostgreSQL prints for it, which keeps them.
func (Dialect) ReadIndexes(ctx context.Context, conn schema.ExecQuerier) (map[[2]string]dialects.IndexCatalog, error) {
	rows, err := conn.QueryContext(ctx, `SELECT t.relname, i.relname, x.indisvalid AND x.indisready, pg_get_indexdef(x.indexrelid), quote_ident(n.nspname),
  coalesce(k.conname, ''), coalesce(k.contype::text, ''), coalesce(pg_get_constraintdef(k.oid), ''), coalesce(k.condeferrable, false), coalesce(k.condeferred, false),
  coalesce(array_to_string(i.reloptions, ', '), ''),
  coalesce((SELECT string_agg(quote_ident(a.attname) || ' COLLATE ' || quote_ident(co.collname), ', ' ORDER BY s)
    FROM generate_series(0, x.indnkeyatts - 1) s JOIN pg_attribute a ON a.attrelid = x.indrelid AND a.attnum = x.indkey[s]
    JOIN pg_collation co ON co.oid = x.indcollation[s]
    WHERE x.indcollation[s] <> a.attcollation), '')
FROM pg_index x JOIN pg_class i ON i.oid = x.indexrelid JOIN pg_class t ON t.oid = x.indrelid JOIN pg_namespace n ON n.oid = t.relnamespace
LEFT JOIN pg_constraint k ON k.conindid = x.indexrelid AND k.conrelid = x.indrelid AND k.contype IN ('p', 'u', 'x')
WHERE t.relnamespace = current_schema()::regnamespace`)
	if err != nil {
		return nil, fmt.Errorf("postgres: reading indexes: %w", err)
	}
	defer rows.Close()
	out := map[[2]string]dialects.IndexCatalog{}
	for rows.Next() {
		var table, name, def, nsp, con, kind, condef, options, collations string
		var valid, deferrable, deferred bool
		if err := rows.Scan(&table, &name, &valid, &def, &nsp, &con, &kind, &condef, &deferrable, &deferred, &options, &collations); err != nil {
			return nil, err
		}
		var c dialects.IndexCatalog
		if con != "" {
			if options != "" {
				// pg_get_constraintdef leaves the index's storage parameters
				// out; they come before DEFERRABLE.
				at := strings.LastIndex(condef, " DEFERRABLE")
				if at < 0 {
					at = len(condef)
				}
				condef = condef[:at] + " WITH (" + options + ")" + condef[at:]
			}
			c.Statement = "ALTER TABLE " + Ident(table) + " ADD CONSTRAINT " + Ident(con) + " " + condef
		} else {
			// PostgreSQL names the table with its schema: the model's
			// statements name none.
			c.Statement = strings.Replace(strings.Replace(def, " ON ONLY "+nsp+".", " ON ONLY ", 1), " ON "+nsp+".", " ON ", 1)
		}
		if collations != "" {
			c.Own = append(c.Own, collations)
		}
		if options != "" {
			c.Own = append(c.Own, "WITH ("+options+")")
		}
		switch {
		case deferrable && deferred:
			c.Own = append(c.Own, "DEFERRABLE INITIALLY DEFERRED")
		case deferrable:
			c.Own = append(c.Own, "DEFERRABLE")
		}
		if !valid {
			c.Invalid = "it is INVALID (a CREATE INDEX CONCURRENTLY that failed, or one not yet built): PostgreSQL neither uses nor enforces it; drop it, or REINDEX it to keep it"
		}
		out[[2]string{table, name}] = c
	}
	return out, rows.Err()
}
