package cli

import (
	"fmt"
	"strings"

	"github.com/spf13/cobra"

	"github.com/schemagen/schemagen/compiler"
	"github.com/schemagen/schemagen/dialects/all"
	"github.com/schemagen/schemagen/internal/erd"
	"github.com/schemagen/schemagen/internal/gen"
)

// erdDocument is the Markdown diagram document of a compiled schema.
func erdDocument(r *gen.Result) []byte {
	leftOut := map[string][]string{}
	for _, d := range all.Names() {
		leftOut[d] = erd.LeftOut(r.Schema, d, r.Outputs[d].Decisions)
	}
	return []byte(erd.Markdown(r.Schema, all.Names(), leftOut))
}

func (a *App) erdCmd() *cobra.Command {
	var format, dialect, out string
	cmd := &cobra.Command{
		Use:   "erd [table ...]",
		Short: "Draw the schema's tables, keys and foreign keys (Mermaid or DOT)",
		Long: `Print an entity-relationship diagram of the schema: every table with its
columns (PK, FK and UK mark keys), and its foreign keys. Mermaid renders in
GitHub Markdown as is; DOT is for Graphviz. With table names, only those
tables and the foreign keys between them. With --dialect, the diagram marks
what the model or the dialect leaves out of that dialect.

With --out FILE, write the Markdown document of the whole schema (a Mermaid
diagram and what each dialect leaves out) instead. Once that file exists
(docs/erd.md by default), generate rewrites it and check fails when it is
stale, as for generated/.

` + exitCodes,
		Args: cobra.ArbitraryArgs,
		RunE: func(cmd *cobra.Command, args []string) error {
			if err := oneOf("--format", format, erd.Formats); err != nil {
				return err
			}
			if dialect != "" {
				if err := oneOf("--dialect", dialect, all.Names()); err != nil {
					return err
				}
			}
			if cmd.Flags().Changed("out") {
				if err := nonEmpty("--out", out); err != nil {
					return err
				}
				if format != "mermaid" || dialect != "" || len(args) > 0 {
					return usageError{fmt.Errorf("--out writes the Markdown document of the whole schema; it takes no --format dot, --dialect or table names")}
				}
			}
			r, _, err := a.compile(false)
			if err != nil {
				return err
			}
			if unknown := erd.UnknownTables(r.Schema, args); len(unknown) > 0 {
				var names []string
				for _, t := range r.Schema.Tables {
					names = append(names, t.Name)
				}
				var msgs []string
				for _, u := range unknown {
					msgs = append(msgs, fmt.Sprintf("The schema has no table %q.%s", u, compiler.Suggest(u, names)))
				}
				return findings{strings.Join(msgs, "\n")}
			}
			if out != "" {
				if err := gen.Write("", map[string][]byte{out: erdDocument(r)}); err != nil {
					return err
				}
				if !a.quiet {
					fmt.Fprintf(a.Stdout, "wrote %s\n", out)
				}
				return nil
			}
			o := erd.Options{Dialect: dialect, Tables: args}
			if dialect != "" {
				o.Decisions = r.Outputs[dialect].Decisions
			}
			if format == "dot" {
				fmt.Fprint(a.Stdout, erd.Dot(r.Schema, o))
			} else {
				fmt.Fprint(a.Stdout, erd.Mermaid(r.Schema, o))
			}
			return nil
		},
	}
	cmd.Flags().StringVar(&format, "format", "mermaid", "output format: "+strings.Join(erd.Formats, ", "))
	cmd.Flags().StringVar(&dialect, "dialect", "", "mark what this dialect leaves out ("+strings.Join(all.Names(), ", ")+")")
	cmd.Flags().StringVar(&out, "out", "", "write the Markdown document of the whole schema to this file")
	cmd.Flags().BoolVarP(&a.quiet, "quiet", "q", false, "print errors only")
	return cmd
}
