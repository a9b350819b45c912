#!/bin/sh
# Courses without a GPU: --course narrows the lessons and exercises (with due dates and bars; a try
# not judged for want of a GPU says nothing was recorded); a malformed
# course file is one line with file:line:col; course init sets the results folder up for a class
# (3 local users, when this runs as root: each adds a file of their own and can neither list the
# folder nor read nor remove another's; a file forged in another's name is left out of the report);
# report as a table, CSV, JSON and an HTML page opened in headless Chromium (its DOM has the class
# table and a chart per exercise, its screenshot is not blank).
. tests/lib.sh
FX=tests/fixtures/exercise
tmp=$(mktemp -d); trap 'rm -rf "$tmp"' EXIT
chmod 755 "$tmp"
cp -r tests/fixtures/course "$tmp/lab"
export CUDACLIMB_WORK=$tmp/work
C() { $B --lessons $FX "$@"; }

expect "course: list shows only the course's lessons" 0 "demosum" C --course "$tmp/lab" list
out=$($B --course "$tmp/lab" list 2>&1); code=$?
[ $code = 4 ] && printf '%s' "$out" | grep -q "course.yaml:5:5: demo/scale: no such lesson" && pass "course: checked against the lessons (file:line:col)" \
	|| fail "course: against the built-in lessons: exit $code: $out"
expect "course: exercises lists what it assigns, with the due date" 0 "demosum/sum .*\(due 2026-12-01 23:59\)" C --course "$tmp/lab" exercises
expect "course: exercises names the course" 0 "Course demo_lab: Demo lab" C --course "$tmp/lab" exercises
# Issue #51 item 6: the course's own bars (pass: 0.8 for demosum/sum), else the lesson's (0.9).
expect "course: exercises shows the course's bar" 0 "demosum/sum +not started +- +0/1 +- +0\.80x " C --course "$tmp/lab" exercises
expect "course: exercises shows the lesson's bar where the course sets none" 0 "demo/scale +not started +- +0/2 +- +0\.90x " C --course "$tmp/lab" exercises
expect "course: exercises --json has the bar and where it comes from" 0 '"exercise": "demosum/sum".*"bar": 0\.8000, "bar_from": "course", "due": "2026-12-01 23:59"' \
	C --course "$tmp/lab" exercises --json
# Without a GPU a try is not judged, so nothing goes to the course: try says so, in one line.
if $B device >/dev/null 2>&1; then
	skip "course: try without a GPU says nothing was recorded (this machine has a GPU)"
else
	expect "course: try without a GPU says nothing was recorded for the course, and why" 3 \
		"^nothing recorded for the course demo_lab: no GPU here, so the try was not judged" C --course "$tmp/lab" try demo/scale
	[ -z "$(ls -A "$tmp/lab/results" 2>/dev/null)" ] && pass "course: ... and indeed nothing was recorded" || fail "course: a record was written without a GPU"
fi
mkdir "$tmp/bad"; printf 'course: x\ntitle: T\nexercises:\n  - demo\n' >"$tmp/bad/course.yaml"
expect "course: a malformed course file is one line with its place" 4 "^$tmp/bad/course.yaml:4:5: an exercise is LESSON/STAGE" C --course "$tmp/bad" list
expect "course: a folder without course.yaml says so" 4 "cannot read the course file" C --course "$tmp/nothere" list
expect "course init: needs the folder" 2 "course init takes the course folder" C course init
expect "course init: an unknown group is one clear line" 1 "no group 'nosuchgroup'" C course init "$tmp/lab" --group nosuchgroup
expect "course init: sets up the results folder" 0 "results go to $tmp/lab/results" C course init "$tmp/lab"
[ "$(stat -c %a "$tmp/lab/results")" = 3773 ] && pass "course init: the folder's modes (3773: add, not list)" || fail "course init: mode $(stat -c %a "$tmp/lab/results")"

# A class of three: each writes a record the way cudaclimb does (its own file, 0640).
rec() {   # uid user exercise verdict passed ratio time
	printf '{"time": %s, "user": "%s", "uid": %s, "exercise": "%s", "verdict": "%s", "passed": %s, "at_lesson_size": true, "ratio": %s, "bar": 0.9, "device": "H100", "source_hash": "ab"}\n' \
		"$7" "$2" "$1" "$3" "$4" "$5" "$6"
}
R=$tmp/lab/results
# The report names a student by the file's owner (its login name, or uidN without one), never by
# the record's "user".
owner_name() { n=$(getent passwd "$1" | cut -d: -f1); [ -n "$n" ] && echo "$n" || echo "uid$1"; }
if [ "$(id -u)" = 0 ] && command -v setpriv >/dev/null; then
	as() { u=$1; shift; setpriv --reuid="$u" --regid="$u" --clear-groups "$@"; }
	now=$(date +%s)
	as 2001 sh -c "umask 027; $(printf '%s' "echo '$(rec 2001 alice demo/scale passed true 1.04 $now)' >>$R/2001-alice.jsonl")"
	as 2002 sh -c "umask 027; echo '$(rec 2002 bob demo/scale slow false 0.61 $now)' >>$R/2002-bob.jsonl; echo '$(rec 2002 bob demosum/sum passed true 0.97 1796400000)' >>$R/2002-bob.jsonl"
	as 2003 sh -c "umask 027; echo '$(rec 2003 carol demo/scale passed true 1.01 $now)' >>$R/2003-carol.jsonl"
	as 2002 ls "$R" >/dev/null 2>&1 && fail "course: a student can list the results folder" || pass "course: a student cannot list the results folder"
	as 2002 cat "$R/2001-alice.jsonl" >/dev/null 2>&1 && fail "course: a student can read another's results" || pass "course: a student cannot read another's results"
	as 2002 rm -f "$R/2001-alice.jsonl" 2>/dev/null; [ -f "$R/2001-alice.jsonl" ] && pass "course: a student cannot remove another's results" || fail "course: a student removed another's results"
	as 2002 sh -c "echo '$(rec 2001 alice demosum/sum passed true 9.99 $now)' >$R/2001-alice.9.jsonl"
	out=$(C report "$tmp/lab" 2>&1)
	printf '%s' "$out" | grep -q "9.99" && fail "course: a forged file was reported" || pass "course: a file forged in another's name is left out"
	printf '%s' "$out" | grep -q "1 file in $R left out: not owned by the student named in it" && pass "course: report says what it left out" || fail "course: no word of the forgery: $out"
	who="3 users"
	A=$(owner_name 2001); Bn=$(owner_name 2002)
else
	skip "course: the class as several users needs root (setpriv): one user writes the records"
	now=$(date +%s)
	u=$(id -u)
	rec $u alice demo/scale passed true 1.04 $now >"$R/$u-alice.jsonl"
	who="one user"
	A=$(id -un)
fi
# The students write the results folder: a pass not judged again is "claimed", and so is a ratio.
expect "report: the class table, named by the files' owners, each pass claimed" 0 "$A +claimed pass 1.04x" C report "$tmp/lab"
[ "$who" = "3 users" ] && expect "report: late, slow and tries, claimed" 0 "$Bn +claimed 0.61x +claimed late 0.97x +1/2" C report "$tmp/lab"
expect "report: says what claimed means" 0 "^claimed: the student's own record" C report "$tmp/lab"
expect "report --csv: a header and a row per student and exercise" 0 '^student,uid,exercise,passed,late,best_ratio,tries' C report "$tmp/lab" --csv
C report "$tmp/lab" --json >"$tmp/r.json" 2>/dev/null
python3 -c "import json,sys; d=json.load(open(sys.argv[1])); assert d['course']=='demo_lab' and not d['trusted']; assert any(s['student']==sys.argv[2] and s['exercises']['demo/scale']['status']=='claimed' and not s['exercises']['demo/scale']['passed'] and s['exercises']['demo/scale']['verified']=='unverified' for s in d['students'])" "$tmp/r.json" "$A" \
	&& pass "report --json: valid, with $A's pass claimed (unverified)" || fail "report --json"
expect "report --verify without a GPU: one line, every pass unverified, exit 3" 3 "cannot judge passes again here" C report "$tmp/lab" --verify
C report "$tmp/lab" --verify --json 2>/dev/null | python3 -c "import json,sys; d=json.load(sys.stdin); assert d['verify']; assert all(e['verified']=='unverified' for s in d['students'] for e in s['exercises'].values())" \
	&& pass "report --verify --json without a GPU: every cell unverified" || fail "report --verify --json without a GPU"
mkdir "$tmp/esc"; printf 'course: "x\\e]52;c;aGk=\\a\\e[2J"\ntitle: T\nexercises: [demo/scale]\n' >"$tmp/esc/course.yaml"
out=$(C --course "$tmp/esc" list 2>&1)
printf '%s' "$out" | grep -q "must be an identifier" && ! printf '%s' "$out" | grep -q "$(printf '\033')" \
	&& pass "course: an id error reaches the terminal without control sequences" || fail "course: id error: $(printf '%s' "$out" | od -c | head -3)"
out=$(C report "$tmp/esc" 2>&1)
! printf '%s' "$out" | grep -q "$(printf '\033')" && pass "report: a course error without control sequences" || fail "report: raw escapes in: $out"
expect "report --html: writes the page" 0 "wrote $tmp/r.html" C report "$tmp/lab" --html "$tmp/r.html"
browser=$(command -v chromium || command -v chromium-browser || command -v google-chrome || true)
if [ -z "$browser" ]; then
	skip "report: no headless Chromium here (apt-get install chromium) to open the HTML page"
else
	timeout 60 "$browser" --headless --no-sandbox --disable-gpu --dump-dom "file://$tmp/r.html" >"$tmp/dom" 2>/dev/null
	grep -q '<table id="class">' "$tmp/dom" && grep -q "<td>$A</td>" "$tmp/dom" && [ "$(grep -c '<svg class="chart"' "$tmp/dom")" = 2 ] \
		&& pass "report --html: Chromium shows the class table and a chart per exercise" || fail "report --html: the DOM lacks the table or charts"
	timeout 60 "$browser" --headless --no-sandbox --disable-gpu --window-size=900,700 --screenshot="$tmp/shot.png" "file://$tmp/r.html" >/dev/null 2>&1
	python3 - "$tmp/shot.png" <<'PY'
import struct, sys, zlib
data = open(sys.argv[1], "rb").read()
assert data[:8] == b"\x89PNG\r\n\x1a\n"
pos, idat, w, h = 8, b"", 0, 0
while pos < len(data):
    n, kind = struct.unpack(">I4s", data[pos:pos + 8])
    body = data[pos + 8:pos + 8 + n]
    if kind == b"IHDR": w, h = struct.unpack(">II", body[:8])
    if kind == b"IDAT": idat += body
    pos += 12 + n
raw = zlib.decompress(idat)
dark = sum(1 for b in raw if b < 100)   # ink: the table's text and the bars
print(("PASS" if dark > 2000 else "FAIL") + " report --html: the screenshot (%dx%d) has the table drawn (%d dark bytes)" % (w, h, dark))
PY
fi
