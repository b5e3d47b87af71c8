package online

import (
	"context"
	"database/sql"
	"errors"
	"fmt"
	"strings"
	"time"

	"ariga.io/atlas/sql/postgres"
	"ariga.io/atlas/sql/schema"
	"github.com/jackc/pgx/v5/pgconn"
)

// Pre-checks, as on TiDB: above a statement that existing rows can make
// fail (a CHECK or foreign key added, NOT NULL set, a unique index built),
// a `-- schemagen:precheck` comment holds a query for those rows. migrate
// apply runs the pre-checks of a file before any of its statements, and
// --dry-run lists the rows they find. PostgreSQL rolls a failing file back
// whole, but an online plan's VALIDATE runs in the file after the one that
// added the constraint NOT VALID: the pre-check sits above the ADD, so that
// the migration stops before its first file, naming the rows, instead of
// leaving a constraint that is never validated.

// precheck is a query for the existing rows change c of table t would fail
// on, as "label: query", or "".
func precheck(t *schema.Table, c schema.Change) string {
	tbl := ident(t.Name)
	var q string
	if m, ok := c.(*schema.ModifyCheck); ok {
		c = &schema.AddCheck{C: m.To}
	}
	switch c := c.(type) {
	case *schema.AddIndex:
		if !c.I.Unique {
			return ""
		}
		var cols, notNull []string
		for _, p := range c.I.Parts {
			if p.C == nil {
				return "" // an expression key: no simple query
			}
			cols = append(cols, ident(p.C.Name))
			notNull = append(notNull, ident(p.C.Name)+" IS NOT NULL")
		}
		for _, a := range c.I.Attrs {
			if p, ok := a.(*postgres.IndexPredicate); ok {
				notNull = append(notNull, "("+p.P+")")
			}
		}
		list := strings.Join(cols, ", ")
		q = fmt.Sprintf("duplicates for unique key %s: SELECT %s, COUNT(*) AS rows FROM %s WHERE %s GROUP BY %s HAVING COUNT(*) > 1 LIMIT 10",
			c.I.Name, list, tbl, strings.Join(notNull, " AND "), list)
	case *schema.AddCheck:
		q = fmt.Sprintf("rows breaking CHECK %s: SELECT * FROM %s WHERE NOT (%s) LIMIT 10", c.C.Name, tbl, c.C.Expr)
	case *schema.AddForeignKey:
		fk := c.F
		if fk.RefTable == nil || len(fk.Columns) != len(fk.RefColumns) || len(fk.Columns) == 0 {
			return ""
		}
		var cols, notNull, match []string
		for i, col := range fk.Columns {
			name := "c." + ident(col.Name)
			cols = append(cols, name)
			notNull = append(notNull, name+" IS NOT NULL")
			match = append(match, "r."+ident(fk.RefColumns[i].Name)+" = "+name)
		}
		q = fmt.Sprintf("rows without a match for foreign key %s: SELECT %s FROM %s AS c WHERE %s AND NOT EXISTS (SELECT 1 FROM %s AS r WHERE %s) LIMIT 10",
			fk.Symbol, strings.Join(cols, ", "), tbl, strings.Join(notNull, " AND "), ident(fk.RefTable.Name), strings.Join(match, " AND "))
	case *schema.ModifyColumn:
		var cond string
		if c.Change.Is(schema.ChangeType) {
			cond, _ = convertsDifferently(t.Name, ident(c.To.Name), c.To.Name, c.From.Type.Type, c.To.Type.Type)
		}
		switch {
		case cond != "":
			q = fmt.Sprintf("values of %s.%s that PostgreSQL and TiDB convert differently: SELECT %s FROM %s WHERE %s LIMIT 10",
				t.Name, c.To.Name, ident(c.To.Name), tbl, cond)
		case c.Change.Is(schema.ChangeNull) && !c.To.Type.Null:
			q = fmt.Sprintf("NULLs in %s.%s, which becomes NOT NULL: SELECT * FROM %s WHERE %s IS NULL LIMIT 10", t.Name, c.To.Name, tbl, ident(c.To.Name))
		}
	}
	return oneLine(q)
}

// oneLine writes a pre-check on one line, as its comment directive must
// be; "" when a line break is inside a quoted text, which one line cannot
// hold.
func oneLine(q string) string {
	var b strings.Builder
	var quote byte
	for i := 0; i < len(q); i++ {
		ch := q[i]
		switch {
		case quote != 0 && ch == quote:
			quote = 0
		case quote == 0 && (ch == '\'' || ch == '"'):
			quote = ch
		case ch == '\n' || ch == '\r':
			if quote != 0 {
				return ""
			}
			ch = ' '
		}
		b.WriteByte(ch)
	}
	return b.String()
}

// Prechecks implements dialects.Online: each query is "label: query"; a
// query on something that does not exist yet (a statement of the file
// makes it) finds nothing.
func Prechecks(ctx context.Context, conn schema.ExecQuerier, queries []string) ([]string, error) {
	var out []string
	seq := time.Now().UnixNano()
	for _, pq := range queries {
		label, q, ok := strings.Cut(pq, ": ")
		if !ok {
			return nil, fmt.Errorf("pre-check %q: want LABEL: QUERY", pq)
		}
		// A text of its own each time: the session may have run the same
		// query before a statement of the migration changed the table, and
		// its cached plan would then fail (0A000).
		seq++
		rows, err := conn.QueryContext(ctx, fmt.Sprintf("/* schemagen pre-check %d */ %s", seq, q))
		// A query naming what a statement of the migration makes (a
		// column, a table, a function, an enum value: classes 42 and 22)
		// cannot run yet; the statement itself then tells.
		var pe *pgconn.PgError
		if errors.As(err, &pe) && (strings.HasPrefix(pe.Code, "42") || strings.HasPrefix(pe.Code, "22")) {
			continue
		}
		if err != nil {
			return nil, fmt.Errorf("pre-check %s: %w", label, err)
		}
		found, err := describeRows(rows)
		if err != nil {
			return nil, err
		}
		for _, f := range found {
			out = append(out, label+": "+f)
		}
	}
	return out, nil
}

// describeRows is each row as col=value, ..., then closes rows.
func describeRows(rows *sql.Rows) ([]string, error) {
	defer rows.Close()
	cols, err := rows.Columns()
	if err != nil {
		return nil, err
	}
	var out []string
	for rows.Next() {
		vals := make([]sql.NullString, len(cols))
		ptrs := make([]any, len(cols))
		for i := range vals {
			ptrs[i] = &vals[i]
		}
		if err := rows.Scan(ptrs...); err != nil {
			return nil, err
		}
		parts := make([]string, len(cols))
		for i, c := range cols {
			v := "NULL"
			if vals[i].Valid {
				v = vals[i].String
			}
			parts[i] = c + "=" + v
		}
		out = append(out, strings.Join(parts, ", "))
	}
	return out, rows.Err()
}
