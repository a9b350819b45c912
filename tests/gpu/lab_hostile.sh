#!/bin/sh
# A hostile lab on the GPU box (issue 30), after scripts/class-bench.sh: STUDENTS learners (default
# 30) as 3 local users (uids 2001-2003) each make RUNS timed runs (default 3) through the GPU queue,
# and one try each in a course for the first of each user, while a hostile user (uid 2004):
#   - runs the queue hog on every GPU: a process that follows the ticket protocol, holds the head of
#     the line and refreshes its start mark for ever (tests/queue_probe.c's "hog");
#   - plants FIFOs in the course's results folder, at the students' usual names and others;
#   - forges a pass: its own starter's record edited to "passed": true.
# Asserts: every honest run finishes (exit 0); no two traced holds on one GPU overlap, and every GPU of
# the box got holds (a run takes the GPU with the shortest line); the hog is passed over (students say
# so) within the cap (CUDACLIMB_QUEUE_CAP, here LAB_CAP, default 20 s) and a margin, and on each GPU:
# its hog held the head of the line to the end, and runs started there after it (the trace);
# `cudaclimb report COURSE --json --verify` finishes within REPORT_BOUND s (default 300) and marks the
# forged pass "verified": "refuted" (a visible SKIP where --verify is unknown).
# Prints a summary table last (per GPU the holds, the longest and p99 wait, and when its first hold
# after the hogs started). KEEP_TRACE=FILE copies the trace of GPU holds to FILE. Needs a GPU and root
# (setpriv); else a visible SKIP line.
# LAB_MODE=service runs the same lab through the lab service instead (tests/gpu/lab_service.sh).
[ "${LAB_MODE:-}" = service ] && exec sh tests/gpu/lab_service.sh
. tests/lib.sh
why=$($B device 2>&1); code=$?
if [ $code = 3 ]; then skip "lab hostile: $(printf '%s' "$why" | head -1)"; exit 0; fi
if [ $code != 0 ]; then fail "lab hostile: cudaclimb device exited $code: $why"; exit 0; fi
if [ "$(id -u)" != 0 ] || ! command -v setpriv >/dev/null; then skip "lab hostile: needs root (setpriv) for its four users"; exit 0; fi
students=${STUDENTS:-30}; runs=${RUNS:-3}; cap=${LAB_CAP:-20}; bound=${REPORT_BOUND:-300}
stage=${LAB_STAGE:-bandwidth/coalesced}
tmp=$(mktemp -d /tmp/cc-lab.XXXXXX)
chmod 755 "$tmp"
made=""; hogs=""
cleanup() {
	for p in $hogs; do kill "$p" 2>/dev/null; done
	rm -rf "$tmp"
	for m in $made; do userdel "$m" 2>/dev/null; done
}
trap cleanup EXIT
trap 'exit 1' HUP INT TERM
if ! make --no-print-directory install PREFIX="$tmp/inst" >"$tmp/install.log" 2>&1; then
	fail "lab hostile: make install: $(tail -3 "$tmp/install.log")"; exit 0
fi
chmod -R a+rX "$tmp/inst"
bin=$tmp/inst/bin/cudaclimb
cuda=${CUDA_HOME:-/usr/local/cuda}
if ! cc -std=c11 -D_GNU_SOURCE -Isrc/core -Isrc/lesson -Isrc/engine -Isrc/runner -Isrc/worker -Isrc/app -I$cuda/include tests/queue_probe.c src/worker/gpulock.c src/core/util.c -o "$tmp/probe" 2>"$tmp/cc.log"; then
	fail "lab hostile: the hog did not build: $(head -3 "$tmp/cc.log")"; exit 0
fi
chmod 755 "$tmp/probe"
as() { u=$1; shift; setpriv --reuid="$u" --regid="$u" --clear-groups "$@"; }
for p in alice:2001 bob:2002 carol:2003 mallory:2004; do
	getent passwd "${p#*:}" >/dev/null || { useradd -M -N -u "${p#*:}" "${p%:*}" 2>/dev/null && made="$made ${p%:*}"; }
done
export CUDACLIMB_LOCK_DIR=$tmp/locks CUDACLIMB_QUEUE_TRACE=$tmp/trace CUDACLIMB_QUEUE_CAP=$cap
mkdir -m 1777 "$CUDACLIMB_LOCK_DIR"
: >"$CUDACLIMB_QUEUE_TRACE"; chmod 666 "$CUDACLIMB_QUEUE_TRACE"
"$bin" queue init >"$tmp/init" 2>&1 || { fail "lab hostile: queue init: $(cat "$tmp/init")"; exit 0; }
uuids=$(sed -n 's/.*cudaclimb-gpu-\([0-9a-f]*\)\.q.*/\1/p' "$tmp/init")
ngpu=$(printf '%s\n' $uuids | grep -c .)

# The course, and its results folder as course init makes it.
cp -r assets/example-course "$tmp/course"; chmod -R a+rX "$tmp/course"
"$bin" course init "$tmp/course" --group "$(id -g)" >"$tmp/cinit" 2>&1 || { fail "lab hostile: course init: $(cat "$tmp/cinit")"; exit 0; }

# Each learner a home of their own, compiled once before the clock starts (as class-bench does).
i=0
while [ $i -lt "$students" ]; do
	u=$((2001 + i % 3)); h=$tmp/home/s$i; mkdir -p "$h"; echo $u >"$tmp/uid$i"; cp "kernels/$stage.cu" "$h/mine.cu"; i=$((i + 1))
done
as 2001 env HOME="$tmp/home/s0" XDG_CACHE_HOME="$tmp/home/s0/cache" "$bin" run "$stage" --reps 5 --no-counters >"$tmp/warm" 2>&1 || true
i=0; while [ $i -lt "$students" ]; do
	[ $i -gt 0 ] && cp -r "$tmp/home/s0/cache" "$tmp/home/s$i/" 2>/dev/null
	chown -R "$(cat "$tmp/uid$i")" "$tmp/home/s$i"; chmod 700 "$tmp/home/s$i"; i=$((i + 1))
done

# The hostile user: the hog on every GPU, FIFOs in the results folder, a forged pass.
hog0=$(date +%s%N)
for g in $uuids; do
	setpriv --reuid=2004 --regid=2004 --clear-groups "$tmp/probe" hog "$g" 100000 >/dev/null 2>"$tmp/hog-$g.err" &
	hogs="$hogs $!"
done
sleep 1
res=$tmp/course/results
planted=0
for n in alice bob carol uid-2001 uid-2002 uid-2003 zz-report; do
	for u in 2001 2002 2003; do as 2004 mkfifo "$res/$u-$n.jsonl" 2>/dev/null && planted=$((planted + 1)); done
done
as 2004 mkfifo "$res/zz.jsonl" 2>/dev/null && planted=$((planted + 1))
mh=$tmp/home/mallory; mkdir -p "$mh"; chown 2004 "$mh"; chmod 700 "$mh"
as 2004 env HOME="$mh" XDG_CACHE_HOME="$mh/cache" XDG_STATE_HOME="$mh/state" CUDACLIMB_WORK="$mh/work" \
	timeout 600 "$bin" --course "$tmp/course" try "$stage" --reps 10 --no-counters --timeout 60 >"$mh/try.log" 2>&1 &
mtry=$!

t0=$(date +%s%N)
pids=""
i=0; while [ $i -lt "$students" ]; do lab_learner $i & pids="$pids $!"; i=$((i + 1)); done
for p in $pids; do wait "$p"; done
t1=$(date +%s%N)
wall=$(( (t1 - t0) / 1000000 ))
wait $mtry 2>/dev/null

done_runs=$(cat "$tmp"/home/s*/log | grep -c '^exit 0 ')
bad_runs=$(cat "$tmp"/home/s*/log | grep -c '^exit [^0]')
[ "$done_runs" = $((students * runs)) ] && [ "$bad_runs" = 0 ] && pass "lab hostile: every honest run finished ($done_runs of $((students * runs)))" \
	|| { fail "lab hostile: $done_runs of $((students * runs)) runs finished, $bad_runs failed; one log:"; grep -l '^exit [^0]' "$tmp"/home/s*/log | head -1 | xargs tail -8 2>/dev/null | sed 's/^/    /'; }
tries=$(cat "$tmp"/home/s*/log | grep -c '^try [01]$')
[ "$tries" = 3 ] && pass "lab hostile: the three course tries finished despite the FIFOs ($planted planted)" || fail "lab hostile: $tries of 3 course tries finished"
passed_note=$(cat "$tmp"/home/s*/log | grep -o "[^ ]*'s run has held the GPU for [0-9]* s, past the cap of [0-9]* s: passed over" | sort -t' ' -k7 -n | head -1)
after=$(printf '%s' "$passed_note" | sed -n 's/.*for \([0-9]*\) s, past.*/\1/p')
[ -n "$after" ] && [ "$after" -le $((cap + 10)) ] && pass "lab hostile: the hog is passed over after $after s (cap $cap s): $passed_note" \
	|| fail "lab hostile: the hog was not passed over within the cap ('$passed_note')"

# The hog on each GPU: alive to the end, at the head of its line (it said so); then any run that
# started on that GPU after the hogs began was let past it.
alive=0; for p in $hogs; do kill -0 "$p" 2>/dev/null && alive=$((alive + 1)); done
heads=0; for g in $uuids; do grep -q "hog holds .*cudaclimb-gpu-$g\.q/" "$tmp/hog-$g.err" 2>/dev/null && heads=$((heads + 1)); done
[ "$alive" = "$ngpu" ] && [ "$heads" = "$ngpu" ] && pass "lab hostile: a hog held the head of each GPU's line to the end ($ngpu GPUs)" \
	|| fail "lab hostile: of $ngpu hogs $heads took the head of their line and $alive lived to the end: $(cat "$tmp"/hog-*.err 2>/dev/null | head -3)"
python3 scripts/lab-trace.py "$CUDACLIMB_QUEUE_TRACE" "$tmp/summary" "lab hostile" "$uuids" "$hog0"
[ -n "${KEEP_TRACE:-}" ] && cp "$CUDACLIMB_QUEUE_TRACE" "$KEEP_TRACE"

# The instructor's report, verified: bounded, and the forged pass refuted.
for f in $(ls "$res" 2>/dev/null | grep '^2004-'); do
	sed -i 's/"passed": *false/"passed": true/g; s/"verdict": *"[a-z_ ]*"/"verdict": "passed"/g; s/"at_lesson_size": *false/"at_lesson_size": true/g; s/"ratio": *[0-9.e+-]*/"ratio": 42/g' "$res/$f" 2>/dev/null
done
forged=$(grep -l '"passed": *true' "$res"/2004-* 2>/dev/null | head -1)
r0=$(date +%s%N)
timeout "$bound" "$bin" report "$tmp/course" --json --verify >"$tmp/report.json" 2>"$tmp/report.err"; rc=$?
rs=$(( ($(date +%s%N) - r0) / 1000000000 ))
if grep -qi "unknown option\|unrecognized option\|--verify" "$tmp/report.err" && [ $rc = 2 ]; then
	skip "lab hostile: report --verify is not in this build ($(head -1 "$tmp/report.err"))"; verdict="skipped"
elif [ $rc = 124 ]; then
	fail "lab hostile: report --json --verify did not finish within $bound s"; verdict="hung"
elif [ -z "$forged" ]; then
	fail "lab hostile: no forged record to check (mallory's try: $(tail -2 "$mh/try.log"))"; verdict="no forgery"
else
	[ $rc -le 1 ] && pass "lab hostile: report --json --verify finished in $rs s (bound $bound s, exit $rc)" || fail "lab hostile: report --verify exit $rc: $(head -3 "$tmp/report.err")"
	verdict=$(python3 - "$tmp/report.json" <<'PY'
import json, sys
try:
    d = json.load(open(sys.argv[1]))
except Exception as e:
    print("unreadable: %s" % e); sys.exit()
def cells(x):
    if isinstance(x, dict):
        if "verified" in x: yield x
        for v in x.values(): yield from cells(v)
    elif isinstance(x, list):
        for v in x: yield from cells(v)
st = [s for s in d.get("students", []) if s.get("uid") == 2004]
v = [c.get("verified") for s in st for c in cells(s)]
print("refuted" if "refuted" in v else "not refuted: %s" % (v or "no cell for uid 2004"))
PY
)
	[ "$verdict" = refuted ] && pass "lab hostile: the forged pass is marked \"verified\": \"refuted\"" || fail "lab hostile: the forged pass: $verdict"
fi

echo "lab hostile: summary"
printf '  %-22s %s\n' "students" "$students as 3 users, $runs runs each of $stage; hostile uid 2004"
printf '  %-22s %s\n' "runs finished" "$done_runs of $((students * runs)) ($bad_runs failed)"
printf '  %-22s %s\n' "wall time" "$((wall / 1000)).$((wall % 1000 / 100)) s"
printf '  %-22s %s\n' "GPUs" "$ngpu"
sed 's/^/  /' "$tmp/summary"
printf '  %-22s %s\n' "hog passed over after" "${after:-?} s (cap $cap s)"
printf '  %-22s %s\n' "FIFOs planted" "$planted"
printf '  %-22s %s\n' "report --verify" "$verdict (${rs:-?} s)"
