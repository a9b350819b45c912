#!/bin/sh
# The exercise commands on the fixture lessons (tests/fixtures/exercise), with or without a GPU:
# the list and its states, the workspace (a starter copied once, never over the learner's file;
# reset keeps the old file), verdicts that need no GPU (compile error with its line, no kernel, a
# wrong signature) and their exit codes, hints in order and the solution's gate, the progress file
# under two concurrent sessions, JSON, and watch reacting to a save.
. tests/lib.sh
FX=tests/fixtures/exercise
L=$FX/learner
tmp=$(mktemp -d); trap 'rm -rf "$tmp"' EXIT
export CUDACLIMB_WORK=$tmp/work
E() { $B --lessons $FX "$@"; }
if $B device >/dev/null 2>&1; then gpu=1; else gpu=0; fi

expect "exercises: lists the fixture's exercises, none started" 0 "demo/scale +not started .* 0/2 .*y = 2x" E exercises
expect "exercises: names the workspace" 0 "Your workspace: $tmp/work" E exercises
expect "exercises LESSON: only that lesson" 0 "demosum/sum" E exercises demosum
out=$(E exercises demosum); case $out in *demo/scale*) fail "exercises demosum also lists demo/scale";; *) pass "exercises demosum leaves out demo";; esac
expect "exercises: unknown lesson is a usage error" 2 "no lesson 'nope'" E exercises nope
expect "exercises: a lesson in any case, and a misspelling gets a suggestion" 2 "did you mean 'bandwidth'" $B exercises Bandwith
expect "try: a stage without an exercise is a usage error" 2 "has no exercise" $B try bandwidth/strided
expect "try: no operand" 2 "try needs LESSON/STAGE" E try
expect "try: an unknown setting" 2 "no parameter or tunable 'TILE'" E try demo/scale --set TILE=4
expect "try: extra operands" 2 "at most one FILE" E try demo/scale a.cu b.cu
expect "try: a missing file" 2 "no file nothere.cu" E try demo/scale nothere.cu

# The first try copies the starter into the workspace and says where; it compiles, so without a
# GPU the answer is exit 3, and with one the starter is judged (it leaves y unwritten: exit 1).
want=$([ $gpu = 1 ] && echo 1 || echo 3)
expect "try: the first try starts the exercise from the starter" $want "Started demo/scale: your file is $tmp/work/demo/scale.cu" E try demo/scale
check_same() { if cmp -s "$1" "$2"; then pass "$3"; else fail "$3"; fi; }
check_same $FX/kernels/demo/exercises/scale.cu $tmp/work/demo/scale.cu "try: the learner's file is a copy of the starter"
if [ $gpu = 0 ]; then
	expect "try without a GPU: compiles, says what it would check, exit 3" 3 "COMPILED: compiles \(4 registers.*checking and timing need a GPU" E try demo/scale
	expect "try without a GPU: lists the sizes it would check" 3 "checked at n=3 \(tiny\), n=599189 \(odd\), n=4194304 \(lesson size\)" E try demo/scale
else
	expect "try on a GPU: the starter leaves y unwritten" 1 "never written" E try demo/scale
fi
echo "// my work" >>$tmp/work/demo/scale.cu
E try demo/scale >/dev/null 2>&1
if grep -q "// my work" $tmp/work/demo/scale.cu; then pass "try: never overwrites the learner's file"; else fail "try: the learner's file was overwritten"; fi
expect "exercises: the state after a try that compiled" 0 "demo/scale +compiles +compiles" E exercises

# Verdicts that need no GPU: each says what and where, each exits 1, and the file is untouched.
before=$(cksum <$L/compile_error.cu)
expect "try: a compile error names the learner's file and line" 1 "NOT YET: compile error: compile_error.cu:4: expected a \";\"" E try demo/scale $L/compile_error.cu
expect "try: a compile error shows the compiler's output" 1 "compile_error.cu\(4\): error" E try demo/scale $L/compile_error.cu
[ "$before" = "$(cksum <$L/compile_error.cu)" ] && pass "try: the learner's file is not touched" || fail "try: the learner's file changed"
expect "try: no kernel of the stage's name (mangled: extern \"C\" missing)" 1 "no_kernel.cu has no kernel named scale.*_Z5scalePKfPfx.*lacks extern \"C\"" E try demo/scale $L/no_kernel.cu
expect "try: a wrong signature names the parameter" 1 "parameter 3 of scale is an integer or pointer of 4 bytes, but the stage passes an i64 value \(8 bytes\)" E try demo/scale $L/signature.cu
expect "try: a pointer to the wrong element type names the parameter and both types" 1 "pointer_type.cu:2: parameter 1 of scale is a double \*, but the stage passes buffer x of f32 \(float \*\)" E try demo/scale $L/pointer_type.cu
expect "try --json: the verdict kind" 1 '"verdict": \{"kind": "signature", "passed": false' E try demo/scale $L/signature.cu --json
E try demo/scale $L/compile_error.cu --json >$tmp/ce.json 2>/dev/null
if python3 -c "import json,sys; d=json.load(open(sys.argv[1])); assert d['verdict']['kind']=='compile_error'; assert d['checks'][0]['result']['status']=='compile_error'" $tmp/ce.json 2>/dev/null
then pass "try --json: valid JSON with the checks"; else fail "try --json: not valid or not as expected"; head -c 300 $tmp/ce.json; fi
# Control characters in the learner's text never reach the terminal.
printf 'extern "C" __global__ void scale(const float *x, float *y, long long n)\n{\n\t\033]52;c;aGk=\007 \033[2J\n}\n' >$tmp/esc.cu
E try demo/scale $tmp/esc.cu >$tmp/esc.out 2>&1
if grep -q "$(printf '\033')" $tmp/esc.out || grep -q "$(printf '\007')" $tmp/esc.out; then fail "try: an escape sequence from the learner's file reached the output"
else pass "try: control characters in the compile log are shown as '?'"; fi

# Hints, in order, each recorded; the solution opens only after the last one (or a pass).
expect "solution: closed before a pass or the last hint" 1 "opens once you have passed this exercise or seen every hint \(0 of 2" E solution demo/scale
expect "hint: the first" 0 "Hint 1 of 2: Each thread owns one element" E hint demo/scale
expect "exercises: one hint shown" 0 "demo/scale .* 1/2" E exercises
E hint demo/scale >$tmp/hint2.out 2>&1
grep -q "Hint 2 of 2: i = blockIdx.x" $tmp/hint2.out && grep -q "That was the last hint: cudaclimb solution demo/scale" $tmp/hint2.out \
	&& pass "hint: the second, and says it was the last" || { fail "hint: the second"; cat $tmp/hint2.out; }
expect "hint: after the last, the last again" 0 "Hint 2 of 2" E hint demo/scale
expect "solution: after every hint, the diff against the stage's kernel" 0 "\+ +5  	if \(i < n\) y\[i\] = 2.0f \* x\[i\];" E solution demo/scale
# Two labelled number columns (issue #51 item 8): your file's line, the stage's line, blank where a
# line is only in the other file.
expect "solution: the number columns are labelled" 0 "^  yours stage$" E solution demo/scale
expect "solution: a line in both files has both numbers (yours 4, the stage's 2)" 0 "^      4     2  extern \"C\"" E solution demo/scale
expect "solution: a line only in the stage's kernel has only the stage's number" 0 "^\+           5  	if \(i < n\)" E solution demo/scale
expect "solution: a line only in yours has only yours" 0 "^-     6        	// TODO" E solution demo/scale

# reset: the starter again, the learner's file kept; a second reset keeps both backups.
expect "reset: restores the starter and keeps the old file" 0 "is the starter again; your previous file is kept as $tmp/work/demo/scale.cu.1.bak" E reset demo/scale
grep -q "// my work" $tmp/work/demo/scale.cu.1.bak && pass "reset: the backup holds the learner's work" || fail "reset: the backup lacks the learner's work"
check_same $FX/kernels/demo/exercises/scale.cu $tmp/work/demo/scale.cu "reset: the file is the starter"
expect "reset again: a second backup, the first kept" 0 "kept as $tmp/work/demo/scale.cu.2.bak" E reset demo/scale
[ -f $tmp/work/demo/scale.cu.1.bak ] && pass "reset: earlier backups stay" || fail "reset: an earlier backup is gone"

# Two sessions of one learner writing progress at once: no record is lost.
i=0; while [ $i -lt 6 ]; do E hint demosum/sum >/dev/null & E try demo/scale $L/signature.cu >/dev/null 2>&1 & i=$((i + 1)); done; wait
n=$(grep -c '^exercise ' $tmp/work/.progress)
grep -q '^exercise demosum sum .*hints=1' $tmp/work/.progress && grep -q '^exercise demo scale .*hints=2' $tmp/work/.progress && [ "$n" = 2 ] \
	&& pass "progress: concurrent sessions keep every record ($n records)" || { fail "progress: records lost"; cat $tmp/work/.progress; }

# watch: judges the file, then again on every save (a rename over it, as editors do), until a signal (a background job ignores SIGINT, so SIGTERM here).
cp $L/compile_error.cu $tmp/w.cu
$B --lessons $FX watch demo/scale $tmp/w.cu >$tmp/watch.out 2>&1 &   # not through E: $! must be cudaclimb
wp=$!
wait_n() { t=0; while [ $t -lt 100 ] && [ "$(grep -c ') watching ' $tmp/watch.out)" -lt "$1" ]; do sleep 0.1; t=$((t + 1)); done; }
wait_n 1
cp $L/signature.cu $tmp/w.cu.new && mv $tmp/w.cu.new $tmp/w.cu
wait_n 2
printf '\n' >>$tmp/w.cu
wait_n 3
kill -TERM $wp; wait $wp; rc=$?
c=$(grep -c ') watching ' $tmp/watch.out)
[ "$c" -ge 3 ] && pass "watch: a verdict at the start and after each save ($c)" || { fail "watch: $c verdicts, expected 3"; tail -20 $tmp/watch.out; }
grep -q "compile_error.cu:4\|w.cu:4: expected" $tmp/watch.out && grep -q "parameter 3 of scale" $tmp/watch.out \
	&& pass "watch: each save judged afresh (compile error, then signature)" || { fail "watch: verdicts do not follow the saves"; tail -20 $tmp/watch.out; }
[ "$(grep -c 'verdict in [0-9]* ms after the save' $tmp/watch.out)" = 2 ] && pass "watch: says how long each save took to judge" || fail "watch: no save-to-verdict times"
[ "$rc" = 1 ] && pass "watch: ends on SIGTERM with the last verdict's exit code" || fail "watch: exit $rc after SIGTERM"
