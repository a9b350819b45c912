#!/bin/sh
# A replay file of another user's whose numbers are inf or 1e308 (the flops, the bytes, GFLOP/s, a
# GPU's peaks 600 decades apart): `bench --roofline --replay` and `run --roofline --replay` draw the
# chart from it. Before, a point at an infinite intensity came out at x = INT_MIN on the chart and
# the label placement read (and could write) far outside its buffer: SIGSEGV. Now such a point or
# roof is refused with a reason and the command ends normally.
# As root the victim is an unprivileged uid (2002), the file the attacker's (2003).
# Usage: sh tests/attack/roofline.sh (from the repository root, after make).
cd "$(dirname "$0")/../.." || exit 1
. tests/lib.sh
B=$(pwd)/${B#./}
case $B in /*) ;; *) B=$(pwd)/$B ;; esac
[ -x "$B" ] || { fail "roofline: $B is not built (make all)"; exit 0; }
REC=$(ls assets/recorded/*/*-bandwidth.json 2>/dev/null | head -n 1)
[ -n "$REC" ] || { skip "roofline: no recording of bandwidth under assets/recorded"; exit 0; }

tmp=$(mktemp -d "${TMPDIR:-/tmp}/cc-attack-roofline.XXXXXX") || exit 1
trap 'rm -rf "$tmp"' EXIT INT TERM
chmod 755 "$tmp"

if [ "$(id -u)" = 0 ] && command -v setpriv >/dev/null 2>&1; then
	mkdir -p "$tmp/home" "$tmp/evil" && chown 2002:2002 "$tmp/home" && chown 2003:2003 "$tmp/evil" && chmod 700 "$tmp/home"
	VICTIM="env HOME=$tmp/home XDG_CACHE_HOME=$tmp/home/.cache XDG_STATE_HOME=$tmp/home/.state setpriv --reuid=2002 --regid=2002 --clear-groups"
	ATTACKER="setpriv --reuid=2003 --regid=2003 --clear-groups"
else
	mkdir -p "$tmp/home" "$tmp/evil"
	VICTIM="env HOME=$tmp/home XDG_CACHE_HOME=$tmp/home/.cache XDG_STATE_HOME=$tmp/home/.state"
	ATTACKER=
	skip "roofline: not root, so the victim and the attacker are this user"
fi

# The attacker's files (theirs, in their folder): the recording with one kind of number made hostile in each.
cat "$REC" >"$tmp/rec.json"
chmod 644 "$tmp/rec.json"
python3 - "$tmp/rec.json" "$tmp/evil" <<'EOF'
import json, sys
base = json.load(open(sys.argv[1]))
def make(name, res=None, dev=None):
    d = json.loads(json.dumps(base))
    for r in d["results"]:
        r.update(res or {})
    d["device"].update(dev or {})
    json.dump(d, open("%s/%s.json" % (sys.argv[2], name), "w"))
make("gflops_inf", {"gflops": "inf"})
make("flops_inf", {"flops": "inf", "gflops": "0"})
make("bytes_inf", {"dram_bytes_write": "1e308", "dram_bytes_read": "1e308"})
make("ridge_inf", dev={"fp32_gflops": "1e308", "bw_attainable_gbps": "1e-308"})
make("theoretical_inf", dev={"bw_theoretical_gbps": "inf", "bw_attainable_gbps": "100"})
EOF
[ -n "$ATTACKER" ] && chown -R 2003:2003 "$tmp/evil"   # written as the attacker would (python3 may be a root-only shim)
chmod -R a+rX "$tmp/evil"
[ -f "$tmp/evil/ridge_inf.json" ] || { fail "roofline: the attacker's files were not made (python3?)"; exit 0; }

for f in gflops_inf flops_inf bytes_inf ridge_inf theoretical_inf; do
	for cmd in "bench bandwidth" "run bandwidth/strided"; do
		$VICTIM timeout -s KILL 60 "$B" $cmd --roofline --replay "$tmp/evil/$f.json" >"$tmp/out" 2>&1
		rc=$?
		name="roofline-$f-$(echo "$cmd" | cut -d' ' -f1)"
		if [ $rc -ge 128 ] || [ $rc = 124 ]; then fail "$name: exit $rc (a signal or the time ran out): $(tail -n 2 "$tmp/out" | tr '\n' ' ')"
		elif ! grep -q 'bandwidth' "$tmp/out"; then fail "$name: no report (exit $rc): $(tail -n 2 "$tmp/out" | tr '\n' ' ')"
		else pass "$name (exit $rc)"
		fi
	done
done
