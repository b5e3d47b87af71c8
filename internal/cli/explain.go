package cli

import (
	"fmt"
	"strings"

	"github.com/hashicorp/hcl/v2"
	"github.com/spf13/cobra"

	"github.com/schemagen/schemagen/compiler"
	"github.com/schemagen/schemagen/dialects"
	"github.com/schemagen/schemagen/dialects/all"
)

func (a *App) explainCmd() *cobra.Command {
	var dialect string
	cmd := &cobra.Command{
		Use:   "explain [table]",
		Short: "Print every lowering decision and override, per dialect",
		Long: `Print, for each dialect, how the neutral model is lowered: type mappings,
translated expressions, partial indexes made full or plain, features left
out, CHECKs added, and every per-dialect override and raw statement.
With a table name, only that table's decisions.

` + exitCodes,
		Args: cobra.MaximumNArgs(1),
		RunE: func(cmd *cobra.Command, args []string) error {
			if dialect != "" {
				if err := oneOf("--dialect", dialect, all.Names()); err != nil {
					return err
				}
			}
			r, _, err := a.compile(false)
			if err != nil {
				return err
			}
			table := ""
			if len(args) == 1 {
				table = args[0]
				if r.Schema.Table(table) == nil {
					var names []string
					for _, t := range r.Schema.Tables {
						names = append(names, t.Name)
					}
					return findings{fmt.Sprintf("The schema has no table %q.%s", table, compiler.Suggest(table, names))}
				}
			}
			for _, d := range all.Dialects() {
				if dialect != "" && d.Name() != dialect {
					continue
				}
				fmt.Fprintf(a.Stdout, "%s:\n", d.Name())
				current, any := "\x00", false
				for _, g := range dialects.GroupedExact(r.Outputs[d.Name()].Decisions) {
					if table != "" && g.Table != table {
						continue
					}
					if g.Table != current {
						current = g.Table
						if current == "" {
							fmt.Fprintln(a.Stdout, "  schema")
						} else {
							fmt.Fprintf(a.Stdout, "  table %s\n", current)
						}
					}
					fmt.Fprintf(a.Stdout, "    %s\n", g)
					any = true
				}
				for _, w := range r.Diags {
					if w.Severity == hcl.DiagWarning && strings.HasSuffix(w.Summary, "("+d.Name()+")") && (table == "" || mentions(w, table)) {
						fmt.Fprintf(a.Stdout, "  warning: %s\n", w.Detail)
						any = true
					}
				}
				if !any {
					fmt.Fprintln(a.Stdout, "  (no decisions: the neutral form is used as written)")
				}
			}
			return nil
		},
	}
	cmd.Flags().StringVar(&dialect, "dialect", "", "only this dialect ("+strings.Join(all.Names(), ", ")+")")
	return cmd
}

func mentions(d *hcl.Diagnostic, table string) bool {
	return strings.Contains(d.Detail, `"`+table+`"`) || strings.Contains(d.Detail, table+".")
}
