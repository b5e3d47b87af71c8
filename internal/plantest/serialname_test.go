package plantest_test

import (
	"context"
	"strings"
	"testing"

	"github.com/schemagen/schemagen/dialects"
	"github.com/schemagen/schemagen/dialects/all"
	"github.com/schemagen/schemagen/internal/dbtest"
	"github.com/schemagen/schemagen/internal/plantest"
)

// TestSerialSequenceName: a serial whose sequence PostgreSQL named
// <t>_<c>_seq1 (the table rebuilt while its renamed backup still owns the
// first sequence, as Authelia's V0002 does) is the serial a fresh database
// makes as <t>_<c>_seq: the one comparison (migrate diff's proof, drift,
// the oracle, the histories' replay) finds nothing, where it found the
// column an integer with a default and a sequence to make (failed before).
// A column whose nextval default draws from a sequence it does not own is
// no serial and still differs.
func TestSerialSequenceName(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	d := all.Get("postgres").(dialects.Atlas)
	run := func(db *dbtest.DB, stmts ...string) {
		t.Helper()
		for _, s := range stmts {
			if _, err := db.ExecContext(ctx, s); err != nil {
				t.Fatalf("%s: %v", s, err)
			}
		}
	}
	fresh := dbtest.New(t, "postgres")
	run(fresh, `CREATE TABLE totp (id serial PRIMARY KEY, name text)`)

	rebuilt := dbtest.New(t, "postgres")
	run(rebuilt, `CREATE TABLE totp (id serial PRIMARY KEY, name text)`,
		`ALTER TABLE totp RENAME TO _bkp_totp`,
		`ALTER TABLE _bkp_totp RENAME CONSTRAINT totp_pkey TO _bkp_totp_pkey`,
		`CREATE TABLE totp (id serial PRIMARY KEY, name text)`,
		`INSERT INTO totp (name) SELECT name FROM _bkp_totp`,
		`DROP TABLE _bkp_totp`)
	var seq string
	if err := rebuilt.QueryRowContext(ctx, `SELECT pg_get_serial_sequence('totp', 'id')`).Scan(&seq); err != nil || seq != "public.totp_id_seq1" {
		t.Fatalf("the rebuilt table's sequence is %q (%v), want public.totp_id_seq1", seq, err)
	}
	if diff, err := plantest.Compare(ctx, d, rebuilt.DB, fresh.DB); err != nil || diff != "" {
		t.Errorf("a serial whose sequence is totp_id_seq1 differs from a fresh one (%v):\n%s", err, diff)
	}

	shared := dbtest.New(t, "postgres")
	run(shared, `CREATE SEQUENCE ids`, `CREATE TABLE totp (id integer NOT NULL DEFAULT nextval('ids') PRIMARY KEY, name text)`)
	if diff, err := plantest.Compare(ctx, d, shared.DB, fresh.DB); err != nil || !strings.Contains(diff, "serial") {
		t.Errorf("a column drawing from a sequence it does not own compares as a serial (%v): %q", err, diff)
	}
}
