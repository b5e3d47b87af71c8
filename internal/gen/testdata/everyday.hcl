# The column kinds a SaaS application writes every day, together (issue 19).
# everyday_test.go applies it on PostgreSQL and TiDB and runs the same
# statements on both.

table "accounts" {
  column "id" {
    type = bigint
    identity {}
  }
  column "name" {
    type = varchar(80)
  }
  primary_key {
    columns = ["id"]
  }
}

table "invoices" {
  column "id" {
    type = int
    identity {
      start = 1000
    }
  }
  column "account_id" {
    type = bigint
  }
  column "total" {
    type = decimal(12,2)
  }
  primary_key {
    columns = ["id"]
  }
  foreign_key "invoices_account_fk" {
    columns     = ["account_id"]
    ref_table   = "accounts"
    ref_columns = ["id"]
  }
  check "invoices_total_ck" {
    expr = "total >= 0"
  }
}
