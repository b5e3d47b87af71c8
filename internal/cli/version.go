package cli

import (
	"fmt"

	"github.com/spf13/cobra"

	"github.com/schemagen/schemagen/internal/cli/buildversion"
)

func versionString() string { return buildversion.String() }

func (a *App) versionCmd() *cobra.Command {
	return &cobra.Command{
		Use:   "version",
		Short: "Print schemagen's version and commit",
		RunE: func(cmd *cobra.Command, _ []string) error {
			fmt.Fprintln(a.Stdout, versionString())
			return nil
		},
	}
}
