#!/bin/sh
# precision_gemm's tensor-core stages (int8_wgmma too) at settings of their shared kernel (CM, EPILOGUE, STREAMK,
# ORDER ...), each line one bench beside the format's own library (scripts/tune.sh): which
# defaults to set, measured on the card this runs on. Usage, after make: scripts/tune-pgemm.sh [SIZE] [STAGE...]
set -u
cd "$(dirname "$0")/.." || exit 2
size=${1:-}
[ $# -gt 0 ] && shift
sets=""
[ -n "$size" ] && sets="m=$size n=$size k=$size"
for st in ${*:-bf16 fp16 tf32 fp8 int8_wgmma}; do
	{
		echo "$sets"
		for x in "CM=1 EPILOGUE=0" "CM=1" "STREAMK=1" "EPI_BOXES=4" "ORDER=1"; do echo "$sets $x"; done
	} | scripts/tune.sh precision_gemm "$st"
done
