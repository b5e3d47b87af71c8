package hazard

import (
	"fmt"
	"strings"

	"ariga.io/atlas/sql/schema"
)

// Refusal is a change of the model that migrate diff does not plan for a
// database, because no migration file could make it there: it names the
// change and says what to write instead. Planners return it (wrapped or
// not); callers recognise it with errors.As, never by its text.
type Refusal struct {
	// Database is the database's display name ("TiDB").
	Database string
	// Table is the table changed ("" for a change of no table, as an
	// enum type's), Change the change as the user wrote it
	// ("adding the STORED generated column \"total\"").
	Table, Change string
	// Reason says why the database cannot make it; Instead what to write.
	Reason, Instead string
	// Column and Enum name the column or enum type of the model where the
	// change is, when there is one: the command points at it in
	// schema.hcl.
	Column, Enum string
}

func (r *Refusal) Error() string {
	if r.Table == "" {
		// A change of no one table (an enum type's).
		return fmt.Sprintf("%s: cannot plan %s: %s. %s", r.Database, r.Change, r.Reason, r.Instead)
	}
	return fmt.Sprintf("%s: cannot plan %s of table %q: %s. %s", r.Database, r.Change, r.Table, r.Reason, r.Instead)
}

// NotNullWithoutValue refuses a NOT NULL column added to a table that
// existed before the plan (and may hold rows) when nothing gives the
// existing rows a value: no default, not generated, no identity (filled
// tells, per dialect). PostgreSQL refuses such an ADD COLUMN on a table
// with rows (23502) while TiDB fills the rows with the type's zero value
// (” or 0) and goes on: the same migration would mean two things. Every
// dialect refuses it alike, so that migrate diff of any env says so.
func NotNullWithoutValue(database string, changes []schema.Change, filled func(*schema.Column) bool) error {
	for _, c := range changes {
		mt, ok := c.(*schema.ModifyTable)
		if !ok {
			continue
		}
		for _, sc := range mt.Changes {
			ac, ok := sc.(*schema.AddColumn)
			if !ok || ac.C.Type == nil || ac.C.Type.Null || ac.C.Default != nil || filled(ac.C) {
				continue
			}
			return &Refusal{Database: database, Table: mt.T.Name, Column: ac.C.Name,
				Change:  fmt.Sprintf("adding the NOT NULL column %q without a default", ac.C.Name),
				Reason:  "the rows the table may hold have no value for it: PostgreSQL refuses the statement on a table with rows (23502) while TiDB fills them with an empty value ('' or 0), so the same migration would mean two things",
				Instead: fmt.Sprintf("Give the column a default (default = ...), or make it in two steps: add it with null = true (one migrate diff), fill it in a data migration (schemagen migrate new NAME --data: UPDATE %s SET %s = ...), then drop null = true (a second migrate diff)", mt.T.Name, ac.C.Name)}
		}
	}
	return nil
}

// FloatTextDiffers is a condition true of the values of floating-point
// column col (quoted), of type t, that PostgreSQL and TiDB write
// differently as text, when the column becomes a string: PostgreSQL writes
// an exponent from 1e15 up in a double, from 1e6 up in a real (its
// digits, DBL_DIG and FLT_DIG), and below 1e-4 ('1e+20', '1.6777216e+07',
// '1e-05'); TiDB the digits ('100000000000000000000', '16777216',
// '0.00001'; plan oracle, evolution 92323277059). Both plans pre-check
// such rows.
func FloatTextDiffers(col string, t *schema.FloatType) string {
	limit := "1e15"
	if t != nil && (t.T == "real" || t.T == "float4" || t.T == "float" && t.Precision <= 24) {
		limit = "1e6"
	}
	return fmt.Sprintf("(%s <> 0 AND (ABS(%s) >= %s OR ABS(%s) < 1e-4))", col, col, limit, col)
}

// TimeToText refuses a column changed from a time of day or a date and
// time (datetime, timestamp, time) to a string type: the two databases
// write such values differently as text, so the converted rows would
// differ. PostgreSQL leaves out a fraction of zeros and writes a
// timestamptz's offset ('2020-01-01 00:00:00', '... 00:00:00+00'), TiDB
// writes every digit of the column's precision ('2020-01-01
// 00:00:00.000000'; plan oracle, seed 31313, evolution 31313094173). A
// date converts alike ('2020-01-01') and is planned. Every dialect
// refuses it alike, so that migrate diff of any env says so.
func TimeToText(database string, changes []schema.Change) error {
	return EachTypeChange(changes, func(mt *schema.ModifyTable, mc *schema.ModifyColumn) error {
		if mc.From.Type == nil || mc.To.Type == nil {
			return nil
		}
		from, ok := mc.From.Type.Type.(*schema.TimeType)
		if !ok || strings.EqualFold(from.T, "date") || strings.EqualFold(from.T, "year") {
			return nil
		}
		switch mc.To.Type.Type.(type) {
		case *schema.StringType, *schema.BinaryType:
		default:
			return nil
		}
		return &Refusal{Database: database, Table: mt.T.Name, Column: mc.To.Name,
			Change:  fmt.Sprintf("the change of column %q from a time type (%s) to a string type", mc.To.Name, from.T),
			Reason:  "PostgreSQL and TiDB write a time as different text ('2020-01-01 00:00:00' on PostgreSQL, '2020-01-01 00:00:00.000000' on TiDB, and a timestamp with its offset on PostgreSQL alone), so the converted rows would differ between the databases",
			Instead: fmt.Sprintf("Add a string column beside %q, fill it in a data migration (schemagen migrate new NAME --data) with the text you want written the same on both, and drop %q in a later change", mc.To.Name, mc.To.Name)}
	})
}

// BytesText refuses a column changed from a byte string type to a
// character string type or back: the databases convert the values
// differently. PostgreSQL writes bytes as their hex text ('\\x6162') and
// reads text into bytes through escapes (a backslash starts one), TiDB
// copies the bytes as they are ('ab'); converted rows would differ, or
// stop one database alone (plan oracle, seed 92929, evolution
// 92929278869: bytes to char(5) stopped on PostgreSQL, 22001, and applied
// on TiDB).
func BytesText(database string, changes []schema.Change) error {
	return textConversion(database, changes, "a byte string type", func(t schema.Type) bool { _, ok := t.(*schema.BinaryType); return ok },
		"PostgreSQL converts bytes to their hex text ('\\x6162') and text to bytes through escapes, TiDB copies the bytes as they are ('ab')",
		"with values written the same on both")
}

// BoolText refuses a column changed from a boolean to a character string
// type or back: PostgreSQL writes a boolean as 'true' and reads 't',
// 'yes', 'on' and more as one, TiDB's boolean is an integer written '1'
// (plan oracle, seed 94949, evolution 94949285058: a bool column made
// varchar(5) held 'true' on PostgreSQL and '1' on TiDB).
func BoolText(database string, changes []schema.Change) error {
	return textConversion(database, changes, "bool", func(t schema.Type) bool { _, ok := t.(*schema.BoolType); return ok },
		"PostgreSQL writes a boolean as 'true' and 'false' and reads many words as one, TiDB's boolean is an integer written '1' and '0'",
		"with a CASE writing the values you want")
}

// textConversion refuses a column changed from a type kind accepts (named
// kind) to a character string type or back, which the databases convert
// differently (why); fill says how to fill the new column instead.
func textConversion(database string, changes []schema.Change, kind string, accepts func(schema.Type) bool, why, fill string) error {
	return EachTypeChange(changes, func(mt *schema.ModifyTable, mc *schema.ModifyColumn) error {
		if mc.From.Type == nil || mc.To.Type == nil {
			return nil
		}
		_, fromText := mc.From.Type.Type.(*schema.StringType)
		_, toText := mc.To.Type.Type.(*schema.StringType)
		var what string
		switch {
		case accepts(mc.From.Type.Type) && toText:
			what = "from " + kind + " to a string type"
		case fromText && accepts(mc.To.Type.Type):
			what = "from a string type to " + kind
		default:
			return nil
		}
		return &Refusal{Database: database, Table: mt.T.Name, Column: mc.To.Name,
			Change:  fmt.Sprintf("the change of column %q %s", mc.To.Name, what),
			Reason:  why + ", so the converted rows would differ between the databases",
			Instead: fmt.Sprintf("Add a column of the new type beside %q, fill it in a data migration (schemagen migrate new NAME --data, %s), and drop %q in a later change", mc.To.Name, fill, mc.To.Name)}
	})
}

// EachTypeChange calls f with each column type change of changes, in
// order, until f returns an error, which it returns.
func EachTypeChange(changes []schema.Change, f func(mt *schema.ModifyTable, mc *schema.ModifyColumn) error) error {
	for _, c := range changes {
		mt, ok := c.(*schema.ModifyTable)
		if !ok {
			continue
		}
		for _, sc := range mt.Changes {
			if mc, ok := sc.(*schema.ModifyColumn); ok && mc.Change.Is(schema.ChangeType) {
				if err := f(mt, mc); err != nil {
					return err
				}
			}
		}
	}
	return nil
}
