#!/bin/sh
# The layer order as a rule (issue #33): the folder-level include graph, derived from the sources
# (every `#include "x.h"` of src/*/ and tui/, a header found by its name), has no edge that the
# Makefile's layers (`make layers`: each folder and the folders it may include from) do not allow, and
# no cycle; every header name is in one folder only (a header is named alone). Each offending include
# is printed as file:line. Then that the check and the build can fail: an include the wrong way put
# into a copy of the tree is found, and a compile with a lower layer's flags refuses it.
cd "$(dirname "$0")/../.." || exit 1
. tests/lib.sh
tmp=$(mktemp -d "${TMPDIR:-/tmp}/cudaclimb-layers.XXXXXX") || exit 1
trap 'rm -rf "$tmp"' EXIT INT TERM

if ! make -s --no-print-directory layers >"$tmp/layers" 2>"$tmp/make.err" || [ ! -s "$tmp/layers" ]; then
	fail "layers: make layers failed: $(head -n 1 "$tmp/make.err")"
	exit 0
fi

# check ROOT: prints one line per problem in the tree under ROOT ("file:line: ..."), nothing when clean.
check() {
	(cd "$1" && for d in $(cut -d: -f1 "$tmp/layers"); do
		for f in "$d"/*.h; do [ -f "$f" ] && echo "H $d ${f##*/}"; done
	done
	for d in $(cut -d: -f1 "$tmp/layers"); do
		for f in "$d"/*.c "$d"/*.h "$d"/*.cpp "$d"/*.cu; do
			[ -f "$f" ] && grep -n '^[[:space:]]*#[[:space:]]*include[[:space:]]*"' "$f" /dev/null |
				sed 's/^\([^:]*\):\([0-9]*\):[^"]*"\([^"]*\)".*/I \1 \2 \3/'
		done
	done) | awk -v layers="$tmp/layers" '
	function dfs(u, path,   k, v) {
		color[u] = 1
		for (k = 1; k <= nout[u]; k++) {
			v = out[u, k]
			if (color[v] == 1) { cycle = path " -> " v; return 1 }
			if (!color[v] && dfs(v, path " -> " v)) return 1
		}
		color[u] = 2
		return 0
	}
	BEGIN {
		while ((getline line < layers) > 0) {
			split(line, p, ": *"); dir = p[1]; dirs[dir] = 1
			n = split(p[2], s, " ")
			for (i = 1; i <= n; i++) sees[dir, s[i]] = 1
		}
	}
	$1 == "H" {
		if (($3 in home) && home[$3] != $2) { print $2 "/" $3 ": header name also in " home[$3] " (a header is named alone)"; bad = 1 }
		home[$3] = $2; next
	}
	$1 == "I" {
		file = $2; from = file; sub(/\/[^\/]*$/, "", from); h = $4
		if (h ~ /\//) h = substr(h, match(h, /[^\/]*$/))
		if (!(h in home) || home[h] == from) next
		to = home[h]
		if (!((from, to) in sees)) { print file ":" $3 ": includes " h " (" to "): " from " may include only from " allowed(from); bad = 1 }
		if (!((from, to) in edge)) { edge[from, to] = 1; out[from, ++nout[from]] = to; where[from, to] = file ":" $3 }
	}
	function allowed(d,   x, t) { t = ""; for (x in dirs) if ((d, x) in sees && x != d) t = t (t == "" ? "" : " ") x; return t == "" ? "nothing" : t }
	END {
		for (d in dirs) if (!color[d] && dfs(d, d)) { print "cycle: " cycle; bad = 1; break }
		for (a in dirs) for (b in dirs) if (a < b && ((a, b) in sees) && ((b, a) in sees)) { print "Makefile: " a " and " b " see each other (the layers must be an order)"; bad = 1 }
		exit bad
	}'
}

if check . >"$tmp/out"; then pass "layers: every include follows the Makefile's layer order, no cycle ($(wc -l <"$tmp/layers") folders)"
else fail "layers: includes against the layer order"; sed 's/^/    /' "$tmp/out"; fi

# The check can fail: a wrong-way include (lesson -> engine) in a copy of the tree is found at its line.
for d in $(cut -d: -f1 "$tmp/layers"); do mkdir -p "$tmp/tree/$d"; cp "$d"/*.[ch] "$tmp/tree/$d/" 2>/dev/null; done
n=$(wc -l <"$tmp/tree/src/lesson/expr.c")
echo '#include "engine.h"' >>"$tmp/tree/src/lesson/expr.c"
if check "$tmp/tree" >"$tmp/out2"; then fail "layers: a lesson file including engine.h passed the check"
elif grep -q "^src/lesson/expr.c:$((n + 1)): includes engine.h (src/engine)" "$tmp/out2"; then pass "layers: a wrong-way include is found at its file:line"
else fail "layers: a wrong-way include reported as"; sed 's/^/    /' "$tmp/out2"; fi
# ... and a cycle between two folders allowed to see each other is found too.
echo '#include "expr.h"' >>"$tmp/tree/src/core/util.h"
if check "$tmp/tree" >"$tmp/out3" || ! grep -q '^cycle: ' "$tmp/out3"; then fail "layers: a folder cycle (core <-> lesson) not reported"; sed 's/^/    /' "$tmp/out3"
else pass "layers: a folder cycle is reported ($(grep '^cycle: ' "$tmp/out3"))"; fi

# The build refuses a wrong-way include: with the lesson layer's include paths, engine.h is not found
# (and a header of its own layer is: the probe fails for the right reason).
cuda=${CUDA_HOME:-/usr/local/cuda}
inc=$(sed -n 's#^src/lesson: *##p' "$tmp/layers" | sed 's/\([^ ]*\)/-I\1/g')
printf '#include "plan.h"\n' >"$tmp/ok.c"
printf '#include "engine.h"\n' >"$tmp/bad.c"
# shellcheck disable=SC2086 # the include flags are split on purpose
if ! cc -std=c11 -D_GNU_SOURCE $inc -I"$cuda/include" -fsyntax-only "$tmp/ok.c" 2>"$tmp/cc.log"; then fail "layers: the lesson layer cannot include its own plan.h: $(head -n 1 "$tmp/cc.log")"
elif cc -std=c11 -D_GNU_SOURCE $inc -I"$cuda/include" -fsyntax-only "$tmp/bad.c" 2>"$tmp/cc.log"; then fail "layers: the lesson layer's flags let it include engine.h"
elif grep -q 'engine.h' "$tmp/cc.log"; then pass "layers: a wrong-way include fails to compile ($(grep -m 1 -o 'engine.h.*' "$tmp/cc.log"))"
else fail "layers: the wrong-way compile failed for another reason: $(head -n 1 "$tmp/cc.log")"; fi
