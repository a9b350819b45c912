#!/bin/sh
# The command line: usage errors, malformed lessons, refused settings, exit codes. No GPU needed.
. tests/lib.sh
F=tests/fixtures/faulty
expect "help" 0 "exit status" $B --help
expect "version" 0 "^cudaclimb [0-9]" $B --version
expect "unknown command" 2 "unknown command 'frobnicate'" $B frobnicate
expect "unknown option" 2 "unknown or incomplete option '--bogus'" $B --bogus list
expect "missing option value" 2 "unknown or incomplete option" $B list --gpu
expect "bad --gpu" 2 "--gpu takes a GPU number" $B --gpu x list
expect "bad --set syntax" 2 "is not NAME=VALUE" $B run bandwidth/coalesced --set BLOCK
expect "unknown lesson" 2 "no lesson 'nope'" $B run nope/x
expect "unknown stage" 2 "no stage 'nope'" $B run bandwidth/nope
expect "stage missing" 2 "name a stage" $B run bandwidth
expect "unknown tunable" 2 "unknown setting 'TILE'.*known: BLOCK" $B run bandwidth/coalesced --set TILE=4
expect "a setting given twice" 2 "'BLOCK' is set twice \(BLOCK=128, then BLOCK=256\): give each setting once$" $B run bandwidth/coalesced --set BLOCK=128 --set BLOCK=256
expect "tunable not allowed" 2 "BLOCK = 100 is not allowed for stage coalesced \(allowed: 32, 64" $B run bandwidth/coalesced --set BLOCK=100
expect "param out of range" 2 "n = 0 is outside its range" $B run bandwidth/coalesced --set n=0
expect "broken constraint" 2 "BLOCK must be a multiple of the warp size" $B --lessons tests/fixtures/constraint run demo/s --set BLOCK=48
expect "bench unknown setting" 2 "no parameter or tunable 'ZZ'" $B bench bandwidth --set ZZ=1
expect "list" 0 "bandwidth +4 stages" $B list
expect "show" 0 "Bottleneck:" $B show bandwidth
# A malformed lesson is reported as file:line:col and the good one still loads.
expect "malformed: still lists the good lesson" 4 "fixture +6 stages" $B --lessons $F list
expect "malformed: syntax (an unclosed quote, where it opens, libyaml's words kept)" 4 "bad_syntax.yaml:2:8: the quote opened on line 2 is never closed \(libyaml: found unexpected end of stream" $B --lessons $F list
expect "malformed: unknown key" 4 "bad_key.yaml:6:1: unknown key 'colour'" $B --lessons $F list
expect "malformed: bad expression" 4 "bad_expr.yaml:5:45: bad expression 'n \* \(2 \+ '" $B --lessons $F list
expect "malformed: unknown tunable" 4 "bad_tunable.yaml:12:35: unknown name 'BLOCK'" $B --lessons $F list
expect "malformed: missing kernel" 4 "bad_kernel.yaml:9:13: missing kernel file" $B --lessons $F list
expect "lessons env var" 4 "fixture +6 stages" env CUDACLIMB_LESSONS=$F $B list
expect "compile error with kernel line" 4 "broken.cu\(5\): error: expected a \";\"" $B --lessons $F check --arch sm_90
expect "check unknown arch" 2 "unknown architecture .sm_1. \(known: sm_75" $B check --arch sm_1
# Replay: recorded results answer runs without a GPU, in the same report and JSON.
R=tests/tui/fixtures/replay-bandwidth.json
expect "replay run" 0 "coalesced .*2890" $B --replay $R run bandwidth/coalesced
expect "replay json round trip" 0 '"stage": "coalesced"' $B --replay $R run bandwidth/coalesced --json
expect "replay missing run" 3 "not in the replay file" $B --replay $R run bandwidth/coalesced --set n=1024
expect "replay bad file" 2 "cannot read the replay file" $B --replay /nonexistent run bandwidth/coalesced
