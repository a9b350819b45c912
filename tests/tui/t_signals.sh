# Signals end the interface cleanly: the terminal is restored (alternate screen left), children
# (worker, compiler) are gone, and the status says which signal. Idle means no CPU.
. "$(dirname "$0")/lib.sh"

alt_screen() { [ "$(tmux -L "$SOCK" display -p -t cc '#{alternate_on}')" = 1 ]; }
ticks() { awk '{ print $14 + $15 }' "/proc/$1/stat"; }

start 100 30
wait_for "Memory bandwidth with SAXPY" >/dev/null
wait_for "no GPU" 15 >/dev/null || wait_for "(sm_" 15 >/dev/null
p=$(pid)
check "curses uses the alternate screen" alt_screen
t0=$(ticks "$p"); sleep 2; t1=$(ticks "$p")
check "idle: no CPU while nothing runs ($((t1 - t0)) ticks in 2 s)" test $((t1 - t0)) -le 2
kids=$(pgrep -P "$p" | tr '\n' ' ')
check "SIGTERM: a child to end is there (the worker: $kids)" test -n "$kids"
kill -TERM "$p"
check "SIGTERM: exits with 128+15" wait_for "EXITED rc=143"
check_not "SIGTERM: terminal restored" alt_screen
gone=1; for k in $kids; do kill -0 "$k" 2>/dev/null && gone=0; done
check "SIGTERM: children ended" test $gone = 1

start 100 30
wait_for "Memory bandwidth with SAXPY" >/dev/null
keys Enter
wait_for "Kernel strided.cu" >/dev/null
keys C-c
check "Ctrl-C: exits with 128+2" wait_for "EXITED rc=130"
check_not "Ctrl-C: terminal restored" alt_screen

start 100 30
wait_for "Memory bandwidth with SAXPY" >/dev/null
kill -HUP "$(pid)"
check "SIGHUP: exits with 128+1" wait_for "EXITED rc=129"
check "SIGHUP: progress still saved" test -s "$XDG_STATE_HOME/cudaclimb/progress"

# The terminal disappears (an SSH session dropped, a tmux server killed) while the program is not
# the session leader (a shell runs it as a child, as `sh -c "cudaclimb; ..."` does): the SIGHUP goes
# to the shell, not to us. The program must notice the hang-up on its input and leave, with its
# worker, instead of spinning on a dead terminal.
tmux -L "$SOCK" kill-server 2>/dev/null
N=$((N + 1)); SOCK=cc-tui-$$-$N
tmux -L "$SOCK" -f /dev/null new-session -d -s cc -x 100 -y 30 \
	"env LANG=C.UTF-8 TERM=xterm-256color sh -c '$BIN; echo done'"
wait_for "Memory bandwidth with SAXPY" >/dev/null
wait_for "no GPU" 15 >/dev/null || wait_for "(sm_" 15 >/dev/null
p=$(pgrep -n -f "^$BIN\$")
kids=$(pgrep -P "$p" | tr '\n' ' ')
check "terminal gone: a child to end is there (the worker: $kids)" test -n "$kids"
tmux -L "$SOCK" kill-server 2>/dev/null
alive() { [ -n "$(awk '$3 != "Z" {print $3}' "/proc/$1/stat" 2>/dev/null)" ]; }
i=0; while alive "$p" && [ $i -lt 50 ]; do sleep 0.1; i=$((i + 1)); done
check_not "terminal gone, no SIGHUP: the program leaves" alive "$p"
gone=1; for k in $kids; do alive "$k" && gone=0; done
check "terminal gone, no SIGHUP: its children end too" test $gone = 1
kill -9 "$p" 2>/dev/null

# No terminal at all (stdin from /dev/null, stdout a pipe): the interface must refuse in one line with
# exit 2 instead of drawing into the pipe, and it must do so by itself, well inside a second.
t0=$(date +%s%N)
timeout -k 1 3 "$BIN" --replay "$ROOT/tests/tui/fixtures/replay-bandwidth.json" </dev/null >"$TMP/notty.out" 2>"$TMP/notty.err"
rc=$?; ms=$(( ($(date +%s%N) - t0) / 1000000 ))
check "no terminal: exits 2 by itself (rc=$rc in $ms ms)" test "$rc" = 2 -a "$ms" -lt 1000
check "no terminal: one line that says why" sh -c "[ \$(wc -l <'$TMP/notty.err') = 1 ] && grep -q 'needs a terminal' '$TMP/notty.err'"
check "no terminal: nothing drawn into the pipe" test ! -s "$TMP/notty.out"
# stdin a terminal (tmux's) but stdout redirected to a file: refused the same way.
tmux -L "$SOCK" kill-server 2>/dev/null
N=$((N + 1)); SOCK=cc-tui-$$-$N
tmux -L "$SOCK" -f /dev/null new-session -d -s cc -x 100 -y 30 \
	"env LANG=C.UTF-8 TERM=xterm-256color sh -c '$BIN >$TMP/notty2.out 2>$TMP/notty2.err; echo EXITED rc=\$?; sleep 60'"
check "stdout not a terminal: refused with exit 2" wait_for "EXITED rc=2" 3
check "stdout not a terminal: nothing drawn into the file" test ! -s "$TMP/notty2.out"
