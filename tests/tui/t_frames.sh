# The capped non-interactive mode (--frames N) tours the screens without input and exits 0; the
# same under AddressSanitizer when build-asan/cudaclimb exists (make asan).
. "$(dirname "$0")/lib.sh"

frames() {   # frames BINARY N [args]: no terminal on stdout, no input
	_b=$1; _n=$2; shift 2
	TERM=xterm-256color LANG=C.UTF-8 "$_b" --frames "$_n" "$@" </dev/null >"$TMP/out" 2>"$TMP/err"
}
check "--frames 40 exits 0" frames "$BIN" 40
check "--frames: nothing on stderr" test ! -s "$TMP/err"
check "--frames with --ascii --no-color" frames "$BIN" 40 --ascii --no-color
check "--frames with a replay" frames "$BIN" 40 --replay "$ROOT/tests/tui/fixtures/replay-bandwidth.json"
quiet() { "$@" </dev/null >/dev/null 2>&1; }
check "--frames without TERM" quiet env -u TERM "$BIN" --frames 5
check_not "--frames 0 is refused" quiet "$BIN" --frames 0
ASAN="$ROOT/build-asan/cudaclimb"
if [ -x "$ASAN" ] && [ "$ASAN" -ot "$BIN" ]; then
	echo "SKIP ASan frames: build-asan/cudaclimb is older than build/cudaclimb (tests/asan.sh rebuilds it and draws the interface under ASan later in make test)"
elif [ -x "$ASAN" ]; then
	export ASAN_OPTIONS=detect_leaks=1 UBSAN_OPTIONS=halt_on_error=1
	check "ASan: --frames 60" frames "$ASAN" 60
	check "ASan: clean" sh -c "! grep -qE 'ERROR: (Address|Leak)Sanitizer|runtime error' '$TMP/err'"
	check "ASan: --frames with a replay" frames "$ASAN" 60 --replay "$ROOT/tests/tui/fixtures/replay-bandwidth.json"
else
	echo "SKIP ASan frames: no build-asan/cudaclimb yet (a fresh tree; tests/asan.sh builds it and draws the interface under ASan later in make test)"
fi
