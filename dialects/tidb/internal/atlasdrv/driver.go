// Package atlasdrv is TiDB's Atlas driver: Atlas's MySQL driver, decorated
// so that it inspects, diffs and plans what TiDB holds and Atlas's driver
// misses or gets wrong (CHECKs, expression indexes, vectors, AUTO_ID_CACHE,
// AUTO_RANDOM,
// GET_LOCK's contention). Package tidb's OpenAtlas returns it.
package atlasdrv

import (
	"context"
	"database/sql"
	"errors"
	"fmt"
	"math/rand/v2"
	"slices"
	"strings"
	"sync"
	"sync/atomic"
	"time"

	"ariga.io/atlas/sql/migrate"
	"ariga.io/atlas/sql/mysql"
	"ariga.io/atlas/sql/schema"

	"github.com/schemagen/schemagen/dialects/hazard"
	"github.com/schemagen/schemagen/dialects/tidb/internal/lexical"
)

// versionView reports TiDB's version as MySQL 8.0.13 to Atlas's driver,
// and fixes its foreign key query, by atlasRewrites.
type versionView struct{ schema.ExecQuerier }

func (v versionView) QueryContext(ctx context.Context, query string, args ...any) (*sql.Rows, error) {
	for _, r := range atlasRewrites {
		query = r.apply(query)
	}
	return v.ExecQuerier.QueryContext(ctx, query, args...)
}

// atlasRewrite changes a query that Atlas's MySQL driver (v1.2.3, the
// version in go.mod) sends. It matches Atlas's text exactly, so an Atlas
// that words the query otherwise turns it into a silent no-op: fired counts
// the queries it changed, and a test on a real TiDB plans what needs each
// rewrite and requires every one to fire.
type atlasRewrite struct {
	name string
	// whole: the query must be old, else old is replaced where it occurs
	// first.
	whole    bool
	old, new string
	fired    atomic.Int64
}

func (r *atlasRewrite) apply(query string) string {
	switch {
	case r.whole && query == r.old:
		query = r.new
	case !r.whole && strings.Contains(query, r.old):
		query = strings.Replace(query, r.old, r.new, 1)
	default:
		return query
	}
	r.fired.Add(1)
	return query
}

var atlasRewrites = []*atlasRewrite{
	// The query mysql.Open asks first: TiDB's version as MySQL 8.0.13, so
	// that Atlas reads index expressions (see OpenAtlas).
	{
		name:  "version",
		whole: true,
		old:   "SELECT @@version, @@collation_server, @@character_set_server, @@lower_case_table_names",
		new:   "SELECT CONCAT('8.0.13', SUBSTRING(@@version, LOCATE('-', @@version))), @@collation_server, @@character_set_server, @@lower_case_table_names",
	},
	// Atlas joins a foreign key's columns with its rules by constraint name
	// alone; TiDB names unnamed keys fk_1, fk_2, ... in every table, so one
	// table's key would get another's ON DELETE.
	{
		name: "foreign key join",
		old:  "JOIN INFORMATION_SCHEMA.REFERENTIAL_CONSTRAINTS AS t2\n\tON t1.CONSTRAINT_NAME = t2.CONSTRAINT_NAME",
		new:  "JOIN INFORMATION_SCHEMA.REFERENTIAL_CONSTRAINTS AS t2\n\tON t1.CONSTRAINT_NAME = t2.CONSTRAINT_NAME AND t1.TABLE_NAME = t2.TABLE_NAME AND t1.CONSTRAINT_SCHEMA = t2.CONSTRAINT_SCHEMA",
	},
}

// atlasDriver inspects through the inspecting driver and diffs, plans and
// applies through Atlas's driver for TiDB as it is, the plain driver. The
// plain driver asks the server's version when opened: it is opened on first
// use, so that a command that only inspects (drift without drift) spends no
// round trip on it.
type atlasDriver struct {
	inspector *mysql.Driver
	conn      schema.ExecQuerier

	once     sync.Once
	plainDrv migrate.Driver
	plainErr error
}

func (d *atlasDriver) plain() (migrate.Driver, error) {
	d.once.Do(func() { d.plainDrv, d.plainErr = mysql.Open(d.conn) })
	return d.plainDrv, d.plainErr
}

// ExecContext implements schema.ExecQuerier on the connection.
func (d *atlasDriver) ExecContext(ctx context.Context, query string, args ...any) (sql.Result, error) {
	return d.conn.ExecContext(ctx, query, args...)
}

// QueryContext implements schema.ExecQuerier on the connection.
func (d *atlasDriver) QueryContext(ctx context.Context, query string, args ...any) (*sql.Rows, error) {
	return d.conn.QueryContext(ctx, query, args...)
}

// Snapshot implements migrate.Snapshoter through the plain driver.
func (d *atlasDriver) Snapshot(ctx context.Context) (migrate.RestoreFunc, error) {
	drv, err := d.plain()
	if err != nil {
		return nil, err
	}
	return drv.Snapshot(ctx)
}

// CheckClean implements migrate.CleanChecker through the inspecting driver:
// the embedded driver's own would inspect with the version gate, and fail on
// a table with an expression index (a first apply with --baseline on a live
// database, for one).
func (d *atlasDriver) CheckClean(ctx context.Context, revT *migrate.TableIdent) error {
	return d.inspector.CheckClean(ctx, revT)
}

func (d *atlasDriver) InspectSchema(ctx context.Context, name string, opts *schema.InspectOptions) (*schema.Schema, error) {
	s, err := d.inspector.InspectSchema(ctx, name, opts)
	if err != nil {
		return nil, d.backtickName(ctx, err)
	}
	implicitActions(s)
	if err := d.inspectOptions(ctx, s); err != nil {
		return nil, err
	}
	VectorTypes(s)
	return s, d.inspectChecks(ctx, s)
}

func (d *atlasDriver) InspectRealm(ctx context.Context, opts *schema.InspectRealmOption) (*schema.Realm, error) {
	r, err := d.inspector.InspectRealm(ctx, opts)
	if err != nil {
		return nil, d.backtickName(ctx, err)
	}
	for _, s := range r.Schemas {
		implicitActions(s)
		if err := d.inspectOptions(ctx, s); err != nil {
			return nil, err
		}
		VectorTypes(s)
		if err := d.inspectChecks(ctx, s); err != nil {
			return nil, err
		}
	}
	return r, nil
}

// backtickName explains an inspection's failure err by a table of the
// connection's database whose name holds a backtick, when one does: Atlas
// (v1.2.3) reads each table with SHOW CREATE TABLE written between
// backticks without doubling one inside, which fails (1064) on such a name.
func (d *atlasDriver) backtickName(ctx context.Context, err error) error {
	rows, qerr := d.conn.QueryContext(ctx, "SELECT table_name FROM information_schema.tables WHERE table_schema = DATABASE() AND INSTR(table_name, '`') > 0 ORDER BY table_name LIMIT 1")
	if qerr != nil {
		return err
	}
	var name string
	for rows.Next() {
		qerr = rows.Scan(&name)
	}
	if errors.Join(qerr, rows.Close(), rows.Err()) != nil || name == "" {
		return err
	}
	return fmt.Errorf("table %q: its name holds a backtick, which schemagen cannot read or migrate (Atlas writes names between backticks without doubling one inside); rename it (RENAME TABLE %s TO ...): %w", name, ident(name), err)
}

// inspectOptions reads the TiDB table options that Atlas does not inspect
// (AUTO_RANDOM, AUTO_ID_CACHE) from each table's CREATE TABLE text, which
// Atlas's TiDB inspection keeps, else from SHOW CREATE TABLE: without them
// a table created by a migration would number its rows otherwise than the
// generated DDL's, and a change of them would go unseen.
func (d *atlasDriver) inspectOptions(ctx context.Context, s *schema.Schema) error {
	for _, t := range s.Tables {
		create := createStmt(t)
		if create == "" {
			var err error
			if create, err = d.showCreate(ctx, s, t); err != nil {
				return err
			}
		}
		readOptions(t, create)
		readIndexOptions(t, create)
	}
	return nil
}

func (d *atlasDriver) showCreate(ctx context.Context, s *schema.Schema, t *schema.Table) (string, error) {
	var name, create string
	q := "SHOW CREATE TABLE " + ident(t.Name)
	if s.Name != "" {
		q = "SHOW CREATE TABLE " + ident(s.Name) + "." + ident(t.Name)
	}
	rows, err := d.conn.QueryContext(ctx, q)
	if err != nil {
		return "", fmt.Errorf("reading the options of %s: %w", t.Name, err)
	}
	for rows.Next() {
		err = rows.Scan(&name, &create)
	}
	if err = errors.Join(err, rows.Close(), rows.Err()); err != nil {
		return "", fmt.Errorf("reading the options of %s: %w", t.Name, err)
	}
	return create, nil
}

// AutoIncrement reports whether c is an AUTO_INCREMENT column.
func AutoIncrement(c *schema.Column) bool {
	return slices.ContainsFunc(c.Attrs, func(a schema.Attr) bool { _, ok := a.(*mysql.AutoIncrement); return ok })
}

// OnUpdateOf is c's ON UPDATE expression, or "".
func OnUpdateOf(c *schema.Column) string {
	for _, a := range c.Attrs {
		if ou, ok := a.(*mysql.OnUpdate); ok {
			return ou.A
		}
	}
	return ""
}

// VectorTypes gives TiDB's VECTOR and VECTOR(n) columns a type that Atlas's
// MySQL driver (v1.2.3) formats and compares: it reads them as an
// unsupported type "vector", which it can neither print in a plan ("format
// type ... unsupported type") nor diff. A spatial type is the one Atlas
// prints as its own text and compares by that text, which is all a vector
// column needs: its type is the column's full text, dimension included.
func VectorTypes(s *schema.Schema) {
	for _, t := range s.Tables {
		for _, c := range t.Columns {
			if c.Type == nil {
				continue
			}
			if u, ok := c.Type.Type.(*schema.UnsupportedType); ok && strings.EqualFold(u.T, "vector") {
				raw := strings.ToLower(c.Type.Raw)
				if !strings.HasPrefix(raw, "vector") {
					raw = "vector"
				}
				c.Type.Type = &schema.SpatialType{T: raw}
			}
		}
	}
}

// implicitActions drops the NO ACTION and RESTRICT that TiDB reports for
// foreign keys: TiDB checks keys immediately, so both mean the default, and
// TiDB rejects a CHECK on the columns of a foreign key with any written
// action, NO ACTION included, so the planner must not write them.
func implicitActions(s *schema.Schema) {
	for _, t := range s.Tables {
		for _, fk := range t.ForeignKeys {
			if fk.OnDelete == schema.NoAction || fk.OnDelete == schema.Restrict {
				fk.OnDelete = ""
			}
			if fk.OnUpdate == schema.NoAction || fk.OnUpdate == schema.Restrict {
				fk.OnUpdate = ""
			}
		}
	}
}

// checksQuery lists CHECKs as TiDB normalises them. TiDB keeps them in its
// own table: TABLE_CONSTRAINTS has no CHECK rows there.
const checksQuery = `SELECT TABLE_NAME, CONSTRAINT_NAME, CHECK_CLAUSE
FROM INFORMATION_SCHEMA.TIDB_CHECK_CONSTRAINTS
WHERE CONSTRAINT_SCHEMA = ?
ORDER BY TABLE_NAME, CONSTRAINT_NAME`

func (d *atlasDriver) inspectChecks(ctx context.Context, s *schema.Schema) error {
	if len(s.Tables) == 0 {
		return nil
	}
	name := s.Name
	if name == "" {
		rows, err := d.conn.QueryContext(ctx, "SELECT DATABASE()")
		if err != nil {
			return fmt.Errorf("tidb: current database: %w", err)
		}
		for rows.Next() {
			err = rows.Scan(&name)
		}
		if cerr := rows.Close(); err == nil {
			err = cerr
		}
		if err != nil {
			return fmt.Errorf("tidb: current database: %w", err)
		}
	}
	rows, err := d.conn.QueryContext(ctx, checksQuery, name)
	if err != nil {
		return fmt.Errorf("tidb: querying check constraints of %q: %w", name, err)
	}
	defer rows.Close()
	for rows.Next() {
		var table, check, clause string
		if err := rows.Scan(&table, &check, &clause); err != nil {
			return fmt.Errorf("tidb: %w", err)
		}
		if t, ok := s.Table(table); ok {
			// A CHECK added as CHECK ((a OR b)) (see lexical.LooseAtTop)
			// reads as the same CHECK of a CREATE TABLE.
			t.Attrs = append(t.Attrs, &schema.Check{Name: check, Expr: lexical.Unwrapped(clause)})
		}
	}
	return rows.Err()
}

// SchemaDiff diffs everything but CHECKs with Atlas, then the CHECKs of the
// tables that exist on both sides. Added tables keep their CHECKs, which the
// planner writes into CREATE TABLE.
func (d *atlasDriver) SchemaDiff(from, to *schema.Schema, opts ...schema.DiffOption) ([]schema.Change, error) {
	drv, err := d.plain()
	if err != nil {
		return nil, err
	}
	restore := stripChecks(append(from.Tables, to.Tables...))
	changes, err := drv.SchemaDiff(from, to, opts...)
	restore()
	if err != nil {
		return nil, err
	}
	for _, t := range to.Tables {
		if f, ok := from.Table(t.Name); ok {
			changes = addCheckChanges(changes, f, t)
			changes = addColumnAttrChanges(changes, f, t)
			changes = optionsChanges(changes, f, t)
			changes = visibilityChanges(changes, f, t)
		}
	}
	return changes, nil
}

// RealmDiff is SchemaDiff for every schema on both sides.
func (d *atlasDriver) RealmDiff(from, to *schema.Realm, opts ...schema.DiffOption) ([]schema.Change, error) {
	var tables []*schema.Table
	for _, s := range append(from.Schemas, to.Schemas...) {
		tables = append(tables, s.Tables...)
	}
	drv, err := d.plain()
	if err != nil {
		return nil, err
	}
	restore := stripChecks(tables)
	changes, err := drv.RealmDiff(from, to, opts...)
	restore()
	if err != nil {
		return nil, err
	}
	for _, ts := range to.Schemas {
		fs, ok := from.Schema(ts.Name)
		if !ok {
			continue
		}
		for _, t := range ts.Tables {
			if f, ok := fs.Table(t.Name); ok {
				changes = addCheckChanges(changes, f, t)
				changes = addColumnAttrChanges(changes, f, t)
				changes = optionsChanges(changes, f, t)
				changes = visibilityChanges(changes, f, t)
			}
		}
	}
	return changes, nil
}

// TableDiff diffs two tables, CHECKs included.
func (d *atlasDriver) TableDiff(from, to *schema.Table, opts ...schema.DiffOption) ([]schema.Change, error) {
	drv, err := d.plain()
	if err != nil {
		return nil, err
	}
	restore := stripChecks([]*schema.Table{from, to})
	changes, err := drv.TableDiff(from, to, opts...)
	restore()
	if err != nil {
		return nil, err
	}
	changes = append(changes, checkChanges(from, to)...)
	var all []schema.Change
	for _, c := range visibilityChanges(optionsChanges(addColumnAttrChanges([]schema.Change{&schema.ModifyTable{T: to, Changes: changes}}, from, to), from, to), from, to) {
		all = append(all, c.(*schema.ModifyTable).Changes...)
	}
	return all, nil
}

// PlanChanges plans each CHECK change on its own: a changed CHECK is dropped
// and added again, as two statements.
func (d *atlasDriver) PlanChanges(ctx context.Context, name string, changes []schema.Change, opts ...migrate.PlanOption) (*migrate.Plan, error) {
	drv, err := d.plain()
	if err != nil {
		return nil, err
	}
	var o migrate.PlanOptions
	for _, f := range opts {
		f(&o)
	}
	rest, after, own := splitVisibility(changes, o.SchemaQualifier)
	plan := &migrate.Plan{Name: name, Transactional: false}
	if len(rest) > 0 {
		if plan, err = drv.PlanChanges(ctx, name, withOptions(splitModifyChecks(rest)), opts...); err != nil {
			return nil, err
		}
	}
	placeAfter(plan, after, own)
	return plan, clusterKeys(plan)
}

// ApplyChanges runs the statements PlanChanges plans, one by one, as
// Atlas's own ApplyChanges does.
func (d *atlasDriver) ApplyChanges(ctx context.Context, changes []schema.Change, opts ...migrate.PlanOption) error {
	plan, err := d.PlanChanges(ctx, "apply", changes, opts...)
	if err != nil {
		return err
	}
	for _, c := range plan.Changes {
		if _, err := d.conn.ExecContext(ctx, c.Cmd, c.Args...); err != nil {
			return err
		}
	}
	return nil
}

// stripChecks removes the CHECKs from tables and returns a function that puts
// them back.
func stripChecks(tables []*schema.Table) (restore func()) {
	saved := make(map[*schema.Table][]schema.Attr, len(tables))
	for _, t := range tables {
		if _, done := saved[t]; done {
			continue
		}
		saved[t] = t.Attrs
		kept := make([]schema.Attr, 0, len(t.Attrs))
		for _, a := range t.Attrs {
			if _, ok := a.(*schema.Check); !ok {
				kept = append(kept, a)
			}
		}
		t.Attrs = kept
	}
	return func() {
		for t, attrs := range saved {
			t.Attrs = attrs
		}
	}
}

func checks(t *schema.Table) map[string]*schema.Check {
	m := map[string]*schema.Check{}
	for _, a := range t.Attrs {
		if c, ok := a.(*schema.Check); ok {
			m[c.Name] = c
		}
	}
	return m
}

// checkChanges compares CHECKs by name; both sides are inspected from TiDB,
// so equal expressions have equal normalised text.
func checkChanges(from, to *schema.Table) []schema.Change {
	var changes []schema.Change
	fc, tc := checks(from), checks(to)
	for _, a := range from.Attrs {
		if c, ok := a.(*schema.Check); ok {
			if _, kept := tc[c.Name]; !kept {
				changes = append(changes, &schema.DropCheck{C: c})
			}
		}
	}
	for _, a := range to.Attrs {
		c, ok := a.(*schema.Check)
		if !ok {
			continue
		}
		switch old, existed := fc[c.Name]; {
		case !existed:
			changes = append(changes, &schema.AddCheck{C: c})
		case old.Expr != c.Expr:
			changes = append(changes, &schema.ModifyCheck{From: old, To: c})
		}
	}
	return changes
}

// addCheckChanges adds the CHECK changes of one table to the ModifyTable
// change of that table, or to a new one.
func addCheckChanges(changes []schema.Change, from, to *schema.Table) []schema.Change {
	cs := checkChanges(from, to)
	if len(cs) == 0 {
		return changes
	}
	for _, c := range changes {
		if m, ok := c.(*schema.ModifyTable); ok && m.T.Name == to.Name {
			m.Changes = append(m.Changes, cs...)
			return changes
		}
	}
	return append(changes, &schema.ModifyTable{T: to, Changes: cs})
}

// addColumnAttrChanges adds the columns of to whose AUTO_INCREMENT or ON
// UPDATE differs from from's, which Atlas's MySQL diff leaves out, as a
// ChangeAttr of the column: migrate diff then sees identity added or
// removed (and refuses it, see refusal) and writes ON UPDATE set or
// dropped (plan oracle, evolution 97171291727: on_update set on a column
// changed PostgreSQL alone), and so do drift and the plan oracle.
func addColumnAttrChanges(changes []schema.Change, from, to *schema.Table) []schema.Change {
	var mt *schema.ModifyTable
	for _, c := range changes {
		if m, ok := c.(*schema.ModifyTable); ok && m.T.Name == to.Name {
			mt = m
		}
	}
	for _, tc := range to.Columns {
		fc, ok := from.Column(tc.Name)
		if !ok || AutoIncrement(fc) == AutoIncrement(tc) && strings.EqualFold(OnUpdateOf(fc), OnUpdateOf(tc)) {
			continue
		}
		if mt == nil {
			mt = &schema.ModifyTable{T: to}
			changes = append(changes, mt)
		}
		i := slices.IndexFunc(mt.Changes, func(c schema.Change) bool {
			mc, ok := c.(*schema.ModifyColumn)
			return ok && mc.To.Name == tc.Name
		})
		if i >= 0 {
			mt.Changes[i].(*schema.ModifyColumn).Change |= schema.ChangeAttr
			continue
		}
		mt.Changes = append(mt.Changes, &schema.ModifyColumn{From: fc, To: tc, Change: schema.ChangeAttr})
	}
	return changes
}

// splitModifyChecks makes each CHECK modified a drop and an add: TiDB
// cannot alter a CHECK.
func splitModifyChecks(changes []schema.Change) []schema.Change {
	return hazard.SplitModifies(changes, func(m *schema.ModifyCheck) (schema.Change, schema.Change, bool) {
		return &schema.DropCheck{C: m.From}, &schema.AddCheck{C: m.To}, true
	})
}

// ScanStmts implements migrate.StmtScanner, which the embedded interface
// hides: without it Atlas's executor splits files with its generic scanner
// and would count and hash statements differently from the Atlas CLI.
func (d *atlasDriver) ScanStmts(input string) ([]*migrate.Stmt, error) {
	return (*mysql.Driver)(nil).ScanStmts(input)
}

// Lock implements schema.Locker with GET_LOCK, as Atlas's MySQL driver does.
// TiDB implements GET_LOCK with pessimistic transactions on an internal
// table: while several sessions wait for one lock, some get "pessimistic lock
// retry limit reached" or "lock wait timeout" as error 1105 instead of an
// answer, sometimes before their timeout. Such a session has not got the
// lock and may keep waiting, so it asks again until the timeout, after which
// the lock is reported held (schema.ErrLocked).
func (d *atlasDriver) Lock(ctx context.Context, name string, timeout time.Duration) (schema.UnlockFunc, error) {
	drv, err := d.plain()
	if err != nil {
		return nil, err
	}
	deadline := time.Now().Add(timeout)
	for {
		unlock, err := drv.Lock(ctx, name, max(time.Until(deadline), 0))
		if err == nil || !lockContention(err) {
			return unlock, err
		}
		if time.Now().After(deadline) {
			return nil, schema.ErrLocked
		}
		select {
		case <-ctx.Done():
			return nil, ctx.Err()
		case <-time.After(time.Duration(50+rand.IntN(150)) * time.Millisecond):
		}
	}
}

func lockContention(err error) bool {
	if errors.Is(err, schema.ErrLocked) {
		return false
	}
	msg := strings.ToLower(err.Error())
	return strings.Contains(msg, "pessimistic lock retry limit reached") || strings.Contains(msg, "lock wait timeout")
}

// Open opens the driver on a connection (see tidb.Dialect.OpenAtlas).
func Open(conn schema.ExecQuerier) (migrate.Driver, error) {
	inspector, err := mysql.Open(versionView{conn})
	if err != nil {
		return nil, err
	}
	return &atlasDriver{inspector: inspector.(*mysql.Driver), conn: conn}, nil
}

// Rewrites returns how many queries each rewrite of Atlas's SQL has changed
// so far, by name.
func Rewrites() map[string]int64 {
	out := map[string]int64{}
	for _, r := range atlasRewrites {
		out[r.name] = r.fired.Load()
	}
	return out
}

func ident(s string) string { return "`" + strings.ReplaceAll(s, "`", "``") + "`" }
