package online

import "testing"

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
