package gen_test

import (
	"fmt"
	"strings"
	"testing"

	"github.com/hashicorp/hcl/v2"

	"github.com/schemagen/schemagen/internal/gen"
)

// base is a valid table that the invalid models below extend.
const base = `
table "spaces" {
  column "id" {
    type = uuid
  }
  column "tenant_id" {
    type = varchar(255)
  }
  column "doc" {
    type = json
  }
  column "note" {
    type = text
    null = true
  }
  column "revision" {
    type = int
  }
  primary_key {
    columns = ["id"]
  }
  unique "spaces_tenant_uq" {
    columns = ["tenant_id", "id"]
  }
}
`

// table wraps body in a table "items" with a few columns.
func table(body string) string {
	return base + `
table "items" {
  column "id" {
    type = uuid
  }
  column "space_id" {
    type = uuid
  }
  column "status" {
    type = varchar(16)
  }
  column "count" {
    type = int
  }
  column "payload" {
    type = json
  }
  column "body" {
    type = text
  }
  primary_key {
    columns = ["id"]
  }
` + body + `
}
`
}

func TestInvalidModels(t *testing.T) {
	cases := []struct {
		name string
		src  string
		// msg must appear in the error's summary or detail.
		msg string
		// at is the source text the error points at (its first occurrence
		// after the base model, or within it when the case edits it); a ‸ in
		// it marks the exact place when that is not its start.
		at string
	}{
		{"unknown top-level block", base + `view "v" {}`, `Blocks of type "view" are not expected here`, `view`},
		{"unknown column attribute", table(`  column "x" {
    type = int
    size = 3
  }`), `An argument named "size" is not expected here`, `size`},
		{"unknown type", table(`  column "x" {
    type = integer
  }`), `Unknown type "integer"`, `integer`},
		{"varchar without length", table(`  column "x" {
    type = varchar
  }`), `Type varchar needs 1 argument(s)`, `varchar
`},
		{"varchar of length zero", table(`  column "x" {
    type = varchar(0)
  }`), `The length of varchar must be at least 1`, `varchar(0)`},
		{"decimal precision too large", table(`  column "x" {
    type = decimal(70,2)
  }`), `precision of decimal must be between 1 and 65`, `decimal(70,2)`},
		{"timestamp precision too large", table(`  column "x" {
    type = timestamp(9)
  }`), `fractional seconds precision`, `timestamp(9)`},
		{"char too long", table(`  column "x" {
    type = char(300)
  }`), `The length of char is at most 255`, `char(300)`},
		{"type argument not a number", table(`  column "x" {
    type = varchar("long")
  }`), `must be whole numbers`, `varchar("long")`},
		{"missing type", table(`  column "x" {
    null = true
  }`), `The argument "type" is required`, `{
    null = true`},
		{"duplicate column", table(`  column "status" {
    type = int
  }`), `Column "status" of table "items" is already declared`, `"status" {
    type = int`},
		{"duplicate table", base + `table "spaces" {
  column "id" {
    type = int
  }
}`, `The table name "spaces" is already used`, `"spaces" {
  column "id" {
    type = int`},
		{"duplicate index name across tables", table(`  index "spaces_tenant_uq" {
    columns = ["status"]
  }`), `The index name "spaces_tenant_uq" is already used`, `"spaces_tenant_uq" {
    columns = ["status"]`},
		{"check named like a unique constraint of its table", table(`  unique "items_status_uq" {
    columns = ["status"]
  }
  check "items_status_uq" {
    expr = "count >= 0"
  }`), `The check name "items_status_uq" is already used`, `"items_status_uq" {
    expr`},
		{"two checks of one table with one name", table(`  check "items_ck" {
    expr = "count >= 0"
  }
  check "items_ck" {
    expr = "count < 10"
  }`), `The check name "items_ck" is already used`, `"items_ck" {
    expr = "count < 10"`},
		{"primary key on unknown column", base + `table "t" {
  column "id" {
    type = int
  }
  primary_key {
    columns = ["idd"]
  }
}`, `names column "idd", which table "t" does not have (did you mean "id"?)`, `"idd"`},
		{"nullable primary key column", base + `table "t" {
  column "id" {
    type = int
    null = true
  }
  primary_key {
    columns = ["id"]
  }
}`, `Column "id" of table "t" is in the primary key, so it cannot be null = true`, `"id"]`},
		{"foreign key to a missing table", table(`  foreign_key "items_space_fk" {
    columns     = ["space_id"]
    ref_table   = "space"
    ref_columns = ["id"]
  }`), `references table "space", which the schema does not declare`, `"space"
`},
		{"foreign key to a missing column", table(`  foreign_key "items_space_fk" {
    columns     = ["space_id"]
    ref_table   = "spaces"
    ref_columns = ["uid"]
  }`), `names column "uid", which table "spaces" does not have`, `"uid"`},
		{"foreign key column count", table(`  foreign_key "items_space_fk" {
    columns     = ["space_id"]
    ref_table   = "spaces"
    ref_columns = ["tenant_id", "id"]
  }`), `Foreign key "items_space_fk" has 1 column(s) but references 2`, `"items_space_fk"`},
		{"foreign key type mismatch", table(`  foreign_key "items_space_fk" {
    columns     = ["count"]
    ref_table   = "spaces"
    ref_columns = ["id"]
  }`), `Column items.count is int but references spaces.id, which is uuid`, `"count"]`},
		{"foreign key to columns that are not unique", table(`  foreign_key "items_space_fk" {
    columns     = ["count"]
    ref_table   = "spaces"
    ref_columns = ["revision"]
  }`), `which is not its primary key, a unique constraint, or a unique index`, `"spaces"
    ref_columns = ["revision"]`},
		{"set_null on a not null column", table(`  foreign_key "items_space_fk" {
    columns     = ["space_id"]
    ref_table   = "spaces"
    ref_columns = ["id"]
    on_delete   = "set_null"
  }`), `uses set_null, but column "space_id" is not null = true`, `"space_id"]
    ref_table   = "spaces"
    ref_columns = ["id"]
    on_delete   = "set_null"`},
		{"unknown referential action", table(`  foreign_key "items_space_fk" {
    columns     = ["space_id"]
    ref_table   = "spaces"
    ref_columns = ["id"]
    on_delete   = "explode"
  }`), `"explode" is not an action`, `"explode"`},
		{"initially deferred without deferrable", table(`  foreign_key "items_space_fk" {
    columns            = ["space_id"]
    ref_table          = "spaces"
    ref_columns        = ["id"]
    initially_deferred = true
  }`), `initially_deferred needs deferrable = true`, `true
  }`},
		{"check on an unknown column", table(`  check "items_count_ck" {
    expr = "count >= 0 AND statuz = 'x'"
  }`), `Unknown column "statuz" in table "items"`, `statuz`},
		{"check calls an unknown function", table(`  check "items_count_ck" {
    expr = "length(status) > 2"
  }`), `Unknown function length`, `length(`},
		{"check with an unterminated string", table(`  check "items_count_ck" {
    expr = "status = 'open"
  }`), `Unterminated string literal`, `'open`},
		{"check divides", table(`  check "items_count_ck" {
    expr = "count / 2 > 1"
  }`), `Division is not portable`, `/ 2`},
		{"check with a regex only PostgreSQL reads", table(`  check "items_count_ck" {
    expr = "status ~ '^(?=a)'"
  }`), `Regular expression is not portable`, `'^(?=a)'`},
		{"json_type of a text column", table(`  check "items_count_ck" {
    expr = "json_type(status) = 'object'"
  }`), `The operand of json_type must be json, not string`, `status)`},
		{"json_type with an unknown type name", table(`  check "items_count_ck" {
    expr = "json_type(payload) = 'dict'"
  }`), `Unknown JSON type 'dict'`, `'dict'`},
		{"check calls now()", base + `table "t" {
  column "id" {
    type = int
  }
  column "at" {
    type = timestamp
  }
  check "t_at_ck" {
    expr = "at < now()"
  }
}`, `The function now() is not allowed here`, `now()`},
		{"index predicate on an unknown column", table(`  index "items_open_idx" {
    columns = ["status"]
    where   = "closed IS NULL"
  }`), `Unknown column "closed"`, `closed IS`},
		{"index with columns and on blocks", table(`  index "items_open_idx" {
    columns = ["status"]
    on {
      column = "count"
    }
  }`), `either in columns or in on blocks`, `on {`},
		{"index without parts", table(`  index "items_open_idx" {
    unique = true
  }`), `Index "items_open_idx" needs columns`, `index "items_open_idx"`},
		{"index part with column and expr", table(`  index "items_open_idx" {
    on {
      column = "count"
      expr   = "lower(status)"
    }
  }`), `An on block names either a column or an expr`, `on {`},
		{"expression TiDB cannot index", table(`  index "items_status_idx" {
    on {
      expr = "coalesce(body, '')"
    }
  }`), `Expression TiDB cannot index`, `"coalesce(body, '')"`},
		{"string default on an int column", table(`  column "x" {
    type    = int
    default = "one"
  }`), `Column items.x is int; this default does not fit it`, `"one"`},
		{"now() default on an int column", table(`  column "x" {
    type    = int
    default = now()
  }`), `Column items.x is int; this default does not fit it`, `now()`},
		{"default calls another function", table(`  column "x" {
    type    = uuid
    default = gen_random_uuid()
  }`), `The functions a portable default may call are now() and uuid()`, `gen_random_uuid()`},
		{"uuid() default on a varchar column", table(`  column "x" {
    type    = varchar(36)
    default = uuid()
  }`), `Column items.x is varchar(36); this default does not fit it`, `uuid()`},
		{"on_update on a date column", table(`  column "x" {
    type      = date
    on_update = now()
  }`), `on_update = now() applies to timestamp and datetime columns`, `now()`},
		{"on_update of another function", table(`  column "x" {
    type      = timestamp
    on_update = uuid()
  }`), `on_update takes now()`, `uuid()`},
		{"generated column with a default", table(`  column "x" {
    type    = int
    as      = "count + 1"
    default = 4242
  }`), `is generated (as), so it takes no default`, `4242`},
		{"stored without as", table(`  column "x" {
    type   = int
    stored = false
  }`), `stored applies to a generated column`, `stored`},
		{"generated column over a generated column", table(`  column "x" {
    type = bigint
    as   = "count + 1"
  }
  column "y" {
    type = bigint
    as   = "x + 1"
  }`), `names generated column "x"`, `"x + 1"`},
		{"generated column of no column", table(`  column "x" {
    type = varchar(10)
    as   = "upper('x')"
  }`), `names no column of its table`, `"upper('x')"`},
		{"generated column of another kind", table(`  column "x" {
    type = int
    as   = "count > 1"
  }`), `The expression of items.x is bool, but the column is int`, `"count > 1"`},
		{"generated date column", table(`  column "x" {
    type = date
    as   = "count > 1"
  }`), `a generated column is a string, an integer, a number or a bool`, `date`},
		{"generated column calls now()", table(`  column "x" {
    type = bool
    as   = "now() > '2020-01-01'"
  }`), `now() is not allowed here`, `now()`},
		{"time default after 24:00", table(`  column "x" {
    type    = time
    default = "24:00:01"
  }`), `is not a time of day both databases take`, `"24:00:01"`},
		{"float default that underflows", table(`  column "x" {
    type    = float
    default = 1e-50
  }`), `too close to 0 for float`, `1e-50`},
		{"float default beyond its range", table(`  column "x" {
    type    = float
    default = 1e39
  }`), `out of the range of float`, `1e39`},
		{"time precision above 6", table(`  column "x" {
    type = time(7)
  }`), `precision of time must be between 0 and 6`, `time(7)`},
		{"default longer than the column", table(`  column "x" {
    type    = varchar(2)
    default = "abc"
  }`), `The default of items.x has 3 characters, more than varchar(2) allows`, `"abc"`},
		{"name too long for PostgreSQL", table(`  index "items_` + strings.Repeat("x", 58) + `" {
    columns = ["status"]
  }`), `PostgreSQL allows at most 63`, `"items_xxx`},
		{"text column in a TiDB index", table(`  index "items_body_idx" {
    columns = ["body"]
  }`), `Column items.body is text, which TiDB cannot use in a index`, `"body"]`},
		{"partial unique index on TiDB with arithmetic in its predicate", table(`  index "items_open_uq" {
    unique  = true
    columns = ["space_id"]
    where   = "count + 1 > 0"
  }`), `schemagen computes the predicate of unique index "items_open_uq" in generated columns there, and its arithmetic`, `"count + 1 > 0"`},
		{"text default on TiDB", table(`  column "x" {
    type    = text
    default = "none"
  }`), `TiDB cannot give a text column a default`, `"none"`},
		{"json column in a TiDB unique constraint", table(`  unique "items_payload_uq" {
    columns = ["payload"]
  }`), `Column items.payload is json, which TiDB cannot use in a unique constraint`, `"payload"]`},
		{"key longer than TiDB allows", base + `table "t" {
  column "a" {
    type = varchar(255)
  }
  column "b" {
    type = varchar(255)
  }
  column "c" {
    type = varchar(255)
  }
  column "d" {
    type = varchar(255)
  }
  index "t_abcd_idx" {
    columns = ["a", "b", "c", "d"]
  }
}`, `may take 4080 bytes; TiDB's limit is 3072`, `"t_abcd_idx"`},
		{"unknown dialect", base + `dialect "oracle" {}`, `There is no dialect "oracle"`, `"oracle"`},
		{"unknown TiDB setting", base + `dialect "tidb" {
  uuid_checks = true
}`, `The tidb dialect has no setting "uuid_checks"`, `uuid_checks`},
		{"empty override", table(`  column "x" {
    type = int
    postgres {
    }
  }`), `A postgres block needs skip = true`, `postgres {`},
		{"skip with other attributes", table(`  column "x" {
    type = int
    tidb {
      skip = true
      type = bigint
    }
  }`), `An override with skip = true takes no other attributes`, `tidb {`},
		{"comparison of a number with a string", table(`  check "items_count_ck" {
    expr = "count = 'many'"
  }`), `= compares integer with string`, `'many'`},
		{"interpolation in an expression", table(`  check "items_count_ck" {
    expr = "count > ${var.min}"
  }`), `Variables not allowed`, `var.min`},
		{"set default on TiDB", table(`  column "space_ref" {
    type = uuid
    null = true
    default = "00000000-0000-0000-0000-000000000000"
  }
  foreign_key "items_space_fk" {
    columns     = ["space_ref"]
    ref_table   = "spaces"
    ref_columns = ["id"]
    on_delete   = "set_default"
  }`), `TiDB does not support SET DEFAULT`, `"items_space_fk"`},
		{"cascade over a column a stored generated column uses, on TiDB", table(`  column "space_ref" {
    type = uuid
    null = true
  }
  column "has_space" {
    type = bool
    as   = "space_ref IS NOT NULL"
  }
  foreign_key "items_space_ref_fk" {
    columns     = ["space_ref"]
    ref_table   = "spaces"
    ref_columns = ["id"]
    on_update   = "set_null"
  }`), `stored generated column "has_space" is computed from its columns (error 1215)`, `"items_space_ref_fk"`},
		{"time column of a cascading key whose other column is nullable, on TiDB", base + `table "slots" {
  column "id" {
    type = int
  }
  column "starts" {
    type = time
  }
  primary_key {
    columns = ["id"]
  }
  unique "slots_starts_uq" {
    columns = ["starts", "id"]
  }
}

table "bookings" {
  column "id" {
    type = int
  }
  column "starts" {
    type = time
    null = true
  }
  column "slot_id" {
    type = int
    null = true
  }
  primary_key {
    columns = ["id"]
  }
  foreign_key "bookings_slot_fk" {
    columns     = ["starts", "slot_id"]
    ref_table   = "slots"
    ref_columns = ["starts", "id"]
    on_delete   = "cascade"
  }
}`, `the key does not check rows where slot_id is NULL`, `"starts" {
    type = time
    null = true`},
		{"raw block without SQL", base + `raw "ext" {
  position = "before_tables"
}`, `A raw block needs SQL for at least one dialect`, `raw "ext"`},
		{"trailing tokens in an expression", table(`  check "items_count_ck" {
    expr = "count >= 1 1"
  }`), `Unexpected "1" after the end of the expression`, `1"`},
		{"LIKE on an int column", table(`  check "items_count_ck" {
    expr = "count LIKE 'a%'"
  }`), `The operand of LIKE must be string, not integer`, `count LIKE`},
		{"null is not a bool", table(`  column "x" {
    type = int
    null = "yes"
  }`), `null must be true or false`, `"yes"`},
		{"empty column list", table(`  index "items_idx" {
    columns = []
  }`), `columns must be a non-empty list of column names`, `[]`},
		{"foreign key to a table left out of TiDB", base + `table "a" {
  column "id" {
    type = int
  }
  primary_key {
    columns = ["id"]
  }
  tidb {
    skip = true
  }
}
table "b" {
  column "a_id" {
    type = int
  }
  foreign_key "b_a_fk" {
    columns     = ["a_id"]
    ref_table   = "a"
    ref_columns = ["id"]
  }
}`, `references table "a", which the model leaves out of tidb`, `"a"
    ref_columns`},
		{"heredoc expression error points into the heredoc", table(`  check "items_count_ck" {
    expr = <<-EXPR
      count >= 0
      AND status IN ('a', 'b'
    EXPR
  }`), `Expected , or ) in the IN list, found end of expression`, `'b'‸`},
		{"CHECK on a cascading foreign key column on TiDB", table(`  foreign_key "items_space_fk" {
    columns     = ["space_id"]
    ref_table   = "spaces"
    ref_columns = ["id"]
    on_delete   = "cascade"
  }
  check "items_space_ck" {
    expr = "space_id <> '00000000-0000-0000-0000-000000000000'"
  }`), `TiDB rejects CHECK "items_space_ck" because it uses column "space_id"`, `"items_space_ck"`},
		{"index on a column left out of TiDB", table(`  column "search" {
    type = varchar(10)
    tidb {
      skip = true
    }
  }
  index "items_search_idx" {
    columns = ["search"]
  }`), `The index items_search_idx uses column "search", which the model leaves out of tidb`, `"items_search_idx"`},
		{"escaped quote before the error", table(`  check "items_count_ck" {
    expr = "status <> '\"' AND nope = 1"
  }`), `Unknown column "nope"`, `nope`},

		// Issue 9: what one database rejected although generate succeeded.
		{"smallint default out of range", table(`  column "x" {
    type    = smallint
    default = 70000
  }`), `70000 is out of its range, -32768 to 32767`, `70000`},
		{"decimal default with too many digits", table(`  column "x" {
    type    = decimal(5,2)
    default = 12345
  }`), `12345 has more than 3 digit(s) before the point`, `12345`},
		{"decimal default the databases would round", table(`  column "x" {
    type    = decimal(5,2)
    default = 1.005
  }`), `1.005 has more than 2 digit(s) after the point`, `1.005`},
		{"bigint default out of range", table(`  column "x" {
    type    = bigint
    default = 9223372036854775808
  }`), `9223372036854775808 is out of its range`, `9223372036854775808`},
		{"date default that is no date", table(`  column "x" {
    type    = date
    default = "2020-13-45"
  }`), `'2020-13-45' is not a date`, `"2020-13-45"`},
		{"uuid default that is no uuid", table(`  column "x" {
    type    = uuid
    default = "not-a-uuid"
  }`), `'not-a-uuid' is not a UUID`, `"not-a-uuid"`},
		{"upper-case uuid default", table(`  column "x" {
    type    = uuid
    default = "A0EEBC99-9C0B-4EF8-BB6D-6BB9BD380A11"
  }`), `write it in lower case`, `"A0EE`},
		{"NUL in a string default", table(`  column "x" {
    type    = varchar(5)
    default = "a\u0000b"
  }`), `a NUL character`, `"a\u0000b"`},
		{"tables whose names differ only in case", base + `table "Spaces" {
  column "id" {
    type = int
  }
}`, `names that differ only in letter case, which TiDB treats as the same name`, `"Spaces"`},
		{"columns whose names differ only in case", table(`  column "Status" {
    type = int
  }`), `The column name "Status" is already used by the column "status"`, `"Status"`},
		{"one CHECK name in two tables", base + `table "t1" {
  column "a" {
    type = int
  }
  check "same_ck" {
    expr = "a > 0"
  }
}
table "t2" {
  column "b" {
    type = int
  }
  check "same_ck" {
    expr = "b > 0"
  }
}`, `CHECK names are unique per database (error 3822)`, `"same_ck" {
    expr = "b > 0"`},
		{"CHECK named like an index of its table", table(`  index "items_x" {
    columns = ["count"]
  }
  check "items_x" {
    expr = "count > 0"
  }`), `a table's indexes and constraints share one name space (error 1061)`, `"items_x" {
    expr`},
		{"foreign key named like an index of its table", table(`  index "items_space_fk" {
    columns = ["count"]
  }
  foreign_key "items_space_fk" {
    columns     = ["space_id"]
    ref_table   = "spaces"
    ref_columns = ["id"]
  }`), `share one name space`, `"items_space_fk" {
    columns     = ["space_id"]`},
		{"text column in a primary key", base + `table "t" {
  column "id" {
    type = text
  }
  primary_key {
    columns = ["id"]
  }
}`, `Column t.id is text, which TiDB cannot use in a primary key`, `"id"]`},
		{"CHECK that is no condition", table(`  check "items_count_ck" {
    expr = "count + 1"
  }`), `The check items_count_ck of table "items" is integer, not a condition`, `"count + 1"`},
		{"partial index predicate that is no condition", table(`  index "items_count_idx" {
    columns = ["count"]
    where   = "count"
  }`), `is integer, not a condition`, `"count"
  }`},
		{"% over a double", table(`  column "f" {
    type = double
  }
  check "items_f_ck" {
    expr = "f % 2 = 0"
  }`), `PostgreSQL has no % over double`, `"f % 2 = 0"`},
		{"uuid compared with a malformed literal", table(`  check "items_space_ck" {
    expr = "space_id <> 'nope'"
  }`), `'nope' is not a UUID`, `'nope'`},
		{"timestamp compared with a malformed literal", table(`  column "at" {
    type = timestamp
  }
  check "items_at_ck" {
    expr = "at > '2020-13-01 00:00:00'"
  }`), `'2020-13-01 00:00:00' is not a timestamp`, `'2020-13-01`},
		{"date in an IN list that is no date", table(`  column "on" {
    type = date
  }
  check "items_on_ck" {
    expr = "\"on\" IN ('2020-01-01', '2021-02-29')"
  }`), `'2021-02-29' is not a date`, `'2021-02-29'`},
		{"trailing spaces compared with a value computed from char(n)", table(`  column "code" {
    type = char(3)
  }
  check "items_code_ck" {
    expr = "lower(code) <> 'a '"
  }`), `compares a value computed from char column "code" with a string that ends in spaces`, `"lower(code) <> 'a '"`},
		{"expression index TiDB can neither index nor lower to a generated column", table(`  index "items_abs_idx" {
    on {
      expr = "abs(count) * 2"
    }
  }`), `TiDB indexes expressions that call only LOWER, UPPER and JSON_TYPE`, `"abs(count) * 2"`},
		{"expression key part too long for TiDB", table(`  index "items_body_idx" {
    on {
      expr = "lower(body)"
    }
  }`), `may take more than TiDB's 3072 bytes (error 1071)`, `"lower(body)"`},
		{"foreign key from varchar to char", base + `table "p" {
  column "id" {
    type = char(10)
  }
  primary_key {
    columns = ["id"]
  }
}
table "c" {
  column "id" {
    type = int
  }
  column "p_id" {
    type = varchar(10)
  }
  primary_key {
    columns = ["id"]
  }
  foreign_key "c_p_fk" {
    columns     = ["p_id"]
    ref_table   = "p"
    ref_columns = ["id"]
  }
}`, `TiDB refuses a foreign key between different types (error 3780)`, `"p_id"]`},
		{"foreign key column with a TiDB type override", base + `table "p" {
  column "id" {
    type = varchar(10)
  }
  primary_key {
    columns = ["id"]
  }
}
table "c" {
  column "id" {
    type = int
  }
  column "p_id" {
    type = varchar(10)
    tidb {
      type = char(10)
    }
  }
  primary_key {
    columns = ["id"]
  }
  foreign_key "c_p_fk" {
    columns     = ["p_id"]
    ref_table   = "p"
    ref_columns = ["id"]
  }
}`, `column c.p_id is CHAR(10) but references p.id, which is VARCHAR(10)`, `"p_id"]`},
		{"every column left out of a dialect", base + `table "t" {
  column "a" {
    type = int
    tidb {
      skip = true
    }
  }
}`, `Every column of table "t" is left out of TiDB`, `"t" {`},
		{"empty column name", table(`  column "" {
    type = int
  }`), `A column needs a name`, `"" {`},
		{"control character in a name", table(`  column "a\nb" {
    type = int
  }`), `holds a control character`, `"a\nb"`},
		{"name ending in a space", table(`  column "x " {
    type = int
  }`), `ends in a space, which TiDB does not allow in names`, `"x "`},
		{"unknown index method", table(`  index "items_count_idx" {
    columns = ["count"]
    using   = "nonsense"
  }`), `"nonsense", which is not an index method of PostgreSQL`, `"items_count_idx"`},
		{"unique hash index", table(`  index "items_count_idx" {
    unique  = true
    columns = ["count"]
    using   = "hash"
  }`), `PostgreSQL builds unique indexes only with btree`, `"items_count_idx"`},
		{"hash index over two columns", table(`  index "items_count_idx" {
    columns = ["count", "status"]
    using   = "hash"
  }`), `"hash", which on PostgreSQL indexes one key part, but it has 2`, `"items_count_idx"`},
		{"partial index predicate with arithmetic that TiDB drops", table(`  index "items_count_idx" {
    columns = ["status"]
    where   = "abs(count) < 10"
  }`), `PostgreSQL computes it for every row, and its arithmetic can fail`, `"abs(count) < 10"`},
		{"gin index over a varchar", table(`  index "items_status_idx" {
    columns = ["status"]
    using   = "gin"
  }`), `Index "items_status_idx" uses "gin", which has no default operator class for column status (varchar(16))`, `"status"]`},
		{"decimal arithmetic in a TiDB expression index", table(`  column "amount" {
    type = decimal(65,30)
  }
  index "items_amount_idx" {
    on {
      expr = "amount + 1"
    }
  }`), `arithmetic over decimal column "amount" can overflow`, `"amount + 1"`},
		{"timestamp literal more precise than TiDB keeps", table(`  column "at" {
    type = timestamp
  }
  check "items_at_ck" {
    expr = "at >= '2020-01-01 12:34:56.123456'"
  }`), `more fractional digits than the 3 TiDB keeps there (PostgreSQL keeps 6)`, `"at >= '2020`},
		{"number with more decimals than TiDB reads", table(`  check "items_count_ck" {
    expr = "count <> 0.0000000000000000000000000000005"
  }`), `more than 30 digits after the point`, `0.00000000`},
		{"uuid_check on a composite foreign key with a nullable column", `dialect "tidb" {
  uuid_check = true
}
` + base + `table "t" {
  column "id" {
    type = int
  }
  column "tenant_id" {
    type = varchar(255)
    null = true
  }
  column "space_id" {
    type = uuid
  }
  primary_key {
    columns = ["id"]
  }
  foreign_key "t_space_fk" {
    columns     = ["tenant_id", "space_id"]
    ref_table   = "spaces"
    ref_columns = ["tenant_id", "id"]
    on_delete   = "cascade"
  }
}`, `the key does not check rows where tenant_id is NULL`, `"space_id" {
    type = uuid
  }
  primary_key`},
		{"integer beyond BIGINT in an expression", table(`  check "items_count_ck" {
    expr = "count IN (9223372036854775808, 1)"
  }`), `integer is outside BIGINT's range`, `9223372036854775808`},
		{"unknown operator class", table(`  index "items_status_idx" {
    on {
      column  = "status"
      opclass = "no_such_ops"
    }
  }`), `Operator class "no_such_ops" of index "items_status_idx" is not one PostgreSQL knows`, `"status"
      opclass`},
		{"raw index statement for another index", table(`  index "items_count_idx" {
    columns = ["count"]
    tidb {
      sql = "CREATE INDEX other_idx ON items (count)"
    }
  }`), `creates an index of another name (other_idx)`, `tidb {
      sql`},
		{"raw index statement on another table", table(`  index "items_count_idx" {
    columns = ["count"]
    postgres {
      sql = "CREATE INDEX items_count_idx ON spaces (revision)"
    }
  }`), `creates the index on another table (spaces)`, `postgres {
      sql`},
		{"raw index statement of another kind", table(`  index "items_count_idx" {
    columns = ["count"]
    tidb {
      sql = "DROP TABLE items"
    }
  }`), `is not a CREATE INDEX statement`, `tidb {
      sql`},
		{"empty regular expression", table(`  check "items_status_ck" {
    expr = "status ~ ''"
  }`), `An empty regular expression is not portable`, `''"`},
		{"regex with \\pL", table(`  check "items_status_ck" {
    expr = "status ~ '\\pL'"
  }`), `the escape \p`, `'\\pL'`},
		{"regex with \\x{41}", table(`  check "items_status_ck" {
    expr = "status ~ '\\x{41}'"
  }`), `the escape \x`, `'\\x{41}'`},
		{"regex with \\Q...\\E", table(`  check "items_status_ck" {
    expr = "status ~ '\\Qa.b\\E'"
  }`), `the escape \Q`, `'\\Qa.b\\E'`},
		{"regex with \\w", table(`  check "items_status_ck" {
    expr = "status ~ '^\\w+$'"
  }`), `\w (PostgreSQL's word and space classes follow the locale`, `'^\\w+$'`},
		{"regex with [:alpha:]", table(`  check "items_status_ck" {
    expr = "status ~ '^[[:alpha:]]+$'"
  }`), `[:alpha:] (PostgreSQL's classes follow the locale`, `'^[[:alpha:]]+$'`},
		{"IS NULL of a not null column", table(`  check "items_status_ck" {
    expr = "status IS NULL"
  }`), `Column items.status is not null, so status IS NULL in check "items_status_ck" is always false`, `"status IS NULL"`},
		{"NUL in an expression literal", table(`  check "items_status_ck" {
    expr = "status <> 'a\u0000b'"
  }`), `holds a NUL character`, `"status <> 'a\u0000b'"`},
		{"number longer than TiDB's DECIMAL", table(`  check "items_count_ck" {
    expr = "count < 1000000000000000000000000000000000000000000000000000000000000000000000"
  }`), `more than 65 significant digits`, `1000000000`},
		{"key too long for a PostgreSQL B-tree entry", table(`  column "long" {
    type = varchar(700)
  }
  unique "items_long_uq" {
    columns = ["long"]
  }`), `a PostgreSQL B-tree entry holds at most 2704`, `"items_long_uq"`},
		// Names holding the quote their dialect quotes names with, which
		// Atlas writes without doubling (issue 29).
		{"backtick in a table name", base + "table \"we`ird\" {\n  column \"id\" {\n    type = int\n  }\n}\n", "holds `, the character TiDB quotes names with", "\"we`ird\""},
		{"double quote in a column name", table(`  column "a\"b" {
    type = int
  }`), `holds ", the character PostgreSQL quotes names with`, `"a\"b"`},
		{"backtick in an index name", table(`  index "ix` + "`" + `1" {
    columns = ["status"]
  }`), "holds `, the character TiDB quotes names with", `"ix` + "`" + `1"`},
	}
	if len(cases) < 40 {
		t.Fatalf("only %d cases", len(cases))
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			r := gen.CompileSource("schema.hcl", []byte(tc.src))
			if !r.Failed() {
				t.Fatalf("model compiled without errors; want %q", tc.msg)
			}
			if len(r.Outputs) != 0 {
				t.Errorf("a failed compile produced output for %d dialects", len(r.Outputs))
			}
			want := position(t, tc.src, tc.at)
			var found *hcl.Diagnostic
			for _, d := range r.Diags.Errs() {
				d := d.(*hcl.Diagnostic)
				if strings.Contains(d.Summary+": "+d.Detail, tc.msg) {
					found = d
					break
				}
			}
			if found == nil {
				t.Fatalf("no error says %q; got:\n%s", tc.msg, describe(r.Diags))
			}
			if found.Subject == nil {
				t.Fatalf("error %q has no position", tc.msg)
			}
			got := found.Subject.Start
			if got.Line != want.Line || got.Column != want.Column {
				t.Errorf("error %q is at %d:%d, want %d:%d (at %q)", tc.msg, got.Line, got.Column, want.Line, want.Column, tc.at)
			}
			if found.Subject.Filename != "schema.hcl" {
				t.Errorf("error names file %q", found.Subject.Filename)
			}
		})
	}
}

// position returns the line and column of the first occurrence of at in src
// after the shared base model (or within it when it does not occur later).
func position(t *testing.T, src, at string) hcl.Pos {
	shift := 0
	if pre, post, ok := strings.Cut(at, "‸"); ok {
		shift, at = len(pre), pre+post
	}
	from := len(base)
	i := strings.Index(src[from:], at)
	if i < 0 {
		from = 0
		i = strings.Index(src, at)
	}
	if i < 0 {
		t.Fatalf("test case error: %q is not in the source", at)
	}
	off := from + i + shift
	line := strings.Count(src[:off], "\n") + 1
	col := off - strings.LastIndex(src[:off], "\n")
	return hcl.Pos{Line: line, Column: col, Byte: off}
}

func describe(diags hcl.Diagnostics) string {
	var b strings.Builder
	for _, d := range diags {
		fmt.Fprintf(&b, "  %s: %s: %s\n", d.Subject, d.Summary, d.Detail)
	}
	return b.String()
}

// Expression key parts TiDB does not allow in an expression index (error
// 8200) but whose value has a known string or integer type are indexed
// through a VIRTUAL generated column on TiDB, as teams do by hand.
func TestTiDBExpressionIndexThroughGeneratedColumn(t *testing.T) {
	for _, x := range []string{"abs(count)", "char_length(status)", "status || 'x'"} {
		src := table(`  index "items_x_idx" {
    on {
      expr = "` + strings.ReplaceAll(x, `"`, `\"`) + `"
    }
  }`)
		res := gen.CompileSource("schema.hcl", []byte(src))
		if res.Failed() {
			t.Errorf("%s: %v", x, res.Diags)
			continue
		}
		sql := string(res.Outputs["tidb"].SQL)
		if !strings.Contains(sql, "VIRTUAL") || !strings.Contains(sql, "`items_x_idx_0`") {
			t.Errorf("%s: no indexed generated column in\n%s", x, sql)
		}
	}
}
