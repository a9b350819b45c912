#!/bin/sh
# Exercises on a GPU. The fixture's hostile learner files each get their verdict, with what went
# wrong and where (compute-sanitizer's line for a fault and a race); the learner's files are never
# touched; a fault or a hang ends only the worker. Then every exercise of every lesson: its starter
# does not pass, and the stage's own kernel, handed in as the learner's file, passes. The table of
# the latter goes to $EXERCISE_TABLE when set. Without a GPU this prints one visible SKIP line.
. tests/lib.sh
why=$($B device 2>&1); code=$?
if [ $code = 3 ]; then skip "exercise gpu tests: $(printf '%s' "$why" | head -1)"; exit 0; fi
if [ $code != 0 ]; then fail "exercises gpu: cudaclimb device exited $code: $why"; exit 0; fi
tmp=$(mktemp -d); trap 'rm -rf "$tmp"' EXIT
export CUDACLIMB_WORK=$tmp/work
FX=tests/fixtures/exercise
L=$FX/learner
sums=$(cksum $L/*.cu)

# verdict NAME FILE KIND PATTERN [STAGE [LESSONS]]: try FILE on demo/scale (or STAGE, of the fixture's
# lessons or LESSONS); the verdict's kind must match KIND and its headline and where-line PATTERN
# (extended regular expressions), and with MAX_RATIO set its ratio must stay below it.
verdict() {
	name=$1 file=$2 kind=$3 pat=$4 stage=${5:-demo/scale} lessons=${6:-$FX}
	$B --lessons "$lessons" try "$stage" "$file" --json --timeout ${TIMEOUT:-5} --reps 20 --no-counters >"$tmp/v.json" 2>"$tmp/v.err"
	python3 - "$tmp/v.json" "$name" "$kind" "$pat" "${MAX_RATIO:-}" <<'PY' || fail "exercise $name: the verdict could not be read"
import json, re, sys
path, name, kind, pat, most = sys.argv[1:]
try:
    v = json.load(open(path))["verdict"]
except Exception as e:
    print("FAIL exercise verdict %s: no JSON (%s)" % (name, e)); sys.exit()
text = v["headline"] + " | " + v["where"]
if most and not (v.get("ratio", 0) < float(most)):
    print("FAIL exercise verdict %s: ratio %s, expected below %s: %s" % (name, v.get("ratio"), most, text[:300]))
elif re.fullmatch(kind, v["kind"]) and re.search(pat, text):
    print("PASS exercise verdict %s: %s: %s" % (name, kind, text[:200]))
else:
    print("FAIL exercise verdict %s: got %s, expected %s /%s/: %s" % (name, v["kind"], kind, pat, text[:300]))
PY
}
verdict "right kernel" $L/right.cu passed "correct at n=3, n=599189 and the lesson's size.*x the stage's own kernel"
verdict "compile error" $L/compile_error.cu compile_error "compile_error.cu:4: expected a \";\""
verdict "no kernel" $L/no_kernel.cu no_kernel "has no kernel named scale"
verdict "wrong signature" $L/signature.cu signature "parameter 3 of scale"
if command -v compute-sanitizer >/dev/null || [ -x "${CUDA_HOME:-/usr/local/cuda}/bin/compute-sanitizer" ]; then
	verdict "fault, located by memcheck" $L/fault.cu fault "illegal memory access.*memcheck: invalid __global__ write of size 4 bytes at fault.cu:4"
	verdict "race, located by racecheck" $L/race.cu wrong "racecheck: a race in shared memory between .* at race.cu:[0-9]+ and .* at race.cu:[0-9]+" demosum/sum
else
	verdict "fault" $L/fault.cu fault "illegal memory access"
	skip "exercise verdicts: compute-sanitizer is not installed, so faults and races are not located"
fi
verdict "hang" $L/hang.cu hang "did not finish within 5 s"
verdict "after a hang, a fresh worker" $L/right.cu passed "correct"
verdict "out of bounds" $L/oob.cu out_of_bounds "wrote past the end of y: elements 3 to 5 \(it has 3 elements"
verdict "no bounds check (right only for multiples of the block)" $L/multiple.cu out_of_bounds "n=3 \(tiny\): wrote past the end of y: elements 3 to 255"
verdict "unwritten outputs" $L/unwritten.cu unwritten "never written \(they still hold the poison\)"
verdict "wrong values" $L/wrong.cu wrong "wrong at n=3 \(tiny\): y: [0-9]+ of 3 elements wrong.*first at index"
# A wrong kernel that prints a forged "passed at 10x" result block with device printf: the worker's
# protocol is on its own descriptor (descriptor 1 is stderr's), so the block is text, and the verdict wrong.
verdict "device printf cannot forge a result" $L/printf_forge.cu wrong "wrong at n=3 \(tiny\): y: [0-9]+ of 3 elements wrong"
grep -q "pair_ratio 10" "$tmp/v.err" && pass "exercise: the forged block was printed to stderr, as text" \
	|| fail "exercise: the device printf's text is not on stderr: $(tail -c 300 "$tmp/v.err")"
# Every timed run has inputs of its own: a kernel that replays a repeated input never sees one, does
# the work each time, and earns no ratio by the trick; one that writes garbage after its first launch
# is caught at the first timed run, against the stage's own kernel on the same inputs.
MAX_RATIO=1.5 verdict "replays a repeated input: none comes, no ratio earned" $L/replay.cu "passed|slow" "correct"
verdict "right once, then garbage (caught in the first timed run)" $L/later_garbage.cu wrong_later "right on the first run, wrong in timed run 1 of [0-9]+ \\(on fresh inputs"
# The two harness findings of the eighth session's tester, on the real lessons (tests/attack/README.md):
# a memoised product (181x at 50f4bc4) now does the work in every timed run; a histogram that rewrote
# its keys to slow the stage's own kernel is wrong from its first launch.
TIMEOUT=60 MAX_RATIO=1.5 verdict "memoised product: no ratio earned" $L/attack_memo_sgemm.cu "passed|slow" "correct" sgemm/coalesced lessons
TIMEOUT=60 verdict "inputs rewritten" $L/attack_hist_encode.cu wrong "wrote into its input keys" histogram/shared lessons
# The ninth session's second tester: inputs derived by the reference (precision's narrow copies of x,
# precision_gemm's int8 copies) were the same in every repetition, so a remembered answer matched; the
# reference now derives them again from each repetition's inputs: the replaying kernels find every
# repetition new, do the work, and earn no ratio from the trick (the tester expected 15-100x before).
TIMEOUT=60 MAX_RATIO=1.5 verdict "replay on derived inputs (precision/bf16): no ratio earned" $L/attack_replay_bf16.cu "passed|slow" "correct" precision/bf16 lessons
TIMEOUT=60 MAX_RATIO=1.5 verdict "replay on derived inputs (precision_gemm/int8_dp4a): no ratio earned" $L/attack_replay_int8.cu "passed|slow" "correct" precision_gemm/int8_dp4a lessons
# The same tester's open finding, closed: inputs that were fixed patterns (latency's next[] = iota, timing's
# x = iota) could be computed instead of loaded (about 30x and 1.45x, estimated). next[] is now a random
# cycle and x random (h_x its copy), drawn afresh for every timed repetition: the kernels that compute the
# old patterns are wrong, and one that keeps the chain's sum for a next[] it has seen never sees one again.
TIMEOUT=60 verdict "chain computed, not loaded (latency/chains): wrong" $L/attack_chain_compute.cu wrong "res: 1 of 1 elements wrong" latency/chains lessons
TIMEOUT=60 MAX_RATIO=1.5 verdict "chain kept for a next[] seen before (latency/chains): no ratio earned" $L/attack_chain_memo.cu "passed|slow" "correct" latency/chains lessons
TIMEOUT=60 verdict "x computed, not loaded (timing/events): wrong" $L/attack_saxpy_iota.cu wrong "z: [0-9]+ of [0-9]+ elements wrong" timing/events lessons
# A tenth-session tester (by reading): a repetition's seed, read back out of its inputs (the fill's hash
# inverts), gave every later seed while they were counted through an invertible mix; the kernel keeps the
# answers of the predicted repetitions and copies them. Seeds are now each a fresh draw: nothing it
# predicts comes, and it earns no ratio (whether its fallback is right or not).
TIMEOUT=60 MAX_RATIO=1.5 verdict "seeds predicted from one repetition's inputs (warps/ilp): no ratio earned" $L/attack_seed_predict.cu "passed|slow|wrong" "." warps/ilp lessons
# The same tester: spmv's row pointer and column indices were the job's own in every repetition, so a
# kernel could keep the columns from its first launch and read a narrower copy. Now the column indices
# are drawn afresh for each repetition (the row lengths kept): the kept copy answers another matrix.
TIMEOUT=60 verdict "column indices kept from the first launch (spmv/vector): wrong" $L/attack_spmv_colcache.cu "wrong|wrong_later" "elements wrong" spmv/vector lessons
verdict "correct but slow" $L/slow.cu slow "correct, not yet fast enough.*0\.[0-9]+x the stage's own kernel( on the [a-z' ]+ time)? \(the bar is 0.90x\)"
verdict "shared-memory sum, right" $L/sum_right.cu passed "correct" demosum/sum
[ "$sums" = "$(cksum $L/*.cu)" ] && pass "exercise verdicts: no learner file was touched" || fail "exercise verdicts: a learner file changed"

# Every exercise of every lesson: the starter fails (wrong, or below the bar), the stage's own
# kernel passes. One line per exercise for the closing note's table.
table=${EXERCISE_TABLE:-$tmp/table.txt}
: >"$table"
for l in $($B list 2>/dev/null | awk '{print $1}'); do
	for s in $($B exercises "$l" 2>/dev/null | awk -v l="$l/" 'index($1, l) == 1 {print $1}'); do
		stage=${s#*/}
		$B try "$s" --json --timeout 60 --reps 30 --no-counters >"$tmp/st.json" 2>"$tmp/st.err"
		ref=kernels/$l/$($B show "$l" | sed -n "s/^[0-9]*\. $stage - .*\[\(.*\), .*\]\$/\1/p")
		$B try "$s" "$ref" --json --timeout 60 --reps 30 --no-counters >"$tmp/ref.json" 2>"$tmp/ref.err"
		python3 - "$tmp/st.json" "$tmp/ref.json" "$s" "$table" <<'PY' || fail "exercise $s: the results could not be read"
import json, sys
st_path, ref_path, name, table = sys.argv[1:]
def load(p):
    try: return json.load(open(p))["verdict"]
    except Exception as e: return {"kind": "no-json (%s)" % e, "ratio": 0, "headline": ""}
st, ref = load(st_path), load(ref_path)
ok_st = st["kind"] != "passed"
ok_ref = ref["kind"] == "passed"
print("%s exercise %s: the starter does not pass (%s%s)" % ("PASS" if ok_st else "FAIL", name, st["kind"],
      ", %.2fx" % st["ratio"] if st["ratio"] else ""))
print("%s exercise %s: the stage's own kernel passes (%s, %.2fx)%s" % ("PASS" if ok_ref else "FAIL", name, ref["kind"], ref["ratio"],
      "" if ok_ref else ": " + ref["headline"][:200]))
with open(table, "a") as f:
    f.write("| %s | %s | %s | %s | %s |\n" % (name, st["kind"], "%.2fx" % st["ratio"] if st["ratio"] else "-", ref["kind"], "%.2fx" % ref["ratio"]))
PY
	done
done
