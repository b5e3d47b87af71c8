// Command synth writes a synthetic schema model of -tables tables to stdout,
// for benchmarks (15 columns, 3 CHECKs, 3 indexes and a foreign key a table).
package main

import (
	"flag"
	"os"

	"github.com/schemagen/schemagen/internal/synth"
)

func main() {
	n := flag.Int("tables", 100, "number of tables")
	flag.Parse()
	os.Stdout.Write(synth.Model(*n))
}
