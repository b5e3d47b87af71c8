package compiler

import "github.com/hashicorp/hcl/v2"

// Subject names the model object a diagnostic is about, so that a tool can
// act on the object (leave it out of a dialect) without reading the text.
// It travels in hcl.Diagnostic.Extra.
type Subject struct {
	Table string
	// Kind is "table", "column", "default" (a column's default; Name is the
	// column's), "identity" (a column's identity, likewise), "enum" (Table is ""), "unique",
	// "check", "foreign key" or "index".
	Kind string
	// Name is the object's name in the model ("" for a table).
	Name string
}

func (s Subject) String() string {
	switch s.Kind {
	case "table":
		return "table " + s.Table
	case "default":
		return "the default of column " + s.Name + " of " + s.Table
	case "identity":
		return "the identity of column " + s.Name + " of " + s.Table
	case "enum":
		return "enum " + s.Name
	}
	return s.Kind + " " + s.Name + " of " + s.Table
}

// SubjectOf returns the object d is about, when its producer said.
func SubjectOf(d *hcl.Diagnostic) (Subject, bool) {
	s, ok := hcl.DiagnosticExtra[Subject](d)
	return s, ok
}
