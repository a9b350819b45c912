# Shared by the test scripts: pass/fail/skip lines that scripts/run-tests.sh counts, and a bounded
# wait for text instead of fixed sleeps.
B=${CUDACLIMB:-build/cudaclimb}
# The scripts' fixture trees are meant alone: --lessons DIR (and CUDACLIMB_LESSONS) mean DIR's lessons
# only, not DIR's added to the shipped ones (tests/cli/lessons_tree.sh unsets this to test adding).
export CUDACLIMB_LESSONS_ONLY=1
pass() { echo "PASS $*"; }
fail() { echo "FAIL $*"; }
skip() { echo "SKIP $*"; }
# expect NAME EXPECTED-EXIT PATTERN COMMAND...: runs COMMAND, checks its exit status and that its
# output (stdout and stderr) matches the extended regular expression PATTERN.
expect() {
	name=$1 want=$2 pat=$3; shift 3
	out=$("$@" 2>&1); got=$?
	if [ "$got" != "$want" ]; then fail "$name: exit $got, expected $want"; printf '%s\n' "$out" | head -20 | sed 's/^/    /'; return; fi
	if ! printf '%s\n' "$out" | grep -Eq -- "$pat"; then fail "$name: output lacks /$pat/"; printf '%s\n' "$out" | head -20 | sed 's/^/    /'; return; fi
	pass "$name"
}
# lab_setup NAME: for a GPU test of a class: skips (or fails) with NAME and returns 1 without a GPU;
# else an installed copy of the tool in $tmp/inst that every user can read ($bin), the example course
# in $tmp/course, and a queue folder of the test's own ($CUDACLIMB_LOCK_DIR). $tmp goes at exit.
lab_setup() {
	why=$($B device 2>&1); code=$?
	if [ $code = 3 ]; then skip "$1: $(printf '%s' "$why" | head -1)"; return 1; fi
	if [ $code != 0 ]; then fail "$1: cudaclimb device exited $code: $why"; return 1; fi
	tmp=$(mktemp -d /tmp/cc-lab.XXXXXX); trap 'rm -rf "$tmp"' EXIT
	chmod 755 "$tmp"
	if ! make --no-print-directory install PREFIX="$tmp/inst" >"$tmp/install.log" 2>&1; then
		fail "$1: make install: $(tail -3 "$tmp/install.log")"; return 1
	fi
	chmod -R a+rX "$tmp/inst"
	bin=$tmp/inst/bin/cudaclimb
	cp -r assets/example-course "$tmp/course"
	chmod -R a+rX "$tmp/course"
	export CUDACLIMB_LOCK_DIR=$tmp/locks
	mkdir -m 1777 "$CUDACLIMB_LOCK_DIR"
}

# try_exercise LABEL LESSON/STAGE KERNELS WORDS [OPTION...]: the exercise's starter
# (KERNELS/exercises/STAGE.cu) through `try` must not pass (exit 1, its output matching the regex
# WORDS, e.g. 'wrong'), and the stage's own kernel (KERNELS/STAGE.cu) as the learner's file must
# (exit 0). OPTIONs go before the command (e.g. --lessons DIR); files go under $T.
try_exercise() {
	_label=$1 _ls=$2 _kd=$3 _words=$4
	shift 4
	_st=${_ls#*/}
	cp "$_kd/exercises/$_st.cu" "$T/starter.cu"
	_out=$($B "$@" --work "$T/work" try "$_ls" "$T/starter.cu" 2>&1); _rc=$?
	if [ $_rc -eq 1 ] && printf '%s\n' "$_out" | grep -Eqi "$_words"; then
		pass "$_label try: the starter does not pass ($(printf '%s\n' "$_out" | grep -Eio "$_words" | head -1))"
	else
		fail "$_label try: the starter exits $_rc, expected 1 ($_words)"; printf '%s\n' "$_out" | head -20 | sed 's/^/    /'
	fi
	cp "$_kd/$_st.cu" "$T/own.cu"
	_out=$($B "$@" --work "$T/work" try "$_ls" "$T/own.cu" 2>&1); _rc=$?
	if [ $_rc -eq 0 ]; then pass "$_label try: the stage's own kernel passes"
	else fail "$_label try: the stage's own kernel exits $_rc, expected 0"; printf '%s\n' "$_out" | head -20 | sed 's/^/    /'; fi
}

# lab_learner I [OPTION...]: learner I of a lab on the GPU box (tests/gpu/lab_*.sh): $runs timed runs of
# $stage with $bin as the uid in $tmp/uidI, from the home $tmp/home/sI (each run's exit status and
# milliseconds appended to its log as "exit S MS"), then for the first three learners a try of
# $tmp/home/sI/mine.cu in the course $tmp/course ("try S"). OPTIONs go before each run's command.
lab_learner() {
	_h=$tmp/home/s$1; _u=$(cat "$tmp/uid$1"); _n=$1; shift
	_k=0
	while [ $_k -lt "$runs" ]; do
		_s0=$(date +%s%N)
		setpriv --reuid="$_u" --regid="$_u" --clear-groups env HOME="$_h" XDG_CACHE_HOME="$_h/cache" XDG_STATE_HOME="$_h/state" \
			timeout 900 "$bin" "$@" run "$stage" --reps 20 --no-counters >>"$_h/log" 2>&1
		echo "exit $? $(( ($(date +%s%N) - _s0) / 1000000 ))" >>"$_h/log"
		_k=$((_k + 1))
	done
	if [ "$_n" -lt 3 ]; then
		setpriv --reuid="$_u" --regid="$_u" --clear-groups env HOME="$_h" XDG_CACHE_HOME="$_h/cache" XDG_STATE_HOME="$_h/state" CUDACLIMB_WORK="$_h/work" \
			timeout 900 "$bin" --course "$tmp/course" try "$stage" "$_h/mine.cu" --reps 20 --no-counters --timeout 60 >>"$_h/log" 2>&1
		echo "try $?" >>"$_h/log"
	fi
}

# attack_tree NAME: for tests/attack/*.sh, a temporary folder $T (every user may enter; removed at
# exit) holding $L, a lesson tree with the bandwidth lesson and kernels/common, readable by all, and
# $EX, its first exercise.
attack_tree() {
	T=$(mktemp -d "/tmp/cc_attack_$1.XXXXXX")
	chmod 755 "$T"
	trap 'rm -rf "$T"' EXIT
	L=$T/tree
	mkdir -p "$L/lessons" "$L/kernels"
	cp lessons/bandwidth.yaml "$L/lessons/" && cp -r kernels/bandwidth kernels/common "$L/kernels/"
	chmod -R a+rX "$L"
	EX=bandwidth/coalesced
}
# have_landlock: 0 when this kernel has Landlock (the learners' compiles are then closed in).
have_landlock() { python3 -c 'import ctypes, sys; sys.exit(0 if ctypes.CDLL(None).syscall(444, None, 0, 1) > 0 else 1)' 2>/dev/null; }
