package export

import (
	"bytes"
	"encoding/json"
)

// JSON writes the document as indented JSON, its keys in a fixed order, so
// that one model gives the same bytes everywhere.
func JSON(doc *Document) []byte {
	var b bytes.Buffer
	enc := json.NewEncoder(&b)
	enc.SetEscapeHTML(false) // SQL's <> and && stay readable
	enc.SetIndent("", "  ")
	if err := enc.Encode(doc); err != nil {
		// Every value of a Document marshals.
		panic("export: " + err.Error())
	}
	return b.Bytes()
}
