#!/bin/sh
# report --verify on a GPU (issue #30 item 1): a course with two students, each a local user when this
# runs as root (setpriv); the honest one hands in the stage's own kernel for bandwidth/coalesced and
# passes; the forger tries the starter (it does not pass), then edits their record to "passed": true,
# ratio 42, keeping the source it carries. report --verify --json judges both again on this GPU and
# must mark the honest pass verified and the forged one refuted. Without a GPU: one visible SKIP.
. tests/lib.sh
lab_setup "verify" || exit 0
"$bin" course init "$tmp/course" --group "$(id -g)" >/dev/null 2>&1 || { fail "verify: course init"; exit 0; }
if [ "$(id -u)" = 0 ] && command -v setpriv >/dev/null; then
	as() { u=$1; shift; setpriv --reuid="$u" --regid="$u" --clear-groups "$@"; }
	honest=2001 forger=2002
else
	skip "verify: two students as two users need root (setpriv)"
	exit 0
fi
"$bin" queue init >"$tmp/queue-init" 2>&1 || { fail "verify: queue init: $(cat "$tmp/queue-init")"; exit 0; }   # as a lab's administrator does
student() {   # UID NAME LESSON/STAGE FILE: one try as that user; the verdict's kind
	u=$1 name=$2 ex=$3 file=$4
	h=$tmp/home-$name; mkdir -p "$h"; chown "$u" "$h" 2>/dev/null
	cp "$file" "$h/mine.cu"; chown "$u" "$h/mine.cu" 2>/dev/null
	as "$u" env HOME="$h" XDG_CACHE_HOME="$h/cache" XDG_STATE_HOME="$h/state" CUDACLIMB_WORK="$h/work" \
		"$bin" --course "$tmp/course" try "$ex" "$h/mine.cu" --json --reps 30 --no-counters --timeout 60 >"$h/v.json" 2>"$h/v.err"
	python3 -c "import json,sys; print(json.load(open(sys.argv[1]))['verdict']['kind'])" "$h/v.json" 2>/dev/null || echo "no-json: $(tail -2 "$h/v.err")"
}
k=$(student $honest honest bandwidth/coalesced kernels/bandwidth/coalesced.cu)
[ "$k" = passed ] && pass "verify: the honest student passes" || fail "verify: honest: $k"
k=$(student $forger forger bandwidth/coalesced kernels/bandwidth/exercises/coalesced.cu)
case $k in slow|wrong) pass "verify: the forger's kernel is judged and does not pass ($k)" ;; *) fail "verify: the forger's kernel: $k (expected slow or wrong)" ;; esac
# the forger edits their own record: passed, ratio 42, the source left as it was judged
R=$tmp/course/results
# (done here as root, in place, so the file stays the forger's: the forger, who cannot list the folder,
# would open it by its name and do the same)
python3 - "$R" "$forger" <<'PY'
import glob, json, os, sys
for p in glob.glob(os.path.join(sys.argv[1], sys.argv[2] + "-*.jsonl")):
    out = []
    for line in open(p):
        r = json.loads(line)
        r.update(passed=True, verdict="passed", ratio=42, at_lesson_size=True)
        out.append(json.dumps(r))
    with open(p, "r+") as f:
        f.write("\n".join(out) + "\n"); f.truncate()
PY
[ "$(stat -c %u "$R/$forger"-*.jsonl 2>/dev/null | head -1)" = "$forger" ] || fail "verify: the forged file is no longer the forger's"
start=$(date +%s)
"$bin" report "$tmp/course" --verify --json >"$tmp/r.json" 2>"$tmp/r.err"; code=$?
took=$(( $(date +%s) - start ))
python3 - "$tmp/r.json" "$honest" "$forger" <<'PY' && pass "verify: report --verify marks the honest pass verified and the forged one refuted (exit $code, ${took} s)" \
	|| fail "verify: exit $code: $(cat "$tmp/r.err" | head -5)"
import json, sys
d = json.load(open(sys.argv[1]))
m = {s['uid']: s['exercises']['bandwidth/coalesced'] for s in d['students']}
h, f = int(sys.argv[2]), int(sys.argv[3])
assert m[h]['passed'] and m[h]['status'] == 'passed' and m[h]['verified'] == 'verified', m[h]
assert not m[f]['passed'] and m[f]['status'] == 'refuted' and m[f]['verified'] == 'refuted', m[f]
PY
grep -q "refuted: .*bandwidth/coalesced" "$tmp/r.err" && pass "verify: the report says which pass it refuted and why" || fail "verify: no refutation line: $(cat "$tmp/r.err")"
