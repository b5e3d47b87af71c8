package cli

import (
	"fmt"
	"strings"

	"github.com/spf13/cobra"

	"github.com/schemagen/schemagen/internal/export"
	"github.com/schemagen/schemagen/internal/gen"
)

func (a *App) exportCmd() *cobra.Command {
	var format, out string
	cmd := &cobra.Command{
		Use:   "export",
		Short: "Write the model and each dialect's DDL of it as JSON or TypeScript",
		Long: `Print the compiled model for applications: every table, column, key, CHECK
and index with what each dialect renders of it and the decisions explain
lists, in a versioned JSON format (its JSON Schema is docs/export.schema.json),
or as one TypeScript module (the catalog as a const value, row types for
reading and inserting, and a Database interface Kysely takes).

With --out FILE, write it to FILE instead. To keep an export current, declare
it in the schema (export "typescript" { path = "web/src/schema.ts" }):
generate then writes it with the rest and check fails when it is stale.
See docs/export.md.

` + exitCodes,
		RunE: func(cmd *cobra.Command, _ []string) error {
			if err := oneOf("--format", format, export.Formats); err != nil {
				return err
			}
			if cmd.Flags().Changed("out") {
				if err := nonEmpty("--out", out); err != nil {
					return err
				}
			}
			r, _, err := a.compile(false)
			if err != nil {
				return err
			}
			b := export.Render(r, format)
			if out == "" {
				_, err := a.Stdout.Write(b)
				return err
			}
			if err := gen.Write("", map[string][]byte{out: b}); err != nil {
				return err
			}
			if !a.quiet {
				fmt.Fprintf(a.Stdout, "wrote %s\n", out)
			}
			return nil
		},
	}
	cmd.Flags().StringVar(&format, "format", "json", "output format: "+strings.Join(export.Formats, ", "))
	cmd.Flags().StringVar(&out, "out", "", "write to this file instead of standard output")
	cmd.Flags().BoolVarP(&a.quiet, "quiet", "q", false, "print errors only")
	return cmd
}
