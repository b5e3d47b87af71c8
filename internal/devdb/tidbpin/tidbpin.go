// Package tidbpin holds copies of tools/tidb's module files, so that a
// schemagen binary built without a checkout (go install) can build the pinned
// tidb-server (`schemagen dev install tidb`). A test keeps them equal to
// tools/tidb; after changing the pin there, run `go generate ./internal/devdb/tidbpin`.
package tidbpin

import _ "embed"

//go:generate cp ../../../tools/tidb/go.mod go.mod.pin
//go:generate cp ../../../tools/tidb/go.sum go.sum.pin
//go:generate cp ../../../tools/tidb/tools.go tools.go.pin

// The files, under the names tools/tidb gives them (an embedded file may not
// be called go.mod).
var (
	//go:embed go.mod.pin
	GoMod []byte
	//go:embed go.sum.pin
	GoSum []byte
	//go:embed tools.go.pin
	ToolsGo []byte
)

// Package is what the module builds.
const Package = "github.com/pingcap/tidb/cmd/tidb-server"
