package gen_test

import (
	"context"
	"database/sql"
	"fmt"
	"maps"
	"slices"
	"strings"
	"testing"

	"ariga.io/atlas/sql/migrate"

	"github.com/schemagen/schemagen/dialects/postgres"
	"github.com/schemagen/schemagen/dialects/tidb"
	"github.com/schemagen/schemagen/internal/dbtest"
	"github.com/schemagen/schemagen/internal/gen"
)

// The seeds are the two hand-written migrations schema.hcl replaces
// (testdata/seeds, copied from the project's shared seeds). These tests build
// one database from a seed and another from generated/, in the seed's own
// dialect, and compare what the databases report about the seed's tables:
// columns, types, nullability, defaults, constraint and index names and
// definitions, as each database normalises them.

var (
	tidbSeedTables     = []string{"knowledge_space_profile_revisions", "knowledge_space_profile_heads", "knowledge_space_profile_backfills"}
	postgresSeedTables = []string{"sources", "source_credential_backfills", "source_secret_lifecycle_refs"}
)

// statements returns the generated statements for which keep is true.
func statements(t *testing.T, dialect string, keep func(string) bool) string {
	t.Helper()
	stmts, err := migrate.Stmts(string(mustRead(t, "../../generated/"+gen.Path(dialect))))
	if err != nil {
		t.Fatal(err)
	}
	var out []string
	for _, s := range stmts {
		if keep(s.Text) {
			out = append(out, s.Text)
		}
	}
	return strings.Join(out, "\n")
}

func TestTiDBSeedMatchesGenerated(t *testing.T) {
	t.Parallel()
	fromSeed, fromModel := dbtest.TiDB(t), dbtest.TiDB(t)
	// The seed needs knowledge_spaces, which an earlier migration created.
	// It was created with TiDB's default collation, which the seed's keys
	// to it need (exact_strings gives the generated one its own).
	apply(t, fromSeed, []byte(strings.ReplaceAll(statements(t, tidb.Name, func(s string) bool {
		return strings.Contains(s, "CREATE TABLE `knowledge_spaces`")
	}), " COLLATE utf8mb4_0900_bin", "")))
	apply(t, fromSeed, mustRead(t, "testdata/seeds/0018_versioned_space_profiles.tidb.sql"))
	apply(t, fromModel, mustRead(t, "../../generated/"+gen.Path(tidb.Name)))
	compareCatalogs(t, describeTiDB(t, fromSeed.DB), describeTiDB(t, fromModel.DB))
}

func TestPostgresSeedMatchesGenerated(t *testing.T) {
	t.Parallel()
	fromSeed, fromModel := dbtest.Postgres(t), dbtest.Postgres(t)
	// Before the seed, sources had no credential_ref and none of the indexes
	// the seed adds.
	seedAdds := []string{`"sources_credential_ref_uq"`, `"sources_credential_backfill_discovery_idx"`, `"sources_space_id_uq"`}
	apply(t, fromSeed, []byte(statements(t, postgres.Name, func(s string) bool {
		if strings.Contains(s, `CREATE TABLE "knowledge_spaces"`) || strings.Contains(s, `CREATE TABLE "sources"`) {
			return true
		}
		return strings.Contains(s, `ON "sources"`) && !slices.ContainsFunc(seedAdds, func(n string) bool { return strings.Contains(s, n) })
	})))
	apply(t, fromSeed, []byte(`ALTER TABLE "sources" DROP COLUMN "credential_ref"`))
	apply(t, fromSeed, mustRead(t, "testdata/seeds/0014_source_credential_refs.postgres.sql"))
	apply(t, fromModel, mustRead(t, "../../generated/"+gen.Path(postgres.Name)))
	compareCatalogs(t, describePostgres(t, fromSeed.DB), describePostgres(t, fromModel.DB))
}

func compareCatalogs(t *testing.T, seed, model map[string]string) {
	t.Helper()
	if len(seed) < 20 {
		t.Fatalf("the seed database reports only %d objects", len(seed))
	}
	for _, k := range slices.Sorted(maps.Keys(seed)) {
		if got, ok := model[k]; !ok {
			t.Errorf("generated DDL lacks %s: %s", k, seed[k])
		} else if got != seed[k] {
			t.Errorf("%s differs:\n  seed:      %s\n  generated: %s", k, seed[k], got)
		}
	}
	for _, k := range slices.Sorted(maps.Keys(model)) {
		if _, ok := seed[k]; !ok && !domainCheck(k) {
			t.Errorf("generated DDL adds %s: %s", k, model[k])
		}
	}
}

// domainCheck reports whether catalog key k is a CHECK the dialects add by
// default where one database takes values the other refuses (the value
// domains of dialects.Domain, and uuid_check's): the hand-written
// migrations lack them by design.
func domainCheck(k string) bool {
	return (strings.HasPrefix(k, "constraint ") || strings.HasPrefix(k, "check ")) &&
		slices.ContainsFunc([]string{"_range_ck", "_finite_ck", "_bool_ck", "_uuid_ck"}, func(s string) bool { return strings.HasSuffix(k, s) })
}

func collect(t *testing.T, db *sql.DB, into map[string]string, query string, args ...any) {
	t.Helper()
	rows, err := db.QueryContext(context.Background(), query, args...)
	if err != nil {
		t.Fatalf("%v\n%s", err, query)
	}
	defer rows.Close()
	for rows.Next() {
		var key, def string
		if err := rows.Scan(&key, &def); err != nil {
			t.Fatal(err)
		}
		into[key] = def
	}
	if err := rows.Err(); err != nil {
		t.Fatal(err)
	}
}

func describePostgres(t *testing.T, db *sql.DB) map[string]string {
	t.Helper()
	m := map[string]string{}
	tables := "'" + strings.Join(postgresSeedTables, "', '") + "'"
	collect(t, db, m, `
		SELECT 'column ' || c.relname || '.' || a.attname,
		       format_type(a.atttypid, a.atttypmod) || CASE WHEN a.attnotnull THEN ' NOT NULL' ELSE '' END
		       || coalesce(' DEFAULT ' || pg_get_expr(d.adbin, d.adrelid), '')
		FROM pg_attribute a
		JOIN pg_class c ON c.oid = a.attrelid
		LEFT JOIN pg_attrdef d ON d.adrelid = a.attrelid AND d.adnum = a.attnum
		WHERE c.relnamespace = 'public'::regnamespace AND c.relkind = 'r' AND a.attnum > 0 AND NOT a.attisdropped
		  AND c.relname IN (`+tables+`)`)
	collect(t, db, m, `
		SELECT 'constraint ' || conrelid::regclass::text || '.' || conname, pg_get_constraintdef(oid)
		FROM pg_constraint
		WHERE connamespace = 'public'::regnamespace AND conrelid::regclass::text IN (`+tables+`)`)
	collect(t, db, m, `
		SELECT 'index ' || tablename || '.' || indexname, indexdef
		FROM pg_indexes WHERE schemaname = 'public' AND tablename IN (`+tables+`)`)
	return m
}

func describeTiDB(t *testing.T, db *sql.DB) map[string]string {
	t.Helper()
	m := map[string]string{}
	tables := "'" + strings.Join(tidbSeedTables, "', '") + "'"
	collect(t, db, m, `
		SELECT CONCAT('column ', table_name, '.', column_name),
		       CONCAT(column_type, IF(is_nullable = 'NO', ' NOT NULL', ''), IFNULL(CONCAT(' DEFAULT ', column_default), ''))
		FROM information_schema.columns
		WHERE table_schema = DATABASE() AND table_name IN (`+tables+`)`)
	collect(t, db, m, `
		SELECT CONCAT('check ', table_name, '.', constraint_name), check_clause
		FROM information_schema.tidb_check_constraints
		WHERE constraint_schema = DATABASE() AND table_name IN (`+tables+`)`)
	// The seed leaves its foreign keys unnamed, so they, and the indexes TiDB
	// makes for them, are compared by definition.
	fkNames := map[string]string{}
	collect(t, db, fkNames, `
		SELECT CONCAT(table_name, '.', constraint_name), '' FROM information_schema.referential_constraints
		WHERE constraint_schema = DATABASE() AND table_name IN (`+tables+`)`)
	collect(t, db, m, `
		SELECT CONCAT('foreign key ', k.table_name, ' (', GROUP_CONCAT(k.column_name ORDER BY k.ordinal_position), ') REFERENCES ',
		              k.referenced_table_name, ' (', GROUP_CONCAT(k.referenced_column_name ORDER BY k.ordinal_position), ')'),
		       CONCAT('ON DELETE ', r.delete_rule, ' ON UPDATE ', r.update_rule)
		FROM information_schema.key_column_usage k
		JOIN information_schema.referential_constraints r
		  ON r.constraint_schema = k.constraint_schema AND r.table_name = k.table_name AND r.constraint_name = k.constraint_name
		WHERE k.table_schema = DATABASE() AND k.table_name IN (`+tables+`)
		GROUP BY k.table_name, k.constraint_name, k.referenced_table_name, r.delete_rule, r.update_rule`)
	indexes := map[string]string{}
	collect(t, db, indexes, `
		SELECT CONCAT(table_name, '.', index_name), CONCAT(IF(non_unique = 0, 'UNIQUE ', ''), '(', GROUP_CONCAT(column_name ORDER BY seq_in_index), ')')
		FROM information_schema.statistics
		WHERE table_schema = DATABASE() AND table_name IN (`+tables+`)
		GROUP BY table_name, index_name, non_unique`)
	for k, def := range indexes {
		if _, isFK := fkNames[k]; isFK {
			// TiDB adds an index for a foreign key only when no index starts
			// with its columns when the key is created: whether it exists
			// depends on statement order, not on meaning. Compare it only
			// when no other index covers the key.
			table, _, _ := strings.Cut(k, ".")
			cols := strings.TrimPrefix(def, "UNIQUE ")
			covered := false
			for other, odef := range indexes {
				_, otherFK := fkNames[other]
				if !otherFK && strings.HasPrefix(other, table+".") && strings.HasPrefix(strings.TrimPrefix(odef, "UNIQUE "), strings.TrimSuffix(cols, ")")) {
					covered = true
				}
			}
			if !covered {
				m[fmt.Sprintf("foreign key index %s %s", table, def)] = def
			}
			continue
		}
		m["index "+k] = def
	}
	return m
}
