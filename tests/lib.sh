# Shared by the test scripts: pass/fail/skip lines that scripts/run-tests.sh counts, and a bounded
# wait for text instead of fixed sleeps.
B=${CUDACLIMB:-build/cudaclimb}
pass() { echo "PASS $*"; }
fail() { echo "FAIL $*"; }
skip() { echo "SKIP $*"; }
# expect NAME EXPECTED-EXIT PATTERN COMMAND...: runs COMMAND, checks its exit status and that its
# output (stdout and stderr) matches the extended regular expression PATTERN.
expect() {
	name=$1 want=$2 pat=$3; shift 3
	out=$("$@" 2>&1); got=$?
	if [ "$got" != "$want" ]; then fail "$name: exit $got, expected $want"; printf '%s\n' "$out" | head -20 | sed 's/^/    /'; return; fi
	if ! printf '%s\n' "$out" | grep -Eq -- "$pat"; then fail "$name: output lacks /$pat/"; printf '%s\n' "$out" | head -20 | sed 's/^/    /'; return; fi
	pass "$name"
}
