package cli_test

import (
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
)

const charModel = `table "codes" {
  column "id" {
    type = int
  }
  column "code" {
    type = char(4)
  }
  column "name" {
    type = varchar(20)
  }
  primary_key {
    columns = ["id"]
  }
  check "codes_code_ck" {
    expr = "code LIKE 'A%'"
  }
  index "codes_name_idx" {
    columns = ["name"]
    where   = "name > 'm'"
    tidb {
      accept = ["partial_index"]
    }
  }
}
`

// check prints the model's warnings as generate does, --quiet hides them,
// and both PostgreSQL warnings (char(n) match, string order) can be
// acknowledged with accept.
func TestCheckWarningsAndAccept(t *testing.T) {
	dir := project(t, charModel)
	r := schemagen(t, dir, "generate", "--out", "OUT")
	if r.code != 0 {
		t.Fatalf("generate: exit %d\n%s", r.code, r.stderr)
	}
	wantIn(t, "generate", r.stderr, "Match over char(n)", `postgres { accept = ["char_match"] } in the check`, "Strings ordered by collation", `postgres { accept = ["string_order"] } in the index`)
	r = schemagen(t, dir, "check", "--out", "OUT")
	if r.code != 0 {
		t.Fatalf("check: exit %d\n%s", r.code, r.stderr)
	}
	wantIn(t, "check", r.stderr, "warning: Match over char(n)", "warning: Strings ordered by collation")
	if r := schemagen(t, dir, "check", "--out", "OUT", "--quiet"); r.code != 0 || r.stderr != "" || r.stdout != "" {
		t.Errorf("check --quiet: exit %d\n%s%s", r.code, r.stdout, r.stderr)
	}

	accepted := strings.Replace(charModel, "    expr = \"code LIKE 'A%'\"\n", "    expr = \"code LIKE 'A%'\"\n    postgres {\n      accept = [\"char_match\"]\n    }\n", 1)
	accepted = strings.Replace(accepted, "    where   = \"name > 'm'\"\n", "    where   = \"name > 'm'\"\n    postgres {\n      accept = [\"string_order\"]\n    }\n", 1)
	if err := os.WriteFile(filepath.Join(dir, "schema.hcl"), []byte(accepted), 0o644); err != nil {
		t.Fatal(err)
	}
	r = schemagen(t, dir, "generate", "--out", "OUT")
	if r.code != 0 || strings.Contains(r.stderr, "warning") {
		t.Fatalf("generate with accept: exit %d\n%s", r.code, r.stderr)
	}
	if r := schemagen(t, dir, "check", "--out", "OUT"); r.code != 0 || strings.Contains(r.stderr, "warning") {
		t.Errorf("check with accept: exit %d\n%s", r.code, r.stderr)
	}
	bad := strings.Replace(accepted, `accept = ["char_match"]`, `accept = ["char_mach"]`, 1)
	os.WriteFile(filepath.Join(dir, "schema.hcl"), []byte(bad), 0o644)
	if r := schemagen(t, dir, "generate", "--out", "OUT"); r.code != 1 || !strings.Contains(r.stderr, `Did you mean "char_match"?`) {
		t.Errorf("a misspelt accept: exit %d\n%s", r.code, r.stderr)
	}
}

// Every warning a dialect gives says how to acknowledge it with accept
// (the dialects' sub-packages too: TiDB's lowering is in internal/lower).
func TestEveryWarningCanBeAccepted(t *testing.T) {
	var files []string
	err := filepath.WalkDir("../../dialects", func(path string, d os.DirEntry, err error) error {
		if err == nil && !d.IsDir() && strings.HasSuffix(path, ".go") {
			files = append(files, path)
		}
		return err
	})
	if err != nil {
		t.Fatal(err)
	}
	call := regexp.MustCompile(`\.Warnf\([^\n]*`)
	n := 0
	for _, f := range files {
		if strings.HasSuffix(f, "_test.go") {
			continue
		}
		b, err := os.ReadFile(f)
		if err != nil {
			t.Fatal(err)
		}
		for _, c := range call.FindAllString(string(b), -1) {
			if strings.HasPrefix(c, ".Warnf(rng hcl.Range") {
				continue // the recorder itself
			}
			n++
			if !strings.Contains(c, "accept = [") {
				t.Errorf("%s: a warning that names no accept: %s", f, c)
			}
		}
	}
	if n < 6 {
		t.Errorf("found %d warnings; the pattern no longer finds them", n)
	}
}

// Two warnings alike read "1 more place", not "1 more places".
func TestGroupedWarningGrammar(t *testing.T) {
	var src strings.Builder
	for i := range 2 {
		src.WriteString(strings.NewReplacer("t0", "t"+string(rune('0'+i))).Replace("table \"t0\" {\n  column \"a\" {\n    type = int\n  }\n  index \"t0_a\" {\n    columns = [\"a\"]\n    where   = \"a > 0\"\n  }\n}\n"))
	}
	dir := project(t, src.String())
	r := schemagen(t, dir, "--color", "never", "generate", "--out", "OUT")
	if r.code != 0 {
		t.Fatalf("exit %d\n%s", r.code, r.stderr)
	}
	wantIn(t, "generate", r.stderr, "(2 places)", "The same in 1 more place:\n")
	if strings.Contains(r.stderr, "1 more places") {
		t.Errorf("stderr:\n%s", r.stderr)
	}
}
