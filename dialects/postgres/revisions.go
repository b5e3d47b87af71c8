package postgres

import (
	"errors"
	"strconv"
	"strings"

	"ariga.io/atlas/sql/schema"
	"github.com/jackc/pgx/v5/pgconn"

	"github.com/schemagen/schemagen/dialects"
	"github.com/schemagen/schemagen/dialects/internal/revisions"
)

// Revisions implements dialects.Dialect: the Atlas CLI's revisions table,
// "atlas_schema_revisions"."atlas_schema_revisions", where the CLI keeps it
// for a connection that names no search_path.
func (Dialect) Revisions(conn schema.ExecQuerier) dialects.Revisions {
	return revisions.New(revisionSpec, conn)
}

// revisionTableDDL is the table the Atlas CLI creates (through Ent).
// qualified is the revisions table in its schema.
const qualified = `"` + dialects.RevisionTable + `"."` + dialects.RevisionTable + `"`

const revisionTableDDL = `CREATE TABLE IF NOT EXISTS ` + qualified + ` (` +
	`"version" character varying NOT NULL, ` +
	`"description" character varying NOT NULL, ` +
	`"type" bigint NOT NULL DEFAULT 2, ` +
	`"applied" bigint NOT NULL DEFAULT 0, ` +
	`"total" bigint NOT NULL DEFAULT 0, ` +
	`"executed_at" timestamptz NOT NULL, ` +
	`"execution_time" bigint NOT NULL, ` +
	`"error" text NULL, ` +
	`"error_stmt" text NULL, ` +
	`"hash" character varying NOT NULL, ` +
	`"partial_hashes" jsonb NULL, ` +
	`"operator_version" character varying NOT NULL, ` +
	`PRIMARY KEY ("version"))`

var revisionSpec = &revisions.Spec{
	Schema: revisions.Name,
	Ident:  Ident,
	Param:  func(n int) string { return "$" + strconv.Itoa(n) },
	Create: []string{
		`CREATE SCHEMA IF NOT EXISTS "` + dialects.RevisionTable + `"`,
		revisionTableDDL,
	},
	Exists: `SELECT to_regclass('` + qualified + `') IS NOT NULL`,
	// Exact to the microsecond, whatever the session's time zone.
	TimeIn: func(p string) string {
		return "TIMESTAMPTZ 'epoch' + CAST(" + p + " AS bigint) * INTERVAL '1 microsecond'"
	},
	TimeOut: func(c string) string { return "CAST(EXTRACT(EPOCH FROM " + c + ") * 1000000 AS bigint)" },
	JSONIn:  func(p string) string { return "CAST(CAST(" + p + " AS text) AS jsonb)" },
	JSONOut: func(c string) string { return "CAST(" + c + " AS text)" },
	Upsert: func(columns []string) string {
		set := make([]string, len(columns))
		for i, c := range columns {
			set[i] = Ident(c) + " = EXCLUDED." + Ident(c)
		}
		return `ON CONFLICT ("version") DO UPDATE SET ` + strings.Join(set, ", ")
	},
	// undefined_table; invalid_schema_name, should the schema be missing.
	Missing: func(err error) bool {
		var pe *pgconn.PgError
		return errors.As(err, &pe) && (pe.Code == "42P01" || pe.Code == "3F000")
	},
}

// CountQuery implements dialects.RowCounter.
func (Dialect) CountQuery(table, column string) string {
	q := "SELECT COUNT(*) FROM " + Ident(table)
	if column != "" {
		q += " WHERE " + Ident(column) + " IS NOT NULL"
	}
	return q
}
