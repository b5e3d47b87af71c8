package tidb

import (
	"fmt"
	"regexp"
	"strconv"
	"strings"
	"unicode/utf8"

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

// parseStmt parses one statement with TiDB's parser, the one the server runs
// (LintStmt reports what it rejects). A statement it rejects gets the line,
// column and text near the error that the server's error 1064 gives (see
// ReadError), and the character position where the error starts (Rune).
func (Dialect) parseStmt(text string) (dialects.StmtError, bool) {
	_, err := parse(text, defaultMode)
	if err == nil {
		return dialects.StmtError{}, false
	}
	if re, ok := err.(*ReadError); ok {
		// Not the server's syntax error: the parser here failed.
		return dialects.StmtError{Msg: re.Msg}, true
	}
	e := dialects.StmtError{Syntax: true, Msg: "syntax error"}
	m := stmtSyntaxNear.FindStringSubmatch(err.Error())
	if m == nil {
		e.Msg = err.Error()
		return e, true
	}
	e.Line, _ = strconv.Atoi(m[1])
	e.Col, _ = strconv.Atoi(m[2])
	e.Near = m[3]
	// The parser quotes the text from the error's start to the statement's
	// end, cut at 2048 bytes and then followed by its length.
	rest := len(e.Near)
	if m[4] != "" {
		rest, _ = strconv.Atoi(m[4])
	}
	if off := len(text) - rest; off >= 0 && off <= len(text) && strings.HasPrefix(text[off:], e.Near) {
		e.Rune = utf8.RuneCountInString(text[:off]) + 1
	}
	return e, true
}

var stmtSyntaxNear = regexp.MustCompile(`line (\d+) column (\d+) near "((?s).*?)"(?:\(total length (\d+)\))?\s*$`)

// syntaxFinding is SG103 for a statement TiDB's parser rejects, at the
// position the server's syntax error would give, found without the dev
// database: also in the statements after one that failed there, which lint
// then checks only by their text. A statement that a lexical SG103 already
// explains does not get it (see LintStmt).
func (d Dialect) syntaxFinding(text string) (dialects.StmtFinding, bool) {
	e, bad := d.parseStmt(text)
	if !bad || !e.Syntax {
		return dialects.StmtFinding{}, false
	}
	off := 0
	if e.Rune > 0 {
		off = len(string([]rune(text)[:e.Rune-1]))
	}
	near := strings.TrimSuffix(strings.TrimSpace(e.Near), ";")
	if i := strings.IndexByte(near, '\n'); i >= 0 {
		near = near[:i]
	}
	msg := fmt.Sprintf("TiDB's parser rejects this statement: %s near %q; is it written for another dialect?", e.Msg, near)
	if near == "" {
		msg = fmt.Sprintf("TiDB's parser rejects this statement: %s at its end; is it written for another dialect?", e.Msg)
	}
	return dialects.StmtFinding{Code: "SG103", Off: off, Msg: msg}, true
}
