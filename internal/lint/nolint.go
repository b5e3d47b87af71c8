package lint

import (
	"fmt"
	"slices"
	"strings"

	"ariga.io/atlas/sql/migrate"
)

// NolintDirective is the comment that suppresses lint findings after review:
//
//	-- schemagen:nolint DS103,SG102 the column was unused since v2.3
//
// Directly above a statement (no blank line between), it applies to that
// statement; in the file's header (comments before the first statement,
// followed by a blank line), to the whole file. The reason is required.
const NolintDirective = "schemagen:nolint"

// nolintComment is one parsed nolint comment.
type nolintComment struct {
	stmt   int // 1-based statement it applies to; 0 for the whole file
	codes  []string
	reason string
}

// nolintReason returns the reason that suppresses code on statement stmt:
// a comment on the statement first, else one on the whole file.
func nolintReason(nolints []nolintComment, stmt int, code string) (string, bool) {
	if rule, ok := LookupRule(code); ok && rule.NoSuppress {
		return "", false
	}
	for _, target := range []int{stmt, 0} {
		for _, n := range nolints {
			if n.stmt == target && slices.Contains(n.codes, code) {
				return n.reason, true
			}
		}
	}
	return "", false
}

// nolintFinding is an SG105 or SG106 at a byte offset of the file.
type nolintFinding struct {
	code string
	off  int
	msg  string
}

// parseNolints finds the nolint comments of a file whose statements are
// stmts (positions fixed), and the findings about misplaced or invalid ones.
func parseNolints(src string, stmts []*migrate.Stmt) ([]nolintComment, []nolintFinding) {
	type line struct {
		start int
		text  string // trimmed
	}
	var lines []line
	for off := 0; off <= len(src); {
		end := strings.IndexByte(src[off:], '\n')
		if end < 0 {
			end = len(src) - off
		}
		lines = append(lines, line{start: off, text: strings.TrimSpace(src[off : off+end])})
		off += end + 1
	}
	lineOf := func(off int) int { // 0-based
		n := 0
		for n+1 < len(lines) && lines[n+1].start <= off {
			n++
		}
		return n
	}
	// span[i] is the first and last line of statement i.
	span := make([][2]int, len(stmts))
	for i, s := range stmts {
		span[i] = [2]int{lineOf(s.Pos), lineOf(s.Pos + max(len(s.Text)-1, 0))}
	}
	var (
		out   []nolintComment
		finds []nolintFinding
	)
	for n, l := range lines {
		body, ok := strings.CutPrefix(l.text, "--")
		if !ok {
			continue
		}
		body = strings.TrimSpace(body)
		rest, ok := strings.CutPrefix(body, NolintDirective)
		if !ok || rest != "" && rest[0] != ' ' && rest[0] != '\t' {
			continue
		}
		off := l.start + strings.Index(src[l.start:], "--")
		// Where does it apply?
		target, placed := -1, false
		for i := range stmts {
			if n >= span[i][0] && n <= span[i][1] {
				break // inside or after a statement, on its lines
			}
			if n < span[i][0] {
				attached := true
				for k := n + 1; k < span[i][0]; k++ {
					if !strings.HasPrefix(lines[k].text, "--") {
						attached = false
						break
					}
				}
				switch {
				case attached:
					target, placed = i+1, true
				case i == 0:
					target, placed = 0, true
				}
				break
			}
		}
		if !placed {
			finds = append(finds, nolintFinding{"SG106", off, "this nolint comment applies to nothing: put it directly above the statement (no blank line between), or in the file's header followed by a blank line"})
			continue
		}
		fields := strings.Fields(rest)
		if len(fields) == 0 {
			finds = append(finds, nolintFinding{"SG105", off, "nolint needs the codes it suppresses and a reason: -- schemagen:nolint CODE[,CODE...] reason"})
			continue
		}
		reason := strings.TrimSpace(strings.TrimPrefix(strings.TrimSpace(rest), fields[0]))
		if reason == "" {
			finds = append(finds, nolintFinding{"SG105", off, fmt.Sprintf("nolint %s has no reason: say why the finding is accepted", fields[0])})
			continue
		}
		d := nolintComment{stmt: target, reason: reason}
		for _, c := range strings.Split(fields[0], ",") {
			c = strings.ToUpper(strings.TrimSpace(c))
			rule, known := LookupRule(c)
			switch {
			case c == "":
			case !known:
				finds = append(finds, nolintFinding{"SG105", off, fmt.Sprintf("nolint names unknown code %q (see docs/lint.md)", c)})
			case rule.NoSuppress:
				finds = append(finds, nolintFinding{"SG105", off, fmt.Sprintf("%s cannot be suppressed", c)})
			default:
				d.codes = append(d.codes, c)
			}
		}
		if len(d.codes) > 0 {
			out = append(out, d)
		}
	}
	return out, finds
}
