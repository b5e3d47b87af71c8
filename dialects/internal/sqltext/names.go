package sqltext

import "github.com/schemagen/schemagen/dialects"

// FitName fits a name a dialect makes up into max bytes (dialects.FitName).
func FitName(name string, max int) string { return dialects.FitName(name, max) }
