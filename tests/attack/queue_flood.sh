#!/bin/sh
# Attacks on the file GPU queue (src/worker/gpulock.c) by a hostile student (uid 2002), without a
# GPU, through tests/queue_probe.c (holds are logged as "run CTIME START END PID UID"):
#   - a flood: 80 000 files "t-2002-junk..." in the queue folder, then two honest users (2001, 2003)
#     queue one after the other: their holds must not overlap;
#   - a squatted start mark: 2002 makes "s-TICKET" for 2001's ticket as soon as it appears, while
#     2001 waits behind 2003: 2001's run must still be seen as running (its own mark), not as a ticket
#     that never started (which a waiter passes over after the head's grace);
#   - a squatted head mark: 2002 holds the line and makes "h-2001-TICKET" for its own ticket first:
#     2001's second waiting process must not wait a whole cap again;
#   - a flood of head marks: 2002 makes thousands of files under the names of 2001's own marks: they
#     cannot push 2001's real mark out of its listing.
# Every process is bounded in time (timeout) and memory (ulimit -v); without root: SKIP.
. tests/lib.sh
if [ "$(id -u)" != 0 ] || ! command -v setpriv >/dev/null; then
	skip "attack queue flood: the attacker and the waiters need root (setpriv, uids 2001-2003)"
	exit 0
fi
tmp=$(mktemp -d); trap '[ -n "${KEEP:-}" ] || rm -rf "$tmp"' EXIT
chmod 755 "$tmp"
cuda=${CUDA_HOME:-/usr/local/cuda}
if ! cc -std=c11 -D_GNU_SOURCE -Isrc/core -Isrc/lesson -Isrc/engine -Isrc/runner -Isrc/worker -Isrc/app -I$cuda/include tests/queue_probe.c src/worker/gpulock.c src/core/util.c -o "$tmp/probe" 2>"$tmp/cc.log"; then
	fail "attack queue flood: the probe did not build: $(head -3 "$tmp/cc.log")"; exit 0
fi
chmod 755 "$tmp/probe"
export CUDACLIMB_LOCK_DIR=$tmp/locks
mkdir -m 1777 "$CUDACLIMB_LOCK_DIR"
log=$tmp/log; : >"$log"; chmod 666 "$log"
bound() {   # bound S U CMD...: as user U, at most S seconds and 200 MB of address space
	s=$1 u=$2; shift 2
	( ulimit -v 204800; timeout -k 2 "$s" setpriv --reuid="$u" --regid="$u" --clear-groups "$@" )
}
# overlaps LOG: how many holds in LOG start before the one before them ended
overlaps() { sort -k3,3n "$1" | awk '{ if (NR > 1 && $3 < end) n++; if ($4 > end) end = $4 } END { print n + 0 }'; }

# 1. The flood.
q=$CUDACLIMB_LOCK_DIR/cudaclimb-gpu-UUIDFLOOD.q
mkdir -m 1777 "$q"
start=$(date +%s%N)
bound 60 2002 sh -c "cd '$q' && seq -f 't-2002-junk%.0f' 1 80000 | xargs touch"
made=$(( ($(date +%s%N) - start) / 1000000 ))
n=$(ls -f "$q" | grep -c '^t-2002-junk')
bound 30 2001 "$tmp/probe" UUIDFLOOD 3000 "$log" 2>"$tmp/f1" & a=$!
i=0; while [ $i -lt 100 ] && [ -z "$(ls -f "$q" | grep '^s-t-2001-' | head -1)" ]; do sleep 0.05; i=$((i + 1)); done
sleep 0.2
bound 30 2003 "$tmp/probe" UUIDFLOOD 3000 "$log" 2>"$tmp/f2" & b=$!
wait $a; ra=$?; wait $b; rb=$?
ov=$(overlaps "$log")
if [ $ra = 0 ] && [ $rb = 0 ] && [ "$(wc -l <"$log")" = 2 ] && [ "$ov" = 0 ]; then
	gap=$(sort -k3,3n "$log" | awk 'NR == 1 { e = $4 } NR == 2 { printf "%d", ($3 - e) / 1000000 }')
	pass "attack queue flood: $n junk tickets (made in $made ms): two honest 3 s holds do not overlap (the second began $gap ms after the first ended)"
else
	fail "attack queue flood: exits $ra $rb, $(wc -l <"$log") holds, $ov overlapping: $(cat "$log") / $(tail -n 2 "$tmp/f1" "$tmp/f2")"
fi
rm -rf "$q"

# 2. The squatted start mark: 2003 holds 1.5 s, 2001 waits behind it, 2002 squats 2001's s- name.
: >"$log"
q=$CUDACLIMB_LOCK_DIR/cudaclimb-gpu-UUIDSMARK.q
mkdir -m 1777 "$q"
bound 30 2003 "$tmp/probe" UUIDSMARK 1500 "$log" 2>/dev/null & h=$!
i=0; while [ $i -lt 100 ] && [ -z "$(ls "$q" | grep '^t-2003-')" ]; do sleep 0.02; i=$((i + 1)); done
bound 20 2002 sh -c "i=0; while [ \$i -lt 300 ]; do for t in \$(ls '$q' | grep '^t-2001-'); do [ -e '$q/s-'\$t ] || touch '$q/s-'\$t 2>/dev/null; done; i=\$((i + 1)); sleep 0.01; done" 2>/dev/null & sq=$!
bound 30 2001 "$tmp/probe" UUIDSMARK 3000 "$log" 2>"$tmp/s1" & v=$!
wait $h
sleep 1
st=$(bound 10 2003 "$tmp/probe" status UUIDSMARK 2>&1)
owner=$(stat -c %u "$q"/s-t-2001-* 2>/dev/null | head -1)
V=$(getent passwd 2001 | cut -d: -f1); V=${V:-uid 2001}
wait $v; rv=$?; kill $sq 2>/dev/null; wait $sq 2>/dev/null
if [ $rv = 0 ] && printf '%s' "$st" | grep -q "$V (running)" && [ "$owner" = 2001 ]; then
	pass "attack queue flood: a start mark squatted for another's ticket: the mark stays its owner's (uid $owner) and the run is seen running ($(printf '%s' "$st" | sed 's/.*in line/in line/'))"
else
	fail "attack queue flood: squatted s- mark: exit $rv, mark owner '${owner:-none}', status: $st"
fi
rm -rf "$q"

# 3. The squatted head mark: 2002 holds the line (cap 3 s) and makes h-2001-TICKET for its own ticket.
export CUDACLIMB_QUEUE_CAP=3
q=$CUDACLIMB_LOCK_DIR/cudaclimb-gpu-UUIDHMARK.q
mkdir -m 1777 "$q"
bound 40 2002 "$tmp/probe" hog UUIDHMARK 30 >/dev/null 2>&1 & hog=$!
i=0; while [ $i -lt 100 ] && [ -z "$(ls "$q" | grep '^s-t-2002-')" ]; do sleep 0.05; i=$((i + 1)); done
t=$(ls "$q" | grep '^t-2002-' | head -1)
bound 5 2002 sh -c "echo 1 >'$q/h-2001-$t'; chmod 644 '$q/h-2001-$t'"
t0=$(date +%s%N)
bound 20 2001 "$tmp/probe" UUIDHMARK 10 "$log" 2>"$tmp/h1"; r1=$?; w1=$(( ($(date +%s%N) - t0) / 1000000 ))
t0=$(date +%s%N)
bound 20 2001 "$tmp/probe" UUIDHMARK 10 "$log" 2>"$tmp/h2"; r2=$?; w2=$(( ($(date +%s%N) - t0) / 1000000 ))
kill $hog 2>/dev/null; wait $hog 2>/dev/null
if [ $r1 = 0 ] && [ $r2 = 0 ] && [ "$w1" -lt 7000 ] && [ "$w2" -lt 1500 ]; then
	pass "attack queue flood: a head mark squatted by the holder: the first run waits the cap once ($w1 ms), the next $w2 ms (cap 3 s)"
else
	fail "attack queue flood: squatted h- mark: exits $r1 $r2 after $w1 ms and $w2 ms: $(tail -n 2 "$tmp/h1" "$tmp/h2")"
fi
[ "$(stat -c %u "$q/h-2001-$t" 2>/dev/null)" = 2002 ] && ls "$q" | grep -q "^h-2001-$t\.[0-9a-f]\{8\}$" \
	&& pass "attack queue flood: the waiters' own mark went under a name of their own (h-2001-TICKET.RANDOM)" \
	|| fail "attack queue flood: no suffixed mark: $(ls "$q" | grep '^h-' | head -5)"

# 4. A flood of squatted head marks: 2002 holds the line, takes h-2001-TICKET first, and makes
# thousands of files under the names 2001's own suffixed marks have (h-2001-TICKET.N), before and
# after 2001's first run. Only 2001's own files count as its marks (at most 4096 are kept from a
# listing), so the junk cannot push the real mark out: 2001's next run does not wait a whole cap again.
# On a tmpfs (mounted when it can be) a listing is in the order the files were made, newest or oldest
# first, so junk made before and after the real mark stands ahead of it either way; on a disk the order
# is a hash, and more junk makes it likely.
q=$CUDACLIMB_LOCK_DIR/cudaclimb-gpu-UUIDHFLOOD.q
mkdir -m 1777 "$q"
if mount -t tmpfs -o size=64m,nr_inodes=100000,mode=1777 tmpfs "$q" 2>/dev/null; then
	mounted=$q; trap 'umount -l "$mounted" 2>/dev/null; [ -n "${KEEP:-}" ] || rm -rf "$tmp"' EXIT; n=5000; where="a tmpfs"
else
	mounted=; n=30000; where="the disk (no tmpfs)"
fi
bound 60 2002 "$tmp/probe" hog UUIDHFLOOD 40 >/dev/null 2>"$tmp/hog4" & hog=$!
i=0; while [ $i -lt 100 ] && [ -z "$(ls "$q" | grep '^s-t-2002-')" ]; do sleep 0.05; i=$((i + 1)); done
t=$(ls "$q" | grep '^t-2002-' | head -1)
junk() { bound 60 2002 sh -c "cd '$q' && seq -f 'h-2001-$t.%08.0f' $1 $2 | xargs touch"; }
bound 5 2002 sh -c "echo 1 >'$q/h-2001-$t'; chmod 644 '$q/h-2001-$t'"
junk 1 $n
t0=$(date +%s%N)
bound 20 2001 "$tmp/probe" UUIDHFLOOD 10 "$log" 2>"$tmp/j1"; r1=$?; w1=$(( ($(date +%s%N) - t0) / 1000000 ))
junk $((n + 1)) $((2 * n))
t0=$(date +%s%N)
bound 20 2001 "$tmp/probe" UUIDHFLOOD 10 "$log" 2>"$tmp/j2"; r2=$?; w2=$(( ($(date +%s%N) - t0) / 1000000 ))
# the hog itself, by the pid it names (killing the bounding subshell would leave it holding the folder)
kill $(sed -n 's/^\([0-9]*\): hog holds .*/\1/p' "$tmp/hog4") $hog 2>/dev/null; wait $hog 2>/dev/null
made=$(ls -f "$q" | grep -c "^h-2001-$t\.")
[ -n "$mounted" ] && umount "$mounted"
if [ $r1 = 0 ] && [ $r2 = 0 ] && [ "$w1" -lt 7000 ] && [ "$w2" -lt 1500 ]; then
	pass "attack queue flood: $made files under 2001's mark names on $where: the first run waits the cap once ($w1 ms), the next $w2 ms (cap 3 s)"
else
	fail "attack queue flood: flooded h- marks on $where ($made): exits $r1 $r2 after $w1 ms and $w2 ms: $(tail -n 2 "$tmp/j1" "$tmp/j2")"
fi
