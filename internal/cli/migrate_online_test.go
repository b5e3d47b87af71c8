package cli_test

import (
	"encoding/json"
	"testing"

	"github.com/schemagen/schemagen/internal/dbtest"
)

// TestMigrateStatusUnfinished: `migrate status` lists what interrupted
// online statements left: an invalid index (a failed CREATE INDEX
// CONCURRENTLY) and a constraint not validated, in text and JSON.
func TestMigrateStatusUnfinished(t *testing.T) {
	t.Parallel()
	pg, ti := dbtest.Postgres(t), dbtest.TiDB(t)
	dir := applyProject(t, ti.URL)
	if r := applyCLI(t, dir, "apply", "--env", "postgres", "--url", pg.URL); r.code != 0 {
		t.Fatalf("apply: exit %d", r.code)
	}
	// The seed holds code 'a' twice: the unique build fails, leaving its
	// index invalid.
	if _, err := pg.Exec(`CREATE UNIQUE INDEX CONCURRENTLY items_code_key ON items (code)`); err == nil {
		t.Fatal("a unique index over duplicates was built")
	}
	if _, err := pg.Exec(`ALTER TABLE items ADD CONSTRAINT items_code_ck CHECK (code <> '') NOT VALID`); err != nil {
		t.Fatal(err)
	}
	r := applyCLI(t, dir, "status", "--env", "postgres", "--url", pg.URL)
	wantIn(t, "status", r.stdout, "Left by interrupted online statements:",
		"index items_code_key of table items is invalid",
		"constraint items_code_ck of table items is NOT VALID")
	r = applyCLI(t, dir, "status", "--env", "postgres", "--url", pg.URL, "--format", "json")
	var st struct {
		Unfinished []string `json:"unfinished"`
	}
	if err := json.Unmarshal([]byte(r.stdout), &st); err != nil || len(st.Unfinished) != 2 {
		t.Errorf("status --format json: unfinished %q (%v)", st.Unfinished, err)
	}
}
