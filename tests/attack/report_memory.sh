#!/bin/sh
# A student's flood of valid records against the instructor's report, no GPU needed: two hostile
# students (uids 2002, 2003) each write 32 files of 20 000 minimal valid records, the most the report
# reads of one student (640 000), beside an honest one (uid 2001). The report folds the records into
# its table as it reads them, so that its memory does not grow with them (it kept each record, about
# 335 MB a student, before): the report, --json and --verify each end within `ulimit -v` and a time
# bound generous for a slow machine, and count every record. Then one student (uid 2004) fills their
# 32 files with 640 000 claimed passes, each with its source: half copies of one claim, half a source of
# their own each. --verify keeps a claimed pass until it has judged it, but folds the copies of one
# student, exercise and source into one (it kept every record, about 560 bytes each and its source: out
# of memory within the same ulimit -v before): without a GPU it ends within the limit with every pass
# unverified; with the fake worker and a budget of 3 s it counts all 640 000. Needs root (setpriv) for
# the users.
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

# One student's 640 000 claimed passes with their sources (16 files of one claim copied, 16 of distinct
# sources), in a lab of their own: --verify without a GPU (CUDA_VISIBLE_DEVICES empty) within the limit.
lab2=$tmp/lab2
cp -r tests/fixtures/course "$lab2"
$B --lessons $FX course init "$lab2" >/dev/null 2>&1 || { fail "attack report memory: course init (passes)"; exit 0; }
python3 - "$lab2/results" 2004 "$now" <<'PY' || { fail "attack report memory: the passes were not written"; exit 0; }
import base64, hashlib, json, os, sys
R, uid, now = sys.argv[1], int(sys.argv[2]), int(sys.argv[3])
def rec(src, t):
    return json.dumps({"time": t, "uid": uid, "exercise": "demo/scale", "verdict": "passed", "passed": True, "at_lesson_size": True,
                       "ratio": 1.2, "sha256": hashlib.sha256(src).hexdigest(), "source": base64.b64encode(src).decode()}) + "\n"
same = rec(b"// the same claim\n", now) * 20000
for f in range(32):
    p = '%s/%d-x.%d.jsonl' % (R, uid, f)
    with open(p, 'w') as o: o.write(same if f < 16 else ''.join(rec(b'// %d\n' % (f * 20000 + i), now) for i in range(20000)))
    os.chmod(p, 0o640); os.chown(p, uid, -1)
PY
start=$(date +%s)
out=$(CUDA_VISIBLE_DEVICES= rep "$lab2" --verify 2>&1); code=$?
took=$(( $(date +%s) - start ))
if [ $code = 3 ] && printf '%s\n' "$out" | grep -q "every pass is marked unverified" && printf '%s\n' "$out" | grep -q "^uid2004 *claimed pass 1.20x ?"; then
	pass "attack report memory: --verify over one student's 640 000 claimed passes with sources, no GPU: within ulimit -v $VM KiB ($took s)"
else
	fail "attack report memory: --verify over 640 000 claimed passes: exit $code after $took s (124: over $LIMIT s; 1 or a signal: out of memory): $(printf '%s' "$out" | head -8)"
fi
# ... and judging them, with the fake worker (no GPU needed, no ulimit: NVRTC maps more than it)
cuda=${CUDA_HOME:-/usr/local/cuda}
if cc -std=c11 -D_GNU_SOURCE -Isrc/core -Isrc/lesson -Isrc/engine -Isrc/runner -Isrc/worker -Isrc/app -I$cuda/include tests/fake_worker.c \
	src/core/result.c src/core/util.c -o "$tmp/fake" 2>"$tmp/cc.log"; then
	start=$(date +%s)
	CUDACLIMB_WORKER=$tmp/fake CC_FAKE=ok CUDACLIMB_VERIFY_BUDGET=3 XDG_CACHE_HOME=$tmp/cache timeout $LIMIT $B --lessons $FX report "$lab2" --verify \
		>"$tmp/v.out" 2>"$tmp/v.err"; code=$?
	took=$(( $(date +%s) - start ))
	if [ $code = 0 ] && grep -q -- "--verify: 640000 claimed passes (" "$tmp/v.err" && grep -q "^uid2004 " "$tmp/v.out"; then
		pass "attack report memory: --verify judging 640 000 claimed passes (budget 3 s) ends in $took s: $(grep -o '640000 claimed passes.*' "$tmp/v.err")"
	else
		fail "attack report memory: --verify with the fake worker: exit $code after $took s: $(tail -3 "$tmp/v.err")"
	fi
else
	fail "attack report memory: the fake worker did not build: $(head -3 "$tmp/cc.log")"
fi
