#!/bin/sh
# Attacks by input files (the input tester's findings): each hostile file must be refused or shown
# within a time bound, and the other lessons must still load.
#   - a lesson with 400 000 blank lines before a second ': ' (yamldoc's look back for the line above
#     was quadratic: 40 000 lines took 8 s, 400 000 over a minute): its file:line:col within 5 s;
#   - a 16 MiB lesson of one flow list of 8 million items (no alias): the node cap was checked only at
#     the list's end, after 1.4 GB were built; now refused at the millionth node within 1 GB;
#   - a stage of three nested repeat blocks of 1024 around a launch of grid 0 (left out of the plan, so
#     the 1024-step cap never came): show and check planned 2^30 steps (still running after 60 s);
#     now refused at its file:line:col within 5 s;
#   - a student's results files of junk lines the report parsed whole, every one: four files of 8 MiB
#     of 500 KiB flow lists (12 s; 95 s for the 32 files a student may have), or of 4 million lines of
#     "x" (7 s a file, 225 s for 32): with another student's record beside them, the report lists the
#     other within 5 s (a line of more than 256 values is no record; lines past 20 000 in a file are
#     dropped, records or not). Run as root (files of uid 2001 and 2002), else SKIP.
# Usage: sh tests/attack/input.sh (from the repository root, after make).
cd "$(dirname "$0")/../.." || exit 1
. tests/lib.sh
case $B in /*) ;; *) B=$(pwd)/$B ;; esac
[ -x "$B" ] || { fail "input: $B is not built (make all)"; exit 0; }

tmp=$(mktemp -d "${TMPDIR:-/tmp}/cc-attack-input.XXXXXX") || exit 1
trap '[ -n "$KEEP" ] || rm -rf "$tmp"' EXIT INT TERM

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

# ---- a student's results files of junk lines ----
if [ "$(id -u)" != 0 ]; then
	skip "input: results files of junk lines: not root (the files must be other uids')"
else
	for kind in flow x; do
		c=$tmp/course-$kind
		mkdir -p "$c" && chmod 755 "$c"
		printf 'course: junk\ntitle: junk\nexercises: [bandwidth/coalesced]\nresults: results\n' >"$c/course.yaml"
		if ! "$B" course init "$c" --group root >"$tmp/init.out" 2>&1; then
			fail "input: results files of junk lines ($kind): course init failed: $(tail -1 "$tmp/init.out")"; continue
		fi
		for k in 0 1 2 3; do
			f=$c/results/2001-junk.$k.jsonl; [ $k = 0 ] && f=$c/results/2001-junk.jsonl
			if [ $kind = flow ]; then
				awk 'BEGIN { l = "["; for (i = 0; i < 250000; i++) l = l "a,"; l = l "a]"; for (k = 0; k < 16; k++) print l }' >"$f"
			else
				head -c 4000000 /dev/zero | tr '\0' x | sed 's/x/x\n/g' | head -c 8000000 >"$f"
			fi
			chown 2001 "$f"
		done
		printf '{"time": 1700000000, "user": "b", "uid": 2002, "exercise": "bandwidth/coalesced", "verdict": "passed", "passed": true, "at_lesson_size": true, "ratio": 1.01, "bar": 0.9, "device": "d", "source_hash": "h"}\n' >"$c/results/2002-honest.jsonl"
		chown 2002 "$c/results/2002-honest.jsonl"
		set -- $(bounded 5 "$tmp/report-$kind.out" "$B" report "$c")
		if [ "$1" = 0 ] && grep -q 'claimed pass' "$tmp/report-$kind.out" && grep -Eq '^[0-9]+ students|^2 students' "$tmp/report-$kind.out"; then
			pass "input: a student's 32 MiB of junk lines ($kind) beside another's record: report in $2 ms, the other student listed"
		else
			fail "input: a student's 32 MiB of junk lines ($kind) beside another's record: report exits $1 after $2 ms"
			head -8 "$tmp/report-$kind.out" | cut -c1-200 | sed 's/^/    /'
		fi
	done
fi
