package migration

import (
	"context"
	"errors"
	"fmt"
	"strings"

	"ariga.io/atlas/sql/migrate"

	"github.com/schemagen/schemagen/dialects"
	"github.com/schemagen/schemagen/internal/scratch"
)

// The first migration of an empty directory is the generated DDL itself,
// run on the directory's empty scratch database by Atlas's executor, as
// migrate apply runs a file (scratch.Exec). That run is both the desired
// state and the file's proof: it is sound because the file and the
// generated DDL are the same statements in the same order (only comments
// differ: the generated file's header is left out, and each raw block's
// statement gets the line by which later diffs know it ran), run from the
// same empty database, so the state the file reaches is the generated
// DDL's, with nothing to compare. Planning a plan from an empty state and
// then proving it would execute the schema twice.

// planFirst plans the first migration of p's empty directory; nil, nil
// when the generated DDL does not run as one file (a statement PostgreSQL
// refuses in a transaction, say), to be planned as any other migration.
func planFirst(ctx context.Context, dev *scratch.Dev, p *Planned, c planConfig, name string) (*migrate.Plan, error) {
	t := p.Target
	plan, err := firstPlan(t.Dialect, p.src, p.exprs, name)
	if err != nil || plan == nil {
		return nil, err
	}
	content, err := Format(plan)
	if err != nil {
		return nil, err
	}
	var current *State
	if c.current != nil {
		current, err = c.current(ctx, t, p.Dir.Path(), nil)
	} else {
		current, err = DirState(ctx, dev, t, p.Dir.Path(), nil)
	}
	if err != nil {
		return nil, err
	}
	defer current.Close()
	if len(current.Schema.Tables) > 0 {
		return nil, nil
	}
	// Named as the generated file, whose statements it runs in their
	// order: a statement the database refuses is placed in schema.hcl as
	// one of the generated DDL (refusal.Generated).
	if err := scratch.Exec(ctx, current.Driver, t.Env.Src, content); err != nil {
		var ee *scratch.ExecError
		if errors.As(err, &ee) && t.Dialect.TransactionalDDL() {
			// Rolled back: the database is empty again.
			return nil, nil
		}
		return nil, fmt.Errorf("loading the generated schema: %w", err)
	}
	return plan, nil
}

// firstPlan is the generated DDL src as a migration file's plan: its
// statements with their comments, without the generated file's header,
// and each raw block's statement under its raw line (rawHistory).
func firstPlan(d dialects.Atlas, src []byte, x *dialects.Exprs, name string) (*migrate.Plan, error) {
	stmts, err := d.ScanStmts(string(src))
	if err != nil {
		return nil, fmt.Errorf("reading the generated schema: %w", err)
	}
	if len(stmts) == 0 {
		return nil, nil
	}
	raw := map[string]string{}
	if x != nil {
		od, _ := d.(dialects.ObjectDialect)
		for _, r := range x.Raw {
			if od != nil {
				if _, view := od.CreatedView(r.SQL); view {
					continue
				}
			}
			raw[r.SQL] = r.Name
		}
	}
	header := strings.SplitAfter(dialects.Header(d.Name()), "\n")
	plan := &migrate.Plan{Name: name, Transactional: true}
	for i, s := range stmts {
		comments := s.Comments
		if i == 0 {
			comments = withoutHeader(comments, len(header)-1)
		}
		text := strings.TrimSuffix(strings.TrimSpace(s.Text), ";")
		var lines []string
		for _, c := range comments {
			lines = append(lines, strings.TrimRight(c, "\n"))
		}
		if n, ok := raw[text]; ok {
			lines = append(lines, "-- "+rawComment(n))
		}
		plan.Changes = append(plan.Changes, withComments(text, lines))
	}
	return plan, nil
}

// withoutHeader drops the generated file's header, its first n comment
// lines (dialects.Header), and the blank line after it.
func withoutHeader(comments []string, n int) []string {
	if len(comments) < n {
		return comments
	}
	for _, c := range comments[:n] {
		if !strings.HasPrefix(c, "--") {
			return comments
		}
	}
	return comments[n:]
}

// withComments is a change of statement text under comment lines: as
// Atlas's formatter writes a change's comment ("-- " and the text) when
// they are all line comments, else in the statement's text.
func withComments(text string, lines []string) *migrate.Change {
	if len(lines) == 0 {
		return &migrate.Change{Cmd: text}
	}
	for _, l := range lines {
		if !strings.HasPrefix(l, "--") || strings.Contains(l, "*/") {
			return &migrate.Change{Cmd: strings.Join(lines, "\n") + "\n" + text}
		}
	}
	if strings.HasPrefix(lines[0], "-- ") {
		return &migrate.Change{Cmd: text, Comment: strings.Join(append([]string{strings.TrimPrefix(lines[0], "-- ")}, lines[1:]...), "\n")}
	}
	return &migrate.Change{Cmd: strings.Join(lines, "\n") + "\n" + text}
}
