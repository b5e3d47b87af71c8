package migration

import (
	"errors"
	"fmt"
	"maps"
	"regexp"
	"slices"
	"strconv"
	"strings"

	"ariga.io/atlas/sql/migrate"
	"ariga.io/atlas/sql/schema"

	"github.com/schemagen/schemagen/dialects"
	"github.com/schemagen/schemagen/dialects/hazard"
)

// What Atlas does not plan, schemagen plans around its changes:
//
//   - extensions: those the generated DDL's database has and the
//     directory's has not are created first; those it has no more are
//     dropped last;
//   - views (raw statements that CREATE VIEW): both databases are read, and
//     a view that is gone or whose definition changed is dropped before the
//     table changes, with every view that reads it and every view that
//     reads a table the changes alter or drop (PostgreSQL refuses those
//     changes under a view); views are then created by the model's
//     statements after the table changes, in the model's order;
//   - any other raw statement: its effect cannot be read back, so the
//     directory remembers it. Each such statement schemagen writes is marked
//     with the comment `-- Raw "NAME" ...`; a block the directory has not
//     run is run (before the tables or after them, as its position says). A
//     block whose text changed, or that the model dropped, is refused:
//     schemagen cannot undo what the statement made, and says how to write
//     that migration by hand.

// rawRun is the last statement of the directory marked as a raw block's.
type rawRun struct {
	sql, file string
	removed   bool
}

// rawMark is the comment that marks a raw block's statement in a migration
// file (the formatter capitalises the first letter), or its undoing, which
// a team writes by hand: -- raw "NAME" removed.
var rawMark = regexp.MustCompile(`(?i)^--\s*raw\s+("(?:[^"\\]|\\.)*")(\s+removed\b)?`)

// rawHistory reads the raw blocks' statements that the directory's files
// run, by block name: the last one of each.
func rawHistory(d dialects.Atlas, files []migrate.File) (map[string]rawRun, error) {
	h := map[string]rawRun{}
	for _, f := range files {
		stmts, err := d.ScanStmts(string(f.Bytes()))
		if err != nil {
			return nil, fmt.Errorf("%s: %w", f.Name(), err)
		}
		for _, s := range stmts {
			for _, c := range s.Comments {
				m := rawMark.FindStringSubmatch(strings.TrimSpace(c))
				if m == nil {
					continue
				}
				name, err := strconv.Unquote(m[1])
				if err != nil {
					continue
				}
				h[name] = rawRun{sql: strings.TrimRight(strings.TrimSpace(s.Text), ";"), file: f.Name(), removed: m[2] != ""}
			}
		}
	}
	return h, nil
}

func rawComment(name string) string {
	return fmt.Sprintf("raw %q (the model's raw statement; schemagen reads this line)", name)
}

// RawError is a raw block that a migration cannot carry.
type RawError struct {
	Name, Dialect, Problem string
}

func (e *RawError) Error() string {
	return fmt.Sprintf("raw %q (%s): %s", e.Name, e.Dialect, e.Problem)
}

// Refused reports whether err is migrate diff refusing a change that no
// migration file could make (a *hazard.Refusal from a dialect's planner, a
// *RawError, an *AmbiguousRenameError, or a *ProofError: a plan that did
// not prove): the change is
// named and nothing is written. Of errors
// joined (one per target), every one must be a refusal.
func Refused(err error) bool {
	if err == nil {
		return false
	}
	var pe *PlanError
	if errors.As(err, &pe) {
		for _, e := range pe.Errs {
			if !Refused(e) {
				return false
			}
		}
		return true
	}
	var r *hazard.Refusal
	var raw *RawError
	var proof *ProofError
	var rename *AmbiguousRenameError
	return errors.As(err, &r) || errors.As(err, &raw) || errors.As(err, &proof) || errors.As(err, &rename)
}

// objectPlan is what planObjects adds around the planned table changes.
type objectPlan struct{ before, after []*migrate.Change }

func (p objectPlan) empty() bool { return len(p.before) == 0 && len(p.after) == 0 }

// planObjects plans the objects of x (the model's DDL) from cur, the
// directory's database, to want, the generated DDL's; history is what the
// directory ran of the other raw statements, changes the table changes.
func planObjects(d dialects.Named, x *dialects.Exprs, cur, want *dialects.Objects, history map[string]rawRun, changes []schema.Change) (objectPlan, error) {
	var p objectPlan
	if x == nil {
		return p, nil
	}
	od, _ := d.(dialects.ObjectDialect)
	if cur == nil || want == nil {
		cur, want = &dialects.Objects{}, &dialects.Objects{}
	}
	// The model's view statements, by view.
	viewStmt := map[string]dialects.RawStmt{}
	isView := func(r dialects.RawStmt) (string, bool) {
		if od == nil {
			return "", false
		}
		return od.CreatedView(r.SQL)
	}
	for _, r := range x.Raw {
		if v, ok := isView(r); ok {
			viewStmt[v] = r
		}
	}
	for _, e := range want.Extensions {
		if !slices.Contains(cur.Extensions, e) && od != nil {
			p.before = append(p.before, &migrate.Change{Cmd: od.CreateExtension(e), Comment: fmt.Sprintf("create extension %q", e)})
		}
	}
	// Views to drop: gone, changed, or reading what the changes alter.
	touched := map[string]bool{}
	for _, c := range changes {
		switch c := c.(type) {
		case *schema.DropTable:
			touched[c.T.Name] = true
		case *schema.ModifyTable:
			for _, tc := range c.Changes {
				switch tc.(type) {
				case *schema.DropColumn, *schema.ModifyColumn, *schema.RenameColumn:
					touched[c.T.Name] = true
				}
			}
		}
	}
	drop := map[string]bool{}
	for v, def := range cur.Views {
		wdef, kept := want.Views[v]
		if !kept || wdef != def || slices.ContainsFunc(cur.ViewReads[v], func(t string) bool { return touched[t] }) {
			drop[v] = true
		}
	}
	for grew := true; grew; {
		grew = false
		for v := range cur.Views {
			if !drop[v] && slices.ContainsFunc(cur.ViewReads[v], func(t string) bool { return drop[t] }) {
				drop[v], grew = true, true
			}
		}
	}
	for _, v := range dropOrder(drop, cur.ViewReads) {
		p.before = append(p.before, &migrate.Change{Cmd: od.DropView(v), Comment: fmt.Sprintf("drop view %q", v)})
	}
	// Triggers the model writes (on_update): one gone or changed is dropped
	// first, with its function, while its table still has its old name;
	// one new or changed is created after the table changes.
	if td, ok := d.(dialects.TriggerDialect); ok {
		for _, name := range slices.Sorted(maps.Keys(cur.Triggers)) {
			tr := cur.Triggers[name]
			if w, kept := want.Triggers[name]; !kept || w != tr {
				for _, stmt := range td.DropTrigger(tr.Table, name) {
					p.before = append(p.before, &migrate.Change{Cmd: stmt, Comment: fmt.Sprintf("drop trigger %q of table %q (on_update)", name, tr.Table)})
				}
			}
		}
		tables := map[string]bool{}
		for _, name := range slices.Sorted(maps.Keys(want.Triggers)) {
			tr := want.Triggers[name]
			if c, had := cur.Triggers[name]; had && c == tr || tables[tr.Table] {
				continue
			}
			tables[tr.Table] = true
			stmts := x.After[tr.Table]
			if len(stmts) == 0 {
				return p, &RawError{Name: name, Dialect: d.Name(), Problem: fmt.Sprintf("the generated DDL makes trigger %q on table %q, but the model writes no statements for it", name, tr.Table)}
			}
			for _, stmt := range stmts {
				p.after = append(p.after, &migrate.Change{Cmd: stmt, Comment: fmt.Sprintf("create trigger %q of table %q and its function (on_update)", name, tr.Table)})
			}
		}
	}
	// Views to create, and the other raw statements, in the model's order.
	create := map[string]bool{}
	for v := range want.Views {
		if _, had := cur.Views[v]; !had || drop[v] {
			if _, ok := viewStmt[v]; !ok {
				return p, &RawError{Name: v, Dialect: d.Name(), Problem: fmt.Sprintf("the generated DDL makes view %q, but no raw block creates it with CREATE VIEW: migrations cannot make it; write it as its own raw block", v)}
			}
			create[v] = true
		}
	}
	model := map[string]bool{}
	for _, r := range x.Raw {
		model[r.Name] = true
		var c *migrate.Change
		if v, ok := isView(r); ok {
			if !create[v] {
				continue
			}
			c = &migrate.Change{Cmd: r.SQL, Comment: fmt.Sprintf("create view %q (raw %q)", v, r.Name)}
		} else {
			h, ran := history[r.Name]
			switch {
			case ran && !h.removed && h.sql == r.SQL:
				continue
			case ran && !h.removed:
				return p, &RawError{Name: r.Name, Dialect: d.Name(), Problem: fmt.Sprintf("its statement changed since %s ran it, and schemagen cannot undo what a statement other than CREATE VIEW made. "+
					"Write the change in a new migration (schemagen migrate new NAME): undo the old statement, then put the block's new statement under the line -- raw %q, and run migrate hash", h.file, r.Name)}
			}
			c = &migrate.Change{Cmd: r.SQL, Comment: rawComment(r.Name)}
		}
		if r.BeforeTables {
			p.before = append(p.before, c)
		} else {
			p.after = append(p.after, c)
		}
	}
	var gone []string
	for name, h := range history {
		if !model[name] && !h.removed {
			gone = append(gone, name)
		}
	}
	if len(gone) > 0 {
		slices.Sort(gone)
		h := history[gone[0]]
		return p, &RawError{Name: gone[0], Dialect: d.Name(), Problem: fmt.Sprintf("%s ran it and the model no longer has it, and schemagen cannot undo what a statement other than CREATE VIEW made. "+
			"Undo it in a new migration (schemagen migrate new NAME) under the line -- raw %q removed, and run migrate hash; or keep the block", h.file, gone[0])}
	}
	for _, e := range cur.Extensions {
		if !slices.Contains(want.Extensions, e) && od != nil {
			p.after = append(p.after, &migrate.Change{Cmd: od.DropExtension(e), Comment: fmt.Sprintf("drop extension %q", e)})
		}
	}
	return p, nil
}

// dropOrder orders the views of drop so that a view is dropped before the
// views it reads.
func dropOrder(drop map[string]bool, reads map[string][]string) []string {
	var names []string
	for v := range drop {
		names = append(names, v)
	}
	slices.Sort(names)
	var out []string
	done := map[string]bool{}
	var visit func(string)
	visit = func(v string) {
		if done[v] {
			return
		}
		done[v] = true
		for _, u := range names {
			if slices.Contains(reads[u], v) {
				visit(u)
			}
		}
		out = append(out, v)
	}
	for _, v := range names {
		visit(v)
	}
	return out
}
