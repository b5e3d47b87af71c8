package udiff

import (
	"math/rand/v2"
	"strings"
	"testing"
)

// lcs is the textbook dynamic programme, to check that Diff is minimal.
func lcs(a, b []string) int {
	t := make([][]int, len(a)+1)
	for i := range t {
		t[i] = make([]int, len(b)+1)
	}
	for i := len(a) - 1; i >= 0; i-- {
		for j := len(b) - 1; j >= 0; j-- {
			if a[i] == b[j] {
				t[i][j] = t[i+1][j+1] + 1
			} else {
				t[i][j] = max(t[i+1][j], t[i][j+1])
			}
		}
	}
	return t[0][0]
}

func TestDiffIsMinimalAndCorrect(t *testing.T) {
	rng := rand.New(rand.NewPCG(1, 2))
	for range 2000 {
		gen := func() []string {
			n := rng.IntN(12)
			out := make([]string, n)
			for i := range out {
				out[i] = string(rune('a'+rng.IntN(4))) + "\n"
			}
			return out
		}
		a, b := gen(), gen()
		edits := Diff(a, b)
		var gotA, gotB []string
		changed := 0
		for _, e := range edits {
			if e.Kind != Insert {
				gotA = append(gotA, e.Line)
			}
			if e.Kind != Delete {
				gotB = append(gotB, e.Line)
			}
			if e.Kind != Equal {
				changed++
			}
		}
		if strings.Join(gotA, "") != strings.Join(a, "") || strings.Join(gotB, "") != strings.Join(b, "") {
			t.Fatalf("edits of %q -> %q do not rebuild the inputs: %v", a, b, edits)
		}
		if want := len(a) + len(b) - 2*lcs(a, b); changed != want {
			t.Fatalf("%q -> %q: %d changed lines, minimal is %d", a, b, changed, want)
		}
	}
}

func TestUnifiedOneLineChange(t *testing.T) {
	var a []string
	for i := range 40 {
		a = append(a, strings.Repeat(")", i%2)+";\n") // many equal lines, as in SQL
	}
	a[20] = "old\n"
	b := append([]string(nil), a...)
	b[20] = "new\n"
	got := Unified("x (on disk)", "x (new)", strings.Join(a, ""), strings.Join(b, ""), 3)
	want := "--- x (on disk)\n+++ x (new)\n@@ -18,7 +18,7 @@\n );\n ;\n );\n-old\n+new\n );\n ;\n );\n"
	if got != want {
		t.Fatalf("got:\n%s\nwant:\n%s", got, want)
	}
	if Unified("a", "b", "same\n", "same\n", 3) != "" {
		t.Error("equal texts gave a diff")
	}
}
