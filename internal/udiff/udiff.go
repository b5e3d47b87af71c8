// Package udiff writes minimal unified diffs of text, line by line, with
// Myers's O(ND) algorithm: the fewest lines removed and added.
package udiff

import (
	"fmt"
	"strings"
)

// Kind is what an edit does to a line.
type Kind byte

const (
	Equal  Kind = ' '
	Delete Kind = '-'
	Insert Kind = '+'
)

// Edit is one line of a line diff.
type Edit struct {
	Kind Kind
	Line string
}

// maxD bounds the edit distance searched exactly; beyond it the differing
// middle is shown as removed and added in full, to keep memory bounded.
const maxD = 4000

// Lines splits text into lines, each with its newline.
func Lines(s string) []string {
	if s == "" {
		return nil
	}
	return strings.SplitAfter(strings.TrimSuffix(s, "\n"), "\n")
}

// Diff returns a shortest edit script from a to b.
func Diff(a, b []string) []Edit {
	var pre, suf int
	for pre < len(a) && pre < len(b) && a[pre] == b[pre] {
		pre++
	}
	for suf < len(a)-pre && suf < len(b)-pre && a[len(a)-1-suf] == b[len(b)-1-suf] {
		suf++
	}
	var out []Edit
	for _, l := range a[:pre] {
		out = append(out, Edit{Equal, l})
	}
	out = append(out, myers(a[pre:len(a)-suf], b[pre:len(b)-suf])...)
	for _, l := range a[len(a)-suf:] {
		out = append(out, Edit{Equal, l})
	}
	return out
}

func myers(a, b []string) []Edit {
	n, m := len(a), len(b)
	if n == 0 || m == 0 {
		return replaceAll(a, b)
	}
	limit := n + m
	off := limit + 1
	v := make([]int, 2*limit+3)
	var trace [][]int // trace[d] is v[off-d-1 : off+d+2] before step d
	for d := 0; d <= limit; d++ {
		if d > maxD {
			return replaceAll(a, b)
		}
		trace = append(trace, append([]int(nil), v[off-d-1:off+d+2]...))
		for k := -d; k <= d; k += 2 {
			var x int
			if k == -d || k != d && v[off+k-1] < v[off+k+1] {
				x = v[off+k+1]
			} else {
				x = v[off+k-1] + 1
			}
			y := x - k
			for x < n && y < m && a[x] == b[y] {
				x++
				y++
			}
			v[off+k] = x
			if x >= n && y >= m {
				return backtrack(a, b, trace, d)
			}
		}
	}
	return replaceAll(a, b)
}

func backtrack(a, b []string, trace [][]int, dmax int) []Edit {
	var rev []Edit
	x, y := len(a), len(b)
	for d := dmax; d > 0; d-- {
		t := trace[d]
		at := func(k int) int { return t[k+d+1] }
		k := x - y
		prevK := k - 1
		if k == -d || k != d && at(k-1) < at(k+1) {
			prevK = k + 1
		}
		prevX := at(prevK)
		prevY := prevX - prevK
		for x > prevX && y > prevY {
			rev = append(rev, Edit{Equal, a[x-1]})
			x--
			y--
		}
		if x == prevX {
			rev = append(rev, Edit{Insert, b[y-1]})
		} else {
			rev = append(rev, Edit{Delete, a[x-1]})
		}
		x, y = prevX, prevY
	}
	for x > 0 && y > 0 {
		rev = append(rev, Edit{Equal, a[x-1]})
		x--
		y--
	}
	out := make([]Edit, len(rev))
	for i, e := range rev {
		out[len(rev)-1-i] = e
	}
	return out
}

func replaceAll(a, b []string) []Edit {
	var out []Edit
	for _, l := range a {
		out = append(out, Edit{Delete, l})
	}
	for _, l := range b {
		out = append(out, Edit{Insert, l})
	}
	return out
}

// Unified returns the unified diff of a and b with context lines around
// each change, or "" when they are equal.
func Unified(fromName, toName, a, b string, context int) string {
	edits := Diff(Lines(a), Lines(b))
	var changes []int
	for i, e := range edits {
		if e.Kind != Equal {
			changes = append(changes, i)
		}
	}
	if len(changes) == 0 {
		return ""
	}
	var sb strings.Builder
	fmt.Fprintf(&sb, "--- %s\n+++ %s\n", fromName, toName)
	// line numbers before each edit
	aLine := make([]int, len(edits)+1)
	bLine := make([]int, len(edits)+1)
	for i, e := range edits {
		aLine[i+1], bLine[i+1] = aLine[i], bLine[i]
		if e.Kind != Insert {
			aLine[i+1]++
		}
		if e.Kind != Delete {
			bLine[i+1]++
		}
	}
	for i := 0; i < len(changes); {
		j := i
		for j+1 < len(changes) && changes[j+1]-changes[j] <= 2*context {
			j++
		}
		start := max(0, changes[i]-context)
		end := min(len(edits), changes[j]+context+1)
		na, nb := aLine[end]-aLine[start], bLine[end]-bLine[start]
		fmt.Fprintf(&sb, "@@ -%s +%s @@\n", span(aLine[start], na), span(bLine[start], nb))
		for _, e := range edits[start:end] {
			sb.WriteByte(byte(e.Kind))
			sb.WriteString(e.Line)
			if !strings.HasSuffix(e.Line, "\n") {
				sb.WriteString("\n\\ No newline at end of file\n")
			}
		}
		i = j + 1
	}
	return sb.String()
}

// span is a hunk range as diff prints it: start,count with start 1-based
// (or the line before an empty range).
func span(start, n int) string {
	if n == 0 {
		return fmt.Sprintf("%d,0", start)
	}
	if n == 1 {
		return fmt.Sprint(start + 1)
	}
	return fmt.Sprintf("%d,%d", start+1, n)
}
