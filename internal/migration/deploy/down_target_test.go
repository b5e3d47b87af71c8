package deploy

import (
	"fmt"
	"strings"
	"testing"

	"ariga.io/atlas/sql/migrate"
)

// TestDownTarget: a PostgreSQL online file goes with its migration, so that
// `down N --all` reverts the same migrations in every dialect.
func TestDownTarget(t *testing.T) {
	files := []migrate.File{
		migrate.NewLocalFile("20260101000100_init.sql", nil),
		migrate.NewLocalFile("20260101000200_idx.sql", nil),
		migrate.NewLocalFile("20260101000201_idx_online.sql", nil),
		migrate.NewLocalFile("20260101000300_lang.sql", nil),
	}
	var done []*migrate.Revision
	for _, f := range files {
		done = append(done, &migrate.Revision{Version: f.Version()})
	}
	for _, c := range []struct {
		opts DownOptions
		want string
	}{
		{DownOptions{}, "20260101000201 [20260101000300]"},
		{DownOptions{Steps: 2}, "20260101000100 [20260101000300 20260101000201 20260101000200]"},
		{DownOptions{Steps: 3}, " [20260101000300 20260101000201 20260101000200 20260101000100]"},
		{DownOptions{Steps: 4}, "error: the database applied 3 migrations, fewer than 4"},
		{DownOptions{To: "20260101000200"}, "20260101000201 [20260101000300]"},
		{DownOptions{To: "20260101000100"}, "20260101000100 [20260101000300 20260101000201 20260101000200]"},
		{DownOptions{To: "20260101000300"}, "error: the database is at version 20260101000300 already"},
		{DownOptions{To: "20260101000999"}, "error: the database has not applied version 20260101000999"},
	} {
		target, reverted, err := downTarget(done, files, c.opts)
		got := fmt.Sprintf("%s %v", target, reverted)
		if err != nil {
			got = "error: " + err.Error()
		}
		if !strings.HasPrefix(got, c.want) {
			t.Errorf("%+v: %s, want %s", c.opts, got, c.want)
		}
	}
}
