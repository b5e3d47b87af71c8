#!/usr/bin/env bash
# A batched backfill against one plain UPDATE (docs/data-migrations.md):
# customers.billing_email filled from the owning user on a table of ROWS
# rows (default 1,000,000), on each database: once as one plain UPDATE in
# one transaction, then as the same backfill with BATCH = 10000 under
# migrate apply, interrupted halfway and resumed. Prints both times side by
# side and the ratio, and fails unless both give the same rows. Not part of
# CI; it needs SCHEMAGEN_TEST_POSTGRES_URL and SCHEMAGEN_TEST_TIDB_URL, or
# starts embedded servers.
#
#   scripts/bench-backfill.sh [postgres|tidb|all] [ROWS]
set -euo pipefail
cd "$(dirname "$0")/.."
which=${1:-all}
rows=${2:-1000000}
case $which in
postgres | tidb) dialects=$which ;;
all) dialects=postgres,tidb ;;
*)
	echo "usage: $0 [postgres|tidb|all] [ROWS]" >&2
	exit 2
	;;
esac
out=$(mktemp)
trap 'rm -f "$out"' EXIT
SCHEMAGEN_BENCH_DIALECTS=$dialects SCHEMAGEN_BENCH_ROWS=$rows \
	go test -count=1 -timeout 120m -run '^$' -bench '^BenchmarkBackfill$' -benchtime 1x ./internal/migration/deploy | tee "$out" |
	grep -E '^Benchmark|rows:|loaded|failed' || true
awk -v rows="$rows" '
/^BenchmarkBackfill\// {
	split($1, p, "/"); sub(/-[0-9]+$/, "", p[2])
	for (i = 2; i < NF; i++) { if ($(i+1) == "plain-ms") plain = $i; if ($(i+1) == "batched-ms") batched = $i; if ($(i+1) == "interrupted-at-ms") intr = $i }
	if (plain < 0) printf "%-8s %d rows: plain UPDATE failed (see above); batched, interrupted at %d ms and resumed: %d ms\n", p[2], rows, intr, batched
	else printf "%-8s %d rows: plain UPDATE %d ms; batched (BATCH = 10000), interrupted at %d ms and resumed: %d ms in all (%.2fx)\n", p[2], rows, plain, intr, batched, batched / plain
	n++
}
END { if (n == 0) { print "no result"; exit 1 } }' "$out"
grep -q '^ok ' "$out"
