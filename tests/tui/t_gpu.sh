# On a GPU: a live run whose numbers keep coming, then the fixture lesson's wrong, faulting and
# hanging kernels, each with its message in place, and a right run after them (a fresh worker).
# Without a GPU this prints one SKIP line.
. "$(dirname "$0")/lib.sh"

if "$BIN" device >/dev/null 2>&1; then :; else
	echo "SKIP tui on a GPU: $("$BIN" device 2>&1 | head -1)"
	exit 0
fi
WAIT=60

start 120 40 -- --timeout 5
wait_for "Memory bandwidth with SAXPY" >/dev/null
wait_for "(sm_" 30 >/dev/null
keys Enter
wait_for "Kernel strided.cu" >/dev/null
keys n l
check "live: a run on the GPU shows its numbers" wait_for "GB/s      "
check "live: checked against the reference" wait_for "✓ correct"
check "live: keeps running (history grows)" wait_for " 3 runs, best"
keys l q
check "live: quits cleanly" wait_for "EXITED rc=0"

start 120 40 -- --lessons "$ROOT/tests/fixtures/faulty" --timeout 5
wait_for "Test fixture" >/dev/null
wait_for "(sm_" 30 >/dev/null
keys Enter
wait_for "Kernel kernels.cu" >/dev/null
keys n r
check "wrong result on the GPU: says so" wait_for "✗ WRONG: 1 bad, first at 100002"
keys n r
check "fault on the GPU: clear message" wait_for "✗ the kernel faulted: "
check "fault on the GPU: the interface carries on" shows "cudaclimb carries on"
keys n r
check "hang on the GPU: stopped by the watchdog" wait_for "✗ the kernel hung and was stopped"
keys n n r
check "after a fault and a hang a fresh worker runs the next stage" wait_for "✓ correct"
keys q
check "quit after them" wait_for "EXITED rc=0"
