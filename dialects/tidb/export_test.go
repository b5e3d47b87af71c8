package tidb

import (
	"github.com/schemagen/schemagen/dialects"
	"github.com/schemagen/schemagen/dialects/tidb/internal/atlasdrv"
)

// ParseStmt is parseStmt, for the tests against the server.
func (d Dialect) ParseStmt(text string) (dialects.StmtError, bool) { return d.parseStmt(text) }

// AtlasRewrites returns how many queries each rewrite of Atlas's SQL has
// changed so far, by name.
func AtlasRewrites() map[string]int64 { return atlasdrv.Rewrites() }
