package scratch_test

import (
	"context"
	"os"
	"strings"
	"testing"

	"ariga.io/atlas/sql/schema"

	"github.com/schemagen/schemagen/internal/dbtest"
	"github.com/schemagen/schemagen/internal/migration"
	"github.com/schemagen/schemagen/internal/scratch"
	"github.com/schemagen/schemagen/internal/synth"
	"github.com/schemagen/schemagen/internal/testproject"
)

// TestFingerprintMatchesWithoutDrift checks that a database built by the
// migrations has the fingerprint of the state drift expects of it, so that
// drift skips the diff; and that a hand change changes it.
func TestFingerprintMatchesWithoutDrift(t *testing.T) {
	for _, d := range []string{"postgres", "tidb"} {
		t.Run(d, func(t *testing.T) {
			t.Parallel()
			p := testproject.New(t, string(synth.Model(3)))
			db := dbtest.New(t, d)
			p.Diff("init")
			p.Apply(d, db.URL)
			tg := p.Target(d)
			ctx := context.Background()
			drv, err := tg.Dialect.OpenAtlas(db.DB)
			if err != nil {
				t.Fatal(err)
			}
			inspectLive := func() *schema.Schema {
				live, err := drv.InspectSchema(ctx, "", &schema.InspectOptions{Exclude: []string{"atlas_schema_revisions"}})
				if err != nil {
					t.Fatal(err)
				}
				live.Name = ""
				return live
			}
			live := inspectLive()
			src := mustReadFile(t, tg.Env.Src)
			st, err := migration.SQLState(ctx, p.Dev, tg, tg.Env.Src, src)
			if err != nil {
				t.Fatal(err)
			}
			defer st.Close()
			// The migrations hold the generated text: no rebuild is needed.
			want := st.Schema
			if scratch.Fingerprint(live) != scratch.Fingerprint(want) {
				var a, b strings.Builder
				scratch.WriteCanonical(&a, live)
				scratch.WriteCanonical(&b, want)
				al, bl := strings.Split(a.String(), "\n"), strings.Split(b.String(), "\n")
				for i := range min(len(al), len(bl)) {
					if al[i] != bl[i] {
						t.Fatalf("fingerprints differ at line %d:\n live: %s\n want: %s", i+1, al[i], bl[i])
					}
				}
				t.Fatalf("fingerprints differ: %d and %d lines", len(al), len(bl))
			}
			if _, err := db.Exec("ALTER TABLE t1 ADD COLUMN extra INT"); err != nil {
				t.Fatal(err)
			}
			if scratch.Fingerprint(inspectLive()) == scratch.Fingerprint(want) {
				t.Error("an added column left the fingerprint unchanged")
			}
		})
	}
}

func mustReadFile(t *testing.T, path string) []byte {
	t.Helper()
	b, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	return b
}
