package postgres

// SetSupportedVersions changes the supported range for a test; the returned
// func restores it.
func SetSupportedVersions(first, last int) func() {
	a, b := minVersion, maxVersion
	minVersion, maxVersion = first, last
	return func() { minVersion, maxVersion = a, b }
}
