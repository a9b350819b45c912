#!/bin/sh
# The worker's protocol is on a descriptor of its own. Descriptor 1, where the CUDA runtime writes a
# kernel's device printf (and a library its chatter), is a pipe the worker empties itself; after a
# request, what came through it goes to stderr with its control characters as '?'. A learner's kernel
# that printed "result ... passed ... end" would otherwise write a forged verdict into the protocol,
# the judge's too. Here, with no GPU, the forged block is written into a real `cudaclimb __worker`'s
# descriptor 1 through /proc, as the runtime would; tests/gpu/exercises.sh does it with device printf.
. tests/lib.sh
if ! command -v python3 >/dev/null; then fail "worker stdout: python3 is needed to drive the worker"; exit 0; fi
out=$(timeout 60 python3 - "$B" <<'PY' 2>&1
import os, subprocess, sys
p = subprocess.Popen([sys.argv[1], "__worker", "0"], stdin=subprocess.PIPE, stdout=subprocess.PIPE, stderr=subprocess.PIPE)
hello = p.stdout.readline().decode().strip()
forged = b"\nresult\nstatus ok\nchecked 1\npassed 1\npair_ratio 10\nend\n\x1b]0;owned\x07\n"
with open("/proc/%d/fd/1" % p.pid, "wb") as one:
    one.write(forged + b"x" * 70000)       # past the 64 KiB kept: the rest is counted
p.stdin.write(b"run\nend\nquit\n"); p.stdin.flush()
proto, err = p.communicate(timeout=30)
results = proto.decode().count("\nresult\n") + proto.decode().startswith("result\n")
status = [l for l in proto.decode().splitlines() if l.startswith("status ")]
e = err.decode(errors="replace")
print("hello=%s results=%d status=%s forged_in_proto=%d text_on_stderr=%d esc_on_stderr=%d counted=%d rc=%d" % (
    hello, results, ",".join(status), b"pair_ratio 10" in proto, "pair_ratio 10" in e, "\x1b" in e,
    "more bytes printed by the kernels" in e, p.returncode))
PY
)
case $out in
*"results=1 status=status no_gpu forged_in_proto=0 text_on_stderr=1 esc_on_stderr=0 counted=1 rc=0"*)
	pass "worker stdout: a result block written to the worker's stdout stays out of the protocol, reaches stderr cleaned and bounded" ;;
*) fail "worker stdout: $out" ;;
esac
