#!/bin/sh
# GPU test of format v2 on the tests/fixtures/v2 lesson (written from lessons/README.md alone): every
# stage (copies around a kernel from pageable memory; a chunked pipeline on two streams from pinned
# memory with constants; 2D and 1D textures; a -rdc parent launching child grids) must run and match the
# serial stage, at the default size and at a small odd one (w 37, h 5: the last chunks empty, edges
# clamped). At the default size the pipeline's steps must run on streams 1 and 2 and its result carry
# the copied bytes and a bound. Without a GPU this prints one visible SKIP line.
. tests/lib.sh
why=$($B device 2>&1); code=$?
if [ $code = 3 ]; then skip "v2demo gpu tests: $(printf '%s' "$why" | head -1)"; exit 0; fi
if [ $code != 0 ]; then fail "v2demo: cudaclimb device exited $code: $why"; exit 0; fi
if ! command -v python3 >/dev/null; then fail "v2demo: python3 is needed to read the JSON results"; exit 0; fi
tmp=$(mktemp -d); trap 'rm -rf "$tmp"' EXIT

for sets in "" "--set w=37 --set h=5 --set R=3"; do
	# shellcheck disable=SC2086 # the settings are split on purpose
	$B --lessons tests/fixtures/v2 bench v2demo $sets --reps 3 --timeout 120 --json >"$tmp/v2.json" 2>"$tmp/v2.err"
	out=$(python3 - "$tmp/v2.json" "${sets:-default size}" <<'PY'
import json, sys
label = sys.argv[2]
try:
    got = {r["stage"]: r for r in json.load(open(sys.argv[1]))["results"]}
except Exception as e:
    print("FAIL v2demo (%s): no JSON results (%s)" % (label, e)); sys.exit(0)
for stage in ("serial", "pipeline", "texture", "dynamic"):
    r = got.get(stage)
    if r is None:
        print("FAIL v2demo %s (%s): no result" % (stage, label)); continue
    ok = r["status"] == "ok" and (stage == "serial" or (r["checked"] and r["passed"]))
    if not ok:
        print("FAIL v2demo %s (%s): %s, checked %s, passed %s, %s bad from index %s: %s" % (stage, label, r["status"],
              r.get("checked"), r.get("passed"), r.get("bad_count"), r.get("first_bad"), r.get("message")))
        continue
    print("PASS v2demo %s (%s): %s" % (stage, label, "ran" if stage == "serial" else "matches the serial stage"))
p = got.get("pipeline")
if p and label == "default size" and p["status"] == "ok":
    steps = p.get("steps") or []
    copies = {s.get("stream") for s in steps if s.get("kind") == "copy"}
    kernels = {s.get("stream") for s in steps if s.get("kind") == "launch"}
    dirs = {s.get("dir") for s in steps if s.get("kind") == "copy"}
    if copies == {1, 2} and kernels == {1, 2} and dirs == {"h2d", "d2h"}:
        print("PASS v2demo pipeline: copies and kernels on streams 1 and 2, both directions")
    else:
        print("FAIL v2demo pipeline: copy streams %s, kernel streams %s, directions %s" % (sorted(copies), sorted(kernels), sorted(dirs)))
    want = 4.0 * 256 * 1000
    if p.get("h2d_bytes") == want and p.get("d2h_bytes") == want and (p.get("bound_ms") or 0) > 0:
        print("PASS v2demo pipeline: %g bytes each way, bound %.3f ms" % (want, p["bound_ms"]))
    else:
        print("FAIL v2demo pipeline: h2d %s, d2h %s bytes (want %g), bound %s ms" % (p.get("h2d_bytes"), p.get("d2h_bytes"), want, p.get("bound_ms")))
PY
)
	printf '%s\n' "$out"
	case $out in *FAIL*) head -5 "$tmp/v2.err" | sed 's/^/    /' ;; esac
done
