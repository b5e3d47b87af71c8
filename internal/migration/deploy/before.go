package deploy

import (
	"context"
	"fmt"
	"io"

	"ariga.io/atlas/sql/migrate"

	"github.com/schemagen/schemagen/internal/migration"
)

// AppliedFrom lists, one line for each env, the databases that applied
// version in full, or a later one in full or in part: a data migration
// placed just before version (migrate new --data --before) would never run
// there. A database whose apply stopped in version itself (failed and
// rolled back on PostgreSQL, failed part way on TiDB) is no error: the
// data migration runs before the rest of it on the next apply
// (placedBefore), and a note on notes says what ran. An env without a url
// is not checked, and a note says so.
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
				if f.Version == version {
					// It stopped there: the data migration runs first
					// when apply runs again (placedBefore).
					switch {
					case f.Applied == 0:
						fmt.Fprintf(notes, "note: the database of env %q (%s) failed on version %s and kept none of it; the data migration runs before all of it on the next apply\n", t.Env.Name, st.URL, version)
					default:
						fmt.Fprintf(notes, "note: the database of env %q (%s) applied %d of the %d statements of version %s before it stopped; the data migration runs after those, before statement %d, on the next apply: write it for the schema as they left it\n", t.Env.Name, st.URL, f.Applied, f.Total, version, f.Applied+1)
					}
					break
				}
				what = fmt.Sprintf("began (%d of %d statements; Atlas resumes it first and would never run a file placed before it)", f.Applied, f.Total)
			}
			out = append(out, fmt.Sprintf("Error: --before %s: the database of env %q (%s) %s version %s; a data migration cannot run before it there: write it as a new migration (schemagen migrate new NAME --data)", version, t.Env.Name, st.URL, what, f.Version))
			break
		}
	}
	return out, nil
}

// placedBefore reports whether dir holds data migrations placed before a
// file that stopped (migrate new --data --before a failed version): the
// last revision is of a file that failed or was applied in part, and every
// file below it without a revision comes after the last revision before
// it. Atlas runs them first, then the stopped file again (PostgreSQL: all
// of it, rolled back) or from the statement that failed (TiDB); a file
// missing from the history anywhere else is still refused
// (HistoryNonLinearError).
func placedBefore(dir migrate.Dir, revs []*migrate.Revision) bool {
	if len(revs) == 0 {
		return false
	}
	last := revs[len(revs)-1]
	if last.Applied == last.Total {
		return false
	}
	prev := ""
	if len(revs) > 1 {
		prev = revs[len(revs)-2].Version
	}
	have := make(map[string]bool, len(revs))
	for _, r := range revs {
		have[r.Version] = true
	}
	files, err := dir.Files()
	if err != nil {
		return false
	}
	placed := false
	for _, f := range migrate.SkipCheckpointFiles(files) {
		v := f.Version()
		if v >= last.Version || have[v] {
			continue
		}
		if v <= prev {
			return false
		}
		placed = true
	}
	return placed
}
