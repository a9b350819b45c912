#!/bin/sh
# Attacks on the class report (issue #45 item 5, #51), no GPU needed: a hostile student (uid 2002)
#   - forges records: a pass (ratio 1.0), a "slow" ratio 99, a pass "on time" appended after the
#     deadline with an earlier time: the report shows each as claimed (text, CSV, JSON, HTML), ranks
#     none of them on the HTML leaderboard, and marks the lateness self-reported;
#   - plants a symbolic link and a pre-created 0666 file at the --html/--csv/--json target: refused,
#     the link's target untouched, the student's file neither written nor read back with rows;
#   - floods the results folder with 400 000 junk entries beside four honest students' files: the
#     report lists all four and names what it skipped, with counts and example names.
# Each report runs under `timeout` and `ulimit -v`; the parts that need two users SKIP without root.
. tests/lib.sh
FX=tests/fixtures/exercise
VM=4000000   # KiB of address space for a report (the binary maps CUDA's static runtime)
if [ "$(id -u)" != 0 ] || ! command -v setpriv >/dev/null; then
	skip "attack report: a student and an instructor need root (setpriv) to be two users"
	exit 0
fi
tmp=$(mktemp -d); trap 'umount "$tmp/flood" 2>/dev/null; rm -rf "$tmp"' EXIT
chmod 755 "$tmp"
as() { u=$1; shift; setpriv --reuid="$u" --regid="$u" --clear-groups "$@"; }
rep() { (ulimit -v $VM; timeout 30 $B --lessons $FX report "$@"); }
cp -r tests/fixtures/course "$tmp/lab"
# a deadline an hour ago on demosum/sum, so that "on time" is a claim worth making
due=$(date -d '-1 hour' '+%Y-%m-%d %H:%M')
sed -i "s|due: \"[^\"]*\"|due: \"$due\"|" "$tmp/lab/course.yaml"
$B --lessons $FX course init "$tmp/lab" >/dev/null 2>&1 || { fail "attack report: course init"; exit 0; }
R=$tmp/lab/results
now=$(date +%s); early=$((now - 86400))
rec() { printf '{"time": %s, "uid": %s, "exercise": "%s", "verdict": "%s", "passed": %s, "at_lesson_size": true, "ratio": %s}\n' "$@"; }

# 1. Forged records, appended now (after the deadline) by the student in their own file.
as 2002 sh -c "umask 027; { $(printf '%s' "echo '$(rec $now 2002 demo/scale passed true 1.0)'; echo '$(rec $now 2002 demo/scale slow false 99)'; echo '$(rec $early 2002 demosum/sum passed true 1.0)'"); } >'$R/2002-mallory.jsonl'"
as 2001 sh -c "umask 027; echo '$(rec $now 2001 demo/scale slow false 0.5)' >'$R/2001-alice.jsonl'"
out=$(rep "$tmp/lab" 2>&1); code=$?
M=$(getent passwd 2002 | cut -d: -f1); M=${M:-uid2002}
line=$(printf '%s\n' "$out" | grep "^$M ")
if [ $code = 0 ] && printf '%s' "$line" | grep -q "claimed pass 99.00x" && printf '%s' "$line" | grep -q "claimed pass\* 1.00x" && ! printf '%s' "$line" | grep -q " passed "; then
	pass "attack report: a forged pass and ratio 99 show as 'claimed pass 99.00x', never 'passed' ($(printf '%s' "$line" | tr -s ' ' | cut -c1-60))"
else
	fail "attack report: forged records in the text: exit $code: $out"
fi
printf '%s' "$out" | grep -q "^\*: on time by the record's own time only (self-reported" \
	&& pass "attack report: a pass 'on time' appended after the deadline with an earlier time is marked self-reported (*)" \
	|| fail "attack report: no self-reported lateness: $out"
rep "$tmp/lab" --json - 2>/dev/null | python3 -c "
import json, sys
d = json.load(sys.stdin)
m = {s['uid']: s['exercises'] for s in d['students']}
a, b = m[2002]['demo/scale'], m[2002]['demosum/sum']
assert not d['trusted'] and a['status'] == 'claimed' and not a['passed'] and a['claimed'] and a['ratio_claimed'] and a['best_ratio'] == 99, a
assert b['status'] == 'claimed' and not b['late'] and b['late_self_reported'], b
assert m[2001]['demo/scale']['status'] == 'slow' and m[2001]['demo/scale']['ratio_claimed']
" && pass "attack report: --json: status claimed, passed false, ratio_claimed, late_self_reported" || fail "attack report: --json of forged records"
rep "$tmp/lab" --csv - 2>/dev/null | grep -q "^\"$M\",2002,\"demo/scale\",0,0,99.0000,2,.*,claimed,1,0$" \
	&& pass "attack report: --csv: passed 0, status claimed, ratio claimed" || fail "attack report: --csv: $(rep "$tmp/lab" --csv - 2>/dev/null | grep 2002)"
rep "$tmp/lab" --html "$tmp/r.html" >/dev/null 2>&1
if grep -q 'data-status="claimed"' "$tmp/r.html" && ! grep -q '99.00x</text>' "$tmp/r.html" && grep -q "no ranking: the ratios here are the students' own" "$tmp/r.html"; then
	pass "attack report: --html: the forged cells are claimed and the 99x ranks nobody on the leaderboard"
else
	fail "attack report: --html leaderboard: $(grep -o '<svg.*' "$tmp/r.html" | head -3)"
fi

# 2. The report's file: a symlink to the instructor's .bashrc and a pre-created 0666 file, planted
# by the student in a sticky folder both may write (as /tmp is).
drop=$tmp/drop; mkdir -m 1777 "$drop"
printf 'export SAFE=1\n' >"$tmp/bashrc"; cp "$tmp/bashrc" "$tmp/bashrc.orig"
for fmt in html csv json; do
	as 2002 ln -s "$tmp/bashrc" "$drop/link.$fmt"
	out=$(rep "$tmp/lab" --$fmt "$drop/link.$fmt" 2>&1); code=$?
	if [ $code = 1 ] && printf '%s' "$out" | grep -q "link.$fmt is a symbolic link: not followed and not replaced" && cmp -s "$tmp/bashrc" "$tmp/bashrc.orig" && [ -L "$drop/link.$fmt" ]; then
		pass "attack report: --$fmt at a planted symlink is refused; the link's target is untouched"
	else
		fail "attack report: --$fmt through a symlink: exit $code: $out; $(head -c 200 "$tmp/bashrc")"
	fi
	as 2002 sh -c "umask 0; : >'$drop/open.$fmt'; chmod 666 '$drop/open.$fmt'"
	out=$(rep "$tmp/lab" --$fmt "$drop/open.$fmt" 2>&1); code=$?
	got=$(as 2002 cat "$drop/open.$fmt" 2>/dev/null | wc -c)
	if [ $code = 1 ] && printf '%s' "$out" | grep -q "belongs to uid 2002, not to you: not replaced" && [ "$got" = 0 ]; then
		pass "attack report: --$fmt at a student's pre-created 0666 file is refused; nothing for the student to read"
	else
		fail "attack report: --$fmt at a 0666 file: exit $code, $got bytes readable: $out"
	fi
	out=$(rep "$tmp/lab" --$fmt "$drop/mine.$fmt" 2>&1); code=$?
	if [ $code = 0 ] && [ "$(stat -c %a:%u "$drop/mine.$fmt")" = "600:0" ] && ! as 2002 cat "$drop/mine.$fmt" >/dev/null 2>&1 \
		&& [ -z "$(ls -A "$drop" | grep '\.tmp$')" ]; then
		pass "attack report: --$fmt FILE of a private class is 0600 (the student cannot read it), no temporary file left"
	else
		fail "attack report: --$fmt FILE: exit $code, $(stat -c %a:%u "$drop/mine.$fmt" 2>&1): $out"
	fi
done
rm -f "$drop/mine.html"; ln -s "$tmp/bashrc" "$drop/mine.html"   # a link only its target's owner could have made
out=$(rep "$tmp/lab" --html "$drop/mine.html" 2>&1); [ $? = 1 ] && cmp -s "$tmp/bashrc" "$tmp/bashrc.orig" \
	&& pass "attack report: any link at the target is refused, even the instructor's own" || fail "attack report: own link: $out"

# 3. The flood: 400 000 junk entries (a tmpfs, made by the student) and four honest students.
mkdir "$tmp/flood"
if mount -t tmpfs -o size=256m,nr_inodes=600000,mode=3773 tmpfs "$tmp/flood" 2>/dev/null; then :; else chmod 3773 "$tmp/flood"; fi
cp -r tests/fixtures/course "$tmp/flab"; rmdir "$tmp/flab/results" 2>/dev/null; rm -rf "$tmp/flab/results"
sed -i "s|^results:.*|results: $tmp/flood|" "$tmp/flab/course.yaml"
grep -q "^results:" "$tmp/flab/course.yaml" || echo "results: $tmp/flood" >>"$tmp/flab/course.yaml"
$B --lessons $FX course init "$tmp/flab" >/dev/null 2>&1
# three students write before the flood, one after (a tmpfs lists the newest first: the junk
# stands between the reader and the first three)
honest() { as $1 sh -c "umask 027; echo '$(rec $now $1 demo/scale slow false 0.5)' >'$tmp/flood/$1-s$1.jsonl'"; }
for u in 2001 2002 2003; do honest $u; done
start=$(date +%s)
as 2002 sh -c "cd '$tmp/flood' && seq -f 'junk%.0f' 1 400000 | xargs touch && printf 'a\033]52;c;eA==\007b' | xargs -0 touch"
made=$(( $(date +%s) - start ))
honest 2004
start=$(date +%s)
out=$(rep "$tmp/flab" 2>&1); code=$?
took=$(( $(date +%s) - start ))
if [ $code = 0 ] && printf '%s' "$out" | grep -q "^4 students"; then
	pass "attack report: 400 000 junk entries (made in $made s) and four honest students: all four listed ($took s)"
else
	fail "attack report: the flood: exit $code after $took s: $(printf '%s' "$out" | head -12)"
fi
printf '%s' "$out" | grep -Eq "^cudaclimb: 400001 entries in .* left out: not named UID-USER.jsonl .*: '(junk[0-9]+|a\?\]52;c;eA==\?b)', .* and 399998 more$" \
	&& ! printf '%s' "$out" | grep -q "$(printf '\033')" \
	&& pass "attack report: the notice counts the junk by reason, with example names without control characters" \
	|| fail "attack report: the flood's notice: $(printf '%s' "$out" | grep left | od -c | head -5)"

# 4. Issue #51: a record dropped names its file and line.
as 2002 sh -c "echo 'not json' >>'$R/2002-mallory.jsonl'"
out=$(rep "$tmp/lab" 2>&1)
printf '%s' "$out" | grep -q "1 record dropped: not a record .*: 2002-mallory.jsonl line 4$" \
	&& pass "attack report: a dropped record names its file and line" || fail "attack report: dropped record: $out"
