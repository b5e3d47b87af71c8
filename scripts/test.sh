#!/usr/bin/env bash
# Vets and tests schemagen against one real PostgreSQL and one real TiDB,
# started once for the whole run and handed to every test package through
# SCHEMAGEN_TEST_POSTGRES_URL and SCHEMAGEN_TEST_TIDB_URL (a variable already
# set is used as is). Run scripts/setup.sh once first. Arguments replace the
# packages to test (default ./...). SCHEMAGEN_TEST_ONLY=postgres (or tidb)
# starts and tests that server alone: the other dialect's tests skip.
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
servers=()
case ${SCHEMAGEN_TEST_ONLY:-} in
"") ;;
postgres) servers=(-tidb=false) ;;
tidb) servers=(-postgres=false) ;;
*)
	echo "SCHEMAGEN_TEST_ONLY=$SCHEMAGEN_TEST_ONLY: want postgres or tidb" >&2
	exit 2
	;;
esac
exec .cache/bin/devdb "${servers[@]}" -- bash -c '
	set -euo pipefail
	go test -count=1 -v -run "^Test(PostgresDDL|TiDBDDL|TiDBEnforcesCheck)$" ./internal/dbtest
	go test -count=1 -timeout 20m "$@"
' test.sh "${pkgs[@]}"
