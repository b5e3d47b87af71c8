package tidbpin_test

import (
	"bytes"
	"os"
	"testing"

	"github.com/schemagen/schemagen/internal/devdb/tidbpin"
)

// The embedded pin is tools/tidb's, byte for byte: the binary's
// `dev install tidb` builds what scripts/build-tidb.sh builds.
func TestPinMatchesToolsTiDB(t *testing.T) {
	for name, embedded := range map[string][]byte{
		"go.mod":   tidbpin.GoMod,
		"go.sum":   tidbpin.GoSum,
		"tools.go": tidbpin.ToolsGo,
	} {
		onDisk, err := os.ReadFile("../../../tools/tidb/" + name)
		if err != nil {
			t.Fatal(err)
		}
		if !bytes.Equal(onDisk, embedded) {
			t.Errorf("internal/devdb/tidbpin's copy of tools/tidb/%s is stale: run `go generate ./internal/devdb/tidbpin`", name)
		}
	}
	if !bytes.Contains(tidbpin.ToolsGo, []byte(`"`+tidbpin.Package+`"`)) {
		t.Errorf("tools/tidb/tools.go does not import %s", tidbpin.Package)
	}
}
