# The code pane shows the source as it is compiled: a tunable's #define carries the value passed
# with -D (sgemm/warptile's file says BK 8, the run compiles BK=16), a header says so, and a kernel
# file edited on disk is shown again at the next run.
. "$(dirname "$0")/lib.sh"

REPLAY="$ROOT/tests/tui/fixtures/replay-bandwidth.json"
start 120 40
open_lesson "FP32 matrix multi" sgemm
keys n n n n n n n n
check "warptile opens" wait_for "sgemm 9/10"
check "header: the tunables are passed as -D" wait_for "tunables passed as -D: BM=128 BN=256 BK=16"
check "#define BK shows the compiled value" shows "#define BK 16 +(←|<-) -DBK=16 \(file: 8\)"
check "#define BN shows the compiled value" shows "#define BN 256 +(←|<-) -DBN=256 \(file: 128\)"
check "a #define equal to the file's says -D too" shows "#define BM 128 +(←|<-) -DBM=128$|#define BM 128 +(←|<-) -DBM=128 "
keys Tab Space
check "the rest of the line is kept" wait_re "#define ALOAD 1 +(←|<-) -DALOAD=1 +// A's path"
keys g Tab j j Right
check "a new value is shown at once" wait_re "#define BK 32 +(←|<-) -DBK=32 \(file: 8\)"
check "... and in the header" shows "tunables passed as -D: BM=128 BN=256 BK=32"
keys q
wait_for "EXITED rc=0" >/dev/null

start 120 40 -- --ascii
check "ascii: reopens at warptile" wait_for "sgemm 9/10"
check "ascii: the arrow in ASCII (BK kept at 32)" wait_for "#define BK 32  <- -DBK=32 (file: 8)"
keys q
wait_for "EXITED rc=0" >/dev/null

make_tree "$TMP/tree"
start 100 30 -- --replay "$REPLAY" --lessons "$TMP/tree"
wait_for "Memory bandwidth with SAXPY" >/dev/null
keys Enter
wait_for "Kernel strided.cu" >/dev/null
sed -i '1i // edited while open: marker-one' "$TMP/tree/kernels/bandwidth/strided.cu"
keys r
check "an edited kernel is shown again at the next run" wait_for "marker-one"
keys n
wait_for "bandwidth 2/4" >/dev/null
sed -i '1i // edited while away: marker-two' "$TMP/tree/kernels/bandwidth/strided.cu"
keys p
check "... and when the stage is shown again" wait_for "marker-two"
keys q
check "quit" wait_for "EXITED rc=0"
