package postgres

import (
	"context"
	"fmt"
	"strings"

	"ariga.io/atlas/sql/schema"

	"github.com/schemagen/schemagen/dialects"
	"github.com/schemagen/schemagen/dialects/internal/stmtlex"
	"github.com/schemagen/schemagen/dialects/postgres/internal/catalog"
)

// ReadObjects implements dialects.ObjectDialect: the extensions of the
// database (plpgsql, which every database has, left out) and the views of
// its current schema, with pg_get_viewdef's text and what each reads.
func (Dialect) ReadObjects(ctx context.Context, conn schema.ExecQuerier) (*dialects.Objects, error) {
	o := &dialects.Objects{Views: map[string]string{}, ViewReads: map[string][]string{}, ViewCalls: map[string][]string{}}
	rows, err := conn.QueryContext(ctx, `SELECT extname FROM pg_extension WHERE extname <> 'plpgsql' ORDER BY extname`)
	if err != nil {
		return nil, fmt.Errorf("postgres: reading extensions: %w", err)
	}
	for rows.Next() {
		var name string
		if err := rows.Scan(&name); err != nil {
			rows.Close()
			return nil, err
		}
		o.Extensions = append(o.Extensions, name)
	}
	if err := catalog.CloseRows(rows); err != nil {
		return nil, err
	}
	rows, err = conn.QueryContext(ctx, `SELECT c.relname, pg_get_viewdef(c.oid)
FROM pg_class c JOIN pg_namespace n ON n.oid = c.relnamespace
WHERE c.relkind = 'v' AND n.nspname = current_schema()
ORDER BY c.relname`)
	if err != nil {
		return nil, fmt.Errorf("postgres: reading views: %w", err)
	}
	for rows.Next() {
		var name, def string
		if err := rows.Scan(&name, &def); err != nil {
			rows.Close()
			return nil, err
		}
		o.Views[name] = def
	}
	if err := catalog.CloseRows(rows); err != nil {
		return nil, err
	}
	// What each view reads, from the rewrite rules' dependencies.
	rows, err = conn.QueryContext(ctx, `SELECT DISTINCT v.relname, t.relname
FROM pg_class v
JOIN pg_namespace n ON n.oid = v.relnamespace
JOIN pg_rewrite r ON r.ev_class = v.oid
JOIN pg_depend d ON d.objid = r.oid AND d.classid = 'pg_rewrite'::regclass AND d.refclassid = 'pg_class'::regclass
JOIN pg_class t ON t.oid = d.refobjid AND t.oid <> v.oid
WHERE v.relkind = 'v' AND n.nspname = current_schema()
ORDER BY 1, 2`)
	if err != nil {
		return nil, fmt.Errorf("postgres: reading what views read: %w", err)
	}
	for rows.Next() {
		var view, table string
		if err := rows.Scan(&view, &table); err != nil {
			rows.Close()
			return nil, err
		}
		o.ViewReads[view] = append(o.ViewReads[view], table)
	}
	if err := catalog.CloseRows(rows); err != nil {
		return nil, err
	}
	// The functions of the database's own that each view calls.
	rows, err = conn.QueryContext(ctx, `SELECT DISTINCT v.relname, p.proname
FROM pg_class v
JOIN pg_namespace n ON n.oid = v.relnamespace
JOIN pg_rewrite r ON r.ev_class = v.oid
JOIN pg_depend d ON d.objid = r.oid AND d.classid = 'pg_rewrite'::regclass AND d.refclassid = 'pg_proc'::regclass
JOIN pg_proc p ON p.oid = d.refobjid
JOIN pg_namespace pn ON pn.oid = p.pronamespace
WHERE v.relkind = 'v' AND n.nspname = current_schema()
  AND pn.nspname NOT IN ('pg_catalog', 'information_schema')
  AND NOT EXISTS (SELECT 1 FROM pg_depend e WHERE e.classid = 'pg_proc'::regclass AND e.objid = p.oid AND e.deptype = 'e')
ORDER BY 1, 2`)
	if err != nil {
		return nil, fmt.Errorf("postgres: reading what views call: %w", err)
	}
	for rows.Next() {
		var view, fn string
		if err := rows.Scan(&view, &fn); err != nil {
			rows.Close()
			return nil, err
		}
		o.ViewCalls[view] = append(o.ViewCalls[view], fn)
	}
	if err := catalog.CloseRows(rows); err != nil {
		return nil, err
	}
	// The triggers whose function has their name (on_update's), with when
	// they fire and their function's body.
	rows, err = conn.QueryContext(ctx, `SELECT t.tgname, c.relname, t.tgtype, p.prosrc
FROM pg_trigger t
JOIN pg_class c ON c.oid = t.tgrelid
JOIN pg_namespace n ON n.oid = c.relnamespace
JOIN pg_proc p ON p.oid = t.tgfoid
WHERE NOT t.tgisinternal AND n.nspname = current_schema() AND p.proname = t.tgname AND p.pronamespace = n.oid
ORDER BY 1`)
	if err != nil {
		return nil, fmt.Errorf("postgres: reading triggers: %w", err)
	}
	o.Triggers = map[string]dialects.Trigger{}
	for rows.Next() {
		var name, table, body string
		var typ int
		if err := rows.Scan(&name, &table, &typ, &body); err != nil {
			rows.Close()
			return nil, err
		}
		o.Triggers[name] = dialects.Trigger{Table: table, Def: fmt.Sprintf("tgtype %d: %s", typ, body)}
	}
	return o, catalog.CloseRows(rows)
}

// DropTrigger implements dialects.TriggerDialect.
func (Dialect) DropTrigger(table, name string) []string {
	return []string{"DROP TRIGGER IF EXISTS " + Ident(name) + " ON " + Ident(table), "DROP FUNCTION IF EXISTS " + Ident(name) + "()"}
}

// CreatedView implements dialects.ObjectDialect. An unquoted name is read
// in lower case, as PostgreSQL reads it.
func (Dialect) CreatedView(stmt string) (string, bool) {
	tok, ok := stmtlex.CreatedView(stmtlex.Tokenize(stmt, stmtGrammar))
	if !ok {
		return "", false
	}
	if tok.Kind == stmtlex.Word {
		return strings.ToLower(tok.Text), true
	}
	return stmtlex.Unquote(tok), true
}

// CreateView implements dialects.ObjectDialect.
func (Dialect) CreateView(name, def string) string {
	return "CREATE VIEW " + Ident(name) + " AS " + strings.TrimRight(strings.TrimSpace(def), ";")
}

// DropView implements dialects.ObjectDialect.
func (Dialect) DropView(name string) string { return "DROP VIEW " + Ident(name) }

// CreateExtension implements dialects.ObjectDialect.
func (Dialect) CreateExtension(name string) string {
	return "CREATE EXTENSION IF NOT EXISTS " + Ident(name)
}

// DropExtension implements dialects.ObjectDialect.
func (Dialect) DropExtension(name string) string { return "DROP EXTENSION " + Ident(name) }
