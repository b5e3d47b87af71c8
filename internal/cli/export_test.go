package cli

import (
	"runtime/debug"

	"github.com/schemagen/schemagen/internal/cli/buildversion"
)

// SetBuildInfo replaces the build info for a test; the returned func restores it.
func SetBuildInfo(f func() (*debug.BuildInfo, bool)) func() {
	old := buildversion.BuildInfo
	buildversion.BuildInfo = f
	return func() { buildversion.BuildInfo = old }
}
