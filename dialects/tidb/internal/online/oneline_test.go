package online

import (
	"testing"

	"ariga.io/atlas/sql/schema"

	"github.com/schemagen/schemagen/dialects/tidb/internal/lexical"
)

// TestPrecheckOneLine: a pre-check over a string literal with a line break
// (CHECK c0 IN ('a<newline>b')) was written over two lines of the file, the
// second read as a statement ("unclosed quote"; found by the plan oracle,
// seed 2000008): it is one line, the break TiDB's escape in the literal.
func TestPrecheckOneLine(t *testing.T) {
	for in, want := range map[string]string{
		"SELECT * FROM `t` WHERE NOT (`c` IN ('a\nb', 'it''s\r\n')) LIMIT 10": `SELECT * FROM ` + "`t`" + ` WHERE NOT (` + "`c`" + ` IN ('a\nb', 'it''s\r\n')) LIMIT 10`,
		"SELECT 1\nFROM `t`":   "SELECT 1 FROM `t`",
		`SELECT 'a\'b' FROM t`: `SELECT 'a\'b' FROM t`,
	} {
		if got := oneLine(in); got != want {
			t.Errorf("oneLine(%q) = %q, want %q", in, got, want)
		}
	}
}

// TestCheckTiDBVerifies: a CHECK with OR, AND or XOR at its top is written
// with one pair of parentheses more, so that TiDB's WHERE NOT <expr> over
// existing rows reads it whole (pingcap/tidb#71050); the AND of a BETWEEN,
// an operator inside parentheses or a string do not count.
func TestCheckTiDBVerifies(t *testing.T) {
	for expr, want := range map[string]string{
		"`n` IS NULL OR `n` > 0":          "((`n` IS NULL OR `n` > 0))",
		"(`n` = 6 OR `n` = 5)":            "((`n` = 6 OR `n` = 5))",
		"`n` > 0 AND `n` < 3":             "((`n` > 0 AND `n` < 3))",
		"`a` || `b`":                      "((`a` || `b`))",
		"`n` BETWEEN 1 AND 5":             "`n` BETWEEN 1 AND 5",
		"(`n` IS NULL) OR (`n` > 0)":      "(((`n` IS NULL) OR (`n` > 0)))",
		"`s` IN ('a OR b', 'x''y AND')":   "`s` IN ('a OR b', 'x''y AND')",
		"CHAR_LENGTH(`s` OR 1) > 0":       "CHAR_LENGTH(`s` OR 1) > 0",
		"`n` BETWEEN 1 AND 5 AND `m` > 0": "((`n` BETWEEN 1 AND 5 AND `m` > 0))",
	} {
		if got := checkTiDBVerifies(&schema.Check{Name: "c", Expr: expr}).Expr; got != want {
			t.Errorf("%s: got %s, want %s", expr, got, want)
		}
	}
	// TiDB prints a CHECK as (<its text>): one added as CHECK ((a OR b))
	// reads back as the same CHECK of a CREATE TABLE.
	for in, want := range map[string]string{
		"(((`n` IS NULL OR `n` > 0)))": "(`n` IS NULL OR `n` > 0)",
		"((`n` IS NULL) OR (`n` > 0))": "((`n` IS NULL) OR (`n` > 0))",
		"(`n` > 0)":                    "(`n` > 0)",
	} {
		if got := lexical.Unwrapped(in); got != want {
			t.Errorf("Unwrapped(%s) = %s, want %s", in, got, want)
		}
	}
	for in, want := range map[string]string{
		"`full` > 0 AND full < 9 AND 'full' <> f(full) AND FULL(x)": "`name` > 0 AND `name` < 9 AND 'full' <> f(`name`) AND FULL(x)",
		"\"full\" IS NULL": "\"full\" IS NULL",
	} {
		if got := lexical.RenameIdents(in, map[string]string{"full": "name"}); got != want {
			t.Errorf("RenameIdents(%s) = %s, want %s", in, got, want)
		}
	}
}
