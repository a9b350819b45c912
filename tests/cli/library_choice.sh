#!/bin/sh
# A baseline's result names what its library chose (library_choice, #48: the cuBLASLt algorithm, the
# cuDNN convolution algorithm or SDPA engine, timed once per GPU and shape and kept): the bench's
# method footer says it, --json keeps it. A recording given one (a synthetic text), replayed; no GPU.
. tests/lib.sh
tmp=$(mktemp -d); trap 'rm -rf "$tmp"' EXIT
python3 - tests/fixtures/recorded/h200-899481e-2026-11-26-attention.json "$tmp/att.json" <<'PY'
import json, sys
d = json.load(open(sys.argv[1]))
for r in d["results"]:
    if r["stage"] == "baseline":
        r["library_choice"] = "cuDNN SDPA eng0 (a synthetic choice)"
json.dump(d, open(sys.argv[2], "w"))
PY
expect "library_choice: the footer names the baseline's choice" 0 "^Library \(baseline\): cuDNN SDPA eng0 \(a synthetic choice\)\.$" \
	$B --replay "$tmp/att.json" bench attention --no-counters
expect "library_choice: --json keeps it" 0 '"library_choice": "cuDNN SDPA eng0 \(a synthetic choice\)"' \
	$B --replay "$tmp/att.json" bench attention --no-counters --json
out=$($B --replay tests/fixtures/recorded/h200-899481e-2026-11-26-attention.json bench attention --no-counters 2>&1)
printf '%s\n' "$out" | grep -q "^Library " && fail "library_choice: a recording without it says nothing" \
	|| pass "library_choice: a recording without it says nothing"
