#!/bin/sh
# pdl: true without a GPU (tests/fixtures/pdl; lessons/README.md "Overlapping two kernels on one
# stream"): show names the second launch a programmatic dependent launch and not the first; check
# compiles the fixture's griddepcontrol for sm_90 and, without it, for sm_80; a pdl with no kernel of
# the stage just before it on its stream is refused at the step's file:line:col; a value that is no
# boolean at its own. tests/gpu/pdl.sh runs the fixture on a GPU.
. tests/lib.sh
tmp=$(mktemp -d); trap 'rm -rf "$tmp"' EXIT
F=tests/fixtures/pdl
expect "pdl: show marks the second launch" 0 "launch consume: .*, programmatic dependent launch$" $B --lessons $F show pdl/pdl --arch sm_90
out=$($B --lessons $F show pdl/pdl --arch sm_90 2>&1)
if printf '%s\n' "$out" | grep -q "launch produce: .*programmatic"; then fail "pdl: show marks the first launch too"
else pass "pdl: show leaves the first launch plain"; fi
expect "pdl: the fixture compiles for sm_80 and sm_90" 0 "all good" $B --lessons $F check --arch sm_80,sm_90
mkdir -p "$tmp/t/lessons" "$tmp/t/kernels/bad"
cp $F/kernels/pdl/pdl.cu "$tmp/t/kernels/bad/pdl.cu"
sed -e 's/^lesson: pdl/lesson: bad/' -e 's/block: 256, args: \[x, t, "i64(n)"\] }$/block: 256, pdl: true, args: [x, t, "i64(n)"] }/' \
	$F/lessons/pdl.yaml >"$tmp/t/lessons/bad.yaml"
line=$(grep -n 'pdl: true, args: \[x, t' "$tmp/t/lessons/bad.yaml" | head -1 | cut -d: -f1)
expect "pdl: on the first step, refused at the step" 0 "refused: .*bad.yaml:$line:9: launch of produce: pdl: true needs a kernel launch of this stage just before it on its stream" \
	$B --lessons "$tmp/t" show bad/plain --arch sm_90
sed -e 's/^lesson: pdl/lesson: bad/' -e 's/pdl: true/pdl: soon/' $F/lessons/pdl.yaml >"$tmp/t/lessons/bad.yaml"
line=$(grep -n 'pdl: soon' "$tmp/t/lessons/bad.yaml" | cut -d: -f1)
expect "pdl: not a boolean, refused at the value" 4 "bad.yaml:$line:[0-9]+: pdl must be true or false, not 'soon'" $B --lessons "$tmp/t" list
