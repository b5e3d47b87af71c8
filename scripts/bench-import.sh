#!/usr/bin/env bash
# Import of a synthetic database pair (1,000 tables on PostgreSQL and on
# TiDB; SCHEMAGEN_BENCH_TABLES to change) against a bare Atlas inspection of
# the same two databases. The three are measured alternately, once each per
# round (SCHEMAGEN_BENCH_ROUNDS rounds, default 5, the order rotating), so a
# change in the machine's load reaches them alike; every measurement is
# printed, then the median of the rounds' ratios. The baselines: `inspect`
# reads the two databases one after the other, `inspect2` side by side, as
# the import does. The goal is import within 1.2x of `inspect2`, the
# stricter. Loading the pair takes a while (TiDB: ~31 ms a statement).
set -euo pipefail
cd "$(dirname "$0")/.."
mkdir -p .cache/bin
go build -o .cache/bin/devdb ./internal/devdb/cmd/devdb
out=$(mktemp)
trap 'rm -f "$out"' EXIT
.cache/bin/devdb -- go test -run '^$' -bench 'BenchmarkImport' -benchtime 1x -timeout 60m ./internal/importer | tee "$out" | grep -E '^Benchmark' || true
awk -v n="${SCHEMAGEN_BENCH_TABLES:-1000}" '
function median(a, k,    i, j, t) {
	for (i = 2; i <= k; i++) for (j = i; j > 1 && a[j-1] > a[j]; j--) { t = a[j]; a[j] = a[j-1]; a[j-1] = t }
	return k % 2 ? a[(k+1)/2] : (a[k/2] + a[k/2+1]) / 2
}
/^BenchmarkImport\/round[0-9]+-/ {
	split($1, p, "/"); split(p[2], q, "-"); r = substr(q[1], 6) + 0; k = q[2]
	ns[r, k] = $3; if (r > rounds) rounds = r
}
END {
	if (rounds == 0) { print "no result"; exit 1 }
	printf "%d tables a dialect, %d rounds (ms):\n", n, rounds
	printf "%6s %10s %10s %10s %8s %8s\n", "round", "inspect", "inspect2", "import", "/inspect", "/inspect2"
	for (r = 1; r <= rounds; r++) {
		if (!((r, "inspect") in ns) || !((r, "inspect2") in ns) || !((r, "import") in ns)) { print "round " r ": no result"; exit 1 }
		a[r] = ns[r, "import"] / ns[r, "inspect"]; b[r] = ns[r, "import"] / ns[r, "inspect2"]
		printf "%6d %10.1f %10.1f %10.1f %7.2fx %7.2fx\n", r, ns[r, "inspect"] / 1e6, ns[r, "inspect2"] / 1e6, ns[r, "import"] / 1e6, a[r], b[r]
	}
	ma = median(a, rounds); mb = median(b, rounds)
	printf "median ratio: import/inspect %.2fx, import/inspect2 %.2fx (goal <= 1.2x of inspect2) %s\n", ma, mb, (mb <= 1.2 ? "ok" : "MISSED")
}' "$out"
