#!/usr/bin/env bash
# Imports the public two-dialect histories (../shared/corpora/histories,
# Authelia and Kratos) at every checkpoint: each step is applied to a
# PostgreSQL and a TiDB database, and at every version of Authelia and every
# 10th of Kratos (with its 296th, the last TiDB runs, and its last) both are
# imported (PostgreSQL alone past what TiDB runs: Authelia after V0006,
# Kratos after 296), the model generated, fresh databases built from it and
# compared with the originals object by object. Prints each checkpoint's
# result and every difference; CI runs a bounded slice of the same test
# (TestImportHistories without SCHEMAGEN_IMPORT_HISTORIES). Servers: the
# SCHEMAGEN_TEST_*_URL ones when set, else embedded ones.
set -euo pipefail
cd "$(dirname "$0")/.."
mkdir -p .cache/bin
go build -o .cache/bin/devdb ./internal/devdb/cmd/devdb
SCHEMAGEN_IMPORT_HISTORIES=all .cache/bin/devdb -- go test -count=1 -v -run 'TestImportHistories' -timeout 180m ./internal/importer 2>&1 |
	grep -E '^=== RUN +TestImportHistories/\w+/|^\s*(--- |ok|FAIL|PASS)|histories_test.go:[0-9]+: (postgres|tidb):|does not compile|ERROR' || true
