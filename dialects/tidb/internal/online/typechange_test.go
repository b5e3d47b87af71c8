package online_test

import (
	"context"
	"errors"
	"fmt"
	"strings"
	"testing"

	"ariga.io/atlas/sql/schema"
	gomysql "github.com/go-sql-driver/mysql"

	"github.com/schemagen/schemagen/dialects/hazard"
	"github.com/schemagen/schemagen/dialects/tidb"
	"github.com/schemagen/schemagen/dialects/tidb/internal/online"
	"github.com/schemagen/schemagen/internal/dbtest"
)

// TestTiDBTypeChanges checks the planner's type-change refusals against the
// server, for a type of each kind TiDB's MODIFY COLUMN tells apart, in every
// pair: a change the planner plans applies on TiDB, and one it refuses TiDB
// refuses too (8200, "currently unsupported"). Found by the plan oracle
// (seed 60601, evolution 60601181822: date to an enum was planned and failed
// on every TiDB).
func TestTiDBTypeChanges(t *testing.T) {
	ctx := context.Background()
	db := dbtest.TiDB(t)
	types := []string{"int", "date", "time", "year", "varchar(20)", "decimal(10,2)", "double", "json", "bit(8)", "enum('a','b')", "vector(3)", "vector"}
	cols := []string{"id int PRIMARY KEY"}
	targets := []string{"id int PRIMARY KEY"}
	for i, from := range types {
		targets = append(targets, fmt.Sprintf("y%d %s NULL", i, from))
		for j := range types {
			if i != j {
				cols = append(cols, fmt.Sprintf("x%d_%d %s NULL", i, j, from))
			}
		}
	}
	for _, s := range []string{
		"CREATE TABLE cases (" + strings.Join(cols, ", ") + ")",
		"CREATE TABLE targets (" + strings.Join(targets, ", ") + ")",
	} {
		if err := db.ExecRetried(ctx, s); err != nil {
			t.Fatalf("%s: %v", s, err)
		}
	}
	drv, err := tidb.Dialect{}.OpenAtlas(db.DB)
	if err != nil {
		t.Fatal(err)
	}
	s, err := drv.InspectSchema(ctx, "", nil)
	if err != nil {
		t.Fatal(err)
	}
	cases, _ := s.Table("cases")
	target, _ := s.Table("targets")
	refused := 0
	for i, from := range types {
		for j, to := range types {
			if i == j {
				continue
			}
			name := fmt.Sprintf("x%d_%d", i, j)
			c, _ := cases.Column(name)
			y, _ := target.Column(fmt.Sprintf("y%d", j))
			want := *y
			want.Name = name
			stmts, err := online.PlanStmts(ctx, drv, []schema.Change{&schema.ModifyTable{T: cases, Changes: []schema.Change{
				&schema.ModifyColumn{From: c, To: &want, Change: schema.ChangeType},
			}}}, false)
			var ref *hazard.Refusal
			switch {
			case from == "time" && to == "varchar(20)":
				// Refused for both databases alike: they write a time
				// as different text (hazard.TimeToText).
				if !errors.As(err, &ref) || !strings.Contains(ref.Change, "from a time type") {
					t.Errorf("%s to %s: want the refusal of a time made text, got %v", from, to, err)
				}
			case errors.As(err, &ref):
				refused++
				if !strings.Contains(ref.Change, name) || ref.Instead == "" {
					t.Errorf("%s to %s: the refusal does not name the column and what to write: %v", from, to, ref)
				}
				err := db.ExecRetried(ctx, fmt.Sprintf("ALTER TABLE cases MODIFY COLUMN %s %s NULL", name, to))
				var my *gomysql.MySQLError
				if !errors.As(err, &my) || my.Number != 8200 || !strings.Contains(my.Message, "unsupported") {
					t.Errorf("%s to %s: refused, but TiDB answers %v", from, to, err)
				}
			case err != nil:
				t.Errorf("%s to %s: %v", from, to, err)
			default:
				for _, st := range stmts {
					if err := db.ExecRetried(ctx, st.Cmd); err != nil {
						t.Errorf("%s to %s: planned %s, which TiDB refuses: %v", from, to, st.Cmd, err)
					}
				}
			}
		}
	}
	if refused == 0 {
		t.Error("no change was refused")
	}
	t.Logf("%d of %d changes refused", refused, len(types)*(len(types)-1))
}
