#!/bin/sh
# check and list in columns for any name's length, check ending in a summary line, and a kernel that
# compiles but does not fit its stage reported as the lesson's error (exit 4, README's exit codes),
# without the compiler's unrelated log (#51 item 7). No GPU needed.
. tests/lib.sh
T=$(mktemp -d); trap 'rm -rf "$T"' EXIT
mkdir -p "$T/lessons" "$T/kernels"
sed 's/^lesson: bandwidth$/lesson: bandwidth_with_a_long_name/' lessons/bandwidth.yaml >"$T/lessons/bandwidth_with_a_long_name.yaml"
cp -r kernels/bandwidth "$T/kernels/bandwidth_with_a_long_name"
[ -d kernels/builtin ] && cp -r kernels/builtin "$T/kernels/"
# column WORD: the columns at which WORD starts on each line of stdin that has it, one per line, unique.
column() { awk -v w="$1" '{ i = index($0, w); if (i) print i }' | sort -u; }
out=$($B --lessons "$T" check --arch sm_90 2>&1); rc=$?
if [ $rc = 0 ] && [ "$(printf '%s\n' "$out" | grep ' ok ' | sed 's/ ok .*//' | awk '{ print length($0) }' | sort -u | wc -l)" = 1 ]; then
	pass "check rows: one column for the status, whatever the lesson's and stage's names"
else fail "check rows: the status column moves (exit $rc)"; printf '%s\n' "$out" | head -5 | sed 's/^/    /'; fi
expect "check rows: a summary line at the end" 0 "^check: 7 kernels for sm_90: 7 ok; all good$" $B --lessons "$T" check --arch sm_90
n=$($B list | column "stages" | wc -l)
if [ "$n" = 1 ]; then pass "list: one column for the stage counts (precision_gemm too)"; else fail "list: the stage count is in $n columns"; $B list | head -20 | sed 's/^/    /'; fi
sed -i 's/saxpy_coalesced(const float \*x/saxpy_coalesced(int extra, const float *x/' "$T/kernels/bandwidth_with_a_long_name/coalesced.cu"
expect "check rows: a kernel that does not fit its stage is a lesson error, exit 4" 4 \
	"coalesced +lesson error: saxpy_coalesced takes 6 parameters, but the stage passes 5" $B --lessons "$T" check --arch sm_90
expect "check rows: ... counted as one in the summary" 4 "^check: 7 kernels for sm_90: 6 ok, 1 lesson error" $B --lessons "$T" check --arch sm_90
if $B --lessons "$T" check --arch sm_90 2>&1 | grep -Eq "ptxas|compile_error"; then fail "check rows: ... shown with the compiler's log or as compile_error"
else pass "check rows: ... without the compiler's log, not as compile_error"; fi
