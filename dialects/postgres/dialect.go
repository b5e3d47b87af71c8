// Package postgres is schemagen's PostgreSQL dialect.
//
// It holds everything schemagen knows about PostgreSQL (generation,
// reading back, Atlas's driver and its workarounds, online plans, lint
// rules, import), one concern a file with the same names as package tidb.
// The larger concerns are sub-packages of internal/: lower (the
// generation: settings, types, limits and the lowering), atlasdrv, online,
// catalog and lexical.
package postgres

import (
	"github.com/hashicorp/hcl/v2"

	"github.com/schemagen/schemagen/compiler"
	"github.com/schemagen/schemagen/dialects"
	"github.com/schemagen/schemagen/dialects/postgres/internal/lexical"
	"github.com/schemagen/schemagen/dialects/postgres/internal/lower"
)

// Name is the dialect's name in schema.hcl and atlas.hcl.
const Name = lower.Name

// Dialect is PostgreSQL (15 and later).
type Dialect struct{}

// Name implements dialects.Dialect.
func (Dialect) Name() string { return Name }

// Generate implements dialects.Dialect (internal/lower).
func (Dialect) Generate(s *compiler.Schema) (*dialects.Output, hcl.Diagnostics) {
	return lower.Generate(s)
}

// Ident quotes an identifier.
func Ident(s string) string { return lexical.Ident(s) }

// String quotes a string literal.
func String(s string) string { return lexical.String(s) }

// CreateEnum is the statement that creates an enum type.
func CreateEnum(name string, values []string) string { return lower.CreateEnum(name, values) }

// DomainChecks implements the importer's domain reader: the names of the
// value-domain CHECKs value_domains gives t, with their columns.
func (Dialect) DomainChecks(t *compiler.Table) map[string]string { return lower.DomainChecks(t) }
