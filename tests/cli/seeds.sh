#!/bin/sh
# docs/seeds.md, the seed articles' techniques and the stages that teach them (#34), cannot rot: every
# `lesson/stage` it names must be a stage (cudaclimb show LESSON/STAGE answers with exactly that lesson
# and stage id), every row must say how it is taught ("not yet: issue #34 item N", "`lesson/…` (in
# progress: issue #34 item N)", at least one stage, or "partly:" with at least one stage and what is
# missing), and the count line at its top must match the rows. The checker then runs on broken copies of the table, so the test is seen to fail.
. tests/lib.sh
doc=${SEEDS_DOC:-docs/seeds.md}
tmp=$(mktemp -d /tmp/cc-seeds.XXXXXX)
trap 'rm -rf "$tmp"' EXIT
: >"$tmp/good"

# stage_ok LESSON/STAGE: 0 when show names that very lesson and stage (it forgives case and typos on
# the command line, so the answer's own header is read back); answers are remembered in $tmp/good.
stage_ok() {
	grep -qxF "$1" "$tmp/good" && return 0
	l=${1%%/*} s=${1#*/}
	out=$($B --lessons lessons show "$1" 2>&1) || return 1
	printf '%s\n' "$out" | head -1 | grep -q "^$l - " || return 1
	printf '%s\n' "$out" | grep -Eq "^[0-9]+\. $s - " || return 1
	echo "$1" >>"$tmp/good"
}

# check_table FILE: prints one "problem: ..." line per problem found (with the row), nothing when clean.
check_table() {
	f=$1
	[ -r "$f" ] || { echo "problem: cannot read $f"; return; }
	grep -E '^\| *[0-9]{3} *\|' "$f" >"$tmp/rows"
	[ -s "$tmp/rows" ] || { echo "problem: no table rows in $f"; return; }
	n=0 m=0 k=0 p=0 q=0
	while IFS= read -r row; do
		n=$((n + 1))
		cells=$(printf '%s\n' "$row" | awk -F'|' '{ print NF }')
		if [ "$cells" != 5 ]; then echo "problem: not three cells: $row"; continue; fi
		by=$(printf '%s\n' "$row" | awk -F'|' '{ print $4 }')
		# every backquoted name with a slash and no space is a stage to check (commands have spaces);
		# `lesson/…` stands for a lesson in progress and is read below
		refs=$(printf '%s\n' "$by" | grep -oE '`[^` ]+/[^` ]+`' | tr -d '`' | grep -v '/…$')
		if printf '%s\n' "$by" | grep -Eq '^ *not yet: issue #34 item [1-6]'; then
			k=$((k + 1))
		elif printf '%s\n' "$by" | grep -Eq '^ *`[a-z][a-z0-9_]*/…` \(in progress: issue #34 item [1-6]\)'; then
			k=$((k + 1)); p=$((p + 1))
			l=$(printf '%s\n' "$by" | sed -E 's/^ *`([a-z][a-z0-9_]*)\/.*/\1/')
			# once the lesson has landed it must at least load
			if [ -f "lessons/$l.yaml" ] && ! $B --lessons lessons show "$l" >/dev/null 2>&1; then
				echo "problem: lesson $l is in lessons/ but does not load: $row"
			fi
		elif printf '%s\n' "$by" | grep -Eq '^ *partly: '; then
			q=$((q + 1))
			[ -n "$refs" ] || echo "problem: a 'partly:' row names no lesson/stage: $row"
			printf '%s\n' "$by" | grep -q 'missing:' || echo "problem: a 'partly:' row does not say what is missing: $row"
		elif [ -n "$refs" ]; then
			m=$((m + 1))
		else
			echo "problem: names no lesson/stage, and is neither 'not yet: issue #34 item N' nor in progress: $row"
		fi
		for r in $refs; do
			stage_ok "$r" || echo "problem: no stage $r: $row"
		done
	done <"$tmp/rows"
	for s in 000 001 002 003 004; do
		grep -q "^| $s |" "$tmp/rows" || echo "problem: no row for seed $s"
	done
	line=$(grep -E '^\*\*[0-9]+ techniques, [0-9]+ taught, [0-9]+ partly, [0-9]+ not yet \([0-9]+ of them in progress' "$f" | head -1)
	if [ -z "$line" ]; then
		echo "problem: no count line ('**N techniques, M taught, Q partly, K not yet (P of them in progress...')"
	else
		want="**$n techniques, $m taught, $q partly, $k not yet ($p of them in progress"
		case "$line" in "$want"*) ;; *) echo "problem: the count line says '$line'; the rows say '$want'" ;; esac
	fi
}

# the table itself
out=$(check_table "$doc")
if [ -z "$out" ]; then
	pass "seeds: every stage $doc names exists, every row says how it is taught, the count matches ($(grep -cE '^\| *[0-9]{3} *\|' "$doc") rows)"
else
	fail "seeds: $doc"; printf '%s\n' "$out" | sed 's/^/    /'
fi

# broken copies: each must be caught, with the row
catches() {
	name=$1 pat=$2
	out=$(check_table "$tmp/bad.md")
	if printf '%s\n' "$out" | grep -Eq -- "$pat"; then pass "seeds: catches $name"
	else fail "seeds: misses $name (wanted /$pat/)"; printf '%s\n' "$out" | head -5 | sed 's/^/    /'; fi
}
sed 's#`reduction/reduce2`#`reduction/reduce9`#' "$doc" >"$tmp/bad.md"
catches "a stage that does not exist" 'problem: no stage reduction/reduce9: \| 004 \| Sequential addressing'
sed 's#`transpose/padded`, `sgemm/bankfree`#`transpose/padded`, `sgemm/bankfre`#' "$doc" >"$tmp/bad.md"
catches "a misspelt stage beside a good one" 'problem: no stage sgemm/bankfre: \| 000 \| Padding'
sed 's#`sgemm/coalesced`#`sgemm/Coalesced`#' "$doc" >"$tmp/bad.md"
catches "a stage in the wrong case, which show would forgive" 'problem: no stage sgemm/Coalesced: '
sed 's#| `latency/chase`, `latency/shared` |$#| `latency/…` (in progress) |#' "$doc" >"$tmp/bad.md"
catches "an in-progress row without its issue item" 'problem: names no lesson/stage.*\| 001 \| The memory hierarchy'
sed 's#| `fusion/fused` |$#| fused |#' "$doc" >"$tmp/bad.md"
catches "a row that names no stage" 'problem: names no lesson/stage.*\| 002 \| Kernel fusion'
sed -E 's/^\*\*([0-9]+) techniques/**1\1 techniques/' "$doc" >"$tmp/bad.md"
catches "a count line that does not match the rows" "problem: the count line says"
sed 's#| partly: `timing/events`#| partly: timing events#' "$doc" >"$tmp/bad.md"
catches "a 'partly:' row that names no stage" "problem: a 'partly:' row names no lesson/stage"
grep -v '^| 003 ' "$doc" >"$tmp/bad.md"
catches "a seed with no rows" "problem: no row for seed 003"
