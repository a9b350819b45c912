#!/bin/sh
# report --verify's time budget (issue #45): with a worker that hangs (tests/fake_worker.c, so no GPU
# is needed) and CUDACLIMB_VERIFY_BUDGET=3, two claimed passes with their sources are not judged in
# time: both are marked unverified, stderr says how many and why, and the report ends within the
# budget plus the time a run takes to stop, far from two watchdogs' or compile limits' worth.
. tests/lib.sh
FX=tests/fixtures/exercise
tmp=$(mktemp -d); trap 'rm -rf "$tmp"' EXIT
cuda=${CUDA_HOME:-/usr/local/cuda}
if ! cc -std=c11 -D_GNU_SOURCE -Isrc/core -Isrc/lesson -Isrc/engine -Isrc/runner -Isrc/worker -Isrc/app -I$cuda/include tests/fake_worker.c src/core/result.c src/core/util.c -o "$tmp/fake" 2>"$tmp/cc.log"; then
	fail "verify budget: the fake worker did not build: $(head -3 "$tmp/cc.log")"; exit 0
fi
cp -r tests/fixtures/course "$tmp/lab"
$B --lessons $FX course init "$tmp/lab" --group "$(id -g)" >/dev/null 2>&1 || { fail "verify budget: course init"; exit 0; }
U=$(id -u); [ "$U" = 0 ] && U=2001   # root's tries are not a student's: the file is then uid 2001's
rec() {   # exercise file: a claimed pass carrying the file as its source
	sha=$(sha256sum "$2" | cut -d' ' -f1) src=$(base64 -w0 "$2")
	printf '{"time": %s, "user": "me", "uid": %s, "exercise": "%s", "verdict": "passed", "passed": true, "at_lesson_size": true, "ratio": 1.2, "bar": 0.9, "device": "H100", "source_hash": "ab", "sha256": "%s", "source": "%s"}\n' \
		"$(date +%s)" "$U" "$1" "$sha" "$src"
}
{ rec demo/scale $FX/learner/right.cu; rec demosum/sum $FX/learner/sum_right.cu; } >"$tmp/lab/results/$U-me.jsonl"
chmod 640 "$tmp/lab/results/$U-me.jsonl"; [ "$U" = "$(id -u)" ] || chown $U "$tmp/lab/results/$U-me.jsonl"
t0=$(date +%s)
out=$(CUDACLIMB_WORKER=$tmp/fake CC_FAKE=hang CUDACLIMB_VERIFY_BUDGET=3 XDG_CACHE_HOME=$tmp/cache timeout 60 $B --lessons $FX report "$tmp/lab" --verify --json 2>"$tmp/err")
rc=$? secs=$(( $(date +%s) - t0 ))
if [ $rc = 124 ]; then fail "verify budget: report --verify ran past 60 s"
elif ! grep -q "2 claimed passes not judged in time and marked unverified: the budget of 3 s (CUDACLIMB_VERIFY_BUDGET) ran out" "$tmp/err"; then
	fail "verify budget: no word of the budget (exit $rc)"; sed 's/^/    /' "$tmp/err" | head -8
elif ! printf '%s' "$out" | python3 -c "import json,sys; d=json.load(sys.stdin); c=[e['verified'] for s in d['students'] for e in s['exercises'].values()]; assert c and all(v=='unverified' for v in c), c"; then
	fail "verify budget: the passes not judged are not all unverified in the JSON"
elif [ $secs -gt 15 ]; then fail "verify budget: the report took $secs s with a budget of 3 s"
else pass "verify budget: 2 passes not judged within CUDACLIMB_VERIFY_BUDGET=3 are unverified, said on stderr, in $secs s"; fi

# A verified pass shows the ratio --verify's own run measured, not the record's: the records claim
# 1.2x, the (fake) worker measures 1.37x; the claim stays in the JSON as ratio_claimed.
out=$(CUDACLIMB_WORKER=$tmp/fake CC_FAKE=ok CC_FAKE_RATIO=1.37 XDG_CACHE_HOME=$tmp/cache timeout 60 $B --lessons $FX report "$tmp/lab" --verify 2>"$tmp/err2")
if printf '%s' "$out" | grep -q "passed 1\.37x v" && ! printf '%s' "$out" | grep -q "1\.20x"; then
	pass "verify: a verified pass shows the ratio measured in the instructor's run (1.37x), not the record's (1.20x)"
else
	fail "verify: the verified pass's ratio: $(printf '%s' "$out" | grep -E "x v|x ?" | head -3) $(tail -3 "$tmp/err2")"
fi

# A claimed pass whose source is a few KiB of nested macros that keep NVRTC busy (2^21 empty
# statements: 86 s, a tester's): --verify gives each compile 30 s (CUDACLIMB_COMPILE_S unless set),
# not 120, so one such claim cannot eat a fifth of the budget; like the service's judge, a compile that
# does not finish is a compile error, and the claim refuted.
{ printf '#define E0 ; ;\n'; i=1; while [ $i -le 21 ]; do printf '#define E%d E%d E%d\n' $i $((i - 1)) $((i - 1)); i=$((i + 1)); done
  printf 'extern "C" __global__ void scale(float *y, int n) { E21 }\n'; } >"$tmp/macros.cu"
rec demo/scale "$tmp/macros.cu" >"$tmp/lab/results/$U-me.jsonl"
t0=$(date +%s)
out=$(CUDACLIMB_WORKER=$tmp/fake CC_FAKE=ok XDG_CACHE_HOME=$tmp/cache2 timeout 100 $B --lessons $FX report "$tmp/lab" --verify 2>"$tmp/err3")
secs=$(( $(date +%s) - t0 ))
if grep -q "demo/scale: judged again: compile_error" "$tmp/err3" && grep -q "1 refuted" "$tmp/err3" && [ $secs -lt 60 ]; then
	pass "verify: a claimed source that keeps the compiler busy is stopped at 30 s and refuted, as the service's judge would ($secs s in all)"
else
	fail "verify: the slow compile took $secs s: $(tail -3 "$tmp/err3")"
fi
