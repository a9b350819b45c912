#!/bin/sh
# Runner failures are not "no GPU" (issue #31 item 9): an unreachable ssh host, no ssh client and no
# srun each give one line labelled runner_error on stderr and exit 5; --json still prints the
# document, with the status, on stdout. No sshd or Slurm needed: a fake ssh client that fails as
# ssh does.
. tests/lib.sh
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
trap 'exit 1' HUP INT TERM PIPE
printf '#!/bin/sh\necho "ssh: connect to host 192.0.2.9 port 22: Connection refused" >&2\nexit 255\n' >"$tmp/ssh"
chmod 755 "$tmp/ssh"
unset CUDACLIMB_RUNNER CUDACLIMB_WORKER CUDACLIMB_COURSE

one_line() {   # name exit pattern command...: one line on stderr, nothing on stdout
	name=$1 want=$2 pat=$3; shift 3
	out=$("$@" 2>"$tmp/err"); got=$?
	lines=$(grep -c . "$tmp/err")
	if [ "$got" = "$want" ] && [ -z "$out" ] && [ "$lines" = 1 ] && grep -Eq -- "$pat" "$tmp/err"; then pass "$name"
	else fail "$name: exit $got, $lines lines on stderr, stdout '$(printf '%s' "$out" | head -c 80)'"; sed 's/^/    /' "$tmp/err" | head -5; fi
}
one_line "runner errors: an unreachable ssh host is runner_error, exit 5" 5 "^runner_error: cannot reach gpu9: ssh: connect to host 192\.0\.2\.9 port 22: Connection refused$" \
	env CUDACLIMB_SSH="$tmp/ssh" $B --runner ssh gpu9 device
one_line "runner errors: no ssh client is runner_error, exit 5" 5 "^runner_error: cannot reach gpu9: there is no /nonexistent/ssh here" \
	env CUDACLIMB_SSH=/nonexistent/ssh $B --runner ssh gpu9 device
one_line "runner errors: no srun is runner_error, exit 5" 5 "^runner_error: cannot use Slurm: there is no /nonexistent/srun here" \
	env CUDACLIMB_SRUN=/nonexistent/srun $B --runner slurm device

out=$(CUDACLIMB_SSH="$tmp/ssh" $B --runner ssh gpu9 device --json 2>/dev/null); code=$?
if [ $code = 5 ] && printf '%s' "$out" | python3 -c 'import json,sys; d=json.load(sys.stdin); sys.exit(0 if d["schema"] >= 1 and d["status"] == "runner_error" and d["present"] is False and "cannot reach gpu9" in d["why"] else 1)'; then
	pass "runner errors: device --json says runner_error on stdout, exit 5"
else fail "runner errors: device --json: exit $code: $(printf '%s' "$out" | head -c 200)"; fi

# A run: the table on stdout with the stage's status runner_error, the reason on stderr, exit 5.
out=$(CUDACLIMB_SSH="$tmp/ssh" $B --runner ssh gpu9 run bandwidth/coalesced 2>"$tmp/err"); code=$?
if [ $code = 5 ] && printf '%s\n' "$out" | grep -q "^coalesced .* runner_error" && ! printf '%s' "$out" | grep -q "cannot reach" &&
	grep -q "cannot reach gpu9" "$tmp/err"; then pass "runner errors: run labels the stage runner_error, the reason on stderr, exit 5"
else fail "runner errors: run: exit $code"; printf '%s\n' "$out" | head -8 | sed 's/^/    /'; sed 's/^/    err: /' "$tmp/err" | head -3; fi
out=$(CUDACLIMB_SSH="$tmp/ssh" $B --runner ssh gpu9 run bandwidth/coalesced --json 2>/dev/null); code=$?
if [ $code = 5 ] && printf '%s' "$out" | python3 -c 'import json,sys; d=json.load(sys.stdin); sys.exit(0 if d["results"][0]["status"] == "runner_error" else 1)'; then
	pass "runner errors: run --json has the status runner_error"
else fail "runner errors: run --json: exit $code"; fi

# A try: the learner's file is compiled, then the runner's reason; exit 5; nothing sent to progress as a failure.
mkdir -p "$tmp/work"
out=$(CUDACLIMB_SSH="$tmp/ssh" CUDACLIMB_WORK="$tmp/work" $B --runner ssh gpu9 try bandwidth/coalesced 2>&1); code=$?
if [ $code = 5 ] && printf '%s' "$out" | grep -q "cannot reach gpu9"; then pass "runner errors: try says why and exits 5"
else fail "runner errors: try: exit $code"; printf '%s\n' "$out" | tail -4 | sed 's/^/    /'; fi

# Without a GPU (local runner): the no-GPU line goes to stderr, stdout keeps the table; exit 3.
if $B device >/dev/null 2>&1; then skip "runner errors: the no-GPU message on stderr (this machine has a GPU)"
else
	out=$($B run bandwidth/coalesced 2>"$tmp/err"); code=$?
	if [ $code = 3 ] && ! printf '%s' "$out" | grep -q "no GPU" && grep -q "^no GPU" "$tmp/err" && printf '%s' "$out" | grep -q "no_gpu"; then
		pass "runner errors: run without a GPU: the reason on stderr, the table (no_gpu) on stdout, exit 3"
	else fail "runner errors: run without a GPU: exit $code"; printf '%s\n' "$out" | head -8 | sed 's/^/    /'; fi
	out=$($B device 2>"$tmp/err"); code=$?
	[ $code = 3 ] && [ -z "$out" ] && grep -q "^no GPU" "$tmp/err" && pass "runner errors: device without a GPU: stderr only, exit 3" \
		|| fail "runner errors: device without a GPU: exit $code, stdout '$out'"
fi
