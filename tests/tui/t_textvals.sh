# Numbers in the text (placeholders): at 80x24 the reading mode of bandwidth/strided shows the
# reference recording's figures (an H200's, from a fixture folder so that the shipped set can change)
# and says so before a run; after a run (replayed from an H100 recording) it shows that run's figures
# and names this GPU.
. "$(dirname "$0")/lib.sh"
export CUDACLIMB_RECORDED="$ROOT/tests/fixtures/textvals"
start 80 24 -- --replay "$ROOT/tests/fixtures/recorded/h100-7092b07-bandwidth.json"
wait_for "Memory bandwidth" >/dev/null
keys Enter
wait_for "bandwidth 1/4" >/dev/null
keys o
check "text numbers (80 24): before a run, the recording's rate" wait_for "The stage ran at 196 GB/s"
keys PgDn
check "text numbers (80 24): ... and where it comes from" wait_re "Numbers: the recording h200-.*-bandwidth.json"
keys Escape r
keys o PgDn
check "text numbers (80 24): after a run, this GPU's rate" wait_for "The stage ran at 151 GB/s"
check "text numbers (80 24): ... named as this GPU's" wait_for "Numbers: this GPU's last run (NVIDIA H100"
