package tidb

import (
	"strconv"

	"github.com/pingcap/tidb/pkg/parser"
	"github.com/pingcap/tidb/pkg/parser/mysql"

	"github.com/schemagen/schemagen/dialects"
)

// defaultMode is TiDB's default sql_mode, under which a server that nobody
// configured parses statements.
var defaultMode = func() mysql.SQLMode {
	m, err := mysql.GetSQLMode(mysql.DefaultSQLMode)
	if err != nil {
		panic(err)
	}
	return m
}()

// ParseStmt implements dialects.StmtParser with TiDB's parser, the one the
// server runs: a statement it rejects gets the line, column and text near the
// error that the server's error 1064 gives (see ReadError).
func (Dialect) ParseStmt(text string) (dialects.StmtError, bool) {
	p := parsers.Get().(*parser.Parser)
	defer parsers.Put(p)
	p.SetSQLMode(defaultMode)
	_, _, err := p.Parse(text, "", "")
	if err == nil {
		return dialects.StmtError{}, false
	}
	e := dialects.StmtError{Syntax: true, Msg: "syntax error"}
	if m := syntaxNear.FindStringSubmatch(err.Error()); m != nil {
		e.Line, _ = strconv.Atoi(m[1])
		e.Col, _ = strconv.Atoi(m[2])
		e.Near = m[3]
	} else {
		e.Msg = err.Error()
	}
	return e, true
}

var _ dialects.StmtParser = Dialect{}
