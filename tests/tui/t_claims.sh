# Claims (expect:) in the measurements pane: a recorded H100 run whose counters contradict a claim of
# the stage's text shows it as contradicted, in red, at 120x40 and at 80x24; a stage whose claims all
# hold says so.
. "$(dirname "$0")/lib.sh"

# a regressed copy of the recording: no store conflicts left in bankfree, against its claim that the
# transposed store of A still conflicts
REPLAY="$TMP/h100-regressed-sgemm.json"
python3 - "$ROOT/tests/fixtures/recorded/h100-1707a90-sgemm.json" "$REPLAY" <<'PY'
import json, sys
d = json.load(open(sys.argv[1]))
for r in d["results"]:
    if r["stage"] == "bankfree": r["smem_conflicts_st"] = 0
json.dump(d, open(sys.argv[2], "w"))
PY
for size in "120 40" "80 24"; do
	export XDG_STATE_HOME="$TMP/state-$N"
	start $size -- --replay "$REPLAY"
	open_lesson "FP32 matrix multi" sgemm
	keys n n n n n n
	wait_for "sgemm 7/10" >/dev/null
	keys r
	# 0 store conflicts per warp against "the transposed store of A still conflicts"
	check "claims ($size): a contradicted claim is shown as contradicted" \
		wait_re "claims +✗ CONTRADICTED: smem_conflicts_st"
	check "claims ($size): in bold red, the colour of a fault" sh -c "screen_esc() { tmux -L $SOCK capture-pane -p -e -t cc; }; screen_esc | grep -q '$ESC\[1m$ESC\[31m✗ CONTRADICTED'"
	keys p p p p p p
	wait_for "sgemm 1/10" >/dev/null
	keys r
	check "claims ($size): the naive stage's claims hold or were not measured" wait_re "claims +2 of 4 hold, 2 not measured"
	keys q
	wait_for "EXITED rc=0" >/dev/null
done
