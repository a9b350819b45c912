#!/bin/sh
# scripts/deps.sh's install path (#31) against a stub apt-get that touches the terminal (stty, then
# a read from /dev/tty) and always exits 1, and a stub dpkg-query that tells what the stub installed:
# run with a pseudo-terminal (script(1)) and without one, it must finish within its time bound (no
# stop, no wait on the terminal), list what it installs before installing, judge each package by
# dpkg-query (no false "not installed", no false "installed"), keep every service off (policy-rc.d
# in place during the install, the admin's own restored after; a unit the install enabled is
# disabled again, one enabled before is left alone). Nothing real is installed: / is a folder here.
. tests/lib.sh
tmp=$(mktemp -d); trap 'rm -rf "$tmp"' EXIT
root=$tmp/root bin=$tmp/bin
mkdir -p "$bin" "$tmp/cuda/bin" "$tmp/cuda/include" "$root/usr/sbin" "$root/etc/systemd/system/multi-user.target.wants"
touch "$tmp/cuda/include/nvrtc.h"
printf '#!/bin/sh\nexit 0\n' >"$tmp/cuda/bin/nvcc"; chmod +x "$tmp/cuda/bin/nvcc"
# the tools the script may use, and nothing else of this machine's (no python3: no PyPI fetch)
for t in sh env setsid timeout mktemp find sort grep sed basename dirname mkdir mv rm tee chmod tr head cat ln stty sleep; do
	p=$(command -v $t) && ln -s "$p" "$bin/$t"
done
stub() { printf '#!/bin/sh\n%s\n' "$2" >"$bin/$1"; chmod +x "$bin/$1"; }
stub id 'echo 0'
stub gcc 'exit 0'; stub make 'exit 0'
stub pkg-config 'case " $* " in *" cmocka "*) exit 1;; esac; exit 0'
# apt-get: touches the terminal first (a process stopped by the terminal, or one waiting for a
# key, ends the test by its time bound), records whether policy-rc.d refused starts, "installs"
# each package not in FAIL_PKGS, enables a unit for each in SERVICE_PKGS, and exits 1 regardless.
cat >"$bin/apt-get" <<STUB
#!/bin/sh
if stty -a </dev/tty >/dev/null 2>&1; then echo "tty: yes" >>"$tmp/apt.log"; read answer </dev/tty; else echo "tty: none" >>"$tmp/apt.log"; fi
[ "\$1" = install ] || exit 0
"$root/usr/sbin/policy-rc.d" ssh start; echo "policy: \$?" >>"$tmp/apt.log"
echo "frontend: \$DEBIAN_FRONTEND" >>"$tmp/apt.log"
for p; do
	case \$p in -*|install|Dpkg::*) continue;; esac
	case " \$FAIL_PKGS " in *" \$p "*) continue;; esac
	echo "\$p" >>"$tmp/dpkg.state"
	case " \$SERVICE_PKGS " in *" \$p "*) ln -sf /lib/systemd/system/\$p.service "$root/etc/systemd/system/multi-user.target.wants/\$p.service";; esac
done
exit 1
STUB
chmod +x "$bin/apt-get"
stub dpkg-query "for p; do :; done; grep -qx \"\$p\" \"$tmp/dpkg.state\" 2>/dev/null && printf 'install ok installed' || exit 1"
SH=$(command -v sh)
reset() {
	rm -f "$tmp/dpkg.state" "$tmp/apt.log" "$root/etc/systemd/system/multi-user.target.wants/"*
	ln -s /lib/systemd/system/admin.service "$root/etc/systemd/system/multi-user.target.wants/admin.service"
	printf '#!/bin/sh\n# the admin own\nexit 0\n' >"$root/usr/sbin/policy-rc.d"; chmod 755 "$root/usr/sbin/policy-rc.d"
}
DEPS="env PATH=$bin CUDA_HOME=$tmp/cuda DEPS_ROOT=$root DEPS_TIMEOUT=20 SERVICE_PKGS='openssh-server munge slurmd slurmctld'"
# run NAME TTY(0|1) [VAR=VALUE...]: deps.sh test within 60 s; its output in $out, its status in $code
run() {
	name=$1 tty=$2; shift 2
	reset
	start=$(date +%s)
	if [ "$tty" = 1 ]; then
		out=$(timeout 60 script -qec "$DEPS $* $SH scripts/deps.sh test" /dev/null </dev/null 2>&1); code=$?
	else
		out=$(eval "timeout 60 $DEPS $* $SH scripts/deps.sh test" </dev/null 2>&1); code=$?
	fi
	secs=$(( $(date +%s) - start ))
	out=$(printf '%s\n' "$out" | tr -d '\r')
}
if ! command -v script >/dev/null 2>&1; then skip "deps tty: no script(1) here (util-linux)"; fi
for tty in 0 1; do
	[ $tty = 1 ] && { command -v script >/dev/null 2>&1 || continue; how="with a terminal"; } || how="without a terminal"
	run "$how" $tty
	if [ $code = 124 ] || [ $code = 137 ] || [ $secs -ge 20 ]; then fail "deps $how: stopped or waited ($secs s, exit $code)"; printf '%s\n' "$out" | head -5 | sed 's/^/    /'; continue; fi
	[ $code = 0 ] && pass "deps $how: finished in $secs s, exit 0" || { fail "deps $how: exit $code"; printf '%s\n' "$out" | head -10 | sed 's/^/    /'; }
	grep -q '^tty: yes' "$tmp/apt.log" 2>/dev/null && fail "deps $how: apt-get had a terminal" || pass "deps $how: apt-get ran with no terminal"
	if printf '%s\n' "$out" | grep -Eq 'not installed|did not install|could not'; then
		fail "deps $how: a false failure message"; printf '%s\n' "$out" | grep -E 'not installed|did not|could not' | sed 's/^/    /'
	else pass "deps $how: no false failure message (apt-get exited 1, dpkg-query says installed)"; fi
	for want in "installed libcmocka-dev tmux" "installed chromium" "installed openssh-server openssh-client" "installed slurmctld slurmd slurm-client munge"; do
		printf '%s\n' "$out" | grep -q "^cudaclimb: $want\$" && pass "deps $how: $want" || { fail "deps $how: no line '$want'"; printf '%s\n' "$out" | sed 's/^/    /'; }
	done
	# the list first, then the install
	l=$(printf '%s\n' "$out" | grep -n '^cudaclimb: make test installs' | cut -d: -f1)
	i=$(printf '%s\n' "$out" | grep -n '^cudaclimb: installed' | head -1 | cut -d: -f1)
	if [ -n "$l" ] && [ -n "$i" ] && [ "$l" -lt "$i" ] && printf '%s\n' "$out" | grep -q 'apt-get: slurmctld slurmd slurm-client munge (optional: the Slurm runner test)'; then
		pass "deps $how: the list (with purposes) comes before the install"
	else fail "deps $how: no list before the install"; printf '%s\n' "$out" | head -12 | sed 's/^/    /'; fi
	grep -q '^policy: 101' "$tmp/apt.log" && ! grep -q '^policy: [^1]' "$tmp/apt.log" && pass "deps $how: policy-rc.d refused every start during the install" \
		|| fail "deps $how: policy-rc.d during the install: $(grep '^policy' "$tmp/apt.log" | tr '\n' ' ')"
	grep -q '^frontend: noninteractive' "$tmp/apt.log" && pass "deps $how: DEBIAN_FRONTEND=noninteractive" || fail "deps $how: DEBIAN_FRONTEND not noninteractive"
	grep -q 'the admin own' "$root/usr/sbin/policy-rc.d" && pass "deps $how: the admin's policy-rc.d restored" || fail "deps $how: policy-rc.d not restored: $(cat "$root/usr/sbin/policy-rc.d" 2>&1 | head -3)"
	ls "$root/usr/sbin" | grep -q saved && fail "deps $how: a saved policy-rc.d left behind" || pass "deps $how: nothing left in usr/sbin"
	links=$(ls "$root/etc/systemd/system/multi-user.target.wants" | tr '\n' ' ')
	[ "$links" = "admin.service " ] && pass "deps $how: the units the install enabled are disabled, the admin's kept" || fail "deps $how: wants links after: $links"
	printf '%s\n' "$out" | grep -q 'disabled what the install enabled at boot:.*openssh-server.service' && pass "deps $how: says which units it disabled" || fail "deps $how: no line naming the disabled units"
done
# a package that really is not there: said so, and only that one
run "a failure" 0 FAIL_PKGS=chromium
expect_line() { printf '%s\n' "$out" | grep -q -- "$2" && pass "deps: $1" || { fail "deps: $1 (no /$2/)"; printf '%s\n' "$out" | sed 's/^/    /'; }; }
[ $code = 0 ] && pass "deps: an optional package missing leaves make test going" || fail "deps: an optional package missing: exit $code"
expect_line "a missing optional package is named" "^cudaclimb: chromium was not installed.*HTML test will say SKIP"
printf '%s\n' "$out" | grep -q "^cudaclimb: installed openssh-server" && pass "deps: the other groups still install" || fail "deps: the other groups after a failure"
run "a required failure" 0 FAIL_PKGS=libcmocka-dev
[ $code = 1 ] && pass "deps: a required package missing stops make test (exit 1)" || fail "deps: a required package missing: exit $code"
expect_line "the required package is named with the command" "sudo apt-get install libcmocka-dev"
printf '%s\n' "$out" | grep -q "did not install.*tmux" && fail "deps: tmux (installed) named as failed" || pass "deps: only the failed package is named"
grep -q 'the admin own' "$root/usr/sbin/policy-rc.d" && pass "deps: policy-rc.d restored after a failing install" || fail "deps: policy-rc.d not restored after exit 1"
expect "deps list: the whole list, nothing installed" 0 "slurmctld slurmd slurm-client munge +the Slurm runner test" sh scripts/deps.sh list
