#!/bin/sh
# Replay (--replay FILE) answers as a live run would (#19): settings are checked first (a refusal is
# the real one, exit 2), records are matched by evaluated values (n=1<<26 is n=67108864), and text
# from the file never reaches the terminal with its control characters.
. tests/lib.sh
R=tests/tui/fixtures/replay-bandwidth.json
X=tests/cli/fixtures/replay-escape.json
expect "replay: an unknown setting is refused as live" 2 "unknown setting 'TILE' for bandwidth/strided \(known: BLOCK, STRIDE" $B --replay $R run bandwidth/strided --set TILE=abc
expect "replay: a value that is not an expression is refused" 2 "BLOCK=abc: unknown name 'abc'" $B --replay $R run bandwidth/strided --set BLOCK=abc
expect "replay: a value not allowed is refused" 2 "BLOCK = 100 is not allowed for stage strided" $B --replay $R run bandwidth/strided --set BLOCK=100
expect "replay: a parameter out of range is refused" 2 "n = 0 is outside its range" $B --replay $R run bandwidth/strided --set n=0
expect "replay: an expression finds the record of its value" 0 "^strided .* 182\.0 " $B --replay $R run bandwidth/strided --set 'n=1<<26'
expect "replay: the same record as the plain number" 0 "^strided .* 182\.0 " $B --replay $R run bandwidth/strided --set n=67108864
expect "replay: a tunable as an expression" 0 "^strided .* 2700\.0 " $B --replay $R run bandwidth/strided --set 'STRIDE=2-1'
expect "replay: a tunable at its default finds the default's record" 0 "^strided .* 182\.0 " $B --replay $R run bandwidth/strided --set 'STRIDE=32'
expect "replay: a value not recorded is still not in the file" 3 "not in the replay file" $B --replay $R run bandwidth/coalesced --set n=1024
# Control characters from the replay file (an OSC 52 clipboard write, a screen clear) are not printed.
esc=$(printf '\033')
noesc() {
	name=$1 want=$2; shift 2
	out=$("$@" 2>&1); got=$?
	if [ "$got" != "$want" ]; then fail "$name: exit $got, expected $want"; return; fi
	case $out in *"$esc"*) fail "$name: an ESC byte reached the output"; printf '%s\n' "$out" | grep -n "$esc" | cat -v | head -5 | sed 's/^/    /';; *) pass "$name";; esac
}
noesc "replay: no ESC from a message or diagnosis (run)" 1 $B --replay $X run bandwidth/coalesced
# (exit 1: the recorded stage is wrong; the stages the file lacks are shown as not in it and do not
# decide the exit status of a replayed bench)
noesc "replay: no ESC from a message or diagnosis (bench)" 1 $B --replay $X bench bandwidth --set BLOCK=256
noesc "replay: no ESC from the device" 0 $B --replay $X device
expect "replay: the message is still shown" 1 "coalesced: y: 5 of 67108864 elements wrong .* then \?\[2J cleared" $B --replay $X run bandwidth/coalesced
expect "replay: the diagnosis is still shown (an older file's \"warn\" read as warning)" 1 "coalesced +warning some_rule: \?\]52;c;aGk=" $B --replay $X run bandwidth/coalesced
# A recording made before a stage existed: a bench shows that stage as not in the file and the rest as
# recorded; a stage asked for that is not recorded makes it exit 1. With no stage recorded at all it is 3.
expect "replay: a stage newer than the recording is shown as not in it, exit 1" 1 "^tf32x3: this run is not in the replay file: it has no run of tf32x3$" $B --replay tests/cli/fixtures/replay-sgemm.json bench sgemm
expect "replay: ... and the recorded stages still rank" 1 "^Fastest stage: warptile at 30\.4 TFLOP/s" $B --replay tests/cli/fixtures/replay-sgemm.json bench sgemm
expect "replay: a bench with no stage recorded still exits 3" 3 "not in the replay file" $B --replay tests/cli/fixtures/replay-sgemm.json bench bandwidth
expect "replay: bench --stage of recorded stages only exits 0" 0 "^warptile " $B --replay tests/cli/fixtures/replay-sgemm.json bench sgemm --stage warptile
expect "replay: bench --stage naming a stage not recorded exits 1" 1 "^tf32x3: this run is not in the replay file: it has no run of tf32x3$" \
	$B --replay tests/cli/fixtures/replay-sgemm.json bench sgemm --stage warptile,tf32x3
# try under a replay: nothing is compiled, so no "0 registers, 0% theoretical occupancy, block 0x0x0".
trywork=$(mktemp -d)
expect "replay: try shows no compile facts it does not have" 3 "^NOT JUDGED: this run is not in the replay file" \
	env CUDACLIMB_WORK="$trywork" $B --replay $R try bandwidth/coalesced
expect "replay: ... its resources are not in the recording" 3 "resources: not in the recording" \
	env CUDACLIMB_WORK="$trywork" $B --replay $R try bandwidth/coalesced
out=$(CUDACLIMB_WORK="$trywork" $B --replay $R try bandwidth/coalesced 2>&1)
printf '%s' "$out" | grep -Eq "0 registers|block 0x0x0|0% theoretical" && fail "replay: try prints zero compile facts" || pass "replay: try prints no zero compile facts"
rm -rf "$trywork"
# Replay shows only what was recorded (issue #31 item 5): a record found at other settings than asked
# says so, and the device's fields the recording lacks read "not recorded", not "0.0 GB/s ()".
RR=tests/fixtures/recorded/h100-7092b07-reduction.json
expect_not() {
	name=$1 want=$2 pat=$3; shift 3
	out=$("$@" 2>&1); got=$?
	if [ "$got" != "$want" ]; then fail "$name: exit $got, expected $want"; return; fi
	if printf '%s\n' "$out" | grep -Eq -- "$pat"; then fail "$name: output has /$pat/"; printf '%s\n' "$out" | grep -E -- "$pat" | head -5 | sed 's/^/    /'; return; fi
	pass "$name"
}
expect "replay: a record at other settings says so" 0 "reduce0: recorded at n=67108864; asked n=268435456" $B --replay $RR run reduction/reduce0
expect "replay: ... and not when it is what was asked" 0 "^reduce0 " $B --replay $RR run reduction/reduce0 --set n=67108864
expect_not "replay: ... no such line then" 0 "recorded at" $B --replay $RR run reduction/reduce0 --set n=67108864
# A tunable set to its default (the TUI names every tunable) still finds a record made while the default
# was another value, and says so (sgemm/warptile's BK and PAD defaults moved after this recording);
# a value that is not the default must match.
SG=tests/fixtures/recorded/h100-1707a90-sgemm.json
expect "replay: a record made at an older default answers, saying so" 0 "warptile: recorded at BK=32 PAD=4; asked BK=16 PAD=0" $B --replay $SG run sgemm/warptile --set BK=16
expect "replay: ... a value other than the default does not" 3 "not in the replay file: recorded at BK=32 PAD=4; asked BK=64 PAD=0" $B --replay $SG run sgemm/warptile --set BK=64
expect "replay: a device field not recorded says so" 0 "DRAM bandwidth, read: +not recorded" $B --replay $RR device
expect_not "replay: no empty source in parentheses" 0 "GB/s  \(\)|GFLOP/s  \(\)" $B --replay $RR device
