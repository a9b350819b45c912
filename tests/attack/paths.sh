#!/bin/sh
# Attacks on the paths and files cudaclimb builds from what another user controls (a second user on a
# shared box, played with setpriv; uids 2001-2004 need no passwd entries): each must leave the
# victim's files as they were. Bounded: each part stops within about 10 s.
. tests/lib.sh
if [ "$(id -u)" != 0 ] || ! command -v setpriv >/dev/null; then skip "paths: needs root and setpriv to play two users"; exit 0; fi
PY=$(command -v /usr/bin/python3 || command -v python3)
attack_tree paths
chmod -R a+rX "$(dirname "$B")" 2>/dev/null
as() { u=$1; shift; setpriv --reuid="$u" --regid="$u" --clear-groups "$@"; }
VICTIM=2004 ATT=2001

# 1. course init on a course folder another user can write: the results folder swapped, between the
# check and the chmod, for a link to the instructor's home must not open the home to the class (3773).
paths_course_init() {
	[ -n "$PY" ] || { skip "paths course init race: no python3 for the swapper"; return; }
	h=$T/home1 c=$T/course1
	mkdir -m 700 "$h" && chown $VICTIM:$VICTIM "$h"
	mkdir -m 755 "$c" && chown $ATT "$c"
	printf 'course: race\ntitle: "race"\nexercises:\n  - bandwidth/coalesced\nresults: results\n' >"$c/course.yaml"
	chown $ATT "$c/course.yaml"
	as $ATT sh -c "mkdir '$c/results' && ln -s '$h' '$c/x'"
	cat >"$T/swap.py" <<'PY'
import ctypes, sys, time
libc = ctypes.CDLL(None, use_errno=True)
a, b, end = sys.argv[1].encode(), sys.argv[2].encode(), time.time() + float(sys.argv[3])
while time.time() < end: libc.renameat2(-100, a, -100, b, 2)   # RENAME_EXCHANGE
PY
	as $ATT "$PY" "$T/swap.py" "$c/results" "$c/x" 6 &
	sw=$!
	sleep 0.2
	for p in 1 2 3; do
		( i=0; while [ $i -lt 400 ] && [ "$(stat -c %a "$h")" = 700 ] && kill -0 $sw 2>/dev/null; do
			as $VICTIM env HOME="$h" timeout 10 "$B" --lessons-only "$L" course init "$c" --group $VICTIM >/dev/null 2>&1
			i=$((i + 1)); done ) &
	done
	wait
	m=$(stat -c %a "$h")
	if [ "$m" = 700 ]; then pass "paths course init: a results folder swapped for a link to the home leaves the home 700"
	else fail "paths course init: the instructor's home became mode $m through a swapped results folder"; fi
}
paths_course_init

# 2. The device scripts a teacher runs on the shared box write their output (and keep a compile cache)
# in fresh private folders, never under a fixed name in /tmp that another user can make first, with
# links in it to the teacher's files: flash-device.sh played for real, every script read for the rest.
paths_scripts() {
	h=$T/home2
	mkdir -m 711 "$h" && chown $VICTIM:$VICTIM "$h"
	echo "teacher's notes" >"$h/notes.txt" && chown $VICTIM "$h/notes.txt"
	planted=
	if [ ! -e /tmp/flash-device ]; then
		as $ATT sh -c "mkdir -m 777 /tmp/flash-device && ln -s '$h/notes.txt' /tmp/flash-device/tests.txt" && planted=1
	fi
	out=$(as $VICTIM env -u OUT HOME="$h" CUDACLIMB_LOCK_DIR="$T" timeout 60 sh scripts/flash-device.sh 2>&1 >/dev/null)
	made=$(printf '%s\n' "$out" | sed -n 's/^flash-device: output in \(\/tmp\/flash-device\.[A-Za-z0-9]*\)$/\1/p')
	[ -n "$made" ] && rm -rf "$made"
	[ -n "$planted" ] && rm -rf /tmp/flash-device
	if [ -z "$planted" ]; then skip "paths scripts: /tmp/flash-device exists already, so the attack on flash-device.sh is not played"
	elif [ "$(cat "$h/notes.txt")" = "teacher's notes" ]; then pass "paths scripts: flash-device.sh leaves a file linked from a planted /tmp/flash-device alone"
	else fail "paths scripts: flash-device.sh wrote through a planted /tmp/flash-device/tests.txt into the teacher's file"; fi
	fixed=$(grep -n '/tmp' scripts/* | grep -v 'XXXXXX' | grep -Ev '^[^:]*:[0-9]+:[[:space:]]*#')
	if [ -z "$fixed" ]; then pass "paths scripts: no script under scripts/ uses a fixed name in /tmp"
	else fail "paths scripts: fixed names in /tmp: $(printf '%s' "$fixed" | tr '\n' ';')"; fi
}
paths_scripts

# 3. A cache folder (XDG_CACHE_HOME) inside a folder another user owns, as /tmp/cudaclimb-cache made
# first by a student: they could rename the victim's cache away, mid-run, for one of their own whose
# entries (the same keys: a key is the source's hash) say what they like (registers, the cubin a GPU
# run loads). The cache must not be used there; the compile still runs, without it.
paths_cache_parent() {
	h=$T/home3 s=$T/shared3
	mkdir -m 700 "$h" && chown $VICTIM:$VICTIM "$h"
	mkdir -m 777 "$s" && chown $ATT "$s"
	out=$(as $VICTIM env HOME="$h" XDG_CACHE_HOME="$s" timeout 60 "$B" --lessons-only "$L" run $EX --arch sm_90 2>&1)
	if [ -z "$(ls -A "$s/cudaclimb" 2>/dev/null)" ] && printf '%s\n' "$out" | grep -q 'compile cache is not used.*another user' &&
	   printf '%s\n' "$out" | grep -Eq '^coalesced .* 100% warps'; then
		pass "paths cache: no cache in a folder another user owns (compiled without it, said so)"
	else fail "paths cache: the compile cache was kept under $s, another user's folder: $(ls "$s/cudaclimb" 2>/dev/null | head -2 | tr '\n' ' ')"
		printf '%s\n' "$out" | head -5 | sed 's/^/    /'; fi
	# the same user's own cache in their home: used as before
	out=$(as $VICTIM env HOME="$h" XDG_CACHE_HOME="$h/cache" timeout 60 "$B" --lessons-only "$L" run $EX --arch sm_90 2>&1)
	if ls "$h/cache/cudaclimb" 2>/dev/null | grep -q '\.cubin$' && ! printf '%s\n' "$out" | grep -q 'not used'; then
		pass "paths cache: a cache in the user's own home is used"
	else fail "paths cache: the user's own cache was not used: $(printf '%s' "$out" | head -3)"; fi
}
paths_cache_parent

# 4. The progress file (XDG_STATE_HOME) inside a folder another user owns: they could put one of their
# making there, whose tuned settings `run` and the interface start from (or hold its lock forever).
# It must not be read there (the interface says why on its status line); in the user's own home it
# is read as before.
paths_progress_parent() {
	h=$T/home4 s=$T/shared4
	mkdir -m 700 "$h" && chown $VICTIM:$VICTIM "$h"
	mkdir -m 777 "$s" && chown $ATT "$s"
	line='tuned NVIDIA_H200 bandwidth coalesced BLOCK=64'
	as $ATT sh -c "mkdir -m 777 '$s/cudaclimb' && echo '$line' >'$s/cudaclimb/progress' && chmod 666 '$s/cudaclimb/progress'"
	out=$(as $VICTIM env HOME="$h" XDG_STATE_HOME="$s" timeout 30 "$B" --lessons-only "$L" show $EX 2>&1)
	if ! printf '%s\n' "$out" | grep -q 'BLOCK=64'; then pass "paths progress: a progress file in a folder another user owns is not read"
	else fail "paths progress: show read tuned settings from a progress file another user wrote: $(printf '%s\n' "$out" | grep 'BLOCK=64')"; fi
	mkdir -m 700 "$h/state" "$h/state/cudaclimb" && echo "$line" >"$h/state/cudaclimb/progress" && chown -R $VICTIM:$VICTIM "$h/state"
	out=$(as $VICTIM env HOME="$h" XDG_STATE_HOME="$h/state" timeout 30 "$B" --lessons-only "$L" show $EX 2>&1)
	if printf '%s\n' "$out" | grep -q 'tuned on NVIDIA_H200.*BLOCK=64'; then pass "paths progress: the user's own progress file is read"
	else fail "paths progress: the user's own progress file was not read: $(printf '%s\n' "$out" | tail -2)"; fi
}
paths_progress_parent

# 5. course init on a folder another user made (or may write): its owner could later put a course
# file of their own, or a results folder, in place of the instructor's. Refused, nothing written.
paths_course_dir() {
	h=$T/home5 c=$T/course5
	mkdir -m 700 "$h" && chown $VICTIM:$VICTIM "$h"
	mkdir -m 777 "$c" && chown $ATT "$c"
	out=$(as $VICTIM env HOME="$h" timeout 30 "$B" --lessons-only "$L" course init "$c" --group $VICTIM 2>&1); rc=$?
	if [ $rc != 0 ] && [ ! -e "$c/course.yaml" ] && printf '%s\n' "$out" | grep -q 'not a course folder of yours'; then
		pass "paths course folder: course init refuses a folder another user made, and writes nothing"
	else fail "paths course folder: course init in another user's folder (exit $rc): $(printf '%s' "$out" | head -2)"; fi
	out=$(as $VICTIM env HOME="$h" timeout 30 "$B" --lessons-only "$L" course init "$h/course" --group $VICTIM 2>&1)
	if [ -f "$h/course/course.yaml" ]; then pass "paths course folder: course init in the instructor's own folder writes the course file"
	else fail "paths course folder: course init in the instructor's own folder: $(printf '%s' "$out" | head -2)"; fi
}
paths_course_dir

# 6. CUDACLIMB_TRACE naming a FIFO (a name in a shared folder another user made one at) or a link:
# the run must not wait on the FIFO, nor write through the link.
paths_trace() {
	mkfifo "$T/trace.fifo" && chmod 666 "$T/trace.fifo"
	timeout 20 env CUDACLIMB_TRACE="$T/trace.fifo" "$B" --lessons-only "$L" run $EX --arch sm_90 >/dev/null 2>&1; rc=$?
	if [ $rc != 124 ]; then pass "paths trace: a FIFO as CUDACLIMB_TRACE is not waited on (exit $rc)"
	else fail "paths trace: the run waited 20 s on a FIFO named by CUDACLIMB_TRACE"; fi
	echo kept >"$T/trace.target" && ln -s "$T/trace.target" "$T/trace.link"
	env CUDACLIMB_TRACE="$T/trace.link" timeout 20 "$B" --lessons-only "$L" run $EX --arch sm_90 >/dev/null 2>&1
	env CUDACLIMB_TRACE="$T/trace.file" timeout 20 "$B" --lessons-only "$L" run $EX --arch sm_90 >/dev/null 2>&1
	if [ "$(cat "$T/trace.target")" = kept ] && grep -q "^job .*status=" "$T/trace.file" 2>/dev/null; then
		pass "paths trace: a link as CUDACLIMB_TRACE is not written through; a plain file is"
	else fail "paths trace: link target now '$(head -c 80 "$T/trace.target")', plain file '$(head -c 80 "$T/trace.file" 2>/dev/null)'"; fi
}
paths_trace

# 7. Under umask 002 with user private groups (useradd's USERGROUPS_ENAB) ~/.cache and ~/.local are made
# 0775, writable by a group of one: the cache and the progress file are still used there. A folder
# writable by a group with others in it is not.
paths_private_group() {
	command -v useradd >/dev/null && command -v userdel >/dev/null || { skip "paths private group: no useradd to make a user with a private group"; return; }
	u=ccupg$$
	useradd -U -M -d "$T/home7" "$u" 2>/dev/null || { skip "paths private group: useradd -U failed"; return; }
	h=$T/home7; mkdir -m 700 "$h"; mkdir -m 775 "$h/cache" "$h/state"; chown -R "$u:$u" "$h"
	out=$(setpriv --reuid="$u" --regid="$u" --init-groups env HOME="$h" XDG_CACHE_HOME="$h/cache" timeout 60 "$B" --lessons-only "$L" run $EX --arch sm_90 2>&1)
	if ls "$h/cache/cudaclimb" 2>/dev/null | grep -q '\.cubin$' && ! printf '%s\n' "$out" | grep -q 'not used'; then
		pass "paths private group: a cache under a folder its owner's private group may write is used"
	else fail "paths private group: the cache under a 0775 folder of the user's private group was not used: $(printf '%s' "$out" | grep 'not used' | head -1)"; fi
	rm -rf "$h/cache/cudaclimb"; chgrp 2020 "$h/cache"
	out=$(setpriv --reuid="$u" --regid="$u" --init-groups env HOME="$h" XDG_CACHE_HOME="$h/cache" timeout 60 "$B" --lessons-only "$L" run $EX --arch sm_90 2>&1)
	if printf '%s\n' "$out" | grep -q 'compile cache is not used.*writable by others'; then pass "paths private group: a folder another group may write is not trusted"
	else fail "paths private group: a cache under a folder of group 2020 (writable) was used: $(printf '%s' "$out" | head -2)"; fi
	userdel "$u" 2>/dev/null
}
paths_private_group
