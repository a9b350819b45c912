# The roofline view (f on the stage view) at 80x24 and 200x60, without a GPU: the recorded H100 runs
# of SGEMM (--replay) give every stage a point; the chart, its roofs, the current stage's summary
# line, n/p through the stages, a and r from the view, Esc and f to leave, a resize, ASCII and
# monochrome; the tensor-core lesson against its BF16 roof; no roofs without a GPU.
. "$(dirname "$0")/lib.sh"

SGEMM="$ROOT/tests/fixtures/recorded/h100-1707a90-sgemm.json"
TC="$ROOT/tests/fixtures/recorded/h100-1707a90-tensorcore.json"

export XDG_STATE_HOME="$TMP/state-80"
start 80 24 -- --replay "$SGEMM"
open_lesson "FP32 matrix multi" sgemm
keys '?' G
check "80x24: the help lists f (at its end)" wait_for "roofline of the runs"
keys Escape
wait_gone "roofline of the runs" >/dev/null
keys f
check "80x24: f opens the roofline view" wait_for "Roofline: sgemm on NVIDIA H100 80GB HBM3"
check "80x24: the roofs from the recorded peaks" shows "DRAM 2994 GB/s attainable, FP32 66.9 TFLOP/s; ridge 22.3 flop/B"
check "80x24: before any run: says so" shows "stage 1 naive: not run yet"
check "80x24: the view's keys in the footer" shows "n/p stage  r run  a every stage  f/Esc leave"
keys a
check "80x24: a from the view: every stage placed (names under the chart)" wait_for "9 warptile  B cublasSgemm" 120
check "80x24: stage 1's line" wait_for "│stage 1: 498 GFLOP/s at 16.1 flop/B (DRAM), bound by memory, 1.0% of the roof "
check "80x24: the y axis in GFLOP/s, log" shows "^│ *10k┤ .* 3 "
check "80x24: ... 1k and 300 below" shows "^│ *1k┤"
check "80x24: the x axis in flop per DRAM byte, log" shows "^│ +10 +100 +flop/B \(DRAM bytes\) │$"
check "80x24: the ridge" shows "┊"
check "80x24: the roof lines (braille)" shows "⣀⣀⣀⣀⣀⣀⣀⣀"
keys n n n n n n n n
check "80x24: n to the last stage: warptile's line" wait_for "│stage 9: 46.8 TFLOP/s at 331 flop/B (DRAM), bound by compute, 70% of the roof │"
check "80x24: ... the title bar follows" shows "sgemm 9/10"
check "80x24: warptile marked on the y axis, right of the ridge" shows "^│ +▸ .*┊ .*9"
check "80x24: ... and on the x axis" shows "^│ +└[─┴]*▴[─┴]*"
check "80x24: the box ends above the footer" sh -c "tmux -L '$SOCK' capture-pane -p -t cc | sed -n 23p | grep -q '^└─*┘$'"
capture=$(screen)
keys p
check "80x24: p: the stage before" wait_for "│stage 8: 39.5 TFLOP/s at 211 flop/B (DRAM), bound by compute, 59% of the roof │"
keys Escape
check "80x24: Esc leaves, to the stage" wait_for "Kernel cpasync.cu"
keys f
wait_for "Roofline: sgemm" >/dev/null
keys f
check "80x24: f leaves too" wait_for "Kernel cpasync.cu"
keys q
wait_for "EXITED rc=0" >/dev/null
printf '%s\n' "$capture" >"$TMP/roofline-80x24.txt"
[ -n "${ROOFLINE_CAPTURE:-}" ] && cp "$TMP/roofline-80x24.txt" "$ROOFLINE_CAPTURE"

# 200x60: the table of every point beside the chart, the theoretical roof, a second line; then a
# resize to 80x24 redraws it to fit.
export XDG_STATE_HOME="$TMP/state-200"
start 200 60 -- --replay "$SGEMM"
open_lesson "FP32 matrix multi" sgemm
keys a
wait_re "B cublas_?[sS]gemm .*77%" 120 >/dev/null
keys n n n n n n n n
wait_for "sgemm 9/10" >/dev/null
check "200x60: the stage footer lists f" shows " f roofline"
keys f
check "200x60: the roofs with the theoretical bandwidth" wait_for "roofs: DRAM 2994 GB/s attainable (3352 GB/s theoretical, dotted), FP32 66.9 TFLOP/s; ridge at 22.3 flop/B"
check "200x60: the table, warptile highlighted" shows "▸9 warptile +46.8k +331 compute +70%"
check "200x60: ... every stage in it" shows " 1 naive +498 +16.1 memory +1.0%"
check "200x60: ... and the baseline" shows " B cublasSgemm +51.7k +333 compute +77%"
check "200x60: the summary with the name" shows "stage 9 warptile: 46.8 TFLOP/s at 331 flop/B \(DRAM\), bound by compute, 70% of the roof"
check "200x60: the second line" shows "roof there 66.9 TFLOP/s \(FP32\); intensity over 415 MB of DRAM traffic"
rows=$(screen | grep -c "┊")
check "200x60: a taller chart (the ridge over 40 rows)" test "$rows" -gt 40
resize 80 24
check "resized to 80x24: redrawn to fit" wait_for "│stage 9: 46.8 TFLOP/s at 331 flop/B (DRAM), bound by compute, 70% of the roof │"
check_not "resized: no table" shows "compute +70%$"
keys r
check "r from the view: runs the stage (the replay answers)" wait_for "│stage 9: 46.8 TFLOP/s"
keys q
wait_for "EXITED rc=0" >/dev/null

# ASCII and monochrome: / and - roofs, : ridge, > and ^ marks; the current point in reverse video.
export XDG_STATE_HOME="$TMP/state-ascii"
start 80 24 NO_COLOR=1 -- --replay "$SGEMM" --ascii
open_lesson "FP32 matrix multi" sgemm
keys a
wait_re "B cublas_?[sS]gemm" 120 >/dev/null
keys n n n n n n n n f
check "ASCII: the chart" wait_for "|stage 9: 46.8 TFLOP/s at 331 flop/B (DRAM), bound by compute, 70% of the roof |"
check "ASCII: the compute roof" shows "\-\-\-\-\-\-\-\-\-\-"
check "ASCII: the memory roof and the ridge" shows "///.*:"
check "ASCII: the marks" shows "^\| +> .*9"
check "ASCII: y labels" shows "^\| *30k\+"
check "NO_COLOR: the current point in reverse video" sh -c "tmux -L '$SOCK' capture-pane -p -e -t cc | grep -qE '${ESC}\[([0-9]*;)*7m9'"
check_not "NO_COLOR: no colour" has_colour
keys q
wait_for "EXITED rc=0" >/dev/null

# Tensor cores: the BF16 tensor roof, its ridge at 358 flop/B.
export XDG_STATE_HOME="$TMP/state-tc"
start 80 24 -- --replay "$TC"
open_lesson "Tensor Cores" tensorcore
keys a
wait_re "B cublas" 120 >/dev/null
keys n n n n f
check "tensorcore: the BF16 tensor roof" wait_for "DRAM 2994 GB/s attainable, BF16 tensor 1071 TFLOP/s; ridge 358 flop/B"
check "tensorcore: wgmma_ws under it" shows "│stage 5: 693 TFLOP/s at 698 flop/B \(DRAM\), bound by compute, 65% of the roof *│"
keys q
wait_for "EXITED rc=0" >/dev/null

# No GPU and no replay: the view says why there are no roofs.
export XDG_STATE_HOME="$TMP/state-nogpu"
start 80 24 CUDA_VISIBLE_DEVICES= --
open_lesson "FP32 matrix multi" sgemm
keys f
check "no GPU: no roofline, and why" wait_for "No roofline:"
check "... the footer still says how to leave" shows "f/Esc leave"
keys Escape
check "... and Esc leaves" wait_for "Kernel naive.cu"
keys q
wait_for "EXITED rc=0" >/dev/null
