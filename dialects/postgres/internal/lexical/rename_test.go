package lexical

import "testing"

// TestRenameIdents: a renamed column's name is rewritten in a predicate
// wherever it is an identifier, quoted or not, and nowhere in a string
// literal or inside a longer name.
func TestRenameIdents(t *testing.T) {
	renamed := map[string]string{"id0": "rc0", "n": "Big"}
	for in, want := range map[string]string{
		`(id0 IS NOT NULL)`:                 `(rc0 IS NOT NULL)`,
		`"id0" > 0 AND id00 = 1`:            `rc0 > 0 AND id00 = 1`,
		`(n)::text <> 'id0 n' AND x_n = n`:  `("Big")::text <> 'id0 n' AND x_n = "Big"`,
		`name = 'it''s id0' OR id0 IS NULL`: `name = 'it''s id0' OR rc0 IS NULL`,
	} {
		if got := RenameIdents(in, renamed); got != want {
			t.Errorf("RenameIdents(%q) = %q, want %q", in, got, want)
		}
	}
	if Plain(`(("rc0" IS NOT NULL))`) != Plain(`"rc0" IS NOT NULL`) || Plain(`(a) OR (b)`) != `(a) OR (b)` {
		t.Error("plainText does not read the predicate as PostgreSQL prints it")
	}
}
