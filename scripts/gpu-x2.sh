#!/bin/bash
# Issue #50 in one call on a box of two GPUs (two H200s): build, then three parts, each bounded so that
# the whole stays under X2_DEADLINE seconds (540) and each GPU hold traced:
#   lab    the hostile lab through the lab service (tests/gpu/lab_hostile.sh with LAB_MODE=service),
#          STUDENTS learners (30) spread over the GPUs, a hog on each GPU;
#   class  a class of STUDENTS (scripts/class-bench.sh), spread over the GPUs;
#   bench  `cudaclimb --gpu 0,1 bench BENCH_LESSON` (bandwidth): a worker on each GPU.
# Prints a short table last: per part and GPU the holds, overlapping holds, longest and p99 wait
# (scripts/lab-trace.py on each part's trace, every GPU of the box expected to get holds); each part's
# wall time; the hog passed over per GPU; the verdicts lost; the FAIL lines. Logs and traces go to
# $OUT/r.tgz (or build/gpu-x2/r.tgz), the table also to $OUT/summary.txt. Exit 1 when anything failed.
# Usage, from the repository root (the box lacks the ncurses and libyaml headers; .deps has them):
#   source .deps/env.sh; bash scripts/gpu-x2.sh
# Without a GPU, or with fewer than two, a SKIP line and exit 0. CUDACLIMB_COMMIT=HASH names the commit
# where the box's .git is not the tree's (as in scripts/gpu-check.sh).
set -u
# the headers the box lacks, when the caller has not sourced them
[ -z "${PKG_CONFIG_SYSROOT_DIR:-}" ] && [ -f .deps/env.sh ] && . .deps/env.sh
FINAL=${OUT:-build/gpu-x2}
L=$(mktemp -d /tmp/gpu-x2.XXXXXX)
mkdir -p "$FINAL"
trap 'tar -czf "$FINAL/r.tgz" -C "$L" . 2>/dev/null; rm -rf "$L"' EXIT
export XDG_CACHE_HOME=${XDG_CACHE_HOME:-$(pwd)/build/cache} CUDACLIMB=build/cudaclimb B=build/cudaclimb
unset CUDACLIMB_LOCK_DIR CUDACLIMB_QUEUE_TRACE CUDACLIMB_SERVICE CUDACLIMB_COURSE
start=$(date +%s)
deadline=$((start + ${X2_DEADLINE:-540}))
students=${STUDENTS:-30}
lesson=${BENCH_LESSON:-bandwidth}
# the box's GPUs by UUID, as the traces write them (32 lower-case hex digits)
uuids=$(nvidia-smi --query-gpu=uuid --format=csv,noheader 2>/dev/null | sed 's/^GPU-//; s/-//g' | tr 'A-F' 'a-f' | grep -E '^[0-9a-f]{32}$')
ngpu=$(printf '%s\n' $uuids | grep -c .)
if [ "$ngpu" -lt 2 ]; then
	echo "SKIP gpu-x2: needs a box of two GPUs; nvidia-smi lists $ngpu$(command -v nvidia-smi >/dev/null || echo ' (no nvidia-smi)')" | tee "$FINAL/summary.txt"
	exit 0
fi
{
	if [ -n "${CUDACLIMB_COMMIT:-}" ]; then echo "commit $CUDACLIMB_COMMIT (as given: CUDACLIMB_COMMIT)"
	else echo "commit $(git -c safe.directory='*' rev-parse --short HEAD 2>/dev/null)$(git -c safe.directory='*' diff --quiet 2>/dev/null || echo ' (with uncommitted changes)')"; fi
	nvidia-smi --query-gpu=index,name,uuid,driver_version,clocks.sm,clocks.mem,temperature.gpu --format=csv,noheader
	echo "$(nproc) CPUs"
} | tee "$L/about.txt"
b0=$(date +%s)
if ! timeout 240 make -j"$(nproc | awk '{ print ($1 > 16 ? 16 : $1) }')" all >"$L/build.log" 2>&1; then echo "BUILD FAILED"; tail -30 "$L/build.log"; exit 1; fi
echo "built in $(( $(date +%s) - b0 )) s"
build/cudaclimb device >"$L/device.txt" 2>&1; code=$?
if [ $code = 3 ]; then echo "SKIP gpu-x2: $(head -1 "$L/device.txt")" | tee "$FINAL/summary.txt"; exit 0; fi

# part NAME CAP RESERVE COMMAND...: COMMAND with its output in $L/NAME.log, stopped after CAP seconds or
# what is left before the deadline less RESERVE (the later parts' share), whichever is less; its exit
# status, wall time (ms) and limit into $L/NAME.wall.
part() {
	name=$1 cap=$2 reserve=$3; shift 3
	t=$((deadline - $(date +%s) - reserve)); [ $t -gt "$cap" ] && t=$cap
	if [ $t -lt 20 ]; then echo "FAIL gpu-x2 $name: not run, $t s left before the deadline" | tee "$L/$name.log"; echo "- 0 $t" >"$L/$name.wall"; return; fi
	echo "gpu-x2: $name (at most $t s)"
	s0=$(date +%s%N)
	timeout -k 10 "$t" "$@" >"$L/$name.log" 2>&1; rc=$?
	echo "$rc $(( ($(date +%s%N) - s0) / 1000000 )) $t" >"$L/$name.wall"
	case $rc in 124|137) echo "FAIL gpu-x2 $name: stopped at its limit of $t s" >>"$L/$name.log";; esac
}
part lab 240 115 env LAB_MODE=service STUDENTS="$students" KEEP_TRACE="$L/lab.trace" JUDGE_WAIT=90 sh tests/gpu/lab_hostile.sh
part class 150 55 env STUDENTS="$students" KEEP_TRACE="$L/class.trace" scripts/class-bench.sh
mkdir -p "$L/locks"; : >"$L/bench.trace"
part bench 90 10 env CUDACLIMB_LOCK_DIR="$L/locks" CUDACLIMB_QUEUE_TRACE="$L/bench.trace" \
	sh -c 'exec build/cudaclimb --gpu 0,1 bench "$1" --json >"$2"' sh "$lesson" "$L/bench.json"

# Each part's trace read the same way, every GPU of the box expected to get holds.
for p in lab class bench; do
	if [ -f "$L/$p.trace" ]; then python3 scripts/lab-trace.py "$L/$p.trace" "$L/$p.sum" "gpu-x2 $p" "$uuids" >"$L/$p.check" 2>&1
	else echo "FAIL gpu-x2 $p: no trace kept" >"$L/$p.check"; : >"$L/$p.sum"; fi
done
python3 - "$L" "$lesson" "$(( $(date +%s) - start ))" >"$L/summary.txt" <<'PY'
import json, os, re, sys
L, lesson, total = sys.argv[1], sys.argv[2], int(sys.argv[3])
def read(name):
    try:
        return open(os.path.join(L, name), errors="replace").read()
    except OSError:
        return ""
def grab(text, pat):
    m = re.search(pat, text, re.M)
    return re.sub(r"\s+", " ", m.group(1).strip()) if m else "?"
about = read("about.txt").splitlines()
names = sorted(set(l.split(", ")[1] for l in about[1:] if l.count(", ") >= 3))
print("== gpu-x2 (issue #50): %d GPUs (%s), %s; %d s in all" % (sum(1 for l in about[1:] if l.count(", ") >= 3), " / ".join(names), about[0] if about else "?", total))
print("%-6s %6s %8s  %-16s %6s %12s %13s %9s" % ("part", "limit", "wall", "GPU", "holds", "overlapping", "longest wait", "p99 wait"))
gpu_re = re.compile(r"^GPU (\S+)\s+(\d+) holds\s+(\d+) overlapping, longest wait ([\d.]+) s, p99 ([\d.]+) s")
for p in ("lab", "class", "bench"):
    w = read(p + ".wall").split()
    rc, ms, lim = (w + ["?", "0", "?"])[:3]
    wall = "%.1f s" % (int(ms) / 1000) if ms.isdigit() and rc != "-" else "not run"
    rows = [gpu_re.match(l) for l in read(p + ".sum").splitlines()]
    rows = [m for m in rows if m] or [None]
    for i, m in enumerate(rows):
        head = ("%-6s %6s %8s" % (p, lim + " s", wall)) if i == 0 else " " * 22
        print("%s  %-16s %6s %12s %11s s %7s s" % ((head,) + (m.groups() if m else ("(no trace)", "-", "-", "-", "-"))))
lab, cls = read("lab.log"), read("class.log")
print("lab: exit %s; the students' wall time %s; runs finished %s" % (read("lab.wall").split()[0] if read("lab.wall") else "?",
      grab(lab, r"^  wall time\s+(.*)$"), grab(lab, r"^  runs finished\s+(.*)$")))
print("class: exit %s; %s; %s" % (read("class.wall").split()[0] if read("class.wall") else "?",
      grab(cls, r"^(total wall time .*)$"), grab(cls, r"^(holds traced .*)$")))
print("hog passed over per GPU (lab): %s" % grab(lab, r"^  hog per GPU\s+(.*)$"))
print("verdicts lost (lab): %s" % grab(lab, r"^  verdicts lost\s+(.*)$"))
try:
    res = json.loads(read("bench.json"))["results"]
except Exception as e:
    res = None
    print("bench %s: no JSON (%s)" % (lesson, str(e)[:80]))
if res is not None:
    st, by = {}, {}
    for r in res:
        st[r.get("status")] = st.get(r.get("status"), 0) + 1
        by[r.get("runner") or "?"] = by.get(r.get("runner") or "?", 0) + 1
    # a verdict is lost when a result says nothing of its kernel: no GPU answered, or the worker failed
    print("bench %s: %d results, %s; by worker %s; verdicts lost: %d" % (lesson, len(res),
          ", ".join("%s %d" % kv for kv in sorted(st.items())), ", ".join("%s %d" % kv for kv in sorted(by.items())),
          sum(n for s, n in st.items() if s in ("no_gpu", "runner_error", None))))
lines = []
for f in ("lab.log", "class.log", "bench.log", "lab.check", "class.check", "bench.check"):
    lines += [l for l in read(f).splitlines() if l.startswith(("PASS", "FAIL", "SKIP"))]
fails = [l for l in lines if l.startswith("FAIL")]
for p in ("class", "bench"):   # their exit status is their verdict
    w = read(p + ".wall").split()
    if w and w[0] not in ("0", "-", "124", "137"):
        fails.append("FAIL gpu-x2 %s: exit %s (%s)" % (p, w[0], p + ".log"))
print("checks: %d passed, %d failed, %d skipped" % (sum(l.startswith("PASS") for l in lines), len(fails), sum(l.startswith("SKIP") for l in lines)))
for l in fails:
    print("  " + l[:300])
PY
cp "$L/summary.txt" "$FINAL/summary.txt"
echo
cat "$L/summary.txt"
! grep -q '^  FAIL' "$L/summary.txt"
