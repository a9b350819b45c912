# 80x24 is readable (issue #31 item 8): the explanation keeps at least 8 lines of text, the lesson
# titles use the room of an empty best column, the footer shows n/p, help lines are not cut, a
# tunable's allowed set is never shown as a range, and claims with no run yet do not read as failed.
. "$(dirname "$0")/lib.sh"

start 80 24 -- --lessons "$ROOT"
wait_for "Memory bandwidth with SAXPY" >/dev/null
check "lesson list: titles use the empty best column" shows "Parallel reduction, from Harris's"
keys Enter
wait_for "Kernel strided.cu" >/dev/null
top=$(row_of "┌─ 1. ")
bottom=$(screen | awk -v t="$top" 'NR > t + 1 && /^└/ { print NR - 1; exit }')
lines=$((bottom - top - 1))
check "stage view: the explanation has at least 8 lines ($lines)" test "$lines" -ge 8
check "stage view: the footer shows n/p" shows "n/p stage"
check "stage view: ... and o, Esc, v, H and z" shows "o read  Esc back  v PTX/SASS  H hotspots  z zoom"
keys Tab Tab
wait_for "change, digits type" >/dev/null
check "tunables focused: the pane takes the room back" shows "│ a +2 "
check_not "tunables: a set is not shown as a range" shows "BLOCK +256 +[0-9]+\.\.[0-9]"
check "tunables: the values around the current one" shows "BLOCK +256 +…128 256 512…"
keys Escape Escape
wait_for "Lessons" >/dev/null
keys '?'
wait_for "Keys (Tab" >/dev/null
check_not "help: no line cut with an ellipsis" shows "[a-z]…"
keys j j j j j j j j j j j j j j j j j j j j
check_not "help, scrolled: no line cut with an ellipsis" shows "[a-z]…"
check "help: v's line is whole" shows "PTX, SASS, source"
keys Escape
wait_gone "Keys (Tab" >/dev/null
if screen | grep -q "no GPU"; then
	keys Enter n n n r
	check "no GPU: claims read as to check, not as failed" wait_for "claims    3 to check (no run yet)" 60
	check_not "no GPU: no 'not measured'" shows "not measured"
else
	echo "SKIP no GPU: claims to check: a GPU is present, runs are measured"
fi
keys q
check "quit" wait_for "EXITED rc=0"
