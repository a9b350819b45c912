#!/bin/sh
# Format v2 without a GPU, on the tests/fixtures/v2 lesson (written from lessons/README.md alone: host
# buffers, copies, a chunked pipeline on two streams, constants, textures, an init expr buffer, a -rdc
# stage with a child launch): it loads, every stage plans and compiles for sm_90 (the -rdc stage through
# the nvJitLink link with the device runtime), and the plan's refusals name the copy.
. tests/lib.sh
T=tests/fixtures/v2
expect "v2demo fixture loads" 0 "^v2demo +4 stages" $B --lessons $T list
for st in serial pipeline texture dynamic; do
	expect "v2demo $st compiles for sm_90" 0 "sm_90 +v2demo +$st +ok" $B --lessons $T check --arch sm_90
done
expect "v2demo refuses a filter radius its kernels cannot hold" 2 "R = 5 is outside its range" $B --lessons $T run v2demo/pipeline --set R=5
