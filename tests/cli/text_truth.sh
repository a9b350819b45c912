#!/bin/sh
# The reader's list of #47 stays gone: every lesson's text as `show` prints it, under each card's
# recording (H100, H200), holds none of the sentences an outside reader found untrue against the
# recordings (tests/cli/text_truth.old, one a line: the old words, then after " | " what was wrong).
# Lines are joined before the search, so a sentence wrapped across lines is still found.
. tests/lib.sh
tmp=$(mktemp -d); trap 'rm -rf "$tmp"' EXIT
# render DIR: every lesson's text (summary and each stage) under the recordings in DIR, one line.
render() {
	for f in "${LESSONS:-.}"/lessons/*.yaml; do
		l=$(basename "$f" .yaml)
		CUDACLIMB_RECORDED=$1 $B show "$l" 2>&1
	done | tr -s ' \n' '  '
}
# check LABEL TEXTFILE: one FAIL per old sentence found, else one PASS.
check() {
	n=0
	while IFS= read -r line; do
		case $line in '#'*|'') continue;; esac
		old=${line%% | *}; why=${line#* | }
		if grep -qF -- "$old" "$2"; then fail "text truth ($1): \"$old\" is back ($why)"; n=$((n + 1)); fi
	done <tests/cli/text_truth.old
	[ $n = 0 ] && pass "text truth ($1): none of the reader's $(grep -vc '^#' tests/cli/text_truth.old) old sentences"
}
for card in h100 h200; do
	mkdir -p "$tmp/rec-$card"; ln -s "$PWD/assets/recorded/$card" "$tmp/rec-$card/$card"
	render "$tmp/rec-$card" >"$tmp/$card.txt"
	if [ "$(wc -c <"$tmp/$card.txt")" -lt 100000 ]; then fail "text truth ($card): show printed too little ($(wc -c <"$tmp/$card.txt") bytes)"; continue; fi
	check "$card" "$tmp/$card.txt"
done
# The test can fail: a copy of the lessons with one old sentence planted back (reduction's 2.5%).
cp -r lessons "$tmp/lessons"; ln -s "$PWD/kernels" "$tmp/kernels"
sed -i "s/takes 1.8% off CUB.s time on the H100/takes 2.5% off CUB's time on the H100/" "$tmp/lessons/reduction.yaml"
LESSONS=$tmp CUDACLIMB_LESSONS=$tmp render "$tmp/rec-h100" >"$tmp/planted.txt"
out=$(check planted "$tmp/planted.txt")
case $out in
*"takes 2.5% off CUB's time"*"is back"*) pass "text truth: an old sentence planted back (reduction's 2.5%) is caught";;
*) fail "text truth: an old sentence planted back (reduction's 2.5%) was not caught"; printf '%s\n' "$out" | head -3 | sed 's/^/    /';;
esac
