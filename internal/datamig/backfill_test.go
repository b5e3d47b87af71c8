package datamig_test

import (
	"slices"
	"strings"
	"testing"

	"github.com/schemagen/schemagen/internal/dbtest"
)

// backfillModel is the issue's: customers owned by users, with a contact
// name to split and a billing e-mail to fill.
const backfillModel = `
table "users" {
  column "id" {
    type = bigint
  }
  column "email" {
    type = varchar(255)
  }
  primary_key {
    columns = ["id"]
  }
}
table "customers" {
  column "id" {
    type = bigint
  }
  column "owner_id" {
    type = bigint
    null = true
  }
  column "contact_name" {
    type = text
    null = true
  }
  column "billing_email" {
    type = varchar(255)
    null = true
  }
  column "first_name" {
    type = text
    null = true
  }
  column "last_name" {
    type = text
    null = true
  }
  primary_key {
    columns = ["id"]
  }
  foreign_key "customers_owner_fk" {
    columns     = ["owner_id"]
    ref_table   = "users"
    ref_columns = ["id"]
  }
}
`

const backfillRows = `INSERT INTO users (id, email) VALUES (1, 'ann@example.com'), (2, 'Bob@Example.com'), (3, 'jose@example.com');
INSERT INTO customers (id, owner_id, contact_name, billing_email) VALUES
 (10, 1, 'Ann Smith', NULL), (11, 1, 'Ann Marie Smith', 'kept@example.com'), (12, 2, 'Cher', NULL),
 (13, 2, '  Bob  Jones ', NULL), (14, NULL, '', NULL), (15, 3, NULL, NULL), (16, 3, 'José Álvarez', NULL),
 (17, NULL, 'x y z', NULL)`

// The issue's two backfills, written once.
const (
	billingJoin = `UPDATE customers SET billing_email = u.email
FROM users u
WHERE u.id = customers.owner_id AND customers.billing_email IS NULL`
	billingSubquery = `UPDATE customers SET billing_email = (SELECT u.email FROM users u WHERE u.id = customers.owner_id)
WHERE billing_email IS NULL`
	splitName = `UPDATE customers SET
  first_name = split_part(trim(contact_name), ' ', 1),
  last_name = CASE WHEN position(' ' IN trim(contact_name)) > 0
    THEN trim(substring(trim(contact_name), position(' ' IN trim(contact_name)) + 1)) END
WHERE contact_name IS NOT NULL`
)

func (p *pair) rows(t *testing.T, q string) (pg, ti []string) {
	t.Helper()
	read := func(db *dbtest.DB) []string {
		rs, err := db.Query(q)
		if err != nil {
			t.Fatalf("%s: %s: %v", db.Dialect, q, err)
		}
		defer rs.Close()
		var out []string
		for rs.Next() {
			var a, b, c, d, e *string
			if err := rs.Scan(&a, &b, &c, &d, &e); err != nil {
				t.Fatal(err)
			}
			var f []string
			for _, s := range []*string{a, b, c, d, e} {
				if s == nil {
					f = append(f, "NULL")
				} else {
					f = append(f, "'"+*s+"'")
				}
			}
			out = append(out, strings.Join(f, " "))
		}
		slices.Sort(out)
		return out
	}
	return read(p.pg), read(p.ti)
}

const customersRows = "SELECT CONCAT(id, ''), contact_name, billing_email, first_name, last_name FROM customers"

// TestIssueBackfills: the billing e-mail from the owning user (as a join
// and as a scalar subquery) and the contact name split into first and last
// name, written once, give the same rows on both databases, and the rows
// expected.
func TestIssueBackfills(t *testing.T) {
	t.Parallel()
	want := []string{
		"'10' 'Ann Smith' 'ann@example.com' 'Ann' 'Smith'",
		"'11' 'Ann Marie Smith' 'kept@example.com' 'Ann' 'Marie Smith'",
		"'12' 'Cher' 'Bob@Example.com' 'Cher' NULL",
		"'13' '  Bob  Jones ' 'Bob@Example.com' 'Bob' 'Jones'",
		"'14' '' NULL '' NULL",
		"'15' NULL 'jose@example.com' NULL NULL",
		"'16' 'José Álvarez' 'jose@example.com' 'José' 'Álvarez'",
		"'17' 'x y z' NULL 'x' 'y z'",
	}
	for _, billing := range []string{billingJoin, billingSubquery} {
		p := newPair(t, backfillModel)
		for _, q := range strings.Split(backfillRows, ";\n") {
			p.exec(t, q)
		}
		for _, src := range []string{billing, splitName} {
			pg, ti := p.run(t, src)
			if pg.err != nil || ti.err != nil {
				t.Fatalf("%s:\n  postgres %v\n  tidb %v", src, pg.err, ti.err)
			}
		}
		pg, ti := p.rows(t, customersRows)
		if !slices.Equal(pg, want) || !slices.Equal(ti, want) {
			t.Errorf("after %q:\n  postgres %q\n  tidb     %q\n  want     %q", billing, pg, ti, want)
		}
	}
}

// TestUpdateFromReadsOldRow: the values of UPDATE ... FROM are computed
// from the row as it was, on both (TiDB's multi-table UPDATE assigns left
// to right like MySQL's single-table one would).
func TestUpdateFromReadsOldRow(t *testing.T) {
	t.Parallel()
	p := newPair(t, backfillModel)
	for _, q := range strings.Split(backfillRows, ";\n") {
		p.exec(t, q)
	}
	p.exec(t, "UPDATE customers SET first_name = 'F', last_name = 'L'")
	pg, ti := p.run(t, "UPDATE customers SET first_name = last_name, last_name = customers.first_name || u.email FROM users u WHERE u.id = customers.owner_id")
	if pg.err != nil || ti.err != nil || pg.rows != 6 {
		t.Fatalf("postgres %+v, tidb %+v", pg, ti)
	}
	a, b := p.rows(t, "SELECT CONCAT(id, ''), contact_name, billing_email, first_name, last_name FROM customers WHERE id = 10")
	if want := []string{"'10' 'Ann Smith' NULL 'L' 'Fann@example.com'"}; !slices.Equal(a, want) || !slices.Equal(b, want) {
		t.Errorf("postgres %q, tidb %q, want %q", a, b, want)
	}
}
