// Package lint is `schemagen migrate lint`: before a migration file reaches a
// database, it says what the file would do there that needs a second look:
// data lost, statements that fail on rows already present, locks that stall
// writes, another dialect's syntax, and data changes the analyzers cannot
// read. It replays the directory on a scratch dev database and runs Atlas's
// analyzers and schemagen's rules on what each statement changed; the
// dialect of each directory contributes its own rules (dialects.Lint).
package lint

import (
	"context"
	"database/sql"
	"fmt"
	"maps"
	"path/filepath"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"time"
	"unicode/utf8"

	"ariga.io/atlas/sql/migrate"
	"ariga.io/atlas/sql/schema"
	"ariga.io/atlas/sql/sqlcheck"
	"ariga.io/atlas/sql/sqlclient"

	"github.com/schemagen/schemagen/dialects"
	"github.com/schemagen/schemagen/internal/devdb"
	"github.com/schemagen/schemagen/internal/migration"
	"github.com/schemagen/schemagen/internal/migration/proof"
	"github.com/schemagen/schemagen/internal/redact"
	"github.com/schemagen/schemagen/internal/scratch"
)

// Options selects the files `migrate lint` checks in each directory.
type Options struct {
	// GitBase lints the files added or changed since this git ref (in the
	// working tree, untracked files included).
	GitBase string
	// Latest lints the latest N files when GitBase is empty (default 1).
	Latest int
	// Cache keeps the states of the directory's files (nil: none): the
	// files before those linted are loaded from the longest kept prefix
	// and only the rest replayed (migration.KeptStart), and a file changed
	// after a kept state was reached through it is refused.
	Cache *scratch.Cache
}

// Finding is one lint result.
type Finding struct {
	Env       string   `json:"env"`
	Dialect   string   `json:"dialect"`
	File      string   `json:"file"`
	Line      int      `json:"line"`
	Column    int      `json:"column"`
	Statement int      `json:"statement,omitempty"` // 1-based; 0: the file
	Code      string   `json:"code"`
	Severity  Severity `json:"severity"`
	Message   string   `json:"message"`
	// Suppressed by a nolint comment, whose reason is Reason.
	Suppressed bool   `json:"suppressed"`
	Reason     string `json:"reason,omitempty"`
}

// File is a migration file that was linted.
type File struct {
	Env        string `json:"env"`
	Dialect    string `json:"dialect"`
	File       string `json:"file"`
	Statements int    `json:"statements"`
}

// Report is the result of Lint.
type Report struct {
	Files    []File
	Findings []Finding
	// Notes say what was not checked and why.
	Notes []string
}

// Counts returns the numbers of unsuppressed errors and warnings, and of
// suppressed findings.
func (r *Report) Counts() (errs, warnings, suppressed int) {
	for _, f := range r.Findings {
		switch {
		case f.Suppressed:
			suppressed++
		case f.Severity == SeverityError:
			errs++
		default:
			warnings++
		}
	}
	return
}

// Lint checks the new migration files of every target: it replays each
// directory on a scratch dev database, statement by statement for the files
// it lints, computes what each statement changes, and runs Atlas's analyzers
// and schemagen's rules on that. Files that do not match atlas.sum are
// refused (*SumError).
func Run(ctx context.Context, dev *scratch.Dev, targets []migration.Target, opts Options) (*Report, error) {
	if opts.GitBase == "" && opts.Latest <= 0 {
		opts.Latest = 1
	}
	r := &Report{}
	for _, t := range targets {
		if err := lintTarget(ctx, dev, t, opts, r); err != nil {
			return nil, fmt.Errorf("env %s: %w", t.Env.Name, err)
		}
	}
	return r, nil
}

func lintTarget(ctx context.Context, dev *scratch.Dev, t migration.Target, opts Options, r *Report) error {
	dir, err := migration.OpenDir(t.Env.Dir, false)
	if err != nil {
		return err
	}
	if err := migration.CheckSum(dir); err != nil {
		return err
	}
	files, err := dir.Files()
	if err != nil {
		return err
	}
	if err := migration.CheckHistory(opts.Cache, t, dir.Path(), files); err != nil {
		return err
	}
	selected, err := lintSelect(ctx, dir.Path(), files, opts)
	if err != nil {
		return err
	}
	last := -1
	for i := range selected {
		if selected[i] {
			last = i
		}
	}
	if last < 0 {
		why := "it has no migration files"
		if opts.GitBase != "" {
			why = "no file was added or changed since " + opts.GitBase
		}
		r.Notes = append(r.Notes, fmt.Sprintf("%s: nothing to lint in %s: %s", t.Env.Name, dir.Path(), why))
		return nil
	}
	var db *scratch.DB
	defer func() {
		if db != nil {
			db.Close()
		}
	}()
	open := func() (*linter, error) {
		if db != nil {
			db.Close()
		}
		var err error
		if db, err = dev.Scratch(ctx, t.Dialect, t.Env.Dev); err != nil {
			return nil, err
		}
		return newLinter(ctx, t, db.DB)
	}
	l, err := open()
	if err != nil {
		return err
	}
	// A clean database starts at the last checkpoint before the first file
	// linted; a later checkpoint holds what the database has by then, and
	// is neither run nor linted.
	first := slices.Index(selected, true)
	start := max(migrate.FilesLastIndex(files[:first+1], migration.IsCheckpoint), 0)
	// The files before the first linted start from the longest prefix of
	// them whose state is kept, loaded instead of replayed.
	if k, src := migration.KeptStart(opts.Cache, t, files[:first]); src != nil && k > start {
		if err := l.load(ctx, fmt.Sprintf("%s (the state of its first %d files, kept by an earlier run)", dir.Path(), k), src); err == nil {
			start = k
		} else if l, err = open(); err != nil {
			// Only a cache: the files are replayed on a new database.
			return err
		}
	}
	for i, f := range files[:last+1] {
		path := filepath.Join(dir.Path(), f.Name())
		if i < start || i > start && migration.IsCheckpoint(f) {
			continue
		}
		if !selected[i] {
			if l.broken != "" {
				continue
			}
			if err := l.replay(ctx, path, f); err != nil {
				if r := migration.ReplayFailure(t.Env.Name, err); r != err {
					return r
				}
				return fmt.Errorf("replaying the migration directory: %w", err)
			}
			continue
		}
		lf, findings, err := l.lintFile(ctx, path, f)
		if err != nil {
			return err
		}
		r.Files = append(r.Files, lf)
		r.Findings = append(r.Findings, findings...)
	}
	r.Notes = append(r.Notes, l.notes...)
	return nil
}

// linter lints the files of one directory on one scratch database, in order.
type linter struct {
	t         migration.Target
	db        *sql.DB
	drv       migrate.Driver // the dialect's driver: inspects and diffs
	dev       *sqlclient.Client
	scanner   migrate.StmtScanner
	analyzers []sqlcheck.Analyzer
	state     *schema.Realm // the database's schemas now
	replayed  bool          // whether any statement ran
	broken    string        // where the replay stopped, if it did
	stale     bool          // files ran since state was read
	checks    *checkSetting
	notes     []string
}

func newLinter(ctx context.Context, t migration.Target, db *sql.DB) (*linter, error) {
	l := &linter{t: t, db: db}
	drv, err := t.Dialect.OpenAtlas(db)
	if err != nil {
		return nil, err
	}
	l.drv = drv
	// Atlas's analyzers and statement scanners come with its own drivers.
	name, raw, err := t.Dialect.AtlasLint(db)
	if err != nil {
		return nil, err
	}
	l.dev = &sqlclient.Client{Name: name, DB: db, Driver: raw}
	// The dialect's own scanner, as every command that reads the directory.
	l.scanner = t.Dialect
	if l.analyzers, err = sqlcheck.AnalyzerFor(name, nil); err != nil {
		return nil, err
	}
	if l.state, err = l.inspect(ctx); err != nil {
		return nil, err
	}
	return l, nil
}

// inspect reads the scratch database: the connected schema where a
// connection sees one (TiDB), else every schema of it (so that DROP SCHEMA is
// seen, DS101).
func (l *linter) inspect(ctx context.Context) (*schema.Realm, error) {
	if l.t.Dialect.OneSchema() {
		s, err := l.drv.InspectSchema(ctx, "", &schema.InspectOptions{Exclude: []string{dialects.RevisionTable}})
		if err != nil {
			return nil, err
		}
		return schema.NewRealm(s), nil
	}
	return l.drv.InspectRealm(ctx, &schema.InspectRealmOption{Exclude: []string{dialects.RevisionTable, "*." + dialects.RevisionTable}})
}

// tables counts the tables of a state.
func tables(r *schema.Realm) int {
	n := 0
	for _, s := range r.Schemas {
		n += len(s.Tables)
	}
	return n
}

// hasTable reports whether a state holds a table of that schema and name.
func hasTable(r *schema.Realm, t *schema.Table) bool {
	name := ""
	if t.Schema != nil {
		name = t.Schema.Name
	}
	if s, ok := r.Schema(name); ok {
		_, ok = s.Table(t.Name)
		return ok
	}
	return false
}

func (l *linter) stmts(src string) ([]*migrate.Stmt, error) {
	var (
		stmts []*migrate.Stmt
		err   error
	)
	if l.scanner != nil {
		stmts, err = l.scanner.ScanStmts(src)
	} else {
		stmts, err = migrate.Stmts(src)
	}
	if err != nil {
		return nil, err
	}
	fixPositions(src, stmts)
	return stmts, nil
}

// fixPositions makes every statement's Pos its byte offset in src (the
// scanner's is off after an atlas:delimiter line).
func fixPositions(src string, stmts []*migrate.Stmt) {
	from := 0
	for _, s := range stmts {
		if s.Pos >= from && strings.HasPrefix(src[min(s.Pos, len(src)):], s.Text) {
			from = s.Pos + len(s.Text)
			continue
		}
		if i := strings.Index(src[from:], s.Text); i >= 0 {
			s.Pos = from + i
			from = s.Pos + len(s.Text)
		}
	}
}

// load runs the generated DDL src of a kept state (named source) on the
// scratch database.
func (l *linter) load(ctx context.Context, source string, src []byte) error {
	if err := scratch.Exec(ctx, l.drv, source, src); err != nil {
		return err
	}
	l.replayed = true
	var err error
	l.state, err = l.inspect(ctx)
	return err
}

// replay runs a file that is not linted.
func (l *linter) replay(ctx context.Context, path string, f migrate.File) error {
	migration.Replayed(filepath.Dir(path), f)
	stmts, err := l.stmts(string(f.Bytes()))
	if err != nil {
		return fmt.Errorf("%s: %w", path, err)
	}
	for i, s := range stmts {
		if _, err := l.db.ExecContext(ctx, s.Text); err != nil {
			return &scratch.ExecError{Source: path, Stmt: i + 1, SQL: s.Text, Err: err}
		}
		l.replayed = true
	}
	// Read once before the next file linted, not after every file
	// replayed (execFile).
	l.stale = true
	return nil
}

// fileLint collects the findings of one file.
type fileLint struct {
	l        *linter
	path     string
	src      string
	stmts    []*migrate.Stmt
	reads    []dialects.StmtLint // what the dialect read in each statement
	findings []Finding
}

// add records a finding at byte offset off of the file, on statement stmt
// (1-based, 0 for the file).
func (fl *fileLint) add(stmt, off int, code, msg string) {
	sev := SeverityWarning
	if rule, ok := LookupRule(code); ok {
		sev = rule.Severity
	}
	line, col := lintLineCol(fl.src, off)
	fl.findings = append(fl.findings, Finding{
		Env: fl.l.t.Env.Name, Dialect: fl.l.t.Dialect.Name(), File: fl.path,
		Line: line, Column: col, Statement: stmt, Code: code, Severity: sev, Message: msg,
	})
}

// stmtAt returns the 1-based statement at byte offset off.
func (fl *fileLint) stmtAt(off int) int {
	n := 0
	for i, s := range fl.stmts {
		if s.Pos <= off {
			n = i + 1
		}
	}
	return n
}

func lintLineCol(src string, off int) (line, col int) {
	off = max(0, min(off, len(src)))
	before := src[:off]
	line = 1 + strings.Count(before, "\n")
	col = 1 + utf8.RuneCountInString(before[strings.LastIndexByte(before, '\n')+1:])
	return line, col
}

func (l *linter) lintFile(ctx context.Context, path string, f migrate.File) (File, []Finding, error) {
	src := string(f.Bytes())
	fl := &fileLint{l: l, path: path, src: src}
	lf := File{Env: l.t.Env.Name, Dialect: l.t.Dialect.Name(), File: path}
	stmts, err := l.stmts(src)
	if err != nil {
		// The file does not even split into statements.
		off := 0
		if m := regexp.MustCompile(`^(\d+):(\d+): `).FindStringSubmatch(err.Error()); m != nil {
			line, _ := strconv.Atoi(m[1])
			col, _ := strconv.Atoi(m[2])
			off = lintOffset(src, line, col)
		}
		fl.add(0, off, "SG100", fmt.Sprintf("the file does not split into statements: %v; it was not analyzed", err))
		l.broken = path
		return lf, fl.findings, nil
	}
	fl.stmts = stmts
	lf.Statements = len(stmts)
	nolints, nlFinds := parseNolints(src, stmts)
	for _, n := range nlFinds {
		fl.add(0, n.off, n.code, n.msg)
	}
	lexSG103 := map[int]bool{} // statements with a lexical SG103
	for i, s := range stmts {
		read := l.t.Dialect.LintStmt(s.Text)
		fl.reads = append(fl.reads, read)
		for _, x := range read.Findings {
			fl.add(i+1, s.Pos+x.Off, x.Code, x.Msg)
			if x.Code == "SG103" {
				lexSG103[i+1] = true
			}
		}
	}
	if l.t.Dialect.ChecksSetting() != "" {
		l.checkRule(ctx, fl)
	}
	if l.broken == "" {
		if err := l.execFile(ctx, fl, f, lexSG103); err != nil {
			return lf, nil, err
		}
	} else {
		l.notes = append(l.notes, fmt.Sprintf("%s: only checked lexically: the replay stopped at %s", path, l.broken))
	}
	// Apply the nolint comments.
	for i := range fl.findings {
		fd := &fl.findings[i]
		if fd.Statement == 0 {
			continue
		}
		if reason, ok := nolintReason(nolints, fd.Statement, fd.Code); ok {
			fd.Suppressed, fd.Reason = true, reason
		}
	}
	slices.SortStableFunc(fl.findings, func(a, b Finding) int {
		if a.Line != b.Line {
			return a.Line - b.Line
		}
		if a.Column != b.Column {
			return a.Column - b.Column
		}
		return strings.Compare(a.Code, b.Code)
	})
	return lf, fl.findings, nil
}

// lintOffset returns the byte offset of a 1-based line and 0-based column.
func lintOffset(src string, line, col int) int {
	off := 0
	for n := 1; n < line; n++ {
		i := strings.IndexByte(src[off:], '\n')
		if i < 0 {
			return len(src)
		}
		off += i + 1
	}
	return min(off+col, len(src))
}

// execFile runs the statements of a linted file one by one, reads what each
// changed, and runs the analyzers on it.
func (l *linter) execFile(ctx context.Context, fl *fileLint, f migrate.File, lexSG103 map[int]bool) error {
	if l.stale {
		var err error
		if l.state, err = l.inspect(ctx); err != nil {
			return err
		}
		l.stale = false
	}
	from := l.state
	file := &sqlcheck.File{File: f}
	// On an empty database (a baseline file), the statements only create
	// objects: diff the whole file once instead of after every statement.
	whole := !l.replayed && tables(from) == 0
	for i, s := range fl.stmts {
		if _, err := l.db.ExecContext(ctx, s.Text); err != nil {
			if ctx.Err() != nil {
				return ctx.Err()
			}
			l.execFailed(fl, i, err, lexSG103[i+1])
			break
		}
		l.replayed = true
		if whole {
			continue
		}
		next, err := l.inspect(ctx)
		if err != nil {
			return err
		}
		changes, err := sumDiff(l.drv, l.state, next)
		if err != nil {
			return fmt.Errorf("%s: statement %d: %w", fl.path, i+1, err)
		}
		file.Changes = append(file.Changes, &sqlcheck.Change{Stmt: s, Changes: fixRenames(changes, fl.reads[i].Renames)})
		l.state = next
	}
	if whole && len(fl.stmts) > 0 {
		next, err := l.inspect(ctx)
		if err != nil {
			return err
		}
		changes, err := sumDiff(l.drv, l.state, next)
		if err != nil {
			return fmt.Errorf("%s: %w", fl.path, err)
		}
		file.Changes = append(file.Changes, &sqlcheck.Change{Stmt: fl.stmts[0], Changes: changes})
		l.state = next
	}
	var err error
	if file.Sum, err = sumDiff(l.drv, from, l.state); err != nil {
		return fmt.Errorf("%s: %w", fl.path, err)
	}
	file.From, file.To = from, l.state
	if err := l.analyze(ctx, fl, file); err != nil {
		return err
	}
	notNullRule(fl, file, from)
	hazardRule(fl, file, from)
	return nil
}

// sumDiff is what a statement, or a file as a whole, changed, from the
// state before it to the state after it. A column made generated, or given
// another expression, which Atlas's PostgreSQL diff refuses ("changing
// column ... to generated column is not supported"), can only have been
// dropped and added again (by two statements, or one ALTER TABLE with
// both): it is diffed as that drop and add (proof.SplitGenerated, as
// migrate diff plans it). Neither state is changed.
func sumDiff(drv migrate.Driver, from, to *schema.Realm) ([]schema.Change, error) {
	// SplitGenerated takes the columns out of both states: they are put
	// back afterwards.
	saved := map[*schema.Table][]*schema.Column{}
	for _, r := range []*schema.Realm{from, to} {
		for _, s := range r.Schemas {
			for _, t := range s.Tables {
				saved[t] = slices.Clone(t.Columns)
			}
		}
	}
	defer func() {
		for t, cols := range saved {
			t.Columns = cols
		}
	}()
	var split []*schema.ModifyTable
	for _, ts := range to.Schemas {
		fs, ok := from.Schema(ts.Name)
		if !ok {
			continue
		}
		cols := proof.SplitGenerated(fs, ts)
		for _, name := range slices.Sorted(maps.Keys(cols)) {
			t, _ := ts.Table(name)
			mt := &schema.ModifyTable{T: t}
			for i := 0; i+1 < len(cols[name]); i += 2 {
				mt.Changes = append(mt.Changes, &schema.DropColumn{C: cols[name][i]}, &schema.AddColumn{C: cols[name][i+1]})
			}
			split = append(split, mt)
		}
	}
	changes, err := drv.RealmDiff(from, to, schema.DiffNormalized())
	if err != nil {
		return nil, err
	}
	for _, mt := range split {
		i := slices.IndexFunc(changes, func(c schema.Change) bool {
			m, ok := c.(*schema.ModifyTable)
			return ok && m.T == mt.T
		})
		if i < 0 {
			changes = append(changes, mt)
			continue
		}
		m := changes[i].(*schema.ModifyTable)
		m.Changes = append(mt.Changes, m.Changes...)
	}
	return changes, nil
}

// analyze runs Atlas's analyzers on a file's changes.
func (l *linter) analyze(ctx context.Context, fl *fileLint, file *sqlcheck.File) error {
	for _, a := range l.analyzers {
		var reports []sqlcheck.Report
		pass := &sqlcheck.Pass{File: file, Dev: l.dev, Reporter: sqlcheck.ReportWriterFunc(func(r sqlcheck.Report) {
			reports = append(reports, r)
		})}
		// An analyzer configured to fail returns an error after reporting;
		// schemagen's severities decide instead.
		if err := a.Analyze(ctx, pass); err != nil && len(reports) == 0 {
			name := fmt.Sprintf("%T", a)
			if n, ok := a.(sqlcheck.NamedAnalyzer); ok {
				name = n.Name()
			}
			return fmt.Errorf("%s: Atlas analyzer %s: %w", fl.path, name, err)
		}
		for _, r := range reports {
			for _, d := range r.Diagnostics {
				code := d.Code
				if code == "" {
					code = "MF103"
				}
				if (code == "MF103" || code == "MY101") && l.selfFilled(fl, file, fl.stmtAt(d.Pos)) {
					// A generated or identity column gives the existing
					// rows their values: Atlas's analyzers do not know.
					continue
				}
				fl.add(fl.stmtAt(d.Pos), d.Pos, code, d.Text)
			}
		}
	}
	return nil
}

// notNullRule is SG102: a NOT NULL column without a default added to a
// table that existed before the file.
func notNullRule(fl *fileLint, file *sqlcheck.File, from *schema.Realm) {
	for _, c := range file.Changes {
		for _, ch := range c.Changes {
			m, ok := ch.(*schema.ModifyTable)
			if !ok {
				continue
			}
			if !hasTable(from, m.T) {
				continue
			}
			for _, mc := range m.Changes {
				add, ok := mc.(*schema.AddColumn)
				if !ok || add.C.Type == nil || add.C.Type.Null || add.C.Default != nil || fillsItself(fl.l.t.Dialect, add.C) {
					continue
				}
				fl.add(fl.stmtAt(c.Stmt.Pos), c.Stmt.Pos, "SG102", fmt.Sprintf(
					"NOT NULL column %q is added without a default to table %q, which existed before this file: PostgreSQL fails if the table has rows, TiDB fills them with a zero value",
					add.C.Name, m.T.Name))
			}
		}
	}
}

// fillsItself reports generated columns and those d's database fills
// (identity, AUTO_INCREMENT).
// selfFilled reports whether every NOT NULL column without a default that
// statement n (1-based) of the file adds fills itself (fillsItself).
func (l *linter) selfFilled(fl *fileLint, file *sqlcheck.File, n int) bool {
	if n < 1 || n > len(fl.stmts) {
		return false
	}
	found := false
	for _, c := range file.Changes {
		if c.Stmt != fl.stmts[n-1] {
			continue
		}
		for _, ch := range c.Changes {
			m, ok := ch.(*schema.ModifyTable)
			if !ok {
				continue
			}
			for _, mc := range m.Changes {
				add, ok := mc.(*schema.AddColumn)
				if !ok || add.C.Type == nil || add.C.Type.Null || add.C.Default != nil {
					continue
				}
				if !fillsItself(fl.l.t.Dialect, add.C) {
					return false
				}
				found = true
			}
		}
	}
	return found
}

func fillsItself(d dialects.Lint, c *schema.Column) bool {
	for _, a := range c.Attrs {
		if _, ok := a.(*schema.GeneratedExpr); ok || d.FillsColumn(a) {
			return true
		}
	}
	return false
}

// execFailed reports a statement the dev database refused: SG103 for a
// syntax error (unless a lexical SG103 already explains it), else SG100.
func (l *linter) execFailed(fl *fileLint, i int, err error, explained bool) {
	s := fl.stmts[i]
	l.broken = fmt.Sprintf("%s:%d", fl.path, func() int { n, _ := lintLineCol(fl.src, s.Pos); return n }())
	off, msg, syntax := l.execSyntaxError(err, s.Text)
	switch {
	case syntax && explained:
	case syntax:
		fl.add(i+1, s.Pos+off, "SG103", fmt.Sprintf("the %s dev database rejects this statement: %s; is it written for another dialect?", l.t.Dialect.Name(), msg))
	default:
		fl.add(i+1, s.Pos, "SG100", fmt.Sprintf("the statement fails on a clean %s dev database after the files before it: %v", l.t.Dialect.Name(), err))
	}
	if i+1 < len(fl.stmts) {
		l.notes = append(l.notes, fmt.Sprintf("%s: statements after %d were only checked lexically: statement %d failed on the dev database", fl.path, i+1, i+1))
	}
}

// execSyntaxError tells whether err is a syntax error, with its byte offset in
// the statement and a short message.
func (l *linter) execSyntaxError(err error, text string) (off int, msg string, ok bool) {
	e, ok := l.t.Dialect.ReadError(err)
	if !ok || !e.Syntax {
		return 0, "", false
	}
	msg = e.Msg
	switch {
	case e.Rune > 0:
		off = lintRuneOffset(text, e.Rune-1)
	case e.Line > 0:
		near := strings.TrimSuffix(strings.TrimSpace(e.Near), ";")
		msg = fmt.Sprintf("%s near %q", e.Msg, lintFirstLine(near))
		start := lintOffset(text, e.Line, 0)
		if i := strings.Index(text[start:], near); near != "" && i >= 0 {
			off = start + i
		} else if i := strings.Index(text, near); near != "" && i >= 0 {
			off = i
		} else {
			off = lintOffset(text, e.Line, e.Col)
		}
	}
	return off, msg, true
}

func lintRuneOffset(s string, runes int) int {
	for i := range s {
		if runes == 0 {
			return i
		}
		runes--
	}
	return len(s)
}

func lintFirstLine(s string) string {
	s, _, _ = strings.Cut(strings.TrimSpace(s), "\n")
	if len(s) > 40 {
		s = s[:40] + "..."
	}
	return s
}

// fixRenames turns the drop and add that a diff sees for a renaming
// statement into the rename it is, as Atlas's CLI does with its SQL parser,
// so that BC101/BC102 report renames and DS102/DS103 do not.
func fixRenames(changes schema.Changes, rs []dialects.Rename) schema.Changes {
	for _, r := range rs {
		changes = fixRename(changes, r)
	}
	return changes
}

// fixRename is fixRenames for one rename.
func fixRename(changes schema.Changes, r dialects.Rename) schema.Changes {
	fromT, toT, fromC, toC := r.FromTable, r.ToTable, r.FromColumn, r.ToColumn
	if fromC != "" && toC != "" && !strings.EqualFold(fromC, toC) {
		for _, c := range changes {
			m, ok := c.(*schema.ModifyTable)
			if !ok {
				continue
			}
			d := slices.IndexFunc(m.Changes, func(c schema.Change) bool {
				x, ok := c.(*schema.DropColumn)
				return ok && strings.EqualFold(x.C.Name, fromC)
			})
			a := slices.IndexFunc(m.Changes, func(c schema.Change) bool {
				x, ok := c.(*schema.AddColumn)
				return ok && strings.EqualFold(x.C.Name, toC)
			})
			if d < 0 || a < 0 {
				continue
			}
			rename := &schema.RenameColumn{From: m.Changes[d].(*schema.DropColumn).C, To: m.Changes[a].(*schema.AddColumn).C}
			m.Changes[d] = rename
			m.Changes = slices.Delete(m.Changes, a, a+1)
		}
	}
	if toT != "" && fromC == "" {
		a := slices.IndexFunc(changes, func(c schema.Change) bool {
			x, ok := c.(*schema.AddTable)
			return ok && strings.EqualFold(x.T.Name, toT)
		})
		d := slices.IndexFunc(changes, func(c schema.Change) bool {
			x, ok := c.(*schema.DropTable)
			return ok && (fromT == "" || strings.EqualFold(x.T.Name, fromT))
		})
		if a >= 0 && d >= 0 {
			changes[d] = &schema.RenameTable{From: changes[d].(*schema.DropTable).T, To: changes[a].(*schema.AddTable).T}
			changes = slices.Delete(changes, a, a+1)
		}
	}
	return changes
}

// checkSetting is what a server says about the dialect's ChecksSetting.
type checkSetting struct {
	asked bool
	off   bool
	where string // which database said so
}

// checkRule is SG101: CHECKs in a migration that the env's server would
// silently ignore (TiDB with tidb_enable_check_constraint OFF).
func (l *linter) checkRule(ctx context.Context, fl *fileLint) {
	type hit struct{ stmt, off int }
	var hits []hit
	for i, read := range fl.reads {
		for _, off := range read.Checks {
			hits = append(hits, hit{i, off})
		}
	}
	if len(hits) == 0 {
		return
	}
	s := l.checkSetting(ctx)
	if !s.asked || !s.off {
		return
	}
	for _, h := range hits {
		fl.add(h.stmt+1, fl.stmts[h.stmt].Pos+h.off, "SG101",
			"this CHECK is silently ignored: "+l.t.Dialect.ChecksSetting()+" is OFF on "+s.where+", so "+product(l.t.Dialect)+" accepts CHECKs but neither stores nor enforces them")
	}
}

// checkSetting asks the env's TiDB (url), else its configured dev server,
// whether CHECKs are enforced. The embedded dev server always enforces them,
// so it is not asked.
func (l *linter) checkSetting(ctx context.Context) *checkSetting {
	if l.checks != nil {
		return l.checks
	}
	l.checks = &checkSetting{}
	env := l.t.Env
	if env.URL != "" {
		where := "the env's url (" + devdb.Host(env.URL) + ")"
		off, err := askChecks(ctx, l.t, env.URL, nil)
		if err == nil {
			*l.checks = checkSetting{asked: true, off: off, where: where}
			return l.checks
		}
		l.notes = append(l.notes, fmt.Sprintf("%s: cannot ask %s about %s: %s", env.Name, where, l.t.Dialect.ChecksSetting(),
			redact.Secrets(err.Error(), redact.Password(env.URL))))
	}
	if env.Dev != "" {
		where := "the dev database (" + devdb.Host(env.Dev) + ")"
		off, err := askChecks(ctx, l.t, "", l.db)
		if err == nil {
			*l.checks = checkSetting{asked: true, off: off, where: where}
			return l.checks
		}
		l.notes = append(l.notes, fmt.Sprintf("%s: cannot ask %s about %s: %v", env.Name, where, l.t.Dialect.ChecksSetting(), err))
		return l.checks
	}
	l.notes = append(l.notes, env.Name+": "+l.t.Dialect.ChecksSetting()+" not checked (SG101): the env has neither url nor dev")
	return l.checks
}

// product is the dialect's database in messages: its rules' Product, else
// its name.
func product(d dialects.Named) string {
	if rb, ok := d.(dialects.RuleBook); ok {
		return rb.Rules().Product
	}
	return d.Name()
}

// askChecks asks the TiDB at url, or on db, whether it ignores CHECKs: the
// dialect reports that among its server warnings.
func askChecks(ctx context.Context, t migration.Target, url string, db *sql.DB) (off bool, err error) {
	ctx, cancel := context.WithTimeout(ctx, 15*time.Second)
	defer cancel()
	if db == nil {
		if db, err = devdb.Open(url); err != nil {
			return false, err
		}
		defer db.Close()
	}
	warnings, err := t.Dialect.ServerWarnings(ctx, db)
	for _, w := range warnings {
		off = off || w.Kind == dialects.ChecksIgnored
	}
	return off, err
}
