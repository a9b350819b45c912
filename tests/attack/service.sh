#!/bin/sh
# Attacks on the lab service (`cudaclimb serve`, src/app/serve*.c) without a GPU: the service runs as
# its own unprivileged account (uid 2010), students are uids 2001-2003, each attack bounded in time and
# memory; the judge uses the fake worker (tests/fake_worker.c) so verdicts exist without a GPU.
#   - the hog: a lease held past the cap is passed over, told, traced; the waiter goes ahead; a hog that
#     asks again at once each time it is passed over goes after everyone else for its cool-down, so five
#     leases in a row (a judged try) wait one cap, not five; alone, it is still served;
#   - turns: 30 queued runs of one user delay another's first by at most the run in progress;
#   - a student asks for another's turn ("for UID"), floods connections, sends a line without end,
#     a request that never ends, an unknown request: refused or dropped, others unaffected;
#   - submissions with names '..', absolute, hidden, too many or too large files (one, or all together),
#     another course, an exercise not assigned, an include that is a FIFO: refused at once, nothing kept;
#     a third submission waiting for the judge with per_user 2, though the student hung up: refused;
#   - GPU lines: 1100 made-up GPUs leased by one student just after a start leave the real GPU's
#     lease served at once; a student holding 8 GPUs is refused a 9th, others unaffected; a hog
#     passed over at the cap that leases 1100 made-up GPUs while the real one is idle keeps its
#     cool-down (its line is not reused);
#   - the store: only the service writes it; a verdict carries the service's clock and the uid the
#     kernel gave; the service killed with -9 mid-judge comes back and loses no verdict, records once;
#     no store file grows past the report's 8 MiB or 20000 records (the next verdict goes to
#     UID-USER.N.jsonl), a kept
#     job recorded in an older, larger file is not judged twice, a student whose files are all full is
#     refused, and the report names the store for a file it leaves out;
#   - a submission whose last file is empty is kept and judged at once; one whose nested macros keep
#     NVRTC busy is stopped at the judge's compile_s;
#   - the service refuses root, a socket folder others may write, a state folder or a store not its own
#     or open to others; a client refuses a socket whose
#     folder others may write, and a run is refused (not run unqueued) when the service is down.
. tests/lib.sh
if [ "$(id -u)" != 0 ] || ! command -v setpriv >/dev/null; then
	skip "attack service: needs root (setpriv: the service as uid 2010, students as uids 2001-2003)"
	exit 0
fi
tmp=$(mktemp -d /tmp/cc-svc.XXXXXX); chmod 755 "$tmp"
svc_pid=
trap '[ -n "$svc_pid" ] && kill -9 $svc_pid 2>/dev/null; [ -n "${KEEP:-}" ] || rm -rf "$tmp"' EXIT
cuda=${CUDA_HOME:-/usr/local/cuda}
inc="-Isrc/core -Isrc/lesson -Isrc/cuda -Isrc/engine -Isrc/runner -Isrc/render -Isrc/worker -Isrc/app -I$cuda/include"
if ! cc -std=c11 -D_GNU_SOURCE $inc tests/lease_probe.c src/core/labwire.c src/worker/gpulease.c src/engine/exercise_submit.c src/core/util.c -o "$tmp/probe" 2>"$tmp/cc.log" ||
   ! cc -std=c11 -D_GNU_SOURCE $inc tests/fake_worker.c src/core/result.c src/core/util.c -o "$tmp/fake" 2>>"$tmp/cc.log"; then
	fail "attack service: the probes did not build: $(head -3 "$tmp/cc.log")"; exit 0
fi
if ! make --no-print-directory install PREFIX="$tmp/inst" >"$tmp/install.log" 2>&1; then fail "attack service: make install: $(tail -3 "$tmp/install.log")"; exit 0; fi
cp -r tests/fixtures/exercise/lessons tests/fixtures/exercise/kernels "$tmp/"
chmod -R a+rX "$tmp"
P=$tmp/probe; CC=$tmp/inst/bin/cudaclimb; U=5f3e1a2b000011112222333344445555
mkdir -m 755 "$tmp/run" "$tmp/course"; chown 2010:2010 "$tmp/run"
install -d -o 2010 -g 2010 -m 700 "$tmp/state"
install -d -o 2010 -g 2020 -m 2750 "$tmp/store"
cat >"$tmp/course/course.yaml" <<EOF
course: lab1
title: Lab one
exercises: [demo/scale]
service: { socket: $tmp/run/sock, store: $tmp/store }
EOF
cat >"$tmp/serve.yaml" <<EOF
socket: $tmp/run/sock
state: $tmp/state
trace: $tmp/state/trace.log
lessons: $tmp/lessons
cap: 3
per_user: 40
judge: { compile_s: 5 }
courses: [ $tmp/course ]
EOF
chmod 644 "$tmp/serve.yaml" "$tmp/course/course.yaml"
asu() { u=$1; shift; setpriv --reuid="$u" --regid="$u" --clear-groups "$@"; }
# bound S [asu U] CMD...: at most S seconds and 400 MB of address space (as user U)
bound() {
	s=$1; shift
	if [ "$1" = asu ]; then u=$2; shift 2; set -- setpriv --reuid="$u" --regid="$u" --clear-groups "$@"; fi
	( ulimit -v 409600; timeout -k 2 "$s" "$@" )
}
ms() { echo $(( ($(date +%s%N) - $1) / 1000000 )); }
# start [FAKE-MODE]: the service as uid 2010 with the fake worker in that mode (default ok, ratio 1.2),
# configured by $conf (default $tmp/serve.yaml)
start() {
	CUDACLIMB_WORKER=$tmp/fake CC_FAKE=${1:-ok} CC_FAKE_RATIO=1.2 setpriv --reuid=2010 --regid=2010 --clear-groups \
		"$CC" serve --foreground --config "${conf:-$tmp/serve.yaml}" >>"$tmp/serve.log" 2>&1 &
	svc_pid=$!
	i=0; while [ $i -lt 50 ] && [ "$(grep -c listening "$tmp/serve.log")" -le "$started" ]; do sleep 0.1; i=$((i + 1)); done
	started=$((started + 1))
}
started=0; : >"$tmp/serve.log"
log=$tmp/log; : >"$log"; chmod 666 "$log"

# 0. What the service refuses to start with.
out=$(bound 10 "$CC" serve --foreground --config "$tmp/serve.yaml" 2>&1); rc=$?
[ $rc != 0 ] && printf '%s' "$out" | grep -q "does not run as root" && pass "attack service: the service refuses to run as root" \
	|| fail "attack service: as root: exit $rc: $out"
chmod 777 "$tmp/run"
out=$(bound 10 asu 2010 "$CC" serve --foreground --config "$tmp/serve.yaml" 2>&1); rc=$?
[ $rc != 0 ] && printf '%s' "$out" | grep -q "written by nobody else" && pass "attack service: a socket folder others may write is refused" \
	|| fail "attack service: a 777 socket folder: exit $rc: $out"
chmod 755 "$tmp/run"
# the state folder keeps the students' submissions until judged: the service's own, mode 700; the
# store keeps the verdicts the report believes: the service's own, written by nobody else
refused() {   # refused WHAT PATTERN: the service as uid 2010 does not start, and says PATTERN
	out=$(bound 5 asu 2010 "$CC" serve --foreground --config "$tmp/serve.yaml" 2>&1); rc=$?
	[ $rc = 1 ] && printf '%s' "$out" | grep -q "$2" && pass "attack service: $1 is refused" || fail "attack service: $1: exit $rc: $out"
}
chmod 755 "$tmp/state"; refused "a state folder others may read" "the state folder .* must be the service's own, mode 700"; chmod 700 "$tmp/state"
chown 2001 "$tmp/state"; refused "a state folder of a student's" "the state folder .* must be the service's own, mode 700"; chown 2010 "$tmp/state"
chmod 2770 "$tmp/store"; refused "a store its group may write" "the store .* is writable by others"; chmod 2750 "$tmp/store"
chown 2001 "$tmp/store"; refused "a store of a student's" "the store .* belongs to uid 2001, not to the service"; chown 2010 "$tmp/store"
out=$(bound 10 asu 2001 "$P" lease "$tmp/run/sock" $U 10 "$log" 2>&1); rc=$?
[ $rc = 5 ] && printf '%s' "$out" | grep -q "not running.*systemctl enable --now cudaclimb" && [ ! -s "$log" ] \
	&& pass "attack service: with the service down a run is refused with what to do, nothing runs" || fail "attack service: service down: exit $rc: $out"
start
[ -S "$tmp/run/sock" ] && pass "attack service: the service listens ($(tail -1 "$tmp/serve.log" | cut -c1-80))" || { fail "attack service: did not start: $(cat "$tmp/serve.log")"; exit 0; }
# It says whether the learners' compiles it judges are closed in (Landlock), as the kernel allows.
if have_landlock; then want="learners' compiles closed in (Landlock)"
else want="this kernel has no Landlock"; fi
grep -qF "$want" "$tmp/serve.log" && pass "attack service: its log says $want" || fail "attack service: the log does not say '$want': $(grep listening "$tmp/serve.log")"

# The names the tool gives uids 2001 and 2003: uidN where the box has no such account (as in CI), else the account's.
acct() { n=$(getent passwd "$1" | cut -d: -f1); [ -n "$n" ] && echo "$n" || echo "uid$1"; }
u1=$(acct 2001); u3=$(acct 2003)
# 1. The hog: uid 2003 holds a lease and never gives it back; the cap is 3 s.
asu 2003 "$P" hog "$tmp/run/sock" $U 12 2>"$tmp/hog.err" &
hog=$!
sleep 0.3
t0=$(date +%s%N)
bound 20 asu 2001 "$P" lease "$tmp/run/sock" $U 100 "$log" 2>"$tmp/w1"; rc=$?; w=$(ms "$t0")
[ $rc = 0 ] && [ "$w" -lt 4500 ] && grep -q "$u3's run has held the GPU for 3 s, past the cap of 3 s: passed over" "$tmp/w1" \
	&& pass "attack service: a hog is passed over at the cap and the waiter is told ($w ms)" || fail "attack service: behind the hog: exit $rc after $w ms: $(cat "$tmp/w1")"
wait $hog
grep -q "past the lab's cap of 3 s" "$tmp/hog.err" && pass "attack service: the hog is told it was passed over" || fail "attack service: the hog was not told: $(cat "$tmp/hog.err")"
grep -q "passed over: $u3 (uid 2003" "$tmp/serve.log" && [ "$(awk '$6 == 2003' "$tmp/state/trace.log" | wc -l)" = 1 ] \
	&& pass "attack service: the pass-over is in the service's log and the hold in its trace" || fail "attack service: no trace of the hog"

# 2. Turns: uid 2001 queues 30 runs of 200 ms; uid 2002's one run then waits at most the run in progress.
: >"$log"
pids=
i=0; while [ $i -lt 30 ]; do asu 2001 "$P" lease "$tmp/run/sock" $U 200 "$log" 2>/dev/null & pids="$pids $!"; i=$((i + 1)); done
sleep 0.5
t0=$(date +%s%N)
bound 20 asu 2002 "$P" lease "$tmp/run/sock" $U 200 "$log" 2>"$tmp/w2"; rc=$?; w=$(ms "$t0")
wait $pids
before=$(sort -n -k2 "$log" | awk '$5 == 2002 { print NR - 1; exit }')
[ $rc = 0 ] && [ "$before" -le 3 ] && [ "$w" -lt 800 ] && pass "attack service: 30 queued runs of one user delay another's first by one run ($before of theirs first, $w ms)" \
	|| fail "attack service: turns: exit $rc, $before runs of 2001 before 2002's, waited $w ms"
overlap=$(sort -n -k2 "$log" | awk 'NR > 1 && $2 < end { n++ } { end = $3 } END { print n + 0 }')
[ "$(wc -l <"$log")" = 31 ] && [ "$overlap" = 0 ] && pass "attack service: 31 runs, no two holds overlap" || fail "attack service: $(wc -l <"$log") runs, $overlap overlaps"

out=$(CUDACLIMB_SERVICE=$tmp/run/sock bound 10 asu 2002 "$CC" queue 2>&1); rc=$?
[ $rc = 0 ] && printf '%s' "$out" | grep -q "lab service at $tmp/run/sock" && printf '%s' "$out" | grep -q "GPU $U: free, 0 waiting (cap 3 s)" \
	&& pass "attack service: cudaclimb queue shows the service's own queues" || fail "attack service: queue: exit $rc: $out"

asu 2003 "$P" hog "$tmp/run/sock" $U 2 2>/dev/null &
hog=$!
sleep 0.3
out=$(printf 'length %s\nlength %s\n' $U 00000000000000000000000000000000 | bound 10 asu 2002 "$P" send "$tmp/run/sock" 1)
wait $hog
[ "$(printf '%s' "$out" | grep -c '^length')" = 2 ] && printf '%s' "$out" | grep -q '^length 1$' && printf '%s' "$out" | grep -q '^length 0$' \
	&& pass "attack service: the length of a GPU's line, for a client choosing a GPU (1 held, 0 elsewhere)" || fail "attack service: length: $out"

# 3. Requests a student may not make, or make badly.
out=$(printf 'lease %s 1 for 2002\n' $U | bound 10 asu 2001 "$P" send "$tmp/run/sock" 3)
printf '%s' "$out" | grep -q "error only the service's own judges may queue for another user" && printf '%s' "$out" | grep -q '\[closed\]' \
	&& pass "attack service: a student cannot take another user's turn ('for UID')" || fail "attack service: for UID: $out"
out=$(head -c 5000 /dev/zero | tr '\0' x | bound 10 asu 2001 "$P" send "$tmp/run/sock" 3)
printf '%s' "$out" | grep -q "error a line is too long" && pass "attack service: a line without end is refused" || fail "attack service: long line: $out"
out=$(printf 'gimme\n' | bound 10 asu 2001 "$P" send "$tmp/run/sock" 3)
printf '%s' "$out" | grep -q "error unknown request" && pass "attack service: an unknown request is refused" || fail "attack service: unknown: $out"
t0=$(date +%s%N)
out=$(printf 'lea' | bound 25 asu 2001 "$P" send "$tmp/run/sock" 20); w=$(ms "$t0")
printf '%s' "$out" | grep -q "did not arrive whole in time" && [ "$w" -lt 19000 ] \
	&& pass "attack service: a request that never ends is dropped ($w ms)" || fail "attack service: slow request: $w ms: $out"
setpriv --reuid=2003 --regid=2003 --clear-groups "$P" conns "$tmp/run/sock" 200 6 >"$tmp/conns" 2>/dev/null &
flood=$!
sleep 1
t0=$(date +%s%N)
bound 10 asu 2002 "$P" lease "$tmp/run/sock" $U 50 "$log" 2>"$tmp/w3"; rc=$?; w=$(ms "$t0")
kept=$(cat "$tmp/conns")
[ $rc = 0 ] && [ "$w" -lt 1000 ] && [ "${kept:-999}" -le 40 ] \
	&& pass "attack service: 200 connections of one user: $kept kept (per_user 40), another's run goes through in $w ms" \
	|| fail "attack service: connection flood: kept ${kept:-?}, the other's run exit $rc after $w ms"
kill $flood 2>/dev/null; wait $flood 2>/dev/null

# 4. Submissions: refused at once when malformed, nothing kept.
sub() { printf 'submit %s %s %s\n' "$1" "$2" "$3"; }
for bad in "../x.cu" "/etc/passwd" ".hidden.cu" "a/b/c/d.cu" "x;rm.cu"; do
	out=$( { sub lab1 demo/scale 1; printf 'file %s 3\nabc' "$bad"; } | bound 10 asu 2001 "$P" send "$tmp/run/sock" 3)
	printf '%s' "$out" | grep -q "error a file's name is a relative path" || { fail "attack service: a file named '$bad' was not refused: $out"; badname=1; }
done
[ -z "${badname:-}" ] && pass "attack service: file names with '..', absolute, hidden, too deep or with ';' are refused"
out=$( { sub lab1 demo/scale 1; printf 'file big.cu 300000\n'; } | bound 10 asu 2001 "$P" send "$tmp/run/sock" 3)
printf '%s' "$out" | grep -q "error a file is over 256 KiB" && pass "attack service: a file over 256 KiB is refused before it is sent" || fail "attack service: big file: $out"
out=$(sub lab1 demo/scale 17 | bound 10 asu 2001 "$P" send "$tmp/run/sock" 3)
printf '%s' "$out" | grep -q "error a submission has 1 to 16 files" && pass "attack service: 17 files are refused" || fail "attack service: 17 files: $out"
out=$(sub other demo/scale 1 | bound 10 asu 2001 "$P" send "$tmp/run/sock" 3)
printf '%s' "$out" | grep -q "judges no course of that id" && pass "attack service: a course it does not judge is refused" || fail "attack service: other course: $out"
out=$(sub lab1 demosum/sum 1 | bound 10 asu 2001 "$P" send "$tmp/run/sock" 3)
printf '%s' "$out" | grep -q "does not assign that exercise" && pass "attack service: an exercise the course does not assign is refused" || fail "attack service: unassigned: $out"
# four files of 256 KiB (each at the bound) and one byte more: over 1 MiB in all, refused as it is announced
out=$( { sub lab1 demo/scale 5; for f in a b c d; do printf 'file %s.cu 262144\n' $f; head -c 262144 /dev/zero | tr '\0' x; done; printf 'file e.cu 1\nx'; } \
	| bound 20 asu 2001 "$P" send "$tmp/run/sock" 3)
printf '%s' "$out" | grep -q "error the files are over 1 MiB in all" && pass "attack service: files over 1 MiB in all (each under 256 KiB) are refused" \
	|| fail "attack service: 1 MiB and a byte in five files: $(printf '%s' "$out" | head -3)"
[ -z "$(ls "$tmp/state/jobs")" ] && pass "attack service: nothing of the refused submissions is kept" || fail "attack service: kept: $(ls "$tmp/state/jobs")"
mkdir -m 700 "$tmp/s1"; cp tests/fixtures/exercise/learner/right.cu "$tmp/s1/scale.cu"; chown -R 2001 "$tmp/s1"
asu 2001 sh -c "sed -i '1i #include \"pipe.cuh\"' '$tmp/s1/scale.cu'; mkfifo '$tmp/s1/pipe.cuh'"
t0=$(date +%s%N)
out=$(bound 10 asu 2001 "$P" submit "$tmp/run/sock" lab1 demo/scale "$tmp/s1/scale.cu" 2>&1); rc=$?; w=$(ms "$t0")
[ $rc = 1 ] && [ "$w" -lt 3000 ] && printf '%s' "$out" | grep -q "pipe.cuh, included by scale.cu: not a regular file" \
	&& pass "attack service: an include that is a FIFO is refused by the client at once ($w ms)" || fail "attack service: FIFO include: exit $rc after $w ms: $out"

asu 2001 sh -c "rm '$tmp/s1/pipe.cuh'; truncate -s 6G '$tmp/s1/pipe.cuh'"
t0=$(date +%s%N)
out=$(bound 10 asu 2001 "$P" submit "$tmp/run/sock" lab1 demo/scale "$tmp/s1/scale.cu" 2>&1); rc=$?; w=$(ms "$t0")
[ $rc = 1 ] && [ "$w" -lt 3000 ] && printf '%s' "$out" | grep -q "pipe.cuh, included by scale.cu: larger than" \
	&& pass "attack service: an include of a 6 GB sparse file is refused by the client at once ($w ms)" || fail "attack service: sparse include: exit $rc after $w ms: $out"

# 5. The judge and the store. A secret the service can read and the student cannot, included by its
# absolute path to learn one bit: the judge's compile refuses the path; the verdict is a compile error.
printf '#define SECRET 42\n' >"$tmp/state/secret.h"; chown 2010 "$tmp/state/secret.h"; chmod 600 "$tmp/state/secret.h"
asu 2001 sh -c "rm '$tmp/s1/pipe.cuh'; sed -i '1d' '$tmp/s1/scale.cu'; { echo '#include \"$tmp/state/secret.h\"'; echo '#if SECRET != 42'; echo '#error not 42'; echo '#endif'; cat '$tmp/s1/scale.cu'; } >'$tmp/s1/leak.cu'"
out=$(bound 60 asu 2001 "$P" submit "$tmp/run/sock" lab1 demo/scale "$tmp/s1/leak.cu" 2>&1); rc=$?
[ $rc = 0 ] && printf '%s' "$out" | grep -q "the course's judge: compile_error" && grep -q '"verdict": "compile_error"' "$tmp/store/2001-"*.jsonl \
	&& pass "attack service: an include of the service's own secret by absolute path is refused by the judge's compile (a compile error, recorded)" \
	|| fail "attack service: the secret include: exit $rc: $out"
mv "$tmp/store/2001-"*.jsonl "$tmp/leak.jsonl"
# A few KiB of nested macros that keep NVRTC busy (a tester's: 2^21 empty statements held the one judge
# for 86 s, and the next student's verdict with it): the judge's compile stops at judge: compile_s (5 s).
{ printf '#define E0 ; ;\n'; i=1; while [ $i -le 21 ]; do printf '#define E%d E%d E%d\n' $i $((i - 1)) $((i - 1)); i=$((i + 1)); done
  printf 'extern "C" __global__ void scale(float *y, int n) { E21 }\n'; } >"$tmp/s1/macros.cu"; chown 2001 "$tmp/s1/macros.cu"
t0=$(date +%s%N)
out=$(bound 60 asu 2001 "$P" submit "$tmp/run/sock" lab1 demo/scale "$tmp/s1/macros.cu" 2>&1); rc=$?; w=$(ms "$t0")
[ $rc = 0 ] && [ "$w" -lt 20000 ] && printf '%s' "$out" | grep -q "the course's judge: compile_error.*compile timed out after 5 s" && grep -q '"verdict": "compile_error"' "$tmp/store/2001-"*.jsonl \
	&& pass "attack service: 2^21 macro-made statements: the judge's compile stopped at compile_s (5 s), the verdict in $w ms" \
	|| fail "attack service: the slow compile: exit $rc after $w ms: $out; $(head -c 300 "$tmp/store/2001-"*.jsonl 2>/dev/null)"
mv "$tmp/store/2001-"*.jsonl "$tmp/macros.jsonl"
bound 10 asu 2002 sh -c "echo '{\"time\": 1, \"uid\": 2002}' > '$tmp/store/2002-x.jsonl'" 2>/dev/null
[ ! -e "$tmp/store/2002-x.jsonl" ] && pass "attack service: a student cannot write into the store" || fail "attack service: uid 2002 wrote into the store"
t0=$(date +%s)
out=$(bound 60 asu 2001 "$P" submit "$tmp/run/sock" lab1 demo/scale "$tmp/s1/scale.cu" 2>&1); rc=$?
t1=$(date +%s)
rec=$(cat "$tmp/store/2001-"*.jsonl 2>/dev/null)
when=$(printf '%s' "$rec" | sed -n 's/^{"time": \([0-9]*\),.*/\1/p')
[ $rc = 0 ] && printf '%s' "$out" | grep -q "the course's judge: passed (counts as passed), 1.20x" && [ "$(printf '%s\n' "$rec" | grep -c .)" = 1 ] \
	&& printf '%s' "$rec" | grep -q '"uid": 2001, "exercise": "demo/scale", "verdict": "passed", "passed": true' && [ "${when:-0}" -ge "$t0" ] && [ "${when:-0}" -le "$t1" ] \
	&& pass "attack service: a submission is judged in the service's account and stored once, with the service's clock and the kernel's uid" \
	|| fail "attack service: judged: exit $rc: $out; store: $(printf '%s' "$rec" | cut -c1-200)"
[ "$(stat -c %U:%a "$tmp/store/2001-"*.jsonl)" = "$(getent passwd 2010 | cut -d: -f1 || echo 2010):640" ] || [ "$(stat -c %u:%a "$tmp/store/2001-"*.jsonl)" = "2010:640" ] \
	&& pass "attack service: the store's file is the service's, mode 640" || fail "attack service: store file: $(stat -c %u:%a "$tmp/store/2001-"*.jsonl)"

# 6. Killed with -9 while a run waits: the waiter asks the service again once it is back.
asu 2003 "$P" hog "$tmp/run/sock" $U 6 2>"$tmp/hog4" &
hog=$!
sleep 0.3
asu 2001 "$P" lease "$tmp/run/sock" $U 100 "$log" 2>"$tmp/w4" &
waiter=$!
sleep 0.5
kill -9 $svc_pid; wait $svc_pid 2>/dev/null
sleep 1
start ok
wait $waiter; rc=$?
wait $hog
[ $rc = 0 ] && grep -q "went away while this run waited: asking again" "$tmp/w4" \
	&& pass "attack service: a run waiting when the service is killed asks again and runs once it is back" || fail "attack service: waiter across a restart: exit $rc: $(cat "$tmp/w4")"

# 7. Killed with -9 while judging: back, the submission judged again, recorded once.
kill -9 $svc_pid; wait $svc_pid 2>/dev/null
start hang
asu 2001 "$P" submit "$tmp/run/sock" lab1 demo/scale "$tmp/s1/scale.cu" >"$tmp/sub2" 2>&1 &
sub=$!
i=0; while [ $i -lt 50 ] && [ -z "$(ls "$tmp/state/jobs" 2>/dev/null)" ]; do sleep 0.1; i=$((i + 1)); done
sleep 1
kill -9 $svc_pid; wait $svc_pid 2>/dev/null; wait $sub
kept=$(ls "$tmp/state/jobs" | wc -l)
start ok
i=0; while [ $i -lt 100 ] && [ "$(cat "$tmp/store/2001-"*.jsonl | wc -l)" -lt 2 ]; do sleep 0.2; i=$((i + 1)); done
sleep 1
n=$(cat "$tmp/store/2001-"*.jsonl | wc -l)
[ "$kept" = 1 ] && [ "$n" = 2 ] && [ -z "$(ls "$tmp/state/jobs")" ] && grep -q "judging again a submission kept before a stop" "$tmp/serve.log" \
	&& pass "attack service: killed with -9 mid-judge, the service comes back and records the kept submission once" \
	|| fail "attack service: after kill -9: $kept kept, $n records, jobs left: $(ls "$tmp/state/jobs"); $(tail -3 "$tmp/serve.log")"
kill -9 $svc_pid; wait $svc_pid 2>/dev/null; start ok
sleep 1
[ "$(cat "$tmp/store/2001-"*.jsonl | wc -l)" = 2 ] && pass "attack service: a second restart judges nothing twice" || fail "attack service: records after a second restart: $(cat "$tmp/store/2001-"*.jsonl | wc -l)"
# A try sent while the service restarts (its runs went through the service moments before) waits for
# it to come back, past the 5 s a first run waits, and is judged: nothing lost (the GPU lab at a0303e1
# lost one such try, the student told only "your result was not sent to the course").
kill -9 $svc_pid; wait $svc_pid 2>/dev/null
asu 2001 "$P" submit "$tmp/run/sock" lab1 demo/scale "$tmp/s1/scale.cu" >"$tmp/sub3" 2>&1 &
sub=$!
sleep 7
start ok
wait $sub; rc=$?
[ $rc = 0 ] && [ "$(cat "$tmp/store/2001-"*.jsonl | wc -l)" = 3 ] && pass "attack service: a try sent while the service restarts (7 s) waits for it and is judged" \
	|| fail "attack service: a try sent during a 7 s restart: exit $rc: $(head -c 300 "$tmp/sub3"); records $(cat "$tmp/store/2001-"*.jsonl | wc -l)"

# The report reads the store: the service's records are facts, not claims.
out=$(bound 20 "$CC" --lessons "$tmp/lessons" report "$tmp/course" 2>&1); rc=$?
json=$(bound 20 "$CC" --lessons "$tmp/lessons" report "$tmp/course" --json 2>&1)
[ $rc = 0 ] && printf '%s' "$out" | grep -q "$u1" && ! printf '%s' "$out" | grep -qi "claimed" && printf '%s' "$json" | grep -q '"trusted": true' \
	&& pass "attack service: report reads the store, and its passes are not marked claimed" || fail "attack service: report: exit $rc: $out $(printf '%s' "$json" | head -c 300)"
chmod 2770 "$tmp/store"
out=$(bound 20 "$CC" --lessons "$tmp/lessons" report "$tmp/course" 2>&1); rc=$?
[ $rc != 0 ] && printf '%s' "$out" | grep -q "store .* is writable by others" && pass "attack service: a store others may write is not believed" \
	|| fail "attack service: a 2770 store: exit $rc: $out"
chmod 2750 "$tmp/store"

# 8. A client refuses a stand-in: a socket in a folder others may write.
mkdir -m 1777 "$tmp/open"
out=$(bound 10 asu 2001 "$P" lease "$tmp/open/sock" $U 10 "$log" 2>&1); rc=$?
[ $rc = 5 ] && printf '%s' "$out" | grep -q "anyone could stand in for the service" && pass "attack service: a client refuses a socket folder others may write" \
	|| fail "attack service: open socket folder: exit $rc: $out"
kill $svc_pid; wait $svc_pid 2>/dev/null; svc_pid=

# 9. Submissions waiting for the judge, per student: at most per_user (here 2), even when the student
# hangs up once each is kept (a kept submission stays for its verdict, so hanging up frees no slot).
# The judge hangs, so the first two are still there when the third comes: it is refused, not kept.
sed 's/^per_user: 40$/per_user: 2/' "$tmp/serve.yaml" >"$tmp/serve2.yaml"; chmod 644 "$tmp/serve2.yaml"
conf=$tmp/serve2.yaml; start hang; conf=
n=$(wc -c <"$tmp/s1/scale.cu")
said=
for k in 1 2 3; do
	said="$said $( { sub lab1 demo/scale 1; printf 'file scale.cu %s\n' "$n"; cat "$tmp/s1/scale.cu"; } | bound 10 asu 2001 "$P" send "$tmp/run/sock" 2 | head -1 | cut -c1-60)"
done
kept=$(ls "$tmp/state/jobs" | wc -l)
case "$said" in
*queued*queued*"error you have too many submissions waiting for the judge"*)
	[ "$kept" = 2 ] && pass "attack service: a student's third submission waiting for the judge is refused (per_user 2; two kept)" \
		|| fail "attack service: per-student submissions: $kept kept: $said" ;;
*) fail "attack service: per-student submissions (per_user 2): $said; $kept kept" ;;
esac
kill -9 $svc_pid; wait $svc_pid 2>/dev/null; svc_pid=

# 10. GPU lines. The service makes a line for any GPU id a lease names, so idle lines are reused and
# each user is bounded. Just after a start, uid 2003 leases 1100 made-up GPUs on one connection (more
# than the service's 1024 lines) and leaves; uid 2001's lease of the real GPU then goes through at once.
start ok
made() { printf '%032x' "$1"; }
out=$(printf 'lease %032x 1\ndone\n' $(seq 1100) | bound 30 asu 2003 "$P" send "$tmp/run/sock" 3)
gos=$(printf '%s\n' "$out" | grep -c '^go$')
t0=$(date +%s%N)
bound 10 asu 2001 "$P" lease "$tmp/run/sock" $U 50 "$log" 2>"$tmp/w10"; rc=$?; w=$(ms "$t0")
[ $rc = 0 ] && [ "$w" -lt 1000 ] \
	&& pass "attack service: after 1100 made-up GPUs leased by one student ($gos served), another's lease of the real GPU goes through ($w ms)" \
	|| fail "attack service: GPU lines after 1100 made-up GPUs ($gos served): exit $rc after $w ms: $(cat "$tmp/w10") $(printf '%s' "$out" | grep -v '^go$' | head -2)"
out=$(CUDACLIMB_SERVICE=$tmp/run/sock bound 10 asu 2002 "$CC" queue 2>&1); rc=$?
[ $rc = 0 ] && printf '%s' "$out" | grep -q "GPU $U: free, 0 waiting" && printf '%s' "$out" | grep -q "and [0-9]* more GPUs asked for longer ago, 0 of them in use" \
	&& [ "$(printf '%s\n' "$out" | grep -c ' GPU ')" -le 64 ] \
	&& pass "attack service: cudaclimb queue shows 64 GPU lines at most, the last asked for first" || fail "attack service: queue after 1100 GPUs: exit $rc: $(printf '%s' "$out" | head -4)"
# uid 2003 holds 8 made-up GPUs (the bound a user): a 9th is refused with the bound said, a second
# lease of one it holds still queues, and uid 2001 and 2002 are served at once; once the 8 are given
# back, uid 2003 may lease the 9th.
: >"$tmp/hogs10"; chmod 666 "$tmp/hogs10"
hogs=
for i in 1 2 3 4 5 6 7 8; do bound 20 asu 2003 "$P" hog "$tmp/run/sock" "$(made $((5000 + i)))" 6 2>>"$tmp/hogs10" & hogs="$hogs $!"; done
i=0; while [ $i -lt 50 ] && [ "$(grep -c 'hog holds' "$tmp/hogs10")" -lt 8 ]; do sleep 0.1; i=$((i + 1)); done
held=$(grep -c 'hog holds' "$tmp/hogs10")
bound 20 asu 2003 "$P" lease "$tmp/run/sock" "$(made 5001)" 50 "$log" 2>"$tmp/w10same" &
same=$!
out=$(bound 10 asu 2003 "$P" lease "$tmp/run/sock" "$(made 5009)" 50 "$log" 2>&1); rc=$?
[ "$held" = 8 ] && [ $rc = 5 ] && printf '%s' "$out" | grep -q "too many GPUs at once: a user may hold or wait for at most 8 GPUs" \
	&& pass "attack service: a student holding 8 GPUs is refused a 9th, the bound said" || fail "attack service: a 9th GPU ($held held): exit $rc: $out"
t0=$(date +%s%N)
bound 10 asu 2001 "$P" lease "$tmp/run/sock" $U 50 "$log" 2>"$tmp/w10b"; rc=$?
bound 10 asu 2002 "$P" lease "$tmp/run/sock" "$(made 5009)" 50 "$log" 2>"$tmp/w10c"; rc2=$?; w=$(ms "$t0")
[ $rc = 0 ] && [ $rc2 = 0 ] && [ "$w" -lt 1500 ] && pass "attack service: meanwhile two other students are served at once ($w ms)" \
	|| fail "attack service: beside the 8 held: exit $rc and $rc2 after $w ms: $(cat "$tmp/w10b" "$tmp/w10c")"
wait $hogs
wait $same; rc=$?
[ $rc = 0 ] && pass "attack service: a second lease of a GPU the student already holds is not counted again" || fail "attack service: a second lease of a held GPU: exit $rc: $(cat "$tmp/w10same")"
bound 10 asu 2003 "$P" lease "$tmp/run/sock" "$(made 5009)" 50 "$log" 2>"$tmp/w10d"; rc=$?
[ $rc = 0 ] && pass "attack service: with the 8 given back, the student's 9th GPU is served" || fail "attack service: after the 8: exit $rc: $(cat "$tmp/w10d")"
kill $svc_pid; wait $svc_pid 2>/dev/null; svc_pid=

# 11. The lease hog: uid 2004 holds a lease until it is passed over at the cap (3 s), gives it back
# and asks again at once, always with one connection in line (a socket script, no GPU work). uid 2002
# then takes five leases one after the other, as the judge does for one try (a lease per check job):
# the first waits for the hog's cap; the hog, passed over, goes after everyone else for its cool-down,
# so the next four go through at once (before the cool-down, each waited a whole cap: 15 s in all).
cat >"$tmp/hog_relax.py" <<PY
import socket, select, sys, time
cs = []
for _ in range(3):
    s = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM); s.connect("$tmp/run/sock")
    s.sendall(b"lease $U 0.6\n"); cs.append([s, b""])
end = time.time() + float(sys.argv[1])
while time.time() < end:
    r, _, _ = select.select([c[0] for c in cs], [], [], 0.2)
    for c in cs:
        if c[0] not in r: continue
        d = c[0].recv(65536)
        if not d: print("dropped", flush=True); sys.exit(1)
        c[1] += d
        while b"\n" in c[1]:
            l, c[1] = c[1].split(b"\n", 1)
            print(f"{time.time():.2f} {l.decode()}", flush=True)
            if l.startswith(b"over"): c[0].sendall(b"done\nlease $U 0.6\n")
PY
chmod 644 "$tmp/hog_relax.py"
py=/usr/bin/python3   # a python every user may run (root's own may be under /root)
[ -x "$py" ] || py=$(command -v python3)
start ok
: >"$log"
asu 2004 "$py" "$tmp/hog_relax.py" 24 >"$tmp/hog11" 2>&1 &
hog=$!
i=0; while [ $i -lt 50 ] && ! grep -q ' go$' "$tmp/hog11"; do sleep 0.1; i=$((i + 1)); done
t0=$(date +%s%N)
k=0; while [ $k -lt 5 ]; do bound 20 asu 2002 "$P" lease "$tmp/run/sock" $U 200 "$log" 2>>"$tmp/w11"; k=$((k + 1)); done
w=$(ms "$t0")
[ "$(wc -l <"$log")" = 5 ] && [ "$w" -lt 6000 ] && grep -q "for 30 s this account's runs go after everyone else's" "$tmp/hog11" \
	&& pass "attack service: a hog that asks again at once when passed over costs five leases in a row one cap, not five ($w ms; cool-down 10 caps)" \
	|| fail "attack service: five leases behind a hog that asks again: $(wc -l <"$log") ran in $w ms: $(tail -2 "$tmp/w11") $(tail -2 "$tmp/hog11")"
overlap=$(sort -n -k2 "$log" | awk 'NR > 1 && $2 < end { n++ } { end = $3 } END { print n + 0 }')
grep -q "wait waiting for the GPU (lab service): 1st in line: a run of this account held the GPU past the cap" "$tmp/hog11" && [ "$overlap" = 0 ] \
	&& pass "attack service: the cooling hog is told why it waits; the five leases do not overlap" \
	|| fail "attack service: the cooling hog was not told, or $overlap overlaps: $(grep -v ' go$' "$tmp/hog11" | tail -3)"
# A judge's run for the cooling hog (the service's own "lease ... for 2004") is not held back: it goes
# as soon as uid 2002's run ends, so the judges' line never waits on a cool-down.
cat >"$tmp/judge11.py" <<PY
import socket, time
s = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM); s.connect("$tmp/run/sock")
t = time.time(); s.sendall(b"lease $U 0.6 for 2004\n"); b = b""
while not b.startswith(b"go\n") and b"\ngo\n" not in b:
    d = s.recv(4096)
    if not d: break
    b += d
print(int((time.time() - t) * 1000))
PY
chmod 644 "$tmp/judge11.py"
asu 2002 "$P" lease "$tmp/run/sock" $U 1500 "$log" 2>/dev/null &
held=$!
sleep 0.3
jw=$(bound 20 asu 2010 "$py" "$tmp/judge11.py")
wait $held
[ -n "$jw" ] && [ "$jw" -lt 2500 ] && pass "attack service: a judge's run for the cooling account is not held back ($jw ms, behind a run of 1.5 s)" \
	|| fail "attack service: a judge's run for the cooling account waited ${jw:-?} ms behind a run of 1.5 s"
# alone, the cooling hog is still served once nobody else has used the GPU for a cap
n0=$(grep -c ' go$' "$tmp/hog11")
sleep 8
n1=$(grep -c ' go$' "$tmp/hog11")
[ "$n1" -gt "$n0" ] && pass "attack service: a cooling account is served when nobody else wants the GPU ($n0 then $n1 grants)" \
	|| fail "attack service: the cooling hog alone was not served again: $n0 then $n1 grants: $(tail -3 "$tmp/hog11")"
kill $hog 2>/dev/null; wait $hog 2>/dev/null
kill $svc_pid; wait $svc_pid 2>/dev/null; svc_pid=

# 11b. The cool-down kept when the GPU's line is idle: uid 2004 is passed over at the cap (cooling for
# 30 s), uid 2002 runs; while the real GPU is idle, uid 2004 leases 1100 made-up GPUs on one
# connection (more than the service's 1024 lines, so idle lines are reused), then asks for the real
# GPU again, and uid 2002 right after. The real GPU's line keeps its cool-down, so uid 2002 goes
# first, at once; when that line was reused, the hog came back to a fresh line with its cool-down
# forgotten and was served at once, and uid 2002 waited the whole cap (3 s) behind it, each time.
start ok
bound 10 asu 2004 "$P" hog "$tmp/run/sock" $U 4 >/dev/null 2>"$tmp/hog11b"
bound 10 asu 2002 "$P" lease "$tmp/run/sock" $U 50 "$log" 2>/dev/null
cat >"$tmp/flood11b.py" <<PY
import socket
s = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM); s.connect("$tmp/run/sock"); b = b""
for i in range(1, 1101):
    s.sendall(b"lease %032x 1\n" % i)
    while b"\n" not in b: b += s.recv(4096)
    l, b = b.split(b"\n", 1)
    if l != b"go": print(l.decode()); break
    s.sendall(b"done\n")
else: print("1100 go")
PY
chmod 644 "$tmp/flood11b.py"
flood=$(bound 20 asu 2004 "$py" "$tmp/flood11b.py")
bound 10 asu 2002 "$P" lease "$tmp/run/sock" $U 50 "$log" 2>/dev/null
bound 15 asu 2004 "$P" hog "$tmp/run/sock" $U 4 >/dev/null 2>>"$tmp/hog11b" &
hog=$!
sleep 0.3
t0=$(date +%s%N)
bound 10 asu 2002 "$P" lease "$tmp/run/sock" $U 200 "$log" 2>"$tmp/w11b"; rc=$?; w=$(ms "$t0")
wait $hog
[ "$flood" = "1100 go" ] && grep -q "past the lab's cap of 3 s" "$tmp/hog11b" && [ $rc = 0 ] && [ "$w" -lt 1500 ] \
	&& pass "attack service: a cooling hog that leases 1100 made-up GPUs while the real one is idle keeps its cool-down (the next run waited $w ms)" \
	|| fail "attack service: after a cooling hog's 1100 made-up GPUs ($flood), the next run waited $w ms (exit $rc) behind the hog: $(tail -2 "$tmp/w11b")"
kill $svc_pid; wait $svc_pid 2>/dev/null; svc_pid=

# 12. A submission whose last file is empty (a header the kernel includes, sent last) is whole once
# its header has come: kept and judged at once (it used to wait for bytes that never come, then be
# refused after the 60 s a submission's files may take).
start ok
src12=$(printf '#include "empty.h"\n'; cat tests/fixtures/exercise/learner/right.cu)
out=$( { printf 'submit lab1 demo/scale 2\nfile scale.cu %s\n' "$(printf '%s' "$src12" | wc -c)"; printf '%s' "$src12"; printf 'file empty.h 0\n'; } \
	| bound 20 asu 2001 "$P" send "$tmp/run/sock" 6)
printf '%s\n' "$out" | grep -q '^queued kept by the course' && printf '%s\n' "$out" | grep -q '^verdict passed' \
	&& pass "attack service: a submission whose last file is empty is kept and judged at once (within 6 s)" \
	|| fail "attack service: an empty last file: within 6 s: $(printf '%s' "$out" | head -3)"
kill $svc_pid; wait $svc_pid 2>/dev/null; svc_pid=

# 13. The store of a student with many judged tries. uid 2003's file is filled (as the service would
# have, over many tries: a pass first, then failures) to just under the report's 8 MiB cap on a file;
# the next verdict goes to a file of its own (UID-USER.1.jsonl), so the report still reads every
# record: the early pass and the new one (a file past 8 MiB used to be left out whole, the row gone).
py=/usr/bin/python3; [ -x "$py" ] || py=$(command -v python3)
mkdir -m 700 "$tmp/s3"; cp tests/fixtures/exercise/learner/right.cu "$tmp/s3/scale.cu"; chown -R 2003 "$tmp/s3"
start ok
out=$(bound 60 asu 2003 "$P" submit "$tmp/run/sock" lab1 demo/scale "$tmp/s3/scale.cu" 2>&1); rc=$?
f13=$(ls "$tmp/store/2003-"*.jsonl 2>/dev/null | head -1)
pad() {   # pad FILE BYTES [JOB]: "wrong" records after the file's first (a pass) until FILE holds BYTES; with JOB, then one record of that job
	asu 2010 "$py" - "$@" <<'PY'
import re, sys
path, want = sys.argv[1], int(sys.argv[2])
first = open(path).readline().rstrip("\n")
wrong = first.replace('"verdict": "passed", "passed": true', '"verdict": "wrong", "passed": false') + "\n"
with open(path, "a") as f:
    size = f.tell()
    while size + len(wrong) <= want: f.write(wrong); size += len(wrong)
    if len(sys.argv) > 3: f.write(re.sub(r'"job": "[^"]*"', '"job": "%s"' % sys.argv[3], first) + "\n")
PY
}
[ $rc = 0 ] && [ -n "$f13" ] && pad "$f13" $((8 * 1024 * 1024 - 100))
out=$(bound 60 asu 2003 "$P" submit "$tmp/run/sock" lab1 demo/scale "$tmp/s3/scale.cu" 2>&1); rc=$?
rep=$(bound 30 "$CC" --lessons "$tmp/lessons" report "$tmp/course" --json 2>&1)
n1=$(cat "$tmp/store/2003-"*.1.jsonl 2>/dev/null | wc -l)
[ $rc = 0 ] && [ "$(stat -c %s "$f13")" -le $((8 * 1024 * 1024)) ] && [ "$n1" = 1 ] && printf '%s' "$rep" | grep -q "\"user\": \"$u3\|\"uid\": 2003" \
	&& printf '%s' "$rep" | grep -q '"status": "passed"' && ! printf '%s' "$rep" | grep -q "left out" \
	&& pass "attack service: a student's store file full to 8 MiB: the next verdict goes to a new file, the report reads both (the early pass shown)" \
	|| fail "attack service: a full store file: exit $rc, $(stat -c %s "$f13" 2>/dev/null) bytes, $n1 records in .1: $(printf '%s' "$out" | tail -1) $(printf '%s' "$rep" | grep -E 'left out|uid2003' | head -3)"
# and a file of 20000 short records (the most the report reads of a file) under 8 MiB: the next
# verdict goes to the next file (the 20001st record used to be dropped by the report)
f13b="${f13%.jsonl}.1.jsonl"
asu 2010 "$py" - "$f13b" <<'PY'
import re, sys
first = open(sys.argv[1]).readline()
short = re.sub(r', "sha256": "[0-9a-f]*", "source": "[^"]*"', "", first)
with open(sys.argv[1], "a") as f: f.write(short * 19999)
PY
out=$(bound 60 asu 2003 "$P" submit "$tmp/run/sock" lab1 demo/scale "$tmp/s3/scale.cu" 2>&1); rc=$?
[ $rc = 0 ] && [ "$(wc -l <"$f13b")" = 20000 ] && [ "$(cat "${f13%.jsonl}.2.jsonl" 2>/dev/null | wc -l)" = 1 ] \
	&& pass "attack service: a store file of 20000 records under 8 MiB: the next verdict goes to the next file" \
	|| fail "attack service: 20000 records: exit $rc, $(wc -l <"$f13b") lines in .1, $(cat "${f13%.jsonl}.2.jsonl" 2>/dev/null | wc -l) in .2: $out"
kill -9 $svc_pid; wait $svc_pid 2>/dev/null; svc_pid=
# An older service let the file grow past 8 MiB, and was killed after recording a job it had kept: at
# the next start the job is found in that file (it used to be judged and recorded again, the file
# being too large to search); the report names the store, not the results folder, for the file it
# leaves out.
job=$(( $(date +%s) - 5 ))000000000-2003
install -d -o 2010 -m 700 "$tmp/state/jobs/$job" "$tmp/state/jobs/$job/src"
install -o 2010 -m 600 "$tmp/s3/scale.cu" "$tmp/state/jobs/$job/src/scale.cu"
printf 'course lab1\nexercise demo/scale\nuid 2003\nreceived %s\nmain scale.cu\n' $(( $(date +%s) - 5 )) >"$tmp/state/jobs/$job/meta"
chown 2010 "$tmp/state/jobs/$job/meta"; chmod 600 "$tmp/state/jobs/$job/meta"
pad "$f13" $((9 * 1024 * 1024)) "$job"
before=$(cat "$tmp/store/2003-"* | wc -l)
start ok
i=0; while [ $i -lt 30 ] && [ -e "$tmp/state/jobs/$job" ]; do sleep 0.1; i=$((i + 1)); done
sleep 1
after=$(cat "$tmp/store/2003-"* | wc -l)
[ ! -e "$tmp/state/jobs/$job" ] && [ "$after" = "$before" ] && ! grep -q "judging again a submission kept before a stop: demo/scale for uid 2003" "$tmp/serve.log" \
	&& pass "attack service: a kept job recorded in a store file past 8 MiB is found at the next start, not judged twice" \
	|| fail "attack service: a kept job in a 9 MiB store file: $before then $after records; $(grep 'uid 2003' "$tmp/serve.log" | tail -2)"
out=$(bound 30 "$CC" --lessons "$tmp/lessons" report "$tmp/course" 2>&1)
printf '%s' "$out" | grep -q "1 file in $tmp/store left out: larger than 8 MiB" && printf '%s' "$out" | grep -q "$u3" \
	&& pass "attack service: the report names the store for a file it leaves out" || fail "attack service: the report on a 9 MiB store file: $(printf '%s' "$out" | grep -E 'left out|uid2003|no results' | head -3)"
# Every file the report would read of uid 2003 full (32 of 8 MiB, sparse here): a new submission is
# refused once its files are in, with why, rather than judged into a file the report would not read.
k=1; while [ $k -lt 32 ]; do asu 2010 truncate -s 8M "${f13%.jsonl}.$k.jsonl"; k=$((k + 1)); done
out=$(bound 20 asu 2003 "$P" submit "$tmp/run/sock" lab1 demo/scale "$tmp/s3/scale.cu" 2>&1); rc=$?
[ $rc != 0 ] && printf '%s' "$out" | grep -q "your judged tries fill the course's store (32 files of 8 MiB" && [ -z "$(ls "$tmp/state/jobs")" ] \
	&& pass "attack service: a student whose store files are all full is refused a submission, with why" || fail "attack service: a full store: exit $rc: $out"
kill $svc_pid; wait $svc_pid 2>/dev/null; svc_pid=
