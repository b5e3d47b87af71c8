package postgres

import (
	"context"
	"fmt"
	"slices"

	"ariga.io/atlas/sql/postgres"
	"ariga.io/atlas/sql/schema"

	"github.com/schemagen/schemagen/dialects/hazard"
)

// castContext is how PostgreSQL converts a value of type $1 to type $2, as
// ALTER COLUMN ... TYPE looks it up (parse_coerce.c's
// find_coercion_pathway): 'i' or 'a' when it converts one by itself
// (implicitly, or by assignment: the same type with other modifiers, a
// pg_cast entry of either context, any type to a string type by its text),
// 'e' when only an explicit cast converts it (a pg_cast entry of that
// context, a string type to any type by its text), and the empty text when nothing
// does.
const castContext = `SELECT CASE
  WHEN s = t THEN 'a'
  WHEN EXISTS (SELECT FROM pg_cast WHERE castsource = s AND casttarget = t)
    THEN (SELECT castcontext::text FROM pg_cast WHERE castsource = s AND casttarget = t)
  WHEN (SELECT typcategory FROM pg_type WHERE oid = t) = 'S' THEN 'a'
  WHEN (SELECT typcategory FROM pg_type WHERE oid = s) = 'S' THEN 'e'
  ELSE '' END
FROM (SELECT $1::regtype::oid AS s, $2::regtype::oid AS t) x`

// typeChanges completes the plan's column type changes that PostgreSQL
// cannot make by itself (42804, "cannot be cast automatically"): one that
// only an explicit cast makes (text to integer, integer to boolean) gets
// USING "col"::type, which converts every row as TiDB's MODIFY COLUMN does
// and fails on a value that does not convert; one that no cast makes (date
// to numeric, boolean to date) is refused with what to write instead. The
// dev database says which is which (pg_cast). Changes to an enum are
// enumChanges'.
func typeChanges(ctx context.Context, drv schema.ExecQuerier, changes []schema.Change) error {
	for _, c := range changes {
		mt, ok := c.(*schema.ModifyTable)
		if !ok {
			continue
		}
		for _, sc := range mt.Changes {
			mc, ok := sc.(*schema.ModifyColumn)
			if !ok || !mc.Change.Is(schema.ChangeType) {
				continue
			}
			if _, ok := mc.To.Type.Type.(*schema.EnumType); ok {
				continue
			}
			if slices.ContainsFunc(mc.Extra, func(x schema.Clause) bool { _, ok := x.(*postgres.ConvertUsing); return ok }) {
				continue
			}
			from, err := regtypeName(mc.From.Type.Type)
			if err != nil {
				return err
			}
			to, err := postgres.FormatType(mc.To.Type.Type)
			if err != nil {
				return err
			}
			how, ok := conversion(ctx, drv, from, to)
			if !ok {
				// A type the dev database does not know yet (made by the
				// same migration, as an extension's): planned as Atlas
				// plans it.
				continue
			}
			switch how {
			case "i", "a":
			case "e":
				mc.Extra = append(mc.Extra, &postgres.ConvertUsing{X: Ident(mc.To.Name) + "::" + to})
			default:
				return &hazard.Refusal{
					Database: "PostgreSQL", Table: mt.T.Name,
					Change:  fmt.Sprintf("the change of column %q from %s to %s", mc.To.Name, from, to),
					Reason:  fmt.Sprintf("PostgreSQL has no conversion from %s to %s, so ALTER COLUMN ... TYPE cannot convert the rows", from, to),
					Instead: fmt.Sprintf("Add a column of the new type beside %q, fill it from the old one in a data migration (migrations/portable), and drop %q in a later change; or, if its values may be lost, drop the column in one change and add the new one in the next", mc.To.Name, mc.To.Name),
				}
			}
		}
	}
	return nil
}

// conversion is castContext of from and to, and false when the dev
// database cannot say (a type it does not have).
func conversion(ctx context.Context, drv schema.ExecQuerier, from, to string) (string, bool) {
	rows, err := drv.QueryContext(ctx, castContext, from, to)
	if err != nil {
		return "", false
	}
	defer rows.Close()
	var how string
	if !rows.Next() || rows.Scan(&how) != nil || rows.Err() != nil {
		return "", false
	}
	return how, true
}

// regtypeName is a column type as regtype reads it: an enum by its name.
func regtypeName(t schema.Type) (string, error) {
	if e, ok := t.(*schema.EnumType); ok {
		return Ident(e.T), nil
	}
	return postgres.FormatType(t)
}
