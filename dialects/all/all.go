// Package all lists schemagen's dialects.
package all

import (
	"slices"

	"github.com/schemagen/schemagen/dialects"
	"github.com/schemagen/schemagen/dialects/postgres"
	"github.com/schemagen/schemagen/dialects/tidb"
)

// registered are the dialects added by Register, after the built-in ones.
var registered []dialects.Dialect

// Register adds a dialect, from an init function of the program (or test)
// that has it: every command then generates, diffs and lints for it. It
// panics on a name or URL scheme another dialect has.
func Register(d dialects.Dialect) {
	for _, o := range Dialects() {
		if o.Name() == d.Name() {
			panic("dialects: two dialects named " + d.Name())
		}
		for _, s := range d.Schemes() {
			if slices.Contains(o.Schemes(), s) {
				panic("dialects: " + d.Name() + " and " + o.Name() + " both read " + s + ":// URLs")
			}
		}
	}
	registered = append(registered, d)
}

// Dialects returns every dialect, in the order output is written.
func Dialects() []dialects.Dialect {
	return append([]dialects.Dialect{postgres.Dialect{}, tidb.Dialect{}}, registered...)
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

// Online returns the Online part of every dialect that has one, in the
// order of Dialects.
func Online() []dialects.Online {
	var out []dialects.Online
	for _, d := range Dialects() {
		if o, ok := d.(dialects.Online); ok {
			out = append(out, o)
		}
	}
	return out
}
