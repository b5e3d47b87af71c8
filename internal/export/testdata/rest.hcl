# What constructs.hcl and everyday.hcl leave out: an extension block,
# renames, the dialects' settings, an export block, index comments on
# expression, partial and unique indexes.

dialect "postgres" {
  value_domains = true
}

dialect "tidb" {
  uuid_check    = false
  exact_strings = true
  charset       = "utf8mb4"
  collation     = "utf8mb4_bin"
}

extension "pg_trgm" {}

enum "visibility" {
  values = ["private", "team", "public"]
}

export "typescript" {
  path = "web/schema.ts"
}

table "notes" {
  renamed_from = "memos"
  comment      = "Notes */ with a comment end"
  column "id" {
    type = bigint
    identity {
      start = 100
    }
  }
  column "body_text" {
    type         = varchar(200)
    renamed_from = "body"
  }
  column "visibility" {
    type    = enum.visibility
    default = "private"
  }
  column "meta" {
    type = json
    null = true
  }
  column "blob" {
    type = bytes
    null = true
  }
  column "at" {
    type = time
    null = true
  }
  column "score" {
    type    = float
    default = 0.5
  }
  column "day" {
    type = date
    null = true
  }
  column "length" {
    type = int
    as   = "char_length(body_text)"
  }
  primary_key {
    columns = ["id"]
  }
  index "notes_visibility_uq" {
    unique  = true
    columns = ["visibility", "length"]
    where   = "visibility <> 'private'"
    comment = "One public note of a length, for the gallery"
  }
  index "notes_lower_idx" {
    on {
      expr = "lower(body_text)"
    }
    comment = "two\nlines, a \\ and a \"quote\""
    postgres {
      skip = true
    }
  }
}
