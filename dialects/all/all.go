// Package all lists schemagen's dialects.
package all

import (
	"slices"

	"github.com/schemagen/schemagen/dialects"
	"github.com/schemagen/schemagen/dialects/postgres"
	"github.com/schemagen/schemagen/dialects/tidb"
)

// Dialects returns every dialect, in the order output is written.
func Dialects() []dialects.Dialect {
	return []dialects.Dialect{postgres.Dialect{}, tidb.Dialect{}}
}

// Names returns the dialects' names.
func Names() []string {
	var names []string
	for _, d := range Dialects() {
		names = append(names, d.Name())
	}
	return names
}

// Get returns the dialect with the given name, or nil.
func Get(name string) dialects.Dialect {
	for _, d := range Dialects() {
		if d.Name() == name {
			return d
		}
	}
	return nil
}

// ForScheme returns the dialect whose databases' URLs have the given scheme,
// or nil.
func ForScheme(scheme string) dialects.Dialect {
	for _, d := range Dialects() {
		if slices.Contains(d.Schemes(), scheme) {
			return d
		}
	}
	return nil
}
