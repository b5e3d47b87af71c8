package sqltext

import (
	"crypto/sha256"
	"encoding/hex"
	"unicode/utf8"
)

// FitName fits a name a dialect makes up into max bytes, deterministically:
// a longer name keeps its start and ends in a hash of the whole.
func FitName(name string, max int) string {
	if len(name) <= max {
		return name
	}
	sum := sha256.Sum256([]byte(name))
	cut := max - 9
	for cut > 0 && !utf8.RuneStart(name[cut]) {
		cut--
	}
	return name[:cut] + "_" + hex.EncodeToString(sum[:4])
}
