# The timeline view (t on the stage view), without a GPU: the synthetic recording of
# tests/fixtures/timeline (--replay; a made-up pipeline, not a measurement) answers the stand-in
# lesson's stages. Before a run it says how to get one; after r, a row per stream with copies and
# kernels where their times put them, the overlap row, the bound; the steps listed and scrolled;
# 108 steps; a stage of kernels only; n/p, Esc, t and f; the measurements pane's bound line; a
# resize; ASCII and monochrome.
. "$(dirname "$0")/lib.sh"

F="$ROOT/tests/fixtures/timeline"
export XDG_STATE_HOME="$TMP/state-80"
start 80 24 -- --lessons "$F" --replay "$F/synthetic-streams.json"
wait_for "Copies and kernels on streams" >/dev/null
keys Enter
wait_for "pipeline 1/4" >/dev/null
keys '?' G
check "80x24: the help lists t" wait_for "t              timeline of steps"
keys Escape
wait_gone "timeline of steps" >/dev/null
keys t
check "80x24: t opens the timeline view" wait_for "Timeline: pipeline 1/4 serial (t or Esc leaves)"
check "80x24: before a run: says how to get one" shows "Not shown yet: r shows this stage's recorded run."
check "80x24: the view's keys in the footer" shows "n/p stage  r run  a every stage  t/Esc leave  ↑↓ steps"
keys r
check "80x24: r from the view: one stream, copy in, kernel, copy out" wait_re "│s0 +▸{20,}█+◂{20,} *│"
check "80x24: ... no overlap row on one stream" sh -c "! tmux -L '$SOCK' capture-pane -p -t cc | grep -q '│both'"
check "80x24: ... the summary says never at once" shows "│10.8 ms a run; the steps span 10.8 ms, copy and kernel never at once. *│"
check "80x24: ... the bound, twice the time" shows "│Bound 5.34 ms \(d2h 268 MB at 50.3 GB/s\); 2.02x the bound. *│"
check "80x24: ... the steps under it" shows "│  2 █ kernel scale +0 +0.1930 +5.2062 +5.3992│"
keys n
check "80x24: n: the next stage, not shown yet" wait_for "Timeline: pipeline 2/4 streams2"
keys r
check "80x24: two streams: a row each" wait_re "│s1 +▸+█◂+▸"
check "80x24: ... the second a chunk later" shows "│s2 {9,}▸+█◂+▸"
check "80x24: ... the overlap row" shows "│both {7,}▴"
check "80x24: ... the axis in ms" shows "│ms +0 +1 +2 +3 +4 +5 +6 *│"
check "80x24: ... the legend" shows "│▸ h2d copy  ◂ d2h copy  █ kernel  ▴ copy and kernel at once *│"
check "80x24: ... the overlaps in numbers" shows "│3\.5% of it \(0\.214 ms\), h2d and d2h at once 74%\. +│"
check "80x24: ... the bound line" shows "│Bound 5.34 ms \(d2h 268 MB at 50.3 GB/s\); 1.14x the bound. *│"
check "80x24: ... the list ends with a count" shows "│ +… 16 steps more"
keys n r
check "80x24: four streams, 108 steps" wait_re "│s4 +▸+█◂"
check "80x24: ... the summary" shows "5.55 ms a run; the steps span 5.54 ms on 4 streams"
keys G
check "80x24: G: the last steps" wait_re "│108 ◂ d2h +d_x>h_y +4 "
check "80x24: ... and how many are above" shows "│ +… 102 steps above"
keys k k
check "80x24: k: up again" wait_re "│ +… 3 steps more"
keys g
check "80x24: g: the first" wait_re "│  1 ▸ h2d +h_x>d_x +1 "
keys n r
check "80x24: kernels only: says how to read it" wait_for "No copies or streams in this stage: the timeline shows its steps one after"
check "80x24: ... its steps one after another" shows "│s0 ▒+█+ *│"
check_not "80x24: ... no bound" shows "Bound"
keys p f
check "80x24: f from the timeline: the roofline" wait_for "Roofline: pipeline"
keys t
check "80x24: t from the roofline: the timeline" wait_for "Timeline: pipeline 3/4 streams4"
keys Escape
check "80x24: Esc leaves, to the stage" wait_for "Kernel scale.cu"
check "80x24: the measurements pane's bound line" wait_re "│ bound +5.34 ms +1.04x the bound"
keys t
wait_for "Timeline: pipeline 3/4" >/dev/null
keys t
check "80x24: t leaves too" wait_for "Kernel scale.cu"
keys t
wait_for "Timeline: pipeline 3/4" >/dev/null
resize 120 40
check "resized to 120x40: redrawn to fit, copies' bytes listed" wait_re "│  1 ▸ h2d +h_x>d_x +1 +0.1445 +0.0040 +0.1485 +7.46 MB"
check "120x40: the axis in half milliseconds" shows "│ms +0 +0.5 +1.0 +1.5"
keys q
wait_for "EXITED rc=0" >/dev/null

# 200x40: the measurements pane wide enough for the whole bound line, the footer for t
export XDG_STATE_HOME="$TMP/state-200"
start 200 40 -- --lessons "$F" --replay "$F/synthetic-streams.json"
wait_for "Copies and kernels on streams" >/dev/null
keys Enter
wait_for "pipeline 1/4" >/dev/null
keys n r
check "200x40: the bound with its resource, in the measurements" wait_re "│ bound +5.34 ms \(d2h 268 MB at 50.3 GB/s\)  1.14x the bound  t timeline"
check "200x40: the stage footer lists t" shows " t timeline"
keys t
wait_for "Timeline: pipeline 2/4 streams2" >/dev/null
check "200x40: copies in, kernels, copies out in colours of their own" sh -c "tmux -L '$SOCK' capture-pane -p -e -t cc | grep -qE '${ESC}\[33m(▸)+${ESC}\[32m█${ESC}\[35m◂'"
keys q
wait_for "EXITED rc=0" >/dev/null

# ASCII and monochrome
export XDG_STATE_HOME="$TMP/state-ascii"
start 80 24 NO_COLOR=1 -- --lessons "$F" --replay "$F/synthetic-streams.json" --ascii
wait_for "Copies and kernels on streams" >/dev/null
keys Enter
wait_for "pipeline 1/4" >/dev/null
keys n t r
check "ASCII: the rows" wait_re "\|s1 +>+#<+>"
check "ASCII: the overlap marks" shows "\|both +\^"
check "ASCII: the axis" shows "\|     \+-+\+"
check "ASCII: the legend" shows "\|> h2d copy  < d2h copy  # kernel  \^ copy and kernel at once"
check "ASCII: the footer" shows "Up/Dn steps"
check_not "NO_COLOR: no colour" has_colour
keys q
wait_for "EXITED rc=0" >/dev/null
