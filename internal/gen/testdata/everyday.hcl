# The column kinds a SaaS application writes every day, together: one
# model that applies on both databases and behaves the same there
# (TestEveryday*).

enum "order_status" {
  values = ["pending", "paid", "shipped", "cancelled"]
}

table "products" {
  column "id" {
    type    = uuid
    default = uuid()
  }
  column "sku" {
    type = varchar(32)
  }
  column "price" {
    type = decimal(10, 2)
  }
  column "weight" {
    type = float
    null = true
  }
  column "opens" {
    type    = time
    default = "09:00:00"
  }
  column "closes" {
    type = time(0)
    null = true
  }
  column "launched" {
    type = datetime
    null = true
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
  check "products_price_ck" {
    expr = "price >= 0"
  }
}

table "order_lines" {
  column "id" {
    type    = uuid
    default = uuid()
  }
  column "product_id" {
    type = uuid
  }
  column "sku" {
    type = varchar(32)
  }
  column "price" {
    type = decimal(10, 2)
  }
  column "qty" {
    type = int
  }
  column "total" {
    type = decimal(14, 2)
    as   = "price * qty"
  }
  column "label" {
    type   = varchar(64)
    as     = "lower(sku) || '-' || 'line'"
    stored = false
  }
  column "bulk" {
    type   = bool
    as     = "qty >= 10"
    stored = false
  }
  column "status" {
    type    = enum.order_status
    default = "pending"
  }
  column "placed_at" {
    type    = datetime(3)
    default = now()
  }
  column "changed_at" {
    type      = datetime
    default   = now()
    on_update = now()
  }
  primary_key {
    columns = ["id"]
  }
  foreign_key "order_lines_product_fk" {
    columns     = ["product_id"]
    ref_table   = "products"
    ref_columns = ["id"]
  }
  check "order_lines_total_ck" {
    expr = "total < 1000000"
  }
  index "order_lines_total_idx" {
    columns = ["total"]
  }
  index "order_lines_label_idx" {
    columns = ["label"]
  }
  index "order_lines_status_idx" {
    columns = ["status", "placed_at"]
  }
}

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
  column "status" {
    type = enum.order_status
    null = true
  }
  primary_key {
    columns = ["id"]
  }
  check "invoices_status_ck" {
    expr = "status IS NULL OR status <> 'cancelled' OR total = 0"
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
