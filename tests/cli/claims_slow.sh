#!/bin/sh
# A stage whose point is speed has a claim that a 30% slower run contradicts (lessons/README.md,
# Claims; #47 item 2): every recording in assets/recorded/ replayed with each such stage made 1.3x
# slower, one stage at a time (tests/cli/claims_slow.py says how); stages left out are listed with
# their reason in tests/cli/claims_slow.exempt. RECORDED=DIR checks another folder of GPU folders.
. tests/lib.sh
DIR=${RECORDED:-assets/recorded}
if ! command -v python3 >/dev/null; then skip "claims slow: python3 is needed to read the JSON"; exit 0; fi
python3 tests/cli/claims_slow.py "$B" tests/cli/claims_slow.exempt "$DIR"/*/*.json
# The test can fail: a lesson whose claim allows a 30% slower run (reduction/reduce3 at
# time_vs_prev <= 0.9, recorded 0.53) is caught.
if [ -z "${RECORDED:-}" ]; then
	tmp=$(mktemp -d); trap 'rm -rf "$tmp"' EXIT
	mkdir -p "$tmp/lessons" "$tmp/rec/h100"
	cp lessons/reduction.yaml "$tmp/lessons/"; ln -s "$PWD/kernels" "$tmp/kernels"
	sed -i 's/"time_vs_prev <= 0.6", why: "the first add/"time_vs_prev <= 0.9", why: "the first add/' "$tmp/lessons/reduction.yaml"
	cp "$DIR"/h100/*-reduction.json "$tmp/rec/h100/"
	out=$(CUDACLIMB_LESSONS=$tmp python3 tests/cli/claims_slow.py "$B" tests/cli/claims_slow.exempt "$tmp"/rec/*/*.json 2>&1)
	case $out in
	*"FAIL claims slow h100"*"reduce3"*) pass "claims slow: a loose claim (reduce3 at 0.9) is caught";;
	*) fail "claims slow: a loose claim (reduce3 at 0.9) was not caught"; printf '%s\n' "$out" | head -5 | sed 's/^/    /';;
	esac
fi
