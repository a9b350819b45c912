#!/bin/sh
# Squatting every name of a victim's results file that another student can guess (red team L,
# finding 4): the attacker (uid 2002) takes "2001-USER.jsonl" and ".1" to ".23" before the victim's
# (2001) first try. Before, each later try made a new randomly named file, and the report read only 32
# of a student's files in directory order: the victim's pass vanished from the table and from
# --verify. Now:
#   - the victim's next name comes from a secret in its private state ($XDG_STATE_HOME/cudaclimb/
#     results-key, 0600 in a 0700 folder): 41 tries land in one file, with a name none of the
#     attacker's, and the report shows the first try's pass and all 41 tries;
#   - a student with many files of their own (41 random names, as a victim without a private state
#     folder, or an older cudaclimb, makes them) has all of them read: the cap is 32 full files'
#     bytes and records, not 32 files, so nothing is left out and the pass is shown.
# A try needs a GPU to judge: records are appended the way try appends them (build/tests/test_course
# append, results_append), one process a try. Without root (setpriv): SKIP.
. tests/lib.sh
FX=tests/fixtures/exercise
T=build/tests/test_course
[ -x "$T" ] || make -s "$T" >/dev/null 2>&1
if [ "$(id -u)" != 0 ] || ! command -v setpriv >/dev/null; then
	skip "attack results squat: a victim and an attacker need root (setpriv) to be two users"
	exit 0
fi
if [ ! -x "$T" ]; then fail "attack results squat: no $T to append records with"; exit 0; fi
PY=$(command -v /usr/bin/python3 || command -v python3) || { skip "attack results squat: no python3 to read the report's JSON"; exit 0; }
tmp=$(mktemp -d); trap 'rm -rf "$tmp"' EXIT
chmod 755 "$tmp"
cp -r tests/fixtures/course "$tmp/lab"
R=$tmp/lab/results
VM=4000000   # KiB of address space for a report (the binary maps CUDA's static runtime)
$B --lessons $FX course init "$tmp/lab" >/dev/null 2>&1 || { fail "attack results squat: course init"; exit 0; }
mkdir -m 755 "$tmp/home"
for u in 2001 2002 2003; do mkdir -m 700 "$tmp/home/$u"; chown $u:$u "$tmp/home/$u"; done
# as U CMD...: as user U with a home of its own (its private state there)
as() { u=$1; shift; setpriv --reuid="$u" --regid="$u" --clear-groups env -u XDG_STATE_HOME HOME="$tmp/home/$u" "$@"; }
owner_name() { n=$(getent passwd "$1" | cut -d: -f1); [ -n "$n" ] && echo "$n" || echo "uid$1"; }
# squat U: uid 2002 takes every name of U's it can guess: the first as a file, the others as folders
squat() {
	n=$(owner_name "$1")
	as 2002 sh -c "cd '$R' && : >'$1-$n.jsonl' && k=1 && while [ \$k -le 23 ]; do mkdir '$1-$n.'\$k.jsonl; k=\$((k + 1)); done"
}
# tries U N: U's first try passes demo/scale, then N tries of demosum/sum (one process each)
tries() {
	u=$1 n=$2; shift 2
	"$@" "$T" append "$tmp/lab" demo/scale >/dev/null 2>&1 || fail "attack results squat: uid $u's first record"
	i=0; while [ $i -lt "$n" ]; do "$@" "$T" append "$tmp/lab" demosum/sum >/dev/null 2>&1 || { fail "attack results squat: uid $u's record $i"; break; }; i=$((i + 1)); done
}
# shown U: "STATUS TRIES" of U's demo/scale and demosum/sum in the report's JSON
shown() {
	printf '%s' "$1" | "$PY" -c "
import json, sys
d = json.load(sys.stdin)
m = {s['uid']: s['exercises'] for s in d['students']}
e = m.get(int(sys.argv[1]), {})
print(e.get('demo/scale', {}).get('status', 'none'), e.get('demosum/sum', {}).get('tries', 0))
" "$2" 2>/dev/null
}
left_out() { printf '%s' "$1" | grep "left out: past"; }

# 1. With a private state folder: the victim's 41 tries go into one file of a name nobody can guess.
squat 2001
tries 2001 40 as 2001
mine=$(find "$R" -maxdepth 1 -user 2001 -type f | wc -l)
f=$(find "$R" -maxdepth 1 -user 2001 -type f | head -1)
case "$(basename "$f")" in
2001-*.k[0-9a-f]*.jsonl) named=1 ;;
*) named=0 ;;
esac
[ "$mine" = 1 ] && [ $named = 1 ] && [ "$(grep -c . "$f")" = 41 ] \
	&& pass "attack results squat: behind 24 squatted names, 41 tries of the victim land in one file of its own ($(basename "$f" | sed 's/\.k[0-9a-f]*\./.kHEX./'))" \
	|| fail "attack results squat: the victim has $mine files of its own (expected 1, of a secret name): $(ls "$R" | head -5 | tr '\n' ' ')"
k=$tmp/home/2001/.local/state/cudaclimb/results-key
[ "$(stat -c %u:%a "$k" 2>/dev/null)" = 2001:600 ] && [ "$(stat -c %u:%a "$(dirname "$k")")" = 2001:700 ] \
	&& pass "attack results squat: the secret of the names is in the victim's private state (0600 in a 0700 folder)" \
	|| fail "attack results squat: the victim's key: $(stat -c '%n %u:%a' "$k" "$(dirname "$k")" 2>&1 | tr '\n' ' ')"
out=$( (ulimit -v $VM; timeout 60 $B --lessons $FX report "$tmp/lab" --json -) 2>"$tmp/err"); code=$?
got=$(shown "$out" 2001)
[ $code = 0 ] && [ "$got" = "claimed 40" ] && [ -z "$(left_out "$(cat "$tmp/err")")" ] \
	&& pass "attack results squat: the report shows the victim's pass and all its tries, nothing left out ($got)" \
	|| fail "attack results squat: report: exit $code, victim '$got' (expected 'claimed 40'): $(head -3 "$tmp/err")"

# 2. Without a private state folder (no HOME, no XDG_STATE_HOME): 41 random names, all read.
squat 2003
tries 2003 40 setpriv --reuid=2003 --regid=2003 --clear-groups env -u XDG_STATE_HOME -u HOME
mine=$(find "$R" -maxdepth 1 -user 2003 -type f | wc -l)
out=$( (ulimit -v $VM; timeout 60 $B --lessons $FX report "$tmp/lab" --json -) 2>"$tmp/err"); code=$?
got=$(shown "$out" 2003)
[ $code = 0 ] && [ "$mine" -gt 32 ] && [ "$got" = "claimed 40" ] && [ -z "$(left_out "$(cat "$tmp/err")")" ] \
	&& pass "attack results squat: a student's $mine files of its own are all read: the pass and all tries shown, nothing left out" \
	|| fail "attack results squat: $mine files of uid 2003: report exit $code, '$got' (expected 'claimed 40'): $(left_out "$(cat "$tmp/err")" | head -2)"
