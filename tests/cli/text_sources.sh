#!/bin/sh
# Numbers in a stage's text read as a sentence wherever they come from (#51 item 1): every number from
# one source, never "on the H100 of the recording" after each, and one line saying which source: the
# learner's run, a replayed file (never "this GPU's last run" on a box that ran nothing), or the
# reference recording. A replay miss names the settings that differ from the recording (item 2).
. tests/lib.sh
R=assets/recorded/h100/h100-9a90f80-2026-11-26-bandwidth.json
# lacks NAME PATTERN COMMAND...: the output (any exit status) has no match for PATTERN.
lacks() {
	name=$1 pat=$2; shift 2
	out=$("$@" 2>&1)
	if printf '%s\n' "$out" | grep -Eq -- "$pat"; then fail "$name: output has /$pat/"; printf '%s\n' "$out" | grep -E -- "$pat" | head -3 | sed 's/^/    /'
	else pass "$name"; fi
}
expect "text sources: a replayed run's text says where its figures are from" 0 \
	"Figures from the H100 recording h100-9a90f80-2026-11-26-bandwidth.json: the replayed file" $B --replay $R run bandwidth/coalesced
lacks "text sources: ... with no tag after its numbers" "of the recording" $B --replay $R run bandwidth/coalesced
lacks "text sources: ... and never as this GPU's run" "this GPU's last run" $B --replay $R run bandwidth/coalesced
expect "text sources: a replayed first stage has all its figures: the file's" 0 \
	"Figures from the replayed file h100-9a90f80-2026-11-26-bandwidth.json \(NVIDIA H100" \
	$B --replay $R run bandwidth/strided
expect "text sources: show before any run: the recording, said once" 0 \
	"Figures from the H100 recording h100-.*-bandwidth.json: no run of yours yet" $B show bandwidth/coalesced
lacks "text sources: ... no tag after a number" "of the recording" $B show bandwidth/coalesced
if [ "$($B device >/dev/null 2>&1; echo $?)" = 3 ]; then
	lacks "text sources: a run without a GPU tags no number" "of the recording" $B run bandwidth/coalesced
fi
expect "text sources: a replay miss names the settings that differ" 3 \
	"not in the replay file: recorded at a=2 BLOCK=256; asked a=99999999999 BLOCK=512" \
	$B --replay $R run bandwidth/coalesced --set BLOCK=512 --set a=99999999999
expect "text sources: a stage the file lacks says so" 1 "^tf32x3: this run is not in the replay file: it has no run of tf32x3$" \
	$B --replay tests/cli/fixtures/replay-sgemm.json bench sgemm --stage warptile,tf32x3
