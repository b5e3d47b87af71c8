package lifecycle_test

import (
	"path/filepath"
	"strings"
	"testing"

	"ariga.io/atlas/sql/migrate"

	"github.com/schemagen/schemagen/internal/dbtest"
	"github.com/schemagen/schemagen/internal/testproject"
)

func TestMain(m *testing.M) { dbtest.Main(m) }

func files(t *testing.T, p *testproject.Project, dialect string) []migrate.File {
	t.Helper()
	dir, err := migrate.NewLocalDir(filepath.Join(p.Dir, "migrations", dialect))
	if err != nil {
		t.Fatal(err)
	}
	fs, err := dir.Files()
	if err != nil {
		t.Fatal(err)
	}
	return fs
}

const baseModel = `
table "spaces" {
  column "id" {
    type = uuid
  }
  primary_key {
    columns = ["id"]
  }
}

table "docs" {
  column "id" {
    type = uuid
  }
  column "space_id" {
    type = uuid
  }
  column "title" {
    type = varchar(200)
  }
  column "body" {
    type = text
    null = true
  }
  primary_key {
    columns = ["id"]
  }
  #EXTRA
}
`

func edit(model, extra string) string {
	return strings.Replace(model, "  #EXTRA\n", extra+"  #EXTRA\n", 1)
}
