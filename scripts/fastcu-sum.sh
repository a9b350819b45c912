#!/bin/bash
# Builds scripts/fastcu-sum.cu against pranjalssh/fast.cu's sum.cu (path as $1; it is not part of this
# repository) and runs it: the reduction lesson's top stage beside fast.cu's fastest sum and CUB, in
# fast.cu's own harness, on this machine's GPU. Needs nvcc and a GPU. Output: a table, last.
set -e
SUM=${1:?usage: scripts/fastcu-sum.sh PATH/TO/fast.cu/sum.cu [ROUNDS [LOG2_N]]}
NVCC=${NVCC:-$(command -v nvcc || echo /usr/local/cuda/bin/nvcc)}
BINDIR=$(mktemp -d "${TMPDIR:-/tmp}/fastcu-sum.XXXXXX")   # private: a name made from the pid can be planted
BIN=$BINDIR/fastcu-sum
cd "$(dirname "$0")"
"$NVCC" -O3 -std=c++17 -arch=sm_90a -DFASTCU_SUM="\"$(realpath "$SUM")\"" -o "$BIN" fastcu-sum.cu
"$BIN" "${2:-7}" "${3:-30}"; rc=$?
rm -rf "$BINDIR"
exit $rc
