// Package lifecycle is the migration directory over the years, for every
// dialect at once: checkpoints (Checkpoint), moving a branch's versions after
// a merge (Rebase), and the versions one dialect's directory has and
// another's lacks (UnpairedVersions). Reverting and recording what a
// database applied are package deploy's (Down, Set).
package lifecycle

import (
	"context"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"time"

	"ariga.io/atlas/sql/migrate"

	"github.com/schemagen/schemagen/internal/migration"
	"github.com/schemagen/schemagen/internal/scratch"
)

// BehindError is a checkpoint refused because a directory is not in step
// with the model: the checkpoint holds the generated DDL, which must be the
// directory's state.
type BehindError struct{ Envs []string }

func (e *BehindError) Error() string {
	return fmt.Sprintf("env %s: the migration directory is behind the model; run `schemagen migrate diff NAME` (and commit it) before a checkpoint, which must hold the directory's state",
		strings.Join(e.Envs, ", "))
}

// Checkpoint writes, in every target's directory at one version, a
// checkpoint file in Atlas's format (`-- atlas:checkpoint NAME` first, see
// migrate.LocalDir.WriteCheckpoint) holding the directory's whole state,
// and rewrites atlas.sum. A new database (Atlas's executor, migrate apply)
// starts from the latest checkpoint; one that applied the files before it
// goes on after it, never running it.
//
// The state is the env's generated DDL, which holds the model's texts:
// every directory must first be in step with the model (a diff that finds
// nothing, else a *BehindError). After writing, the diff is run again,
// replaying from the checkpoint, and must find nothing either; otherwise
// the files are removed again and the error returned. It returns the paths
// written.
func Checkpoint(ctx context.Context, dev *scratch.Dev, cache *scratch.Cache, targets []migration.Target, model migration.Model, name string, now time.Time) ([]string, error) {
	planned, err := migration.Plan(ctx, dev, cache, targets, model, name)
	if err != nil {
		return nil, err
	}
	var behind []string
	var dirs []*migrate.LocalDir
	for _, p := range planned {
		if p.Plan != nil || p.Online != nil {
			behind = append(behind, p.Target.Env.Name)
		}
		dirs = append(dirs, p.Dir)
	}
	if len(behind) > 0 {
		return nil, &BehindError{Envs: behind}
	}
	version, err := migration.NextVersion(now, dirs...)
	if err != nil {
		return nil, err
	}
	file := migration.FileName(version, name)
	var written []string
	undo := func() {
		for _, p := range planned {
			os.Remove(filepath.Join(p.Dir.Path(), file))
			migration.Hash(p.Dir)
		}
	}
	for _, p := range planned {
		src, err := migration.Generated(p.Target, model)
		if err != nil {
			undo()
			return nil, err
		}
		header := fmt.Sprintf("-- Checkpoint %s: the whole state of %s at version %s, from %s.\n"+
			"-- A new database starts here; one that applied the files before it goes on after it.\n\n",
			name, p.Dir.Path(), version, p.Target.Env.Src)
		if err := p.Dir.WriteCheckpoint(file, name, append([]byte(header), src...)); err != nil {
			undo()
			return nil, err
		}
		if err := migration.Hash(p.Dir); err != nil {
			undo()
			return nil, err
		}
		written = append(written, filepath.Join(p.Dir.Path(), file))
	}
	// Proven as a new database would run it: replayed from the checkpoint,
	// the directory must still be in step with the model.
	again, err := migration.Plan(ctx, dev, nil, targets, model, name)
	if err == nil {
		for _, p := range again {
			if p.Plan != nil || p.Online != nil {
				err = errors.Join(err, fmt.Errorf("env %s: replayed from the checkpoint, the directory is not the model's state (a diff plans changes)", p.Target.Env.Name))
			}
		}
	}
	if err != nil {
		undo()
		return nil, fmt.Errorf("the checkpoint does not hold the directory's state; nothing is written: %w", err)
	}
	return written, nil
}
