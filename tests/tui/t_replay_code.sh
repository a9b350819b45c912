# Under --replay, v shows the PTX of a compile made here, never the recording machine's cache paths
# (the recorded result names a cubin on that machine).
. "$(dirname "$0")/lib.sh"
start 120 40 -- --replay "$ROOT/tests/fixtures/recorded/h100-7092b07-bandwidth.json"
wait_for "Memory bandwidth" >/dev/null
keys Enter
wait_for "Kernel strided.cu" >/dev/null
keys r
wait_for "REPLAY" >/dev/null
keys v
check "replay: v shows the PTX of a compile made here" wait_for ".visible .entry saxpy_strided"
if shows "No PTX was kept"; then fail "replay: v opened a file of the recording machine"; else pass "replay: ... not a missing file of the recording machine"; fi
