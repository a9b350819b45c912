#!/bin/sh
# The ssh runner against a throwaway sshd on localhost (a high port, this user, a host key and an
# authorized key made here, nothing of the system's touched), with no GPU needed: the device comes
# back through ssh; a run compiled here for the far GPU's architecture is answered by the fake
# worker there (the code went as bytes on the pipe, an ELF image); a fault, another protocol version,
# a missing worker and an unreachable host each give one line, and a learner's file is kept.
. tests/lib.sh
sshd=$(command -v sshd 2>/dev/null || echo /usr/sbin/sshd)
if [ ! -x "$sshd" ] || ! command -v ssh >/dev/null 2>&1 || ! command -v ssh-keygen >/dev/null 2>&1; then
	skip "runner ssh: no sshd/ssh here (openssh-server and openssh-client: make deps installs them where it can)"; exit 0
fi
tmp=$(mktemp -d)
sshd_pid=
cleanup() {
	[ -n "$sshd_pid" ] && kill "$sshd_pid" 2>/dev/null
	for f in "$tmp"/worker-*.pid; do [ -f "$f" ] && kill "$(cat "$f")" 2>/dev/null; done
	rm -rf "$tmp"
}
trap cleanup EXIT
trap 'exit 1' HUP INT TERM PIPE
chmod 700 "$tmp"
root=$(pwd)
cuda=${CUDA_HOME:-/usr/local/cuda}
if ! cc -std=c11 -D_GNU_SOURCE -Isrc/core -Isrc/lesson -Isrc/engine -Isrc/runner -Isrc/worker -Isrc/app -I$cuda/include tests/fake_worker.c src/core/result.c src/core/util.c -o "$tmp/fake" 2>"$tmp/cc.log"; then
	fail "runner ssh: the fake worker did not build: $(head -3 "$tmp/cc.log")"; exit 0
fi
ssh-keygen -q -t ed25519 -N '' -f "$tmp/host_key" && ssh-keygen -q -t ed25519 -N '' -f "$tmp/id" || { fail "runner ssh: ssh-keygen"; exit 0; }
cp "$tmp/id.pub" "$tmp/authorized_keys"
chmod 600 "$tmp/authorized_keys"
# sshd as root needs its privilege-separation folder; as another user it runs without.
[ "$(id -u)" = 0 ] && mkdir -p /run/sshd 2>/dev/null
port=
for try in 1 2 3 4 5; do
	p=$((20000 + ($$ * 7 + try * 7919) % 40000))
	cat >"$tmp/sshd_config" <<EOF
Port $p
ListenAddress 127.0.0.1
HostKey $tmp/host_key
PidFile $tmp/sshd.pid
AuthorizedKeysFile $tmp/authorized_keys
PubkeyAuthentication yes
PasswordAuthentication no
KbdInteractiveAuthentication no
UsePAM no
StrictModes no
PermitRootLogin prohibit-password
LogLevel VERBOSE
EOF
	"$sshd" -D -f "$tmp/sshd_config" -E "$tmp/sshd.log" &
	sshd_pid=$!
	cat >"$tmp/ssh_config" <<EOF
Host cctest
	HostName 127.0.0.1
	Port $p
	User $(id -un)
	IdentityFile $tmp/id
	IdentitiesOnly yes
	UserKnownHostsFile $tmp/known_hosts
	StrictHostKeyChecking accept-new
	LogLevel ERROR
Host ccclosed
	HostName 127.0.0.1
	Port 1
	LogLevel ERROR
EOF
	i=0; while [ $i -lt 50 ] && ! ssh -F "$tmp/ssh_config" -o BatchMode=yes cctest true 2>/dev/null; do sleep 0.1; i=$((i + 1)); done
	if [ $i -lt 50 ]; then port=$p; break; fi
	kill "$sshd_pid" 2>/dev/null; wait "$sshd_pid" 2>/dev/null; sshd_pid=
done
if [ -z "$port" ]; then
	skip "runner ssh: a local sshd would not start or let this user in ($(tail -2 "$tmp/sshd.log" 2>/dev/null | tr '\n' ' '))"; exit 0
fi
export CUDACLIMB_SSH="ssh -F $tmp/ssh_config"
unset CUDACLIMB_WORKER CUDACLIMB_RUNNER

# Workers on the far side: wrappers that note the ssh session they came through and their pid.
remote() {   # name program [VAR=VALUE...]
	name=$1 prog=$2; shift 2
	{ echo '#!/bin/sh'; echo "echo \"\$SSH_CONNECTION\" >>'$tmp/sessions'"; echo "echo \$\$ >'$tmp/worker-$name.pid'"
	  for kv in "$@"; do echo "export $kv"; done; echo "exec '$prog' \"\$@\""; } >"$tmp/$name"
	chmod 755 "$tmp/$name"
}
remote real "$root/$B"
remote echo "$tmp/fake" CC_FAKE=echo CC_FAKE_ARCH=sm_80
remote fault "$tmp/fake" CC_FAKE=fault
remote version "$tmp/fake" CC_FAKE=version
remote hang "$tmp/fake" CC_FAKE=hang
FX=tests/fixtures/exercise
S() { $B --runner ssh cctest "$@"; }

# The device, from a real worker over ssh: this machine's GPU, or its lack, said as from there.
if $B device >/dev/null 2>&1; then
	expect "runner ssh: the device comes back through ssh" 0 "^worker: ssh cctest" S --remote-worker "$tmp/real" device
else
	expect "runner ssh: the device comes back through ssh (no GPU there)" 3 "^no GPU: .*\(worker: ssh cctest\)" S --remote-worker "$tmp/real" device
fi
grep -q "^127\.0\.0\.1 [0-9]* 127\.0\.0\.1 $port" "$tmp/sessions" 2>/dev/null && pass "runner ssh: the worker was started by sshd" \
	|| fail "runner ssh: no ssh session reached the worker ($(cat "$tmp/sessions" 2>/dev/null))"

# A run: compiled here for the far GPU (sm_80), the code and the evaluated plans sent as bytes.
out=$(S --remote-worker "$tmp/echo" --lessons $FX run demo/scale --json 2>&1); code=$?
if [ $code = 0 ] && printf '%s' "$out" | grep -q '"message": "plan [0-9]* bytes scale [0-9,/]*; ref_plan [0-9]* bytes scale [0-9,/]*; cubin [0-9]* bytes ELF; ref_cubin [0-9]* bytes ELF; "' &&
	printf '%s' "$out" | grep -q '"arch": "sm_80"'; then pass "runner ssh: a run compiled here for the far GPU, its code sent as bytes, answered there"
else fail "runner ssh: a run through the fake worker: exit $code"; printf '%s\n' "$out" | grep -v '^{"metric' | head -5 | cut -c1-300; fi
expect "runner ssh: the same from CUDACLIMB_RUNNER" 0 "^scale +1\.0000 " env CUDACLIMB_RUNNER="ssh cctest worker=$tmp/echo" $B --lessons $FX run demo/scale
expect "runner ssh: a fault is a fault, over ssh" 1 "scale: the kernel failed: an illegal memory access" S --remote-worker "$tmp/fault" --lessons $FX run demo/scale
t0=$(date +%s)
expect "runner ssh: a hang over ssh is stopped by the watchdog" 1 "did not finish within 2 s" S --remote-worker "$tmp/hang" --lessons $FX run demo/scale --timeout 2
[ $(( $(date +%s) - t0 )) -lt 10 ] && pass "runner ssh: the hang ended in time" || fail "runner ssh: the hang took $(( $(date +%s) - t0 )) s"
expect "runner ssh: another protocol version names both" 3 "speaks protocol 999 and this cudaclimb protocol [0-9]+" S --remote-worker "$tmp/version" device

# On a GPU box: the real worker over ssh runs a stage, and judges a learner's file (the stage's
# own kernel: it passes) with the pair timed and the reference hidden, all as bytes on the pipe.
if $B device >/dev/null 2>&1; then
	expect "runner ssh: a stage run on the GPU over ssh" 0 "^coalesced +[0-9]" S --remote-worker "$tmp/real" run bandwidth/coalesced --reps 5
	mkdir -p "$tmp/gpuwork"
	expect "runner ssh: a try over ssh passes with the stage's own kernel" 0 "^PASSED" env CUDACLIMB_WORK="$tmp/gpuwork" \
		$B --runner ssh cctest --remote-worker "$tmp/real" try bandwidth/coalesced kernels/bandwidth/coalesced.cu --reps 10
else
	skip "runner ssh: a stage run on a GPU over ssh (no GPU here)"
fi

# What goes wrong, in one line each.
one_line() {   # name exit pattern command...
	name=$1 want=$2 pat=$3; shift 3
	out=$("$@" 2>&1); got=$?
	lines=$(printf '%s\n' "$out" | grep -c .)
	if [ "$got" = "$want" ] && [ "$lines" = 1 ] && printf '%s' "$out" | grep -Eq -- "$pat"; then pass "$name"
	else fail "$name: exit $got, $lines lines"; printf '%s\n' "$out" | head -5 | sed 's/^/    /'; fi
}
one_line "runner ssh: no worker there is one line, a runner error" 5 "^runner_error: no cudaclimb worker on cctest: .*No such file.*--remote-worker PATH" S --remote-worker /nonexistent/cudaclimb device
one_line "runner ssh: an unreachable host is one line, a runner error" 5 "^runner_error: cannot reach ccclosed: ssh: connect to host 127\.0\.0\.1 port 1: Connection refused$" $B --runner ssh ccclosed device
mkdir -p "$tmp/work/demo"
cp $FX/learner/right.cu "$tmp/work/demo/scale.cu"
sum=$(cksum <"$tmp/work/demo/scale.cu")
out=$(CUDACLIMB_WORK=$tmp/work $B --runner ssh ccclosed --lessons $FX try demo/scale 2>&1); code=$?
if [ $code != 0 ] && printf '%s' "$out" | grep -q "cannot reach ccclosed" && [ "$(cksum <"$tmp/work/demo/scale.cu")" = "$sum" ]; then
	pass "runner ssh: a try with the host unreachable says so and keeps the learner's file"
else fail "runner ssh: a try with the host unreachable: exit $code"; printf '%s\n' "$out" | head -5 | sed 's/^/    /'; fi

# A course that names the runner.
mkdir -p "$tmp/lab"
cat >"$tmp/lab/course.yaml" <<EOF
course: ssh_lab
title: Over ssh
exercises: [demo/scale]
runner: ssh
ssh: { host: cctest, worker: "$tmp/echo" }
EOF
expect "runner ssh: the course's runner" 0 "^scale +1\.0000 " $B --course "$tmp/lab" --lessons $FX run demo/scale
printf 'course: bad\ntitle: T\nexercises: [demo/scale]\nrunner: ssh\nssh: { host: "-oProxyCommand=x" }\n' >"$tmp/lab/course.yaml"
expect "runner ssh: a course's host that would be an option is refused at its place" 4 "course.yaml:5:[0-9]+: .*cannot start with '-'" \
	$B --course "$tmp/lab" --lessons $FX list
