#!/usr/bin/env bash
# Builds tidb-server, at the version pinned in tools/tidb/go.mod, into
# .cache/bin/tidb-server, where internal/devdb finds it. The binary is reused
# while tools/tidb and the Go version are unchanged (a stamp beside it holds
# their hash). The first build takes about 9 minutes on a fresh 2-core
# machine (downloading TiDB's modules included); later ones are instant.
set -euo pipefail
cd "$(dirname "$0")/.."

out=.cache/bin/tidb-server
stamp=$out.stamp
want=$( (cat tools/tidb/go.mod tools/tidb/go.sum tools/tidb/tools.go; go env GOVERSION GOOS GOARCH CGO_ENABLED) | sha256sum | cut -d' ' -f1)

if [ -x "$out" ] && [ -f "$stamp" ] && [ "$(cat "$stamp")" = "$want" ]; then
	echo "build-tidb: $out is up to date"
	exit 0
fi

version=$(awk '$1 == "require" && $2 == "github.com/pingcap/tidb" { print $3 }' tools/tidb/go.mod)
echo "build-tidb: building tidb-server $version into $out (about 9 minutes on 2 cores the first time)..."
mkdir -p .cache/bin
start=$SECONDS
(cd tools/tidb && go build -o "../../$out.tmp" github.com/pingcap/tidb/cmd/tidb-server)
mv -f "$out.tmp" "$out"
echo "$want" >"$stamp"
echo "build-tidb: built $out in $((SECONDS - start))s"
