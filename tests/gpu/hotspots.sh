#!/bin/sh
# GPU test of the hotspot pass (run --hotspots: CUPTI's PC sampling after the timed runs): in
# transpose/tile, whose tile[tx][ty] read conflicts 32 ways on shared-memory banks, the line that
# reads shared memory has more samples than the line that reads global memory, and its top stall
# reasons name shared memory (short scoreboard or MIO throttle); sgemm/warptile gets a hotspot view;
# without permission the report says so in one line. With $OUT set (and tmux), the CLI reports and
# the terminal interface's heat column for both stages at 100x30 are written there as text files.
# Without a GPU this prints one visible SKIP line.
. tests/lib.sh
why=$($B device 2>&1); code=$?
if [ $code = 3 ]; then skip "hotspots gpu tests: $(printf '%s' "$why" | head -1)"; exit 0; fi
if [ $code != 0 ]; then fail "hotspots: cudaclimb device exited $code: $why"; exit 0; fi
if ! command -v python3 >/dev/null; then fail "hotspots: python3 is needed to read the JSON results"; exit 0; fi
tmp=$(mktemp -d); trap 'rm -rf "$tmp"' EXIT

$B run transpose/tile --hotspots --reps 5 --timeout 60 --json >"$tmp/tile.json" 2>"$tmp/tile.err"
$B run sgemm/warptile --hotspots --reps 3 --timeout 60 --json >"$tmp/warptile.json" 2>"$tmp/warptile.err"
python3 - "$tmp/tile.json" "$tmp/warptile.json" <<'PY' || fail "hotspots: the results could not be read"
import json, re, sys
def load(path):
    try:
        return json.load(open(path))["results"][0]
    except Exception as e:
        return {"status": "unreadable", "message": str(e)}
def check(name, ok, detail=""):
    print(("PASS" if ok else "FAIL") + " hotspots gpu: " + name + ("" if ok else ": " + detail))
tile, warp = load(sys.argv[1]), load(sys.argv[2])
h = tile.get("hotspots") or {}
check("transpose/tile ran", tile.get("status") == "ok", "%s %s" % (tile.get("status"), tile.get("message")))
check("transpose/tile was sampled", "why" not in h and h.get("samples", 0) > 0, str(h.get("why", h))[:300])
if "why" not in h and h.get("samples", 0) > 0:
    lines = h["lines"]
    shared = [l for l in lines if re.search(r"=\s*tile\[tx\]\[ty\];", l["text"]) and not l["text"].lstrip().startswith(("/*", "*"))]
    glob = [l for l in lines if re.search(r"tile\[ty\]\[tx\]\s*=\s*in\[", l["text"])]
    s = shared[0] if shared else None
    g = glob[0] if glob else {"samples": 0, "share": 0}
    check("the shared-memory read line has samples", s is not None, "lines: %s" % [(l["line"], l["samples"]) for l in lines])
    if s:
        check("... more than the global read line (%d%% against %d%%)" % (100 * s["share"], 100 * g["share"]),
              s["samples"] > g["samples"], "shared %d, global %d" % (s["samples"], g["samples"]))
        top = [st["reason"] for st in s["stalls"][:3]]
        check("... its top stall reasons name shared memory (%s)" % ", ".join(top),
              any(r in ("short_scoreboard", "mio_throttle") for r in top) and
              any("shared memory" in st["words"] or "MIO" in st["words"] for st in s["stalls"][:3]), str(s["stalls"][:3]))
    check("its instructions carry samples and offsets", any(i["samples"] > 0 and i["text"] for i in h["instructions"]), str(h["instructions"][:3]))
    # Each share is printed to 4 decimals, so n of them may add up to 1 + n * 0.00005 and no more.
    check("the shares add up to at most 1 (within the rounding of %d printed shares)" % len(lines),
          sum(l["share"] for l in lines) <= 1 + 0.00005 * len(lines) + 1e-9, str(sum(l["share"] for l in lines)))
w = warp.get("hotspots") or {}
check("sgemm/warptile ran", warp.get("status") == "ok", "%s %s" % (warp.get("status"), warp.get("message")))
check("sgemm/warptile has a hotspot view", "why" not in w and w.get("samples", 0) > 0 and len(w.get("lines", [])) > 0
      and len(w.get("instructions", [])) > 0, str(w.get("why", w))[:300])
if w.get("lines"):
    hot = max(w["lines"], key=lambda l: l["samples"])
    print("PASS hotspots gpu: sgemm/warptile's hottest line: %d (%.0f%%) %s: %s" % (hot["line"], 100 * hot["share"], hot["text"].strip()[:60],
          ", ".join("%s %.0f%%" % (st["reason"], 100 * st["share"]) for st in hot["stalls"][:3])))
PY

# Without permission (simulated before CUPTI is loaded), one line says what to do.
CUDACLIMB_FAKE_CUPTI_ERROR=35 $B run transpose/tile --hotspots --no-counters --reps 3 >"$tmp/perm" 2>&1
grep -q "^Hotspots of transpose/tile: program-counter sampling needs permission: .*NVreg_RestrictProfilingToAdminUsers=0" "$tmp/perm" \
	&& pass "hotspots gpu: no permission: said in one line" || { fail "hotspots gpu: no permission"; tail -5 "$tmp/perm" | sed 's/^/    /'; }

[ -n "${OUT:-}" ] || exit 0
mkdir -p "$OUT"
$B run transpose/tile --hotspots --no-counters --reps 5 >"$OUT/cli-hotspots-transpose-tile.txt" 2>&1
$B run sgemm/warptile --hotspots --no-counters --reps 3 >"$OUT/cli-hotspots-sgemm-warptile.txt" 2>&1
if ! command -v tmux >/dev/null; then skip "hotspots gpu: tmux is not installed: no captures of the terminal interface"; exit 0; fi

# The terminal interface at 100x30: H on a stage, the heat beside the source, then the SASS view.
sock=cc-hot-$$
cap() { tmux -L $sock capture-pane -p -t cc >"$OUT/$1"; }
waitfor() { i=0; while [ $i -lt $(( ${2:-60} * 10 )) ]; do tmux -L $sock capture-pane -p -t cc | grep -qE -- "$1" && return 0; sleep 0.1; i=$((i + 1)); done; return 1; }
tui() {   # tui NAME LESSON-TITLE LESSON STAGE: down the list to the lesson, n up its ladder to the stage, H
	tmux -L $sock kill-server 2>/dev/null
	tmux -L $sock -f /dev/null new-session -d -s cc -x 100 -y 30 "env LANG=C.UTF-8 TERM=xterm-256color XDG_STATE_HOME=$tmp/state-$1 $B; sleep 30"
	waitfor "$2" 20
	i=0; while [ $i -lt 20 ] && ! tmux -L $sock capture-pane -p -t cc | grep -q "▸.*$2"; do tmux -L $sock send-keys -t cc j; sleep 0.1; i=$((i + 1)); done
	tmux -L $sock send-keys -t cc Enter
	waitfor "$3 [0-9]+/[0-9]+" 20
	i=0; while [ $i -lt 12 ] && ! tmux -L $sock capture-pane -p -t cc | grep -qE "$3 [0-9]+/[0-9]+ +$4:"; do tmux -L $sock send-keys -t cc n; sleep 0.3; i=$((i + 1)); done
	tmux -L $sock send-keys -t cc H
	if waitfor "hotspots: [0-9]+ samples" 60; then pass "hotspots gpu: TUI $1: the heat column came"; else fail "hotspots gpu: TUI $1: no heat column"; fi
	tmux -L $sock send-keys -t cc Tab z
	sleep 0.5
	cap "tui-hotspots-$1-source.txt"
	tmux -L $sock send-keys -t cc z v v
	waitfor "SASS .*instr" 60
	tmux -L $sock send-keys -t cc z
	sleep 0.5
	cap "tui-hotspots-$1-sass.txt"
	tmux -L $sock send-keys -t cc q
	tmux -L $sock kill-server 2>/dev/null
}
tui transpose-tile "Matrix transpose" transpose tile
tui sgemm-warptile "FP32 matrix multiply" sgemm warptile
