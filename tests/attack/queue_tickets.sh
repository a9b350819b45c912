#!/bin/sh
# A hostile student's flood of genuine-looking GPU tickets in the file queue (src/worker/gpulock.c),
# without a GPU, through tests/queue_probe.c (holds logged as "run CTIME START END PID UID"):
#   - 200 000 ticket files of uid 2002, named as tickets are (t-UID-PID-16 hex digits), its own, not
#     locked; half of them named for uid 2003, the victim (another's file under the victim's name). A
#     waiter used to open, stat and try the lock of every one each time it looked (0.9 s a hand-off
#     of the GPU and about 80% of a core a waiter, measured). Now a waiter reads only the tickets older
#     than its own and keeps what it learnt of a name (another's file, a younger ticket, a dead one)
#     while inotify says nothing of it. 2001 holds the GPU 8 s, 2003 and 2004 wait behind it: the holds
#     must not overlap, the victim's ticket is not lost among the files under its name, and the first
#     waiter spends under 40% of its wait on the CPU (about 65% before);
#   - an account's own run behind more than 64 of its live tickets: uid 2002 holds 100 locked tickets
#     and queues a run behind them, 2003 queues after it (cap 2 s, so 2002's tickets, never started,
#     are passed over). Others read at most 64 live tickets of an account, so 2002's run was not in
#     their line while its own waiter added itself and went ahead: two runs at once. Now its waiter
#     does not run while its account has 64 live tickets older than its own, and then queues again,
#     behind those who went ahead meanwhile: no overlap.
# Every process is bounded in time (timeout) and memory (ulimit -v); without root: SKIP.
. tests/lib.sh
if [ "$(id -u)" != 0 ] || ! command -v setpriv >/dev/null; then
	skip "attack queue tickets: the flooder and the waiters need root (setpriv, uids 2001-2004)"
	exit 0
fi
tmp=$(mktemp -d); trap '[ -n "${KEEP:-}" ] || rm -rf "$tmp"' EXIT
chmod 755 "$tmp"
cuda=${CUDA_HOME:-/usr/local/cuda}
if ! cc -std=c11 -D_GNU_SOURCE -Isrc/core -Isrc/lesson -Isrc/engine -Isrc/runner -Isrc/worker -Isrc/app -I$cuda/include tests/queue_probe.c src/worker/gpulock.c src/core/util.c -o "$tmp/probe" 2>"$tmp/cc.log"; then
	fail "attack queue tickets: the probe did not build: $(head -3 "$tmp/cc.log")"; exit 0
fi
cat >"$tmp/tix.c" <<'EOF'
#include <stdio.h>
#include <stdlib.h>
#include <fcntl.h>
#include <unistd.h>
#include <sys/file.h>
#include <sys/resource.h>
/* tix DIR N SECONDS LOCK [NAMEUID]: N ticket files of this user named for NAMEUID (default this uid),
 * locked (LOCK 1, then held SECONDS) or not (LOCK 0) */
int main(int argc, char **argv)
{
	struct rlimit r;
	getrlimit(RLIMIT_NOFILE, &r); r.rlim_cur = r.rlim_max; setrlimit(RLIMIT_NOFILE, &r);
	int n = atoi(argv[2]), lock = atoi(argv[4]), made = 0;
	unsigned uid = argc > 5 ? (unsigned)atoi(argv[5]) : getuid();
	for (int i = 0; i < n; i++) {
		char p[600];
		snprintf(p, sizeof p, "%s/t-%u-%d-%016llx", argv[1], uid, 100 + i % 30000, (unsigned long long)i * 2654435761ULL + 7);
		int fd = open(p, O_RDWR | O_CREAT | O_EXCL, 0644);
		if (fd < 0 || (lock && flock(fd, LOCK_EX))) break;
		if (!lock) close(fd);
		made++;
	}
	printf("%d\n", made);
	fflush(stdout);
	if (lock) sleep((unsigned)atoi(argv[3]));
	return 0;
}
EOF
cc -O1 -o "$tmp/tix" "$tmp/tix.c" || { fail "attack queue tickets: the ticket maker did not build"; exit 0; }
chmod 755 "$tmp/probe" "$tmp/tix"
export CUDACLIMB_LOCK_DIR=$tmp/locks
mkdir -m 1777 "$CUDACLIMB_LOCK_DIR"
log=$tmp/log; : >"$log"; chmod 666 "$log"
bound() {   # bound S U CMD...: as user U, at most S seconds and 200 MB of address space
	s=$1 u=$2; shift 2
	( ulimit -v 204800; timeout -k 2 "$s" setpriv --reuid="$u" --regid="$u" --clear-groups "$@" )
}
# cpu S U CMD...: bound, then the CPU time the command took (user + system, in ms) on stderr's last line
cpu() {
	s=$1 u=$2; shift 2
	( ulimit -v 204800; timeout -k 2 "$s" setpriv --reuid="$u" --regid="$u" --clear-groups sh -c '"$@"; rc=$?; times >&2; exit $rc' cpu "$@" )
}
# ms "0m1.25s": milliseconds
ms() { printf '%s\n' "$1" | awk '{ split($1, a, "m"); sub("s", "", a[2]); printf "%d", (a[1] * 60 + a[2]) * 1000 }'; }
overlaps() { sort -k3,3n "$1" | awk '{ if (NR > 1 && $3 < end) n++; if ($4 > end) end = $4 } END { print n + 0 }'; }
waitfor() { i=0; while [ $i -lt 200 ] && ! ls -f "$1" | grep -q "$2"; do sleep 0.05; i=$((i + 1)); done; }

# 1. 200 000 unlocked tickets of 2002: 100 000 under its own uid, 100 000 under the victim's (2003).
U=0123456789abcdef0123456789abcdef
q=$CUDACLIMB_LOCK_DIR/cudaclimb-gpu-$U.q
mkdir -m 1777 "$q"
s0=$(date +%s%N)
a=$(bound 120 2002 "$tmp/tix" "$q" 100000 0 0); b=$(bound 120 2002 "$tmp/tix" "$q" 100000 0 0 2003)
made=$(( ($(date +%s%N) - s0) / 1000000 ))
s0=$(date +%s%N)
st=$(bound 30 2004 "$tmp/probe" status $U 2>&1)
stms=$(( ($(date +%s%N) - s0) / 1000000 ))
bound 60 2001 "$tmp/probe" $U 8000 "$log" 2>"$tmp/h1" & h1=$!
waitfor "$q" '^s-t-2001-'
sleep 0.3
cpu 60 2003 "$tmp/probe" $U 300 "$log" 2>"$tmp/w1" & w1=$!
waitfor "$q" '^s-t-2003-'
bound 60 2004 "$tmp/probe" $U 300 "$log" 2>"$tmp/w2" & w2=$!
wait $h1; r1=$?; wait $w1; r2=$?; wait $w2; r3=$?
ov=$(overlaps "$log")
order=$(sort -k3,3n "$log" | awk '{ printf "%s%s", (NR > 1 ? " " : ""), $6 }')
gaps=$(sort -k3,3n "$log" | awk 'NR > 1 { printf "%s%d", (NR > 2 ? " " : ""), ($3 - e) / 1000000 } { e = $4 }')
wall=$(awk '$6 == 2003 { printf "%d", ($3 - $2) / 1000000 }' "$log")    # from its ticket to its start
used=$(ms "$(tail -n 1 "$tmp/w1" | cut -d' ' -f1)"); used=$((used + $(ms "$(tail -n 1 "$tmp/w1" | cut -d' ' -f2)")))
if [ $r1 = 0 ] && [ $r2 = 0 ] && [ $r3 = 0 ] && [ "$ov" = 0 ] && [ "$order" = "2001 2003 2004" ]; then
	pass "attack queue tickets: $a + $b unlocked tickets (made in $made ms): three holds in order, none overlapping (hand-offs $gaps ms; status $stms ms)"
else
	fail "attack queue tickets: exits $r1 $r2 $r3, $ov overlapping, order '$order': $(cat "$log") / $(tail -n 3 "$tmp/h1" "$tmp/w1" "$tmp/w2")"
fi
if [ -n "$wall" ] && [ "$wall" -gt 0 ] && [ $((used * 5)) -lt $((wall * 2)) ]; then
	pass "attack queue tickets: the waiter behind the flood spent $used ms of CPU in its $wall ms wait (under 40%)"
else
	fail "attack queue tickets: the waiter behind the flood spent $used ms of CPU in its ${wall:-?} ms wait (40% or more)"
fi
rm -rf "$q"

# 2. 2002's run behind 100 of its own locked tickets, 2003 after it; cap 2 s.
export CUDACLIMB_QUEUE_CAP=2
: >"$log"
U=00000000000000000000000000000002
q=$CUDACLIMB_LOCK_DIR/cudaclimb-gpu-$U.q
mkdir -m 1777 "$q"
bound 60 2001 "$tmp/probe" $U 2000 "$log" 2>/dev/null & h1=$!
waitfor "$q" '^s-t-2001-'
bound 30 2002 "$tmp/tix" "$q" 100 8 1 >"$tmp/tix.out" & tx=$!
i=0; while [ $i -lt 100 ] && [ ! -s "$tmp/tix.out" ]; do sleep 0.05; i=$((i + 1)); done
sleep 0.1
bound 60 2002 "$tmp/probe" $U 3000 "$log" 2>"$tmp/own" & own=$!
waitfor "$q" '^s-t-2002-'
sleep 0.1
bound 60 2003 "$tmp/probe" $U 3000 "$log" 2>/dev/null & v=$!
wait $h1; r1=$?; wait $own; r2=$?; wait $v; r3=$?; wait $tx
ov=$(overlaps "$log")
if [ $r1 = 0 ] && [ $r2 = 0 ] && [ $r3 = 0 ] && [ "$(wc -l <"$log")" = 3 ] && [ "$ov" = 0 ] && grep -q "more than others read of one account" "$tmp/own"; then
	pass "attack queue tickets: a run behind 100 locked tickets of its own account is not in line until they go, for its own waiter too: 3 holds, none overlapping"
else
	fail "attack queue tickets: a run behind 100 of its account's tickets: exits $r1 $r2 $r3, $(wc -l <"$log") holds, $ov overlapping: $(cat "$log") / $(tail -n 3 "$tmp/own")"
fi
