#!/bin/sh
# Attacks on the GPU queue (src/worker/gpulock.c), without a GPU, through tests/queue_probe.c and
# build/cudaclimb, as different unprivileged users (setpriv uids 2001-2003) when run as root:
#   - a hog that holds the head of the line and keeps refreshing its start mark, past a short cap
#     (CUDACLIMB_QUEUE_CAP=3): a waiter goes ahead within the cap and a few seconds, says so, and a
#     second process of the same user does not wait a whole cap again;
#   - a queue folder squatted by another user (0755 or 1777), or a folder of queues of another user:
#     the run is refused with what to do, and nothing runs unqueued; a symlink planted at a queue's
#     name is replaced by queue init, its target untouched;
#   - a ticket whose text and name carry escape sequences (OSC 52 clipboard, clear screen): the
#     waiter's output has no ESC byte;
#   - in a root-made queue folder, another user cannot delete a waiting user's ticket;
#   - ssh host names with ; ` $ quotes or a leading - are refused, and nothing is run.
# Every attack is bounded in time (timeout) and memory (ulimit -v).
. tests/lib.sh
tmp=$(mktemp -d); trap '[ -n "${KEEP:-}" ] || rm -rf "$tmp"' EXIT
chmod 755 "$tmp"
cuda=${CUDA_HOME:-/usr/local/cuda}
if ! cc -std=c11 -D_GNU_SOURCE -Isrc/core -Isrc/lesson -Isrc/engine -Isrc/runner -Isrc/worker -Isrc/app -I$cuda/include tests/queue_probe.c src/worker/gpulock.c src/core/util.c -o "$tmp/probe" 2>"$tmp/cc.log"; then
	fail "attack queue: the probe did not build: $(head -3 "$tmp/cc.log")"; exit 0
fi
chmod 755 "$tmp/probe"
export CUDACLIMB_LOCK_DIR=$tmp/locks
mkdir -m 1777 "$CUDACLIMB_LOCK_DIR"
log=$tmp/log; : >"$log"; chmod 666 "$log"
ms() { echo $(( ($(date +%s%N) - $1) / 1000000 )); }
# bounded: at most $1 seconds and 200 MB of address space
# (bound S asu U CMD...: as user U)
bound() {
	s=$1; shift
	if [ "$1" = asu ]; then u=$2; shift 2; set -- setpriv --reuid="$u" --regid="$u" --clear-groups "$@"; fi
	( ulimit -v 204800; timeout -k 2 "$s" "$@" )
}

# ssh host names: no user needed.
for h in 'gpu1;touch /tmp/PWNED' 'gpu1`id`' 'gpu1$(id)' "gpu1'x" 'gpu1"x' '-oProxyCommand=sh'; do
	out=$(bound 10 "$B" --runner "ssh $h" device 2>&1); rc=$?
	if [ $rc = 2 ] && printf '%s' "$out" | grep -q "cannot\|no setting"; then :; else fail "attack queue: ssh host '$h' was not refused (exit $rc: $out)"; bad=1; fi
	out=$(CUDACLIMB_RUNNER="ssh $h" bound 10 "$B" device 2>&1); rc=$?
	[ $rc = 0 ] && { fail "attack queue: CUDACLIMB_RUNNER='ssh $h' was not refused: $out"; bad=1; }
done
[ -z "${bad:-}" ] && pass "attack queue: ssh host names with ; \` \$ quotes or a leading - are refused (--runner and CUDACLIMB_RUNNER)"
out=$(bound 10 "$B" --runner 'ssh gpu1;id' device 2>&1)
printf '%s' "$out" | grep -q "the ssh host cannot have ';'" && pass "attack queue: the refusal says why ($(printf '%s' "$out" | head -1 | cut -c1-70)...)" \
	|| fail "attack queue: ssh host message: $out"

if [ "$(id -u)" != 0 ] || ! command -v setpriv >/dev/null; then
	skip "attack queue: the hog, squatted folders, escapes in tickets and ticket deletion need root (setpriv, uids 2001-2003)"
	exit 0
fi
asu() { u=$1; shift; setpriv --reuid="$u" --regid="$u" --clear-groups "$@"; }
UUID=5f3e1a2b000011112222333344445555

# 1. The hog: uid 2002 holds the head and refreshes its start mark every 100 ms for 60 s.
q=$CUDACLIMB_LOCK_DIR/cudaclimb-gpu-UUIDHOG.q
mkdir -m 1777 "$q"
export CUDACLIMB_QUEUE_CAP=3
setpriv --reuid=2002 --regid=2002 --clear-groups "$tmp/probe" hog UUIDHOG 40 >/dev/null 2>"$tmp/hog.err" &
hog=$!
i=0; while [ $i -lt 50 ] && [ -z "$(ls "$q"/s-* 2>/dev/null)" ]; do sleep 0.1; i=$((i + 1)); done
t0=$(date +%s%N)
bound 20 asu 2001 "$tmp/probe" UUIDHOG 10 "$log" 2>"$tmp/w1"; rc=$?; w1=$(ms "$t0")
[ $rc = 0 ] && [ "$w1" -lt 7000 ] && pass "attack queue: a hog refreshing its start mark is passed over after the cap ($w1 ms, cap 3 s)" \
	|| fail "attack queue: the waiter behind the hog: exit $rc after $w1 ms: $(tail -2 "$tmp/w1")"
# Which words depend on whether the waiter saw the hog's start mark between its refreshes: either the
# hold past the cap, or a head that did not start within the cap; both pass it over at the cap.
grep -Eq "has held the GPU for [0-9]* s, past the cap of 3 s: passed over|has been first in line for [0-9]* s without starting its run: passed over" "$tmp/w1" \
	&& pass "attack queue: the waiter says the hog was passed over ($(grep -Eo "uid 2002's (run has held the GPU|ticket has been first in line) for [0-9]* s" "$tmp/w1" | head -1))" \
	|| fail "attack queue: no 'passed over' note: $(cat "$tmp/w1")"
t0=$(date +%s%N)
bound 20 asu 2001 "$tmp/probe" UUIDHOG 10 "$log" 2>"$tmp/w2"; rc=$?; w2=$(ms "$t0")
[ $rc = 0 ] && [ "$w2" -lt 1500 ] && pass "attack queue: the same user's next run does not wait a whole cap again ($w2 ms)" \
	|| fail "attack queue: the same user's next run: exit $rc after $w2 ms"
t0=$(date +%s%N)
bound 20 asu 2003 "$tmp/probe" UUIDHOG 10 "$log" 2>"$tmp/w3"; rc=$?; w3=$(ms "$t0")
[ $rc = 0 ] && [ "$w3" -lt 7000 ] && pass "attack queue: another user behind the hog also goes ahead within the cap ($w3 ms)" \
	|| fail "attack queue: uid 2003 behind the hog: exit $rc after $w3 ms"
kill $hog 2>/dev/null; wait $hog 2>/dev/null
unset CUDACLIMB_QUEUE_CAP

# 2. Squatted folders: made by uid 2002 before anyone else, 0755 and 1777; then a folder of queues of 2002's.
: >"$log"
for mode in 755 1777; do
	asu 2002 mkdir -m $mode "$CUDACLIMB_LOCK_DIR/cudaclimb-gpu-UUIDSQ$mode.q"
	bound 10 asu 2001 "$tmp/probe" UUIDSQ$mode 10 "$log" 2>"$tmp/sq"; rc=$?
	[ $rc = 5 ] && [ ! -s "$log" ] && grep -q "belongs to uid 2002, so uid 2002 could delete your ticket" "$tmp/sq" && grep -q "sudo cudaclimb queue init" "$tmp/sq" \
		&& pass "attack queue: a queue folder squatted by another user (mode $mode) is refused with what to do; nothing ran" \
		|| fail "attack queue: squatted folder $mode: exit $rc, log $(wc -l <"$log") lines: $(cat "$tmp/sq")"
done
asu 2002 mkdir -m 755 "$CUDACLIMB_LOCK_DIR/cudaclimb-gpu-$UUID.q"
out=$(bound 10 asu 2001 "$B" queue $UUID 2>&1); rc=$?
[ $rc = 1 ] && printf '%s' "$out" | grep -q "refused: .*belongs to uid 2002" && pass "attack queue: cudaclimb queue shows the squatted folder as refused" \
	|| fail "attack queue: cudaclimb queue on a squatted folder: exit $rc: $out"
out=$(bound 10 "$B" queue init $UUID 2>&1); rc=$?
[ $rc = 0 ] && printf '%s' "$out" | grep -q "repaired .*now root's, mode 1777 (.*it was uid 2002's, uid 2002, mode 0755)" \
	&& [ "$(stat -c %u:%a "$CUDACLIMB_LOCK_DIR/cudaclimb-gpu-$UUID.q")" = "0:1777" ] \
	&& pass "attack queue: sudo cudaclimb queue init takes the squatted folder back (root's, 1777)" || fail "attack queue: queue init: exit $rc: $out"
out=$(bound 10 asu 2002 "$B" queue init $UUID 2>&1); rc=$?
[ $rc = 2 ] && printf '%s' "$out" | grep -q "needs root" && pass "attack queue: queue init as a user is refused" || fail "attack queue: queue init as 2002: exit $rc: $out"
# A symbolic link planted at a queue's name, to a folder of uid 2002's: queue init puts root's folder
# in its place and leaves the link's target as it was (not made root's, not opened to all).
U2=5f3e1a2b000011112222333344446666
mkdir -m 755 "$tmp/target"; chown 2002 "$tmp/target"
asu 2002 ln -s "$tmp/target" "$CUDACLIMB_LOCK_DIR/cudaclimb-gpu-$U2.q"
out=$(bound 10 "$B" queue init $U2 2>&1); rc=$?
[ $rc = 0 ] && [ ! -L "$CUDACLIMB_LOCK_DIR/cudaclimb-gpu-$U2.q" ] && [ "$(stat -c %u:%a "$CUDACLIMB_LOCK_DIR/cudaclimb-gpu-$U2.q")" = "0:1777" ] \
	&& [ "$(stat -c %u:%a "$tmp/target")" = "2002:755" ] \
	&& pass "attack queue: queue init replaces a planted symlink with root's folder; the link's target is untouched" \
	|| fail "attack queue: queue init over a planted symlink: exit $rc: $out; target $(stat -c %u:%a "$tmp/target")"
sq=$tmp/squat; mkdir -m 755 "$sq"; chown 2002 "$sq"
CUDACLIMB_LOCK_DIR=$sq bound 10 asu 2001 "$tmp/probe" UUIDBASE 10 "$log" 2>"$tmp/sq"; rc=$?
[ $rc = 5 ] && [ ! -s "$log" ] && grep -q "folder of the GPU queues .* belongs to uid 2002" "$tmp/sq" \
	&& pass "attack queue: a folder of queues owned by another user is refused too" || fail "attack queue: squatted CUDACLIMB_LOCK_DIR: exit $rc: $(cat "$tmp/sq")"

# 3. A ticket with escape sequences (OSC 52 to the clipboard, clear screen) in its text and its name,
# locked and at the head: the waiter's notes carry no ESC byte.
q=$CUDACLIMB_LOCK_DIR/cudaclimb-gpu-UUIDESC.q
mkdir -m 1777 "$q"
esc=$(printf '\033]52;c;cm0gLXJmIH4=\007\033[2J\033[H')
# (a ticket's name is t-UID-PID-RANDOM, 16 hex digits: one with escapes in its name is junk, never
# opened; the text is what a genuine ticket can carry)
asu 2002 sh -c "printf '%s 1 99\n' '$esc' >'$q/n-esc'; : >'$q/t-2002-1-$esc'"
tn=t-2002-1-0123456789abcdef
setpriv --reuid=2002 --regid=2002 --clear-groups flock "$q/n-esc" sh -c "echo \$\$ >'$q/pid'; mv '$q/n-esc' '$q/$tn'; touch '$q/s-$tn'; exec sleep 20" >/dev/null 2>&1 &
holder=$!
sleep 0.3
CUDACLIMB_QUEUE_CAP=2 bound 15 asu 2001 "$tmp/probe" UUIDESC 10 "$log" 2>"$tmp/esc"; rc=$?
if [ $rc = 0 ] && grep -q "in line\|passed over" "$tmp/esc" && ! grep -q "$(printf '\033')" "$tmp/esc"; then
	pass "attack queue: a ticket with escape sequences reaches the waiter without an ESC byte ($(grep -c . "$tmp/esc") notes)"
else
	fail "attack queue: escapes in a ticket: exit $rc, $(od -c "$tmp/esc" | head -5)"
fi
kill "$(cat "$q/pid")" $holder 2>/dev/null; wait $holder 2>/dev/null

# 4. In a root-made queue folder, another user cannot delete a waiting user's ticket.
q=$CUDACLIMB_LOCK_DIR/cudaclimb-gpu-UUIDDEL.q
mkdir -m 1777 "$q"
setpriv --reuid=2001 --regid=2001 --clear-groups "$tmp/probe" UUIDDEL 3000 "$log" >/dev/null 2>&1 &
first=$!
i=0; while [ $i -lt 50 ] && [ -z "$(ls "$q"/s-* 2>/dev/null)" ]; do sleep 0.1; i=$((i + 1)); done
bound 10 asu 2002 sh -c "touch '$CUDACLIMB_LOCK_DIR/tried'; rm -f '$q'/t-2001-* '$q'/s-t-2001-* 2>/dev/null; mv '$q'/t-2001-* '$q/moved' 2>/dev/null"
n=$(ls "$q" | grep -c '^t-2001-')
[ "$n" = 1 ] && [ ! -e "$q/moved" ] && [ -e "$CUDACLIMB_LOCK_DIR/tried" ] && pass "attack queue: another user cannot delete or move a ticket in a root-made queue folder" \
	|| fail "attack queue: uid 2002 removed uid 2001's ticket ($n left)"
wait $first
