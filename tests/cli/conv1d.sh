#!/bin/sh
# The conv1d fixture lesson (issue #32: a lesson written from lessons/README.md alone) without a
# GPU: check plans it at its edge sizes and compiles it, show reads, the exercise's starter
# compiles, and check catches a copy that only goes wrong at an edge size.
. tests/lib.sh
F=tests/fixtures/conv1d
L="--lessons $F"
T=$(mktemp -d); trap 'rm -rf "$T"' EXIT

out=$($B $L check --arch sm_90 2>&1); rc=$?
if [ $rc -ne 0 ]; then fail "conv1d check: exit $rc"; printf '%s\n' "$out" | head -20 | sed 's/^/    /'
else
	miss=""
	for st in global constant shared shared/starter pipeline; do
		printf '%s\n' "$out" | grep -Eq "conv1d +$st +ok " || miss="$miss $st"
	done
	if [ -z "$miss" ]; then pass "conv1d check: exit 0, every stage and the starter ok"
	else fail "conv1d check: not ok:$miss"; printf '%s\n' "$out" | sed 's/^/    /'; fi
fi

out=$($B $L show conv1d 2>&1); rc=$?
if [ $rc -ne 0 ]; then fail "conv1d show: exit $rc"
elif printf '%s\n' "$out" | grep -Eq '\{(ms|gbps|bound_ms|time_vs_[a-z]+|speedup_vs_prev)\}'; then
	fail "conv1d show: a placeholder was left in braces"
elif [ "$(printf '%s\n' "$out" | grep -Ec '^[1-4]\. (global|constant|shared|pipeline) - ')" != 4 ]; then
	fail "conv1d show: not the four stages"; printf '%s\n' "$out" | head -20 | sed 's/^/    /'
else pass "conv1d show: four stages, placeholders filled"; fi

expect "conv1d show stage" 0 "Claims, checked on every run" $B $L show conv1d/shared
expect "conv1d refuses R past the weights' array" 2 "R = 65 is outside its range" $B $L run conv1d/shared --set R=65

# the starter compiles (without a GPU that is all a try can say: exit 3); with one, the GPU test judges it
if $B device >/dev/null 2>&1 || [ $? -ne 3 ]; then skip "conv1d try starter: a GPU is present (tests/gpu/conv1d.sh judges it)"
else expect "conv1d try starter compiles" 3 "COMPILED: compiles" $B $L --work "$T/work" try conv1d/shared; fi

# a copy out of `chunk` elements (no min with what is left) is right at the default size only:
# check's plan at n = 1 must refuse it, naming the line
cp -r "$F" "$T/bad"
sed -i 's/count: "min(chunk, n - c \* chunk)", stream/count: chunk, stream/' "$T/bad/lessons/conv1d.yaml"
if ! grep -q 'count: chunk, stream' "$T/bad/lessons/conv1d.yaml"; then fail "conv1d edge: the fixture changed, the sed no longer applies"
else expect "conv1d check catches a copy past the end at n=1" 1 "conv1d.yaml:[0-9]+:[0-9]+: copy y>h_y: .*outside y.*at n=1" $B --lessons "$T/bad" check --arch sm_90; fi
