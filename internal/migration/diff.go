package migration

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"time"

	"ariga.io/atlas/sql/migrate"
	"ariga.io/atlas/sql/schema"
)

// Planned is the migration planned for one target.
type Planned struct {
	Target Target
	Dir    *migrate.LocalDir
	Plan   *migrate.Plan // nil when the directory is up to date
}

// Plan computes, for every target, the migration from the state its
// directory produces to the state of its generated DDL. Nothing is written.
func Plan(ctx context.Context, dev *Dev, targets []Target, name string) ([]*Planned, error) {
	var out []*Planned
	for _, t := range targets {
		dir, err := OpenDir(t.Env.Dir, true)
		if err != nil {
			return nil, err
		}
		if err := CheckSum(dir); err != nil {
			return nil, err
		}
		plan, err := planTarget(ctx, dev, t, dir, name)
		if err != nil {
			return nil, fmt.Errorf("env %s: %w", t.Env.Name, err)
		}
		out = append(out, &Planned{Target: t, Dir: dir, Plan: plan})
	}
	return out, nil
}

func planTarget(ctx context.Context, dev *Dev, t Target, dir *migrate.LocalDir, name string) (*migrate.Plan, error) {
	if t.Env.Src == "" {
		return nil, fmt.Errorf("env %q has no src", t.Env.Name)
	}
	desiredSQL, err := os.ReadFile(t.Env.Src)
	if err != nil {
		return nil, fmt.Errorf("%w (run `schemagen generate` first)", err)
	}
	current, err := dev.Scratch(ctx, t.Dialect.Name(), t.Env.Dev)
	if err != nil {
		return nil, err
	}
	defer current.Close()
	desired, err := dev.Scratch(ctx, t.Dialect.Name(), t.Env.Dev)
	if err != nil {
		return nil, err
	}
	defer desired.Close()
	files, err := dir.Files()
	if err != nil {
		return nil, err
	}
	for _, f := range files {
		if err := execScript(ctx, current, filepath.Join(dir.Path(), f.Name()), string(f.Bytes())); err != nil {
			return nil, fmt.Errorf("replaying the migration directory: %w", err)
		}
	}
	if err := execScript(ctx, desired, t.Env.Src, string(desiredSQL)); err != nil {
		return nil, fmt.Errorf("loading the generated schema: %w", err)
	}
	drv, from, err := inspect(ctx, t.Dialect, current)
	if err != nil {
		return nil, err
	}
	_, to, err := inspect(ctx, t.Dialect, desired)
	if err != nil {
		return nil, err
	}
	// Both states were read from a real database, so they are normalised
	// alike and CHECK expressions compare as text.
	if t.Dialect.Renormalizes() {
		// Rebuild the desired state from the statements a migration would
		// hold, so that it is normalised as the replayed files are.
		if to, err = rebuild(ctx, dev, t, drv, to); err != nil {
			return nil, err
		}
	}
	changes, err := drv.SchemaDiff(from, to, schema.DiffNormalized())
	if err != nil {
		return nil, err
	}
	if len(changes) == 0 {
		return nil, nil
	}
	return drv.PlanChanges(ctx, name, changes, planOptions)
}

func planOptions(o *migrate.PlanOptions) {
	o.SchemaQualifier = new(string)
	o.Indent = "  "
}

// rebuild plans state from an empty database, runs the planned statements on
// a new scratch database and returns what that database reports.
func rebuild(ctx context.Context, dev *Dev, t Target, drv migrate.Driver, state *schema.Schema) (*schema.Schema, error) {
	changes, err := drv.SchemaDiff(schema.New(""), state, schema.DiffNormalized())
	if err != nil {
		return nil, err
	}
	plan, err := drv.PlanChanges(ctx, "rebuild", changes, planOptions)
	if err != nil {
		return nil, err
	}
	scratch, err := dev.Scratch(ctx, t.Dialect.Name(), t.Env.Dev)
	if err != nil {
		return nil, err
	}
	defer scratch.Close()
	for _, c := range plan.Changes {
		if _, err := scratch.ExecContext(ctx, c.Cmd); err != nil {
			return nil, fmt.Errorf("rebuilding the desired state: %w\n%s", err, c.Cmd)
		}
	}
	_, s, err := inspect(ctx, t.Dialect, scratch)
	return s, err
}

// Write writes the planned files, all with one version, and updates each
// directory's atlas.sum. It returns the paths written.
func Write(planned []*Planned, name string, now time.Time) ([]string, error) {
	var dirs []*migrate.LocalDir
	for _, p := range planned {
		if p.Plan != nil {
			dirs = append(dirs, p.Dir)
		}
	}
	if len(dirs) == 0 {
		return nil, nil
	}
	version, err := NextVersion(now, dirs...)
	if err != nil {
		return nil, err
	}
	var written []string
	for _, p := range planned {
		if p.Plan == nil {
			continue
		}
		p.Plan.Version, p.Plan.Name = version, name
		content, err := Format(p.Plan)
		if err != nil {
			return written, err
		}
		file := FileName(version, name)
		if err := p.Dir.WriteFile(file, content); err != nil {
			return written, err
		}
		written = append(written, filepath.Join(p.Dir.Path(), file))
		if err := Hash(p.Dir); err != nil {
			return written, err
		}
	}
	return written, nil
}

// Format renders a plan exactly as the Atlas CLI writes migration files.
func Format(plan *migrate.Plan) ([]byte, error) {
	files, err := migrate.DefaultFormatter.Format(plan)
	if err != nil {
		return nil, err
	}
	if len(files) != 1 {
		return nil, fmt.Errorf("formatting plan %s: %d files", plan.Name, len(files))
	}
	return files[0].Bytes(), nil
}

// NewFile writes an empty migration file with one version in every
// directory (for data migrations) and updates their atlas.sum.
func NewFile(targets []Target, name string, now time.Time) ([]string, error) {
	var dirs []*migrate.LocalDir
	for _, t := range targets {
		dir, err := OpenDir(t.Env.Dir, true)
		if err != nil {
			return nil, err
		}
		if err := CheckSum(dir); err != nil {
			return nil, err
		}
		dirs = append(dirs, dir)
	}
	version, err := NextVersion(now, dirs...)
	if err != nil {
		return nil, err
	}
	var written []string
	for _, dir := range dirs {
		file := FileName(version, name)
		if err := dir.WriteFile(file, nil); err != nil {
			return written, err
		}
		written = append(written, filepath.Join(dir.Path(), file))
		if err := Hash(dir); err != nil {
			return written, err
		}
	}
	return written, nil
}
