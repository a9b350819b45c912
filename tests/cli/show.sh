#!/bin/sh
# show LESSON keeps the lessons' "- " lists as lists (#19): each item on its own line with a hanging
# indent, the paragraph after a list on its own line.
. tests/lib.sh
expect_not() {
	name=$1 want=$2 pat=$3; shift 3
	out=$("$@" 2>&1); got=$?
	if [ "$got" != "$want" ]; then fail "$name: exit $got, expected $want"; return; fi
	if printf '%s\n' "$out" | grep -Eq -- "$pat"; then fail "$name: output has /$pat/"; printf '%s\n' "$out" | grep -E -- "$pat" | head -3 | sed 's/^/    /'; return; fi
	pass "$name"
}
expect "show: a list item starts its line" 0 "^   - ldmatrix\.x4 loads a whole 16 x 16 A fragment" $B show tensorcore
expect "show: an item's next line hangs under its text" 0 "^     [a-z(]" $B show tensorcore
expect "show: the paragraph after a list starts its line" 0 "^   TMA writes the boxes with the 128-byte swizzle" $B show tensorcore
expect "show: sgemm's list" 0 "^   - Reading B: a thread's TN columns" $B show sgemm
expect_not "show: no item run into the paragraph before it" 0 "it: - mma\.sync|changes: - Transposed" $B show tensorcore
expect_not "show: no runs of spaces inside a line" 0 "[a-z,.;:]   +[a-zA-Z(]" $B show tensorcore
# Each claim says where it applies (#46 item 4): its case, and its when: condition.
expect "show: a claim's case and its condition" 0 "^ +in case skewed, when rows >= 1 << 20$" $B show spmv/ell
expect "show: a claim's when: condition" 0 "^ +when skew <= 0\.5 && bins >= 64 && bins <= 4096 && n >= 1 << 22$" $B show histogram/warp
