#!/bin/sh
# Installs what cudaclimb needs, where it can (Debian/Ubuntu, as root or with sudo), and otherwise
# prints the exact command to run. One set, from the first argument or CUDACLIMB_DEPS:
#   run    what the tool needs to build and start (gcc, make, pkg-config, libyaml, ncurses): make run
#   test   that and what the tests need too (cmocka, tmux): make test, the default
# The CUDA Toolkit itself is not installed here: it comes from NVIDIA's packages; CUDA_HOME points at
# it (default /usr/local/cuda).
set -u
CUDA_HOME=${CUDA_HOME:-/usr/local/cuda}
want=${1:-${CUDACLIMB_DEPS:-test}}
case $want in run|test) ;; *) echo "deps.sh: unknown set '$want' (run or test)"; exit 2;; esac
missing=""
have_pc() { pkg-config --exists "$1" 2>/dev/null; }
command -v pkg-config >/dev/null 2>&1 || missing="$missing pkg-config"
command -v make >/dev/null 2>&1 || missing="$missing make"
command -v gcc >/dev/null 2>&1 || missing="$missing gcc"
have_pc yaml-0.1 || missing="$missing libyaml-dev"
have_pc ncursesw || missing="$missing libncurses-dev"
if [ "$want" = test ]; then
	have_pc cmocka || missing="$missing libcmocka-dev"
	command -v tmux >/dev/null 2>&1 || missing="$missing tmux"
fi
if [ -n "$missing" ]; then
	if [ "$(id -u)" = 0 ]; then sudo=""; elif command -v sudo >/dev/null 2>&1 && sudo -n true 2>/dev/null; then sudo="sudo"; else sudo="none"; fi
	if command -v apt-get >/dev/null 2>&1 && [ "$sudo" != none ]; then
		echo "cudaclimb: installing$missing"
		$sudo apt-get update -qq >/dev/null 2>&1 || true
		DEBIAN_FRONTEND=noninteractive $sudo apt-get install -y -qq $missing >/dev/null || {
			echo "cudaclimb: apt-get could not install$missing"; exit 1; }
	else
		echo "cudaclimb: missing$missing. Install them with:"
		echo "    sudo apt-get install$missing"
		exit 1
	fi
fi
if [ ! -x "$CUDA_HOME/bin/nvcc" ] || [ ! -f "$CUDA_HOME/include/nvrtc.h" ]; then
	echo "cudaclimb: no CUDA Toolkit at $CUDA_HOME (nvcc and nvrtc.h are needed)."
	echo "    Install the CUDA Toolkit 13 (https://developer.nvidia.com/cuda-downloads) or set CUDA_HOME."
	exit 1
fi
# A headless browser for the test of the class report's HTML page: optional, so that a machine
# without it still builds and tests (that test then says SKIP).
if [ "$want" = test ] && [ -z "${CUDACLIMB_NO_FETCH:-}" ] && ! command -v chromium >/dev/null 2>&1 && ! command -v chromium-browser >/dev/null 2>&1 &&
	[ "$(id -u)" = 0 ] && command -v apt-get >/dev/null 2>&1; then
	echo "cudaclimb: installing chromium (headless, for the report's HTML test)"
	DEBIAN_FRONTEND=noninteractive timeout 600 apt-get install -y -qq chromium >/dev/null 2>&1 || echo "cudaclimb: chromium could not be installed: that test will say SKIP"
fi
# sshd and a one-node Slurm (with munge), for the tests of the ssh and slurm runners
# (tests/cli/runner_ssh.sh, runner_slurm.sh): optional, so that a machine without them still builds
# and tests (those tests then say SKIP). Only the daemons and clients, no recommended extras.
if [ "$want" = test ] && [ -z "${CUDACLIMB_NO_FETCH:-}" ] && [ "$(id -u)" = 0 ] && command -v apt-get >/dev/null 2>&1; then
	runners=""
	[ -x /usr/sbin/sshd ] || runners="$runners openssh-server"
	command -v ssh >/dev/null 2>&1 || runners="$runners openssh-client"
	command -v slurmctld >/dev/null 2>&1 || [ -x /usr/sbin/slurmctld ] || runners="$runners slurmctld"
	command -v slurmd >/dev/null 2>&1 || [ -x /usr/sbin/slurmd ] || runners="$runners slurmd"
	command -v srun >/dev/null 2>&1 || runners="$runners slurm-client"
	command -v munged >/dev/null 2>&1 || [ -x /usr/sbin/munged ] || runners="$runners munge"
	if [ -n "$runners" ]; then
		echo "cudaclimb: installing$runners (for the ssh and slurm runner tests)"
		# the daemons are started by the tests themselves, never by the package scripts
		policy=/usr/sbin/policy-rc.d; own_policy=
		[ -e $policy ] || { printf '#!/bin/sh\nexit 101\n' >$policy && chmod 755 $policy && own_policy=1; }
		inst() { DEBIAN_FRONTEND=noninteractive timeout 600 apt-get install -y -qq --no-install-recommends $runners >/dev/null 2>&1; }
		inst || { apt-get update -qq >/dev/null 2>&1; inst; } || echo "cudaclimb: could not install$runners: those runner tests will say SKIP"
		if [ -n "$own_policy" ]; then rm -f $policy; fi
	fi
fi
# nvdisasm, for the SASS view (show --sass, v in the code pane): the toolkit's, or NVIDIA's
# nvidia-cuda-nvdisasm package from PyPI unpacked beside the binary. Optional: without it that view
# says how to get it.
tools=${BUILD:-build}/tools
if [ -z "${CUDACLIMB_NO_FETCH:-}" ] && [ ! -x "$CUDA_HOME/bin/nvdisasm" ] && ! command -v nvdisasm >/dev/null 2>&1 && [ ! -x "$tools/nvdisasm" ] &&
	command -v python3 >/dev/null 2>&1; then
	tmpw=$(mktemp -d)
	if timeout 180 python3 -m pip download -q --no-deps --only-binary=:all: -d "$tmpw" nvidia-cuda-nvdisasm >/dev/null 2>&1 &&
		mkdir -p "$tools" && python3 - "$tmpw" "$tools" <<'PY'
import glob, os, sys, zipfile
whl = glob.glob(os.path.join(sys.argv[1], "*.whl"))[0]
with zipfile.ZipFile(whl) as z:
    name = next(n for n in z.namelist() if n.endswith("/bin/nvdisasm"))
    out = os.path.join(sys.argv[2], "nvdisasm")
    with z.open(name) as src, open(out + ".tmp", "wb") as dst:
        dst.write(src.read())
    os.chmod(out + ".tmp", 0o755)
    os.rename(out + ".tmp", out)
PY
	then echo "cudaclimb: fetched nvdisasm (NVIDIA's nvidia-cuda-nvdisasm package) into $tools, for the SASS view"
	else echo "cudaclimb: no nvdisasm (the SASS view needs it): it comes with the CUDA Toolkit, or: pip install nvidia-cuda-nvdisasm"
	fi
	rm -rf "$tmpw"
fi
exit 0
