package lint_test

import (
	"strings"
	"testing"

	"github.com/schemagen/schemagen/internal/lint"
)

// TestTiDBParserSyntax: in a tidb directory, a statement TiDB's parser
// rejects is SG103 at the error's position even when the dev database never
// runs it, because a statement before it failed there.
func TestTiDBParserSyntax(t *testing.T) {
	p := newLintProject(t)
	p.file("tidb", "init", dialects[1].table+"\n")
	p.file("tidb", "broken", "-- header\nALTER TABLE `missing` ADD COLUMN `x` int NULL;\nALTER TABLE `items`\n  ALTER COLUMN `note` TYPE varchar(10);\nUPDATE `items` SET `note` = 'x' WHERE;\n")
	r := p.lint("tidb", lint.Options{})
	fs := find(r, "SG103")
	if len(fs) != 2 {
		t.Fatalf("want two SG103:\n%s", dump(r))
	}
	want := []struct {
		file      string
		line, col int
		text      string
	}{
		{"broken", 4, 23, `TiDB's parser rejects this statement: syntax error near "TYPE varchar(10)"`},
		{"broken", 5, 38, "TiDB's parser rejects this statement: syntax error at its end"},
	}
	for i, w := range want {
		f := fs[i]
		if !strings.Contains(f.File, w.file) || f.Line != w.line || f.Column != w.col || f.Severity != lint.SeverityError || !strings.Contains(f.Message, w.text) {
			t.Errorf("got %s:%d:%d %s %q, want %s %d:%d error %q\n%s", f.File, f.Line, f.Column, f.Severity, f.Message, w.file, w.line, w.col, w.text, dump(r))
		}
	}
	if len(find(r, "SG100")) != 1 {
		t.Errorf("want the failed ALTER as SG100:\n%s", dump(r))
	}
}
