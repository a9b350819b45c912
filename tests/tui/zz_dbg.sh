. "$(dirname "$0")/lib.sh"
start 100 30
wait_for "Memory bandwidth with SAXPY" >/dev/null
keys Enter
wait_for "Tunables" >/dev/null
sleep 1; echo "A: $(screen | tail -1)"
keys Tab Tab j j
wait_re "│▸n +67108864 " >/dev/null
sleep 1; echo "B: $(screen | tail -1)"
keys Right
sleep 1; echo "C: $(screen | tail -1)"
keys 2 0 0 0 0 0 0 0 0 0
sleep 1; echo "D: $(screen | tail -1)"
keys Escape
sleep 1; echo "E: $(screen | tail -1)"
