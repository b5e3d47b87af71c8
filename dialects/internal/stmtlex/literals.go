package stmtlex

import (
	"strconv"
	"strings"
)

// Literals reads a comma-separated list of literals as a server prints
// partition bounds: whole numbers and quoted strings (” for a quote; with
// backslash, as TiDB prints them, \x for x too). It returns nil for
// anything else.
func Literals(s string, backslash bool) []any {
	var out []any
	for s = strings.TrimSpace(s); s != ""; s = strings.TrimSpace(strings.TrimPrefix(strings.TrimSpace(s), ",")) {
		if s[0] == '\'' {
			var b strings.Builder
			i := 1
			for ; i < len(s); i++ {
				if backslash && s[i] == '\\' && i+1 < len(s) {
					i++
					b.WriteByte(s[i])
					continue
				}
				if s[i] == '\'' {
					if i+1 < len(s) && s[i+1] == '\'' {
						b.WriteByte('\'')
						i++
						continue
					}
					break
				}
				b.WriteByte(s[i])
			}
			out = append(out, b.String())
			s = s[min(i+1, len(s)):]
			continue
		}
		end := strings.IndexByte(s, ',')
		if end < 0 {
			end = len(s)
		}
		n, err := strconv.ParseInt(strings.TrimSpace(s[:end]), 10, 64)
		if err != nil {
			return nil
		}
		out = append(out, n)
		s = s[end:]
	}
	return out
}
