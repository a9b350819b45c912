#!/bin/sh
# The hostile lab of tests/gpu/lab_hostile.sh with the lab service (`cudaclimb serve`, issue 45):
# STUDENTS learners (default 30) as 3 local users (uids 2001-2003) each make RUNS timed runs (default
# 3) of LAB_STAGE through the service's GPU queue, and the first of each user one `try` of the
# stage's own kernel in a course that names the service; the service runs as its own account (uid
# 2010) and judges the tries. Meanwhile a hostile user (uid 2004) runs every attack at once: a hog on
# every GPU (a lease held for ever, again after the restart), a flood of connections, malformed
# requests, a request for another user's turn, bad submissions, a write into the store, a try whose
# source includes a file by absolute path. Halfway, the service is killed with -9 and started again
# (as systemd's Restart=always would).
# Asserts: every honest run finishes; no two traced holds on one GPU overlap, and every GPU of the box
# got holds (the students take the GPU with the shortest line); the hog is passed over within the cap
# (LAB_CAP, default 20 s) and a margin, on each GPU (the service's log names the GPU); every try kept by
# the service has its verdict in the store once, with nothing of the hostile user's passed; the report
# (read from the store) shows the three passes and marks nothing claimed. Prints the wall time, per GPU
# the holds and the longest and p99 wait, the hog per GPU, the verdicts lost and the service's memory
# last. KEEP_TRACE=FILE copies the trace of GPU holds to FILE (scripts/gpu-x2.sh). Needs a GPU and root
# (setpriv); else a visible SKIP line.
. tests/lib.sh
why=$($B device 2>&1); code=$?
if [ $code = 3 ]; then skip "lab service: $(printf '%s' "$why" | head -1)"; exit 0; fi
if [ $code != 0 ]; then fail "lab service: cudaclimb device exited $code: $why"; exit 0; fi
if [ "$(id -u)" != 0 ] || ! command -v setpriv >/dev/null; then skip "lab service: needs root (setpriv) for its five users"; exit 0; fi
students=${STUDENTS:-30}; runs=${RUNS:-3}; cap=${LAB_CAP:-20}
stage=${LAB_STAGE:-bandwidth/coalesced}
tmp=$(mktemp -d /tmp/cc-lsvc.XXXXXX)
chmod 755 "$tmp"
made=""; bg=""; svc=""; kept_trace=""
cleanup() {
	# stopped early (a caller's time limit): the trace so far, before the hogs' leases end in it
	[ -n "${KEEP_TRACE:-}" ] && [ -z "$kept_trace" ] && cp "$tmp/state/trace.log" "$KEEP_TRACE" 2>/dev/null
	for p in $bg $svc $(cat "$tmp/home/mallory/flood.pid" 2>/dev/null); do kill -9 "$p" 2>/dev/null; done
	[ -n "${KEEP:-}" ] || rm -rf "$tmp"
	for m in $made; do userdel "$m" 2>/dev/null; done
}
trap cleanup EXIT
trap 'exit 1' HUP INT TERM
if ! make --no-print-directory install PREFIX="$tmp/inst" >"$tmp/install.log" 2>&1; then fail "lab service: make install: $(tail -3 "$tmp/install.log")"; exit 0; fi
chmod -R a+rX "$tmp/inst"
bin=$tmp/inst/bin/cudaclimb
cuda=${CUDA_HOME:-/usr/local/cuda}
inc="-Isrc/core -Isrc/lesson -Isrc/cuda -Isrc/engine -Isrc/runner -Isrc/render -Isrc/worker -Isrc/app -I$cuda/include"
if ! cc -std=c11 -D_GNU_SOURCE $inc tests/lease_probe.c src/core/labwire.c src/worker/gpulease.c src/engine/exercise_submit.c src/core/util.c -o "$tmp/probe" 2>"$tmp/cc.log"; then
	fail "lab service: the probe did not build: $(head -3 "$tmp/cc.log")"; exit 0
fi
chmod 755 "$tmp/probe"
as() { u=$1; shift; setpriv --reuid="$u" --regid="$u" --clear-groups "$@"; }
for p in alice:2001 bob:2002 carol:2003 mallory:2004 cclab:2010; do
	getent passwd "${p#*:}" >/dev/null || { useradd -M -N -u "${p#*:}" "${p%:*}" 2>/dev/null && made="$made ${p%:*}"; }
done
sock=$tmp/run/cudaclimb.sock
mkdir -m 755 "$tmp/run"; chown 2010:2010 "$tmp/run"
install -d -o 2010 -g 2010 -m 700 "$tmp/state"
install -d -o 2010 -g 0 -m 2750 "$tmp/store"
cp -r assets/example-course "$tmp/course"
printf 'service: { socket: %s, store: %s }\n' "$sock" "$tmp/store" >>"$tmp/course/course.yaml"
chmod -R a+rX "$tmp/course"
cat >"$tmp/serve.yaml" <<EOF
socket: $sock
state: $tmp/state
trace: $tmp/state/trace.log
cap: $cap
judges: 2
per_user: 64
courses: [ $tmp/course ]
EOF
chmod 644 "$tmp/serve.yaml"
"$bin" serve --check --config "$tmp/serve.yaml" >"$tmp/check" 2>&1 || { fail "lab service: serve --check: $(cat "$tmp/check")"; exit 0; }
starts=0; : >"$tmp/serve.log"
start() {
	setpriv --reuid=2010 --regid=2010 --clear-groups env HOME="$tmp/state" "$bin" serve --foreground --config "$tmp/serve.yaml" >>"$tmp/serve.log" 2>&1 &
	svc=$!
	i=0; while [ $i -lt 100 ] && [ "$(grep -c listening "$tmp/serve.log")" -le "$starts" ]; do sleep 0.1; i=$((i + 1)); done
	starts=$((starts + 1))
}
hwm() { sed -n 's/^VmHWM:[[:space:]]*//p' "/proc/$svc/status" 2>/dev/null; }
start
grep -q listening "$tmp/serve.log" && pass "lab service: the service is up as uid 2010" || { fail "lab service: it did not start: $(cat "$tmp/serve.log")"; exit 0; }
uuids=$(nvidia-smi --query-gpu=uuid --format=csv,noheader | sed 's/^GPU-//; s/-//g' | tr 'A-F' 'a-f')
ngpu=$(printf '%s\n' $uuids | grep -c .)

# Each learner a home, compiled once before the clock starts.
i=0
while [ $i -lt "$students" ]; do
	u=$((2001 + i % 3)); h=$tmp/home/s$i; mkdir -p "$h"; echo $u >"$tmp/uid$i"; cp "kernels/$stage.cu" "$h/mine.cu"; i=$((i + 1))
done
as 2001 env HOME="$tmp/home/s0" XDG_CACHE_HOME="$tmp/home/s0/cache" "$bin" --course "$tmp/course" run "$stage" --reps 5 --no-counters >"$tmp/warm" 2>&1 || true
i=0; while [ $i -lt "$students" ]; do
	[ $i -gt 0 ] && cp -r "$tmp/home/s0/cache" "$tmp/home/s$i/" 2>/dev/null
	chown -R "$(cat "$tmp/uid$i")" "$tmp/home/s$i"; chmod 700 "$tmp/home/s$i"; i=$((i + 1))
done

# The hostile user, every attack at once.
mh=$tmp/home/mallory; mkdir -p "$mh"; chown 2004 "$mh"; chmod 700 "$mh"
hogs() { for g in $uuids; do setpriv --reuid=2004 --regid=2004 --clear-groups "$tmp/probe" hog "$sock" "$g" 100000 >/dev/null 2>>"$mh/hog.err" & bg="$bg $!"; done; }
hog0=$(date +%s%N)
hogs
sleep 1
g1=$(printf '%s\n' $uuids | head -1)
printf 'lease %s 1 for 2001\n' "$g1" | as 2004 "$tmp/probe" send "$sock" 3 >"$mh/forwho" 2>&1
head -c 100000 /dev/urandom | as 2004 "$tmp/probe" send "$sock" 3 >"$mh/noise" 2>&1
{ printf 'submit gpu_week3 %s 1\nfile ../../etc/x.cu 3\nabc' "$stage"; } | as 2004 "$tmp/probe" send "$sock" 3 >"$mh/badname" 2>&1
as 2004 sh -c "echo '{\"time\": 1, \"uid\": 2004, \"exercise\": \"$stage\", \"verdict\": \"passed\", \"passed\": true}' >'$tmp/store/2004-mallory.jsonl'" 2>/dev/null
forged_store=$(ls "$tmp/store")   # nothing: she cannot write there (the service's own file for her comes later)
mkdir -p "$mh/work"; cp "kernels/$stage.cu" "$mh/evil.cu"; sed -i '1i #include "/etc/passwd"' "$mh/evil.cu"; chown -R 2004 "$mh"
# the try first (its submission needs a connection of hers), then a flood of connections for the lab
(
	as 2004 env HOME="$mh" XDG_CACHE_HOME="$mh/cache" XDG_STATE_HOME="$mh/state" CUDACLIMB_WORK="$mh/work" \
		timeout 600 "$bin" --course "$tmp/course" try "$stage" "$mh/evil.cu" --no-counters --timeout 60 >"$mh/try.log" 2>&1
	setpriv --reuid=2004 --regid=2004 --clear-groups "$tmp/probe" conns "$sock" 500 600 >"$mh/conns" 2>/dev/null &
	echo $! >"$mh/flood.pid"
) &
mtry=$!

t0=$(date +%s%N)
pids=""
i=0; while [ $i -lt "$students" ]; do lab_learner $i --course "$tmp/course" & pids="$pids $!"; i=$((i + 1)); done
# Halfway (past the first cap, and while the judge holds a submission if one comes within a minute):
# the service killed with -9 and started again; the hostile user's hogs again.
sleep $((cap + 10))
i=0; while [ $i -lt 600 ] && [ -z "$(ls "$tmp/state/jobs" 2>/dev/null)" ]; do sleep 0.1; i=$((i + 1)); done
mem1=$(hwm)
kill -9 "$svc"; wait "$svc" 2>/dev/null
kept=$(ls "$tmp/state/jobs" 2>/dev/null | wc -l)
sleep 1
start
hogs
for p in $pids; do wait "$p"; done
t1=$(date +%s%N)
wall=$(( (t1 - t0) / 1000000 ))
wait $mtry 2>/dev/null
# the judges finish what was kept (within JUDGE_WAIT s, default 300)
i=0; while [ $i -lt "${JUDGE_WAIT:-300}" ] && [ -n "$(ls "$tmp/state/jobs" 2>/dev/null)" ]; do sleep 1; i=$((i + 1)); done
mem2=$(hwm)

done_runs=$(cat "$tmp"/home/s*/log | grep -c '^exit 0 ')
bad_runs=$(cat "$tmp"/home/s*/log | grep -c '^exit [^0]')
[ "$done_runs" = $((students * runs)) ] && [ "$bad_runs" = 0 ] && pass "lab service: every honest run finished ($done_runs of $((students * runs)), across a kill -9 of the service)" \
	|| { fail "lab service: $done_runs of $((students * runs)) runs finished, $bad_runs failed; before each failure:"; cat "$tmp"/home/s*/log | grep -B4 '^exit [^0]' | cut -c1-300 | sed 's/^/    /'; }
tries=$(cat "$tmp"/home/s*/log | grep -c '^try 0$')
[ "$tries" = 3 ] && pass "lab service: the three course tries passed" || fail "lab service: $tries of 3 course tries passed"
passed_note=$(cat "$tmp"/home/s*/log | grep -o "[^ ]*'s run has held the GPU for [0-9]* s, past the cap of [0-9]* s: passed over" | sort -t' ' -k7 -n | head -1)
after=$(printf '%s' "$passed_note" | sed -n 's/.*for \([0-9]*\) s, past.*/\1/p')
[ -n "$after" ] && [ "$after" -le $((cap + 10)) ] && pass "lab service: the hog is passed over after $after s (cap $cap s): $passed_note" \
	|| fail "lab service: the hog was not passed over within the cap ('$passed_note')"
grep -q "only the service's own judges may queue for another user" "$mh/forwho" && grep -q "error" "$mh/noise" && grep -q "a file's name is a relative path" "$mh/badname" \
	&& [ -z "$forged_store" ] && ! grep -q '"time": 1,' "$tmp"/store/*.jsonl && pass "lab service: the hostile user's requests were refused and the store stayed the service's" \
	|| fail "lab service: hostile requests: for another's turn: $(head -2 "$mh/forwho" | tr '\n' ' '); noise: $(head -2 "$mh/noise" | tr '\n' ' '); a bad name: $(head -2 "$mh/badname" | tr '\n' ' '); store: $(ls "$tmp/store")"
python3 scripts/lab-trace.py "$tmp/state/trace.log" "$tmp/summary" "lab service" "$uuids" "$hog0"
[ -n "${KEEP_TRACE:-}" ] && cp "$tmp/state/trace.log" "$KEEP_TRACE"; kept_trace=1
# The hog on each GPU: the service says whom it passed over, on which GPU, after how long.
hogline=""; hogok=1
for g in $uuids; do
	secs=$(grep -o "(uid 2004, pid [0-9]*) held GPU $g for [0-9]* s" "$tmp/serve.log" | sed 's/.* for \([0-9]*\) s$/\1/' | sort -n)
	first=$(printf '%s\n' $secs | head -1)
	times=$(printf '%s\n' $secs | grep -c .)
	hogline="$hogline${hogline:+; }$(printf '%.16s' "$g"): ${first:+after $first s, }$times time$([ "$times" = 1 ] || echo s)"
	[ -n "$first" ] && [ "$first" -le $((cap + 10)) ] || hogok=0
done
[ $hogok = 1 ] && pass "lab service: the hog is passed over on each of the $ngpu GPUs within the cap ($hogline)" \
	|| fail "lab service: the hog was not passed over within the cap on every GPU ($hogline)"
records=$(cat "$tmp"/store/*.jsonl 2>/dev/null | grep -c '"exercise"')
honest=$(cat "$tmp"/store/200[123]-*.jsonl 2>/dev/null | grep -c '"passed": true')
evil=$(cat "$tmp"/store/2004-*.jsonl 2>/dev/null | grep -c '"passed": true')
dups=$(cat "$tmp"/store/*.jsonl 2>/dev/null | grep -o '"job": "[^"]*"' | sort | uniq -d | wc -l)
# Verdicts lost: of the tries made (the honest ones and the hostile user's), those with no verdict in
# the store, and submissions left unjudged.
jobs=$(cat "$tmp"/store/*.jsonl 2>/dev/null | grep -o '"job": "[^"]*"' | sort -u | wc -l)
tried=$(( $(cat "$tmp"/home/s*/log | grep -c '^try ') + 1 ))
left=$(ls "$tmp/state/jobs" 2>/dev/null | wc -l)
lost=$(( (tried > jobs ? tried - jobs : 0) + left ))
[ "$honest" = 3 ] && [ "$evil" = 0 ] && [ "$kept" -ge 1 ] && [ "$dups" = 0 ] && [ -z "$(ls "$tmp/state/jobs")" ] \
	&& pass "lab service: the store holds the three passes once each, nothing of the hostile user passed, no submission left unjudged ($records records, $kept kept across the kill)" \
	|| fail "lab service: store: $honest honest passes, $evil hostile, $dups duplicated, jobs left: $(ls "$tmp/state/jobs" | wc -l); $(tail -5 "$tmp/serve.log")"
grep -q '"verdict": "compile_error"' "$tmp"/store/2004-*.jsonl 2>/dev/null && pass "lab service: the try including /etc/passwd by absolute path was judged a compile error" \
	|| fail "lab service: the absolute include: $(cat "$tmp"/store/2004-*.jsonl 2>/dev/null | cut -c1-200); $(tail -3 "$mh/try.log")"
"$bin" report "$tmp/course" >"$tmp/report" 2>&1; rc=$?
[ $rc = 0 ] && [ "$(grep -Ec '^(alice|bob|carol) .*passed' "$tmp/report")" = 3 ] && ! grep -qi claimed "$tmp/report" \
	&& pass "lab service: the report, read from the store, shows the three passes and claims nothing" || fail "lab service: report: exit $rc: $(head -12 "$tmp/report")"

echo "lab service: summary"
printf '  %-22s %s\n' "students" "$students as 3 users, $runs runs each of $stage; hostile uid 2004; the service killed -9 once"
printf '  %-22s %s\n' "runs finished" "$done_runs of $((students * runs)) ($bad_runs failed)"
printf '  %-22s %s\n' "wall time" "$((wall / 1000)).$((wall % 1000 / 100)) s"
printf '  %-22s %s\n' "GPUs" "$ngpu"
sed 's/^/  /' "$tmp/summary"
printf '  %-22s %s\n' "hog passed over after" "${after:-?} s (cap $cap s)"
printf '  %-22s %s\n' "hog per GPU" "$hogline"
printf '  %-22s %s\n' "verdicts lost" "$lost ($tried tries made, $jobs verdicts stored, $dups duplicated, $left left unjudged)"
printf '  %-22s %s\n' "service memory (HWM)" "${mem1:-?} before the kill, ${mem2:-?} after the restart"
printf '  %-22s %s\n' "store" "$records records; $kept submissions kept across the kill"
