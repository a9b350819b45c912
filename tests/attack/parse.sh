#!/bin/sh
# Attacks on the parsers (issue #30, items 5 and 7): a classmate hands you a lesson tree or a course.
# Each hostile file must be refused with "file:line:col: message" within a time bound (timeout) and
# 1 GB of address space (ulimit -v), and the other lessons must still load:
#   - a 1 MB billion-laughs lesson (YAML aliases), and a 108 KB course.yaml alias bomb (5 s);
#   - 100 000 levels of nesting (2 s);
#   - duplicate keys and merge keys;
#   - a 3000-character stage id (also under the ASan binary, build-asan/cudaclimb, when it is built);
#   - a lesson title with escape sequences: `list` and `show` print no ESC byte;
#   - a buffer of 4 * 2^62 bytes: refused with a message naming the buffer.
# As root the victim is an unprivileged uid (2002), the files the attacker's (2001).
# Usage: sh tests/attack/parse.sh (from the repository root, after make).
cd "$(dirname "$0")/../.." || exit 1
. tests/lib.sh
B=$(pwd)/${B#./}
case $B in /*) ;; *) B=$(pwd)/$B ;; esac
[ -x "$B" ] || { fail "parse: $B is not built (make all)"; exit 0; }
ASAN=$(pwd)/build-asan/cudaclimb

tmp=$(mktemp -d "${TMPDIR:-/tmp}/cc-attack-parse.XXXXXX") || exit 1
trap 'rm -rf "$tmp"' EXIT INT TERM
chmod 755 "$tmp"

# as_victim CMD...: runs CMD as uid 2002 when root (no groups, HOME in the scratch folder), else as us.
if [ "$(id -u)" = 0 ] && command -v setpriv >/dev/null 2>&1; then
	mkdir -p "$tmp/home" && chown 2002:2002 "$tmp/home" && chmod 700 "$tmp/home"
	VICTIM="env HOME=$tmp/home setpriv --reuid=2002 --regid=2002 --clear-groups"
	victim="uid 2002"
else
	VICTIM=
	victim="this user"
	skip "parse: not root, so the victim is this user, not a second one"
fi

as_victim() { $VICTIM "$@"; }

# bounded LIMIT_S OUT CMD...: CMD under timeout and 1 GB of address space, output to OUT; prints
# "EXIT MS" (EXIT 124: the time ran out).
bounded() {
	lim=$1 out=$2; shift 2
	t0=$(date +%s%N)
	( ulimit -v 1048576; timeout -s KILL "$lim" $VICTIM "$@" >"$out" 2>&1 ); rc=$?
	t1=$(date +%s%N)
	echo "$rc $(( (t1 - t0) / 1000000 ))"
}

# A lesson tree: the shipped bandwidth lesson and its kernels, then the hostile file(s) beside it.
tree() {
	d=$tmp/$1
	mkdir -p "$d/lessons" "$d/kernels"
	cp lessons/bandwidth.yaml "$d/lessons/"
	cp -r kernels/bandwidth "$d/kernels/"
	echo "$d"
}

# refused NAME LIMIT_S DIR FILE_PATTERN MESSAGE_PATTERN: `list` over DIR exits 4 within LIMIT_S, names
# the hostile file at file:line:col with MESSAGE_PATTERN, and still lists the bandwidth lesson.
refused() {
	name=$1 lim=$2 dir=$3 file=$4 msg=$5
	chmod -R a+rX "$dir"
	set -- $(bounded "$lim" "$tmp/out" "$B" --lessons "$dir" list)
	rc=$1 ms=$2
	if [ "$rc" = 124 ] || [ "$rc" = 137 ]; then fail "$name: not refused within $lim s (killed)"; return; fi
	if [ "$rc" != 4 ]; then fail "$name: exit $rc, expected 4"; head -5 "$tmp/out" | cut -c1-200 | sed 's/^/    /'; return; fi
	if ! grep -Eq "$file:[0-9]+:[0-9]+: $msg" "$tmp/out"; then
		fail "$name: no '$file:line:col: $msg'"; head -5 "$tmp/out" | cut -c1-200 | sed 's/^/    /'; return
	fi
	if ! grep -q '^bandwidth ' "$tmp/out"; then fail "$name: the other lesson did not load"; return; fi
	pass "$name ($ms ms as $victim, 1 GB address space)"
}

# 1. A 1 MB billion-laughs lesson: ten aliases of the level before, thirty levels, then padding.
d=$(tree laughs)
awk 'BEGIN {
	print "lesson: laughs"; print "title: L"; print "summary: s"
	print "read_first:"
	print "  - &l0 [\"lol\", \"lol\", \"lol\", \"lol\", \"lol\", \"lol\", \"lol\", \"lol\", \"lol\", \"lol\"]"
	for (i = 1; i < 30; i++) {
		s = "  - &l" i " [";
		for (k = 0; k < 10; k++) s = s (k ? ", " : "") "*l" (i - 1);
		print s "]"
	}
	pad = "# "; for (k = 0; k < 98; k++) pad = pad "x";
	for (n = 0; n < 10200; n++) print pad
}' >"$d/lessons/laughs.yaml"
size=$(wc -c <"$d/lessons/laughs.yaml")
[ "$size" -ge 1000000 ] || fail "parse-alias-bomb: the bomb is only $size bytes"
refused "parse-alias-bomb (1 MB billion laughs)" 5 "$d" "laughs.yaml" "aliases expand this to more than [0-9]+ nodes"

# 1b. A 1 MB lesson of plain aliases (each one small): the alias count is capped.
d=$(tree aliases)
awk 'BEGIN {
	print "lesson: aliases"; print "title: A"; print "summary: s"; print "read_first:"; print "  - &x [1, 2, 3]"
	s = "  - ["; for (k = 0; k < 50; k++) s = s (k ? ", " : "") "*x"; s = s "]"
	for (n = 0; n < 4000; n++) print s
}' >"$d/lessons/aliases.yaml"
refused "parse-alias-count (1 MB of aliases)" 5 "$d" "aliases.yaml" "more than 10000 aliases"

# 2. A 108 KB course.yaml alias bomb.
mkdir -p "$tmp/course"
awk 'BEGIN {
	print "course: c"; print "title: T"; print "lessons:"
	print "  - &c0 [\"lol\", \"lol\", \"lol\", \"lol\", \"lol\", \"lol\", \"lol\", \"lol\", \"lol\", \"lol\"]"
	for (i = 1; i < 30; i++) {
		s = "  - &c" i " [";
		for (k = 0; k < 10; k++) s = s (k ? ", " : "") "*c" (i - 1);
		print s "]"
	}
	pad = "# "; for (k = 0; k < 98; k++) pad = pad "x";
	for (n = 0; n < 1050; n++) print pad
}' >"$tmp/course/course.yaml"
chmod -R a+rX "$tmp/course"
set -- $(bounded 5 "$tmp/out" "$B" --course "$tmp/course" list)
if [ "$1" = 4 ] && grep -Eq 'course\.yaml:[0-9]+:[0-9]+: aliases expand this to more than' "$tmp/out"; then
	pass "parse-course-bomb ($(( $(wc -c <"$tmp/course/course.yaml") / 1024 )) KB course.yaml, $2 ms)"
else
	fail "parse-course-bomb: exit $1 after $2 ms"; head -5 "$tmp/out" | cut -c1-200 | sed 's/^/    /'
fi

# 3. 100 000 levels of nesting, flow and block: refused in under 2 s.
d=$(tree deep)
{ printf 'lesson: deep\ntitle: D\nsummary: '; head -c 100000 /dev/zero | tr '\0' '['; head -c 100000 /dev/zero | tr '\0' ']'; echo; } >"$d/lessons/deep.yaml"
refused "parse-deep-flow (100k levels)" 2 "$d" "deep.yaml" "nested more than 64 levels deep"
d=$(tree deepblock)
awk 'BEGIN { print "lesson: deepblock"; print "title: D"; print "summary: s"; print "read_first:"; s = " "; for (i = 0; i < 3000; i++) s = s " -"; print s " x" }' \
	>"$d/lessons/deepblock.yaml"
refused "parse-deep-block (3000 levels of '- ')" 2 "$d" "deepblock.yaml" "nested more than 64 levels deep"

# 4. Duplicate keys and merge keys.
d=$(tree dup)
sed 's/^title: Memory bandwidth with SAXPY$/title: one\ntitle: two/' lessons/bandwidth.yaml | sed 's/^lesson: bandwidth/lesson: dup/' >"$d/lessons/dup.yaml"
refused "parse-duplicate-key" 5 "$d" "dup.yaml" "duplicate key 'title' \\(first at line [0-9]+\\)"
d=$(tree merge)
sed 's/^lesson: bandwidth/lesson: merge/; s/^check:$/check:\n  <<: { reference: coalesced }/' lessons/bandwidth.yaml >"$d/lessons/merge.yaml"
refused "parse-merge-key" 5 "$d" "merge.yaml" "merge keys \\(<<\\) are not supported"

# 5. A 3000-character stage id: refused; under ASan, with no report.
d=$(tree longid)
long=$(head -c 3000 /dev/zero | tr '\0' 'a')
sed "s/^lesson: bandwidth/lesson: longid/; s/^  - id: strided$/  - id: $long/" lessons/bandwidth.yaml >"$d/lessons/longid.yaml"
cp -r kernels/bandwidth "$d/kernels/longid"
refused "parse-long-stage-id" 5 "$d" "longid.yaml" "stage id 'a+\\.\\.\\.' is 3000 characters long \\(at most 64\\)"
if [ -x "$ASAN" ]; then
	out=$(ASAN_OPTIONS=detect_leaks=0 timeout 60 "$ASAN" --lessons "$d" list 2>&1); rc=$?
	if printf '%s' "$out" | grep -q 'ERROR: AddressSanitizer\|runtime error:'; then fail "parse-long-stage-id-asan: an ASan report"; printf '%s\n' "$out" | head -10 | sed 's/^/    /'
	elif [ "$rc" = 4 ] && printf '%s' "$out" | grep -q "characters long (at most 64)"; then pass "parse-long-stage-id-asan"
	else fail "parse-long-stage-id-asan: exit $rc"; printf '%s\n' "$out" | head -5 | cut -c1-200 | sed 's/^/    /'
	fi
else
	skip "parse-long-stage-id-asan: build-asan/cudaclimb is not built (make asan)"
fi

# 6. Escape sequences in a title and a summary: no ESC (nor other control byte) reaches the terminal.
d=$(tree esc)
sed 's/^lesson: bandwidth/lesson: esc/; s/^title: .*/title: "Evil \\e]52;c;cHduZWQ=\\a\\e[2J\\e[31mred\\x9b1m"/; s/^summary: >$/summary: "\\e[2Jcleared\\r\\n" # >/' lessons/bandwidth.yaml \
	| awk '/^summary:/ { print; skip = 1; next } skip && /^  / { next } { skip = 0; print }' >"$d/lessons/esc.yaml"
cp -r kernels/bandwidth "$d/kernels/esc"
chmod -R a+rX "$d"
for cmd in list "show esc"; do
	out=$(as_victim "$B" --lessons "$d" $cmd 2>&1); rc=$?
	if [ "$rc" != 0 ]; then fail "parse-escapes-$cmd: exit $rc"; printf '%s\n' "$out" | head -5 | sed 's/^/    /'; continue; fi
	if ! printf '%s' "$out" | grep -q 'Evil'; then fail "parse-escapes-$cmd: the title is not shown"; continue; fi
	if printf '%s' "$out" | LC_ALL=C grep -q "$(printf '[\033\007\r]')"; then fail "parse-escapes-$cmd: a control byte reached the terminal"
	elif printf '%s' "$out" | LC_ALL=C grep -q "$(printf '\302\233')"; then fail "parse-escapes-$cmd: a C1 control reached the terminal"
	else pass "parse-escapes-$cmd"
	fi
done

# 7. A buffer of 4 * 2^62 bytes: refused with a message naming the buffer and its count; nothing runs.
d=$(tree bytes)
sed 's/^lesson: bandwidth/lesson: bytes/; s/^  x: { type: f32, count: n,/  x: { type: f32, count: "1 << 62",/' lessons/bandwidth.yaml >"$d/lessons/bytes.yaml"
cp -r kernels/bandwidth "$d/kernels/bytes"
chmod -R a+rX "$d"
grep -q 'count: "1 << 62"' "$d/lessons/bytes.yaml" || fail "parse-byte-overflow: the fixture did not change (bandwidth.yaml moved on)"
expect "parse-byte-overflow (4 * 2^62 bytes)" 4 'bytes\.yaml:[0-9]+:[0-9]+: buffer x: 4611686018427387904 elements of f32 \(count: 1 << 62\) are more than 2\^63 bytes' \
	as_victim "$B" --lessons "$d" run bytes/coalesced
