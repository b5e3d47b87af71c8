// Package builtin is a snapshot of PostgreSQL's own catalog: the names of
// the functions and types in pg_catalog, the keywords that are not
// function calls when a parenthesis follows them (reserved, column-name
// and type-or-function keywords, from pg_get_keywords), and the functions
// and types each extension that ships with PostgreSQL creates. The raw
// PostgreSQL texts of a model (defaults, CHECKs, index statements) are
// checked against it at generate, without a parser or a server.
//
// The snapshot is builtin.txt, read from the PostgreSQL server the tests
// run against: `go test ./dialects/postgres/internal/builtin -run
// TestSnapshot -update` rewrites it, and TestSnapshot fails when the server
// (of the snapshot's major version) has a name the snapshot lacks.
package builtin

import (
	_ "embed"
	"slices"
	"strings"
	"sync"
)

//go:embed builtin.txt
var snapshot string

// Catalog is a parsed snapshot.
type Catalog struct {
	// Version is the server's version the snapshot was read from.
	Version   string
	Functions map[string]bool
	Types     map[string]bool
	Keywords  map[string]bool
	// Extensions are the functions and types of each extension, by
	// extension name.
	Extensions map[string]*Extension
}

// Extension is what one extension creates.
type Extension struct {
	Functions map[string]bool
	Types     map[string]bool
}

var (
	once sync.Once
	cat  *Catalog
)

// Get returns the embedded snapshot.
func Get() *Catalog {
	once.Do(func() { cat = Parse(snapshot) })
	return cat
}

// Parse reads a snapshot: lines `version V`, `function NAME...`, `type
// NAME...`, `keyword WORD...`, `extension EXT function|type NAME...`;
// lines starting with # are comments.
func Parse(text string) *Catalog {
	c := &Catalog{Functions: map[string]bool{}, Types: map[string]bool{}, Keywords: map[string]bool{}, Extensions: map[string]*Extension{}}
	for _, line := range strings.Split(text, "\n") {
		f := strings.Fields(line)
		if len(f) < 2 || strings.HasPrefix(f[0], "#") {
			continue
		}
		var into map[string]bool
		switch f[0] {
		case "version":
			c.Version = f[1]
			continue
		case "function":
			into = c.Functions
		case "type":
			into = c.Types
		case "keyword":
			into = c.Keywords
		case "extension":
			if len(f) < 3 {
				continue
			}
			e := c.Extensions[f[1]]
			if e == nil {
				e = &Extension{Functions: map[string]bool{}, Types: map[string]bool{}}
				c.Extensions[f[1]] = e
			}
			into = e.Types
			if f[2] == "function" {
				into = e.Functions
			}
			f = f[2:]
		default:
			continue
		}
		for _, n := range f[1:] {
			into[n] = true
		}
	}
	return c
}

// Format writes c as a snapshot, names sorted, a few to a line.
func (c *Catalog) Format() string {
	var b strings.Builder
	b.WriteString("# PostgreSQL's catalog as schemagen checks raw texts against it (package builtin).\n")
	b.WriteString("# Written by: go test ./dialects/postgres/internal/builtin -run TestSnapshot -update\n")
	b.WriteString("version " + c.Version + "\n")
	list := func(prefix string, m map[string]bool) {
		names := make([]string, 0, len(m))
		for n := range m {
			names = append(names, n)
		}
		slices.Sort(names)
		for i := 0; i < len(names); i += 8 {
			b.WriteString(prefix + " " + strings.Join(names[i:min(i+8, len(names))], " ") + "\n")
		}
	}
	list("keyword", c.Keywords)
	list("type", c.Types)
	list("function", c.Functions)
	exts := make([]string, 0, len(c.Extensions))
	for n := range c.Extensions {
		exts = append(exts, n)
	}
	slices.Sort(exts)
	for _, n := range exts {
		e := c.Extensions[n]
		if len(e.Functions)+len(e.Types) == 0 {
			b.WriteString("extension " + n + " function\n")
			continue
		}
		list("extension "+n+" function", e.Functions)
		list("extension "+n+" type", e.Types)
	}
	return b.String()
}
