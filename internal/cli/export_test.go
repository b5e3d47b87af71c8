package cli

import "runtime/debug"

// SetBuildInfo replaces the build info for a test; the returned func restores it.
func SetBuildInfo(f func() (*debug.BuildInfo, bool)) func() {
	old := buildInfo
	buildInfo = f
	return func() { buildInfo = old }
}
