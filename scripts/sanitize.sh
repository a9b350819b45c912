#!/bin/sh
# compute-sanitizer memcheck and racecheck on every stage of every lesson at a small size, on the
# GPU box. The kernels run in the worker process, so the sanitizer follows child processes.
# Usage: scripts/sanitize.sh [lesson ...]     Prints one PASS/FAIL line per stage and tool.
B=${CUDACLIMB:-build/cudaclimb}
small() {
	case $1 in
	bandwidth|reduction) echo "--set n=100003" ;;
	transpose) echo "--set rows=300 --set cols=257" ;;
	sgemm) echo "--set m=256 --set n=256 --set k=256" ;;
	tensorcore) echo "--set m=256 --set n=256 --set k=256" ;;
	esac
}
lessons=${*:-$($B list 2>/dev/null | awk '{print $1}')}
for l in $lessons; do
	for s in $($B show "$l" | sed -n 's/^[0-9]*\. \([a-z0-9_]*\) - .*/\1/p'); do
		for tool in memcheck racecheck; do
			out=$(compute-sanitizer --tool $tool --target-processes all --error-exitcode 99 \
				$B run "$l/$s" $(small "$l") --reps 1 --no-counters --timeout 120 2>&1)
			code=$?
			if [ $code = 0 ]; then echo "PASS $tool $l/$s"
			elif [ $code = 2 ]; then echo "PASS $tool $l/$s (refused at this size: $(printf '%s' "$out" | grep -m1 -o 'must .*'))"
			else echo "FAIL $tool $l/$s (exit $code)"; printf '%s\n' "$out" | grep -m5 -E "ERROR|Invalid|Race|error" | sed 's/^/    /'; fi
		done
	done
done
