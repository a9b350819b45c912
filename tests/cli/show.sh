#!/bin/sh
# show LESSON keeps the lessons' "- " lists as lists (#19): each item on its own line with a hanging
# indent, the paragraph after a list on its own line.
. tests/lib.sh
expect_not() {
	name=$1 want=$2 pat=$3; shift 3
	out=$("$@" 2>&1); got=$?
	if [ "$got" != "$want" ]; then fail "$name: exit $got, expected $want"; return; fi
	if printf '%s\n' "$out" | grep -Eq -- "$pat"; then fail "$name: output has /$pat/"; printf '%s\n' "$out" | grep -E -- "$pat" | head -3 | sed 's/^/    /'; return; fi
	pass "$name"
}
expect "show: a list item starts its line" 0 "^   - ldmatrix\.x4 loads a whole 16 x 16 A fragment" $B show tensorcore
expect "show: an item's next line hangs under its text" 0 "^     [a-z(]" $B show tensorcore
expect "show: the paragraph after a list starts its line" 0 "^   TMA writes the boxes with the 128-byte swizzle" $B show tensorcore
expect "show: sgemm's list" 0 "^   - Reading B: a thread's TN columns" $B show sgemm
expect_not "show: no item run into the paragraph before it" 0 "it: - mma\.sync|changes: - Transposed" $B show tensorcore
expect_not "show: no runs of spaces inside a line" 0 "[a-z,.;:]   +[a-zA-Z(]" $B show tensorcore
# Each claim says where it applies (#46 item 4): its case, and its when: condition.
expect "show: a claim's case and its condition" 0 "^ +in case skewed, when rows >= 1 << 20$" $B show spmv/ell
expect "show: a claim's when: condition" 0 "^ +when skew <= 0\.5 && bins >= 64 && bins <= 4096 && n >= 1 << 22$" $B show histogram/warp
# A stage planned without a GPU (#46 item 4): its derived values and launches at the defaults, --set
# and --arch changing them, and the model's bound on a recorded GPU of the architecture.
expect "show LESSON/STAGE: the derived values at the defaults" 0 "^   derived: pixels = 67108864, inv2s2 = 0\.125, wsum = 4\.898" $B show stencil/2
expect "show LESSON/STAGE: the launch's grid and block" 0 "^   launch gauss_tile: grid 256 x 1024 x 1, block 32 x 8 x 1, 2560 bytes of dynamic shared memory" $B show stencil/2
expect "show LESSON/STAGE --set: planned at the settings given" 0 "launch gauss_tile: grid 128 x 1024 x 1, block 64 x 8 x 1" $B show stencil/2 --set BX=64
expect "show LESSON/STAGE --arch: that architecture's typical part" 0 "^Planned at the defaults for sm_80 \(no GPU needed: a typical A100 SXM, 108 SMs" $B show stencil/2 --arch sm_80
expect "show LESSON/STAGE: the model's bound under a recorded GPU's peaks" 0 "^   bound: [0-9.]+ (us|ms) \(memory\) on the NVIDIA H100" $B show bandwidth/coalesced
expect "show LESSON/STAGE: no recording of the architecture's GPU says so" 0 "^   bound: no recording of an sm_80 GPU gives peaks" $B show bandwidth/coalesced --arch sm_80
expect "show LESSON/STAGE: a refused setting says why" 0 "^   refused: " $B show stencil/2 --set BX=3
expect "show LESSON: each stage's bound, for drafting thresholds" 0 "^  coalesced: bound [0-9.]+ (us|ms) \(memory\); the model: 768 MiB" $B show bandwidth
# {theoretical_occupancy} with no recording: the stage compiled for the architecture, as check does
T=$(mktemp -d)
mkdir -p "$T/lessons" && cp -r tests/fixtures/gemv/kernels "$T/"
sed 's/explain: "One thread per row:/explain: "At {theoretical_occupancy} theoretical occupancy. One thread per row:/' \
	tests/fixtures/gemv/lessons/gemv.yaml >"$T/lessons/gemv.yaml"
expect "show: {theoretical_occupancy} compiled for the architecture, not ?" 0 "At 100% theoretical occupancy\..*compiled for sm_90" \
	sh -c "CUDACLIMB_RECORDED= $B --lessons $T show gemv/naive --arch sm_90 | tr '\n' ' '"
rm -rf "$T"
