#!/bin/sh
# Runners and the worker protocol: a worker that is not cudaclimb's (a compromised remote over ssh, a
# program CUDACLIMB_WORKER names) sends an endless line, or terminal escapes in a note. The engine must
# stop reading within a bound (time, memory) and say why; nothing it prints may drive the terminal.
cd "$(dirname "$0")/../.."
. tests/lib.sh
T=$(mktemp -d /tmp/cc-runners.XXXXXX); trap 'rm -rf "$T"' EXIT
DEV='device\npresent 1\nname Fake\narch sm_90\ncc 90\nsm_count 132\nwarp_size 32\nmax_threads_per_block 1024\nmax_threads_per_sm 2048\nregs_per_sm 65536\nregs_per_block 65536\nsmem_per_block 49152\nsmem_per_block_optin 232448\nsmem_per_sm 233472\nmax_blocks_per_sm 32\nend\n'
# worker NAME RUN-ANSWER: a shell worker that greets (in this build's protocol), describes a GPU and
# answers a run with RUN-ANSWER.
PROTO=$(sed -n 's/^#define WORKER_PROTOCOL \([0-9]*\).*/\1/p' src/lesson/plan_wire.h)
worker() {
	cat > "$T/$1" <<W
#!/bin/sh
printf 'hello $PROTO\n'
while read -r l; do
	case "\$l" in
	device) read -r x; printf '$DEV' ;;
	run) while read -r x && [ "\$x" != end ]; do :; done; $2 ;;
	esac
done
W
	chmod +x "$T/$1"
}

# An endless line (no newline ever): without a bound the engine searched it again at each read and kept
# it all, never timing out (each read counts as life).
worker endless 'printf "note "; exec tr "\\000" A < /dev/zero'
out=$( (ulimit -v 1500000; CUDACLIMB_WORKER=$T/endless timeout 40 "$B" run bandwidth/1 2>&1); echo "rc=$?")
case "$out" in
*"rc=124"*) fail "runners: an endless line from the worker: still reading after 40 s" ;;
*"longer than"*) pass "runners: an endless line from the worker is refused ($(printf '%s\n' "$out" | grep -o 'a line longer than [0-9]* MiB' | head -1))" ;;
*) fail "runners: an endless line from the worker"; printf '%s\n' "$out" | tail -5 | cut -c1-200 | sed 's/^/    /' ;;
esac

# A note with terminal escapes (a title change, a screen clear): shown with its control characters as '?'.
worker esc "printf 'note \\033]0;PWNED\\007held \\033[2J\\nphase running\\nresult\\nstatus ok\\nend\\n'"
out=$(CUDACLIMB_WORKER=$T/esc timeout 30 "$B" run bandwidth/1 2>&1)
esc=$(printf '\033')
if printf '%s' "$out" | grep -q "PWNED" && ! printf '%s' "$out" | grep -q "$esc"; then
	pass "runners: a worker's note is shown without its terminal escapes"
else
	fail "runners: a worker's note reaches the terminal with its escapes"; printf '%s\n' "$out" | grep PWNED | cat -v | head -3 | sed 's/^/    /'
fi

# A worker that closes its output and lives on (here asleep; over ssh, a far side that keeps writing on
# stderr): the engine waited for it in waitpid with no bound. Now it is killed 10 s after its output ended.
worker mute 'exec >&-; exec sleep 600'
start=$(date +%s)
out=$( (CUDACLIMB_WORKER=$T/mute timeout 30 "$B" run bandwidth/1 2>&1); echo "rc=$?")
took=$(( $(date +%s) - start ))
case "$out" in
*"rc=124"*) fail "runners: a worker that closed its output and lives on: still waiting after 30 s" ;;
*"signal 9"*) pass "runners: a worker that closed its output and lives on is killed (${took} s)" ;;
*) fail "runners: a worker that closed its output and lives on"; printf '%s\n' "$out" | tail -3 | cut -c1-200 | sed 's/^/    /' ;;
esac
