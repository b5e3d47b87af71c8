package importer

import (
	"context"
	"fmt"

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
	var read []*Imported
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
		d := all.Get(name)
		im, err := Read(ctx, d, u, patterns)
		if err != nil {
			return nil, err
		}
		read = append(read, im)
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
