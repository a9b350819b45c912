#!/bin/sh
# Claims (expect:) without a GPU: the recorded H100 runs of tests/fixtures/recorded, replayed, have
# every stage's claims checked from their counters and times, in text and in --json; a claim with an
# unknown measurement, and a peak the engine does not know, are lesson errors at their file:line:col.
. tests/lib.sh
R=tests/fixtures/recorded/h100-1707a90
C=tests/fixtures/claims
expect "claims: bench lists every claim's state" 0 "Claims of the text \(expect: in bandwidth.yaml\), checked against these runs: 10 hold, 0 contradicted, 2 unknown" \
	$B --replay $R-bandwidth.json bench bandwidth
expect "claims: a claim on DRAM bytes holds with the value it used" 0 "strided +holds +bytes_ratio >= 8 +bytes_ratio=16" \
	$B --replay $R-bandwidth.json bench bandwidth
expect "claims: a counter the recording lacks is unknown, and says why" 0 "unknown +gld_sectors_per_request >= 16 .*not measured in this run" \
	$B --replay $R-bandwidth.json bench bandwidth
expect "claims: time against the previous stage" 0 "vectorized +holds +time_vs_prev <= 0.95 +time_vs_prev=0.91" \
	$B --replay $R-bandwidth.json bench bandwidth
# A regressed copy of the recording, with no store conflicts left in sgemm/bankfree, contradicts
# its claim that the transposed store of A still conflicts, and the text it checks is shown.
tmp=$(mktemp -d); trap 'rm -rf "$tmp"' EXIT
python3 - "$R-sgemm.json" "$tmp/sgemm.json" <<'PY'
import json, sys
d = json.load(open(sys.argv[1]))
for r in d["results"]:
    if r["stage"] == "bankfree": r["smem_conflicts_st"] = 0
json.dump(d, open(sys.argv[2], "w"))
PY
# (exit 1: the recording has no tf32x3, a stage the bench asks for)
expect "claims: a contradicted claim is shown as such" 1 "CONTRADICTED +smem_conflicts_st_per_warp > 1000 +smem_conflicts_st_per_warp=0" \
	$B --replay "$tmp/sgemm.json" bench sgemm
expect "claims: with the sentence it checks" 1 "the text: the transposed store of A still conflicts" \
	$B --replay "$tmp/sgemm.json" bench sgemm
expect "claims: the recording itself holds that claim" 1 "holds +smem_conflicts_st_per_warp > 1000 +smem_conflicts_st_per_warp=2.44e\+03" \
	$B --replay $R-sgemm.json bench sgemm
expect "claims: run alone, the previous stage is unknown" 0 "time_vs_prev=\?  \(time_vs_prev: no timed run of the previous stage\)" \
	$B --replay $R-bandwidth.json run bandwidth/coalesced
# The reduction at its default size (n = 2^28 since the read calibration) was recorded at e80026b.
out=$($B --replay tests/fixtures/recorded/h100-e80026b-reduction.json bench reduction --json 2>/dev/null)
if printf '%s' "$out" | grep -q '"expect": "time_vs_baseline <= 1.0", "state": "holds", "values": "time_vs_baseline=0.975"'; then
	pass "claims: --json has each claim with its state and values"
else
	fail "claims: --json lacks the vector stage's time_vs_baseline claim"; printf '%s\n' "$out" | grep -o '"claims": \[[^]]*\]' | tail -2 | sed 's/^/    /'
fi
if printf '%s' "$out" | grep -q '"state": "contradicted"'; then fail "claims: a reduction claim is contradicted by its own recording"; else pass "claims: no reduction claim contradicted by the H100 recording"; fi
# --json output is still a replay file: it answers the same runs again.
tmp=$(mktemp); trap 'rm -f "$tmp"' EXIT
printf '%s\n' "$out" >"$tmp"
expect "claims: a --json file with claims replays" 0 "holds +time_vs_baseline <= 1.0 +time_vs_baseline=0.975" $B --replay "$tmp" bench reduction
expect "claims: an unknown measurement is an error at its column" 4 "claims.yaml:18:41: expect: unknown measurement 'smem_conflict_per_warp'" $B --lessons $C list
expect "claims: an unknown peak is an error" 4 "peak.yaml:6:39: unknown peak 'fp16_tensr' \(known: fp32, bf16_tensor, fp64, tf32_tensor, fp16_tensor, fp8_tensor, int8_tensor\)" $B --lessons $C list
# The fusion and softmax recordings: DRAM bytes falling as kernels fuse, every claim holding. The
# fusion recording's baseline was cuDNN's three calls, now baseline.three_calls (the separate stage's,
# its row renamed so); it has no run of the fused call, the lesson's baseline now, so the two claims of
# the fused stages against it are unknown until it is recorded again.
F=tests/fixtures/recorded/h100-9b0e2fc
expect "claims: fusion's recording holds every claim" 0 "checked against these runs: 9 hold, 0 contradicted, 2 unknown" \
	$B --replay $F-fusion.json bench fusion
expect "claims: a stage's claim against its own named baseline" 0 "holds +time_vs_baseline <= 0.95 +time_vs_baseline=0.807" \
	$B --replay $F-fusion.json bench fusion
expect "claims: ... and one whose baseline the recording lacks names it" 0 "unknown +time_vs_baseline <= 0.65 .*no timed run of the baseline\)" \
	$B --replay $F-fusion.json bench fusion
expect "claims: three kernels move three times the model's bytes" 0 "separate +holds +bytes_ratio >= 2.5 +bytes_ratio=2.99" \
	$B --replay $F-fusion.json bench fusion
expect "claims: softmax's recording holds every claim" 0 "checked against these runs: 9 hold, 0 contradicted, 0 unknown" \
	$B --replay $F-softmax.json bench softmax
