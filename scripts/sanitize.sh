#!/bin/sh
# compute-sanitizer memcheck and racecheck on every stage of the given lessons (default: all) at a
# small size, on the GPU box. The kernels run in the worker process, so the sanitizer follows child
# processes (--target-processes all); the process that runs kernels prints the tool's summary
# ("ERROR SUMMARY: 0 errors", "RACECHECK SUMMARY: 0 hazards ..."). A stage passes only with a summary
# and nothing but zeros in it. First a control: memcheck must catch the fixture kernel that writes
# through a bad pointer (in the worker), which shows the sanitizer reaches the worker at all.
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
# sanitize TOOL ARGS...: sets out, summaries (count) and errors (summaries that are not all zero).
sanitize() {
	tool=$1; shift
	out=$(compute-sanitizer --tool "$tool" --target-processes all "$@" --reps 1 --no-counters --timeout 120 2>&1)
	summaries=$(printf '%s\n' "$out" | grep -c "SUMMARY: ")
	errors=$(printf '%s\n' "$out" | grep "SUMMARY: " | grep -Evc "SUMMARY: 0 (errors|hazards displayed \(0 errors, 0 warnings\))")
}
sanitize memcheck $B --lessons tests/fixtures/faulty run fixture/fault
if [ "$errors" -gt 0 ]; then echo "PASS memcheck control: the bad-pointer fixture kernel is caught"
else echo "FAIL memcheck control: the bad-pointer fixture kernel was not caught ($summaries summaries)"; fi
lessons=${*:-$($B list 2>/dev/null | awk '{print $1}')}
for l in $lessons; do
	for s in $($B show "$l" | sed -n 's/^[0-9]*\. \([a-z0-9_]*\) - .*/\1/p'); do
		for tool in memcheck racecheck; do
			sanitize $tool $B run "$l/$s" $(small "$l")
			if printf '%s\n' "$out" | grep -q "must be"; then
				echo "PASS $tool $l/$s (refused at this size: $(printf '%s' "$out" | grep -m1 -o 'must be.*'))"
			elif [ "$summaries" -ge 1 ] && [ "$errors" = 0 ]; then echo "PASS $tool $l/$s"
			else
				echo "FAIL $tool $l/$s ($summaries summaries, $errors with errors)"
				printf '%s\n' "$out" | grep -m6 -E "ERROR|Invalid|Race|Hazard|error" | sed 's/^/    /'
			fi
		done
	done
done
