#!/bin/sh
# Some GPU test scripts in one call to the GPU box, each bounded in time, each one's log under $OUT
# (or build/gpu-tests), and a table last: script, exit, seconds, passed, failed, skipped, and the
# first FAIL lines. For a session that cannot afford the whole GPU section (scripts/gpu-check.sh).
# Usage, after make:   scripts/gpu-tests.sh claims verify conv1d ...   (names in tests/gpu/)
# GPU_TEST_LIMIT=S bounds each script (default 280 s); CLAIMS_KEEP etc. pass through.
set -u
cd "$(dirname "$0")/.." || exit 2
out=${OUT:-build/gpu-tests}
mkdir -p "$out"
export CUDACLIMB=${CUDACLIMB:-build/cudaclimb}
{
	nvidia-smi --query-gpu=name,driver_version,clocks.sm --format=csv,noheader 2>/dev/null || echo "no nvidia-smi"
	echo "tree: $(git -c safe.directory='*' rev-parse --short HEAD 2>/dev/null) $(git -c safe.directory='*' diff --quiet 2>/dev/null || echo '(with changes)')"
} | tee "$out/about.txt"
table=$(mktemp)
for t in "$@"; do
	s=$(date +%s)
	timeout "${GPU_TEST_LIMIT:-280}" sh "tests/gpu/$t.sh" >"$out/$t.log" 2>&1; rc=$?
	printf '%-14s exit %-3s %4s s  %4s passed  %3s failed  %3s skipped\n' "$t" "$rc" "$(( $(date +%s) - s ))" \
		"$(grep -c '^PASS' "$out/$t.log")" "$(grep -c '^FAIL' "$out/$t.log")" "$(grep -c '^SKIP' "$out/$t.log")" >>"$table"
	grep '^FAIL' "$out/$t.log" | head -5 | cut -c1-300 | sed 's/^/    /' >>"$table"
done
echo; cat "$table"; rm -f "$table"
