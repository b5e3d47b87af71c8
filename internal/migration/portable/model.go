package portable

import (
	"context"
	"errors"
	"fmt"
	"github.com/schemagen/schemagen/internal/migration"
	"io/fs"
	"os"
	"strings"

	"ariga.io/atlas/sql/migrate"

	"github.com/schemagen/schemagen/compiler"
	"github.com/schemagen/schemagen/internal/datamig"
	"github.com/schemagen/schemagen/internal/gen"
	"github.com/schemagen/schemagen/internal/importer"
	"github.com/schemagen/schemagen/internal/scratch"
)

// ModelAt is the model a portable data migration of version is checked
// against and rendered over: the schema the migration directories reach
// just before it. A data migration runs after the files of earlier
// versions and before the later ones, whatever schema.hcl holds today: a
// column a later migration drops is there for it, one a later migration
// adds is not. Each target's files of earlier versions, except rendered
// data migrations (data statements, which change no schema), are replayed
// on a clean dev database, and the databases are read back as import reads
// them, one of each dialect merged into one model (PostgreSQL's terms
// where the dialects differ). Nothing is read from schema.hcl or from the
// files' text, so hand-written and imported migrations count as what they
// do.
func ModelAt(ctx context.Context, dev *scratch.Dev, targets []migration.Target, version string) (*gen.Result, error) {
	var urls []string
	seen := map[string]bool{}
	for _, t := range targets {
		if seen[t.Dialect.Name()] {
			continue // import reads one database of each dialect
		}
		seen[t.Dialect.Name()] = true
		files, err := schemaFilesBefore(t.Env.Dir, version)
		if err != nil {
			return nil, err
		}
		st, err := migration.DirState(ctx, dev, t, t.Env.Dir, migration.FromCheckpoint(files))
		if err != nil {
			return nil, fmt.Errorf("the schema at version %s: %w", version, err)
		}
		defer st.Close()
		if len(st.Schema.Tables) > 0 {
			urls = append(urls, st.DB().URL)
		}
	}
	name := fmt.Sprintf("(the schema before version %s)", version)
	if len(urls) == 0 {
		return gen.CompileSource(name, nil), nil
	}
	r, err := importer.Import(ctx, urls, nil)
	if err != nil {
		return nil, fmt.Errorf("reading back the schema the migrations before version %s create: %w", version, err)
	}
	res := gen.CompileSource(name, compiler.Write(r.Schema, r.Notes))
	if res.Failed() {
		var msgs []string
		for _, d := range res.Diags {
			msgs = append(msgs, d.Error())
		}
		return nil, fmt.Errorf("the schema the migrations before version %s create does not read back into a model that compiles, so no data migration can be checked against it:\n  %s", version, strings.Join(msgs, "\n  "))
	}
	return res, nil
}

// schemaFilesBefore lists the migration files of dir older than version,
// leaving out the rendered data migrations.
func schemaFilesBefore(dir, version string) ([]migrate.File, error) {
	if _, err := os.Stat(dir); errors.Is(err, fs.ErrNotExist) {
		return nil, nil
	}
	d, err := migration.OpenDir(dir, false)
	if err != nil {
		return nil, err
	}
	all, err := d.Files()
	if err != nil {
		return nil, err
	}
	var out []migrate.File
	for _, f := range all {
		if f.Version() < version && datamig.Source(f.Bytes()) == "" {
			out = append(out, f)
		}
	}
	return out, nil
}
