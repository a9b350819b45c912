#!/bin/sh
# A rolling set of tickets in the file GPU queue (src/worker/gpulock.c; red team L, finding 3): a
# hostile student (uid 2002) keeps placing genuine, locked tickets under fresh names, a new one every
# 0.5 s, each given up after 4 s (more than the cap, CUDACLIMB_QUEUE_CAP=3), so that every ticket of
# another user lands behind a few of them. Without a memory of owners, each run of every other user
# waited about a cap, every time. Now:
#   - tickets marked started: a started ticket past the cap anywhere in the line passes the owner
#     over at once: the victim's (2001) runs, each a new process, all go ahead within a second;
#   - tickets never started (each passed over at the head after the grace, the owner's run of them
#     after the cap): the victim's first run waits about a cap, its next ones (new processes: the
#     owner is remembered in the victim's private state, $XDG_STATE_HOME/cudaclimb/queue-passed, 0600
#     in a 0700 folder) go ahead within a second; another user (2003) waits a cap once;
#   - the memory is of the owner: an honest user's (2003) run is still waited for, with no overlap.
# Every process is bounded in time (timeout) and memory (ulimit -v); without root: SKIP.
. tests/lib.sh
if [ "$(id -u)" != 0 ] || ! command -v setpriv >/dev/null; then
	skip "attack queue roll: the attacker and the waiters need root (setpriv, uids 2001-2003)"
	exit 0
fi
PY=$(command -v /usr/bin/python3 || command -v python3) || { skip "attack queue roll: no python3 for the attacker's tickets"; exit 0; }
tmp=$(mktemp -d); trap '[ -n "${KEEP:-}" ] || rm -rf "$tmp"' EXIT
chmod 755 "$tmp"
cuda=${CUDA_HOME:-/usr/local/cuda}
if ! cc -std=c11 -D_GNU_SOURCE -Isrc/core -Isrc/lesson -Isrc/engine -Isrc/runner -Isrc/worker -Isrc/app -I$cuda/include tests/queue_probe.c src/worker/gpulock.c src/core/util.c -lm -o "$tmp/probe" 2>"$tmp/cc.log"; then
	fail "attack queue roll: the probe did not build: $(head -3 "$tmp/cc.log")"; exit 0
fi
chmod 755 "$tmp/probe"
export CUDACLIMB_LOCK_DIR=$tmp/locks CUDACLIMB_QUEUE_CAP=3
mkdir -m 1777 "$CUDACLIMB_LOCK_DIR"
log=$tmp/log; : >"$log"; chmod 666 "$log"
mkdir -m 755 "$tmp/home"
for u in 2001 2002 2003; do mkdir -m 700 "$tmp/home/$u"; chown $u:$u "$tmp/home/$u"; done
# as S U CMD...: as user U with a home of its own (its private state there), at most S seconds and 200 MB
as() {
	s=$1 u=$2; shift 2
	( ulimit -v 204800; timeout -k 2 "$s" setpriv --reuid="$u" --regid="$u" --clear-groups env -u XDG_STATE_HOME HOME="$tmp/home/$u" "$@" )
}
ms() { echo $(( ($(date +%s%N) - $1) / 1000000 )); }
overlaps() { sort -k3,3n "$1" | awk '{ if (NR > 1 && $3 < end) n++; if ($4 > end) end = $4 } END { print n + 0 }'; }
# The attacker's tickets, made as gpulock makes them (start mark first, a locked draft renamed into
# place); DIR KEEP INTERVAL SECONDS STARTED
cat >"$tmp/roll.py" <<'EOF'
import fcntl, os, secrets, sys, time
d, keep, step, end, started = sys.argv[1], int(sys.argv[2]), float(sys.argv[3]), time.time() + float(sys.argv[4]), sys.argv[5] == "1"
uid, pid, live = os.getuid(), os.getpid(), []
while time.time() < end:
    r = secrets.token_hex(8)
    name = f"t-{uid}-{pid}-{r}"; mark = f"{d}/s-{name}"; draft = f"{d}/n-{uid}-{pid}-{r}"
    os.close(os.open(mark, os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o600))
    fd = os.open(draft, os.O_RDWR | os.O_CREAT | os.O_EXCL, 0o644)
    fcntl.flock(fd, fcntl.LOCK_EX); os.fchmod(fd, 0o644)
    os.write(fd, f"h {pid} 0.5\n".encode()); os.rename(draft, f"{d}/{name}")
    if started: os.chmod(mark, 0o644)
    live.append((fd, name, mark))
    if len(live) > keep:
        fd0, n0, m0 = live.pop(0); os.unlink(f"{d}/{n0}"); os.unlink(m0); os.close(fd0)
    time.sleep(step)
EOF
chmod 644 "$tmp/roll.py"
# roll UUID STARTED SECONDS: the attacker in the background ($roller), once its line is 8 deep
roll() {
	q=$CUDACLIMB_LOCK_DIR/cudaclimb-gpu-$1.q
	mkdir -m 1777 "$q"
	as $(($3 + 5)) 2002 "$PY" "$tmp/roll.py" "$q" 8 0.5 "$3" "$2" & roller=$!
	i=0; while [ $i -lt 100 ] && [ "$(ls "$q" | grep -c '^t-2002-')" -lt 8 ]; do sleep 0.1; i=$((i + 1)); done
}

# 1. Started tickets: every run of the victim, each a new process, goes ahead within a second.
roll UUIDROLLS 1 16
waits=""; slow=0
for k in 1 2 3 4; do
	t0=$(date +%s%N); as 20 2001 "$tmp/probe" UUIDROLLS 100 "$log" 2>>"$tmp/s1"; rc=$?; w=$(ms "$t0")
	waits="$waits $w"; { [ $rc != 0 ] || [ "$w" -gt 1500 ]; } && slow=$((slow + 1))
done
[ $slow = 0 ] && pass "attack queue roll: behind a rolling set of started tickets, four runs of the victim wait no cap (ms:$waits; cap 3 s)" \
	|| fail "attack queue roll: behind a rolling set of started tickets, $slow of 4 runs of the victim waited (ms:$waits; cap 3 s)"
grep -q "uid 2002's runs are passed over, without waiting" "$tmp/s1" && pass "attack queue roll: the victim is told the attacker's runs are passed over" \
	|| fail "attack queue roll: no note that uid 2002 is passed over: $(tail -3 "$tmp/s1")"
wait $roller

# 2. Tickets never started: the victim's first run waits about a cap, its next ones (new processes)
# do not; a second user waits a cap once too.
roll UUIDROLLU 0 22
t0=$(date +%s%N); as 20 2001 "$tmp/probe" UUIDROLLU 100 "$log" 2>"$tmp/u1"; rc=$?; first=$(ms "$t0")
waits=""; slow=0
for k in 1 2 3; do
	t0=$(date +%s%N); as 20 2001 "$tmp/probe" UUIDROLLU 100 "$log" 2>>"$tmp/u2"; rc2=$?; w=$(ms "$t0")
	waits="$waits $w"; { [ $rc2 != 0 ] || [ "$w" -gt 1500 ]; } && slow=$((slow + 1))
done
[ $rc = 0 ] && [ "$first" -lt 6000 ] && [ $slow = 0 ] \
	&& pass "attack queue roll: behind tickets that never start, the victim waits one cap once ($first ms), then not again (ms:$waits)" \
	|| fail "attack queue roll: behind tickets that never start: first run exit $rc after $first ms, then $slow of 3 waited (ms:$waits)"
f=$tmp/home/2001/.local/state/cudaclimb/queue-passed
[ "$(stat -c %u:%a "$f" 2>/dev/null)" = 2001:600 ] && [ "$(stat -c %u:%a "$(dirname "$f")")" = 2001:700 ] && grep -q "^2002 " "$f" \
	&& ! ls -a "$CUDACLIMB_LOCK_DIR/cudaclimb-gpu-UUIDROLLU.q" | grep -q passed \
	&& pass "attack queue roll: the owner passed over is kept in the victim's private state (0600 in a 0700 folder), not in the shared folder" \
	|| fail "attack queue roll: the victim's state: $(stat -c '%u:%a' "$f" "$(dirname "$f")" 2>&1 | tr '\n' ' ')"
t0=$(date +%s%N); as 20 2003 "$tmp/probe" UUIDROLLU 100 "$log" 2>/dev/null; rc=$?; w1=$(ms "$t0")
t0=$(date +%s%N); as 20 2003 "$tmp/probe" UUIDROLLU 100 "$log" 2>/dev/null; rc2=$?; w2=$(ms "$t0")
[ $rc = 0 ] && [ $rc2 = 0 ] && [ "$w1" -lt 6000 ] && [ "$w2" -lt 1500 ] \
	&& pass "attack queue roll: another user waits at most a cap once too ($w1 ms, then $w2 ms)" \
	|| fail "attack queue roll: uid 2003: exit $rc after $w1 ms, then exit $rc2 after $w2 ms"
wait $roller

# 3. The memory is of the attacker alone: the victim still waits for an honest user's run.
: >"$log"
as 20 2003 "$tmp/probe" UUIDROLLU 1500 "$log" 2>/dev/null & honest=$!
q=$CUDACLIMB_LOCK_DIR/cudaclimb-gpu-UUIDROLLU.q
i=0; while [ $i -lt 100 ] && [ "$(stat -c %a "$q"/s-t-2003-* 2>/dev/null)" != 644 ]; do sleep 0.02; i=$((i + 1)); done
t0=$(date +%s%N); as 20 2001 "$tmp/probe" UUIDROLLU 100 "$log" 2>/dev/null; rc=$?; w=$(ms "$t0")
wait $honest
[ $rc = 0 ] && [ "$w" -gt 1000 ] && [ "$(overlaps "$log")" = 0 ] && [ "$(wc -l <"$log")" = 2 ] \
	&& pass "attack queue roll: an honest user's run is still waited for ($w ms), no overlap" \
	|| fail "attack queue roll: behind an honest run: exit $rc after $w ms, $(overlaps "$log") overlaps: $(cat "$log")"
