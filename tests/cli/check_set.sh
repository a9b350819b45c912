#!/bin/sh
# check --set (#46 item 4.2): the values are compiled, in every stage that has the name (a shared array
# sized by BLOCK shrinks with it), a value a stage does not allow is refused on its row (exit 1), and a
# name no lesson has is refused before anything compiles (exit 2, with the nearest name).
. tests/lib.sh
F=tests/fixtures/exercise
expect "check --set: a shared array follows BLOCK (1024 bytes at 256, 256 at 64)" 0 "demosum +sum +ok +regs +[0-9]+ +smem +256 " $B --lessons $F check --arch sm_90 --set BLOCK=64
expect "check --set: the defaults without it" 0 "demosum +sum +ok +regs +[0-9]+ +smem +1024 " $B --lessons $F check --arch sm_90
expect "check --set: a value a stage does not allow is refused on its row" 1 "scale +refused BLOCK = 7 is not allowed" $B --lessons $F check --arch sm_90 --set BLOCK=7
expect "check --set: an unknown name is refused with the nearest one" 2 "--set BLOK: no lesson here has a parameter or tunable of that name; did you mean 'BLOCK'" $B --lessons $F check --arch sm_90 --set BLOK=64
expect "check --set: a name no lesson has at all" 2 "--set BOGUS: no lesson here has" $B --lessons $F check --set BOGUS=1
