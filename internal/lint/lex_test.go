package lint

import (
	"strconv"
	"strings"
	"testing"
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
	}
	for _, c := range cases {
		var got []string
		for _, f := range lexicalFindings(c.dialect, tokenizeSQL(c.sql, c.dialect == "tidb")) {
			got = append(got, f.code+"@"+strconv.Itoa(f.off))
		}
		if strings.Join(got, " ") != strings.Join(c.want, " ") {
			t.Errorf("%s %q: got %v, want %v", c.dialect, c.sql, got, c.want)
		}
	}
}
