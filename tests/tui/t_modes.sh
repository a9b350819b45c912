# Colours and glyphs: NO_COLOR and --no-color give no colour, --ascii and a non-UTF-8 locale give
# ASCII boxes and gauges, and the terminals a class meets over SSH all work.
. "$(dirname "$0")/lib.sh"

REPLAY="$ROOT/tests/tui/fixtures/replay-bandwidth.json"
has_box() { screen | grep -qF "┌"; }

start 100 30
wait_for "Memory bandwidth with SAXPY" >/dev/null
check "colour by default" has_colour
check "UTF-8 boxes by default" has_box

start 100 30 NO_COLOR=1
wait_for "Memory bandwidth with SAXPY" >/dev/null
check_not "NO_COLOR=1: no colour" has_colour
check "NO_COLOR=1: reverse video instead" has_attr 7

start 100 30 NO_COLOR=
wait_for "Memory bandwidth with SAXPY" >/dev/null
check "NO_COLOR empty: colour" has_colour

start 100 30 -- --no-color
wait_for "Memory bandwidth with SAXPY" >/dev/null
check_not "--no-color: no colour" has_colour

start 100 30 -- --ascii --replay "$REPLAY"
wait_for "Memory bandwidth with SAXPY" >/dev/null
check "--ascii: ASCII boxes" shows "^\+- Lessons -+-+"
check_not "--ascii: no box characters" has_box
keys Enter r
check "--ascii: ASCII gauge" wait_for "GB/s      #"
check_not "--ascii: no block characters" shows "[█░▏▎▍▌▋▊▉]"

export XDG_STATE_HOME="$TMP/state-fresh-$N"   # start at the list (a new folder: the last process may still be saving)
start 100 30 LANG=C LC_ALL=C
wait_for "Memory bandwidth with SAXPY" >/dev/null
check "C locale: ASCII automatically" shows "^\+- Lessons -+-+"

for term in xterm-256color screen tmux-256color vt100; do
	export XDG_STATE_HOME="$TMP/state-$term"
	start 100 30 TERM=$term
	check "TERM=$term: lesson list" wait_for "Memory bandwidth with SAXPY"
	keys Enter
	check "TERM=$term: stage view" wait_for "Kernel strided.cu"
	[ $term = vt100 ] && check_not "TERM=vt100: monochrome" has_colour
	keys q
	check "TERM=$term: quits cleanly" wait_for "EXITED rc=0"
done
