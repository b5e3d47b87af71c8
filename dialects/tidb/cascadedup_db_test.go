package tidb_test

import (
	"context"
	"errors"
	"strings"
	"testing"

	"github.com/go-sql-driver/mysql"

	"github.com/schemagen/schemagen/dialects/tidb"
	"github.com/schemagen/schemagen/internal/dbtest"
)

// TestCascadingKeyDuplicateAtCommit shows on a real TiDB why migrate apply
// explains error 8141: inside a transaction (a data migration's file), an
// UPDATE that gives a key, which an ON UPDATE CASCADE foreign key
// references and no row refers to, a value another row holds is not
// refused at the statement, as it is without the transaction or with a
// referring row (1062); the commit fails instead, with TiDB's "assertion
// failed", and applies nothing. PostgreSQL
// refuses the statement (23505), so both stop the file (plan oracle,
// evolution 98383295347, which read 8141 as a failure of its own).
func TestCascadingKeyDuplicateAtCommit(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	db := dbtest.TiDB(t)
	for _, q := range []string{
		"CREATE TABLE p (id CHAR(1) NOT NULL PRIMARY KEY)",
		"CREATE TABLE c (id INT PRIMARY KEY, p_id CHAR(1) NULL, CONSTRAINT c_p_fk FOREIGN KEY (p_id) REFERENCES p (id) ON UPDATE CASCADE)",
		"INSERT INTO p VALUES ('a'), ('b')",
		"INSERT INTO c VALUES (1, NULL)",
	} {
		if _, err := db.Exec(q); err != nil {
			t.Fatalf("%s: %v", q, err)
		}
	}
	const update = "UPDATE p SET id = 'b' WHERE id = 'a'"
	var me *mysql.MySQLError
	if _, err := db.Exec(update); !errors.As(err, &me) || me.Number != 1062 {
		t.Errorf("without a transaction: %v, want 1062", err)
	}
	tx, err := db.BeginTx(ctx, nil)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := tx.Exec(update); err != nil {
		// TiDB reports the duplicate at the statement now: the hint
		// below is no longer needed.
		tx.Rollback()
		t.Fatalf("in a transaction: %v; TiDB used to take the statement and fail the commit (8141)", err)
	}
	err = tx.Commit()
	if !errors.As(err, &me) || me.Number != 8141 {
		t.Fatalf("commit: %v, want 8141", err)
	}
	if hint := (tidb.Dialect{}).ExplainError(err); !strings.Contains(hint, "duplicate") || !strings.Contains(hint, "nothing of the file is applied") {
		t.Errorf("hint for %v: %q", err, hint)
	}
	var n int
	if err := db.QueryRow("SELECT count(*) FROM p WHERE id IN ('a', 'b')").Scan(&n); err != nil || n != 2 {
		t.Errorf("rows a and b: %d, %v; want 2 (nothing applied)", n, err)
	}
}
