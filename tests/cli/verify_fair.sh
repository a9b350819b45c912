#!/bin/sh
# report --verify shares its time budget fairly between students (red team 03): one student writes
# 3000 claimed passes of demo/scale, each a different copy of a kernel that does not compile (so each
# is judged, and refuted, at a compile's cost), in a file named so that the folder lists it before the
# victim's; the victim has one genuine pass. The flooder has the lower uid, so goes first in any order
# by student. Before the fix the claims were judged in the folder's order and the victim's pass was left
# unverified when CUDACLIMB_VERIFY_BUDGET ran out; now the students take turns, so the victim's pass is
# verified within a budget of 3 s while most of the flood is left unjudged. The flooder's 200 genuine
# passes of demosum/sum cost one judgement: once one is verified the rest are not needed. No GPU: the
# runs go to the fake worker (tests/fake_worker.c), which passes whatever compiles.
. tests/lib.sh
FX=tests/fixtures/exercise
if [ "$(id -u)" != 0 ]; then skip "verify fair: two students' results files need root (chown)"; exit 0; fi
tmp=$(mktemp -d); trap 'rm -rf "$tmp"' EXIT
cuda=${CUDA_HOME:-/usr/local/cuda}
if ! cc -std=c11 -D_GNU_SOURCE -Isrc/core -Isrc/lesson -Isrc/engine -Isrc/runner -Isrc/worker -Isrc/app -I$cuda/include tests/fake_worker.c src/core/result.c src/core/util.c -o "$tmp/fake" 2>"$tmp/cc.log"; then
	fail "verify fair: the fake worker did not build: $(head -3 "$tmp/cc.log")"; exit 0
fi
cp -r tests/fixtures/course "$tmp/lab"
$B --lessons $FX course init "$tmp/lab" --group "$(id -g)" >/dev/null 2>&1 || { fail "verify fair: course init"; exit 0; }
# The flooder (uid 2001) and the victim (uid 2003). The folder's order is the file system's: learn it in
# a scratch folder beside the results and name the flood's file so that it comes before the victim's.
if ! timeout 60 python3 - "$tmp/lab" $FX/learner <<'PY' >"$tmp/py.out" 2>"$tmp/py.log"; then
import base64, hashlib, json, os, shutil, sys
lab, learner = sys.argv[1], sys.argv[2]
res, victim = lab + '/results', '2003-victim.jsonl'
scratch = lab + '/scratch'
os.makedirs(scratch)
for name in [victim] + ['2001-flood%d.jsonl' % i for i in range(64)]: open(os.path.join(scratch, name), 'w').close()
order = os.listdir(scratch); shutil.rmtree(scratch)
before = order[:order.index(victim)]
flood = before[0] if before else '2001-flood0.jsonl'
def rec(uid, exercise, src, t):
    return json.dumps({"time": t, "user": "x", "uid": uid, "exercise": exercise, "verdict": "passed", "passed": True,
        "at_lesson_size": True, "ratio": 1.2, "bar": 0.9, "device": "H100", "source_hash": "ab",
        "sha256": hashlib.sha256(src).hexdigest(), "source": base64.b64encode(src).decode()}) + "\n"
def put(name, uid, lines):
    p = os.path.join(res, name)
    with open(p, 'w') as f: f.write(''.join(lines))
    os.chmod(p, 0o640); os.chown(p, uid, -1)
bad = open(learner + '/compile_error.cu', 'rb').read()
good = open(learner + '/sum_right.cu', 'rb').read()
put(flood, 2001, [rec(2001, 'demo/scale', bad + b'// %d\n' % i, 1700000000 + i) for i in range(3000)]
    + [rec(2001, 'demosum/sum', good + b'// %d\n' % i, 1700000000 + i) for i in range(200)])
put(victim, 2003, [rec(2003, 'demo/scale', open(learner + '/right.cu', 'rb').read(), 1700000000)])
print(flood, 'before' if before else 'NOT before', victim)
PY
	fail "verify fair: the records were not written: $(tail -2 "$tmp/py.log")"; exit 0
fi
t0=$(date +%s)
out=$(CUDACLIMB_WORKER=$tmp/fake CC_FAKE=ok CC_FAKE_RATIO=1.2 CUDACLIMB_VERIFY_BUDGET=3 XDG_CACHE_HOME=$tmp/cache \
	timeout 60 $B --lessons $FX report "$tmp/lab" --verify --json 2>"$tmp/err")
rc=$? secs=$(( $(date +%s) - t0 ))
cells=$(printf '%s' "$out" | python3 -c "
import json, sys
d = json.load(sys.stdin)
print(' '.join('%s:%s:%s' % (s['uid'], x, e['verified']) for s in d['students'] for x, e in sorted(s['exercises'].items()) if e['status'] != 'none'))" 2>&1)
if [ $rc = 124 ]; then fail "verify fair: report --verify ran past 60 s"
elif [ $rc != 0 ]; then fail "verify fair: report --verify exited $rc"; sed 's/^/    /' "$tmp/err" | tail -4
elif ! grep -q "claimed passes not judged in time and marked unverified: the budget of 3 s" "$tmp/err"; then
	fail "verify fair: the flood did not outlast the budget of 3 s, so this proves nothing (cells: $cells)"
elif ! printf '%s\n' "$cells" | grep -q "2003:demo/scale:verified"; then
	fail "verify fair: the victim's one genuine pass was not verified behind another student's flood ($(cat "$tmp/py.out"); cells: $cells)"
	grep -- '--verify:' "$tmp/err" | sed 's/^/    /'
elif ! printf '%s\n' "$cells" | grep -q "2001:demosum/sum:verified" || ! grep -q "199 claimed passes not judged, as not needed" "$tmp/err"; then
	fail "verify fair: the flooder's genuine demosum/sum passes were not verified once, the other 199 not needed (cells: $cells)"
	grep -- '--verify:' "$tmp/err" | sed 's/^/    /'
elif [ $secs -gt 15 ]; then fail "verify fair: the report took $secs s with a budget of 3 s"
else pass "verify fair: one genuine pass verified behind 3000 claims of another student's, read first, within CUDACLIMB_VERIFY_BUDGET=3 ($secs s)"; fi
