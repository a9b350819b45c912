#!/bin/sh
# Tensor map arguments without a GPU, on the tests/fixtures/tma lesson: it loads, its TMA stage
# compiles for sm_90 and is unsupported (with its reason) on sm_80, and a size TMA cannot describe is
# refused with the tensor map's message before any GPU work.
. tests/lib.sh
T=tests/fixtures/tma
expect "tma fixture loads" 0 "^tma +2 stages" $B --lessons $T list
expect "tma fixture compiles for sm_90" 0 "sm_90 +tma +tma +ok" $B --lessons $T check --arch sm_90
expect "tma stage unsupported on sm_80" 0 "sm_80 +tma +tma +unsupported needs sm_90: TMA needs Hopper \(sm_90\)" $B --lessons $T check --arch sm_80
expect "tma refuses rows that are not a multiple of 16 bytes" 2 \
	"tensor map A: rows of dims\[0\]=777 f32 are 3108 bytes; TMA needs a multiple of 16" $B --lessons $T run tma/tma --set cols=777
