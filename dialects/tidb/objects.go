package tidb

import (
	"context"
	"fmt"
	"strings"

	"ariga.io/atlas/sql/schema"

	"github.com/schemagen/schemagen/dialects"
	"github.com/schemagen/schemagen/dialects/internal/stmtlex"
)

// ReadObjects implements dialects.ObjectDialect: TiDB has no extensions,
// and lets tables change under the views that read them, so only the views
// of the current database, by lower-case name (TiDB compares names so).
// TiDB qualifies the tables of a definition with the database's name, which
// is taken out: databases of one schema have different names.
func (Dialect) ReadObjects(ctx context.Context, conn schema.ExecQuerier) (*dialects.Objects, error) {
	o := &dialects.Objects{Views: map[string]string{}}
	rows, err := conn.QueryContext(ctx, `SELECT TABLE_NAME, VIEW_DEFINITION, DATABASE() FROM INFORMATION_SCHEMA.VIEWS WHERE TABLE_SCHEMA = DATABASE() ORDER BY TABLE_NAME`)
	if err != nil {
		return nil, fmt.Errorf("tidb: reading views: %w", err)
	}
	defer rows.Close()
	for rows.Next() {
		var name, def, db string
		if err := rows.Scan(&name, &def, &db); err != nil {
			return nil, err
		}
		o.Views[strings.ToLower(name)] = strings.ReplaceAll(def, Ident(db)+".", "")
	}
	return o, rows.Err()
}

// CreatedView implements dialects.ObjectDialect.
func (Dialect) CreatedView(stmt string) (string, bool) {
	tok, ok := stmtlex.CreatedView(stmtlex.Tokenize(stmt, stmtGrammar))
	if !ok {
		return "", false
	}
	return strings.ToLower(stmtlex.Unquote(tok)), true
}

// CreateView implements dialects.ObjectDialect.
func (Dialect) CreateView(name, def string) string {
	return "CREATE VIEW " + Ident(name) + " AS " + strings.TrimRight(strings.TrimSpace(def), ";")
}

// DropView implements dialects.ObjectDialect.
func (Dialect) DropView(name string) string { return "DROP VIEW " + Ident(name) }

// CreateExtension implements dialects.ObjectDialect; TiDB has none, and
// the model's extensions never reach it.
func (Dialect) CreateExtension(name string) string { return "" }

// DropExtension implements dialects.ObjectDialect.
func (Dialect) DropExtension(name string) string { return "" }
