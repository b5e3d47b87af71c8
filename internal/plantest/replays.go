package plantest

import (
	"bytes"
	"context"
	"slices"
	"sync"

	"ariga.io/atlas/sql/migrate"

	"github.com/schemagen/schemagen/internal/migration"
	"github.com/schemagen/schemagen/internal/scratch"
)

// Replays are, by dialect, scratch databases holding a migration directory
// replayed so far, to which each plan replays only the files added since
// (migrate diff replays them all on a clean database: the same statements
// in the same order). Its Current is a migration.CurrentFrom for runs that
// plan one directory many times (the oracle, the replay of public
// histories). The zero value is ready; Close drops the databases.
type Replays struct {
	mu sync.Mutex
	m  map[string]*replayed
}

// replayed is a scratch database holding files replayed in order.
type replayed struct {
	st    *migration.State
	files []migrate.File
}

// Current is migrate diff's current state of target t's directory (at
// dirPath, holding files): its replayed database, once the files it lacks
// are replayed there. A directory whose earlier files changed is replayed
// on a new database.
func (r *Replays) Current(ctx context.Context, dev *scratch.Dev, t migration.Target, dirPath string, files []migrate.File) (*migration.State, error) {
	d := t.Dialect.Name()
	r.mu.Lock()
	rp := r.m[d]
	delete(r.m, d)
	r.mu.Unlock()
	if rp != nil && (len(rp.files) > len(files) || !slices.EqualFunc(rp.files, files[:len(rp.files)], func(a, b migrate.File) bool {
		return a.Name() == b.Name() && bytes.Equal(a.Bytes(), b.Bytes())
	})) {
		rp.st.Close()
		rp = nil
	}
	if rp == nil {
		st, err := migration.DirState(ctx, dev, t, dirPath, nil)
		if err != nil {
			return nil, err
		}
		rp = &replayed{st: st}
	}
	todo := files[len(rp.files):]
	if err := migration.ReplayOn(ctx, t, rp.st, dirPath, todo); err != nil {
		rp.st.Close()
		return nil, err
	}
	rp.files = append(rp.files, todo...)
	st, err := migration.Reread(ctx, t, rp.st)
	if err != nil {
		rp.st.Close()
		return nil, err
	}
	r.mu.Lock()
	if r.m == nil {
		r.m = map[string]*replayed{}
	}
	r.m[d] = rp
	r.mu.Unlock()
	return st, nil
}

// Close drops the replayed databases.
func (r *Replays) Close() {
	r.mu.Lock()
	defer r.mu.Unlock()
	for d, rp := range r.m {
		rp.st.Close()
		delete(r.m, d)
	}
}

// Proven records that migrate diff's proof ran the files it wrote on the
// replayed databases (a target planned with nothing to do ran none). Call
// it after migration.Write; after a failed Plan, Close.
func (r *Replays) Proven(planned []*migration.Planned) error {
	r.mu.Lock()
	defer r.mu.Unlock()
	for _, p := range planned {
		rp := r.m[p.Target.Dialect.Name()]
		if p.Plan == nil || rp == nil {
			continue
		}
		files, err := p.Dir.Files()
		if err != nil {
			return err
		}
		rp.files = files
	}
	return nil
}
