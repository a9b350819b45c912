#!/bin/sh
# The bash completion offers every command, profile and queue among them (#51 item 8).
. tests/lib.sh
if ! command -v bash >/dev/null; then skip "completion: no bash"; exit 0; fi
# complete WORDS...: what the completion offers for the command line WORDS (the last one being typed).
complete_words() {
	bash -c '. assets/completions/cudaclimb.bash; COMP_WORDS=("$@"); COMP_CWORD=$(($# - 1)); _cudaclimb; printf "%s\n" "${COMPREPLY[@]}"' cc "$@"
}
for c in profile queue list run check solution cache; do
	if complete_words cudaclimb "" | grep -qx "$c"; then pass "completion: offers $c"; else fail "completion: lacks $c"; fi
done
if complete_words cudaclimb queue "" | grep -qx init; then pass "completion: queue init"; else fail "completion: no init after queue"; fi
if complete_words cudaclimb profile --n | grep -qx -- --nsys; then pass "completion: profile --nsys"; else fail "completion: no --nsys"; fi

# A lesson tree is someone else's text: a title whose second line is "$(touch FILE)" must not run when
# TAB completes a lesson id (compgen -W expands the words it is given; list printed the title's lines).
tmp=$(mktemp -d); trap 'rm -rf "$tmp"' EXIT
cp -r tests/fixtures/exercise "$tmp/tree"
# (no space in it: list's first column, all the old completion took, is one word)
sed -i "s|^title: .*|title: \"x\\\\n\$(touch\\\${IFS}$tmp/pwned)\"|" "$tmp/tree/lessons/demo.yaml"
if ! grep -q 'pwned' "$tmp/tree/lessons/demo.yaml"; then fail "completion: the hostile title was not planted"
else
	got=$(CUDACLIMB_LESSONS=$tmp/tree CUDACLIMB_LESSONS_ONLY=1 complete_words "$B" show "" 2>&1)
	lines=$(CUDACLIMB_LESSONS=$tmp/tree CUDACLIMB_LESSONS_ONLY=1 $B list 2>/dev/null | wc -l)
	if [ -e "$tmp/pwned" ]; then fail "completion: a lesson title's \$(...) ran on TAB"
	elif ! printf '%s\n' "$got" | grep -qx "demo/"; then fail "completion: the lesson ids are not offered: $got"
	else pass "completion: a lesson title's \$(...) does not run on TAB, and the ids are offered ($lines lines of list)"; fi
	CUDACLIMB_LESSONS=$tmp/tree CUDACLIMB_LESSONS_ONLY=1 $B list 2>/dev/null | grep -q '^\$(touch' \
		&& fail "completion: list printed the title's second line as a line of its own" || pass "completion: list keeps a title on its line"
fi
