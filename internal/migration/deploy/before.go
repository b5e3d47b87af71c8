package deploy

import (
	"context"
	"fmt"
	"io"

	"github.com/schemagen/schemagen/internal/migration"
)

// AppliedFrom lists, one line for each env, the databases that applied
// version, in full or in part, or a later one: a data migration placed
// just before version (migrate new --data --before) would never run there,
// as Atlas resumes a failed file first. An env without a url is not
// checked, and a note on notes says so.
func AppliedFrom(ctx context.Context, targets []migration.Target, version string, notes io.Writer) ([]string, error) {
	var out []string
	for _, t := range targets {
		if t.Env.URL == "" {
			fmt.Fprintf(notes, "note: env %q has no url in atlas.hcl: whether its database applied %s is not checked\n", t.Env.Name, version)
			continue
		}
		st, err := ReadStatus(ctx, t, t.Env.URL)
		if err != nil {
			return nil, err
		}
		files := st.Applied
		if st.Partial != nil {
			files = append(files, *st.Partial)
		}
		for _, f := range files {
			if f.Version < version {
				continue
			}
			what := "applied"
			if st.Partial != nil && f.Version == st.Partial.Version {
				what = fmt.Sprintf("began (%d of %d statements; Atlas resumes it first and would never run a file placed before it)", f.Applied, f.Total)
			}
			out = append(out, fmt.Sprintf("Error: --before %s: the database of env %q (%s) %s version %s; a data migration cannot run before it there: write it as a new migration (schemagen migrate new NAME --data)", version, t.Env.Name, st.URL, what, f.Version))
			break
		}
	}
	return out, nil
}
