package tidb

import (
	"fmt"

	"ariga.io/atlas/sql/migrate"
)

// ScanStmts implements migrate.StmtScanner with the MySQL driver's scanner
// (backslash escapes, # comments), which the embedded interface hides:
// without it Atlas splits files with its generic scanner, which breaks
// statements such as 'it\'s' and would count and hash statements
// differently from the Atlas CLI.
func (d *atlasDriver) ScanStmts(input string) ([]*migrate.Stmt, error) {
	s, ok := d.Driver.(migrate.StmtScanner)
	if !ok {
		return nil, fmt.Errorf("tidb: Atlas's MySQL driver (%T) scans no statements", d.Driver)
	}
	return s.ScanStmts(input)
}
