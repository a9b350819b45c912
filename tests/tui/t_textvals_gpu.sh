# On a GPU, at 80x24: bandwidth/strided's text shows the reference recording's rate before a run and
# this GPU's measured rate, named as this GPU's, after `r` (issue #36). Without a GPU: one SKIP line.
. "$(dirname "$0")/lib.sh"
if "$BIN" device >/dev/null 2>&1; then :; else
	echo "SKIP text numbers on a GPU: $("$BIN" device 2>&1 | head -1)"
	exit 0
fi
WAIT=60
export CUDACLIMB_RECORDED="$ROOT/tests/fixtures/textvals"
start 80 24 -- --timeout 10
wait_for "Memory bandwidth" >/dev/null
wait_for "(sm_" 30 >/dev/null
keys Enter
wait_for "bandwidth 1/4" >/dev/null
keys o
check "text numbers on a GPU (80 24): before a run, the recording's rate" wait_for "The stage ran at 196 GB/s"
keys Escape r
wait_for "GB/s " >/dev/null
keys o PgDn
check "text numbers on a GPU (80 24): after a run, this GPU's own rate" wait_re "The stage ran at [0-9]+ GB/s"
check "text numbers on a GPU (80 24): ... named as this GPU's" wait_re "Figures from your last run \(NVIDIA H[0-9]+"
# The ladder runs without counters: a text that quotes counters reads whole from the recording, said
# once, never "on the H100 of the recording" after a number (#51 item 1).
keys Escape a
wait_re "ladder done" 120 >/dev/null
keys o PgDn
check "text numbers on a GPU (80 24): after the ladder, the recording's figures, said once" wait_re "Figures from the H200 recording"
check_not "text numbers on a GPU (80 24): ... and no tag after a number" shows "of the recording"
