#!/bin/sh
# Attacks by input files (the input tester's findings): each hostile file must be refused or shown
# within a time bound, and the other lessons must still load.
#   - a lesson with 400 000 blank lines before a second ': ' (yamldoc's look back for the line above
#     was quadratic: 40 000 lines took 8 s, 400 000 over a minute): its file:line:col within 5 s;
#   - a 16 MiB lesson of one flow list of 8 million items (no alias): the node cap was checked only at
#     the list's end, after 1.4 GB were built; now refused at the millionth node within 1 GB.
# Usage: sh tests/attack/input.sh (from the repository root, after make).
cd "$(dirname "$0")/../.." || exit 1
. tests/lib.sh
case $B in /*) ;; *) B=$(pwd)/$B ;; esac
[ -x "$B" ] || { fail "input: $B is not built (make all)"; exit 0; }

tmp=$(mktemp -d "${TMPDIR:-/tmp}/cc-attack-input.XXXXXX") || exit 1
trap 'rm -rf "$tmp"' EXIT INT TERM

# bounded LIMIT_S OUT CMD...: CMD under timeout and 1 GB of address space, output to OUT; prints
# "EXIT MS" (EXIT 124: the time ran out).
bounded() {
	lim=$1 out=$2; shift 2
	t0=$(date +%s%N)
	( ulimit -v 1048576; timeout -k 2 "$lim" "$@" >"$out" 2>&1 ); rc=$?
	echo "$rc $(( ($(date +%s%N) - t0) / 1000000 ))"
}

# ---- a YAML error after many blank lines ----
d=$tmp/blank
mkdir -p "$d/lessons"
cp lessons/bandwidth.yaml "$d/lessons/"
mkdir -p "$d/kernels" && cp -r kernels/bandwidth "$d/kernels/"
awk 'BEGIN { print "lesson: blank"; for (i = 0; i < 400000; i++) print ""; print "title: a: b" }' >"$d/lessons/blank.yaml"
set -- $(bounded 5 "$tmp/blank.out" "$B" --lessons "$d" list)
if [ "$1" = 124 ] || [ "$1" = 137 ]; then
	fail "input: a lesson with 400 000 blank lines before its error: list still running after 5 s"
elif grep -q 'blank.yaml:400002:9: ' "$tmp/blank.out" && grep -q '^ *bandwidth' "$tmp/blank.out"; then
	pass "input: a lesson with 400 000 blank lines before its error: file:line:col in $2 ms, the others load"
else
	fail "input: a lesson with 400 000 blank lines before its error: exit $1, no file:line:col or no bandwidth"
	head -5 "$tmp/blank.out" | cut -c1-200 | sed 's/^/    /'
fi

# ---- a flow list of 8 million items, no alias ----
d=$tmp/flow
mkdir -p "$d/lessons" "$d/kernels"
cp lessons/bandwidth.yaml "$d/lessons/" && cp -r kernels/bandwidth "$d/kernels/"
{ printf 'lesson: flow\nread_first: ['; head -c 8000000 /dev/zero | tr '\0' 'a' | sed 's/a/a,/g'; printf 'a]\n'; } >"$d/lessons/flow.yaml"
set -- $(bounded 10 "$tmp/flow.out" "$B" --lessons "$d" list)
if grep -q 'flow.yaml:2:[0-9]*: more than 1000000 values' "$tmp/flow.out" && grep -q '^ *bandwidth' "$tmp/flow.out"; then
	pass "input: a lesson of a flow list of 8 million items: refused at the millionth within 1 GB in $2 ms, the others load"
else
	fail "input: a lesson of a flow list of 8 million items: exit $1 in $2 ms, not refused as more than 1000000 values within 1 GB"
	head -5 "$tmp/flow.out" | cut -c1-200 | sed 's/^/    /'
fi
