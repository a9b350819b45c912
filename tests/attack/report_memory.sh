#!/bin/sh
# A student's flood of valid records against the instructor's report, no GPU needed: two hostile
# students (uids 2002, 2003) each write 32 files of 20 000 minimal valid records, the most the report
# reads of one student (640 000), beside an honest one (uid 2001). The report folds the records into
# its table as it reads them, so that its memory does not grow with them (it kept each record, about
# 335 MB a student, before): the report, --json and --verify each end within `ulimit -v` and a time
# bound generous for a slow machine, and count every record. Needs root (setpriv) for three users.
. tests/lib.sh
FX=tests/fixtures/exercise
VM=400000    # KiB of address space: the binary alone maps about 150 MB; two students' records kept were 670 MB
LIMIT=90     # seconds for a report of 1.3 million records (about 7 s on the developers' machine)
if [ "$(id -u)" != 0 ] || ! command -v setpriv >/dev/null; then
	skip "attack report memory: the students need root (setpriv) to be three users"
	exit 0
fi
tmp=$(mktemp -d); trap 'rm -rf "$tmp"' EXIT
chmod 755 "$tmp"
as() { u=$1; shift; setpriv --reuid="$u" --regid="$u" --clear-groups "$@"; }
rep() { (ulimit -v $VM; timeout $LIMIT $B --lessons $FX report "$@"); }
cp -r tests/fixtures/course "$tmp/lab"
$B --lessons $FX course init "$tmp/lab" >/dev/null 2>&1 || { fail "attack report memory: course init"; exit 0; }
R=$tmp/lab/results
now=$(date +%s)
rec() { printf '{"time": %s, "uid": %s, "exercise": "%s", "verdict": "%s", "passed": %s, "at_lesson_size": true, "ratio": %s}\n' "$@"; }
as 2001 sh -c "umask 027; { echo '$(rec $now 2001 demo/scale slow false 0.5)'; echo '$(rec $now 2001 demosum/sum passed true 1.2)'; } >'$R/2001-alice.jsonl'"
for u in 2002 2003; do
	line="{\"time\": $now, \"uid\": $u, \"exercise\": \"demo/scale\", \"verdict\": \"wrong\", \"passed\": false}"
	as $u sh -c "umask 027; yes '$line' | head -n 20000 >'$R/$u-x.0.jsonl'; for i in \$(seq 1 31); do cp '$R/$u-x.0.jsonl' '$R/$u-x.'\$i'.jsonl'; done"
done
[ "$(ls "$R" | wc -l)" = 65 ] || { fail "attack report memory: the flood was not written: $(ls "$R" | wc -l) files"; exit 0; }

start=$(date +%s)
out=$(rep "$tmp/lab" 2>&1); code=$?
took=$(( $(date +%s) - start ))
n=$(printf '%s\n' "$out" | grep -c " tried 640000 ")
if [ $code = 0 ] && [ "$n" = 2 ] && printf '%s' "$out" | grep -q "^3 students" && printf '%s\n' "$out" | grep -q "claimed pass 1.20x"; then
	pass "attack report memory: two students' 640 000 records each: the report ends within ulimit -v $VM KiB ($took s), every record counted"
else
	fail "attack report memory: exit $code after $took s (124: over $LIMIT s; 1 or a signal: out of memory), rows with 640000 tries: $n: $(printf '%s' "$out" | head -12)"
fi
rep "$tmp/lab" --json - 2>/dev/null | python3 -c "
import json, sys
d = json.load(sys.stdin)
m = {s['uid']: s['exercises'] for s in d['students']}
assert m[2002]['demo/scale']['tries'] == 640000 and m[2003]['demo/scale']['tries'] == 640000 and m[2002]['demo/scale']['status'] == 'tried'
assert m[2001]['demosum/sum']['status'] == 'claimed' and m[2001]['demo/scale']['status'] == 'slow'
" && pass "attack report memory: --json of the flood within ulimit -v $VM KiB: 640 000 tries each, the honest student's cells as before" \
	|| fail "attack report memory: --json of the flood"
# --verify keeps only the claimed passes it judges again: a flood of tries is folded as it is read too
out=$(rep "$tmp/lab" --verify 2>&1); code=$?
if { [ $code = 0 ] || [ $code = 3 ]; } && [ "$(printf '%s\n' "$out" | grep -c " tried 640000 ")" = 2 ]; then
	pass "attack report memory: --verify over the flood within ulimit -v $VM KiB (exit $code)"
else
	fail "attack report memory: --verify: exit $code: $(printf '%s' "$out" | head -12)"
fi
