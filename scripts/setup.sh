#!/usr/bin/env bash
# Installs what schemagen's tests and embedded dev databases need, on Debian
# or Ubuntu with Go: PostgreSQL's server binaries from the distribution's
# packages (only if initdb is not there yet), and tidb-server built from the
# pinned source (scripts/build-tidb.sh; cached). Safe to run again.
set -euo pipefail
cd "$(dirname "$0")/.."

have_postgres() {
	command -v initdb >/dev/null 2>&1 && return 0
	local d
	for d in /usr/lib/postgresql/*/bin; do
		[ -x "$d/initdb" ] && [ -x "$d/postgres" ] && return 0
	done
	return 1
}

if have_postgres; then
	echo "setup: PostgreSQL server binaries found"
else
	sudo=()
	if [ "$(id -u)" -ne 0 ]; then
		sudo=(sudo)
	fi
	echo "setup: installing PostgreSQL from the distribution's packages..."
	"${sudo[@]}" apt-get update -q
	"${sudo[@]}" env DEBIAN_FRONTEND=noninteractive apt-get install -y -q --no-install-recommends postgresql
	# The package may create and start a cluster on port 5432. schemagen never
	# uses it (it starts its own servers), so stop it rather than leave it
	# running.
	if command -v pg_lsclusters >/dev/null 2>&1; then
		pg_lsclusters -h 2>/dev/null | while read -r ver name _; do
			"${sudo[@]}" pg_ctlcluster "$ver" "$name" stop 2>/dev/null || true
		done
	fi
	have_postgres || { echo "setup: PostgreSQL installed, but initdb still not found" >&2; exit 1; }
fi

scripts/build-tidb.sh
