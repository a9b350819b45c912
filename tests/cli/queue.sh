#!/bin/sh
# The fair GPU queue (src/worker/gpulock.c), without a GPU, through tests/queue_probe.c: a simulated class
# of 30 processes as 3 users (when this runs as root, with setpriv; else one user, said so) queue
# at once; no two "timed runs" overlap, they are served in the order their tickets were made, and
# all are served. A holder killed with SIGKILL does not block the next; a forged ticket (named for
# another user) and a stale one (nobody holds its lock) are passed over; a head not yet started is
# not shown running; one user's runs in a row are passed over at the cap as one hold, and a run is
# held from its start, not from when a waiter first saw it; a queue folder that is a
# symlink, or writable by all without the sticky bit, is refused with a message and nothing runs
# (never unqueued). The trace names the GPU. A holder past the cap is told so when it gives the GPU back.
. tests/lib.sh
tmp=$(mktemp -d); trap '[ -n "${KEEP:-}" ] || rm -rf "$tmp"' EXIT
chmod 755 "$tmp"
cuda=${CUDA_HOME:-/usr/local/cuda}
if ! cc -std=c11 -D_GNU_SOURCE -Isrc/core -Isrc/lesson -Isrc/engine -Isrc/runner -Isrc/worker -Isrc/app -I$cuda/include tests/queue_probe.c src/worker/gpulock.c src/core/util.c -o "$tmp/probe" 2>"$tmp/cc.log"; then
	fail "queue: the probe did not build: $(head -3 "$tmp/cc.log")"; exit 0
fi
chmod 755 "$tmp/probe"
export CUDACLIMB_LOCK_DIR=$tmp/locks
mkdir -m 1777 "$CUDACLIMB_LOCK_DIR"
# the class's queue is made as `cudaclimb queue init` makes it (root's, 1777), before the users come
mkdir -m 1777 "$CUDACLIMB_LOCK_DIR/cudaclimb-gpu-UUIDCLASS.q"
log=$tmp/log; : >"$log"; chmod 666 "$log"
if [ "$(id -u)" = 0 ] && command -v setpriv >/dev/null; then
	as() { u=$1; shift; setpriv --reuid="$u" --regid="$u" --clear-groups "$@"; }
	users="2001 2002 2003"; who="3 users"
else
	as() { shift; "$@"; }
	users="$(id -u) $(id -u) $(id -u)"; who="one user (not root: no setpriv)"
fi

# 30 at once: 10 per user, interleaved, each holding the GPU 25 ms; the queue traces each hold.
export CUDACLIMB_QUEUE_TRACE=$tmp/trace
: >"$CUDACLIMB_QUEUE_TRACE"; chmod 666 "$CUDACLIMB_QUEUE_TRACE"
t0=$(date +%s%N)
i=0
for k in 1 2 3 4 5 6 7 8 9 10; do
	for u in $users; do
		as "$u" "$tmp/probe" UUIDCLASS 25 "$log" 2>>"$tmp/notes" &
		i=$((i + 1))
	done
done
wait
t1=$(date +%s%N)
python3 - "$log" "$t0" "$t1" "$who" "$users" <<'PY'
import sys
log, t0, t1, who = sys.argv[1], int(sys.argv[2]), int(sys.argv[3]), sys.argv[4]
runs = sorted((int(c), int(s), int(e), p, u) for _, c, s, e, p, u in (l.split() for l in open(log)))
def check(name, ok, detail): print("%s queue: %s (%s)" % ("PASS" if ok else "FAIL", name, detail))
check("30 processes as %s are all served" % who, len(runs) == 30, "%d runs" % len(runs))
by_start = sorted(runs, key=lambda r: r[1])
overlap = [(a, b) for a, b in zip(by_start, by_start[1:]) if b[1] < a[2]]
check("no two runs overlap", not overlap, "%d overlaps" % len(overlap))
order = [r[0] for r in by_start]
check("served in the order the tickets were made", order == sorted(order) and all(c > 0 for c in order),
      "first out of order at %s" % next((i for i in range(1, len(order)) if order[i] < order[i - 1]), "-"))
held = sum(r[2] - r[1] for r in runs) / 1e6; total = (t1 - t0) / 1e6
waits = [r[1] - r[0] for r in by_start]
check("the queue's own cost is small", total < held + 3000,
      "%.0f ms in all for %.0f ms of runs; longest wait %.0f ms, for the %dth ticket" % (total, held, max(waits) / 1e6, waits.index(max(waits)) + 1))
check("every user of the class is served", set(r[4] for r in runs) == set(sys.argv[5].split()), "users %s" % sorted(set(r[4] for r in runs)))
PY
unset CUDACLIMB_QUEUE_TRACE
python3 - "$log" "$tmp/trace" <<'PY'
import sys
probe = {l.split()[4]: l.split() for l in open(sys.argv[1])}
trace = [l.split() for l in open(sys.argv[2])]
# each traced hold is its process's: placed when the probe saw its ticket placed, got before the probe's
# start and given back after its end
ok = len(trace) == 30 and all(len(t) == 7 and t[6] == "UUIDCLASS" and t[4] in probe and int(t[1]) == int(probe[t[4]][1]) and int(t[2]) <= int(probe[t[4]][2])
                                 and int(t[3]) >= int(probe[t[4]][3]) for t in trace)
print("%s queue: CUDACLIMB_QUEUE_TRACE has each hold, with its GPU (%d lines)" % ("PASS" if ok else "FAIL", len(trace)))
PY
grep -q "in line, behind " "$tmp/notes" && pass "queue: waiters say where they are in line" || fail "queue: no 'in line' note"

# A holder killed with SIGKILL: the next one starts at once.
: >"$log"
"$tmp/probe" UUIDKILL 20000 "$log" 2>/dev/null &
holder=$!
i=0; while [ $i -lt 50 ] && [ -z "$(ls "$CUDACLIMB_LOCK_DIR"/cudaclimb-gpu-UUIDKILL.q/s-* 2>/dev/null)" ]; do sleep 0.05; i=$((i + 1)); done
"$tmp/probe" UUIDKILL 10 "$log" 2>"$tmp/killnote" &
next=$!
sleep 0.5
k0=$(date +%s%N); kill -9 $holder; wait $next; k1=$(date +%s%N)
ms=$(( (k1 - k0) / 1000000 ))
[ "$ms" -lt 1500 ] && grep -q "in line" "$tmp/killnote" && pass "queue: a killed holder does not block ($ms ms after the kill)" \
	|| fail "queue: after the holder was killed the next waited $ms ms"

# A forged ticket (named for another user) and a stale one (its lock not held) are passed over. Both
# are named as genuine tickets are (t-UID-PID and 16 hex digits): any other name is junk, never opened,
# and would pass this test without reaching the owner and lock checks.
q=$CUDACLIMB_LOCK_DIR/cudaclimb-gpu-UUIDFAKE.q
mkdir -m 1777 "$q"
if [ "$(id -u)" = 0 ]; then
	as 2001 sh -c "echo mallory 1 99 >$q/t-2002-1-00000000000f0e9d; sleep 10" &
	forger=$!
	sleep 0.2
	as 2001 flock "$q/t-2002-1-00000000000f0e9d" sleep 10 &
	locker=$!
else
	forger=""; locker=""
fi
echo "ghost 1 99" >"$q/t-$(id -u)-1-000000000057a1e0"
: >"$log"
s0=$(date +%s%N); as 2003 "$tmp/probe" UUIDFAKE 10 "$log" 2>/dev/null; rc=$?; s1=$(date +%s%N)
[ $rc = 0 ] && [ $(( (s1 - s0) / 1000000 )) -lt 1500 ] && pass "queue: forged and stale tickets are passed over" \
	|| fail "queue: a forged or stale ticket held up the run (exit $rc, $(( (s1 - s0) / 1000000 )) ms)"
[ -n "$forger" ] && kill $forger $locker 2>/dev/null

# A ticket at the head whose run has not started (its start mark still 0600, as its owner makes it
# while waiting) is not shown running: only a mark opened to others (0644, at the start) says so,
# and a head that never starts is passed over sooner (after the head's grace, not the cap).
q=$CUDACLIMB_LOCK_DIR/cudaclimb-gpu-UUIDWAIT.q
mkdir -m 1777 "$q"
tn=t-$(id -u)-1-00000000000a11ed
echo "waiter 1 99" >"$q/$tn"
(umask 077; : >"$q/s-$tn")
timeout 20 flock "$q/$tn" sh -c "echo \$\$ >'$tmp/wpid'; exec sleep 15" &
wl=$!
i=0; while [ $i -lt 50 ] && [ ! -s "$tmp/wpid" ]; do sleep 0.05; i=$((i + 1)); done
st1=$(timeout 10 "$tmp/probe" status UUIDWAIT 2>&1)
chmod 644 "$q/s-$tn"
st2=$(timeout 10 "$tmp/probe" status UUIDWAIT 2>&1)
kill "$(cat "$tmp/wpid")" $wl 2>/dev/null; wait $wl 2>/dev/null
case "$st1" in *"1 in line"*"(running)"* | *"0 in line"*) fail "queue: a head whose start mark is 0600 (waiting): status '$st1'" ;;
*"1 in line"*) case "$st2" in *"1 in line"*"(running)"*) pass "queue: a head whose start mark is still 0600 is waiting, not running; opened to 0644 it is running" ;;
	*) fail "queue: a head whose start mark is 0644: status '$st2', expected running" ;; esac ;;
*) fail "queue: status of a waiting head: '$st1'" ;;
esac

# One user's runs one after another count as one hold: six runs of 1.5 s of one user, queued ahead,
# are passed over once they have held the GPU 3 s in a row (the cap), not after all six (9 s). (The
# waiter's head mark of each next ticket carries the streak, so the note may name the run or the runs.)
q=$CUDACLIMB_LOCK_DIR/cudaclimb-gpu-UUIDSTREAK.q
mkdir -m 1777 "$q"
: >"$log"
set -- $users; u1=$1 u2=$2 u3=$3
pids=
for k in 1 2 3 4 5 6; do as "$u2" env CUDACLIMB_QUEUE_CAP=3 timeout 30 "$tmp/probe" UUIDSTREAK 1500 "$log" 2>/dev/null & pids="$pids $!"; done
i=0; while [ $i -lt 100 ] && [ "$(ls "$q" | grep -c '^t-')" -lt 6 ]; do sleep 0.05; i=$((i + 1)); done
s0=$(date +%s%N)
as "$u1" env CUDACLIMB_QUEUE_CAP=3 timeout 30 "$tmp/probe" UUIDSTREAK 10 "$log" 2>"$tmp/streak"; rc=$?; w=$(( ($(date +%s%N) - s0) / 1000000 ))
wait $pids
[ $rc = 0 ] && [ "$w" -lt 6000 ] && grep -Eq "(runs have held the GPU for [0-9]* s in a row|run has held the GPU for [0-9]* s), past the cap of 3 s: passed over" "$tmp/streak" \
	&& pass "queue: six runs in a row of one user are passed over at the cap ($w ms; cap 3 s, 9 s of runs)" \
	|| fail "queue: behind six runs of one user: exit $rc after $w ms: $(tail -2 "$tmp/streak")"

# A run that started before a waiter came: its hold counts from its start (the start mark's change
# time), not from when this waiter first saw it. Started 2.2 s before, with a cap of 3 s: the waiter
# goes ahead in about a second, not 3 s.
q=$CUDACLIMB_LOCK_DIR/cudaclimb-gpu-UUIDLATE.q
mkdir -m 1777 "$q"
as "$u3" timeout 30 "$tmp/probe" UUIDLATE 6000 "$log" 2>/dev/null &
h=$!
i=0; while [ $i -lt 100 ] && [ "$(stat -c %a "$q"/s-* 2>/dev/null)" != 644 ]; do sleep 0.02; i=$((i + 1)); done
sleep 2.2
s0=$(date +%s%N)
as "$u1" env CUDACLIMB_QUEUE_CAP=3 timeout 30 "$tmp/probe" UUIDLATE 10 "$log" 2>"$tmp/late"; rc=$?; w=$(( ($(date +%s%N) - s0) / 1000000 ))
wait $h
[ $rc = 0 ] && [ "$w" -lt 2000 ] && grep -q "run has held the GPU for [0-9]* s, past the cap of 3 s: passed over" "$tmp/late" \
	&& pass "queue: a run that started before the waiter came is passed over at the cap from its start ($w ms)" \
	|| fail "queue: behind a run started 2.2 s before: exit $rc after $w ms (cap 3 s): $(tail -2 "$tmp/late")"

# Several GPUs: without --gpu a run goes to the one with the shortest queue (gpulock_pick), here
# UUIDB's empty queue while UUIDA has a holder and a waiter; with equal queues, one by process id.
"$tmp/probe" UUIDA 1500 "$log" 2>/dev/null &
a1=$!
sleep 0.2
"$tmp/probe" UUIDA 10 "$log" 2>/dev/null &
a2=$!
sleep 0.3
got=$("$tmp/probe" pick UUIDA UUIDB); got2=$("$tmp/probe" pick UUIDB UUIDA)
[ "$got" = "1 2 0" ] && [ "$got2" = "0 0 2" ] && pass "queue: several GPUs: the shortest queue is chosen ($got; $got2)" \
	|| fail "queue: several GPUs: pick gave '$got' and '$got2', expected '1 2 0' and '0 0 2'"
wait $a1 $a2
# Equal queues (all empty): each process takes one of them, chosen by its process id, so that a
# class starting at once spreads over the GPUs instead of all taking the first.
picks=""
for i in 1 2 3 4 5 6 7 8 9 10 11 12 13 14 15 16; do picks="$picks $("$tmp/probe" pick UUIDA UUIDB)"; done
case "$picks" in
*"0 0 0"*"1 0 0"* | *"1 0 0"*"0 0 0"*) pass "queue: several GPUs: equal queues: runs started apart take both GPUs" ;;
*) fail "queue: equal queues: 16 picks took one GPU (or saw a line):$picks" ;;
esac

# Unsafe queue folders: refused with a reason; nothing runs (exit 5, no line in the log).
: >"$log"
ln -s /tmp "$CUDACLIMB_LOCK_DIR/cudaclimb-gpu-UUIDLINK.q"
"$tmp/probe" UUIDLINK 1 "$log" 2>"$tmp/n1"; rc=$?
[ $rc = 5 ] && [ ! -s "$log" ] && grep -q "is a symbolic link" "$tmp/n1" && pass "queue: a symlinked queue folder is refused, nothing runs" || fail "queue: symlink: exit $rc, $(cat "$tmp/n1")"
mkdir "$CUDACLIMB_LOCK_DIR/cudaclimb-gpu-UUIDOPEN.q"; chmod 777 "$CUDACLIMB_LOCK_DIR/cudaclimb-gpu-UUIDOPEN.q"
"$tmp/probe" UUIDOPEN 1 "$log" 2>"$tmp/n2"; rc=$?
[ $rc = 5 ] && [ ! -s "$log" ] && grep -q "without the sticky bit" "$tmp/n2" && grep -q "sudo cudaclimb queue init" "$tmp/n2" \
	&& pass "queue: a queue folder writable by all without the sticky bit is refused, with what to do" \
	|| fail "queue: open folder: exit $rc, $(cat "$tmp/n2")"

# A run of its own folder (a user studying alone) is unaffected: the folder is made as theirs.
own=$tmp/own; mkdir -m 700 "$own"
CUDACLIMB_LOCK_DIR=$own "$tmp/probe" UUIDOWN 1 "$log" 2>"$tmp/n3"; rc=$?
[ $rc = 0 ] && [ -d "$own/cudaclimb-gpu-UUIDOWN.q" ] && pass "queue: a folder of one's own is used as before" || fail "queue: own folder: exit $rc, $(cat "$tmp/n3")"

# A holder past the cap is told so when it gives the GPU back.
CUDACLIMB_QUEUE_CAP=1 "$tmp/probe" UUIDCAP 1300 "$log" 2>"$tmp/n4"; rc=$?
[ $rc = 0 ] && grep -q "past the queue's cap of 1 s" "$tmp/n4" && pass "queue: a holder past the cap is told when it releases" \
	|| fail "queue: past the cap: exit $rc, $(cat "$tmp/n4")"
