package report

import (
	"fmt"
	"io"
	"strings"

	"github.com/schemagen/schemagen/internal/drift"
)

var statusWord = map[int]string{drift.NoDrift: "no drift", drift.Drift: "DRIFT", drift.CouldNotDo: "COULD NOT CHECK"}

// Drift writes drift reports for people, in colour when color is set.
func Drift(w io.Writer, reports []*drift.Report, color bool) {
	paint := func(code, s string) string {
		if !color {
			return s
		}
		return "\x1b[" + code + "m" + s + "\x1b[0m"
	}
	for i, r := range reports {
		if i > 0 {
			fmt.Fprintln(w)
		}
		word := statusWord[r.Status]
		switch r.Status {
		case drift.NoDrift:
			word = paint("32", word)
		case drift.Drift:
			word = paint("33;1", word)
		default:
			word = paint("31;1", word)
		}
		fmt.Fprintf(w, "%s (%s, env %s): %s\n", r.Target, r.Dialect, r.Env, word)
		if r.Error != "" {
			fmt.Fprintf(w, "  error: %s\n", r.Error)
			continue
		}
		version := r.Version
		if version == "" {
			version = "none (no migration applied)"
		}
		fmt.Fprintf(w, "  version: %s\n", version)
		if r.Partial != nil {
			fmt.Fprintf(w, "  %s: migration %s stopped after %d of %d statements: %s\n", paint("33", "partly applied"), r.Partial.Version, r.Partial.Applied, r.Partial.Total, r.Partial.Error)
		}
		if len(r.Pending) > 0 {
			fmt.Fprintf(w, "  pending: %d migration(s): %s\n", len(r.Pending), strings.Join(r.Pending, ", "))
		}
		for _, s := range r.ServerWarnings {
			fmt.Fprintf(w, "  %s: %s\n", paint("33", "server"), s)
		}
		for _, c := range []*drift.Comparison{r.Migrations, r.Model} {
			if c == nil {
				continue
			}
			label := map[string]string{"migrations": "against the migrations at its version", "model": "against schema.hcl"}[c.Against]
			if len(c.Findings) == 0 {
				fmt.Fprintf(w, "  %s: no drift\n", label)
				continue
			}
			fmt.Fprintf(w, "  %s: %d difference(s)\n", label, len(c.Findings))
			for _, f := range c.Findings {
				fmt.Fprintf(w, "    - %s\n", f.Describe())
			}
			fmt.Fprintf(w, "    SQL that would bring it back:\n")
			for _, s := range c.Fix {
				fmt.Fprintf(w, "      %s\n", paint("36", strings.ReplaceAll(s, "\n", "\n      ")))
			}
		}
	}
}

// DriftGitHub writes drift reports as GitHub workflow annotations: one per
// finding or failure.
func DriftGitHub(w io.Writer, reports []*drift.Report) {
	esc := strings.NewReplacer("%", "%25", "\r", "%0D", "\n", "%0A")
	for _, r := range reports {
		title := esc.Replace(fmt.Sprintf("drift: %s (%s)", r.Target, r.Env))
		if r.Error != "" {
			fmt.Fprintf(w, "::error title=%s::could not check: %s\n", title, esc.Replace(r.Error))
			continue
		}
		for _, s := range r.ServerWarnings {
			fmt.Fprintf(w, "::error title=%s::%s\n", title, esc.Replace(s))
		}
		if len(r.Pending) > 0 {
			fmt.Fprintf(w, "::notice title=%s::%d pending migration(s): %s\n", title, len(r.Pending), esc.Replace(strings.Join(r.Pending, ", ")))
		}
		for _, c := range []*drift.Comparison{r.Migrations, r.Model} {
			if c == nil {
				continue
			}
			for _, f := range c.Findings {
				fmt.Fprintf(w, "::error title=%s::against %s: %s\n", title, c.Against, esc.Replace(f.Describe()))
			}
		}
		if r.Status == drift.NoDrift {
			fmt.Fprintf(w, "::notice title=%s::no drift\n", title)
		}
	}
}
