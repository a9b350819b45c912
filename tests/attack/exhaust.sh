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
