#!/usr/bin/env bash
# Vets and tests schemagen against one real PostgreSQL and one real TiDB,
# started once for the whole run and handed to every test package through
# SCHEMAGEN_TEST_POSTGRES_URL and SCHEMAGEN_TEST_TIDB_URL (a variable already
# set is used as is). Run scripts/setup.sh once first. Arguments replace the
# packages to test (default ./...).
set -euo pipefail
cd "$(dirname "$0")/.."

pkgs=("$@")
[ ${#pkgs[@]} -gt 0 ] || pkgs=(./...)

unformatted=$(gofmt -l $(git ls-files '*.go' 2>/dev/null || find . -name '*.go' -not -path './.cache/*'))
if [ -n "$unformatted" ]; then
	echo "gofmt would change:" >&2
	echo "$unformatted" >&2
	exit 1
fi
go vet "${pkgs[@]}"
mkdir -p .cache/bin
go build -o .cache/bin/devdb ./internal/devdb/cmd/devdb

# devdb starts the servers, runs the tests with their URLs and stops them
# whatever happens. The first go test shows, verbosely, DDL run on each real
# server and the versions they report; the second runs everything.
exec .cache/bin/devdb -- bash -c '
	set -euo pipefail
	go test -count=1 -v -run "^Test(PostgresDDL|TiDBDDL|TiDBEnforcesCheck)$" ./internal/dbtest
	go test -count=1 -timeout 20m "$@"
' test.sh "${pkgs[@]}"
