# Nothing is cut without saying so (#51 item 4): at 80x24 and 120x40, in ASCII ("...") and UTF-8
# ("…"), a lesson's summary cut short ends in the ellipsis, a refused tunable keeps the values it
# allows whole on lines of their own, and a status line too long for the screen ends in the ellipsis.
. "$(dirname "$0")/lib.sh"
# The allowed values, on one line or wrapped onto the next, none cut.
both_shown() { shows "allowed: 64, 128, 256,( 512, 1024)?" && shows "512, 1024 *[|│]"; }
for mode in ascii utf8; do
	if [ $mode = ascii ]; then ell='...'; opt=--ascii; else ell='…'; opt=--no-color; fi
	for size in "80 24" "120 40"; do
		start $size XDG_STATE_HOME=$TMP/s-$mode-${size% *} -- $opt
		wait_for "Memory bandwidth with SAXPY" >/dev/null
		if [ "$size" = "80 24" ]; then
			check "cut ($size $mode): the lesson summary cut short ends in the ellipsis" \
				shows "yardstick for .*$(printf '%s' "$ell" | sed 's/\./\\./g') *[|│]$"
		fi
		keys Enter
		wait_for "Tunables" >/dev/null
		keys Tab Tab 1 0 0
		check "cut ($size $mode): a refused value says why" wait_re "BLOCK = 100 is not"
		check "cut ($size $mode): ... and the values it allows, whole" \
			both_shown
		keys Escape
	done
done
# A status message longer than the line: cut with the ellipsis, "? help" kept.
start 80 24 -- --replay "$ROOT/assets/recorded/h100/h100-9a90f80-2026-11-26-bandwidth.json"
wait_for "Memory bandwidth with SAXPY" >/dev/null
keys Enter
wait_for "Tunables" >/dev/null
keys r
wait_for "GB/s" >/dev/null
keys Tab Tab Right
check "cut (80 24): a long status line ends in the ellipsis before ? help" wait_re "… +\? help *$"
