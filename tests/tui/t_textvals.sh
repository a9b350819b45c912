# Numbers in the text (placeholders): at 80x24 the reading mode of bandwidth/strided shows the
# reference recording's figures (an H200's, from a fixture folder so that the shipped set can change)
# and says so before a run; after a run (replayed from an H100 recording) it shows that run's figures
# and names the replayed file, not "this GPU". Wherever the numbers come from, the text reads as a
# sentence: no "on the H100 of the recording" after a number (#51 item 1), one line says where; the
# same after `r` without a GPU, where the run measured nothing (80x24 and 120x40).
. "$(dirname "$0")/lib.sh"
export CUDACLIMB_RECORDED="$ROOT/tests/fixtures/textvals"
notag() { ! screen | grep -q "of the recording"; }
# says TEXT: the screen's text, its lines joined (a sentence wrapped), has TEXT.
says() { screen | sed 's/[│|]//g; s/^ *//; s/ *$//' | tr '\n' ' ' | grep -qF -- "$1" && return 0; screen >&2; return 1; }
start 80 24 -- --replay "$ROOT/tests/fixtures/recorded/h100-7092b07-bandwidth.json"
wait_for "Memory bandwidth" >/dev/null
keys Enter
wait_for "bandwidth 1/4" >/dev/null
keys o
check "text numbers (80 24): before a run, the recording's rate" wait_for "The stage ran at 196 GB/s"
keys PgDn
check "text numbers (80 24): ... and where it comes from" wait_re "Figures from the H200 recording h200-.*-bandwidth"
keys Escape r
keys o PgDn
check "text numbers (80 24): after a run, the replayed rate" wait_for "The stage ran at 151 GB/s"
check "text numbers (80 24): ... named as the replayed file's, not this GPU's" wait_re "Figures from the replayed file h100-7092b07"
check "text numbers (80 24): ... and no tag after a number" notag
# coalesced after its own run: its speed-up over strided comes from the replayed runs of both.
keys Escape n r
keys o PgDn
check "text numbers (80 24, replay): the next stage's figures, from the replayed file" wait_re "Figures from the replayed file"
check "text numbers (80 24, replay): ... with no tag after a number" notag
for size in "80 24" "120 40"; do
	if "$BIN" device >/dev/null 2>&1; then echo "SKIP text numbers ($size): r without a GPU (this box has one)"; continue; fi
	start $size XDG_STATE_HOME=$TMP/state-${size% *} --
	wait_for "Memory bandwidth" >/dev/null
	keys Enter
	wait_for "bandwidth 1/4" >/dev/null
	keys n r
	sleep 0.5
	keys o
	[ "$size" = "80 24" ] && keys PgDn
	check "text numbers ($size): r without a GPU: the recording's figures, said once" wait_re "Figures from the H200 recording"
	check "text numbers ($size): ... no run of yours yet" says "recording h200-899481e-2026-11-26-bandwidth.json: no run of yours yet."
	check "text numbers ($size): ... and no tag after a number" notag
done
