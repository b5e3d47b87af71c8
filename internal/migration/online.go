package migration

import (
	"context"
	"fmt"
	"path/filepath"
	"time"

	"ariga.io/atlas/sql/migrate"
	"ariga.io/atlas/sql/schema"

	"github.com/schemagen/schemagen/internal/online"
)

// PlanOption configures Plan.
type PlanOption func(*planConfig)

type planConfig struct {
	plain   bool
	desired func(ctx context.Context, t Target, src []byte) (*State, error)
	current func(ctx context.Context, t Target, dirPath string, files []migrate.File) (*State, error)
}

// CurrentFrom makes Plan take each target's current state from replay,
// given the directory's files, instead of replaying them all on a scratch
// database of its own: a caller that plans one directory step after step
// replays only the files each step adds (the plan oracle). Replay must
// fail as DirState does. The State it returns is the plan's to change and
// Close, and its database the proof's: migrate diff runs the files it
// plans there (see prove.go), so that after Write the database holds the
// directory with its new files, and after a failed Plan an unknown state
// (the caller must replay anew).
func CurrentFrom(replay func(ctx context.Context, t Target, dirPath string, files []migrate.File) (*State, error)) PlanOption {
	return func(c *planConfig) { c.current = replay }
}

// DesiredFrom makes Plan take each target's desired state from load, given
// the generated DDL src it would load, instead of loading src on a scratch
// database of its own: a caller that plans several directories to one
// model loads it once (the plan oracle; see Reread). The State load returns
// is the plan's to change and Close.
func DesiredFrom(load func(ctx context.Context, t Target, src []byte) (*State, error)) PlanOption {
	return func(c *planConfig) { c.desired = load }
}

// Plain plans what Atlas plans, statement by statement with its hazards,
// instead of the online plan (concurrent index builds, constraints added
// NOT VALID and validated afterwards, lock_timeout).
func Plain(plain bool) PlanOption { return func(c *planConfig) { c.plain = plain } }

// planChanges plans changes as the migration file and, for an online plan
// that needs one, the file run after it outside a transaction.
func planChanges(ctx context.Context, t Target, drv migrate.Driver, name string, changes []schema.Change, opts []PlanOption) (*migrate.Plan, *migrate.Plan, error) {
	var c planConfig
	for _, o := range opts {
		o(&c)
	}
	return online.Plan(ctx, t.Online(), drv, name, changes, !c.plain, PlanOptions)
}

// writeOnline writes the online file of p one second after version, so that
// it runs after the file of version; it returns its path.
func writeOnline(p *Planned, version, name string) (string, error) {
	v, err := time.Parse(VersionLayout, version)
	if err != nil {
		return "", fmt.Errorf("version %s: %w", version, err)
	}
	p.Online.Version, p.Online.Name = v.Add(time.Second).Format(VersionLayout), name+"_online"
	content, err := Format(p.Online)
	if err != nil {
		return "", err
	}
	file := FileName(p.Online.Version, p.Online.Name)
	if err := p.Dir.WriteFile(file, content); err != nil {
		return "", err
	}
	return filepath.Join(p.Dir.Path(), file), nil
}

// OnlinePart reports whether files[i] is the online file of the migration
// before it (NAME_online, written with the next second's version): with it,
// one migration.
func OnlinePart(files []migrate.File, i int) bool {
	if i == 0 {
		return false
	}
	f, prev := files[i], files[i-1]
	if f.Desc() != prev.Desc()+"_online" {
		return false
	}
	v, err1 := time.Parse(VersionLayout, f.Version())
	pv, err2 := time.Parse(VersionLayout, prev.Version())
	return err1 == nil && err2 == nil && v.Sub(pv) == time.Second
}
