# Helpers for the TUI's end-to-end tests: the real binary in a detached tmux, keys sent with
# send-keys, the screen read with capture-pane, and waits that poll for text (bounded), never
# fixed sleeps. Each test prints "PASS name" or "FAIL name".
ROOT=$(cd "$(dirname "$0")/../.." && pwd)
BIN=${CUDACLIMB:-$ROOT/build/cudaclimb}
TMP=$(mktemp -d /tmp/cc-tui.XXXXXX)
N=0
SOCK=cc-tui-$$-0
export XDG_STATE_HOME=$TMP/state
export CUDACLIMB_LESSONS_ONLY=1   # a fixture tree (--lessons) is meant alone, as in tests/lib.sh
WAIT=${TUI_WAIT:-10}      # seconds a wait may take
# Every server this script started (start with KEEP=1 leaves the previous one running).
trap 'i=0; while [ $i -le $N ]; do tmux -L "cc-tui-$$-$i" kill-server 2>/dev/null; i=$((i + 1)); done; rm -rf "$TMP"' EXIT

pass() { echo "PASS $1"; }
fail() { echo "FAIL $1${2:+: $2}"; }
# check NAME COMMAND...: PASS when the command succeeds.
check() { local n=$1; shift; if "$@"; then pass "$n"; else fail "$n"; fi; }

# start W H [VAR=value...] -- [cudaclimb arguments...]: a fresh session running the binary.
# The shell around it reports the exit status and stays, so that the end can be read. The session
# before is ended, unless KEEP=1: then both run, and `use "$SOCK"` (saved after each start)
# switches between them.
start() {
	local w=$1 h=$2 envs="" args=""
	shift 2
	while [ $# -gt 0 ] && [ "$1" != "--" ]; do envs="$envs $1"; shift; done
	[ "$1" = "--" ] && shift
	for a in "$@"; do args="$args '$a'"; done
	[ -n "${KEEP:-}" ] || tmux -L "$SOCK" kill-server 2>/dev/null
	N=$((N + 1)); SOCK=cc-tui-$$-$N          # a new server: the old one may still be shutting down
	tmux -L "$SOCK" -f /dev/null new-session -d -s cc -x "$w" -y "$h" \
		"env LANG=C.UTF-8 TERM=xterm-256color $envs sh -c 'echo \$\$ >$TMP/pid; exec $BIN $args'; echo EXITED rc=\$?; sleep 60"
	tmux -L "$SOCK" set-option -g window-size manual 2>/dev/null
}
keys() { tmux -L "$SOCK" send-keys -t cc "$@"; }
use() { SOCK=$1; }
# click X Y: a left click at column X, row Y (from 0), as the terminal sends it (SGR 1006).
click() { tmux -L "$SOCK" send-keys -t cc -l "$(printf '\033[<0;%d;%dM\033[<0;%d;%dm' $(($1 + 1)) $(($2 + 1)) $(($1 + 1)) $(($2 + 1)))"; }
# row_of TEXT: the screen row (from 0) of the first line that shows TEXT (fixed string).
row_of() { screen | grep -nF -- "$1" | head -1 | cut -d: -f1 | awk '{ print $1 - 1 }'; }
screen() { tmux -L "$SOCK" capture-pane -p -t cc 2>/dev/null; }
screen_esc() { tmux -L "$SOCK" capture-pane -p -e -t cc 2>/dev/null; }
resize() { tmux -L "$SOCK" resize-window -t cc -x "$1" -y "$2"; }
pid() { cat "$TMP/pid"; }

# wait_for TEXT [seconds]: until the screen shows TEXT (fixed string). 0 when it did.
wait_for() {
	local t=$(( ${2:-$WAIT} * 10 ))
	while [ $t -gt 0 ]; do
		screen | grep -qF -- "$1" && return 0
		sleep 0.1; t=$((t - 1))
	done
	echo "--- waited for '$1'; the screen was:" >&2; screen >&2
	return 1
}
# wait_re REGEX [seconds]: until the screen matches REGEX (extended). 0 when it did.
wait_re() {
	local t=$(( ${2:-$WAIT} * 10 ))
	while [ $t -gt 0 ]; do
		screen | grep -qE -- "$1" && return 0
		sleep 0.1; t=$((t - 1))
	done
	echo "--- waited for /$1/; the screen was:" >&2; screen >&2
	return 1
}
# wait_gone TEXT [seconds]: until the screen no longer shows TEXT.
wait_gone() {
	local t=$(( ${2:-$WAIT} * 10 ))
	while [ $t -gt 0 ]; do
		screen | grep -qF -- "$1" || return 0
		sleep 0.1; t=$((t - 1))
	done
	return 1
}

# seen_re REGEX SECONDS: whether the screen matches REGEX at any moment within SECONDS, looking
# often (for something shown briefly). 0 when it did.
seen_re() {
	local t=$(( ${2:-1} * 50 ))
	while [ $t -gt 0 ]; do
		screen | grep -qE -- "$1" && return 0
		sleep 0.02; t=$((t - 1))
	done
	return 1
}

# make_tree DIR: a lesson tree with a copy of the bandwidth lesson (DIR/lessons, DIR/kernels).
make_tree() {
	mkdir -p "$1/lessons" "$1/kernels"
	cp "$ROOT/lessons/bandwidth.yaml" "$1/lessons/"
	cp -r "$ROOT/kernels/bandwidth" "$1/kernels/"
	[ -d "$ROOT/kernels/builtin" ] && cp -r "$ROOT/kernels/builtin" "$1/kernels/"
	return 0
}
# shows REGEX: the screen now matches REGEX (extended).
shows() {
	screen | grep -qE -- "$1" && return 0
	echo "--- expected /$1/; the screen was:" >&2; screen >&2
	return 1
}
# check_not NAME COMMAND...: PASS when the command fails.
check_not() { local n=$1; shift; if "$@"; then fail "$n"; else pass "$n"; fi; }
ESC=$(printf '\033')
# has_colour: the escape sequences set a colour (SGR 30-38, 40-48, 90-107; 39 and 49 are the defaults).
has_colour() { screen_esc | grep -qE "${ESC}\[([0-9;]*;)?(3[0-8]|4[0-8]|9[0-7]|10[0-7])(;[0-9;]*)?m"; }
# has_attr N: the screen uses SGR attribute N alone (1 bold, 7 reverse...).
has_attr() { screen_esc | grep -qE "${ESC}\[([0-9]*;)?$1m"; }

# goto_lesson TITLE: on the lesson list, j until the selected line (▸, or > in ASCII) is TITLE's,
# wherever the lesson sits in the list. open_lesson TITLE ID: then Enter, at its first stage.
goto_lesson() {
	wait_for "Lesson" >/dev/null   # the list; the lesson itself may lie below its last row
	local i=0
	while [ $i -lt 40 ] && ! screen | grep -qE "(▸|>)[^│|]*$1"; do keys j; sleep 0.1; i=$((i + 1)); done
}
open_lesson() { goto_lesson "$1"; keys Enter; wait_for "$2 1/" >/dev/null; }
