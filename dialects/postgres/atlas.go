package postgres

import (
	"context"
	"fmt"
	"strconv"
	"strings"

	"ariga.io/atlas/sql/migrate"
	"ariga.io/atlas/sql/postgres"
	"ariga.io/atlas/sql/schema"

	"github.com/schemagen/schemagen/dialects"
	"github.com/schemagen/schemagen/dialects/internal/describe"
	"github.com/schemagen/schemagen/dialects/internal/sqltext"
	"github.com/schemagen/schemagen/dialects/postgres/internal/atlasdrv"
)

// OpenAtlas implements dialects.Dialect: Atlas's PostgreSQL driver sees
// every object the generated DDL declares, CHECKs included, and with
// atlasDriver foreign keys' deferrability too. A server of a version
// schemagen is not tested on is refused here, on every connection
// schemagen works through.
func (Dialect) OpenAtlas(conn schema.ExecQuerier) (migrate.Driver, error) {
	if err := checkVersion(conn); err != nil {
		return nil, err
	}
	drv, err := postgres.Open(conn)
	if err != nil {
		return nil, err
	}
	return atlasdrv.Open(drv.(*postgres.Driver), conn), nil
}

// The PostgreSQL major versions schemagen supports: the ones CI tests
// (variables for a test that refuses its own server).
var (
	minVersion = 14
	maxVersion = 18
)

// SupportedVersions are the first and last PostgreSQL major versions
// schemagen supports.
func SupportedVersions() (first, last int) { return minVersion, maxVersion }

// UnsupportedVersionError is a PostgreSQL server of a major version outside
// SupportedVersions.
type UnsupportedVersionError struct {
	Version string // as the server reports it, e.g. "13.16"
	Major   int
}

func (e *UnsupportedVersionError) Error() string {
	return fmt.Sprintf("PostgreSQL %s is not supported: schemagen supports, and is tested on, PostgreSQL %d to %d", e.Version, minVersion, maxVersion)
}

func checkVersion(conn schema.ExecQuerier) error {
	rows, err := conn.QueryContext(context.Background(), "SELECT current_setting('server_version_num'), current_setting('server_version')")
	if err != nil {
		return fmt.Errorf("postgres: reading the server version: %w", err)
	}
	defer rows.Close()
	var num, version string
	for rows.Next() {
		if err := rows.Scan(&num, &version); err != nil {
			return fmt.Errorf("postgres: reading the server version: %w", err)
		}
	}
	if err := rows.Err(); err != nil {
		return fmt.Errorf("postgres: reading the server version: %w", err)
	}
	n, err := strconv.Atoi(num)
	if err != nil {
		return fmt.Errorf("postgres: server_version_num %q: %w", num, err)
	}
	if major := n / 10000; major < minVersion || major > maxVersion {
		v, _, _ := strings.Cut(version, " ")
		return &UnsupportedVersionError{Version: v, Major: major}
	}
	return nil
}

// ServerWarnings implements dialects.Dialect: the database's LC_CTYPE (or
// ICU locale) decides what lower and upper change. Under C they change
// ASCII letters only; ICU maps 'ß' to 'SS'. TiDB maps every letter to one,
// as a UTF-8 libc LC_CTYPE does (docs/semantics.md). The functions are
// asked rather than the settings read, which differ across versions and
// providers (lc_ctype is no setting from PostgreSQL 16 on; datctype is
// read for the message alone).
func (Dialect) ServerWarnings(ctx context.Context, conn schema.ExecQuerier) ([]dialects.ServerWarning, error) {
	var enc, ctype string
	if err := queryRow(ctx, conn, "SELECT pg_encoding_to_char(encoding), datctype FROM pg_database WHERE datname = current_database()", &enc, &ctype); err != nil {
		return nil, fmt.Errorf("postgres: reading the encoding: %w", err)
	}
	if enc != "UTF8" {
		// The letters below cannot be sent to it.
		return []dialects.ServerWarning{{Kind: dialects.CaseMappingDiffers, Text: fmt.Sprintf(
			"this database's encoding is %s, not UTF8: it holds other strings than TiDB's utf8mb4, and lower and upper change other letters (create the database with ENCODING 'UTF8' LC_CTYPE 'C.UTF-8')", enc)}}, nil
	}
	var got [3]string
	if err := queryRow(ctx, conn, "SELECT upper('é'), upper('ß'), lower('İ')", &got[0], &got[1], &got[2]); err != nil {
		return nil, fmt.Errorf("postgres: reading the case mapping: %w", err)
	}
	if got == [3]string{"É", "ß", "i"} {
		return nil, nil
	}
	return []dialects.ServerWarning{{Kind: dialects.CaseMappingDiffers, Text: fmt.Sprintf(
		"this database's case mapping (LC_CTYPE %s) differs from TiDB's: upper('é'), upper('ß'), lower('İ') give %q, %q, %q here and 'É', 'ß', 'i' there, so CHECKs, indexes and generated columns that call lower or upper hold other values (create the database with LC_CTYPE 'C.UTF-8')",
		ctype, got[0], got[1], got[2])}}, nil
}

// MarshalState implements dialects.Dialect.
// The storage parameters Atlas's HCL leaves out (fillfactor, pgvector's)
// follow it as comment lines.
func (Dialect) MarshalState(s *schema.Schema) ([]byte, error) {
	b, err := sqltext.MarshalState(s, postgres.MarshalHCL)
	if err != nil {
		return nil, err
	}
	parts, err := atlasdrv.MarshalParts(s)
	if err != nil {
		return nil, err
	}
	ps, err := atlasdrv.MarshalParams(s)
	if err != nil {
		return nil, err
	}
	for _, extra := range [][]byte{parts, ps} {
		if len(extra) > 0 && len(b) > 0 && b[len(b)-1] != '\n' {
			b = append(b, '\n')
		}
		b = append(b, extra...)
	}
	return b, nil
}

// UnmarshalState implements dialects.Dialect.
func (Dialect) UnmarshalState(b []byte) (*schema.Schema, error) {
	s, err := sqltext.UnmarshalState(b, postgres.EvalHCLBytes)
	if err != nil {
		return nil, err
	}
	if err := atlasdrv.UnmarshalParts(s, b); err != nil {
		return nil, err
	}
	return s, atlasdrv.UnmarshalParams(s, b)
}

// ScanStmts implements dialects.Dialect with the scanner of Atlas's
// PostgreSQL driver (dollar quotes, E” strings, BEGIN ATOMIC), which needs
// no connection.
func (Dialect) ScanStmts(input string) ([]*migrate.Stmt, error) {
	return (*postgres.Driver)(nil).ScanStmts(input)
}

// UseExprs implements dialects.Dialect. Defaults are written as raw text,
// which Atlas's planner writes as it is.
func (Dialect) UseExprs(s *schema.Schema, x *dialects.Exprs) {
	sqltext.UseExprs(s, x, sqltext.Using{
		Default: func(_ schema.Expr, text string) schema.Expr { return &schema.RawExpr{X: text} },
		Predicate: func(idx *schema.Index, text string) {
			for i, a := range idx.Attrs {
				if _, ok := a.(*postgres.IndexPredicate); ok {
					idx.Attrs[i] = &postgres.IndexPredicate{P: text}
				}
			}
		},
	})
}

// Describe implements dialects.Describer with Atlas's PostgreSQL type
// printer; an index shows its predicate.
// Its INCLUDE, NULLS NOT DISTINCT and storage parameters follow.
func (Dialect) Describe(obj any) string {
	switch o := obj.(type) {
	case *atlasdrv.Parts:
		return "the parts"
	case *atlasdrv.PartAdded:
		return "part " + o.Part.Name + " " + o.Part.Bound
	case *atlasdrv.PartDropped:
		return "no part " + o.Part.Name
	case *atlasdrv.PartRebound:
		return "part " + o.Part.Name + " " + o.Part.Bound
	case *atlasdrv.PartitionRefused:
		return o.Change
	}
	s := printer.Object(obj)
	if i, ok := obj.(*schema.Index); ok {
		for _, a := range i.Attrs {
			switch a := a.(type) {
			case *postgres.IndexInclude:
				var cols []string
				for _, c := range a.Columns {
					cols = append(cols, c.Name)
				}
				s += " INCLUDE (" + strings.Join(cols, ", ") + ")"
			case *postgres.IndexNullsDistinct:
				if !a.V {
					s += " NULLS NOT DISTINCT"
				}
			case *atlasdrv.IndexParams:
				s += " WITH (" + strings.Join(a.Params, ", ") + ")"
			}
		}
	}
	return s
}

var printer = describe.Printer{
	FormatType: postgres.FormatType,
	Predicate: func(idx *schema.Index) string {
		for _, a := range idx.Attrs {
			if p, ok := a.(*postgres.IndexPredicate); ok {
				return p.P
			}
		}
		return ""
	},
}

// Volatile implements dialects.Atlas: OIDs are one database's.
func (Dialect) Volatile(a schema.Attr) bool {
	_, ok := a.(*postgres.OID)
	return ok
}

// queryRow scans the one row q returns into dest.
func queryRow(ctx context.Context, conn schema.ExecQuerier, q string, dest ...any) error {
	rows, err := conn.QueryContext(ctx, q)
	if err != nil {
		return err
	}
	defer rows.Close()
	if !rows.Next() {
		if err := rows.Err(); err != nil {
			return err
		}
		return fmt.Errorf("%s: no row", q)
	}
	if err := rows.Scan(dest...); err != nil {
		return err
	}
	return rows.Close()
}
