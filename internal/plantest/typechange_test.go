package plantest_test

import (
	"context"
	"errors"
	"strings"
	"testing"

	"github.com/schemagen/schemagen/dialects/hazard"
	"github.com/schemagen/schemagen/internal/plantest"
)

const dated = `
table "events" {
  column "id" {
    type = int
  }
  column "at" {
    type = date
    null = true
  }
  column "code" {
    type = varchar(20)
    null = true
  }
  primary_key {
    columns = ["id"]
  }
}
`

// TestDateToDecimal: PostgreSQL has no conversion from date to numeric, so
// the ALTER COLUMN ... TYPE numeric that migrate diff wrote failed with
// 42804 on every database, rows or none. It is now refused at diff, naming
// the column and saying what to write.
func TestDateToDecimal(t *testing.T) {
	t.Parallel()
	ref := refused(t, dated, strings.Replace(dated, "type = date", "type = decimal(10, 2)", 1), "date to decimal")
	if ref.Database != "PostgreSQL" || ref.Table != "events" || !strings.Contains(ref.Change, `"at" from date to numeric(10,2)`) || !strings.Contains(ref.Instead, "data migration") {
		t.Fatalf("the refusal does not name the change and what to write: %v", ref)
	}
}

// TestDateToEnum: TiDB cannot convert a date column to an enum (8200,
// "currently unsupported"), so the MODIFY COLUMN migrate diff wrote failed
// on every TiDB (plan oracle, seed 60601, evolution 60601181822). It is now
// refused at diff, naming the column and the two-step change to write.
func TestDateToEnum(t *testing.T) {
	t.Parallel()
	after := "enum \"kind\" {\n  values = [\"a\", \"b\"]\n}\n" + strings.Replace(dated, "type = date", "type = enum.kind", 1)
	ref := refused(t, dated, after, "date to enum")
	if ref.Database != "TiDB" || ref.Table != "events" || !strings.Contains(ref.Change, `"at" from date to enum('a','b')`) || !strings.Contains(ref.Instead, "varchar") {
		t.Fatalf("the refusal does not name the change and what to write: %v", ref)
	}
}

// TestStringToInteger: PostgreSQL converts text to an integer only by an
// explicit cast, so the plan says USING "code"::integer (before, 42804);
// rows whose text is no number stop it, as they stop TiDB's MODIFY COLUMN.
func TestStringToInteger(t *testing.T) {
	t.Parallel()
	plantest.Replay(t, 1, dated, strings.Replace(dated, "type = varchar(20)", "type = int", 1))
}

const indexedByExpr = `
table "items" {
  column "id" {
    type = int
  }
  column "name" {
    type = varchar(40)
    null = true
  }
  column "qty" {
    type = int
    null = true
  }
  column "label" {
    type   = int
    as     = "qty + 1"
    stored = false
  }
  primary_key {
    columns = ["id"]
  }
  index "items_lower_name_idx" {
    on {
      expr = "lower(name)"
    }
  }
}
`

// TestTiDBModifyOfColumnUsedByExpression: TiDB refuses MODIFY COLUMN of a
// column an expression index (3837) or a generated column (3108) uses
// (3106), which migrate diff wrote for a change of its nullability (plan
// oracle, seeds 3000015 and 3000019). It is now a typed refusal that names
// the index or column and says what to write; PostgreSQL would plan it.
func TestTiDBModifyOfColumnUsedByExpression(t *testing.T) {
	t.Parallel()
	for _, tc := range []struct{ name, after, by string }{
		{"expression index", strings.Replace(indexedByExpr, "type = varchar(40)\n    null = true", "type = varchar(40)\n    null = false\n    default = \"\"", 1), `expression index "items_lower_name_idx"`},
		{"generated column", strings.Replace(indexedByExpr, "type = int\n    null = true", "type = int\n    null = false\n    default = 0", 1), `generated column "label"`},
	} {
		t.Run(tc.name, func(t *testing.T) {
			ref := refused(t, indexedByExpr, tc.after, tc.name)
			if ref.Database != "TiDB" || ref.Table != "items" || !strings.Contains(ref.Reason, tc.by) || !strings.Contains(ref.Instead, "three steps") {
				t.Fatalf("the refusal does not name the change and what to write: %v", ref)
			}
		})
	}
}

const jsoned = `
table "docs" {
  column "id" {
    type = int
  }
  column "body" {
    type = json
    null = true
  }
  primary_key {
    columns = ["id"]
  }
}
`

// TestJSONToDouble: a double column gets its value-domain CHECK (no NaN or
// infinity), which the plan added before the column's change of type, so
// PostgreSQL read 'NaN' as JSON (22P02) on every database (plan oracle,
// seed 60602, evolution 60602181828). A table's columns now change before
// the constraints over them are added.
func TestJSONToDouble(t *testing.T) {
	t.Parallel()
	plantest.Replay(t, 1, jsoned, strings.Replace(jsoned, "type = json", "type = double", 1))
}

// TestDoubleToDecimal: the value-domain CHECK of a double (no NaN or
// infinity) becomes a decimal's (no NaN). Planned before the change of
// type, the new CHECK was rewritten by PostgreSQL's ALTER COLUMN ... TYPE
// into another text, so the migrated database did not reach the model (plan
// oracle, seed 60602, evolution 60602181835); fixed with TestJSONToDouble.
func TestDoubleToDecimal(t *testing.T) {
	t.Parallel()
	m := strings.Replace(jsoned, "type = json", "type = double", 1)
	plantest.Replay(t, 1, m, strings.Replace(m, "type = double", "type = decimal(5,2)", 1))
}

// refused runs the change from before to after with rows and returns the
// one refusal migrate diff must give, failing t on a file written that
// failed, or on no refusal.
func refused(t *testing.T, before, after, what string) *hazard.Refusal {
	t.Helper()
	r := plantest.NewRunner(t)
	f, err := r.Reproduce(context.Background(), 1, before, after, what)
	if err != nil {
		t.Fatal(err)
	}
	if f != nil {
		t.Fatalf("a file was written and failed: %s", f.What)
	}
	var ref *hazard.Refusal
	if len(r.Refusals) != 1 || !errors.As(r.Refusals[0], &ref) {
		t.Fatalf("want one refusal, got %v", r.Refusals)
	}
	return ref
}

// TestTypeChangeWithDefault: a column with a default changed to a type that
// PostgreSQL converts only by an explicit conversion (USING): to an enum,
// and text to an integer. ALTER COLUMN ... TYPE converts the old default
// by itself and could not (42804, "default for column cannot be cast
// automatically"; plan oracle, seed 60605, evolution 60605181911). The
// default is now dropped before and set after.
func TestTypeChangeWithDefault(t *testing.T) {
	t.Parallel()
	withDefault := strings.Replace(dated, "type = varchar(20)\n    null = true", "type = varchar(20)\n    null = true\n    default = \"7\"", 1)
	cases := map[string]string{
		"to an enum":    "enum \"kind\" {\n  values = [\"a\", \"b\"]\n}\n" + strings.Replace(withDefault, "type = varchar(20)\n    null = true\n    default = \"7\"", "type = enum.kind\n    null = true\n    default = \"b\"", 1),
		"to an integer": strings.Replace(withDefault, "type = varchar(20)\n    null = true\n    default = \"7\"", "type = int\n    null = true\n    default = 7", 1),
	}
	for name, after := range cases {
		t.Run(name, func(t *testing.T) {
			if after == withDefault || !strings.Contains(withDefault, `default = "7"`) {
				t.Fatal("the edit did not apply")
			}
			plantest.Replay(t, 1, withDefault, after)
		})
	}
}

// TestRetypedColumnWithDefaults: a datetime column with a now() default
// becomes a uuid with a uuid() default. Atlas compared the two defaults by
// asking PostgreSQL (SELECT now() = gen_random_uuid()), which failed, and
// so did migrate diff (42883; plan oracle, seed 60605, evolution
// 60605181937). The change is now the typed refusal of a type PostgreSQL
// cannot convert.
func TestRetypedColumnWithDefaults(t *testing.T) {
	t.Parallel()
	before := strings.Replace(dated, "type = date\n    null = true", "type = datetime(0)\n    default = now()", 1)
	ref := refused(t, before, strings.Replace(before, "type = datetime(0)\n    default = now()", "type = uuid\n    default = uuid()", 1), "datetime to uuid")
	if ref.Database != "PostgreSQL" || !strings.Contains(ref.Change, `"at" from timestamp(0) to uuid`) {
		t.Fatalf("the refusal does not name the change: %v", ref)
	}
}

// TestWidenedColumnKeepsCheckText: a varchar column under a CHECK (an IN
// list) is widened. PostgreSQL's ALTER COLUMN ... TYPE rebuilt the CHECK
// from its printed text, which is not the model's, so the migrated
// database did not reach a fresh one (plan oracle, seed 60606, evolution
// 60606181870). The CHECK is now dropped before and added again after.
func TestWidenedColumnKeepsCheckText(t *testing.T) {
	t.Parallel()
	before := strings.Replace(dated, "  primary_key {", "  check \"events_code_ck\" {\n    expr = \"code IN ('a', 'b')\"\n  }\n  primary_key {", 1)
	plantest.Replay(t, 1, before, strings.Replace(before, "type = varchar(20)", "type = varchar(120)", 1))
}

// TestTimeToString: a datetime column changed to a varchar converted its
// rows to different text on the two databases ('2020-01-01 00:00:00' on
// PostgreSQL, '2020-01-01 00:00:00.000000' on TiDB; plan oracle, seed
// 31313, evolution 31313094173, where the rows differed after the step).
// migrate diff now refuses datetime, timestamp and time to a string, naming
// the column; a date, which both write alike, is still planned.
func TestTimeToString(t *testing.T) {
	t.Parallel()
	for _, typ := range []string{"datetime", "timestamp(3)", "time"} {
		t.Run(typ, func(t *testing.T) {
			before := strings.Replace(dated, "type = date", "type = "+typ, 1)
			ref := refused(t, before, strings.Replace(before, "type = "+typ, "type = varchar(255)", 1), typ+" to varchar")
			if ref.Table != "events" || ref.Column != "at" || !strings.Contains(ref.Change, `column "at" from a time type`) || !strings.Contains(ref.Instead, "data migration") {
				t.Fatalf("the refusal does not name the column and what to write: %v", ref)
			}
		})
	}
	t.Run("date", func(t *testing.T) {
		plantest.Replay(t, 1, dated, strings.Replace(dated, "type = date", "type = varchar(255)", 1))
	})
}

// TestBytesToString: a bytes column changed to char(5) stopped on
// PostgreSQL (22001: it converts bytes to their hex text, '\x6162', longer
// than 5) and applied on TiDB, which copies the bytes (plan oracle, seed
// 92929, evolution 92929278869: "two results"). migrate diff now refuses
// bytes to a string and a string to bytes, naming the column.
func TestBytesToString(t *testing.T) {
	t.Parallel()
	withBytes := strings.Replace(dated, "type = varchar(20)", "type = bytes", 1)
	for name, c := range map[string]struct{ before, after, from string }{
		"bytes to char":    {withBytes, strings.Replace(withBytes, "type = bytes", "type = char(5)", 1), "from a byte string type"},
		"bytes to varchar": {withBytes, strings.Replace(withBytes, "type = bytes", "type = varchar(255)", 1), "from a byte string type"},
		"varchar to bytes": {dated, withBytes, "from a string type to a byte string type"},
	} {
		t.Run(name, func(t *testing.T) {
			ref := refused(t, c.before, c.after, name)
			if ref.Table != "events" || ref.Column != "code" || !strings.Contains(ref.Change, c.from) || !strings.Contains(ref.Instead, "data migration") {
				t.Fatalf("the refusal does not name the column and what to write: %v", ref)
			}
		})
	}
}

// TestBoolToString: a bool column changed to varchar(5) held 'true' on
// PostgreSQL and '1' on TiDB (plan oracle, seed 94949, evolution
// 94949285058, a table rebuilt with a column of another type). migrate
// diff now refuses bool to a string and a string to bool, naming the
// column.
func TestBoolToString(t *testing.T) {
	t.Parallel()
	withBool := strings.Replace(dated, "type = varchar(20)", "type = bool", 1)
	for name, c := range map[string]struct{ before, after, from string }{
		"bool to varchar": {withBool, strings.Replace(withBool, "type = bool", "type = varchar(5)", 1), "from bool"},
		"varchar to bool": {dated, withBool, "to bool"},
	} {
		t.Run(name, func(t *testing.T) {
			ref := refused(t, c.before, c.after, name)
			if ref.Table != "events" || ref.Column != "code" || !strings.Contains(ref.Change, c.from) || !strings.Contains(ref.Instead, "data migration") {
				t.Fatalf("the refusal does not name the column and what to write: %v", ref)
			}
		})
	}
}
