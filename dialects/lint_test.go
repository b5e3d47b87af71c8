package dialects_test

import (
	"slices"
	"strconv"
	"strings"
	"testing"

	"github.com/schemagen/schemagen/dialects"
	"github.com/schemagen/schemagen/dialects/all"
)

// The lexical rules look at tokens, never inside strings or comments.
func TestLexicalFindings(t *testing.T) {
	cases := []struct {
		dialect, sql string
		want         []string // "CODE@offset"
	}{
		{"tidb", "UPDATE `t` SET `a` = 'x::y \"q\" $$' -- \"c\"::int\n WHERE `b` = 1 # \"d\"", []string{"SG104@0"}},
		{"tidb", "UPDATE `t` SET `a` = 'it\\'s ::'", []string{"SG104@0"}},
		{"tidb", "SELECT \"t\".`a` FROM `t`", []string{"SG103@7", "SG104@0"}},
		{"tidb", "UPDATE `t` SET `a` = \"plain string\"", []string{"SG104@0"}},
		{"tidb", "CREATE TABLE `t` (`uuid` CHAR(36), `b` uuid, `c` json) /* jsonb */", []string{"SG103@39"}},
		{"tidb", "CREATE INDEX `i` ON `t` ((lower(`a`))) -- WHERE", nil},
		{"postgres", `UPDATE "t" SET "a" = E'it\'s ` + "`x`" + `' /* AUTO_INCREMENT */`, []string{"SG104@0"}},
		{"postgres", `CREATE TABLE "t" ("engine" text, "charset" text, "b" "datetime")`, nil},
		{"postgres", "ALTER TABLE \"t\" ENGINE = InnoDB", []string{"SG103@16"}},
		{"postgres", `DO $body$ BEGIN PERFORM 'a'; END $body$`, []string{"SG104@0"}},
		{"postgres", "CREATE TABLE \"t\" (\"a\" int UNSIGNED, \"b\" `x`, \"c\" int unsigned)", []string{"SG103@26", "SG103@40"}},
		// Each dialect's quoting: a backslash escapes in TiDB's '...' only, #
		// starts a comment in TiDB only, an unclosed quote runs to the end.
		{"postgres", "UPDATE \"t\" SET \"a\" = 'x\\' # `y`", []string{"SG103@28", "SG104@0"}},
		{"tidb", "UPDATE `t` SET `a` = 'x\\' # `y`::int", []string{"SG104@0", "SG103@21"}},
		{"tidb", "UPDATE `t` SET `a` = 'unclosed :: $$", []string{"SG104@0", "SG103@21"}},
		// TiDB's "..." is a string with backslash escapes: this one is
		// unclosed (TiDB's parser refuses it), `b`::int is inside it.
		{"tidb", "SELECT \"a\\\" `b`::int", []string{"SG104@0", "SG103@7"}},
		{"tidb", "SELECT \"a\\\\\" `b`::int", []string{"SG103@16", "SG104@0"}},
		// Strings where TiDB's grammar wants one are never identifiers
		// (Atlas writes comments as COMMENT "...").
		{"tidb", "CREATE TABLE `t` (`a` int COMMENT \"say \\\"hi\\\" -- # it's\", `b` varchar(5) DEFAULT \"x\") COMMENT = \"t \\\"q\\\"\"", nil},
		{"tidb", "ALTER TABLE `t` MODIFY COLUMN `a` int COMMENT \"\\\"\"", nil},
		{"tidb", "CREATE TABLE \"t\" (`a` int COMMENT \"x\")", []string{"SG103@13"}},
		{"postgres", "SELECT $x$ `a` $x$, `b`, .5e`c`", []string{"SG103@20", "SG104@0"}},
		// SG107: a CHECK added with OR or AND at its top, which TiDB checks
		// the existing rows of wrongly (pingcap/tidb#71050); not one in
		// parentheses, nor a BETWEEN's AND, nor one a new table has.
		{"tidb", "ALTER TABLE `t` ADD CONSTRAINT `c` CHECK (`n` IS NULL OR `n` > 0)", []string{"SG107@54"}},
		{"tidb", "ALTER TABLE `t` ADD CONSTRAINT `c` CHECK (`a` > 0 && `b` > 0)", []string{"SG107@50"}},
		{"tidb", "ALTER TABLE `t` ADD CONSTRAINT `c` CHECK ((`n` IS NULL OR `n` > 0))", nil},
		{"tidb", "ALTER TABLE `t` ADD CONSTRAINT `c` CHECK (`n` BETWEEN 1 AND 5)", nil},
		{"tidb", "ALTER TABLE `t` ADD CONSTRAINT `c` CHECK (`n` | 1 > 0)", nil},
		{"tidb", "CREATE TABLE `t` (`n` int, CHECK (`n` IS NULL OR `n` > 0))", nil},
	}
	for _, c := range cases {
		var got []string
		for _, f := range all.Get(c.dialect).LintStmt(c.sql).Findings {
			got = append(got, f.Code+"@"+strconv.Itoa(f.Off))
		}
		if strings.Join(got, " ") != strings.Join(c.want, " ") {
			t.Errorf("%s %q: got %v, want %v", c.dialect, c.sql, got, c.want)
		}
	}
}

// A dialect reads the CHECKs (SG101) and renames of a statement from its
// tokens: not from strings or comments, nor from a column named check.
func TestLintStmtChecksAndRenames(t *testing.T) {
	type R = dialects.Rename
	cases := []struct {
		dialect, sql string
		checks       []int
		renames      []R
	}{
		{"tidb", "CREATE TABLE `t` (`a` int CHECK (`a` > 0), `check` int, CONSTRAINT `c` CHECK (`a` < 9)) -- CHECK", []int{26, 71}, nil},
		{"tidb", "INSERT INTO `t` VALUES ('CHECK')", nil, nil},
		{"tidb", "ALTER TABLE `t` RENAME AS `u`", nil, []R{{FromTable: "t", ToTable: "u"}}},
		{"tidb", "RENAME TABLE `t` TO `u`", nil, []R{{FromTable: "t", ToTable: "u"}}},
		{"tidb", "RENAME TABLE `t` TO `u`, `db`.`v` TO `w`", nil, []R{{FromTable: "t", ToTable: "u"}, {FromTable: "v", ToTable: "w"}}},
		{"tidb", "ALTER TABLE `t` CHANGE COLUMN `a` `b` int", nil, []R{{ToTable: "t", FromColumn: "a", ToColumn: "b"}}},
		// MySQL's RENAME without TO (Authelia's backup tables); a CHANGE
		// keeping the name renames nothing; clauses are read one by one.
		{"tidb", "ALTER TABLE t\n    RENAME _bkp_t", nil, []R{{FromTable: "t", ToTable: "_bkp_t"}}},
		{"tidb", "ALTER TABLE `t` CHANGE `a` `a` bigint NOT NULL, CHANGE `b` `c` varchar(10) DEFAULT 'x,y', RENAME INDEX i TO j", nil, []R{{ToTable: "t", FromColumn: "b", ToColumn: "c"}}},
		{"postgres", `ALTER TABLE "t" RENAME COLUMN "a""x" TO "b"`, nil, []R{{ToTable: "t", FromColumn: `a"x`, ToColumn: "b"}}},
		{"postgres", `ALTER TABLE IF EXISTS ONLY public."t" RENAME a TO b`, nil, []R{{ToTable: "t", FromColumn: "a", ToColumn: "b"}}},
		// PostgreSQL folds an unquoted name to lower case; TiDB keeps it.
		{"postgres", `ALTER TABLE Totp RENAME TO _bkp_UP_totp`, nil, []R{{FromTable: "totp", ToTable: "_bkp_up_totp"}}},
		{"tidb", "ALTER TABLE Totp RENAME TO _bkp_UP_totp", nil, []R{{FromTable: "Totp", ToTable: "_bkp_UP_totp"}}},
		{"postgres", `ALTER TABLE "t" RENAME TO "u"`, nil, []R{{FromTable: "t", ToTable: "u"}}},
		{"postgres", `ALTER TABLE t RENAME CONSTRAINT a TO b`, nil, nil},
		{"postgres", `ALTER TABLE "t" ADD CONSTRAINT "c" CHECK (a > 0)`, []int{35}, nil},
	}
	for _, c := range cases {
		got := all.Get(c.dialect).LintStmt(c.sql)
		if intsString(got.Checks) != intsString(c.checks) || !slices.Equal(got.Renames, c.renames) {
			t.Errorf("%s %q: checks %v, renames %+v; want %v, %+v", c.dialect, c.sql, got.Checks, got.Renames, c.checks, c.renames)
		}
	}
}

func intsString(xs []int) string {
	var s []string
	for _, x := range xs {
		s = append(s, strconv.Itoa(x))
	}
	return strings.Join(s, " ")
}

// SG104 names the table a data statement changes.
func TestDataStatementNamesTable(t *testing.T) {
	cases := []struct{ dialect, sql, want string }{
		{"tidb", "UPDATE `t` SET `a` = 1", "UPDATE on `t`"},
		{"postgres", `UPDATE ONLY "t" SET "a" = 1`, `UPDATE on "t"`},
		{"postgres", `DELETE FROM "t"`, `DELETE on "t"`},
		{"tidb", "INSERT INTO `t` VALUES (1)", "INSERT on `t`"},
	}
	for _, c := range cases {
		got := all.Get(c.dialect).LintStmt(c.sql)
		if len(got.Findings) != 1 || !strings.Contains(got.Findings[0].Msg, c.want+" (") {
			t.Errorf("%s %q: findings %+v, want one naming %s", c.dialect, c.sql, got.Findings, c.want)
		}
	}
}

// A dialect reads what an UPDATE sets (a history's backfill) from its
// tokens: the table by its last part, the assigned columns without their
// qualifier, not the columns of a subquery, a string or a condition.
func TestLintStmtFill(t *testing.T) {
	cases := []struct {
		dialect, sql string
		want         *dialects.Fill
	}{
		{"postgres", `UPDATE selfservice_settings_flows SET internal_context='{}'`, &dialects.Fill{Table: "selfservice_settings_flows", Columns: []string{"internal_context"}}},
		{"postgres", `UPDATE ONLY public."T" AS x SET x.A = (SELECT ict.id FROM types AS ict WHERE ict.b = x.c, 1), "b" = 'c = d, e' WHERE a = 1`, &dialects.Fill{Table: "T", Columns: []string{"a", "b"}}},
		{"postgres", `UPDATE Flows SET Ctx = coalesce(ctx, '[]') FROM other o WHERE o.id = flows.id`, &dialects.Fill{Table: "flows", Columns: []string{"ctx"}}},
		{"tidb", "UPDATE `Flows` f JOIN `u` ON `u`.`id` = f.`u_id` SET f.`Ctx` = u.x, `u`.`y` = 2, `z` = 3", &dialects.Fill{Table: "Flows", Columns: []string{"Ctx", "z"}}},
		{"tidb", "UPDATE identity_credential_identifiers SET identity_credential_type_id = (SELECT  ict.id FROM identity_credential_types as ict JOIN identity_credentials AS ic ON (ic.identity_credential_type_id = ict.id) WHERE ic.id = identity_credential_id);", &dialects.Fill{Table: "identity_credential_identifiers", Columns: []string{"identity_credential_type_id"}}},
		{"postgres", `DELETE FROM t WHERE a = 1`, nil},
		{"postgres", `ALTER TABLE t ALTER COLUMN a SET NOT NULL`, nil},
	}
	for _, c := range cases {
		got := all.Get(c.dialect).LintStmt(c.sql).Fill
		if (got == nil) != (c.want == nil) || got != nil && (got.Table != c.want.Table || !slices.Equal(got.Columns, c.want.Columns)) {
			t.Errorf("%s %q: fill %+v, want %+v", c.dialect, c.sql, got, c.want)
		}
	}
}
