#!/usr/bin/env bash
# Drift of a 100-table database against a bare Atlas inspection of it, side by
# side, per dialect: goals are drift of one target within 1.2x of the bare
# inspection, and 20 targets with --parallel 8 under 3x the time of one.
# The expected states come from the cache, as on every run after the first.
set -euo pipefail
cd "$(dirname "$0")/.."
mkdir -p .cache/bin
go build -o .cache/bin/devdb ./internal/devdb/cmd/devdb
out=$(mktemp)
trap 'rm -f "$out"' EXIT
.cache/bin/devdb -- go test -run '^$' -bench 'BenchmarkDrift' -benchtime "${BENCHTIME:-10x}" -timeout 30m ./internal/drift | tee "$out" | grep -E '^Benchmark'
awk '
/^BenchmarkDrift\// {
	split($1, p, "/"); d = p[2]; k = p[3]; sub(/-[0-9]+$/, "", k); ns[d "/" k] = $3
}
END {
	for (d in seen) {}
	n = split("postgres tidb", ds, " ")
	for (i = 1; i <= n; i++) {
		d = ds[i]
		if (!(d "/inspect" in ns)) continue
		r1 = ns[d "/drift-1"] / ns[d "/inspect"]; r20 = ns[d "/drift-20"] / ns[d "/drift-1"]
		printf "%-9s inspect %7.1f ms  drift %7.1f ms  ratio %.2fx (goal <= 1.2x) %s   20 targets %7.1f ms  %.2fx one (goal < 3x) %s\n", d,
			ns[d "/inspect"] / 1e6, ns[d "/drift-1"] / 1e6, r1, (r1 <= 1.2 ? "ok" : "MISSED"),
			ns[d "/drift-20"] / 1e6, r20, (r20 < 3 ? "ok" : "MISSED")
	}
}' "$out"
