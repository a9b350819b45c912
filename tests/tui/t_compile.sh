# A kernel that does not compile: the log pane opens with the compiler's messages and the kernel
# lines they point at, the source marks the line, and the interface carries on.
. "$(dirname "$0")/lib.sh"

make_tree "$TMP/tree"
sed -i '7a\	int broken = ;' "$TMP/tree/kernels/bandwidth/strided.cu"   # becomes line 8
start 100 30 -- --lessons "$TMP/tree"
wait_for "Memory bandwidth with SAXPY" >/dev/null
keys Enter
check "broken kernel shows in the source" wait_for " 8      int broken = ;"
keys r
check "compile log pane opens" wait_for "Compile log" 60
check "log: the compiler's error" wait_for "strided.cu(8): error: expected an expression"
check "log: the kernel line it points at" shows " +8 │ +int broken = ;"
check "measurements say the compile failed" shows "compile failed"
keys e
check "e shows the source again" wait_for "Kernel strided.cu"
keys n
check "still responsive: next stage" wait_for "bandwidth 2/4  coalesced: Coalesced"
keys q
check "quit after a compile error" wait_for "EXITED rc=0"

# A lesson file with an error is left out with file:line:col; the others still load.
make_tree "$TMP/tree2"
sed 's/^lesson: bandwidth/lesson: bandwidth2/; s/^order: 1/order: 2/; s/^stages:/stages: 42/' \
	"$ROOT/lessons/bandwidth.yaml" >"$TMP/tree2/lessons/broken.yaml"
export XDG_STATE_HOME="$TMP/state-fresh-$N"   # start at the list (a new folder: the last process may still be saving)
start 100 30 -- --lessons "$TMP/tree2"
check "a broken lesson file is listed with its position" wait_for "1 lesson file left out (e lists them): "
check "... and the good lesson still loads" shows "Memory bandwidth with SAXPY"
