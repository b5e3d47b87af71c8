package plantest_test

import (
	"context"
	"strings"
	"testing"

	"github.com/schemagen/schemagen/dialects/all"
	"github.com/schemagen/schemagen/internal/dbtest"
	"github.com/schemagen/schemagen/internal/plantest"
	"github.com/schemagen/schemagen/internal/testproject"
)

// TestRenamedForeignKeyIndex is issue 31's: TiDB names the index it makes
// for a foreign key no index covers after the key, and keeps it when the
// key is dropped and added again under another name (TiDB has no RENAME
// CONSTRAINT), so a key renamed that way leaves a database that differs
// from a fresh one built from generated/ (TestCompareSeesForeignKeyIndexName).
// The TiDB plan renames the index with the key (RENAME INDEX, a catalog
// change) instead of building it again under the new name (ADD INDEX,
// which reads every row) and dropping the old one; the migrated databases
// equal fresh ones, on both dialects.
func TestRenamedForeignKeyIndex(t *testing.T) {
	t.Parallel()
	renamed := strings.ReplaceAll(posts, "posts_author_fk", "posts_writer_fk")
	p := testproject.New(t, users+posts)
	p.Diff("init")
	p.Generate(users + renamed)
	got := strings.Join(p.Diff("rename")["tidb"], ";\n")
	if !strings.Contains(got, "RENAME INDEX `posts_author_fk` TO `posts_writer_fk`") || strings.Contains(got, "ADD INDEX") || strings.Contains(got, "DROP INDEX") {
		t.Errorf("TiDB plan:\n%s\nwant the key's index renamed with it", got)
	}
	plantest.Replay(t, 1, users+posts, users+renamed)
}

// TestCompareSeesForeignKeyIndexName: the oracle's comparison (and so
// drift's) tells a TiDB database whose key was renamed by a drop and an
// add, keeping TiDB's index under the old name, from a fresh one.
func TestCompareSeesForeignKeyIndexName(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	base := "CREATE TABLE p (id INT PRIMARY KEY);\n"
	renamed, fresh := dbtest.New(t, "tidb"), dbtest.New(t, "tidb")
	testproject.RunSQL(t, renamed, []byte(base+`CREATE TABLE c (id INT PRIMARY KEY, p_id INT, CONSTRAINT c_p_fk FOREIGN KEY (p_id) REFERENCES p (id));
ALTER TABLE c DROP FOREIGN KEY c_p_fk;
ALTER TABLE c ADD CONSTRAINT c_parent_fk FOREIGN KEY (p_id) REFERENCES p (id);
`))
	testproject.RunSQL(t, fresh, []byte(base+"CREATE TABLE c (id INT PRIMARY KEY, p_id INT, CONSTRAINT c_parent_fk FOREIGN KEY (p_id) REFERENCES p (id));\n"))
	diff, err := plantest.Compare(ctx, all.Get("tidb"), renamed.DB, fresh.DB)
	if err != nil || !strings.Contains(diff, "c_p_fk") {
		t.Errorf("comparison: %q, %v; want the index c_p_fk named", diff, err)
	}
}

// TestCompareSeesOnUpdate: the oracle's comparison (and so drift's and
// migrate diff's) tells a TiDB column with ON UPDATE CURRENT_TIMESTAMP from
// one without, both ways: Atlas's MySQL diff reads no change there, so
// on_update set on an existing column was planned on PostgreSQL alone (plan
// oracle, evolution 97171291727).
func TestCompareSeesOnUpdate(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	with, without := dbtest.New(t, "tidb"), dbtest.New(t, "tidb")
	testproject.RunSQL(t, with, []byte("CREATE TABLE t (id INT PRIMARY KEY, at DATETIME(6) NULL ON UPDATE CURRENT_TIMESTAMP(6));\n"))
	testproject.RunSQL(t, without, []byte("CREATE TABLE t (id INT PRIMARY KEY, at DATETIME(6) NULL);\n"))
	for _, c := range []struct{ got, want *dbtest.DB }{{with, without}, {without, with}} {
		diff, err := plantest.Compare(ctx, all.Get("tidb"), c.got.DB, c.want.DB)
		if err != nil || !strings.Contains(diff, "`at`") {
			t.Errorf("comparison: %q, %v; want column at modified", diff, err)
		}
	}
}
