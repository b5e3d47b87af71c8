package tidb

import "github.com/schemagen/schemagen/dialects"

// ParseStmt is parseStmt, for the tests against the server.
func (d Dialect) ParseStmt(text string) (dialects.StmtError, bool) { return d.parseStmt(text) }

// AtlasRewrites returns how many queries each rewrite of Atlas's SQL has
// changed so far, by name.
func AtlasRewrites() map[string]int64 {
	out := map[string]int64{}
	for _, r := range atlasRewrites {
		out[r.name] = r.fired.Load()
	}
	return out
}
