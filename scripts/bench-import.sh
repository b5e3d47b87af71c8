#!/usr/bin/env bash
# Import of a synthetic database pair (1,000 tables on PostgreSQL and on
# TiDB; SCHEMAGEN_BENCH_TABLES to change) against a bare Atlas inspection of
# the same two databases, side by side. The goal is import within 1.2x of the
# inspection. Loading the pair takes a while (TiDB: ~31 ms a table).
set -euo pipefail
cd "$(dirname "$0")/.."
mkdir -p .cache/bin
go build -o .cache/bin/devdb ./internal/devdb/cmd/devdb
out=$(mktemp)
trap 'rm -f "$out"' EXIT
.cache/bin/devdb -- go test -run '^$' -bench 'BenchmarkImport' -benchtime "${BENCHTIME:-3x}" -timeout 60m ./internal/importer | tee "$out" | grep -E '^Benchmark'
awk -v n="${SCHEMAGEN_BENCH_TABLES:-1000}" '
/^BenchmarkImport\// {
	split($1, p, "/"); k = p[2]; sub(/-[0-9]+$/, "", k); ns[k] = $3
}
END {
	if (!("inspect" in ns) || !("import" in ns)) { print "no result"; exit 1 }
	r = ns["import"] / ns["inspect"]
	printf "%d tables a dialect: inspect both %8.1f ms  import both %8.1f ms  ratio %.2fx (goal <= 1.2x) %s\n", n,
		ns["inspect"] / 1e6, ns["import"] / 1e6, r, (r <= 1.2 ? "ok" : "MISSED")
}' "$out"
