# The schema, one model for PostgreSQL and TiDB. Edit it, then run
# `schemagen generate` and `schemagen migrate diff NAME`. Every construct is
# described, with an example, in schemagen's docs/language.md.

table "accounts" {
  column "id" {
    type = bigint
  }
  column "email" {
    type = varchar(320)
  }
  column "status" {
    type    = varchar(16)
    default = "active"
  }
  column "created_at" {
    type    = timestamp
    default = now()
  }
  primary_key {
    columns = ["id"]
  }
  unique "accounts_email_key" {
    columns = ["email"]
  }
  check "accounts_status_ck" {
    expr = "status IN ('active', 'closed')"
  }
}
