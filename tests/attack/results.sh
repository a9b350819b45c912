#!/bin/sh
# Attacks on a class's results (issue #30 items 1 and 2): a hostile student (uid 2002) forges
# records ("passed": true, ratio 42, user "carol", another's uid), squats the victim's (uid 2001)
# result name as a file, a folder, a symlink and a FIFO before the victim's first record, plants a
# FIFO and a 200 MB file for the report. Each asserts the safe behaviour within `timeout` and
# `ulimit -v`. A try needs a GPU to judge, so the victim's record is appended the way try appends
# it, by build/tests/test_course append (results_append). Two users need root (setpriv); without it
# the attacks that need them SKIP visibly.
. tests/lib.sh
FX=tests/fixtures/exercise
T=build/tests/test_course
[ -x "$T" ] || make -s "$T" >/dev/null 2>&1
tmp=$(mktemp -d); trap 'rm -rf "$tmp"' EXIT
chmod 755 "$tmp"
cp -r tests/fixtures/course "$tmp/lab"
R=$tmp/lab/results
C() { $B --lessons $FX "$@"; }
VM=4000000   # KiB of address space for a report (the binary maps CUDA's static runtime)

if [ "$(id -u)" != 0 ] || ! command -v setpriv >/dev/null; then
	skip "attack results: a victim and an attacker need root (setpriv) to be two users"
	exit 0
fi
if [ ! -x "$T" ]; then fail "attack results: no $T to append records with"; exit 0; fi
as() { u=$1; shift; setpriv --reuid="$u" --regid="$u" --clear-groups "$@"; }
owner_name() { n=$(getent passwd "$1" | cut -d: -f1); [ -n "$n" ] && echo "$n" || echo "uid$1"; }
C course init "$tmp/lab" >/dev/null 2>&1 || { fail "attack results: course init"; exit 0; }
V=$(owner_name 2001)

# 1. Squatting: the attacker takes the victim's usual name and the next ones first.
as 2002 sh -c "umask 0; : >'$R/2001-$V.jsonl'; mkdir '$R/2001-$V.1.jsonl'; ln -s '$R/2002-x.jsonl' '$R/2001-$V.2.jsonl'; mkfifo '$R/2001-$V.3.jsonl'"
out=$(as 2001 timeout 10 "$T" append "$tmp/lab" demo/scale 2>&1); code=$?
[ $code = 0 ] && pass "attack results: a squatted name (file, folder, symlink, FIFO) does not stop the victim's record" \
	|| fail "attack results: squatted: exit $code: $out"
f=$(find "$R" -maxdepth 1 -user 2001 -type f -name '2001-*.jsonl' | head -1)
[ -n "$f" ] && [ "$(stat -c %h "$f")" = 1 ] && grep -q '"sha256": "' "$f" && pass "attack results: the victim's record is in a fresh file of their own, with its source's SHA-256" \
	|| fail "attack results: no victim's file ($f)"
[ ! -s "$R/2001-$V.jsonl" ] && [ ! -e "$R/2002-x.jsonl" ] && pass "attack results: nothing written to the squatter's file or through the symlink" \
	|| fail "attack results: the squatter's file or the link's target was written"
# A symlink named for the victim, to the victim's own file: read through it, the victim's records
# would count twice (the target is the victim's, one link). The report leaves it out as a link.
# (Counted: the report names only the first three files of a reason.)
forged() { printf '%s' "$1" | sed -n 's/^cudaclimb: \([0-9]*\) files* in .* left out: not owned by the student named in it, a link, or not a regular file.*/\1/p'; }
n0=$(forged "$( (ulimit -v $VM; timeout 20 $B --lessons $FX report "$tmp/lab") 2>&1)")
as 2002 ln -s "$f" "$R/2001-$V.9.jsonl"
out=$( (ulimit -v $VM; timeout 20 $B --lessons $FX report "$tmp/lab") 2>&1); code=$?
as 2002 rm -f "$R/2001-$V.9.jsonl"
[ $code = 0 ] && [ -n "$n0" ] && [ "$(forged "$out")" = $((n0 + 1)) ] \
	&& pass "attack results: a symlink to the victim's own file, named for the victim, is left out (its records would count twice)" \
	|| fail "attack results: a symlink to the victim's file: exit $code, links and forgeries left out before: '$n0': $out"
# The same with a hard link: one made by another student on a box without protected_hardlinks (root
# makes it here, as such a box would let the attacker). The file is the victim's own with two links:
# it is read once, by its inode (its records do not count twice), and the second name is left out;
# leaving out both names would let any classmate hide all of a student's records with a link kept
# anywhere on the file system (tests/attack/hardlink.sh).
ln "$f" "$R/2001-$V.9.jsonl"
out=$( (ulimit -v $VM; timeout 20 $B --lessons $FX report "$tmp/lab") 2>&1); code=$?
rm -f "$R/2001-$V.9.jsonl"
[ $code = 0 ] && [ -n "$n0" ] && [ "$(forged "$out")" = $((n0 + 1)) ] && printf '%s' "$out" | grep -q "^1 students" \
	&& pass "attack results: a hard link to the victim's own file is read once, the second name left out" \
	|| fail "attack results: a hard link to the victim's file: exit $code, left out before: '$n0': $out"
# the FIFO with a reader held open by the attacker: the victim still does not block
as 2002 sh -c "exec 3<>'$R/2001-$V.3.jsonl'; sleep 8" & holder=$!
sleep 0.3
out=$(as 2001 timeout 10 "$T" append "$tmp/lab" demo/scale 2>&1); code=$?
kill $holder 2>/dev/null; wait $holder 2>/dev/null
[ $code = 0 ] && pass "attack results: a FIFO held open under the victim's name does not block the record" || fail "attack results: FIFO held: exit $code: $out"

# 2. Forged records: a pass with ratio 42, named carol, and one in the victim's uid.
now=$(date +%s)
as 2002 sh -c "umask 027; printf '%s\n' '{\"time\": $now, \"user\": \"carol\", \"uid\": 2002, \"exercise\": \"demo/scale\", \"verdict\": \"passed\", \"passed\": true, \"at_lesson_size\": true, \"ratio\": 42, \"bar\": 0.9}' \
'{\"time\": $now, \"user\": \"carol\", \"uid\": 2001, \"exercise\": \"demosum/sum\", \"verdict\": \"passed\", \"passed\": true, \"at_lesson_size\": true, \"ratio\": 42}' \
'{\"time\": $now, \"user\": \"dave\", \"uid\": 2002, \"exercise\": \"demo/scale\", \"verdict\": \"passed\", \"passed\": true, \"at_lesson_size\": true, \"ratio\": 1e999}' >'$R/2002-mallory.jsonl'"
out=$( (ulimit -v $VM; timeout 20 $B --lessons $FX report "$tmp/lab") 2>&1); code=$?
[ $code = 0 ] && ! printf '%s' "$out" | grep -q carol && ! printf '%s' "$out" | grep -q dave && printf '%s' "$out" | grep -q "^2 students" \
	&& pass "attack results: a forged name is not believed: one row per uid, named by the file's owner" || fail "attack results: forged names: exit $code: $out"
printf '%s' "$out" | grep -q "1 record dropped: naming another uid" && printf '%s' "$out" | grep -q "1 record dropped: with a field out of bounds" \
	&& pass "attack results: the report says how many records it dropped and why" || fail "attack results: no drop notice: $out"
out=$( (ulimit -v $VM; timeout 60 $B --lessons $FX report "$tmp/lab" --verify --json) 2>/dev/null); code=$?
printf '%s' "$out" | python3 -c "
import json, sys
d = json.load(sys.stdin)
m = {s['uid']: s['exercises'] for s in d['students']}
assert not m[2002]['demo/scale']['passed'] and m[2002]['demo/scale']['status'] in ('claimed', 'refuted') and m[2002]['demo/scale']['verified'] in ('unverified', 'refuted')
assert m[2001]['demosum/sum']['status'] == 'none'
" && pass "attack results: the forged pass is never verified (report --verify: exit $code)" || fail "attack results: --verify --json: exit $code: $out"

# 3. A FIFO and a 200 MB file for the report: it ends, in bounded time and memory, and says so.
as 2002 mkfifo "$R/2002-trap.jsonl"
as 2002 sh -c "head -c 209715200 /dev/zero | tr '\0' ' ' >'$R/2002-big.jsonl'"
start=$(date +%s)
out=$( (ulimit -v $VM; timeout 20 $B --lessons $FX report "$tmp/lab") 2>&1); code=$?
[ $code = 0 ] && pass "attack results: a FIFO and a 200 MB file in the folder: the report ends ($(( $(date +%s) - start )) s)" || fail "attack results: report with FIFO: exit $code: $out"
printf '%s' "$out" | grep -q "larger than 8 MiB (not read)" && pass "attack results: the 200 MB file is skipped with a notice" || fail "attack results: no notice of the big file: $out"
rm -f "$R/2002-big.jsonl"
# a file just under the cap of valid records is read, in bounded memory
line="{\"time\": $now, \"uid\": 2002, \"exercise\": \"demo/scale\", \"verdict\": \"slow\", \"passed\": false, \"at_lesson_size\": true, \"ratio\": 0.5, \"device\": \"$(printf '%090d' 0)\"}"
as 2002 sh -c "yes '$line' | head -c 8300000 | head -n -1 >'$R/2002-full.jsonl'"
out=$( (ulimit -v $VM; timeout 30 $B --lessons $FX report "$tmp/lab" --json) 2>/dev/null); code=$?
n=$(wc -l <"$R/2002-full.jsonl")
printf '%s' "$out" | python3 -c "
import json, sys
d = json.load(sys.stdin)
t = [s for s in d['students'] if s['uid'] == 2002][0]['exercises']['demo/scale']['tries']
assert t >= min(int(sys.argv[1]), 20000), t   # RESULTS_RECORDS_MAX a file
" "$n" && pass "attack results: a file at the size cap ($n lines) is read, up to the cap of records, within ulimit -v $VM KiB" \
	|| fail "attack results: a file at the cap: exit $code"
