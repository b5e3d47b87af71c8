package lint

import (
	"fmt"
	"slices"
	"strings"

	"ariga.io/atlas/sql/migrate"
	"ariga.io/atlas/sql/schema"
	"ariga.io/atlas/sql/sqlcheck"

	"github.com/schemagen/schemagen/dialects/all"
	"github.com/schemagen/schemagen/dialects/hazard"
	"github.com/schemagen/schemagen/internal/online"
)

// The hazard codes of every dialect are lint rules: a severe hazard (writes
// stalled for a whole scan, data lost) is an error, the others warnings.
func init() {
	for _, c := range online.Codes(all.Online()...) {
		if c.CoveredBy != "" {
			coveredBy[c.Code] = c.CoveredBy
			continue
		}
		sev := SeverityWarning
		if c.Severe {
			sev = SeverityError
		}
		Rules = append(Rules, Rule{Code: c.Code, Source: "schemagen", Analyzer: "hazard", Severity: sev,
			Title: c.Title, Help: c.Help, Dialects: []string{c.Dialect}})
	}
}

// coveredBy are the rules that report a hazard code, for the codes another
// rule reports ("DS102, DS103").
var coveredBy = map[string]string{}

// hazardRule reports the hazards of every statement that changed a table
// that existed before the file (tables created by the file hold no rows).
func hazardRule(fl *fileLint, file *sqlcheck.File, from *schema.Realm) {
	texts := make([]string, len(fl.stmts))
	for i, s := range fl.stmts {
		texts[i] = s.Text
	}
	existed := map[string]bool{}
	for _, sc := range from.Schemas {
		for _, t := range sc.Tables {
			existed[strings.ToLower(t.Name)] = true
		}
	}
	byStmt := map[*migrate.Stmt][]schema.Change{}
	for _, c := range file.Changes {
		byStmt[c.Stmt] = c.Changes
	}
	for i, s := range fl.stmts {
		var existing []schema.Change
		// dropsSeen: the statement drops a table or column of the schema,
		// which Atlas's analyzer judges (DS102, DS103; a generated column,
		// such as TiDB's index helpers, loses nothing).
		dropsSeen := false
		for _, c := range byStmt[s] {
			switch c := c.(type) {
			case *schema.ModifyTable:
				if existed[strings.ToLower(c.T.Name)] {
					existing = append(existing, c)
					dropsSeen = dropsSeen || slices.ContainsFunc(c.Changes, func(c schema.Change) bool { _, ok := c.(*schema.DropColumn); return ok })
				}
			case *schema.DropTable:
				if existed[strings.ToLower(c.T.Name)] {
					existing = append(existing, c)
					dropsSeen = true
				}
			}
		}
		hs := online.Hazards(fl.l.t.Online(), texts, i, existing)
		for _, h := range hs {
			if h.Table != "" && !existed[strings.ToLower(h.Table)] {
				continue
			}
			if _, ok := LookupRule(h.Code); !ok {
				// Reported by another rule (DS102, DS103) where Atlas's
				// analyzer judges the drop; where it cannot (a part of a
				// partitioned table dropped, which is no table of the
				// schema), by the first of them here.
				covering := strings.Split(coveredBy[h.Code], ", ")
				if dropsSeen || slices.ContainsFunc(fl.findings, func(f Finding) bool { return f.Statement == i+1 && slices.Contains(covering, f.Code) }) {
					continue
				}
				if r, ok := LookupRule(covering[0]); ok {
					fl.add(i+1, s.Pos, r.Code, fmt.Sprintf("%s: %s", r.Title, strings.TrimPrefix(h.Summary(), h.Code+" ")))
				}
				continue
			}
			fl.add(i+1, s.Pos, h.Code, hazardMessage(h))
		}
	}
}

func hazardMessage(h hazard.Hazard) string {
	s := strings.TrimPrefix(h.Summary(), h.Code+" ")
	if r, ok := LookupRule(h.Code); ok {
		s = fmt.Sprintf("%s: %s", r.Title, s)
	}
	return s
}
