package importer_test

import (
	"strings"
	"testing"

	"github.com/schemagen/schemagen/internal/dbtest"
	"github.com/schemagen/schemagen/internal/testproject"
)

// The releases of an invoicing model, each a migration schemagen plans
// from the one before: columns appended (which the databases add last,
// where the model has them in the middle), a rename, a declared VIRTUAL
// column with an index over it, on_update columns, identities that have
// numbered rows, and an index led by a foreign key's columns added after
// the key.
var invoicingReleases = []string{`
table "customers" {
  column "id" {
    type = bigint
    identity {}
  }
  column "name" {
    type = varchar(100)
  }
  column "email" {
    type = varchar(200)
  }
  column "created_at" {
    type    = timestamp
    default = now()
  }
  primary_key {
    columns = ["id"]
  }
}

table "invoices" {
  column "id" {
    type = bigint
    identity {}
  }
  column "customer_id" {
    type = bigint
  }
  column "amount" {
    type = decimal(12, 2)
  }
  column "status" {
    type    = varchar(20)
    default = "draft"
  }
  primary_key {
    columns = ["id"]
  }
  foreign_key "invoices_customer_fk" {
    columns     = ["customer_id"]
    ref_table   = "customers"
    ref_columns = ["id"]
  }
}
`, `
table "customers" {
  column "id" {
    type = bigint
    identity {}
  }
  column "name" {
    type = varchar(100)
  }
  column "email" {
    type = varchar(200)
  }
  column "search_name" {
    type   = varchar(100)
    as     = "lower(name)"
    stored = false
  }
  column "created_at" {
    type    = timestamp
    default = now()
  }
  column "updated_at" {
    type      = timestamp
    default   = now()
    on_update = now()
  }
  primary_key {
    columns = ["id"]
  }
  index "customers_search_idx" {
    columns = ["search_name"]
  }
}

table "invoices" {
  column "id" {
    type = bigint
    identity {}
  }
  column "customer_id" {
    type = bigint
  }
  column "amount" {
    type = decimal(12, 2)
  }
  column "status" {
    type    = varchar(20)
    default = "draft"
  }
  column "updated_at" {
    type      = timestamp
    default   = now()
    on_update = now()
  }
  primary_key {
    columns = ["id"]
  }
  foreign_key "invoices_customer_fk" {
    columns     = ["customer_id"]
    ref_table   = "customers"
    ref_columns = ["id"]
  }
}
`, `
table "customers" {
  column "id" {
    type = bigint
    identity {}
  }
  column "name" {
    type = varchar(100)
  }
  column "contact_email" {
    type         = varchar(200)
    renamed_from = "email"
  }
  column "phone" {
    type = varchar(40)
    null = true
  }
  column "search_name" {
    type   = varchar(100)
    as     = "lower(name)"
    stored = false
  }
  column "created_at" {
    type    = timestamp
    default = now()
  }
  column "updated_at" {
    type      = timestamp
    default   = now()
    on_update = now()
  }
  primary_key {
    columns = ["id"]
  }
  index "customers_search_idx" {
    columns = ["search_name"]
  }
}

table "invoices" {
  column "id" {
    type = bigint
    identity {}
  }
  column "customer_id" {
    type = bigint
  }
  column "number" {
    type = varchar(30)
    null = true
  }
  column "amount" {
    type = decimal(12, 2)
  }
  column "status" {
    type    = varchar(20)
    default = "draft"
  }
  column "updated_at" {
    type      = timestamp
    default   = now()
    on_update = now()
  }
  primary_key {
    columns = ["id"]
  }
  foreign_key "invoices_customer_fk" {
    columns     = ["customer_id"]
    ref_table   = "customers"
    ref_columns = ["id"]
  }
  index "invoices_customer_status_idx" {
    columns = ["customer_id", "status"]
  }
}
`, `
table "customers" {
  column "id" {
    type = bigint
    identity {}
  }
  column "name" {
    type = varchar(100)
  }
  column "contact_email" {
    type         = varchar(200)
    renamed_from = "email"
  }
  column "phone" {
    type = varchar(40)
    null = true
  }
  column "search_name" {
    type   = varchar(100)
    as     = "lower(name)"
    stored = false
  }
  column "created_at" {
    type    = timestamp
    default = now()
  }
  column "updated_at" {
    type      = timestamp
    default   = now()
    on_update = now()
  }
  primary_key {
    columns = ["id"]
  }
  index "customers_search_idx" {
    columns = ["search_name"]
  }
}

table "invoices" {
  column "id" {
    type = bigint
    identity {}
  }
  column "customer_id" {
    type = bigint
  }
  column "number" {
    type = varchar(30)
    null = true
  }
  column "approver_id" {
    type = bigint
    null = true
  }
  column "amount" {
    type = decimal(12, 2)
  }
  column "status" {
    type    = varchar(20)
    default = "draft"
  }
  column "updated_at" {
    type      = timestamp
    default   = now()
    on_update = now()
  }
  primary_key {
    columns = ["id"]
  }
  foreign_key "invoices_customer_id_fkey" {
    columns     = ["customer_id"]
    ref_table   = "customers"
    ref_columns = ["id"]
  }
  foreign_key "invoices_approver_fk" {
    columns     = ["approver_id"]
    ref_table   = "customers"
    ref_columns = ["id"]
  }
  index "invoices_customer_status_idx" {
    columns = ["customer_id", "status"]
  }
}
`}

// TestImportOwnReleases imports a database pair that schemagen's own
// migrations built over several releases, with rows in it: the model
// gives each database back object for object, and the summary names no
// difference between them, since there is none (a declared VIRTUAL column
// is not an index's helper, the on_update triggers are schemagen's own
// whatever the column order, an identity's counter is not its start, and
// the index TiDB made for a foreign key is not an index of TiDB alone).
func TestImportOwnReleases(t *testing.T) {
	t.Parallel()
	p := testproject.New(t, invoicingReleases[0])
	pg, ti := dbtest.Postgres(t), dbtest.TiDB(t)
	for i, model := range invoicingReleases {
		if i > 0 {
			p.Generate(model)
		}
		p.Diff("release" + string(rune('1'+i)))
		p.Apply("postgres", pg.URL)
		p.Apply("tidb", ti.URL)
		for _, db := range []*dbtest.DB{pg, ti} {
			if i == 0 {
				for _, q := range []string{
					"INSERT INTO customers (name, email) VALUES ('a', 'a@x'), ('b', 'b@x')",
					"INSERT INTO invoices (customer_id, amount) VALUES (1, 10), (2, 20)",
				} {
					if _, err := db.Exec(q); err != nil {
						t.Fatal(err)
					}
				}
			}
		}
	}
	r := importedEqualsOriginal(t, map[string]*dbtest.DB{"postgres": pg, "tidb": ti}, []string{pg.URL, ti.URL})
	for _, line := range r.Summary {
		for _, bad := range []string{"exists only on", "on one dialect only", "starts at", " is nullable", "differs between", "different defaults", "left out of", "generated differently", "read as their key part"} {
			if strings.Contains(line, bad) {
				t.Errorf("summary: %s", line)
			}
		}
	}
}
