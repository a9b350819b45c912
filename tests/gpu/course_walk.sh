#!/bin/sh
# The example course walked end to end on a GPU (issue 15): course init sets up its results folder;
# three students, each a local user of their own when this runs as root (setpriv), try assigned
# exercises with the real tool: alice hands in the stage's own kernel for bandwidth/coalesced and
# passes; bob first tries the starter (not yet), then passes; carol passes reduction/reduce1. Then
# the instructor's report shows each pass, bob's two tries, and nobody's records but their own in
# each file. Without a GPU this prints one visible SKIP line.
. tests/lib.sh
lab_setup "course walk" || exit 0
# the GPU queue folders root's, as a lab's administrator makes them (a student's own would be refused by the others)
[ "$(id -u)" = 0 ] && "$bin" queue init >/dev/null
out=$("$bin" course init "$tmp/course" --group "$(id -g)" 2>&1)   # named: the account may share its primary group
[ $? = 0 ] && pass "course walk: course init ($(printf '%s' "$out" | head -1))" || { fail "course walk: course init: $out"; exit 0; }
if [ "$(id -u)" = 0 ] && command -v setpriv >/dev/null; then
	as() { u=$1; shift; setpriv --reuid="$u" --regid="$u" --clear-groups "$@"; }
	alice=2001 bob=2002 carol=2003 who="3 users"
	# the report names students from the password file: make the three where they are missing
	made=""
	for p in alice:2001 bob:2002 carol:2003; do
		getent passwd "${p#*:}" >/dev/null || { useradd -M -N -u "${p#*:}" "${p%:*}" 2>/dev/null && made="$made ${p%:*}"; }
	done
	trap 'rm -rf "$tmp"; for m in $made; do userdel "$m" 2>/dev/null; done' EXIT
else
	as() { shift; "$@"; }
	alice=$(id -u) bob=$alice carol=$alice who="one user (not root)"
fi
# student UID NAME LESSON/STAGE [FILE]: one try, as that user, in their own workspace; the verdict's kind
student() {
	u=$1 name=$2 ex=$3 file=${4:-}
	h=$tmp/home-$name; mkdir -p "$h"; chown "$u" "$h" 2>/dev/null
	if [ -n "$file" ]; then cp "$file" "$h/mine.cu"; chown "$u" "$h/mine.cu" 2>/dev/null; file=$h/mine.cu; fi
	as "$u" env HOME="$h" USER="$name" LOGNAME="$name" XDG_CACHE_HOME="$h/cache" XDG_STATE_HOME="$h/state" CUDACLIMB_WORK="$h/work" \
		"$bin" --course "$tmp/course" try "$ex" $file --json --reps 30 --no-counters --timeout 60 >"$h/v.json" 2>"$h/v.err"
	python3 -c "import json,sys; print(json.load(open(sys.argv[1]))['verdict']['kind'])" "$h/v.json" 2>/dev/null || echo "no-json: $(tail -2 "$h/v.err")"
}
k=$(student $alice alice bandwidth/coalesced kernels/bandwidth/coalesced.cu)
[ "$k" = passed ] && pass "course walk: alice passes bandwidth/coalesced" || fail "course walk: alice: $k"
k=$(student $bob bob bandwidth/coalesced)
[ "$k" != passed ] && pass "course walk: bob's starter does not pass yet ($k)" || fail "course walk: bob's starter passed"
k=$(student $bob bob bandwidth/coalesced kernels/bandwidth/coalesced.cu)
[ "$k" = passed ] && pass "course walk: bob passes on his second try" || fail "course walk: bob: $k"
k=$(student $carol carol reduction/reduce1 kernels/reduction/reduce1.cu)
[ "$k" = passed ] && pass "course walk: carol passes reduction/reduce1" || fail "course walk: carol: $k"
"$bin" report "$tmp/course" >"$tmp/report.txt" 2>&1
cat "$tmp/report.txt" >"${COURSE_REPORT:-/dev/null}" 2>/dev/null
n1=$(getent passwd $alice | cut -d: -f1); n2=$(getent passwd $bob | cut -d: -f1); n3=$(getent passwd $carol | cut -d: -f1)
grep -Eq "${n1:-user} .*(passed|claimed pass)" "$tmp/report.txt" && grep -Eq "${n2:-user} .*(passed|claimed pass)" "$tmp/report.txt" && grep -Eq "${n3:-user} .*(passed|claimed pass)" "$tmp/report.txt" \
	&& pass "course walk: the report shows the three passes ($who)" || fail "course walk: the report: $(head -20 "$tmp/report.txt")"
"$bin" report "$tmp/course" --json >"$tmp/r.json" 2>/dev/null
python3 - "$tmp/r.json" $alice $bob <<'PY' || fail "course walk: the class report could not be read"
import json, sys
d = json.load(open(sys.argv[1]))
s = {x["uid"]: x["exercises"] for x in d["students"]}
alice, bob = int(sys.argv[2]), int(sys.argv[3])
b = s.get(bob, {}).get("bandwidth/coalesced", {})
a = s.get(alice, {}).get("bandwidth/coalesced", {})
# as one user (not root) alice's and bob's tries are one student's: three tries
ok = b.get("tries") == (2 if alice != bob else 3) and b.get("status") in ("passed", "claimed") and a.get("best_ratio", 0) > 0.9
print("%s course walk: report --json: bob's tries (%s) then passed, alice's best ratio %s" % ("PASS" if ok else "FAIL", b.get("tries"), a.get("best_ratio")))
PY
n=$(ls "$tmp/course/results" | wc -l)
[ "$who" != "3 users" ] || [ "$n" = 3 ] && pass "course walk: one results file per student ($n)" || fail "course walk: $n results files: $(ls "$tmp/course/results")"
