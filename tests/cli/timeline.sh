#!/bin/sh
# run on a stage that copies: the bound beside the result; on more than one stream the timeline
# after the steps (80 columns, ASCII with --ascii); many steps summarised; the JSON keeps every step
# and replays. From the synthetic recording of tests/fixtures/timeline (no GPU needed; not a measurement).
. tests/lib.sh
F=tests/fixtures/timeline
R="--lessons $F --replay $F/synthetic-streams.json"
export LANG=C.UTF-8
expect "timeline: the bound beside the result" 0 "^streams2: bound 5.34 ms \(d2h 268 MB at 50.3 GB/s\); 1.14x the bound$" $B $R run pipeline/streams2
expect "timeline: one stream: the bound, 2x" 0 "^serial: bound 5.34 ms \(d2h 268 MB at 50.3 GB/s\); 2.02x the bound$" $B $R run pipeline/serial
expect "timeline: the steps with their streams and bytes" 0 "^  4   copy   h_x>d_x +2 h2d 33.6 MB " $B $R run pipeline/streams2
expect "timeline: two streams: the chart's title" 0 "^Timeline of streams2, one row per stream \(from the events around each step\):$" $B $R run pipeline/streams2
expect "timeline: a row per stream" 0 "^s2 +▸+█◂+▸" $B $R run pipeline/streams2
expect "timeline: the overlap row" 0 "^both +▴" $B $R run pipeline/streams2
expect "timeline: the summary" 0 "^6.09 ms a run; the steps span 6.07 ms on 2 streams, copy and kernel at once 3.5%$" $B $R run pipeline/streams2
expect "timeline: the bound under the chart" 0 "^Bound 5.34 ms \(d2h 268 MB at 50.3 GB/s\); 1.14x the bound.$" $B $R run pipeline/streams2
w=$($B $R run pipeline/streams4 | sed -n '/^Timeline of/,$p' | wc -L)
if [ "$w" -le 80 ]; then pass "timeline: the chart fits 80 columns"; else fail "timeline: the chart is $w columns wide"; fi
expect "timeline: 108 steps: the first and last, the others counted" 0 "^  \.\.\. steps 17 to 104: 29 h2d copies, 30 kernels, 29 d2h copies \(run --json lists every step\)$" $B $R run pipeline/streams4
n=$($B $R run pipeline/streams4 | grep -c '^  [0-9]')
if [ "$n" = 20 ]; then pass "timeline: 108 steps in 20 rows"; else fail "timeline: 108 steps in $n rows, not 20"; fi
out=$($B $R --ascii run pipeline/streams4 | sed -n '/^Timeline of/,$p')
if printf '%s\n' "$out" | LC_ALL=C grep -q '[^ -~]'; then fail "timeline --ascii: only ASCII"; printf '%s\n' "$out" | head -5; else pass "timeline --ascii: only ASCII"; fi
expect "timeline --ascii: the glyphs" 0 "^s1 +>+#<+" $B $R --ascii run pipeline/streams4
if $B $R run pipeline/serial | grep -q "^Timeline of"; then fail "timeline: none on one stream"; else pass "timeline: none on one stream"; fi
if $B $R run pipeline/plain | grep -q "bound"; then fail "timeline: no bound without copies"; else pass "timeline: no bound without copies"; fi
expect "timeline: bench: each stage's bound in the notes" 0 "^streams4: bound 5.34 ms \(d2h 268 MB at 50.3 GB/s\); 1.04x the bound$" $B $R bench pipeline
# JSON: every step with its stream, direction and bytes; and it replays to the same text
expect "timeline --json: a copy step" 0 "\"kind\": \"copy\", \"entry\": \"h_x>d_x\", \"stream\": 4, .*\"dir\": \"h2d\", \"bytes\": 7456544" $B $R run pipeline/streams4 --json
expect "timeline --json: the bound's fields" 0 "\"h2d_bytes\": 268435456, \"d2h_bytes\": 268435456, \"kernel_ms\": [0-9.]+, \"bound_ms\": 5.33668" $B $R run pipeline/streams4 --json
tmp=$(mktemp)
$B $R run pipeline/streams4 --json >"$tmp"
expect "timeline --json: replays" 0 "^streams4: bound 5.34 ms \(d2h 268 MB at 50.3 GB/s\); 1.04x the bound$" $B --lessons $F --replay "$tmp" run pipeline/streams4
rm -f "$tmp"
