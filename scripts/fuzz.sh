#!/usr/bin/env bash
# fuzz.sh PKG FUZZFUNC FUZZTIME: fuzz one target. A run fails only on a
# finding: a new failing input written to PKG/testdata/fuzz/FUZZFUNC. Go
# 1.26's fuzz coordinator can end a duration-bound run with a bare "context
# deadline exceeded" when a worker misses the stop deadline on a busy host
# (go.dev/issue/75804, fixed in Go 1.27); that run found nothing and passes,
# after the corpus is replayed once without fuzzing.
set -uo pipefail
pkg=$1 fn=$2 fuzztime=$3
dir="$pkg/testdata/fuzz/$fn"
before=$(ls "$dir" 2>/dev/null | sort)
out=$(mktemp)
trap 'rm -f "$out"' EXIT
go test "./$pkg" -run '^$' -fuzz "^$fn\$" -fuzztime "$fuzztime" -parallel 1 2>&1 | tee "$out"
rc=${PIPESTATUS[0]}
[ "$rc" = 0 ] && exit 0
after=$(ls "$dir" 2>/dev/null | sort)
if [ "$before" = "$after" ] && grep -q '^    context deadline exceeded$' "$out" && ! grep -q 'Failing input written' "$out"; then
  echo "fuzz.sh: $fn stopped on the coordinator's deadline race with no failing input; replaying its seed corpus"
  go test "./$pkg" -run "^$fn\$" -count=1
  exit $?
fi
exit "$rc"
