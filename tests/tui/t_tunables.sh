# Tunables: arrows and typed values, constraints checked as you type (plan_make), the lesson's
# message for a broken one, values kept between runs. The lesson tree is a copy of bandwidth whose
# first stage also allows BLOCK = 48, which its constraint (a multiple of the warp size) refuses.
. "$(dirname "$0")/lib.sh"

make_tree "$TMP/tree"
sed -i '0,/values: \[64, 128, 256, 512, 1024\]/s//values: [48, 64, 128, 256, 512, 1024]/' \
	"$TMP/tree/lessons/bandwidth.yaml"
start 100 30 -- --lessons "$TMP/tree"
wait_for "Memory bandwidth with SAXPY" >/dev/null
keys Enter
wait_for "Tunables" >/dev/null
keys Tab Tab
check "tunables pane takes the focus" wait_for "change, digits type"
keys Left
check "left arrow: previous allowed value" wait_for "BLOCK  128*"
keys Left Left
check "broken constraint shows the lesson's message" wait_for "BLOCK must be a multiple of the"
check "... and says it in the status line" shows "^ BLOCK must be a multiple of the warp size \(32\)"
keys Right
check "a valid value clears the message" wait_gone "BLOCK must be a multiple"
keys j
check "j selects the next tunable" wait_for "▸STRIDE"
keys 1 7
check "typing is checked as you type" wait_for "STRIDE = 17_"
check "typed value not allowed: message" wait_for "not allowed"
keys BSpace BSpace 8 Enter
check "Enter sets a typed value" wait_for "STRIDE 8*"
keys q
check "quit" wait_for "EXITED rc=0"
check "tunable values are saved" grep -q "set bandwidth strided STRIDE 8" "$XDG_STATE_HOME/cudaclimb/progress"
start 100 30 -- --lessons "$TMP/tree"
check "tunable values are kept between runs" wait_for "STRIDE 8*"
keys Tab Tab R
check "R resets to the defaults" wait_for "STRIDE 32 "
