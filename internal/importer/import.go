package importer

import (
	"context"
	"fmt"
	"sync"

	"github.com/schemagen/schemagen/dialects"
	"github.com/schemagen/schemagen/dialects/all"
	"github.com/schemagen/schemagen/internal/devdb"
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
	read := make([]*Imported, len(urls))
	errs := make([]error, len(urls))
	var wg sync.WaitGroup
	for i, u := range urls {
		wg.Go(func() { read[i], errs[i] = Read(ctx, ds[i], u, patterns) })
	}
	wg.Wait()
	for _, err := range errs {
		if err != nil {
			return nil, err
		}
	}
	if len(read) == 1 {
		return Single(read[0], all.Names()), nil
	}
	// PostgreSQL's terms are the neutral ones where the dialects differ: its
	// types are the richer (uuid, timestamptz, jsonb).
	a, b := read[0], read[1]
	if imp, ok := b.Dialect.(dialects.Importer); ok && imp.ModelTerms() {
		a, b = b, a
	}
	return Merge(a, b), nil
}
