package compiler

import "testing"

func TestSuggest(t *testing.T) {
	cands := []string{"state", "items", "id", "created_at", "varchar"}
	for _, c := range []struct{ name, want string }{
		{"stat", ` Did you mean "state"?`},
		{"itme", ` Did you mean "items"?`},
		{"craeted_at", ` Did you mean "created_at"?`},
		{"VARCHAR", ` Did you mean "varchar"?`},
		{"ix", ` Did you mean "id"?`},
		{"ab", ""}, // too short to guess from two edits
		{"zzzzzz", ""},
		{"state", ""}, // itself is no suggestion
	} {
		if got := Suggest(c.name, cands); got != c.want {
			t.Errorf("Suggest(%q) = %q, want %q", c.name, got, c.want)
		}
	}
}
