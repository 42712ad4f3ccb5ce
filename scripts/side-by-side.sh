#!/usr/bin/env bash
# Runs two test commands at once and fails if either fails. Each leaves most of a 2-core machine idle (vitest waits
# on databases and child processes, the browser tests on Chromium and the server), so together they take little
# longer than the slower one. The first command's output is shown once it has ended, after the second's.
# Usage: scripts/side-by-side.sh "<first command>" "<second command>"
set -uo pipefail
first_log=$(mktemp)
trap 'rm -f "$first_log"' EXIT
bash -c "$1" >"$first_log" 2>&1 &
first=$!
bash -c "$2"
second_status=$?
wait "$first"
first_status=$?
printf '\n== %s\n' "$1"
cat "$first_log"
[ "$first_status" -eq 0 ] && [ "$second_status" -eq 0 ]
