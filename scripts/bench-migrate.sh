#!/usr/bin/env bash
# Times `schemagen migrate diff init` for a synthetic 100-table model on both
# dialects, then a repeated run with no model change, and last a diff of
# one change (a table added), against the goals:
# PostgreSQL <= 1.8 s (the Atlas CLI's own time here), TiDB < 6 s (the Atlas
# CLI takes about 20 s), a repeated run < 0.5 s. The dev databases are real
# servers started once by devdb, as a team's configured dev URLs would be.
# They are always the bench's own (SCHEMAGEN_TEST_POSTGRES_URL/_TIDB_URL are
# ignored): on a shared test server the other clients' schema changes queue
# with the measured ones (a 100-table tidb init took 180-450 s on one, about
# 12 s on the bench's own), and the ratios then measure those clients.
#
# Besides each wall time, which the machine's load moves, every
# measurement prints what does not depend on it: the client's CPU time
# (user + system) and the statements it sent to the TiDB server, with how
# many were DDL (from TiDB's statement summary, scripts/bench-statements.go).
# Each round also prints the load average it started at.
#
# With BASE, the base revision's binaries are built in a temporary git
# worktree and the base and this tree run alternately (ROUNDS rounds, the
# order swapped every round so that both meet the same load), each on the
# same model, in its own project directory and cache. Every measurement is
# printed with the ratio this tree / base, then each measurement's ratio of
# the totals and the spread of its per-round ratios (the noise). So that
# both plan the same DDL, this tree's model writes out the dialect
# settings whose defaults changed since (uuid_check, exact_strings,
# value_domains: off, as they were), and the script says whether both
# trees' generated/ are byte-identical.
#
# With ATLAS set to an Atlas CLI binary (built from a fetched ariga/atlas
# snapshot at the version go.mod pins: cd cmd/atlas && go build), each
# round also times `atlas migrate diff init` of the same generated DDL on
# the same servers, beside schemagen's, and prints schemagen's init time
# over the CLI's (issue 29's goal: at most 0.8 on both databases). Without
# BASE it makes ATLAS_ROUNDS rounds (3), the CLI first in even rounds, and
# prints the median ratio.
# The CLI gets a dev database of its own on each server (its dev URL must
# name one: it has no scratch databases).
#
# Usage: [SAME_DEFAULTS=1] [ATLAS=atlas] scripts/bench-migrate.sh [tables] [BASE [ROUNDS]]   (100, none, 3)
#
# History: scripts/bench-migrate.sh history [FILES...]   (15 50)
# For a directory of FILES migrations (written by migrate diff, one table
# each), times on each dialect the first runs on a fresh cache (another
# machine, CI: every file replayed once) and the repeated runs after one
# new file, printing each repeated run's ratio to its first run, against
# the goal of under 3 s for one new file (issue 30):
#   lint         migrate lint of the latest file (first: the files before it
#                replayed; repeated: a new file, the rest loaded from the
#                state kept by the first diff --check);
#   diff --check migrate diff --check (first: every file replayed; repeated:
#                a data migration written by hand, the one file replayed);
#   diff         migrate diff of one change to the model (first: --no-cache,
#                every file replayed; repeated: from the kept state).
# The dev databases are SCHEMAGEN_TEST_POSTGRES_URL/_TIDB_URL when both are
# set, else servers devdb starts for the bench. ENVS=postgres (or tidb)
# measures one dialect.
set -euo pipefail
cd "$(dirname "$0")/.."
if [ "${1:-}" = history ]; then
	shift
	sizes=("$@")
	[ $# -gt 0 ] || sizes=(15 50)
	work=$(mktemp -d)
	trap 'rm -rf "$work"' EXIT
	go build -o "$work/schemagen" ./cmd/schemagen
	go build -o "$work/devdb" ./internal/devdb/cmd/devdb
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
	history() {
		set -euo pipefail
		work=$1; shift
		sg=$work/schemagen
		envs=${ENVS:-postgres tidb}
		ms() { date +%s%N | cut -b1-13; }
		table() { printf '\ntable "t%s" {\n  column "id" {\n    type = bigint\n  }\n  column "note" {\n    type = text\n    null = true\n  }\n  primary_key {\n    columns = ["id"]\n  }\n}\n' "$1" >> schema.hcl; }
		run() { # quiet command, or its output and exit 1 (exit 1 is fine with ALLOW1=1: a --check finding)
			local rc=0
			"$@" > run.log 2>&1 || rc=$?
			[ "$rc" -eq 0 ] || { [ "${ALLOW1:-}" = 1 ] && [ "$rc" -eq 1 ]; } || { cat run.log >&2; exit 1; }
		}
		timed() { # name env args...: prints ms
			local t0 t1
			t0=$(ms)
			XDG_CACHE_HOME=$cache run "$sg" migrate "${@:3}" --env "$2"
			t1=$(ms)
			echo $((t1 - t0))
		}
		for n in "$@"; do
			dir=$work/h$n
			mkdir -p "$dir"; cp "$work/atlas.hcl" "$dir/"; cd "$dir"
			: > schema.hcl
			cache=$dir/build-cache
			echo "building a directory of $n migrations (one migrate diff each)..."
			for i in $(seq 1 "$n"); do
				table "$i"
				XDG_CACHE_HOME=$cache run "$sg" generate
				XDG_CACHE_HOME=$cache run "$sg" migrate diff "t$i" $(printf -- "--env %s " $envs)
			done
			echo "migrate on a directory of $n files (ms; ratio repeated / first; goal < 3000 ms for one new file):"
			for env in $envs; do
				# Each env on its own copy: its changes stay in its directory.
				cp -r "$dir" "$dir.$env"; cd "$dir.$env"
				cache=$dir.$env/cache
				first_lint=$(timed lint "$env" lint)
				first_check=$(timed check "$env" diff --check)
				table "${env}_change"
				XDG_CACHE_HOME=$cache run "$sg" generate
				first_diff=$(ALLOW1=1 timed diff "$env" diff --check --no-cache)
				again_diff=$(timed diff "$env" diff "${env}_change")
				again_lint=$(timed lint "$env" lint)
				XDG_CACHE_HOME=$cache run "$sg" migrate new "fill_$env" --env "$env"
				echo "UPDATE t1 SET note = 'x' WHERE note IS NULL;" > "$(ls migrations/$env/*_fill_$env.sql)"
				XDG_CACHE_HOME=$cache run "$sg" migrate hash --env "$env"
				again_check=$(timed check "$env" diff --check)
				for m in "lint $first_lint $again_lint" "diff_--check $first_check $again_check" "diff $first_diff $again_diff"; do
					read -r name a b <<< "$m"
					printf "  %-9s %-13s first %6d ms   one new file %6d ms   ratio %s   %s\n" "$env" "${name//_/ }" "$a" "$b" \
						"$(awk -v a="$a" -v b="$b" 'BEGIN { printf "%.2f", (a > 0 ? b / a : 0) }')" "$([ "$b" -lt 3000 ] && echo ok || echo MISSED)"
				done
			done
			cd "$work"
		done
	}
	export -f history
	if [ -n "${SCHEMAGEN_TEST_POSTGRES_URL:-}" ] && [ -n "${SCHEMAGEN_TEST_TIDB_URL:-}" ]; then
		bash -c 'history "$@"' bench "$work" "${sizes[@]}"
	else
		"$work/devdb" -- bash -c 'history "$@"' bench "$work" "${sizes[@]}"
	fi
	exit 0
fi
tables=${1:-100}
base=${2:-}
rounds=${3:-3}
work=$(mktemp -d)
basetree=""
cleanup() {
	[ -z "$basetree" ] || git worktree remove --force "$basetree" 2>/dev/null || rm -rf "$basetree"
	rm -rf "$work"
}
trap cleanup EXIT
trap 'exit 1' INT TERM
build() { # source tree, binary dir
	mkdir -p "$2"
	(cd "$1" && go build -o "$2/schemagen" ./cmd/schemagen && go build -o "$2/devdb" ./internal/devdb/cmd/devdb &&
		go build -o "$2/synth" ./internal/synth/cmd/synth)
}
build . "$work/new"
go build -o "$work/statements" scripts/bench-statements.go
if [ -n "$base" ]; then
	basetree=$(mktemp -d /tmp/bench-migrate-base.XXXXXX)
	rmdir "$basetree"
	git worktree add --detach "$basetree" "$base" > /dev/null 2>&1
	build "$basetree" "$work/base"
fi
"$work/new/synth" -tables "$tables" > "$work/schema.hcl"
cp "$work/schema.hcl" "$work/schema.new.hcl"
# SAME_DEFAULTS=1: a base after those defaults changed generates the same
# DDL from the model as it is.
if [ -n "$base" ] && [ -z "${SAME_DEFAULTS:-}" ]; then
	# The defaults of these settings changed after the round's base (they
	# add CHECKs and collations): written out as they were, both trees
	# generate the same DDL.
	cat >> "$work/schema.new.hcl" <<'HCL'

dialect "tidb" {
  uuid_check    = false
  exact_strings = false
  value_domains = false
}
dialect "postgres" {
  value_domains = false
}
HCL
	for tree in base new; do
		mkdir -p "$work/gen.$tree"
		cp "$work/schema.hcl" "$work/gen.$tree/schema.hcl"
		[ "$tree" = base ] || cp "$work/schema.new.hcl" "$work/gen.$tree/schema.hcl"
		(cd "$work/gen.$tree" && "$work/$tree/schemagen" generate > /dev/null 2>&1) || { echo "generate failed on the $tree tree"; exit 1; }
	done
	if diff -r "$work/gen.base/generated" "$work/gen.new/generated" > /dev/null; then
		same="both trees generate byte-identical DDL"
	else
		same="the trees generate different DDL ($(cat "$work"/gen.base/generated/*/schema.sql | wc -c) and $(cat "$work"/gen.new/generated/*/schema.sql | wc -c) bytes)"
	fi
fi
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
env -u SCHEMAGEN_TEST_POSTGRES_URL -u SCHEMAGEN_TEST_TIDB_URL "$work/new/devdb" -- bash -c '
	set -euo pipefail
	work=$1; tables=$2; rounds=$3; base=$4; same=$5
	ms() { date +%s%N | cut -b1-13; }
	# The measurements: env, name, goal in ms (0: none), flags.
	# "change" adds a table to the model first: a diff with one new change
	# (which migrate diff proves by running its statements).
	measurements=("postgres init 1800" "postgres again 500" "postgres again 0 --no-cache"
		"tidb init 6000" "tidb again 500" "tidb again 0 --no-cache"
		"postgres change 0" "tidb change 0")
	TIMEFORMAT="%3U %3S"
	session() { # tree (new|base), round: one project from scratch; prints "i ms cpu-ms statements ddl" per measurement
		local dir=$work/run.$1.$2 sg=$work/$1/schemagen i=0 m env name goal flags t0 t1 u s
		mkdir -p "$dir/cache"; cp "$work/atlas.hcl" "$dir/"
		if [ "$1" = new ]; then cp "$work/schema.new.hcl" "$dir/schema.hcl"; else cp "$work/schema.hcl" "$dir/schema.hcl"; fi
		cd "$dir"
		XDG_CACHE_HOME=$dir/cache $sg generate > gen.log 2>&1 || { cat gen.log >&2; exit 1; }
		for m in "${measurements[@]}"; do
			read -r env name goal flags <<< "$m"
			if [ "$name" = change ] && [ "$env" = postgres ]; then
				printf "\ntable \"bench_change\" {\n  column \"id\" {\n    type = bigint\n  }\n  primary_key {\n    columns = [\"id\"]\n  }\n}\n" >> schema.hcl
				XDG_CACHE_HOME=$dir/cache $sg generate > gen.log 2>&1 || { cat gen.log >&2; exit 1; }
			fi
			"$work/statements" reset "$SCHEMAGEN_TEST_TIDB_URL"
			t0=$(ms)
			{ time XDG_CACHE_HOME=$dir/cache $sg migrate diff "$name" --env "$env" $flags > /dev/null 2> "$name.$env.log"; } 2> cpu.txt || { cat "$name.$env.log" >&2; exit 1; }
			t1=$(ms)
			read -r u s < cpu.txt
			echo "$i $((t1 - t0)) $(awk -v u="$u" -v s="$s" "BEGIN { printf \"%d\", (u + s) * 1000 }") $("$work/statements" count "$SCHEMAGEN_TEST_TIDB_URL")"; i=$((i + 1))
		done
		cd "$work"; rm -rf "$dir"
	}
	label() { read -r env name goal flags <<< "${measurements[$1]}"; printf "%-9s %-20s" "$env" "$name${flags:+ $flags}"; }
	verdict() { # i, ms
		read -r env name goal flags <<< "${measurements[$1]}"
		[ "$goal" -gt 0 ] || return 0
		printf "goal %6d ms   %s" "$goal" "$([ "$2" -le "$goal" ] && echo ok || echo MISSED)"
	}
	atlas_session() { # round: the Atlas CLI'"'"'s migrate diff init of the model, each env; prints "env ms statements ddl"
		local dir=$work/atlas.$1 env t0 t1
		mkdir -p "$dir"; cp "$work/schema.new.hcl" "$dir/schema.hcl"; cd "$dir"
		$work/new/schemagen generate > gen.log 2>&1 || { cat gen.log >&2; exit 1; }
		"$work/statements" exec "$SCHEMAGEN_TEST_TIDB_URL" "DROP DATABASE IF EXISTS atlas_dev" "CREATE DATABASE atlas_dev"
		psql -q "$SCHEMAGEN_TEST_POSTGRES_URL" -c "DROP DATABASE IF EXISTS atlas_dev" -c "CREATE DATABASE atlas_dev" > /dev/null
		cat > atlas.hcl <<HCL
env "postgres" {
  src = "file://generated/postgres/schema.sql"
  dev = "$(echo "$SCHEMAGEN_TEST_POSTGRES_URL" | sed -E "s#/postgres[?]#/atlas_dev?#")&search_path=public"
  migration {
    dir = "file://migrations/postgres"
  }
}
env "tidb" {
  src = "file://generated/tidb/schema.sql"
  dev = "${SCHEMAGEN_TEST_TIDB_URL}atlas_dev"
  migration {
    dir = "file://migrations/tidb"
  }
}
HCL
		for env in postgres tidb; do
			"$work/statements" reset "$SCHEMAGEN_TEST_TIDB_URL"
			t0=$(ms)
			"$ATLAS" migrate diff init --env "$env" > "atlas.$env.log" 2>&1 || { cat "atlas.$env.log" >&2; exit 1; }
			t1=$(ms)
			echo "$env $((t1 - t0)) $("$work/statements" count "$SCHEMAGEN_TEST_TIDB_URL")"
		done
		cd "$work"; rm -rf "$dir"
	}
	atlas_ratios() { # schemagen session file, atlas session file
		local env a n d i=0 t
		while read -r env a n d; do
			for i in "${!measurements[@]}"; do
				read -r menv name _ flags <<< "${measurements[$i]}"
				[ "$menv" = "$env" ] && [ "$name" = init ] && [ -z "$flags" ] || continue
				t=$(awk -v i="$i" "\$1 == i { print \$2 }" "$1")
				printf "  %-9s %-20s Atlas CLI %6d ms   schemagen %6d ms   ratio %s   goal 0.80   %s   (CLI: TiDB statements %d, %d DDL)\n" "$env" "init, the Atlas CLI" "$a" "$t" \
					"$(awk -v a="$a" -v t="$t" "BEGIN { printf \"%.2f\", (a > 0 ? t / a : 0) }")" "$(awk -v a="$a" -v t="$t" "BEGIN { print (t <= 0.8 * a ? \"ok\" : \"MISSED\") }")" "$n" "$d"
			done
		done < "$2"
	}
	median() { tr " " "\n" | grep . | sort -n | awk "{ a[NR] = \$1 } END { printf \"%.2f\", (NR % 2 ? a[(NR + 1) / 2] : (a[NR / 2] + a[NR / 2 + 1]) / 2) }"; }
	echo "migrate diff of a $tables-table model${base:+, this tree against $base, $rounds rounds; $same}${ATLAS:+; beside the Atlas CLI $ATLAS}"
	if [ -z "$base" ]; then
		session new 1 > "$work/new.1" || exit 1
		while read -r i t c n d; do printf "%s %6d ms   %-22s cpu %5d ms   TiDB statements %4d (%d DDL)\n" "$(label "$i")" "$t" "$(verdict "$i" "$t")" "$c" "$n" "$d"; done < "$work/new.1"
		if [ -n "${ATLAS:-}" ]; then
			# ATLAS_ROUNDS rounds (3), the CLI first in even rounds: the
			# first DDL of a fresh server is slower, and each side
			# should meet it as often.
			for r in $(seq 1 "${ATLAS_ROUNDS:-3}"); do
				if [ "$r" -gt 1 ] && [ $((r % 2)) -eq 0 ]; then
					atlas_session "$r" > "$work/atlas.$r.out" || exit 1
					session new "$r" > "$work/new.$r" || exit 1
				elif [ "$r" -gt 1 ]; then
					session new "$r" > "$work/new.$r" || exit 1
					atlas_session "$r" > "$work/atlas.$r.out" || exit 1
				else
					atlas_session 1 > "$work/atlas.1.out" || exit 1
				fi
				echo "round $r ($([ $((r % 2)) -eq 0 ] && echo "the CLI first" || echo "schemagen first")), load average $(cut -d" " -f1 /proc/loadavg) at its end:"
				atlas_ratios "$work/new.$r" "$work/atlas.$r.out" | tee -a "$work/atlas.ratios"
			done
			for env in postgres tidb; do
				printf "  %-9s init, the Atlas CLI: median ratio over %d rounds %s (goal 0.80)\n" "$env" "${ATLAS_ROUNDS:-3}" \
					"$(awk -v e="$env" "\$1 == e { for (i = 1; i <= NF; i++) if (\$i == \"ratio\") print \$(i + 1) }" "$work/atlas.ratios" | median)"
			done
		fi
		exit 0
	fi
	declare -a tb tn rmin rmax rr cb cn sb sn
	for r in $(seq 1 "$rounds"); do
		if [ $((r % 2)) -eq 1 ]; then order="base new"; else order="new base"; fi
		load=$(cut -d" " -f1 /proc/loadavg)
		for tree in $order; do session "$tree" "$r" > "$work/$tree.$r" || exit 1; done
		[ -z "${ATLAS:-}" ] || atlas_session "$r" > "$work/atlas.$r.out" || exit 1
		echo "round $r ($order), load average $load at its start:"
		[ -z "${ATLAS:-}" ] || atlas_ratios "$work/new.$r" "$work/atlas.$r.out"
		while read -r i b bc bs bd && read -r _ n nc ns nd <&3; do
			ratio=$(awk -v b="$b" -v n="$n" "BEGIN { printf \"%.2f\", (b > 0 ? n / b : 0) }")
			printf "  %s base %6d ms   this tree %6d ms   ratio %s   %-22s cpu %5d / %5d ms   TiDB statements %4d / %4d (DDL %d / %d)\n" \
				"$(label "$i")" "$b" "$n" "$ratio" "$(verdict "$i" "$n")" "$bc" "$nc" "$bs" "$ns" "$bd" "$nd"
			tb[i]=$(( ${tb[i]:-0} + b )); tn[i]=$(( ${tn[i]:-0} + n ))
			cb[i]=$(( ${cb[i]:-0} + bc )); cn[i]=$(( ${cn[i]:-0} + nc ))
			sb[i]=$(( ${sb[i]:-0} + bs )); sn[i]=$(( ${sn[i]:-0} + ns ))
			rr[i]="${rr[i]:-} $ratio"
			rmin[i]=$(awk -v a="${rmin[i]:-9999}" -v r="$ratio" "BEGIN { print (r < a ? r : a) }")
			rmax[i]=$(awk -v a="${rmax[i]:-0}" -v r="$ratio" "BEGIN { print (r > a ? r : a) }")
		done < "$work/base.$r" 3< "$work/new.$r"
	done
	echo "over $rounds rounds (ratio of the totals, this tree / base; the per-round ratios: range and median):"
	for i in "${!measurements[@]}"; do
		printf "  %s base %6d ms   this tree %6d ms   ratio %s   rounds %s..%s, median %s   cpu ratio %s   TiDB statements a round %d / %d\n" "$(label "$i")" \
			$(( tb[i] / rounds )) $(( tn[i] / rounds )) \
			"$(awk -v b="${tb[i]}" -v n="${tn[i]}" "BEGIN { printf \"%.2f\", (b > 0 ? n / b : 0) }")" "${rmin[i]}" "${rmax[i]}" "$(echo "${rr[i]}" | median)" \
			"$(awk -v b="${cb[i]}" -v n="${cn[i]}" "BEGIN { printf \"%.2f\", (b > 0 ? n / b : 0) }")" $(( sb[i] / rounds )) $(( sn[i] / rounds ))
	done
' bench "$work" "$tables" "$rounds" "$base" "${same:-}"
