#!/bin/sh
# A diagnosis of tests/fixtures/conv1d's pipeline stage, sometimes wrong at n = 7 (index 0): the same
# run repeated, then with all chunks on one stream, then with the first copy on that stream too.
# Prints one line per variant: how many of N runs were wrong, and the first message.
set -u
cd "$(dirname "$0")/.." || exit 2
B=build/cudaclimb
t=$(mktemp -d); trap 'rm -rf "$t"' EXIT
cp -r tests/fixtures/conv1d "$t/a"
sed -i 's/STREAMS: { values: \[2, 3, 4\], default: 4 }/STREAMS: { values: [1, 2, 3, 4], default: 4 }/' "$t/a/lessons/conv1d.yaml"
cp -r "$t/a" "$t/b"
sed -i 's/      - copy: { dst: h_x, src: x }/      - copy: { dst: h_x, src: x, stream: 1 }/' "$t/b/lessons/conv1d.yaml"
try() {   # NAME TREE N SETTINGS...
	name=$1 tree=$2 n=$3; shift 3
	bad=0 first=""
	i=0; while [ $i -lt "$n" ]; do
		out=$($B --lessons "$tree" run conv1d/pipeline "$@" --no-counters --reps 3 --json 2>&1)
		st=$(printf '%s' "$out" | python3 -c 'import json,sys
try:
    d=json.load(sys.stdin); r=d["results"][0]; print(r["status"], r.get("message","")[:150])
except Exception as e: print("nojson", e)' 2>&1)
		case $st in ok*) ;; *) bad=$((bad + 1)); [ -z "$first" ] && first=$st ;; esac
		i=$((i + 1))
	done
	printf '%-44s %2d of %2d wrong  %s\n' "$name" "$bad" "$n" "$first"
}
try "as written, n=7 R=64" "$t/a" 6 --set n=7 --set R=64
try "as written, n=7 R=8" "$t/a" 6 --set n=7
try "one stream (STREAMS=1), n=7 R=64" "$t/a" 6 --set n=7 --set R=64 --set STREAMS=1
try "one stream, first copy on it too, n=7 R=64" "$t/b" 6 --set n=7 --set R=64 --set STREAMS=1
try "as written, n=1000 R=64" "$t/a" 4 --set n=1000 --set R=64
