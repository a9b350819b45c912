#!/bin/sh
# A lab on one GPU, measured (issue 15's benchmark): STUDENTS learners (default 30) start at once,
# each making RUNS timed runs (default 10) of one stage in a row, as 3 local users when run as root
# (setpriv), else as this user. Every GPU hold is traced by the queue itself
# (CUDACLIMB_QUEUE_TRACE, src/worker/gpulock.c), and the last lines say:
#   - the total wall time against the sum of the GPU holds (what the queue and the processes cost);
#   - the longest wait, and whether service followed the order of the tickets;
#   - whether any two holds on one GPU overlapped (they must not), per GPU (the trace names each
#     hold's GPU by UUID; holds on different GPUs may overlap), with each GPU's longest and p99 wait;
#   - on a box of several GPUs (nvidia-smi lists them), whether each got holds (a run without --gpu
#     takes the GPU with the shortest line; a GPU left idle fails).
# Usage, on the GPU box after make: scripts/class-bench.sh [LESSON/STAGE]  (default bandwidth/coalesced)
# REPS (default 50) timed repetitions per run. KEEP_TRACE=FILE copies the trace to FILE. Needs a GPU:
# without one it says so and exits 3.
set -u
stage=${1:-bandwidth/coalesced}
students=${STUDENTS:-30}; runs=${RUNS:-10}; reps=${REPS:-50}
cd "$(dirname "$0")/.." || exit 2
tmp=$(mktemp -d /tmp/class-bench.XXXXXX); trap 'rm -rf "$tmp"' EXIT
chmod 755 "$tmp"
make --no-print-directory install PREFIX="$tmp/inst" >"$tmp/install.log" 2>&1 || { echo "class-bench: make install failed"; tail -5 "$tmp/install.log"; exit 2; }
bin=$tmp/inst/bin/cudaclimb
chmod -R a+rX "$tmp/inst"
if ! "$bin" device >"$tmp/device" 2>&1 || grep -qi "no GPU" "$tmp/device"; then
	echo "class-bench: needs a GPU ($(head -1 "$tmp/device"))"; exit 3
fi
export CUDACLIMB_LOCK_DIR=$tmp/locks CUDACLIMB_QUEUE_TRACE=$tmp/trace
mkdir -m 1777 "$CUDACLIMB_LOCK_DIR"
: >"$CUDACLIMB_QUEUE_TRACE"; chmod 666 "$CUDACLIMB_QUEUE_TRACE"
# Several users share the queues only in folders that none of them owns: made root's, as a lab's
# administrator does once with `sudo cudaclimb queue init`.
[ "$(id -u)" = 0 ] && { "$bin" queue init || { echo "class-bench: cudaclimb queue init failed"; exit 2; }; }
if [ "$(id -u)" = 0 ] && command -v setpriv >/dev/null; then
	as() { u=$1; shift; setpriv --reuid="$u" --regid="$u" --clear-groups "$@"; }
	users="2001 2002 2003"; who="3 users"
else
	as() { shift; "$@"; }
	users="$(id -u)"; who="one user (not root: no setpriv)"
fi
# Each learner has a home of their own (caches, progress), compiled once before the clock starts, as a
# learner's stage is by the time they press r again.
i=0; set -- $users
while [ $i -lt "$students" ]; do
	u=$(echo $users | cut -d' ' -f$((i % $# + 1)))
	h=$tmp/home/s$i; mkdir -p "$h"; chown "$u" "$h" 2>/dev/null
	echo "$u" >"$tmp/uid$i"
	i=$((i + 1))
done
learner() {   # learner I: RUNS timed runs in a row; each run's exit status and wall time to its log
	h=$tmp/home/s$1
	k=0
	while [ $k -lt "$runs" ]; do
		as "$(cat "$tmp/uid$1")" env HOME="$h" XDG_CACHE_HOME="$h/cache" XDG_STATE_HOME="$h/state" \
			"$bin" run "$stage" --reps "$reps" --no-counters >>"$h/log" 2>&1
		echo "exit $?" >>"$h/log"
		k=$((k + 1))
	done
}
as "$(cat "$tmp/uid0")" env HOME="$tmp/home/s0" XDG_CACHE_HOME="$tmp/home/s0/cache" "$bin" run "$stage" --reps 5 --no-counters >"$tmp/warm" 2>&1
i=1; while [ $i -lt "$students" ]; do cp -r "$tmp/home/s0/cache" "$tmp/home/s$i/" 2>/dev/null; chown -R "$(cat "$tmp/uid$i")" "$tmp/home/s$i"; i=$((i + 1)); done
: >"$CUDACLIMB_QUEUE_TRACE"
t0=$(date +%s%N)
i=0; while [ $i -lt "$students" ]; do learner $i & i=$((i + 1)); done
wait
t1=$(date +%s%N)
[ -n "${KEEP_TRACE:-}" ] && cp "$CUDACLIMB_QUEUE_TRACE" "$KEEP_TRACE"
# the box's GPUs, each of which should get holds (not when CUDA_VISIBLE_DEVICES hides some)
uuids=$(nvidia-smi --query-gpu=uuid --format=csv,noheader 2>/dev/null | sed 's/^GPU-//; s/-//g' | tr 'A-F' 'a-f' | grep -E '^[0-9a-f]{32}$' | tr '\n' ' ')
[ -n "${CUDA_VISIBLE_DEVICES+set}" ] && uuids=""
bad=$(cat "$tmp"/home/s*/log | grep -c '^exit [^0]')
echo "class-bench: $students learners as $who, $runs runs each of $stage (--reps $reps), on $(sed -n 's/^GPU [0-9]*: \([^(]*\) (.*/\1/p' "$tmp/device" | head -1)"
[ "$bad" = 0 ] || { echo "class-bench: $bad runs failed; one log:"; grep -l '^exit [^0]' "$tmp"/home/s*/log | head -1 | xargs tail -15; }
python3 - "$CUDACLIMB_QUEUE_TRACE" "$t0" "$t1" "$((students * runs))" "$uuids" <<'PY'
import sys
trace, t0, t1, want = sys.argv[1], int(sys.argv[2]), int(sys.argv[3]), int(sys.argv[4])
box = sys.argv[5].split()   # the box's GPUs, by UUID (nvidia-smi's, as the trace writes them)
# "run ASK START END PID UID UUID" (older traces lack the UUID: one GPU, "-")
lines = [l.split() for l in open(trace) if l.startswith("run ")]
runs = sorted((int(f[1]), int(f[2]), int(f[3]), f[4], f[5], f[6] if len(f) > 6 else "-") for f in lines)
gpus = sorted(set(r[5] for r in runs) | set(box))
held = sum(r[2] - r[1] for r in runs) / 1e9
total = (t1 - t0) / 1e9
overlaps = out_of_order = 0
gaps = []
per_gpu = []
for g in gpus:
    mine = sorted((r for r in runs if r[5] == g), key=lambda r: r[1])
    ov = sum(1 for a, b in zip(mine, mine[1:]) if b[1] < a[2])
    order = [r[0] for r in mine]
    ooo = sum(1 for a, b in zip(order, order[1:]) if b < a)
    overlaps += ov; out_of_order += ooo
    gaps += [(b[1] - a[2]) / 1e6 for a, b in zip(mine, mine[1:])]
    w = sorted((r[1] - r[0]) / 1e9 for r in mine) or [0]
    per_gpu.append((g, len(mine), sum(r[2] - r[1] for r in mine) / 1e9, ov, ooo, w[-1], w[min(len(w) - 1, int(0.99 * len(w)))]))
waits = [(r[1] - r[0]) / 1e9 for r in runs] or [0]
gaps.sort()
used = len(set(r[5] for r in runs))
print("holds traced        %d of %d runs, by %d users, on %d GPU%s" % (len(runs), want, len(set(r[4] for r in runs)), used, "" if used == 1 else "s"))
print("total wall time     %.2f s" % total)
print("sum of GPU holds    %.2f s  (%.0f%% of the wall time; the rest is process start, compile-cache reads and CUDA set-up,"
      " which overlap the holds)" % (held, 100 * held / total if total else 0))
print("hand-over gap       median %.1f ms, max %.1f ms between one hold's end and the next's start on its GPU" %
      (gaps[len(gaps) // 2] if gaps else 0, gaps[-1] if gaps else 0))
print("longest wait        %.2f s (ticket placed to GPU got); mean %.2f s" % (max(waits), sum(waits) / len(waits)))
for g, n, h, ov, ooo, longest, p99 in per_gpu:
    print("GPU %-16s %d holds, %.2f s held, %d overlapping, %s, longest wait %.2f s, p99 %.2f s" %
          (g[:16], n, h, ov, "in ticket order" if ooo == 0 else "%d out of order" % ooo, longest, p99))
idle = [g[:16] for g, n, *_ in per_gpu if n == 0]
if len(box) > 1:
    print("GPUs used           %d of the box's %d%s" % (len(box) - len(idle), len(box), "; no holds on " + ", ".join(idle) if idle else ""))
print("service order       %s" % ("in the order the tickets were placed, on each GPU" if out_of_order == 0 else "%d out of order" % out_of_order))
print("overlapping holds   %d (holds on one GPU that overlap; on different GPUs they may)" % overlaps)
sys.exit(0 if overlaps == 0 and out_of_order == 0 and len(runs) >= want and not idle else 1)
PY
