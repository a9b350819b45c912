# Habits from htop and nvtop: F1 help and F10 quit; the mouse picks a pane, a stage or a lesson;
# the ladder pane moves with the arrows and opens a stage with Enter; l means live mode on both
# screens; a glossary of the counters and statuses behind ?.
. "$(dirname "$0")/lib.sh"

start 100 30
wait_for "Memory bandwidth with SAXPY" >/dev/null
keys l
check "l on the lesson list: says what it does, opens nothing" wait_for "l is live mode"
check_not "... stays on the list" shows "bandwidth 1/4"
keys F1
check "F1 opens the help" wait_for "Keys (Tab: glossary"
check "help: F1 and F10 listed" shows "F1 \?.* this help|F10"
check "help: the mouse listed" shows "click"
keys Tab
check "Tab: the glossary" wait_for "Glossary"
check "glossary: long_scoreboard" shows "long_scoreboard"
check "glossary: DRAM/mdl" shows "DRAM"
keys G
check "glossary: the statuses, to the end" wait_for "no_gpu"
check "glossary: compile_error" shows "compile_error|hang"
keys Escape
check "Esc closes the help" wait_gone "Glossary"

# the mouse on the lesson list: a click selects, a click on the selected row opens
click 10 "$(row_of 'FP32 matrix multiply')"
check "click: selects a lesson" wait_re "─ FP32 matrix multiply \(SGEMM\)"
click 10 "$(row_of 'FP32 matrix multiply')"
check "click again: opens it" wait_for "sgemm 1/10"
keys Escape
wait_for "Read first:" >/dev/null
click 10 "$(row_of 'Memory bandwidth with')"
click 10 "$(row_of 'Memory bandwidth with')"
wait_for "bandwidth 1/4" >/dev/null

# the mouse on the stage view: a pane takes the focus; a ladder row opens its stage
click 5 "$(row_of 'STRIDE 32     1 2')"
check "click on the tunables: focused (its keys in the footer)" wait_for "value  0-9 type"
click 5 "$(row_of '3 gridstride')"
check "click on a ladder row: opens the stage" wait_for "bandwidth 3/4"

# the ladder from the keyboard
keys Escape
wait_for "Read first:" >/dev/null
keys Enter
wait_for "bandwidth 3/4" >/dev/null
keys Tab
wait_gone "↑↓ stage" >/dev/null
keys Tab Tab Tab Tab
check "ladder focused (Tab): its keys in the footer" wait_re "↑↓ stage  Enter open"
keys Down
keys Enter
check "ladder: Down then Enter opens the next stage" wait_for "bandwidth 4/4"
keys Up Up Up Enter
check "ladder: Up to the first" wait_for "bandwidth 1/4"
keys F10
check "F10 quits" wait_for "EXITED rc=0"
