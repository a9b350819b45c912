B=build/cudaclimb
one() { # label args...
  l=$1; shift
  $B bench histogram --no-counters --json "$@" 2>/dev/null | python3 -c '
import json,sys
d=json.load(sys.stdin)
for r in d["results"]:
    if r["stage"]=="baseline": continue
    print("%-34s %-8s %-6s ms %.4f  vsCUB %.3f" % (sys.argv[1], r["stage"], r["status"], r.get("ms_median",-1), r.get("pair_ratio",-1)))' "$l"
}
for sk in 0.5 0; do
 one "skew=$sk default" --set skew=$sk --stage shared,coarse,cluster
 for v in 1 4; do one "skew=$sk VEC=$v" --set skew=$sk --stage coarse --set VEC=$v; done
 one "skew=$sk RUNS=0" --set skew=$sk --stage coarse --set RUNS=0
 for bl in 256 1024; do one "skew=$sk BLOCK=$bl" --set skew=$sk --stage coarse --set BLOCK=$bl; done
 for bp in 2 8; do one "skew=$sk BPS=$bp" --set skew=$sk --stage coarse --set BLOCKS_PER_SM=$bp; done
done
one "skew=0.9" --set skew=0.9 --stage shared,warp,coarse,cluster
one "bins=32768" --set bins=32768 --stage coarse,cluster
one "bins=32768 CLUSTER=4" --set bins=32768 --stage cluster --set CLUSTER=4
one "bins=65536 CLUSTER=4" --set bins=65536 --stage cluster --set CLUSTER=4
