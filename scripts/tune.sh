#!/bin/sh
# What-ifs of one stage in one call to the GPU box: each line of stdin is a set of NAME=VALUE settings
# (blank: the defaults); each gives one bench of LESSON's STAGE beside its baseline (no counters), and
# one line: the settings, the status, the median time and the per-pair ratio to the baseline (above 1:
# faster than the baseline).   Usage: printf 'TMA=0 ITEMS=8\nTMA=1\n' | scripts/tune.sh scan lookback
set -u
cd "$(dirname "$0")/.." || exit 2
B=${CUDACLIMB:-build/cudaclimb}
lesson=$1 stage=$2
while IFS= read -r sets; do
	args=""
	for s in $sets; do args="$args --set $s"; done
	# shellcheck disable=SC2086
	$B bench "$lesson" --stage "$stage" --no-counters --json $args 2>/dev/null | python3 -c '
import json, sys
label = sys.argv[1] or "(defaults)"
try:
    d = json.load(sys.stdin)
except Exception as e:
    print("%-40s no JSON (%s)" % (label, e)); sys.exit()
for r in d["results"]:
    if r["stage"] == "baseline": continue
    print("%-40s %-8s %-8s %9.4f ms  x%.3f of the baseline  %s" % (label, r["stage"], r["status"], r.get("ms_median", -1),
          r.get("pair_ratio", -1), r.get("message", "")[:60] if r["status"] != "ok" else ""))' "$sets"
done
