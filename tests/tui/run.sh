#!/bin/sh
# Runs every end-to-end test of the terminal interface (t_*.sh); the last line is
# "N passed, N failed". Needs tmux and build/cudaclimb (make); CUDACLIMB=path tests another binary.
# TUI_TESTS="t_gpu t_merge" runs only those. A script's diagnostics (the screen it waited on) are shown only when it failed.
case "${CUDACLIMB:-}" in ""|/*) ;; *) CUDACLIMB=$(pwd)/$CUDACLIMB; export CUDACLIMB ;; esac
cd "$(dirname "$0")" || exit 2
if ! command -v tmux >/dev/null; then echo "FAIL tmux is not installed"; echo "0 passed, 1 failed"; exit 1; fi
out=$(mktemp)
for t in ${TUI_TESTS:-t_*}; do
	t=${t%.sh}.sh
	sh "./$t" >"$out.one" 2>"$out.err"
	cat "$out.one"
	cat "$out.one" >>"$out"
	grep -q '^FAIL' "$out.one" && sed 's/^/    /' "$out.err"
done
p=$(grep -c '^PASS' "$out"); f=$(grep -c '^FAIL' "$out")
rm -f "$out" "$out.one" "$out.err"
echo "$p passed, $f failed"
[ "$f" -eq 0 ]
