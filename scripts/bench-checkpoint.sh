#!/usr/bin/env bash
# Times `schemagen migrate diff --check --no-cache` on a long migration
# directory replayed from the start against the same directory with a
# checkpoint at its end (`migrate checkpoint`), side by side, and prints the
# ratio (checkpoint / start) per dialect.
#
# The directory is built with schemagen itself: version 1 creates TABLES
# tables, each later version adds a column to one of them (round robin),
# up to VERSIONS versions in both dialects (54 by default, the product the
# seeds come from). Then two copies are timed alternately, ROUNDS rounds
# (the order swapped every round): one without a checkpoint, one with.
#
# The dev databases are SCHEMAGEN_TEST_POSTGRES_URL / SCHEMAGEN_TEST_TIDB_URL
# when set (shared servers: the other clients' DDL jobs queue with the
# measured ones on TiDB, so read the ratio, not the times), else servers
# devdb starts for the bench. SCHEMAGEN_BENCH_DIALECTS picks the envs
# (default "postgres tidb").
#
# Usage: scripts/bench-checkpoint.sh [VERSIONS [TABLES [ROUNDS]]]   (54, 10, 3)
set -euo pipefail
cd "$(dirname "$0")/.."
versions=${1:-54}
tables=${2:-10}
rounds=${3:-3}
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
trap 'exit 1' INT TERM
go build -o "$work/schemagen" ./cmd/schemagen
go build -o "$work/devdb" ./internal/devdb/cmd/devdb
"$work/devdb" -- bash -c '
	set -euo pipefail
	work=$1; versions=$2; tables=$3; rounds=$4
	dialects=${SCHEMAGEN_BENCH_DIALECTS:-postgres tidb}
	sg=$work/schemagen
	ms() { date +%s%N | cut -b1-13; }
	model() { # version k: tables t01.., column x_j (j in 2..k) on table (j mod tables)
		local k=$1 i j
		for i in $(seq 1 "$tables"); do
			printf "table \"t%02d\" {\n  column \"id\" {\n    type = int\n  }\n  column \"name\" {\n    type = varchar(50)\n  }\n" "$i"
			for j in $(seq 2 "$k"); do
				if [ $(( (j % tables) + 1 )) -eq "$i" ]; then
					printf "  column \"x_%d\" {\n    type = int\n    null = true\n  }\n" "$j"
				fi
			done
			printf "  primary_key {\n    columns = [\"id\"]\n  }\n}\n\n"
		done
	}
	mkdir -p "$work/start" && cd "$work/start"
	cat > atlas.hcl <<HCL
env "postgres" {
  src = "file://generated/postgres/schema.sql"
  dev = getenv("SCHEMAGEN_TEST_POSTGRES_URL")
  migration {
    dir = "file://migrations/postgres"
  }
}
env "tidb" {
  src = "file://generated/tidb/schema.sql"
  dev = getenv("SCHEMAGEN_TEST_TIDB_URL")
  migration {
    dir = "file://migrations/tidb"
  }
}
HCL
	export XDG_CACHE_HOME=$work/cache
	t0=$(ms)
	for k in $(seq 1 "$versions"); do
		model "$k" > schema.hcl
		"$sg" generate > /dev/null
		"$sg" migrate diff "v$k" > /dev/null 2> diff.log || { cat diff.log >&2; exit 1; }
	done
	echo "built a directory of $(ls migrations/tidb/*.sql | wc -l) versions ($tables tables) in both dialects in $(( ($(ms) - t0) / 1000 )) s"
	cp -r "$work/start" "$work/checkpoint"
	(cd "$work/checkpoint" && "$sg" migrate checkpoint base > /dev/null 2> ck.log) || { cat "$work/checkpoint/ck.log" >&2; exit 1; }
	echo "checkpoint: $(cd "$work/checkpoint" && ls migrations/tidb/*_base.sql)"
	time1() { # copy, env: ms of one migrate diff --check --no-cache
		local a b
		cd "$work/$1"
		a=$(ms)
		"$sg" migrate diff --check --no-cache --env "$2" > check.log 2>&1 || { cat check.log >&2; exit 1; }
		b=$(ms)
		echo $((b - a))
	}
	for d in $dialects; do
		s_total=0; c_total=0
		for r in $(seq 1 "$rounds"); do
			if [ $((r % 2)) -eq 1 ]; then s=$(time1 start "$d"); c=$(time1 checkpoint "$d")
			else c=$(time1 checkpoint "$d"); s=$(time1 start "$d"); fi
			s_total=$((s_total + s)); c_total=$((c_total + c))
			printf "%-9s round %d (load %s): from the start %6d ms   from the checkpoint %6d ms   ratio %s\n" "$d" "$r" "$(cut -d" " -f1 /proc/loadavg)" "$s" "$c" \
				"$(awk -v s="$s" -v c="$c" "BEGIN { printf \"%.2f\", (s > 0 ? c / s : 0) }")"
		done
		printf "%-9s %d versions, %d rounds: from the start %6d ms   from the checkpoint %6d ms   ratio of the totals (checkpoint / start) %s\n" "$d" "$versions" "$rounds" \
			$((s_total / rounds)) $((c_total / rounds)) "$(awk -v s="$s_total" -v c="$c_total" "BEGIN { printf \"%.2f\", (s > 0 ? c / s : 0) }")"
	done
' bench "$work" "$versions" "$tables" "$rounds"
