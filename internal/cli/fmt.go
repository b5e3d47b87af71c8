package cli

import (
	"bytes"
	"fmt"
	"os"

	"github.com/hashicorp/hcl/v2"
	"github.com/hashicorp/hcl/v2/hclparse"
	"github.com/hashicorp/hcl/v2/hclwrite"
	"github.com/spf13/cobra"

	"github.com/schemagen/schemagen/internal/gen"
)

func (a *App) fmtCmd() *cobra.Command {
	var check bool
	cmd := &cobra.Command{
		Use:   "fmt [file.hcl ...]",
		Short: "Rewrite .hcl files in canonical form",
		Long: `Rewrite the given .hcl files (default: the schema files) in HCL's canonical
layout. With -check, write nothing: list the files that are not canonical and
exit 1. A file with syntax errors is reported and left untouched.

` + exitCodes,
		Args: cobra.ArbitraryArgs,
		RunE: func(cmd *cobra.Command, args []string) error {
			if len(args) == 0 {
				files, err := a.schemaFiles()
				if err != nil {
					return err
				}
				args = files
			}
			var unformatted []string
			parser := hclparse.NewParser()
			var diags hcl.Diagnostics
			for _, path := range args {
				src, err := os.ReadFile(path)
				if err != nil {
					return readError(path, err)
				}
				if _, d := parser.ParseHCL(src, path); d.HasErrors() {
					diags = append(diags, d...)
					continue
				}
				out := hclwrite.Format(src)
				if bytes.Equal(out, src) {
					continue
				}
				unformatted = append(unformatted, path)
				if check {
					fmt.Fprintln(a.Stdout, path)
					continue
				}
				info, err := os.Stat(path)
				if err != nil {
					return err
				}
				if err := gen.WriteFile(path, out, info.Mode().Perm()); err != nil {
					return err
				}
				fmt.Fprintf(a.Stdout, "formatted %s\n", path)
			}
			a.printDiags(parser.Files(), diags)
			if diags.HasErrors() {
				return findings{fmt.Sprintf("%s; those files were not formatted.", errorCount(diags))}
			}
			if check && len(unformatted) > 0 {
				return findings{fmt.Sprintf("%d file(s) are not formatted; run `schemagen fmt`.", len(unformatted))}
			}
			return nil
		},
	}
	cmd.Flags().BoolVar(&check, "check", false, "list unformatted files and exit 1 instead of rewriting them")
	return cmd
}
