package all_test

import (
	"context"
	"fmt"
	"slices"
	"strings"
	"testing"

	"github.com/schemagen/schemagen/compiler"
	"github.com/schemagen/schemagen/dialects"
	"github.com/schemagen/schemagen/dialects/postgres"
	"github.com/schemagen/schemagen/dialects/tidb"
	"github.com/schemagen/schemagen/internal/dbtest"
)

func TestMain(m *testing.M) { dbtest.Main(m) }

// typeSamples are the neutral types written and read back: every kind, with
// each form of its arguments. TestTypesRoundTrip fails on a kind missing
// here.
var typeSamples = map[compiler.TypeKind][][]int{
	compiler.TypeUUID:      {nil},
	compiler.TypeText:      {nil},
	compiler.TypeVarchar:   {{10}},
	compiler.TypeChar:      {{10}, {36}},
	compiler.TypeSmallint:  {nil},
	compiler.TypeInt:       {nil},
	compiler.TypeBigint:    {nil},
	compiler.TypeBool:      {nil},
	compiler.TypeDouble:    {nil},
	compiler.TypeDecimal:   {{10, 2}, {65, 30}},
	compiler.TypeTimestamp: {nil, {0}, {3}, {6}},
	compiler.TypeDate:      {nil},
	compiler.TypeJSON:      {nil},
	compiler.TypeBytes:     {nil},
	compiler.TypeVector:    {nil, {3}},
	compiler.TypeTime:      {nil, {0}, {3}, {6}},
	compiler.TypeFloat:     {nil},
	compiler.TypeDatetime:  {nil, {0}, {3}, {6}},
	compiler.TypeEnum:      {nil},
}

// typeRoundTrip is one dialect: how it writes a type, and the kinds that
// share their type with another kind and read back as that kind (the dialect's
// type then round-trips, the neutral one cannot).
type typeRoundTrip struct {
	d      dialects.Dialect
	write  func(compiler.Type) string
	shares map[string]compiler.TypeKind // the dialect's type, in lower case → the kind read back
	// kept is the fractional seconds the dialect keeps by default, of each
	// time kind: timestamp(6) is timestamp on PostgreSQL, and reads back so.
	kept map[compiler.TypeKind]int
	// skip: kinds the test server cannot hold, and why.
	skip map[compiler.TypeKind]string
}

var typeDialects = []typeRoundTrip{
	{d: postgres.Dialect{}, write: postgres.Type,
		kept: map[compiler.TypeKind]int{compiler.TypeTimestamp: 6, compiler.TypeTime: 6, compiler.TypeDatetime: 6},
		skip: map[compiler.TypeKind]string{compiler.TypeVector: "pgvector is not installed on the test servers (see the guide)"}},
	{d: tidb.Dialect{}, write: tidb.Type,
		kept: map[compiler.TypeKind]int{compiler.TypeTimestamp: 3, compiler.TypeTime: 6, compiler.TypeDatetime: 6},
		shares: map[string]compiler.TypeKind{
			"char(36)": compiler.TypeUUID, "datetime(0)": compiler.TypeTimestamp, "datetime(3)": compiler.TypeTimestamp, "datetime(6)": compiler.TypeTimestamp,
		}},
}

// TestTypesRoundTrip writes a column of every neutral type with the
// dialect's Type on a real database, inspects it with the dialect's Atlas
// driver and reads each column back with NeutralType, as import does: it
// must be read as exactly the type written (or, where two kinds share the
// dialect's type, as the one the table reads it as, of the same type).
func TestTypesRoundTrip(t *testing.T) {
	for k := compiler.TypeKind(1); (compiler.Type{Kind: k}).Name() != ""; k++ {
		if typeSamples[k] == nil {
			t.Errorf("no sample of the type %s in typeSamples", compiler.Type{Kind: k}.Name())
		}
	}
	for _, rt := range typeDialects {
		t.Run(rt.d.Name(), func(t *testing.T) {
			db := dbtest.New(t, rt.d.Name())
			ctx := context.Background()
			enum := &compiler.Enum{Name: "rt_mood", Values: []string{"sad", "ok", "it's fine", `back\slash`, "a,b"}}
			var cols []string
			var want []compiler.Type
			for k := compiler.TypeKind(1); (compiler.Type{Kind: k}).Name() != ""; k++ {
				if why := rt.skip[k]; why != "" {
					t.Logf("%s: not written: %s", compiler.Type{Kind: k}.Name(), why)
					continue
				}
				for _, args := range typeSamples[k] {
					typ := compiler.Type{Kind: k, Args: args}
					if k == compiler.TypeEnum {
						typ.Enum = enum
					}
					cols = append(cols, fmt.Sprintf("c%d %s", len(cols), rt.write(typ)))
					want = append(want, typ)
				}
			}
			if rt.d.Name() == postgres.Name {
				if _, err := db.ExecContext(ctx, postgres.CreateEnum(enum.Name, enum.Values)); err != nil {
					t.Fatal(err)
				}
			}
			ddl := "CREATE TABLE rt (" + strings.Join(cols, ", ") + ")"
			if _, err := db.ExecContext(ctx, ddl); err != nil {
				t.Fatalf("%s: %v", ddl, err)
			}
			drv, err := rt.d.OpenAtlas(db.DB)
			if err != nil {
				t.Fatal(err)
			}
			s, err := drv.InspectSchema(ctx, "", nil)
			if err != nil {
				t.Fatal(err)
			}
			tbl, ok := s.Table("rt")
			if !ok || len(tbl.Columns) != len(want) {
				t.Fatalf("inspected %v, want a table rt of %d columns", tbl, len(want))
			}
			imp := rt.d.(dialects.Importer)
			for i, c := range tbl.Columns {
				w := want[i]
				got, raw, exact := imp.NeutralType(c.Type)
				wantKind := w.Kind
				if k, ok := rt.shares[strings.ToLower(rt.write(w))]; ok && k != w.Kind {
					wantKind = k
				}
				switch {
				case !exact:
					t.Errorf("%s (%s) is read back as %s, not exactly (raw %q)", w, rt.write(w), got, raw)
				case got.Kind != wantKind:
					t.Errorf("%s (%s) is read back as %s (raw %q)", w, rt.write(w), got, raw)
				case wantKind != w.Kind && rt.write(got) != rt.write(w):
					t.Errorf("%s (%s) is read back as %s, written %s", w, rt.write(w), got, rt.write(got))
				case wantKind == w.Kind && !sameType(rt.kept, got, w):
					t.Errorf("%s (%s) is read back as %s%s (raw %q)", w, rt.write(w), got, enumValues(got), raw)
				}
			}
		})
	}
}

// sameType compares two types as the model means them: an enum by its
// values (TiDB's has no name), a time type's precision with the one kept
// by default given or not.
func sameType(kept map[compiler.TypeKind]int, a, b compiler.Type) bool {
	args := func(t compiler.Type) []int {
		if d, ok := kept[t.Kind]; ok {
			return []int{t.Arg(0, d)}
		}
		return t.Args
	}
	if a.Kind != b.Kind || !slices.Equal(args(a), args(b)) {
		return false
	}
	if a.Kind == compiler.TypeEnum {
		return a.Enum != nil && b.Enum != nil && slices.Equal(a.Enum.Values, b.Enum.Values)
	}
	return true
}

func enumValues(t compiler.Type) string {
	if t.Enum == nil {
		return ""
	}
	return fmt.Sprintf(" %q", t.Enum.Values)
}
