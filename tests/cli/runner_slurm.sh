#!/bin/sh
# The slurm runner against a real Slurm on localhost, started here (as root: munged, slurmctld and
# slurmd from Debian's packages, the config from tests/slurm/ with its state, logs and munge key in a
# temporary folder, all stopped at the end): the device query and a run through srun, the jobs seen
# by Slurm (its job-completion log), GRES and a time limit passed on, a step inside an salloc
# allocation, and in one line each: a partition Slurm refuses, a job cancelled mid-run, srun missing,
# and Slurm down.
. tests/lib.sh
if [ "$(id -u)" != 0 ]; then skip "runner slurm: starting slurmctld and slurmd needs root"; exit 0; fi
missing=
for p in munged slurmctld slurmd srun salloc squeue scancel sinfo scontrol; do
	command -v $p >/dev/null 2>&1 || [ -x /usr/sbin/$p ] || missing="$missing $p"
done
if [ -n "$missing" ]; then skip "runner slurm: not installed:$missing (slurmctld, slurmd, slurm-client, munge: make deps installs them where it can)"; exit 0; fi
PATH=$PATH:/usr/sbin
tmp=$(mktemp -d)
cleanup() {
	for d in slurmd slurmctld munged; do
		[ -s "$tmp/$d.pid" ] && kill "$(cat "$tmp/$d.pid")" 2>/dev/null
	done
	sleep 0.5
	rm -rf "$tmp"
}
trap cleanup EXIT
trap 'exit 1' HUP INT TERM PIPE
chmod 755 "$tmp"
mkdir -p "$tmp/state" "$tmp/spool"
cuda=${CUDA_HOME:-/usr/local/cuda}
if ! cc -std=c11 -D_GNU_SOURCE -Isrc/core -Isrc/lesson -Isrc/engine -Isrc/runner -Isrc/worker -Isrc/app -I$cuda/include tests/fake_worker.c src/core/result.c src/core/util.c -o "$tmp/fake" 2>"$tmp/cc.log"; then
	fail "runner slurm: the fake worker did not build: $(head -3 "$tmp/cc.log")"; exit 0
fi
dd if=/dev/urandom of="$tmp/munge.key" bs=1024 count=1 2>/dev/null
chmod 600 "$tmp/munge.key"
if ! munged -f --key-file="$tmp/munge.key" --socket="$tmp/munge.sock" --pid-file="$tmp/munged.pid" --log-file="$tmp/munged.log" \
	--seed-file="$tmp/munged.seed" 2>"$tmp/munged.err"; then
	skip "runner slurm: munged would not start: $(head -1 "$tmp/munged.err")"; exit 0
fi
ctld=$((20000 + ($$ * 13) % 40000)); slurmd_port=$((ctld + 1))
sed -e "s|@DIR@|$tmp|g" -e "s|@CTLD_PORT@|$ctld|" -e "s|@SLURMD_PORT@|$slurmd_port|" -e "s|@CPUS@|$(nproc)|" \
	tests/slurm/slurm.conf.in >"$tmp/slurm.conf"
cp tests/slurm/gres.conf "$tmp/gres.conf"
export SLURM_CONF=$tmp/slurm.conf
unset SLURM_JOB_ID CUDACLIMB_RUNNER CUDACLIMB_WORKER
if ! slurmctld -c -i >"$tmp/ctld.err" 2>&1 || ! slurmd -N localhost >"$tmp/slurmd.err" 2>&1; then
	skip "runner slurm: slurmctld or slurmd would not start: $(cat "$tmp/ctld.err" "$tmp/slurmd.err" | head -2 | tr '\n' ' ')"; exit 0
fi
i=0; while [ $i -lt 100 ] && [ "$(sinfo -h -n localhost -o %t 2>/dev/null)" != idle ]; do sleep 0.1; i=$((i + 1)); done
if [ $i = 100 ]; then
	fail "runner slurm: the node did not come up ($(sinfo -h -o '%t %E' 2>&1 | head -1); $(tail -1 "$tmp/slurmctld.log"))"; exit 0
fi
FX=tests/fixtures/exercise
W() { $B --runner slurm "$@"; }
K() { env CUDACLIMB_WORKER="$tmp/fake" "$@"; }

# The device, from this binary's worker in a Slurm job.
if $B device >/dev/null 2>&1; then
	expect "runner slurm: the device comes back from a Slurm job" 0 "^worker: slurm" W device
else
	expect "runner slurm: the device comes back from a Slurm job (no GPU there)" 3 "^no GPU: .*\(worker: slurm job [0-9]+\)" W device
fi
# A run answered by the fake worker in a job with a GPU and a time limit asked for.
out=$(K CC_FAKE=echo $B --runner 'slurm gres=gpu:1' --slurm-time 5 --lessons $FX run demo/scale --json 2>&1); code=$?
if [ $code = 0 ] && printf '%s' "$out" | grep -q '"message": "plan [0-9]* bytes scale [0-9,/]*; ref_plan [0-9]* bytes scale [0-9,/]*; cubin [0-9]* bytes ELF; '; then
	pass "runner slurm: a run through srun, its code sent as bytes"
else fail "runner slurm: a run through srun: exit $code"; printf '%s\n' "$out" | grep -v '^{"metric' | head -5 | cut -c1-300; fi
expect "runner slurm: a verdict from the worker in the job" 1 "scale: the kernel failed: an illegal memory access" K CC_FAKE=fault $B --runner slurm --lessons $FX run demo/scale
jobs=$(grep -c "Name=cudaclimb " "$tmp/jobcomp.txt" 2>/dev/null)
[ "${jobs:-0}" -ge 3 ] && pass "runner slurm: the jobs reached Slurm ($jobs in its job-completion log)" \
	|| { fail "runner slurm: $jobs cudaclimb jobs in Slurm's log"; tail -3 "$tmp/slurmctld.log"; }
grep "Name=cudaclimb " "$tmp/jobcomp.txt" 2>/dev/null | grep -q "TimeLimit=5 " && pass "runner slurm: the time limit went to Slurm" \
	|| fail "runner slurm: no job with TimeLimit=5: $(grep "Name=cudaclimb " "$tmp/jobcomp.txt" | cut -c1-200)"
gres=
for id in $(sed -n 's/^JobId=\([0-9]*\) .* Name=cudaclimb .*/\1/p' "$tmp/jobcomp.txt" 2>/dev/null); do
	scontrol show job "$id" 2>/dev/null | grep -q "TresPerNode=gres:gpu:1" && gres=$id
done
[ -n "$gres" ] && pass "runner slurm: the GRES went to Slurm (job $gres: gres:gpu:1)" || fail "runner slurm: no job with gres:gpu:1 (scontrol show job)"
# Inside an allocation: a step of it.
expect "runner slurm: inside salloc, a step of its job" 0 "^worker: slurm \(a step of job [0-9]+\)" \
	salloc -n1 --job-name=cc-alloc env CUDACLIMB_WORKER="$tmp/fake" $B --runner slurm device

# What goes wrong, in one line each.
one_line() {   # name exit pattern command...
	name=$1 want=$2 pat=$3; shift 3
	out=$("$@" 2>&1); got=$?
	lines=$(printf '%s\n' "$out" | grep -c .)
	if [ "$got" = "$want" ] && [ "$lines" = 1 ] && printf '%s' "$out" | grep -Eq -- "$pat"; then pass "$name"
	else fail "$name: exit $got, $lines lines"; printf '%s\n' "$out" | head -5 | sed 's/^/    /'; fi
}
one_line "runner slurm: a partition Slurm refuses is one line" 5 "^runner_error: Slurm refused the job: Invalid partition name specified$" W --slurm-partition nosuch device
one_line "runner slurm: no srun is one line" 5 "^runner_error: cannot use Slurm: there is no /nonexistent/srun here" env CUDACLIMB_SRUN=/nonexistent/srun $B --runner slurm device
# Cancelled while it runs (the fake worker never answers): the verdict says so.
K CC_FAKE=hang $B --runner slurm --lessons $FX run demo/scale --timeout 60 >"$tmp/cancel.out" 2>&1 &
run_pid=$!
i=0; while [ $i -lt 100 ] && [ -z "$(squeue -h -n cudaclimb -t R -o %i 2>/dev/null)" ]; do sleep 0.1; i=$((i + 1)); done
job=$(squeue -h -n cudaclimb -t R -o %i 2>/dev/null | head -1)
[ -n "$job" ] && scancel "$job"
i=0; while [ $i -lt 300 ] && kill -0 $run_pid 2>/dev/null; do sleep 0.1; i=$((i + 1)); done
kill $run_pid 2>/dev/null; wait $run_pid; code=$?
if [ -n "$job" ] && [ $code = 1 ] && grep -q "^scale: the Slurm job $job was cancelled while running this stage" "$tmp/cancel.out"; then
	pass "runner slurm: a job cancelled mid-run says so"
else fail "runner slurm: cancelled mid-run (job '$job', exit $code)"; tail -3 "$tmp/cancel.out" | sed 's/^/    /'; fi
# Slurm down.
kill "$(cat "$tmp/slurmctld.pid")"
i=0; while [ $i -lt 50 ] && scontrol ping >/dev/null 2>&1; do sleep 0.1; i=$((i + 1)); done
one_line "runner slurm: Slurm down is one line" 5 "^runner_error: Slurm is not reachable: Unable to contact slurm controller" W device
