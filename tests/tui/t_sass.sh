# The code pane's machine code (v: source -> PTX -> SASS -> source, a compile of its own when the
# stage has none yet), d in the SASS view (the counts per class against the previous stage and the
# opcodes' diff), nvdisasm missing (its message in the pane), and the reading mode (o) at 80x24.
. "$(dirname "$0")/lib.sh"

REPLAY="$ROOT/tests/tui/fixtures/replay-bandwidth.json"
# Where sass_find_tool looks (but CUDACLIMB_NVDISASM): the binary was built with the default CUDA_HOME.
have_nvdisasm() {
	[ -n "${CUDACLIMB_NVDISASM:-}" ] && [ -x "$CUDACLIMB_NVDISASM" ] && return 0
	[ -x "${CUDA_HOME:-/usr/local/cuda}/bin/nvdisasm" ] || [ -x /usr/local/cuda/bin/nvdisasm ] ||
		[ -x "$(dirname "$BIN")/tools/nvdisasm" ] || command -v nvdisasm >/dev/null
}
# scan REGEX: from the top of the focused pane, page down until the screen matches REGEX (0) or the
# page no longer changes (1).
scan() {
	keys g
	sleep 0.2
	local i=0 before=""
	while [ $i -lt 80 ]; do
		now=$(screen)
		printf '%s\n' "$now" | grep -qE -- "$1" && return 0
		[ "$now" = "$before" ] && return 1
		before=$now
		keys NPage
		t=0; while [ $t -lt 20 ] && [ "$(screen)" = "$now" ]; do sleep 0.05; t=$((t + 1)); done
		i=$((i + 1))
	done
	return 1
}

if have_nvdisasm; then NV=1; else NV=0; echo "SKIP sass: nvdisasm not found (make test fetches it into build/tools): the SASS listings are not checked"; fi

for size in "80 24" "200 60"; do
	set -- $size
	export XDG_STATE_HOME="$TMP/state-$1"
	start "$1" "$2"
	wait_for "Memory bandwidth with SAXPY" >/dev/null
	keys Enter
	wait_for "bandwidth 1/4" >/dev/null
	keys n n n
	wait_for "bandwidth 4/4" >/dev/null
	check "$1x$2: footer lists v" shows " v PTX/SASS"
	keys v
	check "$1x$2: v opens the PTX view" wait_for "PTX vectorized.cu" 60
	check "$1x$2: the PTX shows .entry" wait_for ".entry saxpy_vectorized" 60
	keys v
	check "$1x$2: v again: the SASS view, its architecture and size" wait_re "SASS vectorized.cu +\(sm_90a?, [0-9]+ instr(uctions\)|\.\))" 60
	if [ $NV = 1 ]; then
		check "$1x$2: the counts header: 128-bit loads" shows "LDG 4 \(2x128\) +STG 2 \(1x128\) +LDS 0"
		keys Tab z
		check "$1x$2: vectorized: a 128-bit global load in the listing" scan "LDG\.E\.128"
		check "$1x$2: ... under its source line" shows "^│? *17 │ .*__ldg\(&x4\[i\]\)"
		[ "$1" = 200 ] && check "$1x$2: ... tagged at the right" shows "LDG\.E\.128[^│]* LDG\.128 *│"
		keys d
		check "$1x$2: d: the counts against the previous stage" wait_re "vectorized +gridstride"
		check "$1x$2: d: global loads 4 against 10" shows "LDG +4 +10 +-6"
		check "$1x$2: d: the opcodes' diff shows the 128-bit load added" scan "^│? *\+ .*LDG\.E\.128"
		keys d
		check "$1x$2: d again: back to the listing" wait_for "SASS vectorized.cu"
		keys z Escape
	fi
	check "$1x$2: Esc: the source again" wait_for "Kernel vectorized.cu"
	keys p
	wait_for "bandwidth 3/4" >/dev/null
	keys p
	wait_for "bandwidth 2/4" >/dev/null
	keys v v
	check "$1x$2: coalesced: the SASS view" wait_re "SASS coalesced.cu +\(sm_90a?, [0-9]+ instr(uctions\)|\.\))" 60
	if [ $NV = 1 ]; then
		check "$1x$2: coalesced: LDG without 128-bit ones in the counts" shows "LDG 2 +STG 1 +LDS"
		keys z                         # the code pane still has the focus
		check "$1x$2: coalesced: a 32-bit global load in the listing" scan "LDG\.E(\.CONSTANT)? "
		check_not "$1x$2: coalesced: no 128-bit global load" scan "LDG\.E\.128"
		keys z
	fi
	keys v
	check "$1x$2: v from SASS: the source" wait_for "Kernel coalesced.cu"
	keys q
	wait_for "EXITED rc=0" >/dev/null
done

# Without colour the classes still stand out: a 128-bit load bold and underlined, its tag too.
if [ $NV = 1 ]; then
	export XDG_STATE_HOME="$TMP/state-mono"
	start 200 60 NO_COLOR=1 --
	wait_for "Memory bandwidth with SAXPY" >/dev/null
	keys Enter
	wait_for "bandwidth 1/4" >/dev/null
	keys n n n v v
	wait_re "SASS vectorized.cu +\(sm_90a?, [0-9]+ instructions\)" 60 >/dev/null
	keys Tab z
	scan "LDG\.E\.128" >/dev/null
	check "NO_COLOR: a 128-bit load bold and underlined" sh -c "tmux -L '$SOCK' capture-pane -p -e -t cc | grep -qE '${ESC}\[([0-9]*;)*1;4m@!P0 LDG\.E\.128'"
	check_not "NO_COLOR: no colour" has_colour
	keys q
	wait_for "EXITED rc=0" >/dev/null
fi

# Hopper's warpgroup MMA: the stage compiles for sm_90a without a GPU.
export XDG_STATE_HOME="$TMP/state-tc"
start 200 60
open_lesson "Tensor Cores" tensorcore
keys n n n n
wait_for "tensorcore 5/5" >/dev/null
keys v v
check "wgmma_ws: the SASS view, for sm_90a" wait_re "SASS wgmma_ws.cu +\(sm_90a, [0-9]+ instructions\)" 90
if [ $NV = 1 ]; then
	check "wgmma_ws: HGMMA in the counts" shows "HGMMA [1-9]"
	keys Tab z
	check "wgmma_ws: an HGMMA instruction in the listing" scan "HGMMA\.64x[0-9]+x16"
fi
keys q
wait_for "EXITED rc=0" >/dev/null

# nvdisasm missing: the binary alone in a folder (no tools/ beside it), a PATH without it, a fresh
# cache (no .sass kept): the SASS view says how to get it, in the pane.
if [ -x /usr/local/cuda/bin/nvdisasm ] || [ -x "${CUDA_HOME:-/usr/local/cuda}/bin/nvdisasm" ]; then
	echo "SKIP sass: nvdisasm is in the toolkit here, so its absence cannot be tried"
else
	mkdir -p "$TMP/alone/bin" "$TMP/alone/cache"
	cp "$BIN" "$TMP/alone/bin/cudaclimb"
	for d in assets lessons kernels; do ln -s "$ROOT/$d" "$TMP/alone/$d"; done
	export XDG_STATE_HOME="$TMP/state-alone"
	BIN_SAVED=$BIN; BIN=$TMP/alone/bin/cudaclimb
	start 100 30 PATH=/usr/bin:/bin CUDACLIMB_NVDISASM= XDG_CACHE_HOME=$TMP/alone/cache --
	BIN=$BIN_SAVED
	wait_for "Memory bandwidth with SAXPY" >/dev/null
	keys Enter
	wait_for "bandwidth 1/4" >/dev/null
	keys v v
	check "no nvdisasm: the pane says how to get it" wait_for "nvdisasm is not installed" 60
	check "... the view is still the SASS view" shows "SASS strided.cu"
	keys v
	check "... and v goes on to the source" wait_for "Kernel strided.cu"
	keys q
	wait_for "EXITED rc=0" >/dev/null
fi

# The reading mode: the explanation and bottleneck get the screen, the diagnosis below (80 columns)
# or beside (wide); arrows and pages scroll; o or Esc leave. (The SGEMM replay's naive run has a
# diagnosis; the bandwidth one has no counters.)
REPLAY="$ROOT/tests/tui/fixtures/replay-sgemm.json"
export XDG_STATE_HOME="$TMP/state-read"
start 80 24 -- --replay "$REPLAY"
open_lesson "FP32 matrix multi" sgemm
check "stage footer: o read" shows " o read"
keys r
wait_re "time +275.000 ms" >/dev/null
keys o
check "o: the reading mode" wait_for "Reading: 1. Naive, one thread per element"
check "... the explanation from its first line" shows "Every thread computes one element of C"
check "... to the bottleneck's last" shows "let x run along the row of C instead"
check_not "... the panes are gone" shows "Kernel naive.cu"
check "... its keys in the footer" shows "o/Esc leave"
keys G
check "G: the diagnosis header" wait_for "Measured here (hardware counters)"
check "... and its findings" shows "each warp's loads of A touch 32 sectors"
keys g
check "g: the top again" wait_for "Every thread computes one element of C"
keys o
check "o leaves" wait_for "Kernel naive.cu"
keys o
wait_for "Reading: 1. Naive" >/dev/null
keys Escape
check "Esc leaves" wait_for "Kernel naive.cu"
check_not "... to the stage view, not the lesson list" shows "Lessons"
keys q
wait_for "EXITED rc=0" >/dev/null

export XDG_STATE_HOME="$TMP/state-read-wide"
start 200 60 -- --replay "$REPLAY"
open_lesson "FP32 matrix multi" sgemm
keys r
wait_re "time +275.000 ms" >/dev/null
keys o
check "wide: the diagnosis beside the explanation" wait_re "Every thread computes one element.*│.*each warp's loads of A touch"
keys q
wait_for "EXITED rc=0" >/dev/null
