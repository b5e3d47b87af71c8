package diagprint_test

import (
	"strings"
	"testing"

	"github.com/hashicorp/hcl/v2"

	"github.com/schemagen/schemagen/internal/cli/diagprint"
)

func rng(file, src, sub string) *hcl.Range {
	i := strings.Index(src, sub)
	line := strings.Count(src[:i], "\n") + 1
	col := i - strings.LastIndex(src[:i], "\n")
	return &hcl.Range{Filename: file,
		Start: hcl.Pos{Line: line, Column: col, Byte: i},
		End:   hcl.Pos{Line: line, Column: col + len([]rune(sub)), Byte: i + len(sub)}}
}

// TestPrintPlain prints a positioned error with its source line, carets
// under the subject and the name of the invisible character in it, and two
// warnings that differ only in a quoted name as one group.
func TestPrintPlain(t *testing.T) {
	src := "table \"items\" {\n  column \"state\u00a0\" {}\n}\n"
	files := map[string]*hcl.File{"schema.hcl": {Bytes: []byte(src)}}
	diags := hcl.Diagnostics{
		{Severity: hcl.DiagError, Summary: "Unknown column", Detail: `Column "state\u00a0" is not in "items".`, Subject: rng("schema.hcl", src, "state\u00a0")},
		{Severity: hcl.DiagWarning, Summary: "Loose", Detail: `Table "a" is loose.`, Subject: rng("schema.hcl", src, "table")},
		{Severity: hcl.DiagWarning, Summary: "Loose", Detail: `Table "b" is loose.`, Subject: rng("schema.hcl", src, "column")},
	}
	var b strings.Builder
	diagprint.Print(&b, files, diags, false)
	got := b.String()
	for _, want := range []string{
		"schema.hcl:2:11: error: Unknown column\n2 |   column \"state<U+00A0>\" {}\n",
		"  | " + strings.Repeat(" ", 10) + strings.Repeat("^", len("state<U+00A0>")) + "\n",
		"The culprit is U+00A0 NO-BREAK SPACE",
		"schema.hcl:1:1: warning: Loose (2 places)\n",
		"The same in 1 more place:\n  schema.hcl:2:3: Table \"b\"\n",
	} {
		if !strings.Contains(got, want) {
			t.Errorf("output lacks %q:\n%s", want, got)
		}
	}
	if strings.Contains(got, "\x1b[") {
		t.Errorf("plain output has ANSI escapes:\n%s", got)
	}
	b.Reset()
	diagprint.Print(&b, files, diags[:1], true)
	if !strings.Contains(b.String(), "\x1b[4m") || strings.Contains(b.String(), "^") {
		t.Errorf("colour output does not underline instead of carets:\n%q", b.String())
	}
}
