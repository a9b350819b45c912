#!/bin/sh
# course init as cargo init / git init (issue #31 item 6): a new folder gets a commented course.yaml
# (O_EXCL: never over a file, readable by the class), which loads and passes its own check; the second
# init sets up the results; a course file's errors come all at once, each at file:line:col, a
# misspelt stage or lesson with the nearest name.
. tests/lib.sh
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
trap 'exit 1' HUP INT TERM PIPE
unset CUDACLIMB_COURSE CUDACLIMB_RUNNER

expect "course init: a new folder gets a course.yaml to start from" 0 "^wrote $tmp/new/course.yaml: a course of 2 exercises" $B course init "$tmp/new"
expect "course init: ... and says what to do next" 0 "next: edit it" $B course init "$tmp/new2"
[ -f "$tmp/new/course.yaml" ] && [ "$(stat -c %a "$tmp/new/course.yaml")" = 644 ] && pass "course init: course.yaml made, 0644 (the class reads it)" \
	|| fail "course init: course.yaml missing or mode $(stat -c %a "$tmp/new/course.yaml" 2>/dev/null)"
grep -q "^# runner: ssh" "$tmp/new/course.yaml" && grep -q "due:" "$tmp/new/course.yaml" && grep -q "^results: results" "$tmp/new/course.yaml" \
	&& pass "course init: the file has the runner and deadlines commented, a results folder" || fail "course init: the file lacks its parts"
[ ! -e "$tmp/new/results" ] && pass "course init: the first init sets nothing else up" || fail "course init: results made before the course was edited"
expect "course init: the scaffold loads as a course" 0 "^Course new: My course" env CUDACLIMB_WORK="$tmp/work" $B --course "$tmp/new" exercises
expect "course init: the second init sets up the results" 0 "new: 2 exercises assigned; results go to $tmp/new/results" $B course init "$tmp/new"
[ -d "$tmp/new/results" ] && pass "course init: results folder made the second time" || fail "course init: no results folder"
mkdir -p "$tmp/My Course-3"
expect "course init: the course id comes from the folder's name, as an identifier" 0 "^wrote " $B course init "$tmp/My Course-3"
grep -q "^course: my_course_3 " "$tmp/My Course-3/course.yaml" && pass "course init: id my_course_3" || fail "course init: id $(grep ^course: "$tmp/My Course-3/course.yaml")"

# Never over a file, never through a link.
mkdir -p "$tmp/linked"
ln -s "$tmp/target" "$tmp/linked/course.yaml"
out=$($B course init "$tmp/linked" 2>&1); code=$?
[ $code != 0 ] && [ ! -e "$tmp/target" ] && pass "course init: a dangling link named course.yaml is not written through (exit $code)" \
	|| fail "course init: wrote through a link (exit $code): $out"

# Every error at once, with the nearest names.
mkdir -p "$tmp/bad"
printf 'course: bad\ntitle: T\nexercises:\n  - bandwidth/coalsced\n  - bandwith/coalesced\n  - bandwidth/strided\n  - reduction/reduce1\n' >"$tmp/bad/course.yaml"
out=$($B course init "$tmp/bad" 2>&1); code=$?
[ $code = 4 ] && pass "course init: errors exit 4" || fail "course init: errors exit $code"
printf '%s\n' "$out" | grep -q "course.yaml:4:5: no stage 'coalsced' in bandwidth; did you mean 'coalesced'?" \
	&& pass "course init: a misspelt stage gets the nearest name" || { fail "course init: no stage suggestion"; printf '%s\n' "$out" | sed 's/^/    /'; }
printf '%s\n' "$out" | grep -q "course.yaml:5:5: .*no lesson 'bandwith'; did you mean 'bandwidth'?" \
	&& pass "course init: a misspelt lesson gets the nearest name" || fail "course init: no lesson suggestion"
printf '%s\n' "$out" | grep -q "course.yaml:6:5: bandwidth/strided: that stage has no exercise" \
	&& pass "course init: all errors in one pass (a third, later error too)" || fail "course init: later errors not reported"
printf '%s\n' "$out" | grep -q "3 errors in .*: nothing set up" && [ ! -e "$tmp/bad/results" ] \
	&& pass "course init: nothing set up when there are errors" || fail "course init: set up despite errors"

# Issue #51 item 3: four mistakes of different kinds (a bad date, an unknown key, two misspelt
# exercises) all in one run, each at file:line:col, with the nearest names; exit 4, nothing set up.
mkdir -p "$tmp/four"
printf 'course: four\ntitle: T\nexercises:\n  - { exercise: bandwidth/coalesced, due: "2026-13-45" }\n  - { exercise: bandwidth/vectorized, pas: 0.95 }\n  - bandwidth/gridstrid\n  - redution/reduce1\n' >"$tmp/four/course.yaml"
out=$($B course init "$tmp/four" 2>&1); code=$?
[ $code = 4 ] && pass "course init: four mistakes exit 4" || fail "course init: four mistakes exit $code"
n=$(printf '%s\n' "$out" | grep -c "^$tmp/four/course.yaml:[0-9]*:[0-9]*: ")
[ "$n" = 4 ] && pass "course init: four mistakes give four file:line:col lines in one run" \
	|| { fail "course init: $n file:line:col lines for four mistakes"; printf '%s\n' "$out" | sed 's/^/    /'; }
for want in "course.yaml:4:43: due '2026-13-45' is not a date" "course.yaml:5:39: unknown key 'pas' in an assigned exercise .*; did you mean 'pass'\?" \
	"course.yaml:6:5: no stage 'gridstrid' in bandwidth; did you mean 'gridstride'\?" "course.yaml:7:5: .*no lesson 'redution'; did you mean 'reduction'\?"; do
	printf '%s\n' "$out" | grep -q "$want" && pass "course init: one run says $(printf '%s' "$want" | cut -c1-40)..." || fail "course init: no line /$want/"
done
printf '%s\n' "$out" | grep -q "4 errors in .*: nothing set up" && [ ! -e "$tmp/four/results" ] \
	&& pass "course init: four errors counted, nothing set up" || fail "course init: the count or the set-up"

# Issue #51 item 8: an indentation mistake in plain words at file:line:col, libyaml's own words kept
# in parentheses (tests/fixtures/course_indent: line 7 is one space in).
cp -r tests/fixtures/course_indent "$tmp/indent"
expect "course init: an indentation mistake in plain words, at its line" 4 \
	"^$tmp/indent/course.yaml:7:2: line 7 is indented differently from the lines around it: YAML nests by indentation, and the keys of the mapping that starts on line 2 are at column 1" \
	$B course init "$tmp/indent"
expect "course init: ... with libyaml's words in parentheses" 4 "\(libyaml: did not find expected key while parsing a block mapping \(line 2\)\)$" \
	$B course init "$tmp/indent"

# The results folder takes the instructor's group when no --group is named: only when that group is
# theirs alone. An instructor whose primary group is a shared one (here "users", gid 100, as on some
# distributions) would let every student in it read each other's records (0640, the folder's group).
if [ "$(id -u)" = 0 ] && command -v setpriv >/dev/null && getent group users >/dev/null; then
	chmod 755 "$tmp"; mkdir -p "$tmp/shared" && cp "$tmp/new/course.yaml" "$tmp/shared/" && chown -R 2004:100 "$tmp/shared"
	inst() { setpriv --reuid=2004 --regid=100 --clear-groups "$@"; }
	out=$(inst $B course init "$tmp/shared" 2>&1); code=$?
	if [ $code != 0 ] && printf '%s' "$out" | grep -q "readable by your group users, which is not yours alone" && [ ! -e "$tmp/shared/results" ]; then
		pass "course init: a shared primary group is refused for the results, nothing set up (exit $code)"
	else fail "course init: a shared primary group: exit $code, results $(ls -d "$tmp/shared/results" 2>/dev/null): $out"; fi
	out=$(inst $B course init "$tmp/shared" --group users 2>&1); code=$?
	[ $code = 0 ] && [ "$(stat -c '%G %a' "$tmp/shared/results" 2>/dev/null)" = "users 3773" ] \
		&& pass "course init: ... and taken when named with --group" || fail "course init: --group users: exit $code: $out"
else
	skip "course init: a shared primary group: needs root, setpriv and a group 'users'"
fi
