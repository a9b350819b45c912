#!/bin/sh
# GPU test of tensor map arguments: the tests/fixtures/tma lesson copies a matrix through shared memory
# with a TMA load, which must match the same copy with plain loads, at the default size (1000 x 776:
# neither side a multiple of the 32 x 32 box, so edge boxes come back zero-filled) and at a small odd
# one. Without a GPU this prints one visible SKIP line; on a GPU older than Hopper, one per size.
. tests/lib.sh
why=$($B device 2>&1); code=$?
if [ $code = 3 ]; then skip "tma gpu tests: $(printf '%s' "$why" | head -1)"; exit 0; fi
if [ $code != 0 ]; then fail "tma: cudaclimb device exited $code: $why"; exit 0; fi
if ! command -v python3 >/dev/null; then fail "tma: python3 is needed to read the JSON results"; exit 0; fi
tmp=$(mktemp -d); trap 'rm -rf "$tmp"' EXIT

for sets in "" "--set rows=37 --set cols=20"; do
	# shellcheck disable=SC2086 # the settings are split on purpose
	$B --lessons tests/fixtures/tma bench tma $sets --reps 3 --timeout 60 --json >"$tmp/tma.json" 2>"$tmp/tma.err"
	out=$(python3 - "$tmp/tma.json" "${sets:-default size}" <<'PY'
import json, sys
label = sys.argv[2]
try:
    got = {r["stage"]: r for r in json.load(open(sys.argv[1]))["results"]}
except Exception as e:
    print("FAIL tma (%s): no JSON results (%s)" % (label, e)); sys.exit(0)
r = got.get("tma")
if r is None:
    print("FAIL tma (%s): no result for the tma stage" % label)
elif r["status"] == "unsupported":
    print("SKIP tma (%s): %s" % (label, r["message"]))
elif r["status"] == "ok" and r["checked"] and r["passed"]:
    print("PASS tma (%s): the TMA copy matches the plain one" % label)
else:
    print("FAIL tma (%s): %s, checked %s, passed %s, %s bad from index %s: %s" % (label, r["status"], r["checked"],
          r["passed"], r["bad_count"], r["first_bad"], r["message"]))
PY
)
	printf '%s\n' "$out"
	case $out in FAIL*) head -5 "$tmp/tma.err" | sed 's/^/    /' ;; esac
done
