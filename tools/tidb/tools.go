//go:build tools

// Package tidb pins tidb-server so that `go build` in this module builds it.
package tidb

import _ "github.com/pingcap/tidb/cmd/tidb-server"
