# The heat column (H) at 80x24 and 200x60: without a GPU, H says why it cannot sample; with the fake
# worker (tests/fake_worker.c) answering the pass with samples at the offsets of transpose/tile's own
# SASS, the source shows each line's share and bar, a header with the hottest line's stall reasons,
# the SASS view a cell beside each sampled instruction; another stage hides it, coming back shows
# it again, H hides it; the help lists H.
. "$(dirname "$0")/lib.sh"

cuda=${CUDA_HOME:-/usr/local/cuda}
if "$BIN" device >/dev/null 2>&1; then GPU=1; else GPU=0; fi

# Open transpose/tile in a fresh session of size $1 x $2 (more start arguments after): down the
# lesson list to the transpose lesson, then n up its ladder to the tile stage, wherever they are.
open_tile() {
	start "$@"
	wait_for "Matrix transpose" >/dev/null
	i=0; while [ $i -lt 20 ] && ! screen | grep -q "▸.*Matrix transpose"; do keys j; sleep 0.1; i=$((i + 1)); done
	keys Enter
	wait_re "transpose [0-9]+/[0-9]+" >/dev/null
	i=0; while [ $i -lt 10 ] && ! screen | grep -qE "transpose [0-9]+/[0-9]+ +tile:"; do keys n; sleep 0.2; i=$((i + 1)); done
	wait_for "Kernel tile.cu" >/dev/null
}

for size in "80 24" "200 60"; do
	set -- $size
	export XDG_STATE_HOME="$TMP/state-$1"
	if [ $GPU = 0 ]; then
		open_tile "$1" "$2"
		check "$1x$2: footer lists H" shows " H hotspots"
		keys H
		check "$1x$2: no GPU: H says why it cannot sample" wait_for "hotspots need a GPU to sample"
		check_not "$1x$2: ... and no heat column" shows "hotspots: [0-9]+ samples"
		keys q
		wait_for "EXITED rc=0" >/dev/null
	else
		echo "SKIP $1x$2: a GPU is here: H samples for real (tests/gpu/hotspots.sh captures it)"
	fi
done

# The fake worker with samples placed on this compile's instructions.
if ! cc -std=c11 -D_GNU_SOURCE -I"$ROOT/src/core" -I"$ROOT/src/lesson" -I"$ROOT/src/engine" -I"$ROOT/src/runner" -I"$ROOT/src/worker" -I$cuda/include "$ROOT/tests/fake_worker.c" "$ROOT/src/core/result.c" "$ROOT/src/core/util.c" -o "$TMP/fake" 2>"$TMP/cc.log"; then
	fail "the fake worker did not build" "$(head -3 "$TMP/cc.log")"; exit 0
fi
if ! (cd "$ROOT" && "$BIN" show transpose/tile --sass) >"$TMP/sass" 2>&1; then
	echo "SKIP heat column: no SASS to place samples on: $(head -1 "$TMP/sass")"; exit 0
fi
off() { awk -v tag="[$1]" '$NF == tag { print $1; exit }' "$TMP/sass"; }
printf 'total=1000,dropped=0,other=0;@transpose_tile;%s:50:selected=50;%s:150:long_scoreboard=140,selected=10;%s:100:barrier=100;%s:200:mio_throttle=150,short_scoreboard=50;%s:500:short_scoreboard=450,selected=50\n' \
	"$(off LDG)" "$(off STS)" "$(off BAR)" "$(off LDS)" "$(off STG)" >"$TMP/samples"
shared=$(grep -n '^[[:space:]]*out\[.*= tile\[tx\]\[ty\];' "$ROOT/kernels/transpose/tile.cu" | head -1 | cut -d: -f1)
global=$(grep -n '^[[:space:]]*tile\[ty\]\[tx\] = in\[' "$ROOT/kernels/transpose/tile.cu" | head -1 | cut -d: -f1)

# scan REGEX: from the top of the focused pane, page down until the screen matches (0) or stops moving (1).
scan() {
	keys g
	sleep 0.2
	local i=0 before=""
	while [ $i -lt 40 ]; do
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

for size in "80 24" "200 60"; do
	set -- $size
	export XDG_STATE_HOME="$TMP/state-fake-$1"
	open_tile "$1" "$2" CUDACLIMB_WORKER="$TMP/fake" CC_FAKE_HOTSPOTS="$TMP/samples" --
	keys H
	check "$1x$2: H: the header names the hottest line" wait_for "hotspots: 1000 samples; line $shared 70%" 60
	keys Tab z                         # the code pane, zoomed
	if [ "$1" = 80 ]; then
		check "$1x$2: ... and its stall reasons, short" wait_for "hotspots: 1000 samples; line $shared 70%: shared mem 71%, MIO queue 21%"
	else
		check "$1x$2: ... and its stall reasons in words" wait_for "line $shared 70%: short scoreboard (shared memory / MIO result) 71%, MIO throttle"
	fi
	check "$1x$2: the shared-memory read line: 70% and a full bar" scan "^│ *$shared +70%█ +out\["
	check "$1x$2: the global read line: 20%" scan "^│ *$global +20%. +tile\[ty\]\[tx\] = in\["
	check_not "$1x$2: a line without samples has no cell" scan "^│ *15 +[0-9<]+%"
	if [ "$1" = 200 ]; then
		check "200x60: the hottest line's reasons beside it" shows "= tile\[tx\]\[ty\]; .*← shared mem 71%, MIO queue 21% *│"
	fi
	keys z v v
	check "$1x$2: the SASS view" wait_for "SASS tile.cu" 60
	keys z
	check "$1x$2: SASS: scrolled to the hottest instruction" wait_re "^│ +50%█ +([0-9a-f]{4} +)?STG"
	keys g
	check "$1x$2: SASS: the header at its top" wait_for "line $shared 70%: "
	check "$1x$2: SASS: the LDS with its 20% beside it" scan "^│ +20%. +([0-9a-f]{4} +)?LDS R"
	check "$1x$2: SASS: the STG with 50% and a full bar" scan "^│ +50%█ +([0-9a-f]{4} +)?STG"
	keys z v
	wait_for "Kernel tile.cu" >/dev/null
	keys n
	check "$1x$2: another stage: no heat" wait_for "Kernel padded.cu"
	check_not "$1x$2: ... no header" shows "line $shared 70%: "
	keys p
	check "$1x$2: back: the heat again (the same values)" wait_for "line $shared 70%: "
	keys H
	check "$1x$2: H again hides it" wait_gone "line $shared 70%: "
	check "$1x$2: ... and says so" shows "heat column hidden"
	keys ?
	wait_for "Keys (Tab: glossary" >/dev/null
	i=0; while [ $i -lt 12 ] && ! screen | grep -qF "hotspots by line"; do keys j; sleep 0.1; i=$((i + 1)); done
	check "$1x$2: help lists H" shows "H +hotspots by line +"
	keys q q
	wait_for "EXITED rc=0" >/dev/null
done

# The worker's note when it has no samples (no permission, say) is the status line.
export XDG_STATE_HOME="$TMP/state-note"
printf '#!/bin/sh\nCC_FAKE_HOTSPOTS_NOTE="program-counter sampling needs permission: NVreg_RestrictProfilingToAdminUsers=0" exec "%s" "$@"\n' "$TMP/fake" >"$TMP/fake-note"
chmod +x "$TMP/fake-note"
open_tile 100 30 CUDACLIMB_WORKER="$TMP/fake-note" --
keys H
check "100x30: no permission: H says so" wait_for "program-counter sampling needs permission"
check_not "... and no heat column" shows "hotspots: [0-9]+ samples"
keys q
wait_for "EXITED rc=0" >/dev/null
