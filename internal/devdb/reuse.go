package devdb

import (
	"context"
	"database/sql"
	"fmt"
	"strings"
)

// Emptiable reports whether the databases of the server at serverURL can be
// emptied for reuse (Empty): PostgreSQL's, where creating a database copies
// its template (about half a second here) and emptying one drops its
// schemas (milliseconds). A TiDB database is made and dropped by one DDL
// job each, while emptying it takes a job per table: with six tables,
// about four times as long (measured on a busy 2-core machine: CREATE and
// DROP DATABASE 3.1 s, six DROP TABLEs 11.6 s), before any check that it
// is clean.
func Emptiable(serverURL string) bool {
	u, err := parseURL(serverURL)
	if err != nil {
		return false
	}
	d, err := dialectOfScheme(u)
	return err == nil && d.DevServer() == Postgres
}

// cleanState is what a PostgreSQL database holds, as a text that two
// databases share when both are clean: the number of rows of every catalog
// a schema change can add to (tables and columns, types, functions,
// triggers, constraints, comments, casts, policies, publications, ...), its
// extensions and schemas by name, its settings and the owner, privileges
// and comment of its public schema. (Only the initial privileges of
// public, which pg_dump reads, are left out: a schema made again has
// none.)
const cleanState = `SELECT concat_ws(' | ',
  (SELECT string_agg(nspname, ',' ORDER BY nspname) FROM pg_namespace),
  (SELECT string_agg(extname || ' ' || extversion, ',' ORDER BY extname) FROM pg_extension),
  (SELECT pg_get_userbyid(nspowner) || ' ' || coalesce(nspacl::text, '') FROM pg_namespace WHERE nspname = 'public'),
  (SELECT coalesce(obj_description(oid, 'pg_namespace'), '') FROM pg_namespace WHERE nspname = 'public'),
  (SELECT count(*) FROM pg_db_role_setting s JOIN pg_database d ON d.oid = s.setdatabase WHERE d.datname = current_database()),
  (SELECT count(*) FROM pg_class), (SELECT count(*) FROM pg_attribute), (SELECT count(*) FROM pg_attrdef),
  (SELECT count(*) FROM pg_type), (SELECT count(*) FROM pg_proc), (SELECT count(*) FROM pg_constraint),
  (SELECT count(*) FROM pg_index), (SELECT count(*) FROM pg_trigger), (SELECT count(*) FROM pg_event_trigger),
  (SELECT count(*) FROM pg_rewrite), (SELECT count(*) FROM pg_sequence), (SELECT count(*) FROM pg_enum),
  (SELECT count(*) FROM pg_description), (SELECT count(*) FROM pg_depend), (SELECT count(*) FROM pg_cast),
  (SELECT count(*) FROM pg_operator), (SELECT count(*) FROM pg_opclass), (SELECT count(*) FROM pg_collation),
  (SELECT count(*) FROM pg_conversion), (SELECT count(*) FROM pg_language), (SELECT count(*) FROM pg_policy),
  (SELECT count(*) FROM pg_publication), (SELECT count(*) FROM pg_foreign_data_wrapper),
  (SELECT count(*) FROM pg_foreign_server), (SELECT count(*) FROM pg_default_acl),
  (SELECT count(*) FROM pg_statistic_ext), (SELECT count(*) FROM pg_largeobject_metadata),
  (SELECT count(*) FROM pg_ts_config), (SELECT count(*) FROM pg_ts_dict), (SELECT count(*) FROM pg_init_privs WHERE objoid <> 'public'::regnamespace))`

// CleanState reads the state of the PostgreSQL database at dbURL that Empty
// must restore: a new database's, read once when it is made.
func CleanState(ctx context.Context, dbURL string) (string, error) {
	db, err := Open(dbURL)
	if err != nil {
		return "", err
	}
	defer db.Close()
	var s string
	err = db.QueryRowContext(ctx, cleanState).Scan(&s)
	return s, err
}

// Empty ends the other sessions on the PostgreSQL database at dbURL, drops
// every schema a user made (public with all it holds, its extensions with
// it), makes public again with the owner, privileges and comment clean gives it (as
// CleanState read it) and reports whether the database is then as clean as
// a new one: its CleanState equals clean. On false or an error the database
// is not to be reused.
func Empty(ctx context.Context, dbURL, clean string) (bool, error) {
	db, err := Open(dbURL)
	if err != nil {
		return false, err
	}
	defer db.Close()
	conn, err := db.Conn(ctx)
	if err != nil {
		return false, err
	}
	defer conn.Close()
	if _, err := conn.ExecContext(ctx, `SELECT pg_terminate_backend(pid) FROM pg_stat_activity WHERE datname = current_database() AND pid <> pg_backend_pid()`); err != nil {
		return false, err
	}
	rows, err := conn.QueryContext(ctx, `SELECT quote_ident(nspname) FROM pg_namespace WHERE nspname NOT LIKE 'pg\_%' AND nspname <> 'information_schema'`)
	if err != nil {
		return false, err
	}
	var schemas []string
	for rows.Next() {
		var s string
		if err := rows.Scan(&s); err != nil {
			rows.Close()
			return false, err
		}
		schemas = append(schemas, s)
	}
	if err := errorsOf(rows); err != nil {
		return false, err
	}
	want := strings.Fields(strings.SplitN(strings.SplitN(clean, " | ", 4)[2], " ", 2)[0])
	if len(want) == 0 {
		return false, fmt.Errorf("empty: no owner of public in the clean state")
	}
	stmts := []string{}
	if len(schemas) > 0 {
		stmts = append(stmts, "DROP SCHEMA "+strings.Join(schemas, ", ")+" CASCADE")
	}
	stmts = append(stmts, "CREATE SCHEMA public AUTHORIZATION "+quoteIdent(want[0]))
	grants, err := schemaGrants(clean, want[0])
	if err != nil {
		return false, err
	}
	stmts = append(stmts, grants...)
	if c := strings.SplitN(clean, " | ", 5)[3]; c != "" {
		stmts = append(stmts, "COMMENT ON SCHEMA public IS '"+strings.ReplaceAll(c, "'", "''")+"'")
	}
	for _, s := range stmts {
		if _, err := conn.ExecContext(ctx, s); err != nil {
			return false, fmt.Errorf("empty: %s: %w", s, err)
		}
	}
	var now string
	if err := conn.QueryRowContext(ctx, cleanState).Scan(&now); err != nil {
		return false, err
	}
	return now == clean, nil
}

// schemaGrants are the GRANTs that give a new public schema owned by owner
// the privileges clean records ({grantee=UC/grantor,...}; no grantee is
// PUBLIC), but the owner's own, which it has.
func schemaGrants(clean, owner string) ([]string, error) {
	f := strings.SplitN(clean, " | ", 4)[2]
	_, acl, _ := strings.Cut(f, " ")
	acl = strings.Trim(acl, "{}")
	if acl == "" {
		return nil, nil
	}
	var out []string
	for _, item := range strings.Split(acl, ",") {
		grantee, rest, ok := strings.Cut(item, "=")
		privs, _, _ := strings.Cut(rest, "/")
		if !ok {
			return nil, fmt.Errorf("empty: privilege %q", item)
		}
		grantee = strings.Trim(grantee, `"`)
		if grantee == owner {
			continue
		}
		to := "PUBLIC"
		if grantee != "" {
			to = quoteIdent(grantee)
		}
		var names []string
		for _, p := range privs {
			switch p {
			case 'U':
				names = append(names, "USAGE")
			case 'C':
				names = append(names, "CREATE")
			default:
				return nil, fmt.Errorf("empty: privilege %q", item)
			}
		}
		out = append(out, "GRANT "+strings.Join(names, ", ")+" ON SCHEMA public TO "+to)
	}
	return out, nil
}

func quoteIdent(s string) string { return `"` + strings.ReplaceAll(s, `"`, `""`) + `"` }

func errorsOf(rows *sql.Rows) error {
	defer rows.Close()
	return rows.Err()
}
