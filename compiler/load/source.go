package load

import (
	"bytes"
	"strings"
	"unicode/utf8"

	"github.com/hashicorp/hcl/v2"
)

// stringSource maps byte offsets in a decoded HCL string back to source
// positions, so that an error inside a CHECK expression points at the exact
// character in schema.hcl.
type stringSource struct {
	file  []byte
	rng   hcl.Range
	index []int // decoded offset -> byte offset in file; one extra entry for the end
}

func newStringSource(file []byte, e hcl.Expression, decoded string) *stringSource {
	rng := e.Range()
	s := &stringSource{file: file, rng: rng}
	if file == nil || rng.End.Byte > len(file) {
		return s
	}
	src := file[rng.Start.Byte:rng.End.Byte]
	switch {
	case bytes.HasPrefix(src, []byte(`"`)):
		s.index = mapQuoted(src, rng.Start.Byte, len(decoded))
	case bytes.HasPrefix(src, []byte("<<")):
		s.index = mapHeredoc(src, rng.Start.Byte, decoded)
	}
	if len(s.index) != len(decoded)+1 {
		s.index = nil
	}
	return s
}

func mapQuoted(src []byte, base, n int) []int {
	idx := make([]int, 0, n+1)
	i := 1
	for i < len(src)-1 {
		c := src[i]
		switch {
		case c == '\\' && i+1 < len(src)-1:
			width := 2
			out := 1
			switch src[i+1] {
			case 'u':
				width, out = 6, utf8.RuneLen(decodeHex(src[i+2:min(i+6, len(src))]))
			case 'U':
				width, out = 10, utf8.RuneLen(decodeHex(src[i+2:min(i+10, len(src))]))
			}
			for range max(out, 1) {
				idx = append(idx, base+i)
			}
			i += width
		case (c == '$' || c == '%') && i+2 < len(src) && src[i+1] == c && src[i+2] == '{':
			idx = append(idx, base+i, base+i+2)
			i += 3
		default:
			idx = append(idx, base+i)
			i++
		}
	}
	return append(idx, base+i)
}

func decodeHex(b []byte) rune {
	var r rune
	for _, c := range b {
		switch {
		case c >= '0' && c <= '9':
			r = r*16 + rune(c-'0')
		case c >= 'a' && c <= 'f':
			r = r*16 + rune(c-'a'+10)
		case c >= 'A' && c <= 'F':
			r = r*16 + rune(c-'A'+10)
		}
	}
	return r
}

// mapHeredoc maps each decoded line onto its source line; `<<-` heredocs strip
// a common indentation, which is the difference of the lines' lengths.
func mapHeredoc(src []byte, base int, decoded string) []int {
	nl := bytes.IndexByte(src, '\n')
	if nl < 0 {
		return nil
	}
	off := nl + 1
	var idx []int
	lines := strings.SplitAfter(decoded, "\n")
	for _, line := range lines {
		if line == "" {
			continue
		}
		end := bytes.IndexByte(src[off:], '\n')
		if end < 0 {
			return nil
		}
		srcLine := src[off : off+end+1]
		strip := len(srcLine) - len(line)
		if strip < 0 {
			return nil
		}
		for i := range len(line) {
			idx = append(idx, base+off+strip+i)
		}
		off += end + 1
	}
	return append(idx, base+off)
}

// Range returns the source range of decoded bytes [from, to).
func (s *stringSource) Range(from, to int) hcl.Range {
	if s.index == nil {
		return s.rng
	}
	from = max(0, min(from, len(s.index)-1))
	to = max(from+1, min(to, len(s.index)-1))
	start := s.pos(s.index[from])
	end := s.pos(s.index[to-1] + 1)
	return hcl.Range{Filename: s.rng.Filename, Start: start, End: end}
}

// pos computes the line and column of a byte offset, walking from the
// expression's start, which HCL gave us.
func (s *stringSource) pos(b int) hcl.Pos {
	p := s.rng.Start
	for i := p.Byte; i < b && i < len(s.file); {
		r, w := utf8.DecodeRune(s.file[i:])
		if r == '\n' {
			p.Line++
			p.Column = 1
		} else {
			p.Column++
		}
		i += w
		p.Byte = i
	}
	return p
}
