# Every construct of the language, for the golden files of both dialects.

dialect "tidb" {
  uuid_check = true
}

raw "vector_extension" {
  position = "before_tables"
  postgres = "CREATE EXTENSION IF NOT EXISTS vector"
}

raw "active_accounts_view" {
  postgres = "CREATE VIEW active_accounts AS SELECT id FROM accounts WHERE NOT disabled"
  tidb     = "CREATE VIEW active_accounts AS SELECT id FROM accounts WHERE NOT disabled"
}

table "accounts" {
  comment = "People's accounts; 'quoted' text and a back\\slash"
  column "id" {
    type = uuid
  }
  column "email" {
    type    = varchar(320)
    comment = "Lower-cased by the application"
  }
  column "code" {
    type = char(8)
  }
  column "age" {
    type = smallint
    null = true
  }
  column "visits" {
    type    = bigint
    default = 0
  }
  column "disabled" {
    type    = bool
    default = false
  }
  column "score" {
    type = double
    null = true
  }
  column "balance" {
    type    = decimal(12,2)
    default = 0.5
  }
  column "born_on" {
    type = date
    null = true
  }
  column "created_at" {
    type    = timestamp
    default = now()
  }
  column "seen_at" {
    type = timestamp(6)
    null = true
  }
  column "profile" {
    type = json
  }
  column "avatar" {
    type = bytes
    null = true
  }
  column "status" {
    type    = varchar(16)
    default = "it's new"
  }
  column "nickname" {
    type = text
    null = true
    tidb {
      type = "VARCHAR(100) COLLATE utf8mb4_general_ci"
    }
  }
  column "search" {
    type = text
    null = true
    postgres {
      type    = "TSVECTOR"
      default = "to_tsvector('')"
    }
    tidb {
      skip = true
    }
  }
  primary_key {
    columns = ["id"]
  }
  unique "accounts_email_uq" {
    columns = ["email"]
  }
  check "accounts_json_ck" {
    expr = "json_type(profile) = 'object'"
  }
  check "accounts_number_ck" {
    expr = "json_type(profile) <> 'number' AND json_type(profile) IN ('object', 'array')"
  }
  check "accounts_code_ck" {
    expr = "code ~ '^[A-Z]{2}[0-9]{6}$' AND code !~ '^XX' AND code NOT LIKE 'ZZ%'"
  }
  check "accounts_status_ck" {
    expr = "status IN ('it''s new', 'active', 'back\\slash') AND char_length(status) BETWEEN 1 AND 16"
  }
  check "accounts_math_ck" {
    expr = "visits * 2 + 1 > -1 AND visits % 2 IN (0, 1) AND abs(balance) >= 0"
  }
  check "accounts_age_ck" {
    expr = "age IS NULL OR NOT (age < 0 OR age > 150)"
  }
  check "accounts_id_text_ck" {
    expr = "char_length(id) = 36 AND lower(code || 'x') <> 'x'"
  }
  check "accounts_raw_ck" {
    expr = "score IS NULL OR score >= 0"
    postgres {
      expr = "score IS NULL OR score >= 0::double precision"
    }
  }
  index "accounts_lower_email_idx" {
    comment = "Sign-in: finds an account by its e-mail, whatever the user's case"
    on {
      expr = "lower(email)"
    }
    on {
      column = "created_at"
      desc   = true
    }
  }
  index "accounts_search_idx" {
    using   = "gin"
    columns = ["search"]
    tidb {
      skip = true
    }
  }
  index "accounts_email_pattern_idx" {
    on {
      column  = "email"
      opclass = "varchar_pattern_ops"
    }
    # TiDB has no operator classes; the model knows and accepts it.
    tidb {
      accept = ["opclass"]
    }
  }
}

table "groups" {
  column "id" {
    type = uuid
  }
  column "owner_id" {
    type = uuid
  }
  column "parent_id" {
    type = uuid
    null = true
  }
  column "name" {
    type = varchar(100)
  }
  column "deleted_at" {
    type = timestamp
    null = true
  }
  primary_key {
    columns = ["id"]
  }
  # A cycle with memberships: this foreign key is added after both tables.
  foreign_key "groups_owner_fk" {
    columns     = ["owner_id"]
    ref_table   = "memberships"
    ref_columns = ["id"]
    deferrable  = true
    initially_deferred = true
    # TiDB checks it immediately; the model knows and accepts it.
    tidb {
      accept = ["deferrable"]
    }
  }
  foreign_key "groups_parent_fk" {
    columns     = ["parent_id"]
    ref_table   = "groups"
    ref_columns = ["id"]
    on_delete   = "set_null"
    on_update   = "cascade"
  }
  index "groups_live_name_uq" {
    unique  = true
    columns = ["name", "parent_id"]
    where   = "parent_id IS NOT NULL"
  }
  index "groups_deleted_idx" {
    columns = ["deleted_at"]
    where   = "deleted_at IS NOT NULL AND name <> ''"
  }
  index "groups_live_uq" {
    comment = "One live group of a name per owner"
    unique  = true
    columns = ["owner_id", "name"]
    where   = "deleted_at IS NULL"
    tidb {
      sql = "CREATE UNIQUE INDEX `groups_live_uq` ON `groups` (`owner_id`, (CASE WHEN `deleted_at` IS NULL THEN `name` END))"
    }
  }
}

table "memberships" {
  column "id" {
    type = uuid
  }
  column "group_id" {
    type = uuid
  }
  column "account_id" {
    type = uuid
  }
  column "role" {
    type = varchar(16)
  }
  column "previous_role" {
    type = varchar(16)
    null = true
  }
  column "embedding" {
    type = vector(3)
    null = true
  }
  primary_key {
    columns = ["id"]
  }
  unique "memberships_pair_uq" {
    columns = ["group_id", "account_id"]
  }
  check "memberships_role_change_ck" {
    expr = "previous_role IS DISTINCT FROM role OR previous_role IS NOT DISTINCT FROM NULL"
  }
  foreign_key "memberships_group_fk" {
    columns     = ["group_id"]
    ref_table   = "groups"
    ref_columns = ["id"]
    on_delete   = "cascade"
  }
  foreign_key "memberships_account_fk" {
    columns     = ["account_id"]
    ref_table   = "accounts"
    ref_columns = ["id"]
    on_delete   = "restrict"
  }
}

table "postgres_only_audit" {
  column "id" {
    type = bigint
  }
  primary_key {
    columns = ["id"]
  }
  tidb {
    skip = true
  }
}
