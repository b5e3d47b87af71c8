package difftest

import (
	"context"
	"database/sql"
	"errors"
	"fmt"
	"slices"
	"strings"

	"github.com/go-sql-driver/mysql"
	"github.com/jackc/pgx/v5/pgconn"

	"github.com/schemagen/schemagen/compiler/expr"
	"github.com/schemagen/schemagen/dialects"
	"github.com/schemagen/schemagen/dialects/postgres"
	"github.com/schemagen/schemagen/dialects/tidb"
	"github.com/schemagen/schemagen/internal/datamig"
	"github.com/schemagen/schemagen/internal/gen"
)

// Migration is a random portable data migration: statements of the
// portable data language (INSERT ... SELECT, UPDATE, DELETE, ASSERT), as
// a user writes them in migrations/portable.
type Migration struct {
	Stmts []string
}

// Text is the migration as a portable file.
func (m Migration) Text() string { return strings.Join(m.Stmts, ";\n") + ";\n" }

// DataStats counts a data run's work.
type DataStats struct {
	Models, Migrations, Refused, Statements, Failed, Guarded int64
	// UniqueAtCommit: TiDB found a duplicate key at COMMIT where
	// PostgreSQL found it at the statement; the migration failed on both.
	UniqueAtCommit int64
	// CheckOnConflict: INSERT ... ON CONFLICT DO NOTHING statements that
	// both databases failed on a CHECK.
	CheckOnConflict int64
	// Forms counts the functions and forms of the migrations run (not
	// refused), by name: each function of expr.DataFunctions, "UPDATE ...
	// FROM", "scalar subquery", "interval", "cast to <kind>", "BATCH".
	Forms map[string]int64
}

// dataRun is one model on both databases, for RunData.
type dataRun struct {
	pg, ti *sql.Conn
}

// RunData compiles m, applies both dialects' DDL, fills the tables with
// rows (the insert statements of rows that both databases take), then runs
// each migration rendered for each dialect in a transaction of its own on
// both, as migrate apply runs a rendered file: every statement must have
// the same outcome (the same count of rows for INSERT, UPDATE and DELETE,
// the guard's message or not for ASSERT, the same class of error), and
// the tables the same rows after each migration. It returns nil when the
// databases agree, and counts the migrations the checker refused.
func (r *Runner) RunData(ctx context.Context, m *Model, fill []Stmt, migs []Migration, st *DataStats) (*Disagreement, error) {
	res := gen.CompileSource("schema.hcl", []byte(m.HCL()))
	if res.Failed() {
		return nil, nil
	}
	st.Models++
	shaped := shape(res.Schema)
	pg, ti, done, err := r.open(ctx, fmt.Sprintf("%s_d%d", r.Prefix, r.n.Add(1)))
	if err != nil {
		return nil, err
	}
	defer done()
	if pgErr, tiErr := applyBoth(ctx, pg, ti, res); pgErr != nil || tiErr != nil {
		return nil, nil // TestDifferential's to report
	}
	for _, s := range fill {
		pq, ok := s.SQL(postgres.Name, shaped)
		if !ok || s.Kind != "insert" {
			continue
		}
		tq, _ := s.SQL(tidb.Name, shaped)
		_, pe := pg.ExecContext(ctx, pq)
		_, te := ti.ExecContext(ctx, tq)
		if (pe == nil) != (te == nil) {
			return nil, nil // a row one database takes alone: TestDifferential's to report
		}
		if pe != nil {
			if _, err := realignIdentity(ctx, pg, ti, shaped.Table(s.Table)); err != nil {
				return nil, err
			}
		}
	}
	if d, err := sameRows(ctx, pg, ti, shaped, "the rows inserted before the migrations"); d != nil || err != nil {
		return nil, err
	}
	cat := datamig.Catalog(res.Schema)
	for i, mig := range migs {
		st.Migrations++
		stmts, diags := datamig.Compile("data.sql", []byte(mig.Text()), res.Schema)
		if diags.HasErrors() {
			st.Refused++
			continue
		}
		countForms(stmts, st)
		pgSQL := postgres.Dialect{}.RenderData(stmts, cat, res.Outputs[postgres.Name].Exprs)
		tiSQL := tidb.Dialect{}.RenderData(stmts, cat, res.Outputs[tidb.Name].Exprs)
		var before strings.Builder
		for _, t := range shaped.Tables {
			pr, _ := rows(ctx, pg, postgres.Name, t)
			tr, _ := rows(ctx, ti, tidb.Name, t)
			fmt.Fprintf(&before, "  %s before: postgres %q, tidb %q\n", t.Name, pr, tr)
		}
		disagree := func(format string, args ...any) *Disagreement {
			return &Disagreement{Model: m, Kind: "data", What: fmt.Sprintf("migration %d:\n%s\n%s", i+1, mig.Text(), before.String()) + fmt.Sprintf(format, args...)}
		}
		d, err := runMigration(ctx, shaped, cat, pg, ti, stmts, pgSQL, tiSQL, st, disagree)
		if d != nil || err != nil {
			return d, err
		}
		if d, err := sameRows(ctx, pg, ti, shaped, fmt.Sprintf("migration %d:\n%s", i+1, mig.Text())); d != nil || err != nil {
			if d != nil {
				d.Model = m
			}
			return d, err
		}
	}
	return nil, nil
}

// runMigration runs one migration's statements in a transaction on each
// database and compares each outcome; a failure rolls both back.
func runMigration(ctx context.Context, m *Model, cat expr.Catalog, pg, ti *sql.Conn, stmts []expr.Stmt, pgSQL, tiSQL []string, st *DataStats, disagree func(string, ...any) *Disagreement) (*Disagreement, error) {
	ptx, err := pg.BeginTx(ctx, nil)
	if err != nil {
		return nil, err
	}
	defer ptx.Rollback()
	ttx, err := ti.BeginTx(ctx, nil)
	if err != nil {
		return nil, err
	}
	defer ttx.Rollback()
	for j, s := range stmts {
		st.Statements++
		// TiDB counts the rows an UPDATE changes, PostgreSQL those it
		// matches: TiDB's count of matched rows is read first, in the
		// same transaction.
		matched := int64(-1)
		if u, ok := s.(*expr.Update); ok && u.Batch == 0 {
			if err := ttx.QueryRowContext(ctx, tidb.MatchedSQL(u, cat)).Scan(&matched); err != nil {
				matched = -2
			}
		}
		var pn, tn int64
		var pe, te error
		if b, ok := datamig.BatchOf([]expr.Stmt{s}, cat); ok {
			// As migrate apply runs it: batch by batch (in the migration's
			// transaction here).
			pn, pe = RunBatches(ctx, ptx, postgres.Dialect{}.BatchWalk(b), pgSQL[j])
			tn, te = RunBatches(ctx, ttx, tidb.Dialect{}.BatchWalk(b), tiSQL[j])
		} else {
			pres, err := ptx.ExecContext(ctx, pgSQL[j])
			pn, pe = affected(pres), err
			tres, err := ttx.ExecContext(ctx, tiSQL[j])
			tn, te = affected(tres), err
		}
		pc, tc := dataClass(pe, s), dataClass(te, s)
		if matched >= 0 && te == nil {
			tn = matched
		}
		if _, ok := s.(*expr.Assert); ok {
			pn, tn = 0, 0
			if pc == "assert" {
				st.Guarded++
			}
		}
		same := pc == tc && (pe != nil || pn == tn)
		// In a transaction TiDB may find a duplicate key only at COMMIT
		// (the statement passes): the migration fails there, as it fails
		// on PostgreSQL at the statement, and neither keeps a row of it.
		if pc == "unique" && te == nil {
			// TiDB v8.4 fails that COMMIT with its own assertion (8141,
			// "assertion failed: key ... NotExist") where a unique index
			// is on a generated column: the UPDATE wrote index entries
			// that TiDB's check of its mutations then refuses.
			if cerr := ttx.Commit(); classify(cerr) == "unique" || classify(cerr) == "error 8141" {
				st.UniqueAtCommit++
				return nil, nil
			} else if cerr != nil {
				return nil, cerr
			}
			return disagree("statement %d: postgres unique, tidb ok and its transaction committed\n  postgres: %s\n    -> %v\n  tidb: %s", j+1, pgSQL[j], pe, tiSQL[j]), nil
		}
		// Both reject the statement, for the first rule each finds broken
		// (see RunHCL).
		if !same && pe != nil && te != nil && pc != "assert" && tc != "assert" && !strings.HasPrefix(pc, "error") && !strings.HasPrefix(tc, "error") {
			same = true
		}
		if !same {
			var before string
			if u, ok := s.(*expr.Update); ok && m != nil {
				if t := m.Table(u.Table.Name); t != nil {
					pr, _ := rows(ctx, ptx, postgres.Name, t)
					tr, _ := rows(ctx, ttx, tidb.Name, t)
					before = fmt.Sprintf("\n  rows of %s now: postgres %q, tidb %q", t.Name, pr, tr)
				}
			}
			return disagree(before+"statement %d: postgres %s (%d rows), tidb %s (%d rows)\n  postgres: %s\n    -> %v\n  tidb: %s\n    -> %v",
				j+1, pc, pn, tc, tn, pgSQL[j], pe, tiSQL[j], te), nil
		}
		if pe != nil {
			if ins, ok := s.(*expr.Insert); ok && ins.DoNothing && pc == "check" && tc == "check" {
				st.CheckOnConflict++
			}
			st.Failed++
			return nil, nil // both roll back
		}
	}
	if err := ptx.Commit(); err != nil {
		return nil, err
	}
	return nil, ttx.Commit()
}

// execer runs statements: a connection or a transaction.
type execer interface {
	ExecContext(ctx context.Context, query string, args ...any) (sql.Result, error)
	QueryContext(ctx context.Context, query string, args ...any) (*sql.Rows, error)
	QueryRowContext(ctx context.Context, query string, args ...any) *sql.Row
}

// RunBatches runs a batched statement as migrate apply does, walking its
// table by w with each batch's bounds bound as apply binds them
// (BatchWalk.Bound), and returns the rows it changed.
func RunBatches(ctx context.Context, db execer, w dialects.BatchWalk, stmt string) (int64, error) {
	if _, err := db.ExecContext(ctx, w.Start); err != nil {
		return 0, err
	}
	var n int64
	for i, first := 0, true; ; i, first = i+1, false {
		// The tables hold a few dozen rows: a walk of more batches does not
		// advance (it hung the tester on seed 58585), reported, not waited on.
		if i > 10000 {
			return n, fmt.Errorf("the batch walk does not advance: %d batches over a table of a few rows", i)
		}
		bounds := w.Next
		if first {
			bounds = w.First
		}
		if _, err := db.ExecContext(ctx, bounds); err != nil {
			return n, err
		}
		var more bool
		if err := db.QueryRowContext(ctx, w.More).Scan(&more); err != nil {
			return n, err
		}
		if !more {
			break
		}
		bound, err := w.Bound(ctx, db, stmt)
		if err != nil {
			return n, err
		}
		res, err := db.ExecContext(ctx, bound)
		if err != nil {
			return n, err
		}
		n += affected(res)
		if _, err := db.ExecContext(ctx, w.Advance); err != nil {
			return n, err
		}
	}
	_, err := db.ExecContext(ctx, w.End)
	return n, err
}

// countForms counts the functions and forms of stmts in st.Forms.
func countForms(stmts []expr.Stmt, st *DataStats) {
	if st.Forms == nil {
		st.Forms = map[string]int64{}
	}
	var query func(q *expr.Select)
	node := func(n expr.Node) {
		expr.Walk(n, func(x expr.Node) bool {
			switch x := x.(type) {
			case *expr.Call:
				if expr.DataFunctions[x.Name] {
					st.Forms[x.Name]++
				}
			case *expr.Subquery:
				st.Forms["scalar subquery"]++
				query(x.Sub)
			case *expr.Exists:
				query(x.Sub)
			case *expr.InSelect:
				query(x.Sub)
			case *expr.Interval:
				st.Forms["interval"]++
			case *expr.Cast:
				if x.To != expr.KindString && x.To != expr.KindUnknown {
					st.Forms["cast to "+x.To.String()]++
				}
			}
			return true
		})
	}
	query = func(q *expr.Select) {
		for _, x := range q.Items {
			node(x)
		}
		for _, j := range q.Joins {
			node(j.On)
		}
		node(q.Where)
	}
	for _, s := range stmts {
		switch s := s.(type) {
		case *expr.Insert:
			query(s.Query)
		case *expr.Update:
			if s.From != nil {
				st.Forms["UPDATE ... FROM"]++
				query(s.From)
			}
			if s.Batch > 0 {
				st.Forms["BATCH (UPDATE)"]++
			}
			for _, a := range s.Set {
				node(a.Value)
			}
			node(s.Where)
		case *expr.Delete:
			if s.Batch > 0 {
				st.Forms["BATCH (DELETE)"]++
			}
			node(s.Where)
		case *expr.Assert:
			query(s.Query)
		}
	}
}

// dataClass is classify, with a guard's failure named "assert".
func dataClass(err error, s expr.Stmt) string {
	if a, ok := s.(*expr.Assert); ok && err != nil && strings.Contains(err.Error(), a.Message) {
		var pe *pgconn.PgError
		var me *mysql.MySQLError
		if errors.As(err, &pe) && pe.Code == "P0001" || errors.As(err, &me) && me.Number == 1231 {
			return "assert"
		}
	}
	return classify(err)
}

func sameRows(ctx context.Context, pg, ti *sql.Conn, m *Model, after string) (*Disagreement, error) {
	for _, t := range m.Tables {
		pr, err := rows(ctx, pg, postgres.Name, t)
		if err != nil {
			return nil, err
		}
		tr, err := rows(ctx, ti, tidb.Name, t)
		if err != nil {
			return nil, err
		}
		if !slices.Equal(pr, tr) {
			return &Disagreement{Kind: "rows", What: fmt.Sprintf("after %s\ntable %s has different rows:\n  postgres: %q\n  tidb:     %q", after, t.Name, pr, tr)}, nil
		}
	}
	return nil, nil
}

// Accepted reports whether the compiler accepts m.
func Accepted(m *Model) bool { return !gen.CompileSource("schema.hcl", []byte(m.HCL())).Failed() }
