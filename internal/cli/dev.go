package cli

import (
	"fmt"

	"github.com/spf13/cobra"

	"github.com/schemagen/schemagen/internal/devdb"
)

func (a *App) devCmd() *cobra.Command {
	cmd := &cobra.Command{
		Use:   "dev",
		Short: "Dev database servers: install the ones schemagen starts by itself",
		Long: `Where an env's dev URL is empty, schemagen starts an embedded dev server of its
dialect: PostgreSQL from the machine's initdb and postgres, TiDB from
tidb-server. ` + "`dev install tidb`" + ` builds that tidb-server.

` + exitCodes,
	}
	cmd.AddCommand(a.devInstallCmd())
	return cmd
}

func (a *App) devInstallCmd() *cobra.Command {
	var force bool
	cmd := &cobra.Command{
		Use:   "install tidb",
		Short: "Build the pinned tidb-server into the cache directory",
		Long: `Build tidb-server, at the TiDB version this schemagen is tested with (` + devdb.TiDBVersion() + `),
with the Go toolchain on PATH, into $XDG_CACHE_HOME/schemagen/bin (by default
~/.cache/schemagen/bin), where schemagen's embedded TiDB is looked for. No
schemagen checkout is needed: the pin is part of the binary. The first build
takes about 9 minutes on 2 cores (it downloads TiDB's Go modules, 1.8 GB,
into Go's module cache); progress is printed on stderr. A binary already
built from the same pin and Go version is kept (--force rebuilds it).

PostgreSQL's server comes from the system's packages (Debian: apt-get install
postgresql), found on PATH, under /usr/lib/postgresql/*/bin, or in
$SCHEMAGEN_POSTGRES_BINDIR. Instead of embedded servers, set
SCHEMAGEN_DEV_POSTGRES_URL and SCHEMAGEN_DEV_TIDB_URL (see atlas.hcl).

` + exitCodes,
		Args: cobra.ExactArgs(1),
		RunE: func(cmd *cobra.Command, args []string) error {
			if err := oneOf("the server", args[0], []string{"tidb"}); err != nil {
				return err
			}
			ctx, stop := interruptible()
			defer stop()
			path, _, err := devdb.InstallTiDB(ctx, devdb.InstallOptions{Progress: a.Stderr, Force: force})
			if err != nil {
				return err
			}
			fmt.Fprintf(a.Stdout, "%s\n", path)
			return nil
		},
	}
	cmd.Flags().BoolVar(&force, "force", false, "rebuild even when the binary is up to date")
	return cmd
}
