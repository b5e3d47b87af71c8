package scratch

import (
	"io"

	"ariga.io/atlas/sql/schema"
)

// WriteCanonical exposes what Fingerprint hashes, for tests.
func WriteCanonical(w io.Writer, s *schema.Schema) { writeCanonical(w, s) }
