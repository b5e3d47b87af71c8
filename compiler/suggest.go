package compiler

import (
	"fmt"
	"strings"
)

// Suggest returns ` Did you mean "x"?` for the candidate closest to name
// when it is a likely misspelling (an edit distance of at most a third of
// its length, at least 1, and 2 from four characters on), or "".
func Suggest(name string, candidates []string) string {
	best, bestD := "", 0
	for _, c := range candidates {
		d := editDistance(strings.ToLower(name), strings.ToLower(c))
		if d == 0 && c == name {
			continue
		}
		if best == "" || d < bestD {
			best, bestD = c, d
		}
	}
	limit := max(1, len([]rune(name))/3)
	if len([]rune(name)) >= 4 {
		limit = max(limit, 2)
	}
	if best == "" || bestD > limit {
		return ""
	}
	return fmt.Sprintf(" Did you mean %q?", best)
}

// editDistance is the Levenshtein distance counting an adjacent swap as one edit.
func editDistance(a, b string) int {
	ra, rb := []rune(a), []rune(b)
	prev2 := make([]int, len(rb)+1)
	prev := make([]int, len(rb)+1)
	cur := make([]int, len(rb)+1)
	for j := range prev {
		prev[j] = j
	}
	for i := 1; i <= len(ra); i++ {
		cur[0] = i
		for j := 1; j <= len(rb); j++ {
			cost := 1
			if ra[i-1] == rb[j-1] {
				cost = 0
			}
			cur[j] = min(prev[j]+1, cur[j-1]+1, prev[j-1]+cost)
			if i > 1 && j > 1 && ra[i-1] == rb[j-2] && ra[i-2] == rb[j-1] {
				cur[j] = min(cur[j], prev2[j-2]+1)
			}
		}
		prev2, prev, cur = prev, cur, prev2
	}
	return prev[len(rb)]
}
