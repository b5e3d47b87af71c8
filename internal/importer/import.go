// Package importer builds schemagen's model from live databases, for
// `schemagen import`: one database, or one of each dialect for the same
// application. Package read reads each database in its own dialect's terms;
// this package merges them (what means the same in both is neutral, each
// real difference an override or an object left out of one dialect, listed
// in the summary) and settles the result, compiling it for every dialect
// until each accepts what it holds.
package importer

import (
	"context"
	"fmt"
	"sync"

	"github.com/schemagen/schemagen/dialects"
	"github.com/schemagen/schemagen/dialects/all"
	"github.com/schemagen/schemagen/internal/devdb"
	"github.com/schemagen/schemagen/internal/importer/read"
)

// Import reads one database, or one of each dialect for the same application,
// and builds the model.
func Import(ctx context.Context, urls []string, patterns []string) (*Result, error) {
	if len(urls) == 0 || len(urls) > 2 {
		return nil, fmt.Errorf("import reads one database, or one of each dialect (got %d URLs)", len(urls))
	}
	var ds []dialects.Dialect
	seen := map[string]bool{}
	for _, u := range urls {
		name, err := devdb.DialectOf(u)
		if err != nil {
			return nil, err
		}
		if seen[name] {
			return nil, fmt.Errorf("two %s URLs: import merges one database of each dialect", name)
		}
		seen[name] = true
		ds = append(ds, all.Get(name))
	}
	// The databases are read side by side: each read waits mostly on its
	// server. The first URL's error is reported first.
	got := make([]*read.Imported, len(urls))
	errs := make([]error, len(urls))
	var wg sync.WaitGroup
	for i, u := range urls {
		wg.Go(func() { got[i], errs[i] = read.Database(ctx, ds[i], u, patterns) })
	}
	wg.Wait()
	for _, err := range errs {
		if err != nil {
			return nil, err
		}
	}
	if len(got) == 1 {
		return Single(got[0], all.Names()), nil
	}
	// PostgreSQL's terms are the neutral ones where the dialects differ: its
	// types are the richer (uuid, timestamptz, jsonb).
	a, b := got[0], got[1]
	if imp, ok := b.Dialect.(dialects.Importer); ok && imp.ModelTerms() {
		a, b = b, a
	}
	return Merge(a, b), nil
}
