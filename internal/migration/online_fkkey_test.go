package migration_test

import (
	"context"
	"strings"
	"testing"

	"github.com/schemagen/schemagen/internal/lint"
	"github.com/schemagen/schemagen/internal/scratch"
	"github.com/schemagen/schemagen/internal/testproject"
)

const fkKeyBefore = `
table "accounts" {
  column "id" {
    type = int
  }
  column "code" {
    type = int
  }
  primary_key {
    columns = ["id"]
  }
}

table "payments" {
  column "id" {
    type = int
  }
  column "account_code" {
    type = int
    null = true
  }
  primary_key {
    columns = ["id"]
  }
}
`

// TestUniqueKeyForNewForeignKeyOnline: a unique key that a foreign key of
// the same migration references was built in the first, transactional
// PostgreSQL file without CONCURRENTLY (SHARE lock for the build: writes
// wait), and migrate lint reported PG101 on migrate diff's own file (the
// plan oracle's lint mode, seed 4444). The key is now built CONCURRENTLY
// and the foreign key added NOT VALID and validated after it, in the
// second file: lint finds no error, and the migration applies over rows
// on both databases, the key and the foreign key enforced. Failed before
// (PG101 on the first file).
func TestUniqueKeyForNewForeignKeyOnline(t *testing.T) {
	t.Parallel()
	p := testproject.New(t, fkKeyBefore)
	p.Diff("init")
	dbs := withRows(t, p, "INSERT INTO accounts (id, code) VALUES (1, 10), (2, 20)", "INSERT INTO payments (id, account_code) VALUES (1, 10), (2, NULL)")
	after := strings.Replace(fkKeyBefore, `  primary_key {
    columns = ["id"]
  }
}

table "payments" {`, `  primary_key {
    columns = ["id"]
  }
  unique "accounts_code_key" {
    columns = ["code"]
  }
}

table "payments" {`, 1)
	after = strings.TrimSuffix(after, "}\n") + `  foreign_key "payments_account_fk" {
    columns     = ["account_code"]
    ref_table   = "accounts"
    ref_columns = ["code"]
  }
}
`
	p.Generate(after)
	p.Diff("key_and_fk")
	dev := &scratch.Dev{}
	defer dev.Close()
	r, err := lint.Run(context.Background(), dev, p.Targets, lint.Options{})
	if err != nil {
		t.Fatal(err)
	}
	for _, f := range r.Findings {
		if !f.Suppressed && f.Severity == lint.SeverityError {
			t.Errorf("lint: %s %s in %s:%d: %s", f.Severity, f.Code, f.File, f.Line, f.Message)
		}
	}
	for d, db := range dbs {
		if err := applyErr(p, d, db.URL); err != nil {
			t.Fatalf("%s: %v", d, err)
		}
		if _, err := db.Exec("INSERT INTO payments (id, account_code) VALUES (3, 30)"); err == nil {
			t.Errorf("%s: a payment of no account was inserted", d)
		}
		if _, err := db.Exec("INSERT INTO accounts (id, code) VALUES (3, 10)"); err == nil {
			t.Errorf("%s: a second account of code 10 was inserted", d)
		}
	}
	if again := p.Diff("again"); len(again) != 0 {
		t.Fatalf("a diff after the migration plans %v", again)
	}
}
