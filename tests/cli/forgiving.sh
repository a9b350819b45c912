#!/bin/sh
# A forgiving command line (#19): stages listed when only a lesson is named, the nearest name
# suggested, names in any case, stage numbers and LESSON STAGE as two operands; and strict where it
# must be: extra operands, fractional values for whole-number settings, unknown architectures, with
# the reason first and no empty table. No GPU needed (a replay answers runs).
. tests/lib.sh
R=tests/tui/fixtures/replay-bandwidth.json
tmp=$(mktemp -d); trap 'rm -rf "$tmp"' EXIT
expect_not() {
	name=$1 want=$2 pat=$3; shift 3
	out=$("$@" 2>&1); got=$?
	if [ "$got" != "$want" ]; then fail "$name: exit $got, expected $want"; printf '%s\n' "$out" | head -20 | sed 's/^/    /'; return; fi
	if printf '%s\n' "$out" | grep -Eq -- "$pat"; then fail "$name: output has /$pat/"; printf '%s\n' "$out" | grep -E -- "$pat" | head -5 | sed 's/^/    /'; return; fi
	pass "$name"
}
# first_line NAME EXIT PATTERN COMMAND...: the first line of the output matches.
first_line() {
	name=$1 want=$2 pat=$3; shift 3
	out=$("$@" 2>&1); got=$?
	if [ "$got" != "$want" ]; then fail "$name: exit $got, expected $want"; printf '%s\n' "$out" | head -5 | sed 's/^/    /'; return; fi
	if printf '%s\n' "$out" | head -1 | grep -Eq -- "$pat"; then pass "$name"; else fail "$name: first line lacks /$pat/"; printf '%s\n' "$out" | head -5 | sed 's/^/    /'; fi
}

# A lesson without a stage lists its stages.
expect "run LESSON: lists its stages" 2 "name a stage: bandwidth/strided, bandwidth/coalesced, bandwidth/gridstride, bandwidth/vectorized" $B run bandwidth
# The nearest name.
expect "misspelt lesson: did you mean" 2 "no lesson 'bandwith'; did you mean 'bandwidth'\?" $B run bandwith/strided
expect "misspelt lesson in show" 2 "no lesson 'trnaspose'; did you mean 'transpose'\?" $B show trnaspose
expect "misspelt lesson in bench" 2 "no lesson 'sgem'; did you mean 'sgemm'\?" $B bench sgem
expect "misspelt stage: did you mean" 2 "no stage 'coalsced' in bandwidth; did you mean 'coalesced'\?" $B run bandwidth/coalsced
expect_not "nothing near: no suggestion" 2 "did you mean" $B run zzzzzzzz/x
# Any case, stage numbers, two operands.
expect "case-insensitive lesson and stage" 0 "^coalesced .* 2890\.0 " $B --replay $R run Bandwidth/COALESCED
expect "case-insensitive show" 0 "^bandwidth - " $B show BandWidth
expect "case-insensitive bench" 0 "^vectorized .* 2990\.0 " $B --replay $R bench BANDWIDTH
expect "a stage by its number" 0 "^coalesced .* 2890\.0 " $B --replay $R run bandwidth/2
expect "a stage number out of range" 2 "no stage 5 in bandwidth: its stages are 1 to 4" $B run bandwidth/5
expect "LESSON STAGE as two operands" 0 "^coalesced .* 2890\.0 " $B --replay $R run bandwidth coalesced
expect "LESSON NUMBER as two operands" 0 "^vectorized .* 2990\.0 " $B --replay $R run Bandwidth 4
expect "two operands for the exercise commands" 0 "Hint 1 of" env CUDACLIMB_WORK=$tmp/work $B --lessons tests/fixtures/exercise hint demo scale
expect "the baseline by name" 0 "^baseline .* 2960\.0 " $B --replay $R run bandwidth/baseline
# Extra operands.
expect "run: an extra operand" 2 "run takes one LESSON/STAGE, not also 'extra'" $B run bandwidth/strided extra
expect "run: LESSON STAGE and an extra operand" 2 "run takes one LESSON/STAGE, not also 'extra'" $B run bandwidth strided extra
expect "bench: an extra operand" 2 "bench takes one LESSON, not also 'extra'" $B bench bandwidth extra
expect "show: an extra operand" 2 "show takes one LESSON, not also 'extra'" $B show bandwidth extra
expect "list: an operand" 2 "list takes no operands, not 'extra'" $B list extra
expect "device: an operand" 2 "device takes no operands, not 'extra'" $B device extra
# Whole numbers.
expect "a fraction for a tunable is refused" 2 "BLOCK takes whole numbers, not 32\.5" $B run bandwidth/coalesced --set BLOCK=32.5
expect "a fraction for a parameter is refused" 2 "n takes whole numbers, not 1000\.5" $B run bandwidth/coalesced --set n=1000.5
expect "a whole float is a whole number" 0 "^coalesced .* 2890\.0 " $B --replay $R run bandwidth/coalesced --set BLOCK=256.0
# A refused setting: the reason first, no empty table.
first_line "run: the refusal comes first" 2 "^cudaclimb: BLOCK = 100 is not allowed for stage coalesced" $B run bandwidth/coalesced --set BLOCK=100
expect_not "run: no table for a refused setting" 2 "^stage +median ms" $B run bandwidth/coalesced --set BLOCK=100
first_line "bench: the refusal comes first" 2 "^cudaclimb: n = 0 is outside its range" $B bench bandwidth --set n=0
expect_not "bench: no table when every stage is refused" 2 "^stage +median ms" $B bench bandwidth --set n=0
expect "bench: one refused stage named, the others run" 3 "^cudaclimb: mma_pipeline: STAGES padded tiles" $B --arch sm_86 bench tensorcore --set STAGES=3
expect_not "bench: the refused stage has no row" 3 "^mma_pipeline " $B --arch sm_86 bench tensorcore --set STAGES=3
expect "bench: the other stages have rows" 3 "^wmma_smem " $B --arch sm_86 bench tensorcore --set STAGES=3
# Unknown architectures are usage errors, for every command.
for cmd in "run bandwidth/coalesced" "bench bandwidth" "show bandwidth" "list" "device" "check"; do
	expect "--arch sm_70: $cmd" 2 "unknown architecture 'sm_70' \(known: sm_75, sm_80, sm_86, sm_89, sm_90, sm_100, sm_103, sm_120" $B --arch sm_70 $cmd
done
expect "--arch sm_70 in a check list, before compiling" 2 "^cudaclimb: unknown architecture 'sm_70'" $B check --arch sm_90,sm_70
expect "--arch sm_90a still works" 3 "no GPU|compiled for --arch" $B run bandwidth/coalesced --arch sm_90a
# The lesson tree: the lessons folder itself works; a folder without lessons says what it wants.
expect "--lessons DIR/lessons: the tree above it" 0 "^demo +1 stages" $B --lessons tests/fixtures/constraint/lessons list
expect "--lessons DIR/lessons: runs" 2 "BLOCK must be a multiple of the warp size" $B --lessons tests/fixtures/constraint/lessons run demo/s --set BLOCK=48
mkdir -p "$tmp/none"
expect "--lessons: a folder that is no tree says what it wants" 2 "no lesson tree at $tmp/none: it wants $tmp/none/lessons/\*\.yaml and $tmp/none/kernels/" $B --lessons "$tmp/none" list
mkdir -p "$tmp/empty/lessons" "$tmp/empty/kernels"
expect "list: an empty tree says so" 0 "no lessons in $tmp/empty/lessons" $B --lessons "$tmp/empty" list
