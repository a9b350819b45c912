#!/bin/sh
# Attacks by input files (the input tester's findings): each hostile file must be refused or shown
# within a time bound, and the other lessons must still load.
#   - a lesson with 400 000 blank lines before a second ': ' (yamldoc's look back for the line above
#     was quadratic: 40 000 lines took 8 s, 400 000 over a minute): its file:line:col within 5 s;
#   - a 16 MiB lesson of one flow list of 8 million items (no alias): the node cap was checked only at
#     the list's end, after 1.4 GB were built; now refused at the millionth node within 1 GB;
#   - a stage of three nested repeat blocks of 1024 around a launch of grid 0 (left out of the plan, so
#     the 1024-step cap never came): show and check planned 2^30 steps, a quarter of an hour each;
#     now refused at its file:line:col within 5 s.
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

# ---- nested repeat blocks of an empty launch ----
d=$tmp/rep
mkdir -p "$d/lessons" "$d/kernels"
cp -r kernels/bandwidth "$d/kernels/rep"
awk '
	/^lesson: bandwidth/ { print "lesson: rep"; next }
	{ print }
	/args: \[x, y, z, "f32\(a\)", "i64\(n\)"\]/ && !done && seen_coalesced {
		print "      - repeat: 1024"
		print "        as: r1"
		print "        steps:"
		print "          - repeat: 1024"
		print "            as: r2"
		print "            steps:"
		print "              - repeat: 1024"
		print "                as: r3"
		print "                steps:"
		print "                  - { grid: 0, block: BLOCK, args: [x, y, z, \"f32(a)\", \"i64(n)\"] }"
		done = 1
	}
	/- id: coalesced/ { seen_coalesced = 1 }
' lessons/bandwidth.yaml >"$d/lessons/rep.yaml"
if ! grep -q 'as: r3' "$d/lessons/rep.yaml"; then
	fail "input: nested repeat blocks: could not write the lesson (bandwidth.yaml changed?)"
else
	set -- $(bounded 5 "$tmp/rep.out" "$B" --lessons "$d" show rep/coalesced)
	if grep -q 'rep.yaml:[0-9]*:[0-9]*: stage coalesced unrolls to more than' "$tmp/rep.out"; then
		pass "input: three nested repeat blocks of 1024 around an empty launch: refused at file:line:col in $2 ms"
	else
		fail "input: three nested repeat blocks of 1024 around an empty launch: show exits $1 after $2 ms without refusing it"
		tail -3 "$tmp/rep.out" | cut -c1-200 | sed 's/^/    /'
	fi
fi
