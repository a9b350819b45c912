# A lesson's cases (cases: in its file): C switches to the next case (its parameters set, the title
# bar naming it, the status line saying its settings), then back to the defaults; a run in the case
# is answered by a recording of that case, and the case's claims are judged on it.
. "$(dirname "$0")/lib.sh"

REPLAY="$ROOT/assets/recorded/h200/h200-c63ba9f-2026-11-29-spmv.skewed.json"
start 120 34 -- --replay "$REPLAY"
open_lesson "Sparse matrix" "spmv"
check_not "cases: no case named at the defaults" seen_re "\[case "
keys C
check "C: the first case, named in the title bar" wait_re "spmv \[case skewed\] 1/"
check "... the status line says its settings" shows "case skewed: skew=0\.6"
check "... and the parameter takes the case's value" shows "skew +0\.6\*"
keys n n n
wait_re "spmv \[case skewed\] 4/" >/dev/null
keys a
check "a run in the case: the recording at skew 0.6 answers, its claims (one of the case) hold" wait_re "claims +✓ all 2 hold"
keys C
check "C again: the next case" wait_re "spmv \[case very_skewed\] 4/"
keys C
check "C after the last: back to the defaults, no case named" wait_re "spmv 4/"
check "... the status line says so" shows "the lesson's defaults"
keys '?'
check "? lists the key" wait_re "C +next case \(settings\)"
keys q q
