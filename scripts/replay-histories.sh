#!/usr/bin/env bash
# Replays the public two-dialect histories of ../shared/corpora/histories
# whole through schemagen (internal/histories, TestHistories): after each
# chosen version, import the original PostgreSQL and TiDB databases,
# generate, migrate diff, migrate apply to a pair that only ever saw
# schemagen's migrations, and compare that pair and the originals with
# databases built from generated/, the rows kept. Every failure fails the
# run; the log lists each cycle and, per history, the cycles that passed on
# each database and the first failure of each kind.
#
#   scripts/replay-histories.sh            every version of each history
#   STEP=10 scripts/replay-histories.sh    every 10th (and the last)
#   HISTORIES=kratos FROM=60 TO=100 scripts/replay-histories.sh
#
# STEP, FROM, TO and HISTORIES set SCHEMAGEN_HISTORIES_STEP, _FROM, _TO
# (a version's place from 1, or its name) and SCHEMAGEN_HISTORIES. The
# servers are SCHEMAGEN_TEST_POSTGRES_URL and SCHEMAGEN_TEST_TIDB_URL when
# set, else embedded ones. Kratos whole takes hours on 2 cores; STEP=10
# about an hour.
set -euo pipefail
cd "$(dirname "$0")/.."
export SCHEMAGEN_HISTORIES_STEP="${STEP:-${SCHEMAGEN_HISTORIES_STEP:-1}}"
[ -n "${FROM:-}" ] && export SCHEMAGEN_HISTORIES_FROM="$FROM"
[ -n "${TO:-}" ] && export SCHEMAGEN_HISTORIES_TO="$TO"
[ -n "${HISTORIES:-}" ] && export SCHEMAGEN_HISTORIES="$HISTORIES"
run=(go test -count=1 -run 'TestHistories$' -v -timeout 24h ./internal/histories)
if [ -n "${SCHEMAGEN_TEST_POSTGRES_URL:-}" ] && [ -n "${SCHEMAGEN_TEST_TIDB_URL:-}" ]; then
	"${run[@]}"
else
	go run ./internal/devdb/cmd/devdb -- "${run[@]}"
fi
