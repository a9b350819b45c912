#!/bin/sh
# A replay file whose integers are out of any run's range (static and dynamic shared memory near
# 2^63, spill counts at 2^31 - 1, an L2 of 2^62 bytes): the tables add and double them, and a sum
# that overflows is undefined behaviour (the ASan/UBSan build aborts on it). The loader now refuses
# such a value with file:line:col, and a value in range still loads.
# Usage: sh tests/attack/replay_numbers.sh (from the repository root, after make).
cd "$(dirname "$0")/../.." || exit 1
. tests/lib.sh
[ -x "$B" ] || { fail "replay numbers: $B is not built (make all)"; exit 0; }
REC=$(ls assets/recorded/*/*-bandwidth.json 2>/dev/null | head -n 1)
[ -n "$REC" ] || { skip "replay numbers: no recording of bandwidth under assets/recorded"; exit 0; }
command -v python3 >/dev/null || { skip "replay numbers: python3 is needed to write the files"; exit 0; }
tmp=$(mktemp -d "${TMPDIR:-/tmp}/cc-attack-replaynum.XXXXXX") || exit 1
trap 'rm -rf "$tmp"' EXIT INT TERM
python3 - "$REC" "$tmp" <<'PY'
import json, sys
rec, out = sys.argv[1], sys.argv[2]
def write(name, edit):
    d = json.load(open(rec)); edit(d); json.dump(d, open("%s/%s.json" % (out, name), "w"))
def smem(d):
    for r in d["results"]: r["static_smem"] = r["dynamic_smem"] = 9223372036854775000
def spills(d):
    for r in d["results"]: r["spill_stores"] = r["spill_loads"] = 2147483647
def l2(d): d["device"]["l2_bytes"] = 1 << 62
def fine(d):
    for r in d["results"]: r["static_smem"] = 1 << 40; r["spill_stores"] = 1 << 29
write("smem", smem); write("spills", spills); write("l2", l2); write("fine", fine)
PY
for f in smem spills l2; do
	out=$(timeout 60 "$B" --replay "$tmp/$f.json" bench bandwidth 2>&1); rc=$?
	case $rc:$out in
	2:*"$tmp/$f.json:1:"*"out of range"*) pass "replay numbers: $f out of range refused with file:line:col";;
	*) fail "replay numbers: $f: exit $rc, expected 2 (bad input) with file:line:col"; printf '%s\n' "$out" | tail -3 | sed 's/^/    /';;
	esac
done
out=$(timeout 60 "$B" --replay "$tmp/fine.json" bench bandwidth 2>&1); rc=$?
case $out in
*"Fastest stage"*) pass "replay numbers: large values in range still load";;
*) fail "replay numbers: a file with values in range did not load (exit $rc)"; printf '%s\n' "$out" | tail -3 | sed 's/^/    /';;
esac
