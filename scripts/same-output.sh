#!/usr/bin/env bash
# Runs every schemagen command on this repository's project and on the public
# corpora (../shared/corpora) and writes what each printed, its exit code and
# the files it wrote into OUTDIR, so that two runs (before and after a
# refactor) can be compared byte for byte:
#
#   scripts/same-output.sh /tmp/before        # on main
#   scripts/same-output.sh /tmp/after         # on the branch
#   diff -r /tmp/before /tmp/after            # nothing: outputs unchanged
#
# Needs SCHEMAGEN_TEST_POSTGRES_URL and SCHEMAGEN_TEST_TIDB_URL (servers on
# which it recreates databases named so_*, or $SAME_OUTPUT_PREFIX_*, written
# so_* in the outputs, so that two runs can go at once), psql and Go. Commands:
# generate, check, explain, erd, export, fmt --check, migrate diff (on a temporary
# copy, after an edit of the model), migrate diff --check, migrate lint,
# migrate apply, migrate status, drift (clean and drifted targets), import
# (each corpus from one and from both dialects) and generate/explain of what
# import wrote. What is not byte-stable is rewritten before it is stored: the
# temporary directory (TMP), the versions migrate diff takes from the clock
# (NEW1, NEW2; atlas.sum is then left out, as it hashes them), times,
# durations and the servers' addresses (SERVER, so that runs on two sets of
# servers compare); the line saying an apply waits for TiDB's server-wide
# lock is dropped (two runs at once share that lock).
set -euo pipefail

out=${1:?usage: scripts/same-output.sh OUTDIR}
root=$(cd "$(dirname "$0")/.." && pwd)
corpora=$(cd "$root/.." && while [ "$PWD" != / ] && [ ! -d shared/corpora ]; do cd ..; done; echo "$PWD/shared/corpora")
[ -d "$corpora" ] || { echo "same-output: no shared/corpora above $root" >&2; exit 2; }
: "${SCHEMAGEN_TEST_POSTGRES_URL:?}" "${SCHEMAGEN_TEST_TIDB_URL:?}"
prefix=${SAME_OUTPUT_PREFIX:-so}
pgaddr=$(echo "$SCHEMAGEN_TEST_POSTGRES_URL" | sed -e 's#^[a-z]*://\([^@/]*@\)\{0,1\}\([^/?]*\).*#\2#')
tiaddr=$(echo "$SCHEMAGEN_TEST_TIDB_URL" | sed -e 's#^[a-z]*://\([^@/]*@\)\{0,1\}\([^/?]*\).*#\2#')

rm -rf "$out"
mkdir -p "$out"
out=$(cd "$out" && pwd)
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT

# Go keeps its build cache where it was: XDG_CACHE_HOME moves below.
export GOCACHE=${GOCACHE:-$(go env GOCACHE)} GOMODCACHE=${GOMODCACHE:-$(go env GOMODCACHE)}
export SCHEMAGEN_DEV_POSTGRES_URL=$SCHEMAGEN_TEST_POSTGRES_URL
export SCHEMAGEN_DEV_TIDB_URL=$SCHEMAGEN_TEST_TIDB_URL
export XDG_CACHE_HOME=$tmp/cache NO_COLOR=1 TZ=UTC
unset DATABASE_URL_POSTGRES DATABASE_URL_TIDB

(cd "$root" && go build -o "$tmp/schemagen" ./cmd/schemagen)
sg=$tmp/schemagen

# run NAME DIR CMD...: stdout, stderr and exit code of one command.
run() {
	local name=$1 dir=$2
	shift 2
	local rc=0
	(cd "$dir" && "$@") >"$out/$name.out" 2>"$out/$name.err" || rc=$?
	echo "$rc" >"$out/$name.rc"
	sed -i -e "s#$tmp#TMP#g" -e "s/${prefix}_/so_/g" -e "s#@$pgaddr/#@SERVER/#g" -e "s#@$tiaddr/#@SERVER/#g" -e 's/[0-9.]\+\(ms\|µs\|s\)\b/DURATION/g' \
		-e '/another migrate apply holds the lock/d' -e 's/"seconds": [0-9.e-]*/"seconds": DURATION/g' -e 's/[0-9]\{4\}-[0-9][0-9]-[0-9][0-9] [0-9:]\{8\} UTC/TIME/g' $vsed "$out/$name.out" "$out/$name.err"
}

# newversions DIR: after migrate diff, a sed program that names the
# versions it wrote NEW1, NEW2, ... (they come from the clock).
vsed=
newversions() {
	local v i=0
	vsed=
	for v in $(ls "$1"/migrations/*/ | grep -o '^[0-9]\{14\}' | sort -u); do
		case " $oldversions " in *" $v "*) continue ;; esac
		i=$((i + 1))
		vsed="$vsed -e s/$v/NEW$i/g"
	done
}
oldversions=$(ls "$root"/migrations/*/ | grep -o '^[0-9]\{14\}' | sort -u | tr '\n' ' ')

# snapshot NAME DIR: the files of a project directory that commands write.
snapshot() {
	mkdir -p "$out/$1"
	(cd "$2" && { find generated migrations docs/erd.md schema.hcl -type f 2>/dev/null || true; } | sort | while read -r f; do
		# atlas.sum hashes the versions, which come from the clock.
		case $f in */atlas.sum) [ -n "$vsed" ] && continue ;; esac
		g=$(echo "$f" | sed -e "s/^/./" $vsed)
		mkdir -p "$out/$1/$(dirname "$g")"
		sed -e "s#$tmp#TMP#g" -e "s/${prefix}_/so_/g" -e "s#@$pgaddr/#@SERVER/#g" -e "s#@$tiaddr/#@SERVER/#g" $vsed "$f" >"$out/$1/$g"
	done)
}

load() { (cd "$root" && go run ./scripts/same-output-load.go "$@"); }

proj=$tmp/project
mkdir -p "$proj"
(cd "$root" && git ls-files -co --exclude-standard -z | tar --null -T - -cf -) | tar -xf - -C "$proj"
rm -rf "$proj/scripts"
# The repository's project as it is.
run generate "$proj" "$sg" generate
run check "$proj" "$sg" check
run explain "$proj" "$sg" explain
run explain-tidb-sources "$proj" "$sg" explain sources --dialect tidb
run erd "$proj" "$sg" erd
run erd-dot-tidb "$proj" "$sg" erd --format dot --dialect tidb
run export-json "$proj" "$sg" export
run export-typescript "$proj" "$sg" export --format typescript
run fmt-check "$proj" "$sg" fmt --check
run diff-check "$proj" "$sg" migrate diff --check
run lint "$proj" "$sg" migrate lint --latest 2
run lint-json "$proj" "$sg" migrate lint --latest 2 --format json
snapshot project "$proj"

# Apply, status and drift: one clean target and one drifted target a dialect.
pgsrv=$SCHEMAGEN_TEST_POSTGRES_URL tisrv=$SCHEMAGEN_TEST_TIDB_URL
pg=$(load "$pgsrv" "${prefix}_drift_pg" 2>/dev/null) pg2=$(load "$pgsrv" "${prefix}_drift_pg2" 2>/dev/null)
ti=$(load "$tisrv" "${prefix}_drift_ti" 2>/dev/null) ti2=$(load "$tisrv" "${prefix}_drift_ti2" 2>/dev/null)
run apply-pg "$proj" "$sg" migrate apply --env postgres --url "$pg"
run apply-pg2 "$proj" "$sg" migrate apply --env postgres --url "$pg2"
run apply-ti "$proj" "$sg" migrate apply --env tidb --url "$ti"
run apply-ti2 "$proj" "$sg" migrate apply --env tidb --url "$ti2"
run status-pg "$proj" "$sg" migrate status --env postgres --url "$pg"
printf 'ALTER TABLE sources DROP COLUMN credential_ref;\nCREATE INDEX extra_idx ON knowledge_spaces (name);\nALTER TABLE knowledge_spaces DROP CONSTRAINT knowledge_spaces_icon_ref_ck;\n' >"$tmp/drift-pg.sql"
printf 'ALTER TABLE sources ADD COLUMN extra int;\nCREATE INDEX extra_idx ON knowledge_spaces (slug);\nALTER TABLE knowledge_spaces DROP CHECK knowledge_spaces_icon_ref_ck;\n' >"$tmp/drift-ti.sql"
load +"$pgsrv" "${prefix}_drift_pg2" "$tmp/drift-pg.sql" >/dev/null 2>&1
load +"$tisrv" "${prefix}_drift_ti2" "$tmp/drift-ti.sql" >/dev/null 2>&1
run drift-pg "$proj" "$sg" drift --env postgres --url "$pg" --url "$pg2"
run drift-ti "$proj" "$sg" drift --env tidb --url "$ti" --url "$ti2"
run drift-json "$proj" "$sg" drift --env postgres --url "$pg2" --format json

# An edit of the model, planned by migrate diff (online and plain) and linted.
python3 - "$proj/schema.hcl" <<'EOF'
import sys
p = sys.argv[1]
s = open(p).read()
edit = '''table "sources" {
  column "priority" {
    type    = smallint
    default = 0
  }
  column "note" {
    type = varchar(40)
    null = true
  }
  check "sources_priority_ck" {
    expr = "priority BETWEEN 0 AND 9"
  }
  index "sources_priority_idx" {
    columns = ["priority", "created_at"]
  }
  index "sources_note_uq" {
    unique  = true
    columns = ["note"]
    where   = "note IS NOT NULL"
  }
'''
s = s.replace('table "sources" {\n', edit, 1)
s = s.replace('    type = varchar(16)\n', '    type = varchar(24)\n', 1)
s += '''
table "source_tags" {
  column "source_id" {
    type = uuid
  }
  column "knowledge_space_id" {
    type = uuid
  }
  column "tag" {
    type = varchar(32)
  }
  primary_key {
    columns = ["source_id", "tag"]
  }
  foreign_key "source_tags_source_fk" {
    columns     = ["knowledge_space_id", "source_id"]
    ref_table   = "sources"
    ref_columns = ["knowledge_space_id", "id"]
    on_delete   = "cascade"
  }
}
'''
open(p, 'w').write(s)
EOF
cp -r "$proj" "$tmp/plain"
run edit-generate "$proj" "$sg" generate
run edit-diff-check "$proj" "$sg" migrate diff --check
run edit-diff "$proj" "$sg" migrate diff edit
newversions "$proj"
sed -i $vsed "$out"/edit-diff.*
run edit-lint "$proj" "$sg" migrate lint --latest 1
run edit-lint-json "$proj" "$sg" migrate lint --latest 1 --format json
run edit-apply-pg "$proj" "$sg" migrate apply --env postgres --url "$pg"
run edit-apply-ti "$proj" "$sg" migrate apply --env tidb --url "$ti"
run edit-drift-pg "$proj" "$sg" drift --env postgres --url "$pg"
run edit-drift-ti "$proj" "$sg" drift --env tidb --url "$ti"
snapshot edit "$proj"
vsed=
run plain-generate "$tmp/plain" "$sg" generate
run plain-diff "$tmp/plain" "$sg" migrate diff --plain edit
newversions "$tmp/plain"
sed -i $vsed "$out"/plain-diff.*
run plain-lint "$tmp/plain" "$sg" migrate lint --latest 1
snapshot plain "$tmp/plain"
vsed=

# Import: each corpus built on the servers, read from each dialect and both.
corpus() { # NAME PGFILE TIDBFILE
	local c=$1 ipg iti d=$tmp/import-$1
	ipg=$(load "$pgsrv" "${prefix}_${c}_pg" "$corpora/$2" 2>"$out/load-$c-pg.err")
	iti=$(load "$tisrv" "${prefix}_${c}_ti" "$corpora/$3" 2>"$out/load-$c-ti.err")
	mkdir -p "$d"
	run "import-$c-both" "$d" "$sg" import --url "$ipg" --url "$iti" --out schema.hcl
	run "import-$c-pg" "$d" "$sg" import --url "$ipg"
	run "import-$c-ti" "$d" "$sg" import --url "$iti"
	run "import-$c-generate" "$d" "$sg" generate
	run "import-$c-explain" "$d" "$sg" explain
	run "import-$c-erd" "$d" "$sg" erd --dialect tidb
	snapshot "import-$c" "$d"
}
corpus sakila sakila/postgres-sakila-schema.sql sakila/mysql-sakila-schema.sql
corpus chinook chinook/Chinook_PostgreSql_AutoIncrementPKs.sql chinook/Chinook_MySql_AutoIncrementPKs.sql

(cd "$out" && find . -type f | sort | xargs sha256sum) >"$tmp/sums"
mv "$tmp/sums" "$out/SHA256SUMS"
echo "same-output: $(find "$out" -type f | wc -l) files in $out"
