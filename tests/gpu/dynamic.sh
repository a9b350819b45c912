#!/bin/sh
# GPU tests of the dynamic lesson: every stage right at the default size and at odd ones (1001
# sequences with long ones of 77777 extra elements; 63 short sequences and no long one; 12 sequences
# whose last is long); the theoretical occupancy of the -rdc stages, computed from nvJitLink's report
# of the linked kernels, equal to what the CUDA API says of the loaded code; the claims at the
# default size; the exercise: the stage's own kernel passes, the starter does not. Then what dynamic
# parallelism costs on this GPU, from a small probe built with nvcc -rdc=true (INFO lines, for the
# lesson's text): the pending-launch pool's size, the cost of a launch from the device, and what
# happens when more launches are pending than the pool holds. Without a GPU: one SKIP line.
. tests/lib.sh
why=$($B device 2>&1); code=$?
if [ $code = 3 ]; then skip "dynamic gpu tests: $(printf '%s' "$why" | head -1)"; exit 0; fi
if [ $code != 0 ]; then fail "dynamic gpu tests: cudaclimb device exited $code: $why"; exit 0; fi
if ! command -v python3 >/dev/null; then fail "dynamic gpu tests: python3 is needed to read the JSON results"; exit 0; fi
tmp=$(mktemp -d); trap 'rm -rf "$tmp"' EXIT
cuda=${CUDA_HOME:-/usr/local/cuda}

run() { name=$1; shift; $B bench dynamic "$@" --timeout 60 --json >"$tmp/$name.json" 2>"$tmp/$name.err"; }
run default --reps ${DYN_REPS:-10}
run odd --set seqs=1001 --set short_len=13 --set long_len=77777 --reps 3 --no-counters
run shorts --set seqs=63 --set short_len=5 --set long_len=0 --reps 3 --no-counters
run twelve --set seqs=12 --set short_len=3 --set long_len=99999 --reps 3 --no-counters
[ -n "${DYN_KEEP:-}" ] && cp "$tmp"/*.json "$tmp"/*.err "$DYN_KEEP"/ 2>/dev/null

python3 - "$tmp" <<'PY'
import json, os, sys
tmp = sys.argv[1]
for name, label in (("default", "default size"), ("odd", "odd size (1001 sequences, 13, 77777)"),
                    ("shorts", "odd size (63 short sequences)"), ("twelve", "12 sequences, the last one long")):
    try:
        rs = json.load(open(os.path.join(tmp, name + ".json")))["results"]
    except Exception as e:
        print("FAIL dynamic %s: no JSON results (%s): %s" % (label, e, open(os.path.join(tmp, name + ".err")).read()[-400:]))
        continue
    if len(rs) != 4:
        print("FAIL dynamic %s: %d results, expected 4 stages" % (label, len(rs)))
    for r in rs:
        what = "dynamic/%s %s" % (r["stage"], label)
        if r["status"] != "ok" or not r["checked"] or not r["passed"]:
            print("FAIL %s: %s %s" % (what, r["status"], r["message"])); continue
        if r["occ_api_blocks"] >= 0 and r["occ_blocks"] != r["occ_api_blocks"]:
            print("FAIL %s: occupancy %d blocks/SM from the compile report, the CUDA API says %d" % (what, r["occ_blocks"], r["occ_api_blocks"])); continue
        print("PASS %s: checked, %.4f ms, %.0f GB/s, %d registers%s" % (what, r["ms_median"], r.get("gbps", -1), r["regs"],
              ", occupancy %d blocks/SM = API" % r["occ_blocks"] if r["occ_api_blocks"] >= 0 else ""))
        if label == "default size":
            for c in r.get("claims", []):
                if c["state"] == "contradicted":
                    print("FAIL %s: claim %s contradicted (%s)" % (what, c["expect"], c["values"]))
PY

# The exercise: the stage's own kernel passes, the starter does not.
export CUDACLIMB_WORK=$tmp/work
try() { $B try dynamic/dynamic_long "$1" --json --timeout 60 >"$tmp/try.json" 2>"$tmp/try.err"; python3 -c '
import json, sys
try:
    v = json.load(open(sys.argv[1]))["verdict"]; print(v["kind"], "|", v["headline"])
except Exception as e:
    print("none | no verdict:", e)' "$tmp/try.json"; }
v=$(try kernels/dynamic/dynamic_long.cu)
case $v in passed*) pass "dynamic exercise: the stage's own kernel passes ($v)" ;; *) fail "dynamic exercise: the stage's own kernel: $v $(tail -c 300 "$tmp/try.err")" ;; esac
v=$(try kernels/dynamic/exercises/dynamic_long.cu)
case $v in passed*|none*) fail "dynamic exercise: the starter: $v" ;; *) pass "dynamic exercise: the starter does not pass ($v)" ;; esac

# The device runtime on this GPU: a probe with nvcc -rdc=true.
cat >"$tmp/probe.cu" <<'CU'
#include <cstdio>
#include <algorithm>
#include <vector>
#include <cuda_runtime.h>
__global__ void empty() {}
__global__ void parent_none() {}
/* one thread launches n empty children, one after another */
__global__ void parent_serial(int n, int tail, int *fails)
{
	for (int i = 0; i < n; i++) {
		if (tail) empty<<<1, 32, 0, cudaStreamTailLaunch>>>();
		else empty<<<1, 32, 0, cudaStreamFireAndForget>>>();
		if (cudaGetLastError() != cudaSuccess) atomicAdd(fails, 1);
	}
}
/* every thread launches one empty child */
__global__ void parent_each(int *fails)
{
	empty<<<1, 32, 0, cudaStreamFireAndForget>>>();
	if (cudaGetLastError() != cudaSuccess) atomicAdd(fails, 1);
}
static cudaEvent_t e0, e1;
static int *fails;
template <class F> static double median_us(F launch, int *nfail)
{
	std::vector<float> t;
	for (int r = 0; r < 12; r++) {
		cudaMemset(fails, 0, sizeof(int));
		cudaEventRecord(e0);
		launch();
		cudaEventRecord(e1);
		cudaEventSynchronize(e1);
		float ms = 0;
		cudaEventElapsedTime(&ms, e0, e1);
		if (r >= 2) t.push_back(ms * 1000.0f);
	}
	cudaMemcpy(nfail, fails, sizeof(int), cudaMemcpyDeviceToHost);
	std::sort(t.begin(), t.end());
	return t[t.size() / 2];
}
int main()
{
	size_t pool = 0;
	cudaEventCreate(&e0); cudaEventCreate(&e1);
	cudaMalloc(&fails, sizeof(int));
	cudaDeviceGetLimit(&pool, cudaLimitDevRuntimePendingLaunchCount);
	printf("INFO device runtime: cudaLimitDevRuntimePendingLaunchCount = %zu (the default)\n", pool);
	int f = 0;
	double host1 = median_us([] { empty<<<1, 32>>>(); }, &f);
	double host1000 = median_us([] { for (int i = 0; i < 1000; i++) empty<<<1, 32>>>(); }, &f) / 1000;
	double none = median_us([] { parent_none<<<1, 1>>>(); }, &f);
	double one = median_us([] { parent_serial<<<1, 1>>>(1, 0, fails); }, &f);
	double tail1 = median_us([] { parent_serial<<<1, 1>>>(1, 1, fails); }, &f);
	printf("INFO host launches: one empty kernel %.2f us between events; 1000 back to back %.2f us each\n", host1, host1000);
	printf("INFO device launch: a parent with no child %.2f us; with one fire-and-forget child %.2f us (+%.2f); one tail-launched child %.2f us (+%.2f)\n",
	       none, one, one - none, tail1, tail1 - none);
	for (int n : {100, 1000}) {
		double t = median_us([n] { parent_serial<<<1, 1>>>(n, 0, fails); }, &f);
		printf("INFO device launch: one thread launching %d children in a row %.1f us, %.3f us per launch, %d failed\n", n, t, (t - none) / n, f);
	}
	for (int n : {1024, 2048, 4096, 16384}) {
		double t = median_us([n] { parent_each<<<n / 128, 128>>>(fails); }, &f);
		double base = median_us([n] { parent_none<<<n / 128, 128>>>(); }, &f);
		printf("INFO device launch: %d threads launching one child each %.1f us (%.1f us without launches), %.3f us per launch, %d of %d failed\n",
		       n, t, base, (t - base) / n, f, n);
	}
	cudaError_t e = cudaDeviceSetLimit(cudaLimitDevRuntimePendingLaunchCount, 32768);
	size_t now = 0;
	cudaDeviceGetLimit(&now, cudaLimitDevRuntimePendingLaunchCount);
	double t = median_us([] { parent_each<<<16384 / 128, 128>>>(fails); }, &f);
	printf("INFO device launch: limit raised to 32768 (%s, now %zu): 16384 threads launching one child each %.1f us, %d failed\n",
	       cudaGetErrorString(e), now, t, f);
	cudaError_t last = cudaDeviceSynchronize();
	printf("INFO probe ends: %s\n", cudaGetErrorString(last));
	return last == cudaSuccess ? 0 : 1;
}
CU
cc=$($B device --json | python3 -c 'import json,sys; print(json.load(sys.stdin)["cc"])')
if $cuda/bin/nvcc -std=c++17 -O2 -arch=sm_$cc -rdc=true "$tmp/probe.cu" -lcudadevrt -o "$tmp/probe" >"$tmp/probe.log" 2>&1; then
	timeout 120 "$tmp/probe" 2>&1 && pass "dynamic: the device-runtime probe ran" || fail "dynamic: the device-runtime probe failed or ran past 120 s"
else
	skip "dynamic: the device-runtime probe did not build: $(head -3 "$tmp/probe.log")"
fi
