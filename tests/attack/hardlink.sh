#!/bin/sh
# A student's results file hard-linked by another user: where the kernel lets anyone link any file
# (fs.protected_hardlinks=0), a classmate could make a second name for a student's file in a folder
# of their own, and a report that refused every file with more than one link dropped the student's
# records (all of them, for as long as the classmate kept the link). The report reads such a file,
# and reads a file with two names in the results folder once. Run as root (root can link any file,
# as every user can under protected_hardlinks=0); SKIP otherwise.
. tests/lib.sh
if [ "$(id -u)" != 0 ]; then skip "hardlink: needs root to own files as students"; exit 0; fi
tmp=$(mktemp -d /tmp/cc-hardlink.XXXXXX); trap 'rm -rf "$tmp"' EXIT
chmod 755 "$tmp"
mkdir "$tmp/course" "$tmp/elsewhere"
cat > "$tmp/course/course.yaml" <<'Y'
course: links
title: "links"
exercises:
  - bandwidth/coalesced
results: results
Y
if ! $B course init "$tmp/course" --group 0 >"$tmp/init.log" 2>&1; then fail "hardlink: course init: $(tail -2 "$tmp/init.log")"; exit 0; fi
r=$tmp/course/results
now=$(date +%s)
rec() { printf '{"time": %s, "uid": %s, "exercise": "bandwidth/coalesced", "verdict": "wrong", "passed": false}\n' "$now" "$1"; }
rec 2002 > "$r/2002-victim.jsonl"; chown 2002 "$r/2002-victim.jsonl"
rec 2003 > "$r/2003-other.jsonl"; chown 2003 "$r/2003-other.jsonl"
report() { $B report "$tmp/course" --csv - 2>"$tmp/err"; }
# the check can fail: without the victim's file the victim is not in the report
out=$(report)
# (the CSV: student,uid,exercise,passed,late,best_ratio,tries,...)
victim() { grep -E '^"[^"]*",2002,'; }
if printf '%s\n' "$out" | victim >/dev/null; then :; else fail "hardlink: the victim is not in the report before any link"; fi
mv "$r/2002-victim.jsonl" "$tmp/elsewhere/gone"
if report | victim >/dev/null; then fail "hardlink: the check cannot fail (the victim listed without a file)"; else pass "hardlink: the check sees a student who is missing"; fi
mv "$tmp/elsewhere/gone" "$r/2002-victim.jsonl"
# the attack: a second name of the victim's file outside the folder
ln "$r/2002-victim.jsonl" "$tmp/elsewhere/keep"
out=$(report)
if printf '%s\n' "$out" | victim >/dev/null; then pass "hardlink: a file linked elsewhere by another user is still read"
else fail "hardlink: the victim's records are gone from the report once another user links their file"; sed 's/^/    /' "$tmp/err"; fi
# two names of one file in the folder: read once (one try, not two), the other name left out
ln "$r/2002-victim.jsonl" "$r/2002-victim.1.jsonl"
out=$(report)
tries=$(printf '%s\n' "$out" | victim | cut -d, -f7)
if [ "$tries" = 1 ] && grep -q "1 file in .* left out" "$tmp/err"; then
	pass "hardlink: a file with two names in the folder is read once"
else fail "hardlink: a file with two names is not read once: $tries"; sed 's/^/    /' "$tmp/err"; fi
# a file of another owner under the victim's uid is still refused
rec 2002 > "$r/2002-forged.jsonl"; chown 2003 "$r/2002-forged.jsonl"
report >/dev/null
if grep -q "2002-forged.jsonl" "$tmp/err"; then pass "hardlink: a file not owned by the uid in its name is still left out"
else fail "hardlink: a forged file is read"; sed 's/^/    /' "$tmp/err"; fi
