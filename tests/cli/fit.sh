#!/bin/sh
# Other GPUs (#19): a refused constraint gives its numbers and what fits; a lesson's defaults that do
# not fit the GPU (tensorcore/mma_pipeline's 3 pipeline stages need 105 KiB of shared memory, sm_86
# and sm_89 give a block 99 KiB) are adjusted to the nearest values that do, and the result says so.
. tests/lib.sh
for a in sm_86 sm_89; do
	expect "check $a: mma_pipeline compiles with adjusted defaults" 0 "^$a +tensorcore +mma_pipeline +ok .*defaults adjusted for this GPU: STAGES=2" $B check --arch $a
done
expect "check sm_90: the defaults fit, nothing adjusted" 0 "^sm_90 +tensorcore +mma_pipeline +ok +regs [ 0-9]+ smem +107520 " $B check --arch sm_90
expect "run: a refusal gives the bytes and the limit, and what fits" 2 \
	"STAGES padded tiles.*exceed the shared memory a block may have: needs 107520 bytes, the limit is 101376 \(STAGES=2 fits\)" \
	$B run tensorcore/mma_pipeline --arch sm_86 --set STAGES=3
expect "run: defaults adjusted, and said" 3 "mma_pipeline: .*defaults adjusted for this GPU: STAGES=2" $B run tensorcore/mma_pipeline --arch sm_86
expect "run --json: the adjusted settings" 3 '"settings": "m=8192 n=8192 k=8192 BM=128 BN=128 BK=64 WM=64 WN=64 STAGES=2 GROUP_M=8 MINB=2"' \
	$B run tensorcore/mma_pipeline --arch sm_86 --json
expect "run: a parameter that breaks the defaults says which value fits" 2 "m must be a multiple of BM for this stage \(BM=64 fits\)" \
	$B run tensorcore/mma_pipeline --set m=192
