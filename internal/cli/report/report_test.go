package report_test

import (
	"errors"
	"strings"
	"testing"

	"github.com/schemagen/schemagen/internal/cli/report"
	"github.com/schemagen/schemagen/internal/drift"
	"github.com/schemagen/schemagen/internal/migration/deploy"
)

// TestDrift writes one clean and one failed report as text and as GitHub
// annotations, whose messages must not break a line.
func TestDrift(t *testing.T) {
	reports := []*drift.Report{
		{Target: "postgres://h/db", Env: "postgres", Dialect: "postgres", Version: "20260101000000",
			Pending: []string{"20260102000000_b.sql"}, Partial: &drift.Partial{Version: "20260101000000", Applied: 2, Total: 3, Error: "boom"},
			Migrations: &drift.Comparison{Against: "migrations"}, Status: drift.NoDrift},
		{Target: "mysql://h/db", Env: "tidb", Dialect: "tidb", Error: "cannot connect\nrefused", Status: drift.CouldNotDo},
	}
	var b strings.Builder
	report.Drift(&b, reports, false)
	want := "postgres://h/db (postgres, env postgres): no drift\n" +
		"  version: 20260101000000\n" +
		"  partly applied: migration 20260101000000 stopped after 2 of 3 statements: boom\n" +
		"  pending: 1 migration(s): 20260102000000_b.sql\n" +
		"  against the migrations at its version: no drift\n" +
		"\n" +
		"mysql://h/db (tidb, env tidb): COULD NOT CHECK\n" +
		"  error: cannot connect\nrefused\n"
	if b.String() != want {
		t.Errorf("text:\n%s\nwant:\n%s", b.String(), want)
	}
	b.Reset()
	report.DriftGitHub(&b, reports)
	want = "::notice title=drift: postgres://h/db (postgres)::1 pending migration(s): 20260102000000_b.sql\n" +
		"::notice title=drift: postgres://h/db (postgres)::no drift\n" +
		"::error title=drift: mysql://h/db (tidb)::could not check: cannot connect%0Arefused\n"
	if b.String() != want {
		t.Errorf("annotations:\n%s\nwant:\n%s", b.String(), want)
	}
}

// TestApply counts files and statements, singular and plural, and says
// what a failed apply left behind.
func TestApply(t *testing.T) {
	res := &deploy.ApplyResult{From: "", To: "2", Files: []deploy.AppliedFile{{Name: "1.sql", Stmts: 1}, {Name: "2.sql", Stmts: 2}}}
	var b strings.Builder
	report.Apply(&b, "tidb", res, nil)
	if want := "env tidb: applied 2 files (3 statements); the database is at version 2 (was none)\n"; b.String() != want {
		t.Errorf("got %q, want %q", b.String(), want)
	}
	b.Reset()
	report.Apply(&b, "tidb", &deploy.ApplyResult{To: "1", Files: res.Files[:1]}, errors.New("x"))
	if want := "env tidb: 1 file (1 statement) applied before the failure; the database is at version 1\n"; b.String() != want {
		t.Errorf("got %q, want %q", b.String(), want)
	}
	b.Reset()
	report.DryRun(&b, "postgres", &deploy.ApplyResult{}, false)
	if want := "env postgres: dry run: no pending files; the database has no migration applied\n"; b.String() != want {
		t.Errorf("got %q, want %q", b.String(), want)
	}
}
