#!/usr/bin/env bash
# Online vs plain migration plans on a real database: a table of ROWS rows
# (default 1,000,000), a model change adding an index, a foreign key, a
# CHECK and a NOT NULL (TiDB: an index, a unique key and a CHECK), applied
# while a writer inserts one row at a time. Prints the longest write stall
# and the total migration time of each plan side by side. Not part of CI.
#
#   scripts/bench-online.sh [postgres|tidb|all] [ROWS]
set -euo pipefail
cd "$(dirname "$0")/.."
which=${1:-all}
rows=${2:-1000000}
run() {
	SCHEMAGEN_BENCH_ONLINE=1 SCHEMAGEN_BENCH_DIALECT=$1 SCHEMAGEN_BENCH_ROWS=$2 \
		go test -count=1 -timeout 60m -run '^TestBenchOnline$' -v ./internal/migration |
		grep -v -e '^=== RUN' -e '^--- PASS' -e '^PASS' -e '^ok '
}
case $which in
postgres | tidb) run "$which" "$rows" ;;
all)
	run postgres "$rows"
	run tidb "${TIDB_ROWS:-$rows}"
	;;
*)
	echo "usage: $0 [postgres|tidb|all] [ROWS]" >&2
	exit 2
	;;
esac
