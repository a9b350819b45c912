#!/bin/bash
# Measures the terminal interface as a user feels it, on the GPU box: time to the first frame, the
# what-if round trip (tunable changed -> compiled -> run -> result shown) cold and cached, and CPU
# used while idle. Drives the real binary in a detached tmux; the engine's CUDACLIMB_TRACE gives
# each job's submit-to-result time. Usage: scripts/tui-timing.sh [build/cudaclimb]
set -u
B=${1:-build/cudaclimb}
tmp=$(mktemp -d)
export CUDACLIMB_TRACE=$tmp/trace XDG_CACHE_HOME=$tmp/cache XDG_STATE_HOME=$tmp/state
sock=cc-timing-$$
trap 'tmux -L $sock kill-server 2>/dev/null; rm -rf "$tmp"' EXIT
ms() { echo $(( $(date +%s%N) / 1000000 )); }
screen() { tmux -L $sock capture-pane -p; }
wait_text() { local i=0; until screen 2>/dev/null | grep -q -- "$1"; do sleep 0.005; i=$((i + 1)); [ $i -gt 6000 ] && return 1; done; return 0; }
wait_lines() { local i=0; until [ -f "$CUDACLIMB_TRACE" ] && [ "$(wc -l <"$CUDACLIMB_TRACE")" -ge "$1" ]; do sleep 0.002; i=$((i + 1)); [ $i -gt 30000 ] && return 1; done; return 0; }
t0=$(ms)
tmux -L $sock new-session -d -x 120 -y 40 "$B"
wait_text "Lessons" || { echo "no first frame"; exit 1; }
t1=$(ms)
echo "first frame (tmux start to the lesson list on screen): $((t1 - t0)) ms"
pid=$(tmux -L $sock list-panes -F '#{pane_pid}')
wait_text "(sm_" || { echo "no GPU: only the first frame was measured"; exit 0; }
sleep 0.5                          # the GPU has been probed (the title bar names it)
tmux -L $sock send-keys Enter; wait_text "Tunables"
tmux -L $sock send-keys n; sleep 0.3
tmux -L $sock send-keys Tab Tab; sleep 0.2
step() {   # step KEY N LABEL: press KEY, wait for trace line N, report
	local s; s=$(ms); tmux -L $sock send-keys "$1"; wait_lines "$2" || { echo "$3: no result"; return; }
	echo "$3: keypress to result $(( $(ms) - s )) ms; engine $(sed -n "$2p" "$CUDACLIMB_TRACE" | sed 's/.*\(cached=[0-9]*\).*\(total_ms=[0-9.]*\).*\(ms_median=[0-9.]*\).*/\1 \2 \3/')"
}
step r 1 "first run of the stage (cold compile, inputs filled, reference run)"
step Right 2 "tunable changed, cold compile"
step Left 3 "tunable changed back, cached"
step Right 4 "tunable changed again, cached"
step Left 5 "and back, cached"
sleep 1
read_cpu() { awk '{print $14 + $15}' /proc/$pid/stat; }
c0=$(read_cpu); sleep 5; c1=$(read_cpu)
echo "idle CPU over 5 s: $((c1 - c0)) ticks ($(getconf CLK_TCK) per second)"
screen > "${OUT:-$tmp}/tui-stage.txt"
tmux -L $sock send-keys Escape; sleep 0.3; screen > "${OUT:-$tmp}/tui-lessons.txt"
tmux -L $sock send-keys q; sleep 0.3
tmux -L $sock kill-server 2>/dev/null
cat "$CUDACLIMB_TRACE" > "${OUT:-$tmp}/tui-trace.txt"
rm -rf "$tmp"
