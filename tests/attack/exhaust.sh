# Resource exhaustion of the shared parts by one student's files: each attack bounded in time
# (timeout) and memory (ulimit -v), each outcome measured.
#   log bomb: a 20 KiB kernel whose one long line of macros makes NVRTC write ~100 MB of warnings
#   (each echoes the line). The compile keeps a bounded log (COMPILE_LOG_MAX: head and ptxas's tail),
#   so try, the lab service's judge and report --verify neither hold nor cache the whole of it.
. "$(dirname "$0")/../lib.sh"
T=$(mktemp -d /tmp/cc-exhaust.XXXXXX)
trap 'rm -rf "$T"' EXIT
cuda=${CUDA_HOME:-/usr/local/cuda}
if ! cc -std=c11 -D_GNU_SOURCE -Isrc/core -Isrc/lesson -Isrc/engine -Isrc/runner -Isrc/worker -I$cuda/include tests/fake_worker.c \
	src/core/result.c src/core/util.c -o "$T/fake" 2>"$T/cc.log"; then
	fail "exhaust: the fake worker did not build: $(head -3 "$T/cc.log")"; exit 0
fi

# ---- the compiler's log ----
python3 - "$T/bomb.cu" <<'EOF'
import sys
base = open("kernels/bandwidth/exercises/coalesced.cu").read()
n = 3000
open(sys.argv[1], "w").write(base + "\n#define V(i) int v##i;\n__global__ void bomb(){\n" + " ".join("V(%d)" % i for i in range(n)) + "\n}\n")
EOF
s0=$(date +%s%N)
out=$( (ulimit -v 6000000; XDG_CACHE_HOME=$T/cache CUDACLIMB_WORKER=$T/fake CC_FAKE=ok timeout 60 $B --work "$T/work" try bandwidth/coalesced "$T/bomb.cu") 2>&1); rc=$?
ms=$(( ($(date +%s%N) - s0) / 1000000 ))
log=$(ls -S "$T"/cache/cudaclimb/*.log 2>/dev/null | head -1)
size=$(stat -c %s "$log" 2>/dev/null || echo 0)
if [ "$rc" = 1 ] && [ "$size" -gt 0 ] && [ "$size" -le $((2 * 1024 * 1024)) ] && grep -q "of the compiler's log left out" "$log" && grep -q 'ptxas info *: Used' "$log"; then
	pass "exhaust: a log bomb (20 KiB of source, ~100 MB of warnings): the kept log is $size bytes, head and ptxas's tail; try took $ms ms"
else
	fail "exhaust: a log bomb: try exit $rc after $ms ms, its cached log $size bytes (at most 2 MiB, with its ptxas report, expected)"
	printf '%s\n' "$out" | tail -5 | sed 's/^/    /'
fi

# ---- the GPU queue's folder: one account's flood of live tickets ----
#   uid 2001 holds 1000 locked, genuine tickets placed before uid 2002 queues. A listing reads at most
#   GPULOCK_PER_OWNER (64) of one owner's, so 2002's waiter passes over a bounded line: it makes at most
#   64 "h-" marks (not one per ticket) and is served once the flood has held the head past the cap.
if [ "$(id -u)" != 0 ]; then skip "exhaust: the ticket flood needs root (to play two users)"; exit 0; fi
make --no-print-directory -s build/tests/queue_probe >"$T/make.log" 2>&1 || { fail "exhaust: build/tests/queue_probe: $(tail -3 "$T/make.log")"; exit 0; }
cat >"$T/tix.c" <<'EOF2'
#include <stdio.h>
#include <stdlib.h>
#include <fcntl.h>
#include <unistd.h>
#include <sys/file.h>
#include <sys/resource.h>
int main(int argc, char **argv)   /* tix DIR N SECONDS: N locked tickets, held SECONDS */
{
	struct rlimit r;
	getrlimit(RLIMIT_NOFILE, &r); r.rlim_cur = r.rlim_max; setrlimit(RLIMIT_NOFILE, &r);
	int n = atoi(argv[2]), made = 0;
	for (int i = 0; i < n; i++) {
		char p[600];
		snprintf(p, sizeof p, "%s/t-%u-%d-%016llx", argv[1], getuid(), getpid(), (unsigned long long)i * 2654435761ULL + 1);
		int fd = open(p, O_RDWR | O_CREAT | O_EXCL, 0644);
		if (fd < 0 || flock(fd, LOCK_EX) || write(fd, "x 1 1\n", 6) != 6) break;
		made++;
	}
	printf("%d\n", made);
	fflush(stdout);
	sleep((unsigned)atoi(argv[3]));
	return 0;
}
EOF2
cc -O1 -o "$T/tix" "$T/tix.c" || { fail "exhaust: the ticket flooder did not build"; exit 0; }
chmod 755 "$T"
U=0123456789abcdef0123456789abcdef
mkdir -m 1777 "$T/locks" "$T/locks/cudaclimb-gpu-$U.q"
touch "$T/q.log"; chmod 666 "$T/q.log"
setpriv --reuid=2001 --regid=2001 --clear-groups timeout 60 "$T/tix" "$T/locks/cudaclimb-gpu-$U.q" 1000 60 >"$T/tix.out" 2>&1 &
tix=$!
i=0; while [ $i -lt 100 ] && [ ! -s "$T/tix.out" ]; do sleep 0.1; i=$((i + 1)); done
sleep 1   # the flood's tickets are older than the waiter's
s0=$(date +%s%N)
(ulimit -v 1000000; setpriv --reuid=2002 --regid=2002 --clear-groups env CUDACLIMB_LOCK_DIR="$T/locks" CUDACLIMB_QUEUE_CAP=2 \
	timeout 30 build/tests/queue_probe $U 10 "$T/q.log" 2>"$T/waiter.err"); rc=$?
ms=$(( ($(date +%s%N) - s0) / 1000000 ))
marks=$(ls "$T/locks/cudaclimb-gpu-$U.q" | grep -c '^h-2002-')
line=$(CUDACLIMB_LOCK_DIR="$T/locks" $B queue $U 2>&1 | grep -o '[0-9]* in line' | head -1)
kill $tix 2>/dev/null; wait $tix 2>/dev/null
if [ "$rc" = 0 ] && [ "$marks" -le 64 ] && [ "${line%% *}" -le 64 ]; then
	pass "exhaust: $(cat "$T/tix.out") locked tickets of one account: the waiter served in $ms ms, $marks marks made, the status reads $line"
else
	fail "exhaust: $(cat "$T/tix.out") locked tickets of one account: the waiter exit $rc after $ms ms, $marks marks made (at most 64), the status reads '$line' (at most 64)"
	tail -3 "$T/waiter.err" | sed 's/^/    /'
fi
