#!/bin/sh
# The timing lesson's format feature and its profile command, with no GPU: a stage's `timing:` reaches
# the worker's plan as one "timing" line (seen through the fake worker, tests/fake_worker.c, which
# hands the line back as the result's timing field); the result says how it was measured, in --json
# and in the text report, and a stage without timing: says nothing of the kind. A misspelt key or
# value is refused at its file:line:col. `cudaclimb profile` prints the ncu and nsys command lines
# (kernel regex, launch skip, the CUPTI metric names, caches and clocks) without a GPU, and --exec
# without the tool says where to get it.
. tests/lib.sh
tmp=$(mktemp -d); trap 'rm -rf "$tmp"' EXIT
cuda=${CUDA_HOME:-/usr/local/cuda}
if ! cc -std=c11 -D_GNU_SOURCE -Isrc/core -Isrc/lesson -Isrc/engine -Isrc/runner -Isrc/worker -Isrc/app -I$cuda/include tests/fake_worker.c src/core/result.c src/core/util.c -o "$tmp/fake" 2>"$tmp/cc.log"; then
	fail "timing lesson: the fake worker did not build: $(head -3 "$tmp/cc.log")"; exit 0
fi
F() { mode=$1; shift; CUDACLIMB_WORKER=$tmp/fake CC_FAKE=$mode $B "$@"; }

# the plan carries the stage's method, and only where the stage has one
expect "timing: host_nosync's plan has its timing line" 0 "not the tool.s: plan: host 0 -1 0 flush median" F echo run timing/host_nosync --reps 3 --no-counters --set n=1000
expect "timing: first_launch's plan: events, no warm-up, one run" 0 "not the tool.s: plan: events 1 0 1 flush median" F echo run timing/first_launch --reps 3 --no-counters --set n=1000
expect "timing: warm_l2's plan: the L2 left warm" 0 "not the tool.s: plan: events 1 -1 0 warm median" F echo run timing/warm_l2 --reps 3 --no-counters --set n=1000
out=$(F echo run timing/events --reps 3 --no-counters --set n=1000 2>&1)
if printf "%s\n" "$out" | grep -q "plan: events\|plan: host"; then fail "timing: the events stage's plan has a timing line"; printf '%s\n' "$out" | head -5
elif printf '%s\n' "$out" | grep -q "^events "; then pass "timing: the events stage (the tool's method) sends no timing line"
else fail "timing: the events stage did not run"; printf '%s\n' "$out" | head -5; fi

# the result says how it was measured
expect "timing: --json has the result's timing field" 0 '"timing": "plan: host 0 -1 0 flush median"' \
	F ok run timing/host_nosync --reps 3 --no-counters --set n=1000 --json
expect "timing: the text report names the stage's own method" 0 "^host_nosync: timed by the stage's own method, not the tool's: plan: host 0 -1 0 flush median" \
	F ok run timing/host_nosync --reps 3 --no-counters --set n=1000
out=$(F ok run timing/events --reps 3 --no-counters --set n=1000 --json 2>&1)
if printf '%s\n' "$out" | grep -q '"timing": ""'; then pass "timing: the tool's method leaves the field empty"
else fail "timing: the events stage's timing field"; printf '%s\n' "$out" | grep -o '"timing": "[^"]*"' | head -3; fi
out=$(F ok run timing/events --reps 3 --no-counters --set n=1000 2>&1)
if printf '%s\n' "$out" | grep -q "stage's own method"; then fail "timing: the events stage is said to be timed another way"
else pass "timing: no such phrase for the tool's own method"; fi

# a broken timing: is refused where it is
mkdir -p "$tmp/t/lessons" "$tmp/t/kernels"
cp -r kernels/timing "$tmp/t/kernels/"
sed 's/timing: { clock: host, sync: false }/timing: { clock: hots, sync: false }/' lessons/timing.yaml >"$tmp/t/lessons/timing.yaml"
line=$(grep -n "clock: hots" "$tmp/t/lessons/timing.yaml" | cut -d: -f1)
expect "timing: an unknown clock at its line and column" 4 "timing.yaml:$line:22: timing's clock is events or host, not 'hots'" $B --lessons "$tmp/t" list
sed 's/timing: { clock: host, sync: true }/timing: { clock: host, snyc: true }/' lessons/timing.yaml >"$tmp/t/lessons/timing.yaml"
line=$(grep -n "snyc" "$tmp/t/lessons/timing.yaml" | cut -d: -f1)
expect "timing: an unknown key at its line and column" 4 "timing.yaml:$line:28: unknown key 'snyc' in timing" $B --lessons "$tmp/t" list

# profile: the command lines, no GPU needed
expect "profile: ncu's kernel regex" 0 "--kernel-name 'regex:\^\(saxpy\)\\$'" $B profile timing/events --ncu
expect "profile: past the warm-up" 0 "--launch-skip 5 \\\\$" $B profile timing/events --ncu
expect "profile: one launch a repetition" 0 "--launch-count 1 \\\\$" $B profile timing/events --ncu
expect "profile: caches emptied, clocks left alone" 0 "--cache-control all \\\\$" $B profile timing/events --ncu
expect "profile: clocks left alone" 0 "--clock-control none \\\\$" $B profile timing/events --ncu
expect "profile: the CUPTI metric names" 0 "--metrics sm__warps_active\.avg\.pct_of_peak_sustained_active,dram__bytes_read\.sum,.*smsp__average_warps_issue_stalled_long_scoreboard_per_issue_active\.ratio" \
	$B profile timing/events --ncu
expect "profile: the run it wraps" 0 "cudaclimb run timing/events --no-counters --reps 5 --seed 1 --timeout 120$" $B profile timing/events --ncu
expect "profile: --set and --reps pass through" 0 "run timing/events --set n=1000 --no-counters --reps 3 --seed 9 " \
	$B profile timing/events --ncu --set n=1000 --reps 3 --seed 9
expect "profile: ten launches a repetition, skipped five times" 0 "--launch-skip 50 \\\\$" $B profile timing/warm_l2 --ncu
expect "profile: a warm-L2 stage keeps its cache" 0 "--cache-control none \\\\$" $B profile timing/warm_l2 --ncu
expect "profile: nsys" 0 "^nsys profile -t cuda \\\\$" $B profile timing/events --nsys
expect "profile: nsys's statistics and report name" 0 "--stats=true -o cudaclimb-timing-events \\\\$" $B profile timing/events --nsys
expect "profile: both tools without a choice" 0 "^ncu \\\\$" $B profile timing/pipe_fast
expect "profile: an unknown stage" 2 "no stage 'nosuch' in timing" $B profile timing/nosuch
expect "profile: one operand" 2 "profile takes one LESSON/STAGE" $B profile
expect "profile: --exec needs a tool" 2 "--exec runs one tool" $B profile timing/events --exec
expect "profile: the tool options are profile's" 2 "are for profile LESSON/STAGE" $B run timing/events --nsys
if [ -x "$cuda/bin/ncu" ] || command -v ncu >/dev/null 2>&1; then
	skip "profile --exec without ncu: ncu is installed here"
else
	expect "profile --exec: without ncu, where to get it" 1 "ncu is not on PATH nor in .*developer\.nvidia\.com/nsight-compute" \
		env CUDA_HOME=$tmp/none $B profile timing/events --ncu --exec
fi

# show names a stage's own method
expect "show: a stage timed its own way says so" 0 "^   timed its own way \(timing:\), not the tool's: CUDA events, no warm-up, 1 run$" $B show timing/first_launch
out=$($B show timing/events 2>&1)
if printf '%s\n' "$out" | grep -q "timed its own way"; then fail "show: the events stage is said to be timed its own way"
else pass "show: the tool's method is not announced"; fi

# a stage timed its own way is never named the fastest: a recording whose host_nosync "ran" at 100x
# the others' rate, replayed
F ok bench timing --reps 3 --no-counters --set n=1000 --json >"$tmp/bench.json" 2>/dev/null
python3 - "$tmp/bench.json" <<'PY'
import json, sys
d = json.load(open(sys.argv[1]))
for r in d["results"]:
    r["gbps"] = 100000.0 if r["stage"] == "host_nosync" else 1000.0 + (r["stage"] == "events")
    r["ms_median"] = 0.01 if r["stage"] == "host_nosync" else 1.0
json.dump(d, open(sys.argv[1], "w"))
PY
expect "bench: the fastest stage is one timed the tool's way" 0 "^Fastest stage: events " $B --replay "$tmp/bench.json" bench timing --no-counters --set n=1000
