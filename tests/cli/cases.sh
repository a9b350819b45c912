#!/bin/sh
# A lesson's cases (cases:, lessons/README.md "Cases") without a GPU: load errors at their
# file:line:col (a name that is no parameter or tunable, with the nearest one; a value out of range
# or not allowed; a name used twice; a name that is not an identifier; a claim naming no case);
# show lists them; --case applies the settings (the run's JSON says which values and which case),
# a --set after it wins, an unknown case is refused with the nearest name (exit 2); the shipped
# lessons' recordings of a case judge its claims.
. tests/lib.sh
F=tests/fixtures/cases
tmp=$(mktemp -d); trap 'rm -rf "$tmp"' EXIT
# bad CASES_LINE MESSAGE_PATTERN NAME: the fixture with its cases: replaced by CASES_LINE (and the
# claims naming wide left as they are) fails to load with the message.
bad() {
	rm -rf "$tmp/t"; mkdir -p "$tmp/t/lessons"; cp -r $F/kernels "$tmp/t/"
	awk -v repl="$1" '/^cases:/ { print "cases:"; print repl; skip = 1; next } skip && /^  [a-z]/ { next } { skip = 0; print }' \
		$F/lessons/cases.yaml >"$tmp/t/lessons/cases.yaml"
	expect "cases: load error: $3" 4 "$2" $B --lessons "$tmp/t" list
}
bad "  wide: { nn: 1024 }" "cases.yaml:10:[0-9]+: case wide: 'nn' is neither a parameter of this lesson nor a tunable of its stages; did you mean 'n'\?" \
	"an unknown name, with the nearest"
bad "  wide: { n: 8192 }" "cases.yaml:10:[0-9]+: case wide: n = 8192 is outside its range \[1, 4096\]" "a value out of range"
bad "  wide: { n: 10.5 }" "cases.yaml:10:[0-9]+: case wide: n takes whole numbers, not 10.5" "a fraction for an integer"
bad "  wide: { n: 1024, BLOCK: 48 }" "cases.yaml:10:[0-9]+: case wide: BLOCK = 48 is not allowed for stage s" "a tunable's value not allowed"
bad "  wide: { n: 1024 }
  WIDE: { n: 2048 }" "cases.yaml:11:3: case name 'WIDE' is used twice" "a name used twice"
bad "  wide: { n: 1024 }
  2x: { n: 2048 }" "cases.yaml:11:3: case name '2x' is not an identifier" "a name that is not an identifier"
bad "  wide: { n: n * 2 }" "cases.yaml:10:[0-9]+: case wide: n = 'n \* 2' is not a number" "a value that is not a number"
bad "  wide: { help: \"only words\" }" "case wide sets nothing" "a case that sets nothing"
bad "  default: { n: 1024 }" "case name 'default' is taken" "the name default"
bad "  broad: { n: 1024 }" "cases.yaml:24:[0-9]+: expect: when: no case 'wide' in this lesson \(its cases: broad" \
	"a claim naming no case, with the cases there are"

expect "cases: show lists them, with their settings and help" 0 "Cases \(--case NAME.*
  wide +n=1024
 +a thousand elements
  skewed +skew=0.6 BLOCK=64" $B --lessons $F show cases
expect "cases: list --json has them" 0 '"cases": \[\{"name": "wide", "settings": "n=1024", "help": "a thousand elements"\}' \
	$B --lessons $F list --json
# run --json without a GPU still says what it would have run: the settings and the case
expect "cases: --case applies the parameters and tunables, and the result names the case" 3 '"settings": "n=32 skew=0.6 BLOCK=64", "case": "skewed"' \
	$B --lessons $F run cases/s --case skewed --json
expect "cases: --set after it wins" 3 '"settings": "n=32 skew=0.6 BLOCK=128", "case": "skewed"' \
	$B --lessons $F run cases/s --case skewed --set BLOCK=128 --json
expect "cases: --set before it wins too" 3 '"settings": "n=64 skew=0 BLOCK=32", "case": "wide"' \
	$B --lessons $F run cases/s --set n=64 --case wide --json
expect "cases: a case in any letter case" 3 '"settings": "n=1024 skew=0 BLOCK=32", "case": "wide"' \
	$B --lessons $F run cases/s --case WIDE --json
expect "cases: default is the lesson's own settings" 3 '"settings": "n=32 skew=0 BLOCK=32", "case": ""' \
	$B --lessons $F run cases/s --case default --json
expect "cases: the baseline-less bench applies it to every stage" 3 '"settings": "n=32 skew=0.6 BLOCK=64", "case": "skewed"' \
	$B --lessons $F bench cases --case skewed --json
expect "cases: an unknown case is refused with the nearest name" 2 "no case 'wied' in cases; did you mean 'wide'\? \(its cases: wide, skewed, or default\)" \
	$B --lessons $F run cases/s --case wied
expect "cases: a lesson without cases says so" 2 "no case 'wide' in bandwidth \(bandwidth has no cases\)" \
	$B show bandwidth --case wide
expect "cases: --case is not for list" 2 "--case is for run, bench, try, watch and show" $B list --case wide
# The shipped recordings: spmv's skewed case judges its claims there (they hold), and the default
# recording leaves them not applied, naming the case.
S=$(ls assets/recorded/h200/*-spmv.skewed.json | head -1)
D=$(ls assets/recorded/h200/*-spmv.json | head -1)
expect "cases: spmv skewed: the balanced stage's case claim holds on the H200's recording" 0 "balanced +holds +speedup_vs_prev >= 3" \
	$B --replay "$S" bench spmv --case skewed --stage ell,balanced
expect "cases: at the defaults it is not applied, naming its case" 0 "not applied: judged in case skewed \(skew=0.6; --case skewed\), this run has skew 0" \
	$B --replay "$D" bench spmv --stage ell,balanced
expect "cases: show --case takes the numbers from the case's recording" 0 "Figures from the H200 recording h200-[0-9a-f]+-[0-9-]+-spmv.skewed.json" \
	$B show spmv/balanced --case skewed
