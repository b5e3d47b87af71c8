package devdb

import (
	"context"
	"fmt"
	"io"
)

// DevDatabase is the name of the database Dev creates on the servers it
// starts.
const DevDatabase = "schemagen_dev"

// Dev returns the URL of a dev database on a server of kind server
// (Postgres or TiDB, what a dialect's DevServer names), for
// schemagen's commands. If configuredURL is set it is returned as is, with a
// release that does nothing. Otherwise Dev starts an embedded server, saying
// so on progress (which may be nil), creates an empty database DevDatabase
// there and returns its URL; release stops the server and removes everything
// it left, and must be called once the command is done with it (also on
// error paths; calling it twice is harmless).
func Dev(ctx context.Context, server, configuredURL string, progress io.Writer) (url string, release func(), err error) {
	if configuredURL != "" {
		return configuredURL, func() {}, nil
	}
	if server != Postgres && server != TiDB {
		return "", nil, fmt.Errorf("dev database: unknown server %q (want %q or %q)", server, Postgres, TiDB)
	}
	if progress != nil {
		fmt.Fprintf(progress, "schemagen: no %s dev database URL configured; using an embedded one\n", server)
	}
	s, err := Start(ctx, server, Options{Progress: progress})
	if err != nil {
		return "", nil, fmt.Errorf("dev database: %w", err)
	}
	release = func() {
		if err := s.Stop(); err != nil && progress != nil {
			fmt.Fprintf(progress, "schemagen: %v\n", err)
		}
	}
	url, err = CreateDatabase(ctx, s.URL(), DevDatabase)
	if err != nil {
		release()
		return "", nil, fmt.Errorf("dev database: %w", err)
	}
	return url, release, nil
}
