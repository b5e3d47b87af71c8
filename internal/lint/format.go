package lint

import (
	"encoding/json"
	"fmt"
	"io"
	"path/filepath"
	"slices"
	"strings"
)

// Formats are the output formats of Write.
var Formats = []string{"text", "json", "github", "sarif"}

// Write writes a lint report in one of Formats.
func Write(w io.Writer, r *Report, format string) error {
	switch format {
	case "text":
		return writeLintText(w, r)
	case "json":
		return writeLintJSON(w, r)
	case "github":
		return writeLintGitHub(w, r)
	case "sarif":
		return writeLintSARIF(w, r)
	}
	return fmt.Errorf("unknown lint format %q (want %s)", format, strings.Join(Formats, ", "))
}

func lintSummary(r *Report) string {
	errs, warnings, suppressed := r.Counts()
	plural := func(n int, s string) string {
		if n == 1 {
			return "1 " + s
		}
		return fmt.Sprintf("%d %ss", n, s)
	}
	return fmt.Sprintf("%s linted: %s, %s, %d suppressed", plural(len(r.Files), "file"),
		plural(errs, "error"), plural(warnings, "warning"), suppressed)
}

// writeLintText writes one line per finding, `file:line: CODE [severity]
// message`, then a summary.
func writeLintText(w io.Writer, r *Report) error {
	for _, f := range r.Findings {
		label := string(f.Severity)
		if f.Suppressed {
			label = "suppressed: " + f.Reason
		}
		if _, err := fmt.Fprintf(w, "%s:%d: %s [%s] %s\n", f.File, f.Line, f.Code, label, f.Message); err != nil {
			return err
		}
	}
	_, err := fmt.Fprintln(w, lintSummary(r))
	return err
}

// JSON is the shape of `migrate lint --format json`.
type JSON struct {
	Files    []File    `json:"files"`
	Findings []Finding `json:"findings"`
	Notes    []string  `json:"notes"`
	Summary  struct {
		Files      int `json:"files"`
		Errors     int `json:"errors"`
		Warnings   int `json:"warnings"`
		Suppressed int `json:"suppressed"`
	} `json:"summary"`
}

func writeLintJSON(w io.Writer, r *Report) error {
	out := JSON{Files: r.Files, Findings: r.Findings, Notes: r.Notes}
	if out.Files == nil {
		out.Files = []File{}
	}
	if out.Findings == nil {
		out.Findings = []Finding{}
	}
	if out.Notes == nil {
		out.Notes = []string{}
	}
	out.Summary.Files = len(r.Files)
	out.Summary.Errors, out.Summary.Warnings, out.Summary.Suppressed = r.Counts()
	enc := json.NewEncoder(w)
	enc.SetIndent("", "  ")
	return enc.Encode(out)
}

// writeLintGitHub writes GitHub Actions workflow commands: ::error and
// ::warning annotations, and ::notice for suppressed findings.
func writeLintGitHub(w io.Writer, r *Report) error {
	prop := strings.NewReplacer("%", "%25", "\r", "%0D", "\n", "%0A", ":", "%3A", ",", "%2C")
	data := strings.NewReplacer("%", "%25", "\r", "%0D", "\n", "%0A")
	for _, f := range r.Findings {
		cmd, msg := string(f.Severity), f.Message
		if f.Suppressed {
			cmd, msg = "notice", fmt.Sprintf("suppressed (%s): %s", f.Reason, f.Message)
		}
		if _, err := fmt.Fprintf(w, "::%s file=%s,line=%d,col=%d,title=%s::%s\n", cmd,
			prop.Replace(filepath.ToSlash(f.File)), f.Line, f.Column, prop.Replace(f.Code), data.Replace(msg)); err != nil {
			return err
		}
	}
	_, err := fmt.Fprintln(w, lintSummary(r))
	return err
}

// SARIF 2.1.0, the subset schemagen writes.
type (
	sarifLog struct {
		Schema  string     `json:"$schema"`
		Version string     `json:"version"`
		Runs    []sarifRun `json:"runs"`
	}
	sarifRun struct {
		Tool    sarifTool     `json:"tool"`
		Results []sarifResult `json:"results"`
	}
	sarifTool struct {
		Driver sarifDriver `json:"driver"`
	}
	sarifDriver struct {
		Name           string      `json:"name"`
		InformationURI string      `json:"informationUri"`
		Rules          []sarifRule `json:"rules"`
	}
	sarifRule struct {
		ID                   string       `json:"id"`
		Name                 string       `json:"name"`
		ShortDescription     sarifMessage `json:"shortDescription"`
		FullDescription      sarifMessage `json:"fullDescription"`
		Help                 sarifMessage `json:"help"`
		DefaultConfiguration struct {
			Level string `json:"level"`
		} `json:"defaultConfiguration"`
		Properties map[string]any `json:"properties,omitempty"`
	}
	sarifMessage struct {
		Text string `json:"text"`
	}
	sarifResult struct {
		RuleID       string             `json:"ruleId"`
		RuleIndex    int                `json:"ruleIndex"`
		Level        string             `json:"level"`
		Message      sarifMessage       `json:"message"`
		Locations    []sarifLocation    `json:"locations"`
		Suppressions []sarifSuppression `json:"suppressions,omitempty"`
	}
	sarifLocation struct {
		PhysicalLocation struct {
			ArtifactLocation struct {
				URI string `json:"uri"`
			} `json:"artifactLocation"`
			Region struct {
				StartLine   int `json:"startLine"`
				StartColumn int `json:"startColumn"`
			} `json:"region"`
		} `json:"physicalLocation"`
	}
	sarifSuppression struct {
		Kind          string `json:"kind"`
		Justification string `json:"justification"`
	}
)

func writeLintSARIF(w io.Writer, r *Report) error {
	run := sarifRun{Results: []sarifResult{}}
	run.Tool.Driver = sarifDriver{Name: "schemagen", InformationURI: "https://github.com/schemagen/schemagen/blob/main/docs/lint.md"}
	rules := slices.Clone(Rules)
	for _, f := range r.Findings {
		if _, ok := LookupRule(f.Code); !ok && !slices.ContainsFunc(rules, func(r Rule) bool { return r.Code == f.Code }) {
			rules = append(rules, Rule{Code: f.Code, Source: "atlas", Severity: f.Severity, Title: f.Code})
		}
	}
	for _, rule := range rules {
		sr := sarifRule{ID: rule.Code, Name: ruleName(rule.Title),
			ShortDescription: sarifMessage{rule.Title}, FullDescription: sarifMessage{rule.Title + ". " + rule.Help},
			Help:       sarifMessage{rule.Help},
			Properties: map[string]any{"source": rule.Source, "analyzer": rule.Analyzer}}
		sr.DefaultConfiguration.Level = string(rule.Severity)
		run.Tool.Driver.Rules = append(run.Tool.Driver.Rules, sr)
	}
	for _, f := range r.Findings {
		res := sarifResult{RuleID: f.Code, Level: string(f.Severity), Message: sarifMessage{f.Message}}
		res.RuleIndex = slices.IndexFunc(rules, func(r Rule) bool { return r.Code == f.Code })
		var loc sarifLocation
		loc.PhysicalLocation.ArtifactLocation.URI = sarifURI(f.File)
		loc.PhysicalLocation.Region.StartLine = f.Line
		loc.PhysicalLocation.Region.StartColumn = f.Column
		res.Locations = []sarifLocation{loc}
		if f.Suppressed {
			res.Suppressions = []sarifSuppression{{Kind: "inSource", Justification: f.Reason}}
		}
		run.Results = append(run.Results, res)
	}
	log := sarifLog{
		Schema:  "https://json.schemastore.org/sarif-2.1.0.json",
		Version: "2.1.0",
		Runs:    []sarifRun{run},
	}
	enc := json.NewEncoder(w)
	enc.SetIndent("", "  ")
	return enc.Encode(log)
}

// ruleName makes a rule's PascalCase name from its title.
func ruleName(title string) string {
	var b strings.Builder
	for _, word := range strings.FieldsFunc(title, func(r rune) bool {
		return !(r >= 'a' && r <= 'z' || r >= 'A' && r <= 'Z' || r >= '0' && r <= '9')
	}) {
		b.WriteString(strings.ToUpper(word[:1]) + word[1:])
	}
	return b.String()
}

// sarifURI is a file's URI: relative paths stay relative (to the working
// directory, where the repository's root normally is).
func sarifURI(path string) string {
	p := filepath.ToSlash(path)
	if filepath.IsAbs(path) {
		return "file://" + p
	}
	return strings.TrimPrefix(p, "./")
}
