package export

import (
	"strings"

	"github.com/hashicorp/hcl/v2"

	"github.com/schemagen/schemagen/dialects/all"
	"github.com/schemagen/schemagen/internal/gen"
)

// FromResult exports a compiled schema, in every dialect, with the
// model's warnings for each (as explain lists them).
func FromResult(r *gen.Result) *Document {
	names := all.Names()
	warnings := map[string][]string{}
	for _, d := range r.Diags {
		if d.Severity != hcl.DiagWarning {
			continue
		}
		for _, n := range names {
			if strings.HasSuffix(d.Summary, "("+n+")") {
				warnings[n] = append(warnings[n], d.Detail)
			}
		}
	}
	return Build(r.Schema, names, r.Outputs, warnings)
}

// Render writes a compiled schema in format (one of Formats).
func Render(r *gen.Result, format string) []byte {
	doc := FromResult(r)
	if format == "typescript" {
		return TypeScript(r.Schema, doc)
	}
	return JSON(doc)
}

// Files are the exports the model declares (compiler.Export), by the path
// generate writes them to. The document is built once for all of them.
func Files(r *gen.Result) map[string][]byte {
	if len(r.Schema.Exports) == 0 {
		return nil
	}
	doc := FromResult(r)
	js := JSON(doc)
	files := map[string][]byte{}
	for _, e := range r.Schema.Exports {
		files[e.File] = js
		if e.Format == "typescript" {
			files[e.File] = typeScript(r.Schema, doc, js)
		}
	}
	return files
}
