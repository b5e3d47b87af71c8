package sqltext

import "github.com/schemagen/schemagen/compiler/expr"

// TiDB's reading of its printed expressions still goes through the one
// expression reader of compiler/expr under these names, until it reads them
// with TiDB's own parser.
type (
	Grammar = expr.Grammar
	Reader  = expr.Reader
	Read    = expr.Read
	Term    = expr.Term
)
