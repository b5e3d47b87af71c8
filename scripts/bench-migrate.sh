#!/usr/bin/env bash
# Times `schemagen migrate diff init` for a synthetic 100-table model on both
# dialects, then a repeated run with no model change, against the goals:
# PostgreSQL <= 1.8 s (the Atlas CLI's own time here), TiDB < 6 s (the Atlas
# CLI takes about 20 s), a repeated run < 0.5 s. The dev databases are real
# servers started once by devdb, as a team's configured dev URLs would be.
# Usage: scripts/bench-migrate.sh [tables]
set -euo pipefail
cd "$(dirname "$0")/.."
tables=${1:-100}
mkdir -p .cache/bin
go build -o .cache/bin/schemagen ./cmd/schemagen
go build -o .cache/bin/devdb ./internal/devdb/cmd/devdb
go build -o .cache/bin/synth ./internal/synth/cmd/synth
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
.cache/bin/synth -tables "$tables" > "$work/schema.hcl"
cat > "$work/atlas.hcl" <<'HCL'
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
sg=$PWD/.cache/bin/schemagen
exec .cache/bin/devdb -- bash -c '
	set -euo pipefail
	cd "$1"; sg=$2; tables=$3
	$sg generate > /dev/null 2>&1
	ms() { date +%s%N | cut -b1-13; }
	run() { # env, name, goal in ms (0: none), flags
		local t0 t1 verdict=""
		t0=$(ms); $sg migrate diff "$2" --env "$1" ${4:-} > /dev/null 2> "$2.$1.log" || { cat "$2.$1.log"; exit 1; }; t1=$(ms)
		[ "$3" -gt 0 ] && verdict=$(printf "goal %6d ms   %s" "$3" "$([ $((t1 - t0)) -le $3 ] && echo ok || echo MISSED)")
		printf "%-9s %-28s %6d ms   %s\n" "$1" "$2 ${4:-}" $((t1 - t0)) "$verdict"
	}
	echo "migrate diff of a $tables-table model"
	run postgres init 1800
	run postgres again 500
	run postgres again 0 --no-cache
	run tidb init 6000
	run tidb again 500
	run tidb again 0 --no-cache
	ls migrations/*/ | grep -c "_init.sql" > /dev/null
' bench "$work" "$sg" "$tables"
