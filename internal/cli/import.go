package cli

import (
	"errors"
	"fmt"
	"os"

	"github.com/spf13/cobra"

	"github.com/schemagen/schemagen/internal/gen"
	"github.com/schemagen/schemagen/internal/importer"
)

func (a *App) importCmd() *cobra.Command {
	var (
		urls   []string
		out    string
		tables []string
		force  bool
	)
	cmd := &cobra.Command{
		Use:   "import --url U [--url U2] [--out FILE]",
		Short: "Write schema.hcl from existing databases",
		Long: `Inspect a PostgreSQL or a TiDB database, read-only, and write the neutral model
as canonical schema HCL. Types map back to neutral types; CHECKs, index
predicates and expression parts are read back into portable expressions.
What has no portable form is kept as the dialect's own SQL, in an override,
never dropped; a comment in the file says so.

Given one URL of each dialect for the same application, import merges them:
what means the same in both is neutral, real differences become per-dialect
overrides or objects left out of one dialect, and a summary on stderr lists
them. Objects are paired by what they are (foreign keys by columns and
reference, indexes by parts, CHECKs by meaning), and names are kept exactly:
where the databases named an object differently, TiDB's name is its
override. Whatever a dialect refuses is left out of it only, with a comment
in the file and a line in the summary, so that the model compiles.

The model is written to --out (an existing file only with --force), else to
stdout; nothing is written when a database cannot be read.

` + exitCodes,
		RunE: func(cmd *cobra.Command, _ []string) error {
			if len(urls) == 0 {
				return usageError{errors.New("import needs --url")}
			}
			if out != "" && !force {
				if _, err := os.Stat(out); err == nil {
					return usageError{fmt.Errorf("%s exists; pass --force to replace it", out)}
				}
			}
			ctx, stop := interruptible()
			defer stop()
			r, err := importer.Import(ctx, urls, tables)
			if err != nil {
				return err
			}
			// The file and its compilation, which import made last.
			src, check := r.Written()
			for _, line := range r.Summary {
				fmt.Fprintln(a.Stderr, "import:", line)
			}
			if out == "" {
				a.Stdout.Write(src)
			} else if err := gen.WriteFile(out, src, 0o644); err != nil {
				return err
			} else {
				fmt.Fprintf(a.Stdout, "wrote %s (%d tables)\n", out, len(r.Schema.Tables))
			}
			if check.Failed() {
				a.printDiags(check.Schema.Files, check.Diags)
				return findings{"The imported model needs a review: it does not compile as written (see above)."}
			}
			return nil
		},
	}
	cmd.Flags().StringArrayVar(&urls, "url", nil, "a database to import (one, or one of each dialect)")
	cmd.Flags().StringVar(&out, "out", "", "the file to write (default: stdout)")
	cmd.Flags().StringSliceVar(&tables, "tables", nil, "table name patterns to import (globs; default: all)")
	cmd.Flags().BoolVar(&force, "force", false, "replace an existing --out file")
	return cmd
}
