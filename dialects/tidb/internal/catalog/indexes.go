// Package catalog reads from TiDB's catalog what Atlas's inspection does
// not, for import.
package catalog

import (
	"context"
	"fmt"
	"strconv"
	"strings"

	"ariga.io/atlas/sql/schema"

	"github.com/schemagen/schemagen/dialects"
)

func ident(s string) string { return "`" + strings.ReplaceAll(s, "`", "``") + "`" }

// Indexes reads each index's statement as
// TiDB's catalog gives it (prefix lengths, expressions, DESC), and
// INVISIBLE (the model's visible = false, read from Atlas's inspection).
func Indexes(ctx context.Context, conn schema.ExecQuerier) (map[[2]string]dialects.IndexCatalog, error) {
	rows, err := conn.QueryContext(ctx, `SELECT TABLE_NAME, INDEX_NAME, NON_UNIQUE, COALESCE(COLUMN_NAME, ''), COALESCE(SUB_PART, 0), COALESCE(EXPRESSION, ''), COALESCE(COLLATION, 'A'), IS_VISIBLE
FROM INFORMATION_SCHEMA.STATISTICS WHERE TABLE_SCHEMA = DATABASE() AND INDEX_NAME <> 'PRIMARY'
ORDER BY TABLE_NAME, INDEX_NAME, SEQ_IN_INDEX`)
	if err != nil {
		return nil, fmt.Errorf("tidb: reading indexes: %w", err)
	}
	defer rows.Close()
	type index struct {
		unique, invisible bool
		parts             []string
	}
	var keys [][2]string
	byKey := map[[2]string]*index{}
	for rows.Next() {
		var table, name, column, expression, order, visible string
		var nonUnique, prefix int
		if err := rows.Scan(&table, &name, &nonUnique, &column, &prefix, &expression, &order, &visible); err != nil {
			return nil, err
		}
		k := [2]string{table, name}
		x := byKey[k]
		if x == nil {
			x = &index{unique: nonUnique == 0, invisible: strings.EqualFold(visible, "NO")}
			byKey[k] = x
			keys = append(keys, k)
		}
		part := "(" + expression + ")"
		if column != "" {
			part = ident(column)
			if prefix > 0 {
				part += "(" + strconv.Itoa(prefix) + ")"
			}
		}
		if order == "D" {
			part += " DESC"
		}
		x.parts = append(x.parts, part)
	}
	if err := rows.Err(); err != nil {
		return nil, err
	}
	out := make(map[[2]string]dialects.IndexCatalog, len(keys))
	for _, k := range keys {
		x := byKey[k]
		c := dialects.IndexCatalog{Statement: "CREATE " + map[bool]string{true: "UNIQUE "}[x.unique] + "INDEX " + ident(k[1]) + " ON " + ident(k[0]) + " (" + strings.Join(x.parts, ", ") + ")"}
		if x.invisible {
			// The model's visible = false (dialects.IndexFacts).
			c.Statement += " INVISIBLE"
		}
		out[k] = c
	}
	return out, nil
}
