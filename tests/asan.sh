#!/bin/sh
# The unit tests and a capped run of the CLI and TUI, built with AddressSanitizer and UBSan.
. tests/lib.sh
if ! make --no-print-directory asan >build/asan-build.log 2>&1; then fail "asan build: see build/asan-build.log"; tail -20 build/asan-build.log; exit 0; fi
export ASAN_OPTIONS=detect_leaks=1:abort_on_error=0 UBSAN_OPTIONS=print_stacktrace=1:halt_on_error=1
export LSAN_OPTIONS=suppressions=$(pwd)/tests/lsan.supp:print_suppressions=0
for t in build-asan/tests/test_*; do
	[ -x "$t" ] || continue
	out=$("$t" 2>&1); code=$?
	if [ $code = 0 ] && ! printf '%s' "$out" | grep -q "Sanitizer"; then pass "asan $(basename "$t")"; else fail "asan $(basename "$t") (exit $code)"; printf '%s\n' "$out" | grep -A12 "Sanitizer" | head -30; fi
done
A=build-asan/cudaclimb
expect "asan check" 0 "ok" $A check --arch sm_90
expect "asan malformed lessons" 4 "bad_key.yaml:6:1" $A --lessons tests/fixtures/faulty list
expect "asan show" 0 "Bottleneck" $A show reduction
if command -v tmux >/dev/null; then
	sock=cc-asan-$$
	tmux -L $sock new-session -d -x 100 -y 30 "$A --frames 20 --ascii >/dev/null 2>build/asan-tui.log; echo \$? >build/asan-tui.code"
	i=0; while [ ! -s build/asan-tui.code ] && [ $i -lt 300 ]; do sleep 0.1; i=$((i + 1)); done
	tmux -L $sock kill-server 2>/dev/null
	if [ "$(cat build/asan-tui.code 2>/dev/null)" = 0 ] && ! grep -q Sanitizer build/asan-tui.log; then pass "asan tui --frames 20"
	else fail "asan tui --frames 20 (exit $(cat build/asan-tui.code 2>/dev/null))"; head -30 build/asan-tui.log; fi
	rm -f build/asan-tui.code
else
	skip "asan tui: tmux is not installed"
fi
