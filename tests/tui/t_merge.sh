# Two sessions of one learner (the same progress file): each compiles a different stage (without a
# GPU compile only; on the GPU box it runs too, and the time replaces the compile message), A quits,
# then B: the file keeps what both did (merged under a lock).
. "$(dirname "$0")/lib.sh"

make_tree "$TMP/tree"
start 100 30 -- --lessons "$TMP/tree"
A=$SOCK
KEEP=1 start 100 30 -- --lessons "$TMP/tree"
B=$SOCK
use "$A"
wait_for "Memory bandwidth with SAXPY" >/dev/null
keys Enter
wait_for "bandwidth 1/4  strided" >/dev/null
keys r
check "A: strided compiles" wait_re "compiled( \(cache\))? in|time +[0-9.]+ [mu]s" 60
use "$B"
wait_for "Memory bandwidth with SAXPY" >/dev/null
keys Enter
wait_for "bandwidth 1/4  strided" >/dev/null
keys n
wait_for "bandwidth 2/4  coalesced" >/dev/null
keys Tab Tab Right
keys r
check "B: coalesced compiles" wait_re "compiled( \(cache\))? in|time +[0-9.]+ [mu]s" 60
use "$A"
keys q
check "A quits" wait_for "EXITED rc=0"
use "$B"
keys q
check "B quits" wait_for "EXITED rc=0"
F="$XDG_STATE_HOME/cudaclimb/progress"
check "the file keeps A's stage" grep -q "^stage bandwidth strided seen=1 compiled=1" "$F"
check "... and B's" grep -q "^stage bandwidth coalesced seen=1 compiled=1" "$F"
check "... B's setting" grep -q "^set bandwidth coalesced BLOCK 512" "$F"
check "... and B's place, B being the last to quit" grep -q "^last bandwidth coalesced" "$F"
check "no lock or temporary file left but the lock" sh -c "! ls '$XDG_STATE_HOME/cudaclimb' | grep -q tmp"
