// Package catalog reads from PostgreSQL's catalog what Atlas's inspection
// does not, for import: indexes as PostgreSQL prints them (indexes.go);
// serial columns and the sequences no column owns, domains, sequences,
// functions, triggers and partitions as raw objects, and the NOT NULL
// CHECKs a column's nullability comes from (objects.go).
//
// It stands alone because it is catalog SQL and nothing else: the dialect
// turns what it reads into the model, and no other part runs these
// queries.
package catalog

import (
	"context"
	"fmt"
	"strings"

	"ariga.io/atlas/sql/schema"

	"github.com/schemagen/schemagen/dialects"
)

// Indexes reads what Atlas does not read of
// every index of the current schema (a part's collation other than its column's, the storage
// parameters, a unique constraint's DEFERRABLE, whether the index is
// valid), and the statement PostgreSQL prints for it, which keeps them.
func Indexes(ctx context.Context, conn schema.ExecQuerier) (map[[2]string]dialects.IndexCatalog, error) {
	rows, err := conn.QueryContext(ctx, `SELECT t.relname, quote_ident(t.relname), i.relname, x.indisvalid AND x.indisready, pg_get_indexdef(x.indexrelid), quote_ident(n.nspname),
  coalesce(quote_ident(k.conname), ''), coalesce(k.contype::text, ''), coalesce(pg_get_constraintdef(k.oid), ''), coalesce(k.condeferrable, false), coalesce(k.condeferred, false),
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
		var table, quoted, name, def, nsp, con, kind, condef, options, collations string
		var valid, deferrable, deferred bool
		if err := rows.Scan(&table, &quoted, &name, &valid, &def, &nsp, &con, &kind, &condef, &deferrable, &deferred, &options, &collations); err != nil {
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
			c.Statement = "ALTER TABLE " + quoted + " ADD CONSTRAINT " + con + " " + condef
		} else {
			// PostgreSQL names the table with its schema: the model's
			// statements name none.
			c.Statement = strings.Replace(strings.Replace(def, " ON ONLY "+nsp+".", " ON ONLY ", 1), " ON "+nsp+".", " ON ", 1)
		}
		if collations != "" {
			c.Own = append(c.Own, collations)
		}
		if options != "" && con != "" {
			// An index's storage parameters are the model's storage
			// (dialects.IndexFacts); a unique constraint has none.
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
