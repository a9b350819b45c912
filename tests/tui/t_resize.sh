# Resizing: below 80x24 the screen says so; larger terminals get the whole layout.
. "$(dirname "$0")/lib.sh"

start 100 30
wait_for "Memory bandwidth with SAXPY" >/dev/null
resize 60 20
check "60x20: terminal too small" wait_for "terminal too small: 60x20, need 80x24"
resize 200 60
check "200x60: redrawn at the new size" wait_for "Memory bandwidth with SAXPY"
check "200x60: full width frame" shows "─{190}"
keys Enter
check "200x60: stage view" wait_for "Kernel strided.cu"
check "200x60: source lines are not cut" shows "saxpy_strided\(const float \*x, const float \*y, float \*z, float a, long long n\)"
resize 80 24
check "80x24: stage view fits" wait_for "Measurements"
check "80x24: status line" shows "r run  n/p stage"
resize 79 24
check "79x24: too small" wait_for "terminal too small: 79x24"
keys q
check "q quits from the small screen" wait_for "EXITED rc=0"
