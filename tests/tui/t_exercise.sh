# Exercise mode: x opens the learner's file (made from the starter) and tries it; e runs $EDITOR
# (here a script that writes a file with a compile error) and the error is marked on its line; a
# save from outside (a copy, then a rename as vim does) tries again; h shows the hints, and d opens
# the diff only after the last one; the marks show in the ladder and the lesson list; x leaves.
# The workspace's path has a space in it. On a GPU also: a right kernel passes with its ratio, a
# wrong one is NOT YET with the wrong element; without one that part prints a SKIP line.
. "$(dirname "$0")/lib.sh"

FIX=$ROOT/tests/fixtures/exercise
REAL=$BIN
W="$TMP/my work"
FILE="$W/demo/scale.cu"
GPU=0
"$REAL" device >/dev/null 2>&1 && GPU=1 && WAIT=60
# start() passes words without quoting spaces: a wrapper carries the options.
cat >"$TMP/cudaclimb.sh" <<EOF
#!/bin/sh
exec "$REAL" --lessons "$FIX" --work "$W" "\$@"
EOF
cat >"$TMP/editor.sh" <<EOF
#!/bin/sh
cp "$FIX/learner/compile_error.cu" "\$1"
EOF
chmod +x "$TMP/cudaclimb.sh" "$TMP/editor.sh"
BIN=$TMP/cudaclimb.sh

start 160 45 EDITOR="$TMP/editor.sh"
wait_for "Exercise fixture" >/dev/null
check "the lesson list shows the stage's exercise" shows "○ 1 scale +y = 2x  ◇ exercise "
keys Enter
wait_for "Kernel scale.cu" >/dev/null
check "the stage's footer offers x" shows "r run  x exercise"
keys x
check "x: the code pane is your kernel" wait_for "Your kernel "
check "... in the workspace (a path with a space)" shows "Your kernel .*my work/demo/scale.cu"
check "... the starter's text" shows "TODO\(1\): compute this thread's element index i"
check "... created from the starter" test -f "$FILE"
check "... its path in the status line" shows "^ your file: .*/my work/demo/scale.cu \(the starter"
if [ $GPU = 1 ]; then
	check "the starter's verdict: NOT YET" wait_for "NOT YET"
else
	check "without a GPU the starter compiles" wait_for "COMPILED"
	check "... and timing needs a GPU" shows "compiles: [0-9]+ registers, occupancy [0-9]+%.*timing needs a GPU"
fi

keys e
check "e: the editor's file has a compile error, marked at line 4" wait_re "│4 ✗ +if \(i < n\) y\[i\] = 2.0f \* x\[i\];"
check "... its message in the status line" shows '^ line 4: expected a ";"'
check "... and in the verdict" shows 'compile error: scale.cu:4: expected a ";"'
check "... the warning's line marked too" shows "│3 ! +long long i"
check "the screen is back after the editor" shows "^ cudaclimb  │  demo 1/1"
keys c
check "c: the compiler's output" wait_for "Compiler output for"
keys c
check "the footer lists the exercise keys" wait_for "e edit  h hint  r try  d diff  c log"

cp "$FIX/learner/signature.cu" "$FILE"
check "a save from outside: the signature's verdict" wait_for "parameter 3 of scale is an integer or pointer of 4 bytes"
check "... the code pane shows the new text" shows "│3  +int i = blockIdx.x"

keys h
check "h: the first hint" wait_for "Hint 1 of 2"
keys d
check "d before the last hint: refused" wait_for "opens once you pass or have seen every hint (1 of 2"
check "... the code pane stays" shows "Your kernel "
keys h
check "h: the last hint" wait_for "Hint 2 of 2"
keys d
check "d after the last hint: the diff with the stage's kernel" wait_for "Yours (-) against the stage's kernel (+) scale.cu"
check "... its lines" shows "1\+ // y = 2x, one element per thread\."
keys Escape
check "Esc closes the diff, not exercise mode" wait_for "Your kernel "

cp "$FIX/learner/right.cu" "$TMP/right.tmp"
mv "$TMP/right.tmp" "$FILE"                 # a rename over the file, as vim saves
if [ $GPU = 1 ]; then
	check "a right kernel: PASSED with its ratio" wait_re "PASSED  [0-9.]+x the stage's kernel \(the bar 0.90x\)"
	check "... your time and the stage's" wait_re "yours [0-9.]+ [um]s, the stage's [0-9.]+ [um]s"
	check "... the ladder's mark: passed" shows "▸1 scale .* ★ │"
	cp "$FIX/learner/wrong.cu" "$FILE"
	check "a wrong kernel: NOT YET" wait_for "FAIL wrong"
	check "... with the wrong element" shows "wrong of n=[0-9]+, first at element [0-9]+"
	LEVEL=passed MARK="★"
else
	check "a rename over the file is seen too" wait_gone "parameter 3 of scale"
	check "... and judged again" wait_for "timing needs a GPU"
	check "the ladder's mark: started" shows "▸1 scale .* ◈ │"
	echo "SKIP exercise mode on a GPU (PASSED, NOT YET with the element): $("$REAL" device 2>&1 | head -1)"
	LEVEL=compiles MARK="◈"
fi

keys x
check "x leaves exercise mode" wait_for "Kernel scale.cu"
check "... the measurements are back" shows "Measurements"
keys Escape
wait_for "Lessons" >/dev/null
check "the lesson list shows the exercise's mark" shows "1 scale +y = 2x  $MARK exercise $LEVEL"
check "progress kept in the workspace" sh -c "'$REAL' --lessons '$FIX' --work '$W' exercises | grep -q 'demo/scale  *$LEVEL .* 2/2'"
keys q
check "quits cleanly" wait_for "EXITED rc=0"

# At 80x24, in ASCII and monochrome: the same mode fits, with its ASCII marks.
start 80 24 -- --ascii --no-color
wait_for "Exercise fixture" >/dev/null
keys Enter
wait_for "Kernel scale.cu" >/dev/null
keys x
check "80x24 --ascii: your kernel" wait_re "\+- Your kernel .*scale.cu -+\+"
check "80x24 --ascii: a verdict" wait_re "(NOT YET|PASSED|COMPILED)"
check "80x24 --ascii: the ASCII mark in the ladder" shows "\|>1 scale .* [scP] \|"
check_not "80x24 --ascii: no colour" has_colour
keys x Escape
check "80x24 --ascii: the list's ASCII mark" wait_re "1 scale +y = 2x  [scP] exercise"
keys q
check "80x24: quits cleanly" wait_for "EXITED rc=0"

# A stage without an exercise says so, and names those that have one.
make_tree "$TMP/tree"
BIN=$REAL
export XDG_STATE_HOME="$TMP/state-tree"
start 100 30 -- --lessons "$TMP/tree" --work "$TMP/work2"
wait_for "Memory bandwidth with SAXPY" >/dev/null
keys Enter
wait_for "Kernel strided.cu" >/dev/null
keys x
check "x on a stage without an exercise: says so" wait_for "strided has no exercise; these stages have one (n/p): coalesced"
check "... and stays on the stage's kernel" shows "Kernel strided.cu"
check "... the ladder marks the stages with one" shows "2 coalesced +not run +◇ │"
keys q
wait_for "EXITED rc=0" >/dev/null
