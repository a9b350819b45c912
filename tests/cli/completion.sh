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
