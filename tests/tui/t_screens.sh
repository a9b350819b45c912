# The lesson list, the stage view, the diff, the help overlay, quitting, and reopening where the
# learner left off.
. "$(dirname "$0")/lib.sh"

start 100 30
check "lesson list" wait_for "Memory bandwidth with SAXPY"
check "lesson list: stages and progress" shows "4 stages +○○○○ +0/4 done"
keys Enter
check "stage view: explanation" wait_for "1. Strided access (uncoalesced)"
check "stage view: kernel with line numbers" wait_for ' 4  extern "C" __global__ void saxpy_strided'
check "stage view: tunables" shows "STRIDE 32 +1 2 4 8 16 32 64"
check "stage view: ladder" shows "2 coalesced +not run"
keys d
check "diff: the first stage has none" wait_for "nothing before it to compare"
keys n
check "next stage" wait_for "bandwidth 2/4  coalesced: Coalesced"
keys d
check "diff from the previous stage" wait_for "Changes from stage 1"
check "diff: removed and added lines" shows "^.* +[0-9]+- +long long rows"
check "diff: added line" shows "[0-9]+\+ +long long i = blockIdx.x"
keys Escape
check "Esc closes the diff" wait_for "Kernel coalesced.cu"
keys '?'
check "help overlay" wait_for "Keys (Tab: glossary;"
check "help lists the keys" shows "sweep a tunable"
keys x
check "help closes" wait_gone "Keys (Tab: glossary"

keys q
check "q quits with status 0" wait_for "EXITED rc=0"
check "progress file written" test -s "$XDG_STATE_HOME/cudaclimb/progress"
check "progress file: no temporary left" sh -c "! ls '$XDG_STATE_HOME/cudaclimb' | grep -q tmp"

start 100 30
check "reopens where the learner left off" wait_for "bandwidth 2/4  coalesced"
keys Escape
check "Esc goes back to the lesson list" wait_for "Stages:"
keys q
wait_for "EXITED rc=0" >/dev/null
start 100 30
check "reopens at the lesson list when left there" wait_for "Stages:"
