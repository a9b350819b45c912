#!/bin/sh
# The CLI a newcomer expects (issue #31 item 10): show takes LESSON/STAGE as run does; a misspelt
# command gets the nearest one; list --json; conflicting output options refused; every --help line
# within 80 columns; --version names the commit; every JSON document has "schema" and true/false
# booleans (and a replay reads them back); under a course, what it leaves out says so.
. tests/lib.sh
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
trap 'exit 1' HUP INT TERM PIPE
unset CUDACLIMB_COURSE CUDACLIMB_RUNNER
R=tests/tui/fixtures/replay-bandwidth.json
expect_not() {   # name exit pattern command...: the exit status, and the pattern nowhere in the output
	name=$1 want=$2 pat=$3; shift 3
	out=$("$@" 2>&1); got=$?
	if [ "$got" != "$want" ]; then fail "$name: exit $got, expected $want"; return; fi
	if printf '%s\n' "$out" | grep -Eq -- "$pat"; then fail "$name: output has /$pat/"; return; fi
	pass "$name"
}

expect "show LESSON/STAGE: the stage's text" 0 "^2\. coalesced - Coalesced, one element per thread" $B show bandwidth/coalesced
expect "show LESSON/STAGE: its tunables" 0 "^   BLOCK = 256 " $B show bandwidth/coalesced
expect "show LESSON/STAGE: its source summary" 0 "^Source: coalesced\.cu, [0-9]+ lines; its kernels:" $B show bandwidth/coalesced
expect_not "show LESSON/STAGE: only that stage" 0 "^1\. strided" $B show bandwidth/coalesced
expect "show LESSON STAGE as two operands" 0 "^2\. coalesced" $B show bandwidth coalesced
expect "show LESSON/NUMBER" 0 "^3\. gridstride" $B show bandwidth/3
expect "show: a misspelt stage gets the nearest" 2 "no stage 'coalsced' in bandwidth; did you mean 'coalesced'" $B show bandwidth/coalsced
expect "show LESSON still shows the lesson" 0 "^4\. vectorized" $B show bandwidth

expect "a misspelt command gets the nearest (a swap)" 2 "unknown command 'lsit'; did you mean 'list'\?" $B lsit
expect "a misspelt command gets the nearest (a letter)" 2 "unknown command 'bech'; did you mean 'bench'\?" $B bech bandwidth
expect_not "a word far from every command gets no guess" 2 "did you mean" $B frobnicate

out=$($B list --json); code=$?
if [ $code = 0 ] && printf '%s' "$out" | python3 -c '
import json, sys
d = json.load(sys.stdin)
assert d["schema"] == 1
b = [l for l in d["lessons"] if l["id"] == "bandwidth"][0]
assert b["title"].startswith("Memory bandwidth") and b["stages"][:2] == ["strided", "coalesced"] and "coalesced" in b["exercises"] and "strided" not in b["exercises"]
'; then pass "list --json: id, title, stages, exercises, schema"; else fail "list --json (exit $code): $(printf '%s' "$out" | head -c 200)"; fi

expect "report --csv --json is refused" 2 "--json, --csv and --html each choose the output format" $B report "$tmp" --csv --json
expect "report --html F --csv is refused" 2 "give one of them" $B report "$tmp" --html "$tmp/x.html" --csv
expect "show --sass --ptx is refused" 2 "--sass and --ptx each choose" $B show bandwidth/coalesced --sass --ptx

w=$($B --help | awk 'length > 80' | wc -l); n=$($B --help | wc -l)
[ "$w" = 0 ] && [ "$n" -gt 40 ] && pass "--help: all $n lines within 80 columns" || fail "--help: $w of $n lines wider than 80 columns"
expect "--help lists exit status 5" 0 "^  5  the runner failed" $B --help
if git rev-parse --git-dir >/dev/null 2>&1; then
	v=$($B --version); h=$(printf '%s' "$v" | sed -n 's/^cudaclimb [0-9.]* (commit \([0-9a-f]*\)\(-dirty\)\{0,1\})$/\1/p')
	# the commit cli.o was built at: one of this repository's (it may be older than HEAD)
	[ -n "$h" ] && git cat-file -e "$h^{commit}" 2>/dev/null && pass "--version names the commit ($v)" || fail "--version: '$v'"
else skip "--version names the commit: not a git checkout"; fi

# JSON: "schema" at the top of each document, booleans true/false, and a replay reads them back.
$B --replay $R run bandwidth/coalesced --json >"$tmp/run.json" 2>/dev/null
if python3 - "$tmp/run.json" <<'PY'
import json, sys
d = json.load(open(sys.argv[1]))
r = d["results"][0]
assert d["schema"] == 1 and d["device"]["present"] is True
assert r["passed"] is True and r["checked"] is True and r["fits_l2"] is False and r["cached"] in (True, False)
PY
then pass "run --json: schema 1, booleans true/false"; else fail "run --json: $(head -c 300 "$tmp/run.json")"; fi
expect "a JSON with true/false replays" 0 "^coalesced .* 2890\.0 " $B --replay "$tmp/run.json" run bandwidth/coalesced
$B --replay $R device --json >"$tmp/dev.json" 2>/dev/null
python3 -c 'import json,sys; d=json.load(open(sys.argv[1])); sys.exit(0 if d["schema"] == 1 and d["status"] == "ok" and d["present"] is True else 1)' "$tmp/dev.json" \
	&& pass "device --json: schema, status, present true" || fail "device --json: $(head -c 200 "$tmp/dev.json")"
CUDACLIMB_WORK="$tmp/work" $B exercises --json >"$tmp/ex.json" 2>/dev/null
python3 -c 'import json,sys; d=json.load(open(sys.argv[1])); sys.exit(0 if d["schema"] == 1 and d["exercises"] else 1)' "$tmp/ex.json" \
	&& pass "exercises --json: schema" || fail "exercises --json: $(head -c 200 "$tmp/ex.json")"
CUDACLIMB_WORK="$tmp/work" $B --replay $R try bandwidth/coalesced --json >"$tmp/try.json" 2>/dev/null
python3 -c 'import json,sys; d=json.load(open(sys.argv[1])); v=d["verdict"]; sys.exit(0 if d["schema"] == 1 and v["passed"] is False and d["checks"][0]["done"] in (True, False) else 1)' "$tmp/try.json" \
	&& pass "try --json: schema, booleans" || fail "try --json: $(head -c 200 "$tmp/try.json")"

# Under a course: a lesson or exercise it leaves out is "not in this course".
C=assets/example-course
expect "course: a lesson it leaves out is not in it" 2 "sgemm/smem is not in this course \(Week 3: memory bandwidth and parallel reduction\); its exercises: bandwidth/coalesced, bandwidth/vectorized, reduction/reduce1, reduction/shuffle" \
	env CUDACLIMB_WORK="$tmp/work" $B --course $C try sgemm/smem
expect "course: an exercise of a shown lesson it does not assign" 2 "bandwidth/gridstride is not in this course" env CUDACLIMB_WORK="$tmp/work" $B --course $C try bandwidth/gridstride
expect "course: a misspelt lesson still gets the nearest" 2 "no lesson 'bandwith'.*did you mean 'bandwidth'" env CUDACLIMB_WORK="$tmp/work" $B --course $C try bandwith/coalesced
