#!/bin/sh
# ncu-compare: our counter values (a kv file) next to Nsight Compute's for the same kernels.
#
#   scripts/ncu-compare.sh --kv ours.kv [--metrics m1,m2,...] [--kernels k1,k2] [--map label=k1+k2]
#                          [--tolerance PCT] [--strict] [--ncu-csv FILE] -- COMMAND [ARGS...]
#
# ours.kv holds "label metric value" lines (tests/gpu/counters_check --kv writes them), or is JSON:
# {"label": {"metric": value, ...}, ...}. A label is a kernel's base name, or --map names the kernels one label's range covered. COMMAND
# is run under ncu and must not use CUPTI itself (counters_check --plain). ncu runs with
# --clock-control none --cache-control none, as our profiler does: no clock locking, no cache flushes.
# Several ncu launches of one kernel, or several kernels of one label, are combined as our range
# combines them: .sum metrics add up, the others are averaged (unweighted: only a guide).
# Prints one row per (label, metric): ours, ncu, and the relative difference; rows beyond the tolerance
# (default 5%) are marked '!'. With --strict the exit status is 1 when any row is marked.
# --ncu-csv FILE reuses a CSV saved from an earlier run (ncu --csv --print-units base ...).
set -eu

kv='' metrics='' kernels='' maps='' tol=5 strict=0 csv=''
NCU=${NCU:-ncu}
while [ $# -gt 0 ]; do
	case $1 in
	--kv) kv=$2; shift 2 ;;
	--metrics) metrics=$2; shift 2 ;;
	--kernels) kernels=$2; shift 2 ;;
	--map) maps="$maps $2"; shift 2 ;;
	--tolerance) tol=$2; shift 2 ;;
	--strict) strict=1; shift ;;
	--ncu-csv) csv=$2; shift 2 ;;
	--) shift; break ;;
	-h|--help) sed -n '2,18p' "$0" | sed 's/^# \{0,1\}//'; exit 0 ;;
	*) echo "ncu-compare: unknown option $1 (see --help)" >&2; exit 2 ;;
	esac
done
if [ -z "$kv" ] || [ ! -r "$kv" ]; then
	echo "ncu-compare: --kv FILE is needed and must be readable" >&2
	exit 2
fi
if [ -z "$metrics" ]; then
	metrics=$(python3 -c '
import json, sys
t = open(sys.argv[1]).read()
if t.lstrip().startswith("{"):
    names = {m for v in json.loads(t).values() for m in (v or {})}
else:
    names = {l.split()[1] for l in t.splitlines() if len(l.split()) >= 3}
print(",".join(sorted(names)))' "$kv")
fi
[ -n "$metrics" ] || { echo "ncu-compare: no metrics (none in $kv and no --metrics)" >&2; exit 2; }

if [ -z "$csv" ]; then
	[ $# -gt 0 ] || { echo "ncu-compare: give the command to profile after --" >&2; exit 2; }
	csv=$(mktemp "${TMPDIR:-/tmp}/ncu-compare.XXXXXX")
	trap 'rm -f "$csv"' EXIT
	set -- --clock-control none --cache-control none --print-kernel-base function --print-units base \
		--csv --metrics "$metrics" "$@"
	if [ -n "$kernels" ]; then
		set -- -k "regex:^($(echo "$kernels" | tr ',' '|'))\$" "$@"
	fi
	# ncu prints its own "==PROF==" lines and the program's output to stdout; keep only CSV rows.
	"$NCU" "$@" | grep '^"' >"$csv" || { echo "ncu-compare: ncu produced no CSV rows" >&2; exit 1; }
fi

python3 - "$kv" "$csv" "$metrics" "$tol" "$strict" "$maps" <<'EOF'
import csv, math, sys
kv_path, csv_path, metrics, tol, strict = sys.argv[1:6]
tol = float(tol)
wanted = [m for m in metrics.split(",") if m]
label_kernels = {}
for m in sys.argv[6].split():
    label, _, ks = m.partition("=")
    label_kernels[label] = ks.split("+")

ours = {}
text = open(kv_path).read()
if text.lstrip().startswith("{"):
    import json   # {"label": {"metric": value, ...}, ...}
    for label, vals in json.loads(text).items():
        for metric, v in (vals or {}).items():
            if isinstance(v, (int, float)):
                ours[(label, metric)] = float(v)
else:
    for line in text.splitlines():
        f = line.split()
        if len(f) >= 3:
            try:
                ours[(f[0], f[1])] = float(f[2])
            except ValueError:
                pass

theirs = {}   # (kernel, metric) -> list of values, one per launch
with open(csv_path, newline="") as fh:
    rows = csv.reader(fh)
    head = next(rows, None)
    if not head or "Metric Name" not in head:
        sys.exit("ncu-compare: %s is not ncu --csv output" % csv_path)
    ki, mi, vi = head.index("Kernel Name"), head.index("Metric Name"), head.index("Metric Value")
    for row in rows:
        if len(row) <= max(ki, mi, vi):
            continue
        try:
            v = float(row[vi].replace(",", ""))
        except ValueError:
            continue
        theirs.setdefault((row[ki].split("(")[0], row[mi]), []).append(v)

def combine(metric, vals):
    if not vals:
        return None
    return sum(vals) if metric.endswith(".sum") else sum(vals) / len(vals)

labels = sorted({l for (l, _) in ours})
w = max([len(m) for m in wanted] + [6])
print("%-18s %-*s %14s %14s %9s" % ("label", w, "metric", "ours", "ncu", "diff"))
marked = 0
for label in labels:
    for metric in wanted:
        a = ours.get((label, metric))
        vals = []
        for k in label_kernels.get(label, [label]):
            vals += theirs.get((k, metric), [])
        b = combine(metric, vals)
        if a is None and b is None:
            continue
        if a is None or b is None or math.isnan(a):
            d, mark = "-", " "
        else:
            r = abs(a - b) / abs(b) * 100 if b else (0.0 if a == 0 else math.inf)
            mark = "!" if r > tol and abs(a - b) > 1e-9 else " "
            marked += mark == "!"
            d = "%8.1f%%" % r
        fa = "-" if a is None else "%.6g" % a
        fb = "-" if b is None else "%.6g" % b
        print("%-18s %-*s %14s %14s %9s %s" % (label, w, metric, fa, fb, d, mark))
print("%d row(s) beyond %g%%" % (marked, tol))
sys.exit(1 if strict == "1" and marked else 0)
EOF
