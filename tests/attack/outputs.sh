# What a student's bytes can do to what another reads: a results file named to forge a second file in
# report's notices ("2001-x.jsonl line 1, 2003-uid2003.jsonl": uid 2003 framed for a forged record), a
# file name with a bidi override (U+202E: the notice reads reversed), a forged pass counted as a pass in
# report's passed column ("1/1", not "1/1 (1 claimed)"), and a kernel with bytes that are not UTF-8 and
# a bidi override quoted by NVRTC in a compile log (try --json must stay JSON; the terminal must get
# neither). The students are played with setpriv (root only, else SKIP); the compile log needs no GPU
# (the fake worker, tests/fake_worker.c, stands in for one).
. tests/lib.sh
attack_tree outputs
ROOT=$(pwd)
RLO=$(printf '\342\200\256')
mkdir -p "$T/course"
cat >"$T/course/course.yaml" <<EOF
course: rt_outputs
title: "outputs"
exercises: [ bandwidth/coalesced ]
results: results
EOF
chmod -R a+rX "$T/course"
if [ "$(id -u)" != 0 ] || ! command -v setpriv >/dev/null; then
	skip "outputs: report's notices: needs root and setpriv to play two students"
elif ! out=$($B course init "$T/course" --group 0 2>&1); then
	fail "outputs: course init: $out"
else
	R=$T/course/results
	rec='{"time": 1700000000, "uid": 2003, "exercise": "bandwidth/coalesced", "verdict": "passed", "passed": true, "at_lesson_size": true, "ratio": 1.2}'
	setpriv --reuid=2001 --regid=2001 --clear-groups sh -c "printf '%s\n' '$rec' >'$R/2001-x.jsonl line 1, 2003-uid2003.jsonl'; printf 'x\n' >'$R/2001-${RLO}lnosj.3002-a.jsonl'"
	err=$(timeout 20 $B report "$T/course" 2>&1 >/dev/null)
	if printf '%s\n' "$err" | grep -q ', 2003-uid2003.jsonl line 1'; then
		fail "outputs: a file name forges a second file (uid 2003's) in report's dropped records"; printf '%s\n' "$err" | sed 's/^/    /'
	elif ! printf '%s\n' "$err" | grep -q 'naming another uid.*2001-x'; then
		fail "outputs: report does not name the file with the forged record"; printf '%s\n' "$err" | sed 's/^/    /'
	else pass "outputs: a file name cannot pass for two files (another student's) in report's notices"; fi
	if printf '%s\n' "$err" | grep -q "$RLO"; then fail "outputs: a bidi override in a file name reaches the terminal through report"
	else pass "outputs: a bidi override in a file name is not written by report"; fi
	# a forged pass is a claim: the row's count of passes must not read as a pass
	own='{"time": 1700000000, "uid": 2002, "exercise": "bandwidth/coalesced", "verdict": "passed", "passed": true, "at_lesson_size": true, "ratio": 99}'
	setpriv --reuid=2002 --regid=2002 --clear-groups sh -c "printf '%s\n' '$own' >'$R/2002-uid2002.jsonl'"
	row=$(timeout 20 $B report "$T/course" 2>/dev/null | grep '^uid2002 ')
	if printf '%s\n' "$row" | grep -q ' 1/1 (1 claimed) '; then pass "outputs: report's passed column counts a forged pass as claimed, not passed"
	else fail "outputs: report's row of a student with a forged pass: $row"; fi
fi

# the compile log of a kernel with a stray byte, a C1 control and a bidi override
cuda=${CUDA_HOME:-/usr/local/cuda}
if ! command -v python3 >/dev/null; then skip "outputs: try --json: python3 is missing to read the JSON"
elif ! cc -std=c11 -D_GNU_SOURCE -I"$ROOT/src/core" -I"$ROOT/src/lesson" -I"$ROOT/src/engine" -I"$ROOT/src/runner" -I"$ROOT/src/worker" -I"$cuda/include" \
	"$ROOT/tests/fake_worker.c" "$ROOT/src/core/result.c" "$ROOT/src/core/util.c" -o "$T/fake" 2>"$T/cc.log"; then
	skip "outputs: try --json: the fake worker does not build here: $(head -1 "$T/cc.log")"
else
	printf 'extern "C" __global__ void saxpy_coalesced(const float *x) { int a = 1 \200\300\302\233[2J \342\200\256; }\n' >"$T/bad.cu"
	CUDACLIMB_WORKER=$T/fake CC_FAKE=ok timeout 60 $B --lessons "$L" --work "$T/work" try "$EX" "$T/bad.cu" --json >"$T/out.json" 2>"$T/err.txt"
	if ! grep -q 'unrecognized token' "$T/out.json"; then skip "outputs: try --json: NVRTC did not quote the line here"
	elif python3 -c 'import json, sys; json.load(open(sys.argv[1], encoding="utf-8"))' "$T/out.json" 2>"$T/py.txt"; then
		pass "outputs: try --json stays JSON (UTF-8) when the compile log quotes bytes that are not UTF-8"
	else fail "outputs: try --json is not JSON: $(tail -1 "$T/py.txt")"; fi
	CUDACLIMB_WORKER=$T/fake CC_FAKE=ok timeout 60 $B --lessons "$L" --work "$T/work" try "$EX" "$T/bad.cu" >"$T/out.txt" 2>&1
	if grep -q "$RLO" "$T/out.txt" || grep -q "$(printf '\302\233')" "$T/out.txt"; then
		fail "outputs: try writes the compile log's bidi override or C1 control to the terminal"
	else pass "outputs: try's compile log reaches the terminal without bidi overrides or C1 controls"; fi
fi
