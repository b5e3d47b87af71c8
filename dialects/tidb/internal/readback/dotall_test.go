package readback

import "testing"

func TestHasDot(t *testing.T) {
	for p, want := range map[string]bool{
		`a.b`: true, `^.$`: true, `\.`: false, `[.]`: false, `[^.]`: false, `[].]`: false,
		`[^].]x`: false, `[a].`: true, `\\.`: true, `abc`: false, `[[:digit:]].`: true,
	} {
		if got := hasDot(p); got != want {
			t.Errorf("hasDot(%q) = %v, want %v", p, got, want)
		}
	}
}
