#!/bin/sh
# scripts/deps.sh checks one set (#19): `make run` needs only what the tool needs (gcc, make,
# pkg-config, libyaml, ncurses); cmocka and tmux are for `make test`. Run against stubs on PATH:
# cmocka (or tmux) looks missing, and there is no root and no sudo, so nothing can be installed.
. tests/lib.sh
tmp=$(mktemp -d); trap 'rm -rf "$tmp"' EXIT
mkdir -p "$tmp/bin" "$tmp/cuda/bin" "$tmp/cuda/include"
touch "$tmp/cuda/include/nvrtc.h"
stub() { printf '#!/bin/sh\n%s\n' "$2" >"$tmp/bin/$1"; chmod +x "$tmp/bin/$1"; }
stub nvcc "exit 0"; mv "$tmp/bin/nvcc" "$tmp/cuda/bin/nvcc"
stub pkg-config 'for a; do case " $MISSING_PC " in *" $a "*) exit 1;; esac; done; exit 0'
stub make "exit 0"; stub gcc "exit 0"; stub tmux "exit 0"
stub id 'echo 1000'
stub apt-get "echo apt-get was run >>$tmp/apt.log; exit 1"
SH=$(command -v sh)
deps() { env PATH="$tmp/bin" CUDA_HOME="$tmp/cuda" MISSING_PC="$MISSING_PC" "$SH" scripts/deps.sh "$@"; }
MISSING_PC=cmocka
expect "deps run: cmocka missing does not stop make run" 0 "" deps run
expect "deps test: cmocka missing is reported" 1 "missing libcmocka-dev\. Install them with:" deps test
expect "deps test: the exact apt-get line" 1 "sudo apt-get install libcmocka-dev" deps test
expect "deps (no set): everything, as make test" 1 "missing libcmocka-dev" deps
expect "deps: the set from CUDACLIMB_DEPS" 0 "" env CUDACLIMB_DEPS=run PATH="$tmp/bin" CUDA_HOME="$tmp/cuda" MISSING_PC=cmocka "$SH" scripts/deps.sh
expect "deps: an unknown set is refused" 2 "deps.sh: unknown set 'frob' \(run, test or list\)" deps frob
MISSING_PC="ncursesw"
expect "deps run: ncurses missing is reported" 1 "missing libncurses-dev\. Install" deps run
MISSING_PC=""
rm "$tmp/bin/tmux"
expect "deps run: tmux missing does not stop make run" 0 "" deps run
expect "deps test: tmux missing is reported" 1 "missing tmux\. Install" deps test
[ -e "$tmp/apt.log" ] && fail "deps: apt-get was run without root or sudo" || pass "deps: nothing installed without root or sudo"
expect "make run checks only the run set" 0 "scripts/deps.sh run" make -n run
expect "make test checks the test set" 0 "scripts/deps.sh test" make -n deps
