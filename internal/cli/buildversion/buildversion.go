// Package buildversion is what `schemagen --version` prints: the module
// version and commit a binary was built from.
package buildversion

import (
	"fmt"
	"runtime/debug"
	"strings"
)

// BuildInfo is read once; tests replace it.
var BuildInfo = debug.ReadBuildInfo

// String is "schemagen VERSION (commit C[, modified][, TIME]) GO":
// the module version and the commit from the build info. A binary built by
// `go install ...@vX` has the module version (a pseudo-version names the
// commit); one built in a checkout has the commit that VCS stamping recorded.
func String() string {
	info, ok := BuildInfo()
	if !ok {
		return "schemagen (no build information)"
	}
	version := info.Main.Version
	if version == "" {
		version = "(devel)"
	}
	var commit, when string
	modified := false
	for _, s := range info.Settings {
		switch s.Key {
		case "vcs.revision":
			commit = s.Value
		case "vcs.time":
			when = s.Value
		case "vcs.modified":
			modified = s.Value == "true"
		}
	}
	if commit == "" {
		commit = pseudoCommit(version)
	}
	var details []string
	if commit != "" {
		if len(commit) > 12 {
			commit = commit[:12]
		}
		details = append(details, "commit "+commit)
	} else {
		details = append(details, "commit unknown")
	}
	if modified {
		details = append(details, "modified")
	}
	if when != "" {
		details = append(details, when)
	}
	return fmt.Sprintf("schemagen %s (%s) %s", version, strings.Join(details, ", "), info.GoVersion)
}

// pseudoCommit is the commit a pseudo-version (v0.0.0-20260101120000-abcdef123456)
// names, or "".
func pseudoCommit(version string) string {
	version, _, _ = strings.Cut(version, "+")
	i := strings.LastIndex(version, "-")
	if i < 0 {
		return ""
	}
	h := version[i+1:]
	if len(h) != 12 || strings.Trim(h, "0123456789abcdef") != "" {
		return ""
	}
	ts := version[:i]
	if j := strings.LastIndexAny(ts, "-."); j >= 0 && len(ts)-j-1 == 14 {
		return h
	}
	return ""
}
