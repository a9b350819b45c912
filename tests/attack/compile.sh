#!/bin/sh
# Attacks through what a compile includes (issue #45): a learner's file (try, as report --verify
# compiles a recorded source) including a FIFO, /dev/zero, /proc/self/fd/0, a 6 GB sparse file, a link,
# a file by absolute path or by "..", a macro, or an #include hidden from a naive scan by a comment;
# a lesson's kernel (check) including a FIFO, a device and the sparse file by absolute path. Each gets a
# clear error naming the line within 10 s and 400 MB (ulimit -v on the whole command; an honest compile
# needs ~350 MB of address space), and an honest file with a header beside it still compiles. Then the
# compile child's memory limit (CUDACLIMB_COMPILE_AS_MB) says so when a compile runs into it. The
# learner is uid 2001 through setpriv when root, with a secret of uid 2002 to read; else the caller.
. tests/lib.sh
[ -x "$B" ] || { fail "compile: $B is not built"; exit 0; }
attack_tree compile
STARTER=kernels/bandwidth/exercises/coalesced.cu

if [ "$(id -u)" = 0 ] && command -v setpriv >/dev/null; then
	A=2001 V=2002
	as() { setpriv --reuid=$A --regid=$A --clear-groups "$@"; }
else
	A=$(id -u) V=
	as() { "$@"; }
	skip "compile: the learner and the secret's owner as two users: needs root and setpriv (the attacks run as $A)"
fi
SECRET=$T/instructor/secret.h
mkdir -p "$T/instructor" && printf '#define SECRET 42\n' >"$SECRET"
if [ -n "$V" ]; then chown -R $V:$V "$T/instructor"; chmod 700 "$T/instructor"; chmod 600 "$SECRET"; fi

# attack NAME INCLUDE-TEXT PATTERN [SETUP]: the starter with INCLUDE-TEXT before it, tried as the
# learner in a workspace of its own (SETUP runs there first, in its bandwidth folder); the output
# must match PATTERN and no compile may run past 10 s or 400 MB.
attack() {
	name=$1 text=$2 pat=$3 setup=$4
	w=$T/w-$name
	mkdir -p "$w/bandwidth" "$w/cache"
	{ printf '%s\n' "$text"; cat "$STARTER"; } >"$w/bandwidth/coalesced.cu"
	[ -n "$setup" ] && (cd "$w/bandwidth" && eval "$setup")
	chown -R "$A" "$w" 2>/dev/null; chmod -R go-rwx "$w"
	start=$(date +%s)
	out=$( (ulimit -v 400000; as env XDG_CACHE_HOME="$w/cache" timeout 10 "$B" --lessons "$L" --work "$w" try $EX) 2>&1); rc=$?
	secs=$(( $(date +%s) - start ))
	if [ $rc = 124 ] || [ $rc -ge 128 ]; then fail "compile: $name: killed or timed out (exit $rc, $secs s)"
	elif ! printf '%s\n' "$out" | grep -Eq -- "$pat"; then fail "compile: $name: output lacks /$pat/"; printf '%s\n' "$out" | tail -6 | sed 's/^/    /'
	elif printf '%s\n' "$out" | grep -q "^COMPILED"; then fail "compile: $name: it compiled"
	else pass "compile: $name: refused in $secs s under 400 MB: $(printf '%s\n' "$out" | grep -Eo -- "$pat" | head -1)"; fi
}

attack fifo '#include "fifo.h"' 'coalesced\.cu:1: #include "fifo\.h": a FIFO, not a regular file: refused' 'mkfifo fifo.h'
attack sparse '#include "big.h"' 'coalesced\.cu:1: #include "big\.h": 6442450944 bytes, over the 4 MiB' 'truncate -s 6G big.h'
attack link '#include "rand.h"' 'coalesced\.cu:1: #include "rand\.h": a symbolic link, not followed: refused' 'ln -s /dev/urandom rand.h'
attack zero '#include "/dev/zero"' 'coalesced\.cu:1: #include "/dev/zero": an absolute path'
attack stdin '#include </proc/self/fd/0>' 'coalesced\.cu:1: #include </proc/self/fd/0>: an absolute path'
attack absolute "#include \"$SECRET\"
#if SECRET != 42
#error no
#endif" "#include \"$SECRET\": an absolute path"
attack dotdot '#include "../../instructor/secret.h"' 'coalesced\.cu:1: #include "\.\./\.\./instructor/secret\.h": a path with "\.\."'
attack angle-dotdot '#include <../../../../../../../../dev/zero>' 'a path with "\.\."'
attack macro '#define F "fifo.h"
#include F' 'coalesced\.cu:2: #include F: an #include of a macro cannot be checked' 'mkfifo fifo.h'
# __has_include answers whether a file exists, as the account compiling (the judge's, the instructor's):
# behind a macro the scan refuses it; built by pasting (here through a macro of the file's own, a
# toolkit header's would do as well) the scan cannot see it, and the compile is closed in (Landlock)
# so that NVRTC finds nothing outside the toolkit's and the system's library folders.
attack has-include-macro "#define P __has_include
#if P(\"$SECRET\")
#endif" 'coalesced\.cu:1: __has_include without its parenthesis \(behind a macro\) cannot be checked: refused'
if have_landlock; then
	# /etc/passwd: a file every account sees, so that only the closing in can make it MISSING
	attack has-include-pasted "#define CAT(a, b) a##b
#if CAT(__has_, include)(\"/etc/passwd\")
#error EXISTS
#else
#error MISSING
#endif" 'catastrophic error: #error directive: MISSING'
else
	skip "compile: __has_include built by pasting: this kernel has no Landlock, so the compile is not closed in (the scan alone stands)"
fi
printf '#define OUTSIDE 1\n' >"$T/outside.h"; chmod 644 "$T/outside.h"
attack dirlink '#include "up/outside.h"' 'coalesced\.cu:1: #include "up/outside\.h": .*outside\.h is outside your folder, the lesson tree and the toolkit' "ln -s $T up"
# a comment opener inside a character literal after a digit separator: a naive scan would skip line 2
attack hidden "int hidden_x = 1'0 + '/*';
#include \"fifo.h\"
// */" 'coalesced\.cu:2: #include "fifo\.h": a FIFO' 'mkfifo fifo.h'
attack spliced '#inc\
lude "fifo.h"' 'coalesced\.cu:1: #include "fifo\.h": a FIFO' 'mkfifo fifo.h'
attack has-include '#if __has_include("fifo.h")
#endif' 'coalesced\.cu:1: #include "fifo\.h": a FIFO' 'mkfifo fifo.h'

# ---- an honest file with a header beside it (which includes one of kernels/common) still compiles
w=$T/w-honest
mkdir -p "$w/bandwidth" "$w/cache"
printf '#define GROUP_M 8\n#define ORDER 0\n#define STREAMK 0\n#include "seg_walk.cuh"\n#define MINE_SCALE 1\n' >"$w/bandwidth/mine.cuh"
{ printf '#include "mine.cuh"\n#include <cuda_fp16.h>\nstatic_assert(MINE_SCALE == 1, "mine.cuh");\n'; cat "$STARTER"; } >"$w/bandwidth/coalesced.cu"
chown -R "$A" "$w" 2>/dev/null
out=$( (ulimit -v 400000; as env XDG_CACHE_HOME="$w/cache" timeout 60 "$B" --lessons "$L" --work "$w" try $EX) 2>&1)
if printf '%s\n' "$out" | grep -q "^COMPILED"; then pass "compile: an honest file including a header beside it (including kernels/common/seg_walk.cuh) and a toolkit header compiles under 400 MB"
else fail "compile: the honest file did not compile:"; printf '%s\n' "$out" | tail -6 | sed 's/^/    /'; fi

# ---- a lesson's own kernel (check: a trusted compile) is held to the same file checks
mkfifo "$T/fifo.cuh"; truncate -s 6G "$T/big.cuh"
for kind in "fifo:$T/fifo.cuh:a FIFO, not a regular file" "device:/dev/zero:a device, not a regular file" \
            "sparse:$T/big.cuh:6442450944 bytes, over the 4 MiB" "fdlink:/proc/self/fd/0:a symbolic link"; do
	name=${kind%%:*} rest=${kind#*:}; file=${rest%%:*} why=${rest#*:}
	bad=$T/bad-$name
	cp -r "$L" "$bad"
	sed -i "1i #include \"$file\"" "$bad/kernels/bandwidth/coalesced.cu"
	start=$(date +%s)
	out=$( (ulimit -v 400000; XDG_CACHE_HOME="$bad/cache" timeout 10 "$B" --lessons "$bad" check --arch sm_80) 2>&1); rc=$?
	secs=$(( $(date +%s) - start ))
	if [ $rc = 124 ] || [ $rc -ge 128 ]; then fail "compile: check, a lesson kernel including $file: killed or timed out (exit $rc, $secs s)"
	elif ! printf '%s\n' "$out" | grep -q "coalesced.cu:1: #include \"$file\": $why"; then fail "compile: check, a lesson kernel including $file: no clear error"; printf '%s\n' "$out" | grep -v " ok " | head -6 | sed 's/^/    /'
	else pass "compile: check, a lesson kernel including $file: '$why' in $secs s under 400 MB"; fi
done

# ---- the compile child's memory limit: a compile that runs into it says so
w=$T/w-honest
out=$(as env XDG_CACHE_HOME="$w/cache2" CUDACLIMB_COMPILE_AS_MB=8 timeout 60 "$B" --lessons "$L" --work "$w" try $EX 2>&1)
if printf '%s\n' "$out" | grep -q "ran out of memory: a compile may use 8 MiB"; then pass "compile: under CUDACLIMB_COMPILE_AS_MB=8 (on top of what the child maps) the compile fails saying it ran out of memory"
else fail "compile: CUDACLIMB_COMPILE_AS_MB=8: no word of the memory limit"; printf '%s\n' "$out" | tail -4 | sed 's/^/    /'; fi

# ---- a few KiB of nested macros that keep NVRTC busy (a tester's: 2^21 empty statements held the lab
# service's one judge for 86 s): under CUDACLIMB_COMPILE_S (the judge's limit) the compile is stopped then
w=$T/w-macros
mkdir -p "$w/bandwidth" "$w/cache"
{ printf '#define E0 ; ;\n'; i=1; while [ $i -le 21 ]; do printf '#define E%d E%d E%d\n' $i $((i - 1)) $((i - 1)); i=$((i + 1)); done
  printf 'extern "C" __global__ void saxpy_coalesced(const float *x, const float *y, float *z, float a, long long n)\n{\n\tE21\n'
  printf '\tlong long i = blockIdx.x * (long long)blockDim.x + threadIdx.x;\n\tif (i < n) z[i] = a * x[i] + y[i];\n}\n'; } >"$w/bandwidth/coalesced.cu"
chown -R "$A" "$w" 2>/dev/null
t0=$(date +%s)
out=$(as env XDG_CACHE_HOME="$w/cache" CUDACLIMB_COMPILE_S=5 timeout 60 "$B" --lessons "$L" --work "$w" try $EX 2>&1)
secs=$(( $(date +%s) - t0 ))
if printf '%s\n' "$out" | grep -q "compile timed out after 5 s: the compiler was stopped (CUDACLIMB_COMPILE_S" && [ $secs -le 15 ]; then
	pass "compile: 2^21 macro-made statements under CUDACLIMB_COMPILE_S=5: stopped after 5 s, said so ($secs s in all)"
else fail "compile: CUDACLIMB_COMPILE_S=5 did not stop the slow compile in time ($secs s)"; printf '%s\n' "$out" | tail -4 | sed 's/^/    /'; fi
exit 0
