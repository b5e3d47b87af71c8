// Command schemagen compiles one HCL schema model to PostgreSQL and TiDB DDL.
package main

import (
	"os"

	"github.com/schemagen/schemagen/internal/cli"
)

func main() {
	os.Exit(cli.Run(os.Args[1:], os.Stdout, os.Stderr))
}
