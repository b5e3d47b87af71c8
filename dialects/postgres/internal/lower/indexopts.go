package lower

import (
	"slices"
	"strconv"
	"strings"

	"github.com/schemagen/schemagen/compiler"
	"github.com/schemagen/schemagen/dialects"
	"github.com/schemagen/schemagen/dialects/internal/sqltext"
)

// storageParams are the storage parameters each index method takes
// (PostgreSQL's CREATE INDEX, and pgvector's hnsw and ivfflat), with the
// range of a whole-number parameter; a parameter without one is boolean.
var storageParams = map[string]map[string][2]int64{
	"btree":   {"fillfactor": {10, 100}, "deduplicate_items": {}},
	"hash":    {"fillfactor": {10, 100}},
	"gist":    {"fillfactor": {10, 100}},
	"spgist":  {"fillfactor": {10, 100}},
	"gin":     {"fastupdate": {}, "gin_pending_list_limit": {64, 2147483647}},
	"brin":    {"pages_per_range": {1, 131072}, "autosummarize": {}},
	"hnsw":    {"m": {2, 100}, "ef_construction": {4, 1000}},
	"ivfflat": {"lists": {1, 32768}},
}

// indexOptions writes an index's INCLUDE, NULLS NOT DISTINCT and WITH
// (storage parameters), checks the parameters against its method, and
// explains visible = false, which PostgreSQL has no counterpart of.
func (l *lowerer) indexOptions(t *compiler.Table, idx *compiler.Index, li *sqltext.Index) {
	ref := t.Ref(compiler.KindIndex, idx.Name)
	if len(idx.Include) > 0 {
		li.Clauses = append(li.Clauses, "INCLUDE ("+style.List(idx.Include)+")")
	}
	if idx.NullsNotDistinct {
		// PostgreSQL 15 and later; 14 refuses the statement (a syntax
		// error at NULLS), as docs/language.md says.
		li.Clauses = append(li.Clauses, "NULLS NOT DISTINCT")
	}
	if len(idx.Storage) > 0 {
		method := strings.ToLower(idx.Method())
		if method == "" {
			method = "btree"
		}
		known := storageParams[method]
		var ps []string
		for _, p := range idx.Storage {
			rng, ok := known[p.Name]
			if !ok {
				names := make([]string, 0, len(known))
				for n := range known {
					names = append(names, n)
				}
				slices.Sort(names)
				l.rec.Errorf(p.Range, "Unknown storage parameter", "Index %q (%s) has no storage parameter %q on PostgreSQL; %s indexes take %s.", idx.Name, method, p.Name, method, strings.Join(names, ", "))
				continue
			}
			boolean := p.Value == "true" || p.Value == "false"
			if rng == [2]int64{} && !boolean || rng != [2]int64{} && (boolean || !inRange(p.Value, rng)) {
				want := "true or false"
				if rng != [2]int64{} {
					want = "a whole number from " + itoa(rng[0]) + " to " + itoa(rng[1])
				}
				l.rec.Errorf(p.Range, "Invalid storage parameter", "Storage parameter %s of index %q is %s on PostgreSQL.", p.Name, idx.Name, want)
				continue
			}
			ps = append(ps, p.Name+" = "+p.Value)
		}
		if len(ps) > 0 {
			li.Clauses = append(li.Clauses, "WITH ("+strings.Join(ps, ", ")+")")
		}
	}
	if idx.Invisible {
		l.rec.About(t.Name, compiler.KindIndex, idx.Name)
		l.rec.Decide(ref, dialects.Omitted, "visible = false left out: PostgreSQL has no invisible indexes, its planner uses every valid index")
	}
}

func inRange(v string, r [2]int64) bool {
	n, err := strconv.ParseInt(v, 10, 64)
	return err == nil && n >= r[0] && n <= r[1]
}

func itoa(n int64) string { return strconv.FormatInt(n, 10) }
