#!/usr/bin/env bash
# Online vs plain migration plans on a real database: a table of ROWS rows
# (default 1,000,000) and one model change a case, applied while a writer
# inserts one row at a time. Prints each case's longest write stall and
# total migration time of each plan side by side, then the online files
# with the hazard comments they carry, to set beside what was measured.
# Cases (internal/migration/bench_online_test.go): add (an index, a foreign
# key, a CHECK and a NOT NULL; TiDB: an index, a unique key and a CHECK),
# predicate (a partial index's WHERE changed; PostgreSQL), fk-action (ON
# DELETE changed), unique-moved, widen (numeric and varchar widened),
# generated (a stored generated column added; TiDB: virtual). CASES, a
# comma-separated list, runs some of them. Not part of CI.
#
#   [CASES=add,widen] scripts/bench-online.sh [postgres|tidb|all] [ROWS]
set -euo pipefail
cd "$(dirname "$0")/.."
which=${1:-all}
rows=${2:-1000000}
run() {
	SCHEMAGEN_BENCH_ONLINE=1 SCHEMAGEN_BENCH_CASES=${CASES:-} SCHEMAGEN_BENCH_DIALECT=$1 SCHEMAGEN_BENCH_ROWS=$2 \
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
