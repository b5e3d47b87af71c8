#!/usr/bin/env bash
# Times the plan oracle (TestPlanOracle at a fixed seed) on this tree and on
# a base revision side by side, alternating rounds so that both meet the
# same load, and prints each run's time per step applied and the ratio of
# the totals. Both trees must draw the same evolutions (the same steps).
# Needs the test servers (source an env file; see README).
# Usage: scripts/bench-plantest.sh [base-revision] [rounds]
#   SCHEMAGEN_PLANTEST_SEED, _MODELS, _STEPS: the run (1, 8, 5)
set -euo pipefail
cd "$(dirname "$0")/.."
base=${1:-main}
rounds=${2:-2}
export SCHEMAGEN_PLANTEST_SEED=${SCHEMAGEN_PLANTEST_SEED:-1}
export SCHEMAGEN_PLANTEST_MODELS=${SCHEMAGEN_PLANTEST_MODELS:-8}
export SCHEMAGEN_PLANTEST_STEPS=${SCHEMAGEN_PLANTEST_STEPS:-5}
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
mkdir "$work/base"
git archive "$base" | tar -x -C "$work/base"
go test -c -o "$work/new.test" ./internal/plantest/
(cd "$work/base" && go test -c -o "$work/base.test" ./internal/plantest/)
# seconds of a Go duration (1h2m3.5s, 2m16.248s, 950ms)
secs() {
	awk -v d="$1" 'BEGIN { t = 0
		while (match(d, /^[0-9.]+(h|ms|m|s)/)) { u = substr(d, RSTART, RLENGTH); d = substr(d, RLENGTH + 1)
			n = u + 0; if (u ~ /ms$/) t += n / 1000; else if (u ~ /h$/) t += n * 3600; else if (u ~ /m$/) t += n * 60; else t += n }
		printf "%.1f", t }'
}
run() { # name, test binary, package dir
	local out="$work/$1.out"
	(cd "$3" && "$2" -test.run 'TestPlanOracle$' -test.v -test.count=1 -test.timeout 120m) > "$out" 2>&1 || { tail -30 "$out"; exit 1; }
	local line d steps
	line=$(grep -o 'in [0-9hms.]*: [0-9]* failing; [0-9]* evolutions, [0-9]* steps applied' "$out")
	d=$(secs "$(echo "$line" | awk '{print $2}' | tr -d :)")
	steps=$(echo "$line" | awk '{print $7}')
	echo "$d $steps"
	grep -o 'scratch databases: .*' "$out" >&2 || true
}
printf 'plan oracle, seed %s, %s models x %s steps, base %s\n' "$SCHEMAGEN_PLANTEST_SEED" "$SCHEMAGEN_PLANTEST_MODELS" "$SCHEMAGEN_PLANTEST_STEPS" "$base"
tb=0; tn=0
for r in $(seq 1 "$rounds"); do
	read -r db sb < <(run base "$work/base.test" "$work/base/internal/plantest")
	read -r dn sn < <(run new "$work/new.test" internal/plantest)
	[ "$sb" = "$sn" ] || { echo "the trees drew different evolutions ($sb and $sn steps applied): no comparison"; exit 1; }
	awk -v r="$r" -v b="$db" -v n="$dn" -v s="$sn" 'BEGIN { printf "round %d: base %6.1f s (%5.2f s a step), this tree %6.1f s (%5.2f s a step), %d steps\n", r, b, b / s, n, n / s, s }'
	tb=$(awk -v a="$tb" -v b="$db" 'BEGIN { print a + b }'); tn=$(awk -v a="$tn" -v b="$dn" 'BEGIN { print a + b }')
done
awk -v b="$tb" -v n="$tn" 'BEGIN { printf "ratio this tree / base: %.2f\n", n / b }'
