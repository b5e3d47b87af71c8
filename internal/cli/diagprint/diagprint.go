// Package diagprint writes hcl diagnostics for people: `file:line:col:
// severity: summary`, the form editors and CI annotations jump to, then the
// source line with the culprit underlined or marked by carets, and a name
// for an invisible or confusable character that hides in it. Warnings that
// differ only in the names they quote are printed as one group.
//
// It stands alone because every command prints diagnostics the same way
// and none needs to know how: the commands pass what the compiler returned.
package diagprint

import (
	"fmt"
	"io"
	"regexp"
	"slices"
	"strings"
	"unicode"
	"unicode/utf8"

	"github.com/hashicorp/hcl/v2"
	"golang.org/x/text/unicode/runenames"
)

// diagPrinter writes diagnostics as `file:line:col: severity: summary`, the
// form editors and CI annotations jump to, then the source line with the
// culprit underlined (colour) or marked by carets (plain), then the detail.
//
// hcl's own text writer scans the file from its start for every diagnostic,
// which made `generate` quadratic in the number of warnings; this printer
// indexes each file's lines once.
type diagPrinter struct {
	w     io.Writer
	files map[string]*hcl.File
	color bool
	lines map[string][]int // file -> byte offset of each line's start
}

const (
	ansiReset     = "\x1b[0m"
	ansiBold      = "\x1b[1m"
	ansiRed       = "\x1b[1;31m"
	ansiYellow    = "\x1b[1;33m"
	ansiUnderline = "\x1b[4m"
)

// Print writes diags to w, warnings with the same summary and detail (up to
// the quoted names) as one group; files hold the sources the snippets come
// from, and color underlines in ANSI colour instead of carets.
func Print(w io.Writer, files map[string]*hcl.File, diags hcl.Diagnostics, color bool) {
	p := &diagPrinter{w: w, files: files, color: color, lines: map[string][]int{}}
	for _, g := range groupDiags(diags) {
		p.group(g)
	}
}

func (p *diagPrinter) group(g []*hcl.Diagnostic) {
	d := g[0]
	sev, col := "error", ansiRed
	if d.Severity == hcl.DiagWarning {
		sev, col = "warning", ansiYellow
	}
	var head strings.Builder
	if d.Subject != nil {
		head.WriteString(position(*d.Subject) + ": ")
	}
	if p.color {
		head.WriteString(col + sev + ":" + ansiReset + " " + ansiBold + d.Summary + ansiReset)
	} else {
		head.WriteString(sev + ": " + d.Summary)
	}
	if len(g) > 1 {
		fmt.Fprintf(&head, " (%d places)", len(g))
	}
	fmt.Fprintln(p.w, head.String())
	if d.Subject != nil {
		p.snippet(*d.Subject)
	}
	if d.Detail != "" {
		fmt.Fprintln(p.w, d.Detail)
	}
	if d.Subject != nil {
		if c := culprit(p.text(*d.Subject)); c != "" {
			fmt.Fprintln(p.w, c)
		}
	}
	if len(g) > 1 {
		if len(g) == 2 {
			fmt.Fprintln(p.w, "The same in 1 more place:")
		} else {
			fmt.Fprintf(p.w, "The same in %d more places:\n", len(g)-1)
		}
		first := quotedNames(d.Detail)
		for _, o := range g[1:] {
			var names []string
			for i, n := range quotedNames(o.Detail) {
				if i >= len(first) || n != first[i] {
					names = append(names, n)
				}
			}
			line := "  "
			if o.Subject != nil {
				line += position(*o.Subject)
			}
			if len(names) > 0 {
				line += ": " + strings.Join(names, ", ")
			}
			fmt.Fprintln(p.w, line)
		}
	}
	fmt.Fprintln(p.w)
}

// position is file:line:col, columns counted in characters from 1 as HCL does.
func position(r hcl.Range) string {
	return fmt.Sprintf("%s:%d:%d", r.Filename, r.Start.Line, r.Start.Column)
}

// lineStarts indexes a file's lines once.
func (p *diagPrinter) lineStarts(name string) ([]byte, []int) {
	f := p.files[name]
	if f == nil {
		return nil, nil
	}
	starts, ok := p.lines[name]
	if !ok {
		starts = []int{0}
		for i, c := range f.Bytes {
			if c == '\n' {
				starts = append(starts, i+1)
			}
		}
		p.lines[name] = starts
	}
	return f.Bytes, starts
}

// text is the source text of r, or "" when the file is unknown.
func (p *diagPrinter) text(r hcl.Range) string {
	src, _ := p.lineStarts(r.Filename)
	if src == nil || r.Start.Byte < 0 || r.End.Byte > len(src) || r.Start.Byte > r.End.Byte {
		return ""
	}
	return string(src[r.Start.Byte:r.End.Byte])
}

// snippet prints the first line of r with the range marked.
func (p *diagPrinter) snippet(r hcl.Range) {
	src, starts := p.lineStarts(r.Filename)
	if src == nil || r.Start.Line < 1 || r.Start.Line > len(starts) {
		return
	}
	ls := starts[r.Start.Line-1]
	le := len(src)
	if r.Start.Line < len(starts) {
		le = starts[r.Start.Line] - 1
	}
	line := strings.TrimSuffix(string(src[ls:le]), "\r")
	from := max(0, min(r.Start.Byte-ls, len(line)))
	to := max(from, min(r.End.Byte-ls, len(line)))
	if to == from && from < len(line) {
		_, w := utf8.DecodeRuneInString(line[from:])
		to = from + w
	}
	num := fmt.Sprint(r.Start.Line)
	gutter := strings.Repeat(" ", len(num))
	if p.color {
		fmt.Fprintf(p.w, "%s | %s%s%s%s\n", num, visible(line[:from]), ansiUnderline, visible(line[from:to]), ansiReset+visible(line[to:]))
		return
	}
	fmt.Fprintf(p.w, "%s | %s\n", num, visible(line))
	fmt.Fprintf(p.w, "%s | %s%s\n", gutter, pad(visible(line[:from])), strings.Repeat("^", max(1, utf8.RuneCountInString(visible(line[from:to])))))
}

// visible replaces characters a terminal would not show by their code point,
// so that the caret line lines up with what is printed.
func visible(s string) string {
	if !strings.ContainsFunc(s, invisible) {
		return s
	}
	var b strings.Builder
	for _, r := range s {
		if invisible(r) {
			fmt.Fprintf(&b, "<U+%04X>", r)
			continue
		}
		b.WriteRune(r)
	}
	return b.String()
}

// pad is whitespace as wide as s, keeping its tabs.
func pad(s string) string {
	var b strings.Builder
	for _, r := range s {
		if r == '\t' {
			b.WriteByte('\t')
		} else {
			b.WriteByte(' ')
		}
	}
	return b.String()
}

// invisible reports characters that do not show as themselves: spaces other
// than the ASCII one, format and control characters.
func invisible(r rune) bool {
	if r == ' ' || r == '\t' {
		return false
	}
	return unicode.IsSpace(r) || unicode.Is(unicode.Cf, r) || unicode.IsControl(r) || r == utf8.RuneError
}

// confusable are visible characters mistaken for ASCII syntax.
var confusable = map[rune]string{
	'\u201c': `"`, '\u201d': `"`, '\u2018': "'", '\u2019': "'", '\u2013': "-", '\u2014': "-", '\u2212': "-",
}

// culprit names the characters of text that a reader cannot tell from others.
func culprit(text string) string {
	var named []string
	for _, r := range text {
		if !invisible(r) && confusable[r] == "" {
			continue
		}
		n := fmt.Sprintf("U+%04X %s", r, runenames.Name(r))
		if slices.Contains(named, n) {
			continue
		}
		switch {
		case confusable[r] != "":
			n += fmt.Sprintf(" (looks like %s)", confusable[r])
		case unicode.IsSpace(r):
			n += " (looks like a space)"
		default:
			n += " (not visible)"
		}
		named = append(named, n)
	}
	if len(named) == 0 {
		return ""
	}
	return "The culprit is " + strings.Join(named, ", ") + "; retype it with plain ASCII."
}

var quoted = regexp.MustCompile(`(?:[A-Za-z_]+ )?"[^"]*"`)

// quotedNames returns the quoted names of a detail with the word before
// each (`index "x"`).
func quotedNames(s string) []string { return quoted.FindAllString(s, -1) }

// groupDiags puts warnings that differ only in their quoted names together,
// at the place of the first; errors stay one by one, each needs its fix.
func groupDiags(diags hcl.Diagnostics) [][]*hcl.Diagnostic {
	var out [][]*hcl.Diagnostic
	at := map[string]int{}
	for _, d := range diags {
		if d.Severity != hcl.DiagWarning {
			out = append(out, []*hcl.Diagnostic{d})
			continue
		}
		key := d.Summary + "\x00" + quoted.ReplaceAllStringFunc(d.Detail, func(q string) string {
			word, _, _ := strings.Cut(q, `"`)
			return word + `""`
		})
		if i, ok := at[key]; ok {
			out[i] = append(out[i], d)
			continue
		}
		at[key] = len(out)
		out = append(out, []*hcl.Diagnostic{d})
	}
	return out
}
