// Package migration is schemagen's versioned-migration workflow on Atlas:
// planning migration files for every dialect from the generated DDL
// (online plans, renames, raw and portable data migrations), and the
// migration directory with its atlas.sum. Applying the files and reading
// their status is package deploy; linting them is package lint; the
// scratch databases that plans are made on, and the cache of what they
// found, are package scratch.
package migration

import (
	"fmt"
	"net/url"
	"path/filepath"
	"strings"

	"github.com/schemagen/schemagen/dialects"
	"github.com/schemagen/schemagen/dialects/all"
	"github.com/schemagen/schemagen/internal/atlasconf"
)

// Target is one env of atlas.hcl with the dialect it is written in.
type Target struct {
	Env     *atlasconf.Env
	Dialect dialects.Dialect
}

// Online is the dialect's Online part, nil when it has none.
func (t Target) Online() dialects.Online {
	o, _ := t.Dialect.(dialects.Online)
	return o
}

// Targets resolves the named envs (all of them when names is empty).
func Targets(cfg *atlasconf.Config, names []string) ([]Target, error) {
	if len(names) == 0 {
		names = cfg.Names()
	}
	var out []Target
	for _, n := range names {
		e := cfg.Env(n)
		if e == nil {
			return nil, fmt.Errorf("%s has no env %q; it has %s", cfg.Path, n, strings.Join(cfg.Names(), ", "))
		}
		d, err := dialectOf(e)
		if err != nil {
			return nil, err
		}
		out = append(out, Target{Env: e, Dialect: d})
	}
	return out, nil
}

// dialectOf tells an env's dialect from its generated file's directory
// (generated/tidb/schema.sql), else from its URLs' scheme, else its name.
func dialectOf(e *atlasconf.Env) (dialects.Dialect, error) {
	if e.Src != "" {
		if d := all.Get(filepath.Base(filepath.Dir(e.Src))); d != nil {
			return d, nil
		}
	}
	for _, raw := range []string{e.URL, e.Dev} {
		u, err := url.Parse(raw)
		if err != nil || u.Scheme == "" {
			continue
		}
		if d := all.ForScheme(u.Scheme); d != nil {
			return d, nil
		}
	}
	if d := all.Get(e.Name); d != nil {
		return d, nil
	}
	return nil, fmt.Errorf("env %q: cannot tell its dialect from src, url or name (dialects: %s)", e.Name, strings.Join(all.Names(), ", "))
}
