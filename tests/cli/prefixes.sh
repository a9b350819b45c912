#!/bin/sh
# File name = function prefix (issue #33): every function that a file of src/ or tui/ exports (a
# global text symbol of its object in build/obj, read with nm) starts with the file's prefix, so that
# a newcomer finds where a function lives from its name. A file's prefix is its base name
# (runner_worker.c: runner_worker_*), or that name less a leading word naming its folder
# (tui/tui_stage.c: stage_*, src/lesson/lesson_yaml.c: yaml_* or lesson_yaml_*); a function may also
# be the prefix itself (sha256). The table below lists the agreed other prefixes, each with its
# reason; an entry with no reason, for a file that is gone, or that no function uses is an error too.
# Then that the check can fail: an object with a function named after nothing is found.
cd "$(dirname "$0")/../.." || exit 1
. tests/lib.sh
OBJ=${BUILD:-build}/obj
tmp=$(mktemp -d "${TMPDIR:-/tmp}/cudaclimb-prefixes.XXXXXX") || exit 1
trap 'rm -rf "$tmp"' EXIT INT TERM

# FILE  PREFIX...  -- REASON: the prefixes FILE's functions may carry besides its own.
cat >"$tmp/aliases" <<'EOF'
src/core/util.c            xmalloc xcalloc xrealloc xstrdup xstrndup xasprintf sb file dir xdg data_root exe_dir mkdir_p notice now_ms rtrim strfmt fnv1a fput_clean -- the small helpers every file uses, named like the libc calls they stand beside (xmalloc, the string builder sb_, file_read)
src/core/result.c          run_result run_step run_steps run_status run_findings diag peak traffic field -- the result types, each function named after its type (result.h declares them all)
src/core/yamldoc.c         yd -- yamldoc's short prefix: every parser calls it on most lines
src/cuda/compile_parse.c   compile -- compile.c's pure half (the compiler's output read back), split off to be fuzzed alone
src/engine/engine_setup.c  engine -- engine.h's set-up functions (engine_new, engine_free, engine_device, ...), named for their callers
src/engine/exercise_kind.c ex -- the exercise module's prefix (exercise.h), split by job over exercise_*.c
src/engine/exercise_try.c  ex -- the exercise module's prefix (exercise.h), split by job over exercise_*.c
src/engine/exercise_work.c ex -- the exercise module's prefix (exercise.h), split by job over exercise_*.c
src/engine/exercise_submit.c ex -- the exercise module's prefix (exercise.h), split by job over exercise_*.c
src/render/hotspots_map.c  hot -- the hotspot samples' short prefix (hotspots_map.h), shared with report_hotspots.c's hot_view_
src/render/report_hotspots.c hot_view -- the hotspots report's view of hotspots_map.c's samples
src/render/report_sass.c   sass_tag -- the SASS report's class tags, beside sass.c's sass_ names
src/engine/occupancy.c     occ -- occupancy's short prefix
src/engine/sanitize.c      san -- the sanitizer module's short prefix (sanitize.h)
src/lesson/claim_names.c   claims diagnose_names -- the names half of claims (claims.h's claims_), below the engine so that lessons can check them
src/lesson/plan_edge.c     plan -- plan.c's edge cases, split off plan.c (plan.h declares them)
src/runner/runner_ssh.c    runner -- a runner back end: runner.h declares its functions with runner_
src/worker/baseline_cudnn.c cudnn -- named after the library each baseline calls
src/worker/baseline_npp.c  npp -- named after the library each baseline calls
src/worker/baseline_cusparse.c cusparse -- named after the library each baseline calls
src/worker/baseline_cublaslt.c cublaslt -- named after the library each baseline calls
src/worker/baseline_sdpa.c cudnn_sdpa -- named after the library each baseline calls
src/worker/cub_reduce.cu   cc_cub_reduce -- extern "C" from nvcc's code: cc_ keeps it apart from CUB's own names
src/worker/cub_histogram.cu cc_cub_histogram -- extern "C" from nvcc's code, as cub_reduce.cu
src/worker/cub_scan.cu     cc_cub_exclusive -- extern "C" from nvcc's code, as cub_reduce.cu
src/worker/gemm_scale.cu   cc_gemm -- extern "C" from nvcc's code, as cub_reduce.cu
src/worker/read_bw.cu      cc_read_bw cc_read_evict -- extern "C" from nvcc's code: cc_ keeps it apart from CUDA's own names
src/worker/launch_hold.cu  cc_launch_hold -- extern "C" from nvcc's code, as read_bw.cu
src/worker/gpu_data.c      gpu -- the worker's GPU module (gpu.h), split by job over gpu_*.c
src/worker/gpu_device.c    gpu -- the worker's GPU module (gpu.h), split by job over gpu_*.c
src/worker/gpu_occupancy.cpp gpu -- the worker's GPU module (gpu.h), split by job over gpu_*.c
src/app/class_report.c     class_table class_cell_at class_cell_status_name class_fold -- the table every report of a class is made from, and what a cell folds of some records (class_fold), named after their types (class_report.h)
src/app/cli_cache.c        cmd -- a subcommand: cmd_NAME runs `cudaclimb NAME` (cli_cmd.h lists which file has it)
src/app/cli_course.c       cmd -- a subcommand: cmd_NAME runs `cudaclimb NAME` (cli_cmd.h lists which file has it)
src/app/cli_exercise.c     cmd -- a subcommand: cmd_NAME runs `cudaclimb NAME` (cli_cmd.h lists which file has it)
src/app/cli_queue.c        cmd -- a subcommand: cmd_NAME runs `cudaclimb NAME` (cli_cmd.h lists which file has it)
src/app/cli_tune.c         cmd -- a subcommand: cmd_NAME runs `cudaclimb NAME` (cli_cmd.h lists which file has it)
src/app/cli_profile.c      cmd -- a subcommand: cmd_NAME runs `cudaclimb NAME` (cli_cmd.h lists which file has it)
src/app/cli_serve.c        cmd -- a subcommand: cmd_NAME runs `cudaclimb NAME` (cli_cmd.h lists which file has it)
tui/tui_app.c              tui_run -- the front end's one entry point (tui.h), named after its folder
tui/tui_exercise_text.c    exercise -- exercise mode's pure text, declared with its model in tui_exercise.h
tui/tui_pane_explain.c     pane_reading -- the explanation on the whole screen (o): the same text as the pane's
tui/tui_pane_measure.c     pane_ladder -- the ladder pane, drawn with the measurements pane's bars
tui/tui_stage_jobs.c       stage -- the stage model's jobs: one model (tui_stage.h), split over tui_stage*.c
EOF

# check OBJROOT ALIASES SOURCE...: one line per problem ("file: name: ..."), nothing when clean.
check() {
	objroot=$1 aliases=$2; shift 2
	for src; do
		case $src in *.cu) o=$objroot/$src.o ;; *) o=$objroot/${src%.*}.o ;; esac
		if [ ! -f "$o" ]; then echo "M $src"; continue; fi
		nm -g -C --defined-only "$o" | awk -v src="$src" '$2 == "T" { sub(/\(.*/, "", $3); print "F " src " " $3 }'
	done | awk -v aliases="$aliases" '
	BEGIN {
		while ((getline line < aliases) > 0) {
			if (line ~ /^[[:space:]]*(#|$)/) continue
			if (line !~ / -- [^[:space:]]/) { print aliases ": an entry with no reason: " line; bad = 1; continue }
			split(line, half, / -- /); n = split(half[1], w, " ")
			if (n < 2) { print aliases ": an entry with no prefix: " line; bad = 1; continue }
			for (i = 2; i <= n; i++) { al[w[1], ++nal[w[1]]] = w[i] }
			listed[w[1]] = 1
		}
	}
	function starts(name, p) { return name == p || index(name, p "_") == 1 }
	$1 == "M" { print $2 ": no object (build it first: make all)"; bad = 1; next }
	$1 == "F" {
		src = $2; name = $3; seen[src] = 1
		if (name == "main" && src ~ /\/main\.c$/) next
		base = src; sub(/^.*\//, "", base); sub(/\.(c|cpp|cu)$/, "", base)
		dir = src; sub(/\/[^\/]*$/, "", dir); sub(/^.*\//, "", dir)
		if (starts(name, base)) next
		if (index(base, dir "_") == 1 && starts(name, substr(base, length(dir) + 2))) next
		for (i = 1; i <= nal[src]; i++) if (starts(name, al[src, i])) { used[src, i] = 1; next }
		short = index(base, dir "_") == 1 ? substr(base, length(dir) + 2) "_ or " : ""
		print src ": " name ": not named " short base "_ (rename it, or the file, or list the prefix in tests/cli/prefixes.sh with a reason)"
		bad = 1
	}
	END {
		for (f in listed) {
			if (!(f in seen)) { print aliases ": " f ": no such file, or it exports nothing (remove its entry)"; bad = 1; continue }
			for (i = 1; i <= nal[f]; i++) if (!((f, i) in used)) { print aliases ": " f ": no function uses the prefix " al[f, i] " (remove it)"; bad = 1 }
		}
		exit bad
	}'
}

if ! command -v nm >/dev/null 2>&1; then skip "prefixes: nm is not installed (binutils)"; exit 0; fi
srcs=$(ls src/*/*.c src/*/*.cpp src/*/*.cu tui/*.c 2>/dev/null | LC_ALL=C sort)
if check "$OBJ" "$tmp/aliases" $srcs >"$tmp/out"; then
	pass "prefixes: every exported function of src/ and tui/ carries its file's prefix ($(echo "$srcs" | wc -l) files, $(grep -c ' -- ' "$tmp/aliases") listed aliases)"
else
	fail "prefixes: functions not named after their files"; sed 's/^/    /' "$tmp/out"
fi

# The check can fail: an object exporting a function named after no file is found, by file and name;
# an alias with no reason is refused; and an alias is what lets a name through.
mkdir -p "$tmp/obj/src/core"
printf 'int helper_for_diff(void) { return 1; }\nint diff_lines(void) { return 0; }\n' >"$tmp/bad.c"
if ! ${CC:-cc} -c "$tmp/bad.c" -o "$tmp/obj/src/core/diff.o" 2>"$tmp/cc.err"; then
	fail "prefixes: cannot compile the bad object: $(head -n 1 "$tmp/cc.err")"
else
	grep '^src/core/diff.c ' "$tmp/aliases" >"$tmp/al1"
	if check "$tmp/obj" "$tmp/al1" src/core/diff.c >"$tmp/out1"; then fail "prefixes: helper_for_diff in diff.c passed the check"
	elif grep -q '^src/core/diff.c: helper_for_diff: not named diff_' "$tmp/out1" && [ "$(wc -l <"$tmp/out1")" = 1 ]; then
		pass "prefixes: a function named after no file is found by file and name"
	else fail "prefixes: a bad name reported as"; sed 's/^/    /' "$tmp/out1"; fi
	echo 'src/core/diff.c helper' >"$tmp/al2"
	if check "$tmp/obj" "$tmp/al2" src/core/diff.c >"$tmp/out2" || ! grep -q 'an entry with no reason' "$tmp/out2"; then
		fail "prefixes: an alias with no reason was taken"; sed 's/^/    /' "$tmp/out2"
	else pass "prefixes: an alias with no reason is refused"; fi
	printf 'src/core/diff.c helper -- a test\n' >"$tmp/al3"
	if check "$tmp/obj" "$tmp/al3" src/core/diff.c >"$tmp/out3"; then pass "prefixes: a listed alias lets the name through"
	else fail "prefixes: a listed alias did not let the name through"; sed 's/^/    /' "$tmp/out3"; fi
fi
